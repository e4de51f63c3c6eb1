"""The bundled schema in the common JSON Schema tools, measured on every wire vector.

Each tool is run on `generated/jsonschema/toolnexus.schema.json` as its users run it, and
every vector of `idl/examples/` goes through what it makes:

| tool | what reads a vector | what writes it back |
|---|---|---|
| Ajv (strict: true, nothing added) | `validate` of `$defs/<Type>` after `JSON.parse` | — |
| json-schema-to-typescript | tsc (strict) over the vector as a literal of its type | — (types only) |
| quicktype, TypeScript | its run-time checks (`Convert`) | `JSON.stringify` of what they give |
| quicktype, Rust | serde_json into its struct | `serde_json::to_string` |
| datamodel-code-generator | `model_validate_json` | `model_dump_json(by_alias=True, exclude_unset=True)` |
| cargo-typify (the typify library it runs) | serde_json into its struct | `serde_json::to_string` |

A vector is accepted when it is read without error; a round trip counts when the text written
back is the vector's canonical form byte for byte. The counts are recorded in
docs/generators.md (between the `generators:begin`/`end` markers); a count lower than the
recorded one, or a tool that stops accepting the schema, fails the test.
`TOOLNEXUS_UPDATE_GENERATORS=1` rewrites the recorded table after a deliberate change.
`python -m tests.wire.test_generators [BUNDLE EXAMPLES]` prints the table for any bundle (the
"before" table was measured so, on the bundle and vectors of 2.0.0).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.needs import npm_ci

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "tests" / "generators"
BUNDLE = ROOT / "generated" / "jsonschema" / "toolnexus.schema.json"
EXAMPLES = ROOT / "idl" / "examples"
DOC = ROOT / "docs" / "generators.md"
BEGIN, END = "<!-- generators:begin -->", "<!-- generators:end -->"
#: The tools, in the order of the table.
TOOLS = (
    "ajv",
    "json-schema-to-typescript",
    "quicktype-ts",
    "quicktype-rust",
    "datamodel-code-generator",
    "cargo-typify",
)
LABELS = {
    "ajv": "Ajv 8.20.0, `strict: true`",
    "json-schema-to-typescript": "json-schema-to-typescript 16.0.0",
    "quicktype-ts": "quicktype 26.0.0 → TypeScript",
    "quicktype-rust": "quicktype 26.0.0 → Rust",
    "datamodel-code-generator": "datamodel-code-generator 0.89.0 → pydantic v2",
    "cargo-typify": "cargo-typify 0.8.0 (typify)",
}
#: Tools that only check or only type a document: no round trip.
NO_EMITTER = {"ajv", "json-schema-to-typescript"}


@dataclass
class Measured:
    tool: str
    accepts: bool = False
    note: str = ""
    valid: int = 0
    invalid: int = 0
    roundtrip: int | None = None
    #: The vectors the tool got wrong, for the notes.
    wrong: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Vector:
    type_name: str
    kind: str
    path: Path
    canonical: bytes | None

    @property
    def id(self) -> str:
        return f"{self.type_name}/{self.kind}/{self.path.name}"


def _vectors(examples: Path) -> list[Vector]:
    out = []
    for path in sorted(examples.glob("*/*/*.json")):
        kind, type_name = path.parent.name, path.parent.parent.name
        if kind not in ("valid", "invalid"):
            continue
        canonical = None
        if kind == "valid":
            sidecar = path.parent.parent / "canonical" / path.name
            canonical = (sidecar if sidecar.exists() else path).read_bytes().rstrip(b"\n")
        out.append(Vector(type_name, kind, path, canonical))
    return out


def _rows(text: str) -> Iterator[dict[str, Any]]:
    # Split on "\n" only: emitted JSON may hold U+2028, which str.splitlines() breaks at.
    for line in text.split("\n"):
        if line:
            yield json.loads(line)


def _javascript(bundle: Path, examples: Path, work: Path) -> list[dict[str, Any]]:
    npm_ci(HERE)
    done = subprocess.run(
        ["node", str(HERE / "measure.mjs"), str(bundle), str(examples), str(work)],
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    )
    return list(_rows(done.stdout))


def _rust(bundle: Path, vectors: list[Vector], work: Path) -> list[dict[str, Any]]:
    target = Path(os.environ.get("TOOLNEXUS_GENERATORS_TARGET", ROOT / ".cache" / "generators-target"))
    env = {
        **os.environ,
        "TOOLNEXUS_BUNDLE": str(bundle),
        "TOOLNEXUS_QUICKTYPE_RS": str(work / "quicktype.rs"),
        "CARGO_TARGET_DIR": str(target),
    }
    built = subprocess.run(
        ["cargo", "build", "--quiet", "--manifest-path", str(HERE / "rust" / "Cargo.toml")],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )
    if built.returncode != 0:
        # Only quicktype's Rust is compiled as it is (typify's refusal is caught in build.rs).
        first = next((ln for ln in built.stderr.splitlines() if ln.startswith("error")), "does not compile")
        return [{"tool": "quicktype-rust", "accepts": False, "note": first[:160]}]
    lines = "".join(
        f"{tool}\t{v.type_name}\t{v.path}\n" for v in vectors for tool in ("cargo-typify", "quicktype-rust")
    )
    done = subprocess.run(
        [str(target / "debug" / "generator-runner")], input=lines, capture_output=True, text=True, check=True
    )
    rows = []
    for row in _rows(done.stdout):
        if "vector" in row:
            row["vector"] = "/".join(Path(row["vector"]).parts[-3:])
        rows.append(row)
    return rows


def _datamodel(bundle: Path, vectors: list[Vector], work: Path) -> list[dict[str, Any]]:
    out = work / "datamodel_models.py"
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "datamodel_code_generator",
            "--input",
            str(bundle),
            "--input-file-type",
            "jsonschema",
            "--output-model-type",
            "pydantic_v2.BaseModel",
            "--output",
            str(out),
            "--formatters",
            "builtin",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if made.returncode != 0:
        note = (made.stderr.strip().splitlines() or ["failed"])[-1][:160]
        return [{"tool": "datamodel-code-generator", "accepts": False, "note": note}]
    spec = importlib.util.spec_from_file_location("datamodel_models", out)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its annotations name its own classes
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    missing = [v.type_name for v in vectors if not hasattr(module, v.type_name)]
    rows: list[dict[str, Any]] = [
        {
            "tool": "datamodel-code-generator",
            "accepts": not missing,
            "note": f"no model for {', '.join(sorted(set(missing)))}" if missing else "",
        }
    ]
    for v in vectors:
        cls = getattr(module, v.type_name, None)
        row: dict[str, Any] = {"tool": "datamodel-code-generator", "vector": v.id, "ok": False}
        if cls is not None:
            try:
                value = cls.model_validate_json(v.path.read_bytes())
                row.update(ok=True, emitted=value.model_dump_json(by_alias=True, exclude_unset=True))
            except Exception:
                pass
        rows.append(row)
    return rows


def measure(bundle: Path = BUNDLE, examples: Path = EXAMPLES) -> dict[str, Measured]:
    vectors = _vectors(examples)
    by_id = {v.id: v for v in vectors}
    with tempfile.TemporaryDirectory(prefix="toolnexus-generators-") as tmp:
        work = Path(tmp)
        rows = _javascript(bundle, examples, work)
        rows += _rust(bundle, vectors, work)
        rows += _datamodel(bundle, vectors, work)
    results = {tool: Measured(tool) for tool in TOOLS}
    for row in rows:
        m = results[row["tool"]]
        if "vector" not in row:  # whether the tool takes the schema; a later say (the Rust build) wins
            m.accepts, m.note = row["accepts"], row["note"]
            continue
        v = by_id[row["vector"]]
        if v.kind == "valid":
            m.valid += row["ok"]
            if row["tool"] not in NO_EMITTER:
                m.roundtrip = (m.roundtrip or 0) + (
                    row["ok"] and row.get("emitted", "").encode("utf-8") == v.canonical
                )
            if not row["ok"]:
                m.wrong.append(v.id)
        else:
            m.invalid += not row["ok"]
            if row["ok"]:
                m.wrong.append(v.id)
    for m in results.values():
        if m.tool not in NO_EMITTER and m.roundtrip is None and m.accepts:
            m.roundtrip = 0
    return results


def table(results: dict[str, Measured], examples: Path = EXAMPLES) -> str:
    vectors = _vectors(examples)
    valid = sum(v.kind == "valid" for v in vectors)
    invalid = len(vectors) - valid
    lines = [
        f"| tool | accepts the schema? | valid accepted (of {valid}) | invalid rejected (of {invalid}) "
        f"| byte round trip (of {valid}) |",
        "|---|---|---|---|---|",
    ]
    for tool in TOOLS:
        m = results[tool]
        accepts = "yes" if m.accepts else f"no: {m.note}"
        counts = ["—", "—", "—"] if not m.accepts else [str(m.valid), str(m.invalid), "—"]
        if m.accepts and m.roundtrip is not None:
            counts[2] = str(m.roundtrip)
        elif m.accepts and tool in NO_EMITTER:
            counts[2] = "n/a"
        lines.append(f"| {LABELS[tool]} | {accepts} | {' | '.join(counts)} |")
    return "\n".join(lines) + "\n"


def _recorded() -> dict[str, tuple[str, ...]]:
    text = DOC.read_text(encoding="utf-8")
    block = text[text.index(BEGIN) + len(BEGIN) : text.index(END)]
    out = {}
    for line in block.strip().splitlines()[2:]:
        cells = tuple(c.strip() for c in line.strip().strip("|").split("|"))
        tool = next(t for t, label in LABELS.items() if label == cells[0])
        out[tool] = cells[1:]
    return out


@pytest.mark.slow
def test_every_tool_takes_the_bundle_and_no_count_drops() -> None:
    results = measure()
    got = table(results)
    if os.environ.get("TOOLNEXUS_UPDATE_GENERATORS") == "1":
        text = DOC.read_text(encoding="utf-8")
        start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
        DOC.write_text(text[:start] + "\n" + got + text[end:], encoding="utf-8")
    recorded = _recorded()
    for tool in TOOLS:
        m = results[tool]
        assert m.accepts, f"{tool} no longer accepts the bundle: {m.note}"
        was = recorded[tool]
        assert was[0] == "yes", f"docs/generators.md records {tool} as not accepting: {was[0]}"
        now = table(results).splitlines()[2 + TOOLS.index(tool)]
        for name, before, after in zip(
            ("valid accepted", "invalid rejected", "round trip"),
            was[1:],
            [c.strip() for c in now.strip("|").split("|")][2:],
            strict=True,
        ):
            if re.fullmatch(r"\d+", before):
                assert re.fullmatch(r"\d+", after) and int(after) >= int(before), (
                    f"{tool}: {name} dropped from {before} to {after}; wrong now: {m.wrong[:10]}"
                )
    # Every vector this project's own parsers accept, a schema validator accepts too.
    assert results["ajv"].valid == sum(v.kind == "valid" for v in _vectors(EXAMPLES))


if __name__ == "__main__":
    args = sys.argv[1:]
    measured = measure(Path(args[0]), Path(args[1])) if args else measure()
    sys.stdout.write(table(measured, Path(args[1]) if args else EXAMPLES))
    for m in measured.values():
        print(f"{m.tool}: wrong on {len(m.wrong)}: {', '.join(m.wrong[:8])}")
