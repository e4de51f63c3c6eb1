"""The wire rules of DESIGN.md, on the Python models."""

import json

import pytest

from toolnexus import (
    Answer,
    ContentPart,
    Request,
    RunResult,
    ToolCall,
    ToolCallResult,
    ToolResult,
    WireError,
)


def test_absent_optionals_and_empty_parts_are_omitted_but_is_error_is_not():
    assert ToolResult.ok("4").to_json() == '{"output":"4","isError":false}'
    assert Request(kind="input", prompt="Name?", id="r1").to_wire() == {
        "id": "r1",
        "kind": "input",
        "prompt": "Name?",
    }
    assert Answer("r1", False, reason="declined").to_json() == '{"id":"r1","ok":false,"reason":"declined"}'


def test_keys_follow_schema_order_whatever_the_constructor_order():
    part = ContentPart(name="a.png", data="AAAA", mime_type="image/png", kind="image")
    assert list(part.to_wire()) == ["type", "mimeType", "data", "name"]


def test_metadata_keeps_insertion_order_and_non_ascii_is_raw_utf8():
    r = ToolResult.ok("héllo 世界").with_metadata({"z": 1, "a": {"y": [1, 2], "b": None}})
    text = r.to_json()
    assert text == '{"output":"héllo 世界","isError":false,"metadata":{"z":1,"a":{"y":[1,2],"b":null}}}'
    assert ToolResult.from_json(text.encode("utf-8")).to_json() == text


def test_unknown_keys_survive_a_round_trip_at_every_level():
    text = (
        '{"output":"x","isError":false,"parts":[{"type":"file","mimeType":"text/plain","data":"eA==","v2":[1]}],'
        '"next":{"a":1}}'
    )
    r = ToolResult.from_json(text)
    assert r.to_json() == text
    assert r.parts[0].model_extra == {"v2": [1]}


def test_a_wire_key_is_not_read_under_its_python_name():
    """`is_error` on the wire is an unknown key, not `isError`: it is kept, not merged."""
    r = ToolResult.from_json('{"output":"x","is_error":true}')
    assert r.is_error is False
    assert r.to_json() == '{"output":"x","isError":false,"is_error":true}'


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('{"output":1}', "$.output"),
        ('{"output":"x","isError":"true"}', "$.isError"),
        ('{"output":"x","isError":null}', "$.isError"),
        ('{"output":"x","parts":[{"type":"image","mimeType":"image/png","data":"A"}]}', "$.parts[0].data"),
        ('{"output":"x","parts":[{"type":"picture","mimeType":"image/png","data":""}]}', "$.parts[0].type"),
        ('{"output":"x","metadata":[]}', "$.metadata"),
        ('{"isError":false}', "$.output"),
        ("[1]", "$"),
        ('{"output":"x"', "$"),
        (b'{"output":"\xff"}', "$"),
    ],
)
def test_a_bad_document_is_a_wire_error_naming_the_path(text, path):
    with pytest.raises(WireError) as info:
        ToolResult.from_json(text)
    assert info.value.path == path
    assert path in str(info.value)


def test_from_wire_takes_decoded_json():
    obj = {
        "status": "done",
        "results": [{"id": "c1", "name": "t", "result": {"output": "ok", "isError": False}}],
    }
    run = RunResult.from_wire(obj)
    assert isinstance(run.results[0], ToolCallResult)
    assert isinstance(run.results[0].result, ToolResult)
    assert run.to_wire() == obj
    with pytest.raises(WireError) as info:
        RunResult.from_wire({"status": "later", "results": []})
    assert info.value.path == "$.status"


def test_big_integers_and_nested_metadata_round_trip_exactly():
    text = (
        '{"output":"","isError":false,'
        '"metadata":{"n":123456789012345678901234567890,"d":{"e":{"f":[-1,0.5]}}}}'
    )
    assert ToolResult.from_json(text).to_json() == text


def test_every_type_has_the_four_wire_methods():
    call = ToolCall("c1", "sqrt", {"n": 2})
    assert ToolCall.from_json(call.to_json()) == call
    assert ToolCall.from_wire(json.loads(call.to_json())).to_wire() == call.to_wire()


def test_with_metadata_returns_a_new_result_and_keeps_the_original():
    base = ToolResult.ok("x").with_metadata({"a": 1})
    more = base.with_metadata({"b": 2})
    assert base.metadata == {"a": 1}
    assert more.metadata == {"a": 1, "b": 2}
    more.parts.append(ContentPart.from_bytes(b"hi", "text/plain"))
    assert base.parts == []


def test_results_do_not_share_their_parts_list():
    a, b = ToolResult.ok("a"), ToolResult.ok("b")
    a.parts.append(ContentPart.from_bytes(b"x", "text/plain"))
    assert b.parts == []


def test_to_json_bytes_is_to_json_encoded_for_every_valid_vector():
    from toolnexus_wire import models

    from tests.vectors import vectors

    for vector in vectors():
        if vector.valid:
            value = getattr(models, vector.type_name).from_json(vector.raw)
            assert value.to_json_bytes() == value.to_json().encode("utf-8") == vector.expected.encode("utf-8")


def test_to_json_bytes_refuses_what_utf8_cannot_encode():
    result = ToolResult.ok("\ud800")
    assert result.to_json() == '{"output":"\ud800","isError":false}'  # the text, as `json` writes it
    with pytest.raises(UnicodeEncodeError):
        result.to_json_bytes()
    deep: list = []
    for _ in range(200):
        deep = [deep]
    with pytest.raises(ValueError, match="nested more than 100 levels"):
        ToolResult.ok("x").with_metadata({"deep": deep}).to_json_bytes()
