"""The closed IR: every keyword in idl/ is carried to every target or refused with the file,
the JSON pointer and the keyword; docs/idl.md is the table of both."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from codegen import __main__ as cli
from codegen.idl import FIELD_KEYWORDS, ITEM_KEYWORDS, REFUSED, TYPE_KEYWORDS, IdlError, load

ROOT = Path(__file__).resolve().parent.parent.parent
DOC = (ROOT / "docs" / "idl.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = DOC.index(f"## {title}")
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end > 0 else None]


def _keywords(section: str, column: int) -> set[str]:
    found: set[str] = set()
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > column and line.startswith("|") and not set(cells[0]) <= {"-"}:
            found.update(re.findall(r"`([^`]+)`", cells[column]))
    return found


def test_the_doc_lists_exactly_the_supported_keywords() -> None:
    assert _keywords(_section("Supported"), 1) == TYPE_KEYWORDS | FIELD_KEYWORDS | ITEM_KEYWORDS


def test_the_doc_lists_exactly_the_refused_keywords_with_their_reasons() -> None:
    section = _section("Decided against, for now")
    assert _keywords(section, 0) == set(REFUSED)
    rows = [line.strip().strip("|").split("|") for line in section.splitlines() if line.startswith("| `")]
    for keyword, why in REFUSED.items():
        reasons = [cells[1].strip() for cells in rows if f"`{keyword}`" in cells[0]]
        assert reasons == [why], keyword


def _idl_with(tmp_path: Path, edit: dict[str, object], where: tuple[str, ...] = ("prompt",)) -> Path:
    copy = tmp_path / "idl"
    shutil.copytree(ROOT / "idl", copy)
    path = copy / "Request.json"
    schema = json.loads(path.read_text())
    node = schema["properties"]
    for key in where:
        node = node[key]
    node.update(edit)
    path.write_text(json.dumps(schema))
    return copy


@pytest.mark.parametrize("keyword", sorted(REFUSED))
def test_each_refused_keyword_stops_generation_naming_file_pointer_and_keyword(
    tmp_path: Path, keyword: str
) -> None:
    with pytest.raises(IdlError) as info:
        load(_idl_with(tmp_path, {keyword: 5}))
    message = str(info.value)
    assert message.startswith(
        f"idl/Request.json#/properties/prompt/{keyword}: unsupported keyword `{keyword}`"
    )
    assert REFUSED[keyword] in message


def test_a_keyword_nobody_listed_is_refused_too(tmp_path: Path) -> None:
    with pytest.raises(IdlError, match=r"#/properties/prompt/x-weight: unsupported keyword `x-weight`"):
        load(_idl_with(tmp_path, {"x-weight": 1}))


def test_a_keyword_inside_array_items_is_refused_at_its_pointer(tmp_path: Path) -> None:
    copy = tmp_path / "idl"
    shutil.copytree(ROOT / "idl", copy)
    path = copy / "RunResult.json"
    schema = json.loads(path.read_text())
    schema["properties"]["order"]["items"]["maxLength"] = 3
    path.write_text(json.dumps(schema))
    with pytest.raises(IdlError, match=r"idl/RunResult.json#/properties/order/items/maxLength"):
        load(copy)


def test_the_issue_case_max_length_on_a_prompt_fails_make_gen(tmp_path: Path, capsys) -> None:
    """The case that once made `from_json` and `from_wire` disagree now stops the generator."""
    root = tmp_path / "project"
    root.mkdir()
    shutil.move(_idl_with(tmp_path, {"maxLength": 5}), root / "idl")
    with pytest.raises(IdlError, match="maxLength"):
        cli.render_all(root)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ({"minLength": -1}, "minLength: must be a non-negative integer"),
        ({"type": "integer", "pattern": "^a"}, "`pattern` applies to strings only"),
        ({"enum": ["a", 1]}, "only string enums"),
        ({"minimum": 0}, "`minimum` applies to integers and numbers only"),
        ({"type": "number", "maximum": "1"}, "maximum: must be a finite number"),
        ({"type": "number", "maximum": True}, "maximum: must be a finite number"),
        ({"type": "integer", "minimum": 0.5}, "an integer's bound is an integer within 2**53"),
        ({"type": "integer", "maximum": 2**53 + 1}, "an integer's bound is an integer within 2**53"),
        ({"type": "number", "minimum": 1, "maximum": 0}, "minimum: 1 is above the maximum 0"),
    ],
)
def test_keywords_with_bad_values_are_refused(tmp_path: Path, edit: dict[str, object], message: str) -> None:
    with pytest.raises(IdlError, match=re.escape(message)):
        load(_idl_with(tmp_path, edit))


def test_bounds_of_a_number_are_read_as_given(tmp_path: Path) -> None:
    idl = load(_idl_with(tmp_path, {"type": "number", "minimum": 0, "maximum": 0.5}))
    prompt = next(f for f in idl.type("Request").fields if f.wire_name == "prompt")
    assert (prompt.type.kind, prompt.type.minimum, prompt.type.maximum) == ("number", 0, 0.5)


def test_a_required_field_with_a_default_is_refused(tmp_path: Path) -> None:
    with pytest.raises(IdlError, match="a required field has no default"):
        load(_idl_with(tmp_path, {"default": "x"}))
