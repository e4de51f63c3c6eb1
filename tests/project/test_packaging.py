"""What a user of the installed package meets beyond the wire: pydantic's own dumps give wire
JSON, constructors refuse unknown keywords, the constructor type-checks with and without the
pydantic mypy plugin, help() leads with the type's own API, and the versions agree."""

from __future__ import annotations

import inspect
import json
import pydoc
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import jsonschema
import pytest
import toolnexus_wire

import toolnexus
from codegen.idl import load
from codegen.jsonschema_target import published
from tests.vectors import vectors
from toolnexus import Answer, ContentPart, Request, RunResult, ToolCallResult, ToolResult

ROOT = Path(__file__).resolve().parents[2]


def test_model_dump_json_is_the_wire_form() -> None:
    r = ToolResult.ok("a")
    assert r.model_dump_json() == r.to_json() == '{"output":"a","isError":false}'
    assert r.model_dump() == {"output": "a", "isError": False}
    nested = RunResult("done", [ToolCallResult("c1", "t", r.with_metadata({"k": 1}))])
    assert json.loads(nested.model_dump_json()) == nested.to_wire()
    assert ToolResult.from_json(r.model_dump_json()) == r


def test_asking_for_python_names_gets_pydantic_own_dump() -> None:
    dumped = ToolResult.ok("a").model_dump(by_alias=False)
    assert dumped == {
        "output": "a",
        "is_error": False,
        "parts": [],
        "structured_content": None,
        "metadata": None,
    }


def test_a_model_inside_a_user_model_dumps_as_wire() -> None:
    from pydantic import BaseModel

    class Response(BaseModel):
        result: ToolResult

    text = Response(result=ToolResult.error("no")).model_dump_json()
    assert text == '{"result":{"output":"no","isError":true}}'


@pytest.mark.parametrize(
    "name",
    [
        t
        for t in toolnexus_wire.__all__
        if isinstance(getattr(toolnexus_wire, t), type)
        and t not in ("JsonNumber", "ToolnexusError", "WireError", "WireModel")
    ],
)
def test_model_json_schema_is_the_idl_schema_and_accepts_the_valid_vectors(name: str) -> None:
    cls = getattr(toolnexus_wire, name)
    schema = cls.model_json_schema()
    assert schema["title"] == name
    # The published bundle's form of the IDL's schema (codegen/jsonschema_target.py), as
    # FastAPI and every other pydantic path show it.
    own = {k: v for k, v in schema.items() if k not in ("$schema", "$defs")}
    assert own == published(load(ROOT / "idl"))["$defs"][name]
    validator = jsonschema.Draft202012Validator(schema)
    valid = [v for v in vectors() if v.type_name == name and v.valid]
    assert valid
    for vector in valid:
        validator.validate(json.loads(vector.raw))
    assert cls.model_json_schema(by_alias=False)["title"] == name  # with arguments: pydantic's own


def test_no_optional_field_is_nullable_in_the_schema() -> None:
    text = json.dumps(ToolResult.model_json_schema())
    assert "null" not in text


@pytest.mark.parametrize(
    "build",
    [
        lambda: ToolResult(output="x", is_eror=True),  # type: ignore[call-arg]
        lambda: ContentPart("image", mime_type="image/png", data="AA==", nmae="a.png"),  # type: ignore[call-arg]
        lambda: Answer("a", True, reasn="declined"),  # type: ignore[call-arg]
    ],
)
def test_constructors_refuse_unknown_keywords(build) -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        build()


def test_unknown_keys_from_a_newer_peer_are_still_kept() -> None:
    text = '{"output":"x","isError":false,"fromTheFuture":[1]}'
    assert ToolResult.from_json(text).to_json() == text


USER_CODE = textwrap.dedent(
    """
    from toolnexus import Answer, ContentPart, Request, ToolResult

    ok = ToolResult(output="x", is_error=True)
    part = ContentPart("image", mime_type="image/png", data="AA==", name="a.png")
    request = Request(kind="approval", prompt="Go?")
    answer = Answer(request.id, True, reason="declined")
    result: ToolResult = ToolResult.ok("a").with_metadata({"k": 1})
    """
)
MISSPELLED = 'from toolnexus import ToolResult\nbad = ToolResult(output="x", is_eror=True)\n'


@pytest.mark.slow
@pytest.mark.parametrize("plugin", [True, False], ids=["pydantic-plugin", "no-plugin"])
def test_the_constructors_type_check_under_mypy(tmp_path: Path, plugin: bool) -> None:
    config = tmp_path / "mypy.ini"
    # As an installed package is seen: its own modules are analysed but not reported on.
    config.write_text(
        "[mypy]\nstrict = True\n"
        + ("plugins = pydantic.mypy\n" if plugin else "")
        + "[mypy-toolnexus.*]\nfollow_imports = silent\n[mypy-toolnexus_wire.*]\nfollow_imports = silent\n"
    )
    (tmp_path / "good.py").write_text(USER_CODE)
    (tmp_path / "bad.py").write_text(MISSPELLED)
    env_path = f"{ROOT}:{ROOT / 'support' / 'python'}"

    def mypy(name: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "mypy", "--config-file", str(config), "--no-incremental", name],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={"MYPYPATH": env_path, "PATH": "/usr/bin:/bin"},
        )

    good = mypy("good.py")
    assert good.returncode == 0, good.stdout
    bad = mypy("bad.py")
    assert bad.returncode == 1 and 'Unexpected keyword argument "is_eror"' in bad.stdout, bad.stdout


def test_help_leads_with_the_types_own_api() -> None:
    text = pydoc.render_doc(ToolResult, renderer=pydoc.plaintext)
    first_pydantic = text.index("pydantic.main.BaseModel:")
    for own in (
        "output: The text the model reads",
        "is_error [isError]:",
        "Helpers (from ToolResultHelpers): ok, error, with_metadata",
    ):
        assert text.index(own) < first_pydantic, own
    assert text.splitlines()[3].strip(" |").startswith("ToolResult(output: 'str', is_error: 'bool' = False")


def test_every_package_carries_the_schema_version() -> None:
    version = json.loads((ROOT / "idl" / "manifest.json").read_text())["version"]
    assert version == toolnexus_wire.SCHEMA_VERSION
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["project"]["dynamic"] == ["version"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "toolnexus_wire.SCHEMA_VERSION"}
    assert json.loads((ROOT / "generated" / "typescript" / "package.json").read_text())["version"] == version
    cargo = tomllib.loads((ROOT / "generated" / "rust" / "Cargo.toml").read_text())
    assert cargo["package"]["version"] == version
    assert pyproject["project"]["name"] == "toolnexus-contract"
    assert toolnexus.__name__ == "toolnexus"


def test_request_keeps_its_constructor_default() -> None:
    assert Request(kind="input", prompt="p").id == ""


def test_the_constructor_signature_survives_the_validator_being_built_on_first_use() -> None:
    # The validators are built on first use (`defer_build`); building one sets pydantic's own
    # signature (wire aliases), which the wire base sets back to the constructor's.
    ToolResult.ok("built")
    ToolResult.from_json('{"output":"x","metadata":{"n":1.50}}')  # the validator's path
    assert ToolResult.__pydantic_complete__
    assert str(inspect.signature(ToolResult)).startswith("(output: 'str', is_error: 'bool' = False")


def _tree(root: Path) -> list[Path]:
    skip = {"node_modules", "target", "dist", "__pycache__", ".cache"}
    return [p for p in sorted(root.rglob("*")) if not skip & set(p.relative_to(root).parts)]


def test_each_package_is_its_hand_written_tree_with_the_generated_files_linked_in() -> None:
    """generated/ holds only what `make gen` writes (no hand-written file lives there again), and
    each of those files is in its package's tree, support/<language>/, as a link to it."""
    generated = ROOT / "generated"
    hand_written = {
        p.read_bytes()
        for tree in (ROOT / "support", ROOT / "toolnexus")
        for p in _tree(tree)
        if p.is_file() and not p.is_symlink()
    }
    linked = 0
    for language in ("python", "typescript", "rust"):
        for path in _tree(generated / language):
            if not path.is_file():
                continue
            rel = path.relative_to(generated / language)
            text = path.read_bytes()
            assert text not in hand_written or not text, f"generated/{language}/{rel} is a copy"
            assert rel.name == "py.typed" or b"DO NOT EDIT" in text[:600], rel
            link = ROOT / "support" / language / rel
            assert link.is_symlink(), f"support/{language}/{rel} should link to generated/{language}/{rel}"
            assert link.resolve() == path.resolve()
            linked += 1
    assert linked >= 15
    # ruff sees the Python links as the wire package's modules: they are left to the generator.
    excluded = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["extend-exclude"])
    python_links = {
        p.relative_to(ROOT).as_posix()
        for p in _tree(ROOT / "support" / "python")
        if p.is_symlink() and p.suffix == ".py"
    }
    assert python_links == {e for e in excluded if e.startswith("support/")}
