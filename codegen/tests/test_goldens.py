"""Golden pairs: small schemas in `cases/<case>/idl/`, their expected output in `cases/<case>/expected/`.

Set TOOLNEXUS_UPDATE_GOLDENS=1 to rewrite the expected files after a deliberate change.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from codegen import __main__ as cli
from codegen.idl import IdlError, load

CASES = Path(__file__).parent / "cases"
UPDATE = os.environ.get("TOOLNEXUS_UPDATE_GOLDENS") == "1"


def render_case(case: Path) -> dict[str, str]:
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


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir()))
def test_golden(case):
    path = CASES / case
    got = render_case(path)
    if UPDATE:
        shutil.rmtree(path / "expected", ignore_errors=True)
        for rel, text in got.items():
            dest = path / "expected" / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(text, encoding="utf-8", newline="\n")
    want = expected_files(path)
    assert sorted(got) == sorted(want)
    for rel in want:
        assert got[rel] == want[rel], f"{case}: {rel} differs from its golden"


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir()))
def test_python_golden_imports_and_round_trips(case, tmp_path):
    """The golden Python package itself works: it imports, and its first type round-trips."""
    shutil.copytree(CASES / case / "expected" / "python", tmp_path / "python")
    idl = load(CASES / case / "idl")
    first = idl.types[0]
    sample = {
        "Note": '{"text":"hi","isPinned":false,"author":"ü","x":1}',
        "Item": '{"code":"AB","size":"m","count":3,"weight":0.5,"x":[1]}',
    }[first.name]
    code = (
        "import toolnexus_wire as w, sys;"
        f"m = w.{first.name}.from_json(sys.argv[1]); assert m.to_json() == sys.argv[1], m.to_json()"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "python")}
    proc = subprocess.run([sys.executable, "-c", code, sample], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr


def test_nested_golden_omits_empty_optional_arrays_but_keeps_required_ones(tmp_path):
    shutil.copytree(CASES / "nested" / "expected" / "python", tmp_path / "python")
    code = (
        "import toolnexus_wire as w;"
        'b = w.Box.from_json(\'{"main":{"code":"A","size":"s"},"items":[],"tags":[]}\');'
        "print(b.to_json())"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "python")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.stdout.strip() == '{"main":{"code":"A","size":"s"},"tags":[]}', proc.stderr


def test_generation_is_deterministic():
    assert cli.render_all() == cli.render_all()


def test_every_generated_file_has_the_header():
    for rel, text in cli.render_all().items():
        if rel.endswith(("py.typed", ".lock")):
            continue
        assert "DO NOT EDIT" in text[:600], rel
        assert "sha256 " in text[:600], rel
        assert "/work/" not in text and "/tmp/" not in text, rel


def _copy_project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(cli.ROOT / "idl", root / "idl")
    shutil.copytree(
        cli.ROOT / "generated",
        root / "generated",
        ignore=shutil.ignore_patterns("node_modules", "target", "__pycache__", "dist"),
    )
    return root


def test_check_passes_when_current_and_fails_with_a_diff_when_idl_changes(tmp_path, capsys):
    root = _copy_project(tmp_path)
    assert cli.check(root) == 0
    schema = root / "idl" / "ToolResult.json"
    schema.write_text(schema.read_text().replace("The text the model reads", "The words the model reads"))
    capsys.readouterr()
    assert cli.check(root) == 1
    out = capsys.readouterr().out
    assert (
        "+    The words the model reads" in out
        or "+The words the model reads" in out
        or "The words the model reads" in out
    )
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
