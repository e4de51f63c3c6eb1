"""Cross-language conformance: every vector in idl/examples through every implementation.

Each implementation answers one JSON line per vector (`{"vector", "ok", "emitted"|"error", "path"?}`):
the Python models (in process), the generated TypeScript package and the generated Rust crate
(through their conformance CLIs), and two independent JSON Schema validators over the bundled
schema (Python `jsonschema`, npm `ajv`), which answer acceptance only.

`python -m tests.conformance` prints the table.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

import toolnexus
from tests.conftest import REPO
from tests.vectors import BUILT, EXAMPLES, BuiltVector, Vector, path_matches, repeats_a_key, vectors

TS_DIR = REPO / "tests" / "typescript"
PARSERS = ("python", "typescript", "rust")
SCHEMA_VALIDATORS = ("jsonschema", "ajv")


def _lines(cmd: list[str], cwd: Path) -> dict[str, dict[str, Any]]:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, check=True, timeout=600)
    # Split on "\n" only: emitted JSON may hold U+2028 and other characters str.splitlines() breaks at.
    lines = proc.stdout.decode("utf-8").split("\n")
    return {row["vector"]: row for row in map(json.loads, filter(None, lines))}


def python_answers() -> dict[str, dict[str, Any]]:
    out = {}
    for v in vectors():
        try:
            emitted = getattr(toolnexus, v.type_name).from_json(v.raw).to_json()
        except toolnexus.WireError as exc:
            out[v.id] = {"vector": v.id, "ok": False, "error": str(exc), "paths": [p for p, _ in exc.errors]}
        else:
            out[v.id] = {"vector": v.id, "ok": True, "emitted": emitted}
    return out


def typescript_answers() -> dict[str, dict[str, Any]]:
    if not (TS_DIR / ".cache" / "conformance.js").exists():
        subprocess.run(["bash", "run.sh", "build"], cwd=TS_DIR, check=True)
    return _lines(["node", ".cache/conformance.js", str(EXAMPLES)], TS_DIR)


def ajv_answers() -> dict[str, dict[str, Any]]:
    if not (TS_DIR / "node_modules" / "ajv").exists():
        subprocess.run(["bash", "run.sh", "build"], cwd=TS_DIR, check=True)
    return _lines(["node", "ajv_check.mjs", str(EXAMPLES)], TS_DIR)


def rust_answers() -> dict[str, dict[str, Any]]:
    return _lines(["bash", "tests/rust/run.sh", "conformance", str(EXAMPLES)], REPO)


def jsonschema_answers() -> dict[str, dict[str, Any]]:
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    from toolnexus._schema import validator_for

    bundle = json.loads(
        (REPO / "generated" / "jsonschema" / "toolnexus.schema.json").read_text(encoding="utf-8")
    )
    registry = Registry().with_resource(
        bundle["$id"], Resource.from_contents(bundle, default_specification=DRAFT202012)
    )
    cls = validator_for({"$schema": "https://json-schema.org/draft/2020-12/schema"})
    out = {}
    from toolnexus_wire import MAX_DEPTH
    from toolnexus_wire._speed import nesting

    for v in vectors():
        # The JSON-level rules (docs/limits.md) are not the schema's to express: a strict
        # RFC 8259 parser (orjson: no NaN, no lone surrogate, no number beyond a double)
        # the nesting limit and the repeated-key rule come first, as in every language.
        try:
            doc = orjson.loads(v.raw)
        except orjson.JSONDecodeError:
            ok = False
        else:
            ok = nesting(doc)[0] <= MAX_DEPTH and not repeats_a_key(v.raw)
        if ok:
            ok = cls({"$ref": f"{bundle['$id']}#/$defs/{v.type_name}"}, registry=registry).is_valid(doc)
        out[v.id] = {"vector": v.id, "ok": ok}
    return out


def python_built_answers() -> dict[str, dict[str, Any]]:
    """The built vectors (idl/examples/built.json) through the Python models, timed as the
    TypeScript and Rust runners time them."""
    import time

    from tests.vectors import built_vectors

    out: dict[str, dict[str, Any]] = {}
    for v in built_vectors():
        text = v.text()
        t0 = time.perf_counter()
        try:
            value = getattr(toolnexus, v.type_name).from_json(text)
        except toolnexus.WireError as exc:
            out[v.name] = {
                "vector": v.name,
                "ok": False,
                "paths": [p for p, _ in exc.errors],
                "parseMs": (time.perf_counter() - t0) * 1e3,
            }
            continue
        t1 = time.perf_counter()
        emitted = value.to_json()
        t2 = time.perf_counter()
        out[v.name] = {
            "vector": v.name,
            "ok": True,
            "same": emitted == text,
            "parseMs": (t1 - t0) * 1e3,
            "emitMs": (t2 - t1) * 1e3,
        }
    return out


def typescript_built_answers() -> dict[str, dict[str, Any]]:
    if not (TS_DIR / ".cache" / "conformance.js").exists():
        subprocess.run(["bash", "run.sh", "build"], cwd=TS_DIR, check=True)
    return _lines(["node", ".cache/conformance.js", "--built", str(BUILT)], TS_DIR)


def rust_built_answers() -> dict[str, dict[str, Any]]:
    # The binary judges the vectors itself too, and exits 1 when one fails; the verdict here is the test's.
    proc = subprocess.run(
        ["bash", "tests/rust/run.sh", "conformance", "--built", str(BUILT)],
        cwd=REPO,
        capture_output=True,
        timeout=600,
    )
    if proc.returncode not in (0, 1):
        raise RuntimeError(proc.stderr.decode("utf-8", "replace"))
    lines = proc.stdout.decode("utf-8").split("\n")
    return {row["vector"]: row for row in map(json.loads, filter(None, lines))}


#: The built vectors' runners, one per language (the schema validators do not run them).
BUILT_SOURCES: dict[str, Callable[[], dict[str, dict[str, Any]]]] = {
    "python": python_built_answers,
    "typescript": typescript_built_answers,
    "rust": rust_built_answers,
}


def built_verdict(vector: BuiltVector, answer: dict[str, Any] | None) -> str:
    """`pass`, or what went wrong with a built vector."""
    if answer is None:
        return "no answer"
    if vector.valid:
        if not answer["ok"]:
            return f"rejected: {answer.get('error')} at {answer.get('path') or answer.get('paths')}"
        return "pass" if answer["same"] else "emitted other bytes"
    if answer["ok"]:
        return "accepted"
    paths = answer.get("paths") or [answer.get("path")]
    return "pass" if vector.error_path in paths else f"wrong path {paths} (want {vector.error_path})"


SOURCES: dict[str, Callable[[], dict[str, dict[str, Any]]]] = {
    "python": python_answers,
    "typescript": typescript_answers,
    "rust": rust_answers,
    "jsonschema": jsonschema_answers,
    "ajv": ajv_answers,
}


def verdict(vector: Vector, answer: dict[str, Any] | None, parser: bool) -> str:
    """`pass`, or what went wrong."""
    if answer is None:
        return "no answer"
    if vector.valid:
        if not answer["ok"]:
            return f"rejected: {answer.get('error')}"
        if parser and answer["emitted"] != vector.expected:
            return f"emitted {answer['emitted']!r}"
        return "pass"
    if answer["ok"]:
        return "accepted"
    if parser:
        paths = answer.get("paths") or ([answer["path"]] if "path" in answer else [])
        if not paths:
            # A CLI that gives no separate path must name it in its message.
            paths = [vector.error_path] if vector.error_path in answer.get("error", "") else []
        if not any(path_matches(p, vector.error_path) for p in paths):
            return f"wrong path {paths} (want {vector.error_path}): {answer.get('error')}"
    return "pass"


def run() -> dict[str, dict[str, str]]:
    """{language: {vector id: verdict}}."""
    table: dict[str, dict[str, str]] = {}
    for name, source in SOURCES.items():
        answers = source()
        table[name] = {v.id: verdict(v, answers.get(v.id), name in PARSERS) for v in vectors()}
    return table


if __name__ == "__main__":
    table = run()
    all_vectors = vectors()
    print("| type | valid | invalid | " + " | ".join(SOURCES) + " |")
    print("|---|---|---|" + "---|" * len(SOURCES))
    for type_name in sorted({v.type_name for v in all_vectors}):
        mine = [v for v in all_vectors if v.type_name == type_name]
        cells = []
        for name in SOURCES:
            passed = sum(table[name][v.id] == "pass" for v in mine)
            cells.append(f"{passed}/{len(mine)}")
        print(
            f"| {type_name} | {sum(v.valid for v in mine)} | {sum(not v.valid for v in mine)} | "
            + " | ".join(cells)
            + " |"
        )
    failures = [(n, vid, why) for n, rows in table.items() for vid, why in rows.items() if why != "pass"]
    for failure in failures:
        print(*failure, sep="  ")
    raise SystemExit(1 if failures else 0)
