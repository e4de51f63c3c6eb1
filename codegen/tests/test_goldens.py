"""Golden pairs: small schemas in `cases/<case>/idl/`, their expected output in `cases/<case>/expected/`.

Goldens hold only what derives from the IDL, what the generator writes: the hand-written half
of each package (`support/<language>/`) is checked where it is edited, and joined to a case's
generated half by `common.assemble` where a test builds the case's whole package.
Set TOOLNEXUS_UPDATE_GOLDENS=1 to rewrite the expected files after a deliberate change, or
TOOLNEXUS_UPDATE_GOLDENS=rust,typescript to rewrite only those languages' folders
(python, typescript, rust, jsonschema).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from codegen import __main__ as cli
from codegen.common import assemble
from codegen.idl import IdlError, load

CASES = Path(__file__).parent / "cases"
_UPDATE = os.environ.get("TOOLNEXUS_UPDATE_GOLDENS", "")
LANGUAGES = ("python", "typescript", "rust", "jsonschema")
UPDATE = set(LANGUAGES) if _UPDATE == "1" else {x for x in _UPDATE.split(",") if x}
CASE_NAMES = sorted(p.name for p in CASES.iterdir() if (p / "idl").is_dir())


def render_case(case: Path) -> dict[str, str]:
    """Everything `make gen` would write for the case: what the goldens hold."""
    idl = load(case / "idl")
    files: dict[str, str] = {}
    for target in cli.TARGETS:
        files.update(target.render(idl))
    return files


def expected_files(case: Path) -> dict[str, str]:
    root = case / "expected"
    return {
        p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("case", CASE_NAMES)
def test_golden(case):
    path = CASES / case
    got = render_case(path)
    for language in UPDATE:
        shutil.rmtree(path / "expected" / language, ignore_errors=True)
        for rel, text in got.items():
            if rel.split("/", 1)[0] != language:
                continue
            dest = path / "expected" / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(text, encoding="utf-8", newline="\n")
    want = expected_files(path)
    assert sorted(got) == sorted(want)
    for rel in want:
        assert got[rel] == want[rel], f"{case}: {rel} differs from its golden"


def samples(case: Path) -> dict[str, list[str]]:
    """Hand-written wire documents of the case, each already in canonical form."""
    data: dict[str, list[str]] = json.loads((case / "samples.json").read_text(encoding="utf-8"))
    return data


def write_package(case: Path, language: str, dest: Path) -> Path:
    """The case's whole package for `language` (its generated and hand-written halves), as the
    package's tree in the repository lays it out."""
    assemble(load(case / "idl"), render_case(case), dest)
    return dest / language


@pytest.mark.slow
@pytest.mark.parametrize("case", CASE_NAMES)
def test_python_golden_builds_and_round_trips(case: str, tmp_path: Path) -> None:
    """The case's Python package passes mypy --strict, imports, and re-emits every sample byte for byte."""
    from codegen.tests.lang_python import build_and_roundtrip

    build_and_roundtrip(write_package(CASES / case, "python", tmp_path), samples(CASES / case))


def test_nested_golden_omits_empty_optional_arrays_but_keeps_required_ones(tmp_path):
    write_package(CASES / "nested", "python", tmp_path)
    code = (
        "import toolnexus_wire as w;"
        'b = w.Box.from_json(\'{"main":{"code":"A","size":"s"},"items":[],"tags":[]}\');'
        "print(b.to_json())"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "python")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.stdout.strip() == '{"main":{"code":"A","size":"s"},"tags":[]}', proc.stderr


@pytest.mark.slow
def test_generation_does_not_depend_on_the_process_or_its_environment(tmp_path):
    """Two generator processes with a different hash seed, working folder, locale and time zone
    write the same bytes (one process rendering twice would share every cache and seed)."""
    script = (
        "import hashlib, sys; sys.path.insert(0, sys.argv[1]); from codegen import __main__ as cli;"
        "files = cli.render_all();"
        "print(hashlib.sha256(repr(sorted(files.items())).encode()).hexdigest(), len(files))"
    )
    digests = set()
    for seed, tz, lang in (("1", "UTC", "C.UTF-8"), ("4242", "Asia/Kathmandu", "POSIX")):
        env = {**os.environ, "PYTHONHASHSEED": seed, "TZ": tz, "LC_ALL": lang, "LANG": lang}
        run = subprocess.run(
            [sys.executable, "-c", script, str(cli.ROOT)],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
        )
        assert run.returncode == 0, run.stderr
        digests.add(run.stdout.strip())
    assert len(digests) == 1, digests
    with_files = next(iter(digests))
    assert int(with_files.split()[1]) > 15


def test_every_generated_file_has_the_header():
    for rel, text in cli.render_all().items():
        if rel.endswith(("py.typed", ".lock")) or rel.rsplit("/", 1)[-1] == "LICENSE":
            continue  # a license file stays the plain text that license tools recognise
        assert "DO NOT EDIT" in text[:600], rel
        assert "sha256 " in text[:600], rel
        assert "/work/" not in text and "/tmp/" not in text, rel


def _copy_project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(cli.ROOT / "idl", root / "idl")
    for tree in ("generated", "support"):  # support/ holds the links into generated/, kept as links
        shutil.copytree(
            cli.ROOT / tree,
            root / tree,
            symlinks=True,
            ignore=shutil.ignore_patterns("node_modules", "target", "__pycache__", "dist"),
        )
    # The reference pages are generated from idl/ too, and checked with generated/.
    shutil.copytree(cli.ROOT / "docs" / "reference" / "wire", root / "docs" / "reference" / "wire")
    return root


def test_check_passes_when_current_and_fails_with_a_diff_when_idl_changes(tmp_path, capsys):
    root = _copy_project(tmp_path)
    assert cli.check(root) == 0
    schema = root / "idl" / "ToolResult.json"
    schema.write_text(schema.read_text().replace("The text the model reads", "The words the model reads"))
    capsys.readouterr()
    assert cli.check(root) == 1
    out = capsys.readouterr().out
    added = [
        line for line in out.splitlines() if line.startswith("+") and "The words the model reads" in line
    ]
    removed = [
        line for line in out.splitlines() if line.startswith("-") and "The text the model reads" in line
    ]
    assert added and removed, out
    assert "--- generated/python/toolnexus_wire/models.py" in out
    assert cli.gen(root) == 0
    assert cli.check(root) == 0


def test_gen_removes_files_it_no_longer_writes(tmp_path):
    root = _copy_project(tmp_path)
    stray = root / "generated" / "python" / "toolnexus_wire" / "stale.py"
    stray.write_text("x = 1\n")
    assert cli.check(root) == 1
    cli.gen(root)
    assert not stray.exists()


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        (
            {"title": "Note", "type": "object", "properties": {"a": {"type": "string"}}},
            "needs a `description`",
        ),
        (
            {
                "title": "Note",
                "description": "d",
                "type": "object",
                "properties": {
                    "a": {"description": "x", "type": "object", "properties": {"b": {"type": "string"}}}
                },
            },
            "inline object",
        ),
        ({"title": "Other", "description": "d", "type": "object"}, "`title` must be 'Note'"),
        (
            {
                "title": "Note",
                "description": "d",
                "type": "object",
                "properties": {"a": {"description": "x", "$ref": "Nope.json"}},
            },
            "does not list",
        ),
    ],
)
def test_the_loader_refuses_what_the_targets_cannot_render(tmp_path, schema, message):
    (tmp_path / "manifest.json").write_text(
        '{"name":"m","version":"1.0.0","description":"d","types":["Note"]}'
    )
    (tmp_path / "Note.json").write_text(__import__("json").dumps(schema))
    with pytest.raises(IdlError, match=message):
        load(tmp_path)
