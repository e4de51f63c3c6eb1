"""Rule R7 (docs/limits.md): an object that repeats a key is refused at `$`, in every form of
text, however `from_json` reaches its verdict (the document as orjson writes it, a count over a
large document, or a second reading). The vectors `repeated-key-*` pin the rule for all three
languages; these tests pin Python's three ways to it against an independent reading."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolnexus_wire import _keys

from tests.vectors import repeats_a_key
from toolnexus import ToolCall, ToolResult, WireError

PAD = "x" * _keys.COUNT_FROM  # makes a document large enough to be counted


def refused(text: str | bytes) -> str:
    with pytest.raises(WireError) as caught:
        ToolResult.from_json(text)
    assert caught.value.errors[0][0] == "$", caught.value
    return str(caught.value)


@pytest.mark.parametrize("as_bytes", [False, True], ids=["str", "bytes"])
@pytest.mark.parametrize("pad", ["", PAD], ids=["small", "large"])
@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"output":"%s","output":"b"}', "output"),
        ('{"output":"%s","metadata":{"k":1,"k":1}}', "k"),
        ('{"output":"%s","metadata":{"k":1,"\\u006b":2}}', "k"),  # one key, escaped once
        ('{"output":"%s","metadata":{"a":[{"b":{"c":1,"c":2}}]}}', "c"),
        ('{"output":"%s","parts":[{"type":"text","text":"x","text":"y"}]}', "text"),
        ('{"output":"%s","x-trace":1,"x-trace":2}', "x-trace"),
        ('{\n "output" : "%s",\n "metadata" : {"k" : 1, "k" : 2}\n}', "k"),  # spaces before colons
        ('{"output":"%s","metadata":{"s":"\\":\\":","k":1,"k":2}}', "k"),  # `":` in a string
    ],
)
def test_a_repeated_key_is_refused_naming_it(text: str, key: str, pad: str, as_bytes: bool) -> None:
    doc = text % pad
    assert repeats_a_key(doc)
    message = refused(doc.encode() if as_bytes else doc)
    assert f"an object repeats the key {json.dumps(key)}" in message


@pytest.mark.parametrize("pad", ["", PAD], ids=["small", "large"])
@pytest.mark.parametrize(
    "text",
    [
        '{"output":"%s","metadata":{"k":{"k":{"k":1}},"K":2,"k ":3}}',  # one key per object
        '{"output":"{\\"k\\":1,\\"k\\":2}%s"}',  # repeated inside a string: text, not keys
        '{"output":"%s","metadata":{"\\":":1,"t":"12:30","u":"a\\":b"}}',
        '{ "output" : "%s" , "isError" : false }',
    ],
)
def test_keys_that_only_look_alike_are_kept(text: str, pad: str) -> None:
    doc = text % pad
    assert not repeats_a_key(doc)
    assert ToolResult.from_json(doc).to_wire() == {"isError": False, **json.loads(doc)}


def test_a_large_document_as_to_json_writes_it_is_proved_by_counting() -> None:
    """The count proves it without writing the document again (the cheap path for large
    documents); a key repeated past the count's reach still reaches the second reading."""
    text = ToolResult.ok(PAD).with_metadata({"a": 1, "b": {"c": [1, {"d": 2}]}}).to_json()
    doc = orjson.loads(text)
    assert _keys._counted_once(text, doc, None) and _keys._counted_once(text.encode(), doc, None)
    repeated = text.replace('"c":[1,{"d":2}]', '"c":[1,{"d":2}],"c":3')  # `c` twice in metadata.b
    assert not _keys._counted_once(repeated, orjson.loads(repeated), None)
    assert _keys.repeated_key(repeated, orjson.loads(repeated)) == "c"


def test_a_large_document_dense_in_keys_is_counted_in_full() -> None:
    """Counting is linear (`count` over the text, `nesting` over the parse), so a document of
    20,000 keys is counted, not read again; a key repeated among them is still found."""
    many = {f"k{i}": i for i in range(20_000)}
    text = json.dumps({"output": "x", "metadata": many}, separators=(",", ":"))
    assert _keys._counted_once(text, orjson.loads(text), None)
    assert _keys.repeated_key(text, orjson.loads(text)) is None
    repeated = text[:-2] + ',"k7":1}}'
    assert not _keys._counted_once(repeated, orjson.loads(repeated), None)
    assert _keys.repeated_key(repeated, orjson.loads(repeated)) == "k7"


def test_a_colon_in_a_string_with_whitespace_before_a_key_colon_leaves_counting_to_the_reader() -> None:
    """All the colons are counted first (as many as the parse's keys proves it, spaces or not);
    with more, only those just after a quote count, and whitespace before a colon leaves the
    verdict to the reader."""
    plain = '{"output":"x","metadata":{"a" :1}}' + " " * _keys.COUNT_FROM
    assert _keys._counted_once(plain, orjson.loads(plain), None)
    spaced = '{"output":"x","metadata":{"a" :"12:30"}}' + " " * _keys.COUNT_FROM
    in_string = '{"output":"x","metadata":{"a":"say \\":"}}' + " " * _keys.COUNT_FROM
    for text in (spaced, in_string):
        assert not _keys._counted_once(text, orjson.loads(text), None)
        assert _keys.repeated_key(text, orjson.loads(text)) is None


def test_a_pretty_printed_document_is_proved_by_counting(monkeypatch: pytest.MonkeyPatch) -> None:
    """`json.dumps(..., indent=2)` writes `"key": value`, colon just after the quote: counted,
    not read again."""
    wire = {"output": "x", "isError": False, "metadata": {"a": [1, {"b": "12:30"}], "c": {}}}
    text = json.dumps(wire, indent=2)
    monkeypatch.setattr(_keys, "_DECODER", None)  # reading again would fail
    assert ToolResult.from_json(text).to_wire() == wire


def test_a_repeated_key_in_tool_call_arguments_is_refused() -> None:
    """Two readers of `{"path":"a","path":"b"}` may act on different paths: never a call."""
    with pytest.raises(WireError, match=r'repeats the key "path"'):
        ToolCall.from_json('{"id":"c1","name":"read","arguments":{"path":"a.txt","path":"/etc/passwd"}}')


def test_a_repeat_that_hid_a_deep_value_is_refused_for_the_repeat() -> None:
    """Before R7, a value nested past MAX_DEPTH and then shadowed by a repeat split the
    languages (TypeScript refused it, Python and Rust kept the later value)."""
    deep = "[" * 99 + "]" * 99
    message = refused('{"output":"a","metadata":{"k":' + deep + ',"k":1}}')
    assert 'repeats the key "k"' in message


# --- the three ways agree with an independent reading -------------------------------------

_KEYS = st.sampled_from(["a", "b", "k", "\\u006b", '\\"', ":", '\\":', "a b"])
_SCALARS = st.one_of(st.integers(-5, 5), st.booleans(), st.sampled_from(['"t"', '"12:30"', '"\\":"', "null"]))


@st.composite
def _value(draw: st.DrawFn, depth: int = 0) -> str:
    """JSON text, spelled freely: keys may repeat, escapes and spaces may sit anywhere."""
    kind = draw(st.integers(0, 2 if depth < 3 else 0))
    if kind == 0:
        scalar = draw(_SCALARS)
        return scalar if isinstance(scalar, str) else json.dumps(scalar)
    space = draw(st.sampled_from(["", " ", "\n  "]))
    if kind == 1:
        items = draw(st.lists(_value(depth + 1), max_size=3))
        return "[" + f",{space}".join(items) + "]"
    pairs = draw(st.lists(st.tuples(_KEYS, _value(depth + 1)), max_size=4))
    colon = draw(st.sampled_from([":", " :", ": "]))
    return "{" + f",{space}".join(f'"{k}"{colon}{v}' for k, v in pairs) + "}"


@settings(max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(metadata=_value(), pad=st.sampled_from(["", PAD]), as_bytes=st.booleans())
def test_from_json_refuses_exactly_the_documents_that_repeat_a_key(
    metadata: str, pad: str, as_bytes: bool
) -> None:
    text = '{"output":"%s","metadata":%s}' % (pad, metadata)  # noqa: UP031
    if not metadata.startswith("{"):
        text = '{"output":"%s","structuredContent":%s}' % (pad, metadata)  # noqa: UP031
    if metadata == "null":
        return  # `structuredContent` may not be null: another rule
    data: Any = text.encode() if as_bytes else text
    if repeats_a_key(text):
        refused(data)
    else:
        ToolResult.from_json(data)
        doc = orjson.loads(data)
        written = orjson.dumps(doc)
        assert _keys.repeated_key(written, doc) is None  # as written again, proved at once
