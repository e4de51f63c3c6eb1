"""The fast paths of `to_json` and `from_json` against the reference paths they stand in for.

`from_json` first tries the generated decoders of `toolnexus_wire._fast` (installed in `_speed`) over orjson's
parse; `to_json` first tries orjson over the generated JSON-ready encoders. Each may only
decline (and leave the document to pydantic's validator, or the value to the `json`
module); it must never give a different answer. These tests compare both paths:
strictly (an int is not a float, key order counts, fields set and unknown keys too) over
every wire vector, IDL-derived documents with hostile changes, and hostile metadata.
"""

from __future__ import annotations

import base64
import enum
import json
import math
import os
import string
from datetime import datetime
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError, model_validator
from pydantic_core import SchemaValidator, core_schema
from toolnexus_wire import JsonNumber, WireModel, _keys, _speed
from toolnexus_wire import dumps as _encode_json
from toolnexus_wire._speed import BASE64_PATTERN

import toolnexus
from tests.vectors import vectors

from .test_properties import IDL, JSON_VALUES, MODELS, wire_documents

#: Left out by `make test-fast`: hundreds of generated documents per type.
pytestmark = pytest.mark.slow

SCALE = int(os.environ.get("TOOLNEXUS_FUZZ_SCALE", "1"))
SETTINGS = settings(
    max_examples=300 * SCALE,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def reference_decode(cls: type[Any], text: str | bytes) -> Any:
    try:
        return cls.model_validate_json(text, by_alias=True, by_name=False)
    except ValidationError:
        return None


def fast_decode(cls: type[Any], text: str | bytes) -> Any:
    decode = _speed.decoder_for(cls)
    assert decode is not None, f"{cls.__name__} has no fast decoder"
    try:
        doc = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    if _speed.floats_as_written(text, doc):  # straight, as `from_json` takes it
        return decode(doc, True)
    if _keys.repeated_key(text, doc) is not None:  # refused first, as `from_json` refuses it
        return None
    depth, _, has_float = _speed.nesting(doc)
    return decode(doc, None if not has_float and depth <= _speed.FREE_DEPTH + 1 else False)


def strictly_equal(a: Any, b: Any) -> bool:
    """Equal, and of the same types, in the same order, down to the models' slots."""
    if type(a) is not type(b):
        return False
    if isinstance(a, WireModel):
        return (
            strictly_equal(a.__dict__, b.__dict__)
            and a.__pydantic_fields_set__ == b.__pydantic_fields_set__
            and strictly_equal(a.__pydantic_extra__, b.__pydantic_extra__)
            and a.__pydantic_private__ == b.__pydantic_private__
        )
    if isinstance(a, dict):
        return list(a) == list(b) and all(strictly_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(strictly_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return (a == b and math.copysign(1, a) == math.copysign(1, b)) or (a != a and b != b)
    return bool(a == b)


def assert_fast_agrees(cls: type[Any], text: str | bytes) -> bool:
    """The fast path declines, or gives exactly what the validator gives; True when it answered."""
    fast = fast_decode(cls, text)
    if fast is None:
        return False
    ref = reference_decode(cls, text)
    assert ref is not None, f"the fast path accepted what the validator refuses: {text!r}"
    assert strictly_equal(fast, ref), (fast, ref)
    return True


# --- decoding -------------------------------------------------------------------------------------

VECTORS = vectors()


@pytest.mark.parametrize("vector", VECTORS, ids=[v.id for v in VECTORS])
def test_the_fast_decoder_agrees_with_the_validator_on_every_vector(vector: Any) -> None:
    answered = assert_fast_agrees(MODELS[vector.type_name], vector.raw)
    if not vector.valid:
        assert not answered


def test_the_fast_decoder_answers_for_most_valid_vectors() -> None:
    """It is not silently dead: only the vectors with what it leaves to the validator
    (integers beyond 64 bits, deep nesting, floats near them) go the slow way. The
    `number-spellings` vectors are there to take it: their floats are not as Python writes them."""
    valid = [v for v in VECTORS if v.valid and "number-spellings" not in v.id]
    declined = [v.id for v in valid if fast_decode(MODELS[v.type_name], v.raw) is None]
    assert len(declined) <= len(valid) // 10, declined


def test_a_typed_number_is_decoded_fast_only_when_its_text_is_kept() -> None:
    """A `number` field (`Annotations.priority`): an integer is taken with its digits as its
    text, a float only from a text as Python writes it; any other spelling, and a value out of
    bounds, is the validator's."""
    annotations = toolnexus.Annotations
    one = fast_decode(annotations, b'{"priority":1}')
    assert type(one.priority) is JsonNumber and one.priority.text == "1" and one.priority == 1
    half = fast_decode(annotations, b'{"priority":0.5}')
    assert type(half.priority) is float and half.priority == 0.5
    for text in (b'{"priority":0.10}', b'{"priority":1.5}', b'{"priority":-1}', b'{"priority":"1"}'):
        assert fast_decode(annotations, text) is None, text
    for text in (b'{"priority":1}', b'{"priority":0.5}', b'{"priority":0.10}', b'{"priority":1e-1}'):
        assert annotations.from_json(text).to_json() == text.decode()
        assert_fast_agrees(annotations, text)


def test_a_typed_number_is_encoded_fast_with_its_text() -> None:
    """`to_json` writes a `JsonNumber` in a typed field as its text (an orjson fragment),
    the very bytes the `json` module writes."""
    for value, text in [(1, "1"), (0, "0"), (0.5, "0.5"), (JsonNumber("0.10"), "0.10"), (1e-05, "1e-05")]:
        part = toolnexus.Annotations(priority=value)
        assert part.to_json() == f'{{"priority":{text}}}' == reference_encode(part)


hostile_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=4),
    st.sampled_from([2**64, -(2**63) - 1, 1e19, 2.0**63, 9.2e18, 1e-300, [], {}, [None], "", "=", "AA=="]),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@st.composite
def mutated_documents(draw: Any, t: Any) -> dict[str, Any]:
    """A valid document of `t`, then perhaps a key dropped, a value replaced, or a nested
    value replaced: the fast path must refuse exactly what the validator refuses."""
    doc = dict(draw(wire_documents(t)))
    action = draw(st.sampled_from(["keep", "drop", "replace", "replace", "nested"]))
    keys = sorted(doc)
    if action == "drop" and keys:
        del doc[draw(st.sampled_from(keys))]
    elif action == "replace" and keys:
        doc[draw(st.sampled_from(keys))] = draw(hostile_values)
    elif action == "nested":
        lists = [
            k
            for k in keys
            if isinstance(doc[k], list) and doc[k] and isinstance(doc[k][0], dict) and doc[k][0]
        ]
        subs = [k for k in keys if isinstance(doc[k], dict) and doc[k]]
        if lists:
            item = dict(doc[lists[0]][0])
            item[draw(st.sampled_from(sorted(item)))] = draw(hostile_values)
            doc[lists[0]] = [item, *doc[lists[0]][1:]]
        elif subs:
            inner = dict(doc[subs[0]])
            inner[draw(st.sampled_from(sorted(inner)))] = draw(hostile_values)
            doc[subs[0]] = inner
    return doc


@pytest.mark.parametrize("type_name", [t.name for t in IDL.types])
@SETTINGS
@given(data=st.data())
def test_the_fast_decoder_agrees_with_the_validator_on_changed_documents(type_name: str, data: Any) -> None:
    doc = data.draw(mutated_documents(IDL.type(type_name)))
    text = json.dumps(doc, ensure_ascii=data.draw(st.booleans()))
    assert_fast_agrees(MODELS[type_name], text)


@pytest.mark.parametrize("depth", [10, 63, 64, 65, 150, 199, 200, 250])
def test_deep_metadata_is_left_to_the_validator_and_its_limit(depth: int) -> None:
    text = '{"output":"x","metadata":{"a":' + "[" * depth + "]" * depth + "}}"
    assert_fast_agrees(toolnexus.ToolResult, text)


def test_a_subclass_with_its_own_validator_is_not_decoded_on_the_fast_path() -> None:
    class Checked(toolnexus.ToolResult):
        @model_validator(mode="after")
        def no_empty_output(self) -> Checked:
            if not self.output:
                raise ValueError("empty output")
            return self

    assert _speed.decoder_for(Checked) is None
    with pytest.raises(toolnexus.WireError, match="empty output"):
        Checked.from_json('{"output":""}')


# --- long strings taken out before orjson reads a large text ------------------------------------


def _outcome(cls: type[Any], data: bytes) -> Any:
    try:
        return ("ok", cls.from_json(data))
    except toolnexus.WireError as exc:
        return ("refused", str(exc))


def _same_with_and_without_splicing(cls: type[Any], data: bytes) -> None:
    """`from_json` of `data` with every string value of four characters or more taken out
    (`_speed.splice`, here for any size), and with none: the same value, or the same error."""
    whole, long = _speed.SPLICE_FROM, _speed.LONG_STRING
    try:
        _speed.SPLICE_FROM, _speed.LONG_STRING = 0, 4
        spliced = _outcome(cls, data)
        _speed.SPLICE_FROM = 1 << 62
        plain = _outcome(cls, data)
    finally:
        _speed.SPLICE_FROM, _speed.LONG_STRING = whole, long
    assert spliced[0] == plain[0], (data, spliced, plain)
    if spliced[0] == "ok":
        assert strictly_equal(spliced[1], plain[1])
    else:
        assert spliced[1] == plain[1]


@pytest.mark.parametrize("type_name", [t.name for t in IDL.types])
@SETTINGS
@given(data=st.data())
def test_taking_long_strings_out_changes_nothing(type_name: str, data: Any) -> None:
    doc = data.draw(mutated_documents(IDL.type(type_name)))
    indent = data.draw(st.sampled_from([None, 1]))
    text = json.dumps(doc, ensure_ascii=data.draw(st.booleans()), indent=indent)
    _same_with_and_without_splicing(MODELS[type_name], text.encode("utf-8", "surrogatepass"))


@pytest.mark.parametrize(
    "text",
    [
        b'{"output":"plain text","metadata":{"k":"a long value","n":[1,"another one"]}}',
        b'{"output":"has a\\nnewline","parts":[{"type":"text","text":"quote \\" inside"}]}',
        b'{"output":"a raw\nnewline","metadata":{"k":"a long value"}}',
        b'{"output":"a raw\x01control character"}',
        b'{"output":"bad utf-8 \xff here"}',
        b'{"output":"x","metadata":{"a long key here":1}}',
        b'{"output":"x","metadata":{"a long key here" :1,"a long key here":2}}',
        b'{"output":"x","metadata":{"fake":"\\u0000toolnexus-long-string-0","real":"a long value"}}',
        b'{"output":"x","metadata":{"fake":"\\u0000\\u0074oolnexus-long-string-0","real":"a long value"}}',
        b'{"output":"backslashes \\\\","metadata":{"k":"then a long value"}}',
        b'{"output":"unterminated',
        b'{"output":"trailing data"} x',
        b'"a long string as the whole document"',
        b'{"output":"x","metadata":{"k":"a long value"}, "isError": nope}',
    ],
)
def test_taking_long_strings_out_changes_no_verdict(text: bytes) -> None:
    _same_with_and_without_splicing(toolnexus.ToolResult, text)


def test_long_strings_are_taken_out_only_where_the_text_says_the_same() -> None:
    def taken(text: bytes) -> list[str] | None:
        whole = _speed.LONG_STRING
        try:
            _speed.LONG_STRING = 4
            out = _speed.splice(text)
        finally:
            _speed.LONG_STRING = whole
        return None if out is None else out[1]

    assert taken(b'{"output":"plain text","k":["another one"]}') == ["plain text", "another one"]
    assert taken(b'{"a long key":"value"}') == ["value"]  # a key stays
    assert taken(b'{"output":"esc\\"aped","k":"plain"}') == ["plain"]  # an escape stays
    assert taken(b'{"output":"control\x01","k":"plain"}') is None
    assert taken(b'{"output":"\xff\xfe bad","k":"plain"}') is None
    assert taken(b'{"k":"\\u0000 a NUL elsewhere","j":"plain"}') is None
    assert taken(b'{"short":"abc"}') is None


# --- the shape of a parsed document ---------------------------------------------------------------


def _shape(value: Any, level: int = 1) -> tuple[int, int, bool]:
    """`_speed.nesting`, written plainly: recursion over every value."""
    if isinstance(value, dict):
        items, keys = list(value.values()), len(value)
    elif isinstance(value, list):
        items, keys = value, 0
    else:
        return 0, 0, type(value) is float
    depth, has_float = level, False
    for item in items:
        d, k, f = _shape(item, level + 1)
        depth, keys, has_float = max(depth, d), keys + k, has_float or f
    return depth, keys, has_float


@SETTINGS
@given(JSON_VALUES)
def test_nesting_is_depth_keys_and_floats(value: Any) -> None:
    doc = orjson.loads(orjson.dumps(value)) if not _non_str_key(value) else value
    assert _speed.nesting(doc) == _shape(doc)


def test_nesting_of_shapes_a_level_at_a_time_misses_nothing() -> None:
    for doc, shape in [
        ({}, (1, 0, False)),
        ([], (1, 0, False)),
        (1.5, (0, 0, True)),
        ([[], {}, [{}], 2.5], (3, 0, True)),
        ({"a": [{}, {"b": {"c": []}}], "d": 1}, (5, 4, False)),
        ([{} for _ in range(1000)] + [[[1.0]]], (3, 0, True)),
    ]:
        assert _speed.nesting(doc) == shape == _shape(doc), doc


# --- the base64 check -----------------------------------------------------------------------------

_regex_base64 = SchemaValidator(core_schema.str_schema(pattern=BASE64_PATTERN, strict=True)).isinstance_python


@settings(max_examples=3000 * SCALE, deadline=None, database=None)
@given(
    st.one_of(
        st.text(alphabet="AZaz09+/=", max_size=12),
        st.text(alphabet="AZaz09+/=\n -_é\x00", max_size=12),
        st.from_regex(BASE64_PATTERN, fullmatch=True),
        st.from_regex(BASE64_PATTERN, fullmatch=True).map(lambda s: s + "\n"),
    )
)
def test_the_base64_check_is_the_regex(text: str) -> None:
    assert _speed.base64(text) == _regex_base64(text)
    # A long string is read in slices: the same answer with slices of 4 and 8 characters,
    # where these short strings are long.
    for size in (4, 8):
        whole, _speed._BASE64_SLICE = _speed._BASE64_SLICE, size
        try:
            assert _speed.base64(text) == _regex_base64(text), size
        finally:
            _speed._BASE64_SLICE = whole


def test_a_large_part_is_checked_in_slices() -> None:
    good = base64.b64encode(os.urandom(3 * _speed._BASE64_SLICE + 7)).decode()
    assert len(good) > 4 * _speed._BASE64_SLICE and good.endswith("=")
    assert _speed.base64(good)
    for at in (0, _speed._BASE64_SLICE - 1, _speed._BASE64_SLICE, len(good) // 2, len(good) - 5):
        assert not _speed.base64(good[:at] + "*" + good[at + 1 :]), at
        assert not _speed.base64(good[:at] + "=" + good[at + 1 :]), at
    assert not _speed.base64(good[:-4] + "A===")


# --- encoding -------------------------------------------------------------------------------------


def _non_str_key(value: Any) -> bool:
    if isinstance(value, dict):
        return any(not isinstance(k, str) or _non_str_key(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(_non_str_key(v) for v in value)
    return False


def reference_encode(obj: Any) -> str | type[BaseException]:
    """What the `json` module writes, except that an object key that is not a string is
    refused (`ValueError`): `json` would write `1` as `"1"`, next to a `"1"` maybe."""
    try:
        wire = obj.to_wire()
        if _non_str_key(wire):
            return ValueError
        return _encode_json(wire)
    except (ValueError, TypeError, RecursionError) as exc:
        return type(exc)


def encoded(obj: Any) -> str | type[BaseException]:
    try:
        return obj.to_json()  # type: ignore[no-any-return]
    except (ValueError, TypeError) as exc:
        return type(exc)


@pytest.mark.parametrize("type_name", [t.name for t in IDL.types])
@SETTINGS
@given(data=st.data())
def test_to_json_writes_what_the_json_module_writes(type_name: str, data: Any) -> None:
    obj = MODELS[type_name].from_wire(data.draw(wire_documents(IDL.type(type_name))))
    assert encoded(obj) == reference_encode(obj)


class Colour(enum.IntEnum):
    RED = 1


class Text(str):
    pass


python_values = st.recursive(
    st.one_of(
        st.floats(),
        st.integers(),
        st.sampled_from([2**64, 2**64 - 1, -(2**63), -(2**63) - 1, 1e-5, 1e16, 5e-324, -0.0, 1e-4, 9.9e-5]),
        st.text(alphabet=string.printable + "\ud800\udfff\u2028é\x7f", max_size=5),
        st.builds(Text, st.text(max_size=3)),
        st.just(Colour.RED),
        st.just((1, 2)),
        st.just(datetime(2030, 1, 1)),
        JSON_VALUES,
    ),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.one_of(st.text(max_size=3), st.integers(0, 3)), inner, max_size=3)
    ),
    max_leaves=8,
)


@SETTINGS
@given(meta=st.dictionaries(st.text(max_size=4), python_values, max_size=3), extra=python_values)
def test_to_json_with_hostile_metadata_writes_or_fails_as_the_json_module(
    meta: dict[str, Any], extra: Any
) -> None:
    result = toolnexus.ToolResult.ok("x").with_metadata(meta)
    assert encoded(result) == reference_encode(result)
    with_extra = toolnexus.ToolResult.from_wire({"output": "y", "newerField": extra})
    assert encoded(with_extra) == reference_encode(with_extra)


def test_deeply_nested_metadata_is_written_by_the_json_module() -> None:
    deep: Any = []
    for _ in range(80):  # past FREE_DEPTH (64), within MAX_DEPTH (100) with the two levels above it
        deep = [deep]
    result = toolnexus.ToolResult.ok("x").with_metadata({"d": deep})
    encoder = _speed.json_encoder_for(toolnexus.ToolResult)
    assert encoder is not None
    assert encoder(result) is None  # past FREE_DEPTH
    assert result.to_json() == reference_encode(result)


def test_the_fast_paths_are_taken_for_ordinary_results() -> None:
    part = toolnexus.ContentPart("image", mime_type="image/png", data="AAAA", name="a.png")
    result = toolnexus.ToolResult(
        output="4", parts=[part], metadata={"exitCode": 0, "ms": 12.5, "tags": ["a"]}
    )
    encoder = _speed.json_encoder_for(toolnexus.ToolResult)
    assert encoder is not None
    assert encoder(result) is not None
    text = result.to_json()
    assert fast_decode(toolnexus.ToolResult, text) is not None
    assert toolnexus.ToolResult.from_json(text) == result


def test_the_speed_layer_can_be_turned_off_and_gives_the_same_results() -> None:
    """TOOLNEXUS_NO_FAST_PATH=1 (read at import) leaves every call to the reference paths."""
    import subprocess
    import sys

    code = (
        "import toolnexus, toolnexus_wire as w\n"
        "from toolnexus_wire import _speed\n"
        "assert _speed.ENABLED is False and _speed.decoder_for(w.ToolResult) is None\n"
        "assert _speed.json_encoder_for(w.ToolResult) is None\n"
        'text = \'{"output":"4","isError":false,\'\n'
        'text += \'"metadata":{"ms":12.5,"tags":["a"]},"later":1}\'\n'
        "assert w.ToolResult.from_json(text).to_json() == text\n"
        "print('off')\n"
    )
    env = {**os.environ, "TOOLNEXUS_NO_FAST_PATH": "1"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 0 and proc.stdout.strip() == "off", proc.stderr
    assert _speed.ENABLED is True and _speed.decoder_for(toolnexus.ToolResult) is not None


# --- parts made by the helpers --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "mime_type", "name"),
    [
        (b"\x89PNG\r\n\x1a\nabc", "image/png", "a.png"),
        (b"%PDF-1.7", "application/pdf", None),
        (b"x", "audio/wav", ""),
    ],
)
def test_a_part_from_bytes_is_what_the_validator_makes(raw: bytes, mime_type: str, name: str | None) -> None:
    part = toolnexus.ContentPart.from_bytes(raw, mime_type, name=name)
    wire = {"type": part.kind, "mimeType": mime_type, "data": base64.b64encode(raw).decode(), "url": ""}
    if name is not None:
        wire["name"] = name
    ref = toolnexus.ContentPart.model_validate(wire, by_alias=True, by_name=False)
    assert strictly_equal(part, ref)
