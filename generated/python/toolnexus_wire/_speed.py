# Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_speed.py (hand-written, copied verbatim).
# codegen: copy
"""The speed layer of `to_json` and `from_json`: everything the fast paths assume, in one place.

The contract
------------
The generated module `_fast` holds, per wire type, a decoder and a JSON-ready encoder written
out field by field from the IDL; it hands them to `install`. This module holds what they share
and decides when they may run. Every fast path either gives exactly what the reference path
(the pydantic model's validator for `from_json`, the standard `json` module for `to_json`)
would give, or declines, and the reference path decides.

What it assumes of pydantic (the range in pyproject.toml, tested at both ends in CI):
- A model instance is complete once four slots are set: `__dict__` (the fields by Python
  name), `__pydantic_fields_set__`, `__pydantic_extra__` (unknown keys, or None for a closed
  model) and `__pydantic_private__` (None: wire models have no private attributes). This is
  what `BaseModel.model_construct` sets; a decoder sets the same slots without its overhead,
  through the descriptors of `BaseModel.__slots__`.
- pydantic-core's string validator with `pattern=` is the check the model's field applies,
  so the decoders use it for patterns (`_pattern`).

What it assumes of CPython and orjson:
- `orjson.loads` gives the same values as the reference parser (`_number.loads`, which keeps
  a number's text) except for floats whose text `repr` would not write back, integers beyond
  64 bits (orjson gives a float) and nesting beyond its own limit: a decoder declines any
  float in free-form JSON, a free-form value deeper than `FREE_DEPTH`, and a text with a `-0`.
  A text that is exactly what orjson writes for its parse (`floats_as_written`: compact JSON
  as `to_json` writes it) goes straight to one decode that takes its floats (the decoders'
  argument `floats`; each one `repr` writes alike, `float_ok`): such a text repeats no key and
  holds no `-0` (orjson would have written either otherwise), so nothing else reads it again.
- `orjson.dumps` writes the bytes `json.dumps(..., separators=(",", ":"), ensure_ascii=False)`
  writes for `str`, `bool`, `None`, 64-bit `int`, `dict` with `str` keys, `list`, and finite
  floats that are 0 or at least 1e-4 in size (below that, orjson writes `0.00001` where `repr`
  writes `1e-05`). Anything else makes the encoder decline (`_plain`).

What falls back to the reference path: every document orjson refuses, every field check that
fails (so errors are always the validator's), `null` for an optional field, subclasses of the
generated models (they may add validators), and everything when the environment variable
`TOOLNEXUS_NO_FAST_PATH=1` is set at import, which turns this layer off for debugging.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from itertools import chain
from typing import Any

import orjson
from pydantic import BaseModel
from pydantic_core import SchemaValidator, core_schema

from ._number import JsonNumber

__all__ = [
    "ENABLED",
    "FREE_DEPTH",
    "MISS",
    "decoder_for",
    "install",
    "json_encoder_for",
    "nesting",
    "new",
    "set_dict",
    "set_extra",
    "set_fields_set",
    "set_private",
]

#: False when `TOOLNEXUS_NO_FAST_PATH=1`: every call takes the reference path.
ENABLED = os.environ.get("TOOLNEXUS_NO_FAST_PATH", "") not in ("1", "true", "yes")

Decoder = Callable[[Any, "bool | None"], Any]
JsonEncoder = Callable[[Any], "dict[str, Any] | None"]

#: A missing key, distinct from an explicit `null`.
MISS: Any = object()

#: The deepest a free-form value (metadata, unknown keys) may nest on the fast path;
#: deeper documents go to the validator, which owns the nesting limit.
FREE_DEPTH = 64
#: Floats the fast path passes through: 0 and |x| >= 1e-4 print the same in orjson and
#: `repr`; below 2**63 a float cannot be an integer orjson parsed as a float.
FLOAT_MIN = 1e-4
FLOAT_MAX = 9.2e18
INT_MIN = -(2**63)
INT_MAX = 2**64 - 1
_INF = float("inf")

#: A generated decoder makes a model instance from checked values with these: `new(cls)`,
#: then the four slots `model_construct` sets (see the contract above), each by its own
#: descriptor on `BaseModel` (a `__slots__` entry), which costs less than `setattr`.
new = object.__new__
_SLOTS = BaseModel.__dict__
set_dict: Callable[[Any, dict[str, Any]], None] = _SLOTS["__dict__"].__set__
set_fields_set: Callable[[Any, set[str]], None] = _SLOTS["__pydantic_fields_set__"].__set__
set_extra: Callable[[Any, dict[str, Any] | None], None] = _SLOTS["__pydantic_extra__"].__set__
set_private: Callable[[Any, None], None] = _SLOTS["__pydantic_private__"].__set__


def floats_as_written(data: str | bytes | bytearray, doc: Any) -> bool:
    """Whether `data` is exactly what orjson writes for `doc`, its parse: compact, in order,
    every number spelled as orjson spells it, so each float in `doc` stands for its text
    (`float_ok` then keeps only those that `repr` spells the same way). Pretty-printed or
    otherwise spelled documents answer False, and the reference path reads them."""
    try:
        written = orjson.dumps(doc)
    except orjson.JSONEncodeError:
        return False
    return written == (data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)


def float_ok(v: float) -> bool:
    """Whether a decoder may keep the float `v` of a document whose floats are as orjson writes
    them (`floats_as_written`, the decoders' argument `floats`): one that `repr` writes alike
    (`plain_float`), below 2**63 (not an integer orjson made a float)."""
    return abs(v) < FLOAT_MAX and plain_float(v)


_DECODERS: dict[type[Any], Decoder] = {}
_JSON_ENCODERS: dict[type[Any], JsonEncoder] = {}
_RESOLVED: dict[type[Any], JsonEncoder | None] = {}


def install(decoders: dict[type[Any], Decoder], json_encoders: dict[type[Any], JsonEncoder]) -> None:
    """Called once by the generated `_fast` module with its tables (nothing when disabled)."""
    if ENABLED:
        _DECODERS.update(decoders)
        _JSON_ENCODERS.update(json_encoders)
        _RESOLVED.clear()


def decoder_for(cls: type[Any]) -> Decoder | None:
    """The fast decoder of exactly `cls`; None for a subclass, which may add validators."""
    return _DECODERS.get(cls)


def json_encoder_for(cls: type[Any]) -> JsonEncoder | None:
    """The JSON-ready encoder of the nearest wire type `cls` derives from (a subclass's own
    fields are not on the wire, as for `to_wire`), or None."""
    try:
        return _RESOLVED[cls]
    except KeyError:
        found = next((_JSON_ENCODERS[base] for base in cls.__mro__ if base in _JSON_ENCODERS), None)
        _RESOLVED[cls] = found
        return found


def nesting(doc: Any) -> tuple[int, int, bool]:
    """How deep the parsed JSON `doc` nests (its own array or object is level 1, a scalar 0),
    how many keys its objects hold, all the way down, and whether it holds a float: walked a
    level at a time, with no Python step per container (the members of a level are gathered
    and sorted by type in C), so a large document costs little more than its parse."""
    if type(doc) is not dict and type(doc) is not list:
        return 0, 0, type(doc) is float
    depth = keys = 0
    has_float = False
    level: list[Any] = [doc]
    kinds: set[type[Any]] = {type(doc)}  # the container types in `level`
    while level:
        depth += 1
        if list not in kinds:
            count = sum(map(len, level))
            keys += count
            members = [*chain.from_iterable(map(dict.values, level))] if count else []
        elif dict not in kinds:
            members = [*chain.from_iterable(level)]
        else:
            dicts = [c for c in level if type(c) is dict]
            keys += sum(map(len, dicts))
            members = [*chain.from_iterable(map(dict.values, dicts))]
            members += chain.from_iterable([c for c in level if type(c) is list])
        kinds = set(map(type, members))
        has_float = has_float or float in kinds
        if dict in kinds or list in kinds:
            level = members if kinds <= _CONTAINERS else [v for v in members if type(v) in _CONTAINERS]
            kinds &= _CONTAINERS
        else:
            level = []
    return depth, keys, has_float


_CONTAINERS: set[type[Any]] = {dict, list}


def plain(value: Any, depth: int) -> bool:
    """True when a dict or list `value` is JSON that orjson writes exactly as `json` does,
    no deeper than `depth`. Scalars are checked in the loop, and only containers recurse."""
    if depth <= 0:
        return False
    if type(value) is dict:
        for k in value:
            if type(k) is not str:
                return False
        items = value.values()
    else:
        items = value
    for v in items:
        t = type(v)
        if t is str or t is bool or v is None:
            continue
        if t is int:
            if not INT_MIN <= v <= INT_MAX:
                return False
        elif t is float:
            if not (v == 0.0 or FLOAT_MIN <= abs(v) < _INF):
                return False
        elif t is dict or t is list:
            if not plain(v, depth - 1):
                return False
        else:
            return False
    return True


def plain_float(v: Any) -> bool:
    """A float orjson writes as `json` does (an int is checked by the caller)."""
    return type(v) is float and (v == 0.0 or FLOAT_MIN <= abs(v) < _INF)


def number_json(v: Any) -> Any:
    """What orjson writes as the text of a typed `number` field holding `v`: a float that orjson
    writes as `json` does, itself; a `JsonNumber`, a fragment of its text; else None (decline)."""
    if type(v) is JsonNumber:
        return orjson.Fragment(v.text)
    return v if plain_float(v) else None


def sound(value: Any, depth: int, floats: bool | None) -> bool:
    """True when a parsed dict or list `value` is what the reference parser would give: no
    float unless the document's floats are as written (`floats`, and then `float_ok`: otherwise
    only `_number.loads` keeps their text; orjson also makes a float of an integer beyond 64
    bits), and no deeper than `depth`. `floats` None: the caller found, walking the whole
    document (`nesting`), that it holds no float and nests no deeper than `FREE_DEPTH` levels
    below its own object, so nothing here needs a look."""
    if floats is None:
        return True
    if depth <= 0:
        return False
    for v in value.values() if type(value) is dict else value:
        t = type(v)
        if t is float:  # its text may not be what Python writes (`1.50`): `_number` keeps it
            if not (floats and float_ok(v)):
                return False
        elif (t is dict or t is list) and not sound(v, depth - 1, floats):
            return False
    return True


def pattern(regex: str) -> Callable[[Any], bool]:
    """pydantic-core's check of `regex`, the very one the model's field uses."""
    return SchemaValidator(core_schema.str_schema(pattern=regex, strict=True)).isinstance_python


#: The IDL's pattern for standard padded base64 (RFC 4648 section 4), checked by `base64`.
BASE64_PATTERN = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"
_BASE64_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


#: `base64` reads a longer string in slices of this many characters (a multiple of 4).
_BASE64_SLICE = 32 * 1024


def base64(value: str) -> bool:
    """`BASE64_PATTERN` checked without a regex: for a large part the regex costs more than
    parsing the JSON. A string longer than `_BASE64_SLICE` is read in slices, so that it is
    never copied whole (the peak memory of a large part) and each slice is read from the
    cache. A test pins it to pydantic-core's regex."""
    n = len(value)
    if n % 4 or not value.isascii():
        return False
    if n <= _BASE64_SLICE:
        rest = value.encode("ascii").translate(None, _BASE64_ALPHABET)  # what is not in the alphabet
        return not rest or (rest in (b"=", b"==") and value.endswith(rest.decode("ascii")))
    end = n - 4  # all but the last four characters are in the alphabet, those may end in padding
    for i in range(0, end, _BASE64_SLICE):
        if value[i : min(i + _BASE64_SLICE, end)].encode("ascii").translate(None, _BASE64_ALPHABET):
            return False
    tail = value[end:].encode("ascii")
    rest = tail.translate(None, _BASE64_ALPHABET)
    return not rest or (rest in (b"=", b"==") and tail.endswith(rest))


def check_for(regex: str) -> Callable[[Any], bool]:
    """The fastest exact check of `regex`."""
    return base64 if regex == BASE64_PATTERN else pattern(regex)


# --- long strings ---------------------------------------------------------------------------------

#: From this size on, `from_json` of bytes takes long strings out of the text before orjson
#: reads it (`splice`): orjson holds a copy of every string while it builds the value, so a
#: 100 MiB part would otherwise peak at three copies of itself (the text, orjson's, the `str`).
SPLICE_FROM = 1 << 20
#: A string value this long or longer is taken out.
LONG_STRING = 64 * 1024
#: How many strings `splice` reads past before it leaves the text to orjson as it is.
_STRINGS = 4096
#: What a string taken out is replaced with, as orjson reads it and as the text writes it.
_MARK = "\x00toolnexus-long-string-"
_MARK_TEXT = b"\\u0000toolnexus-long-string-"
_PRINTABLE = bytes(range(0x20, 0x100))  # deleted: what is left is a control character
_SPACE = b" \t\r\n"


def splice(data: bytes | bytearray) -> tuple[bytes, list[str]] | None:
    """`data` with each long string value taken out and replaced by a short marker, and those
    strings, each decoded once from `data` (the one copy a parse must make); None when there
    is nothing to take out, or finding it would cost more than it saves.

    A string is taken out only where the text says the same either way: a value (no `:` after
    it), with no escape, no control character and valid UTF-8, so it is a JSON string however
    the text around it reads, and the text's verdict (every rule) is the marker's. Quotes are
    paired as JSON pairs them, an escaped quote being one preceded by an odd run of backslashes.
    """
    view = memoryview(data)
    spans: list[tuple[int, int]] = []
    strings = 0
    start = data.find(b'"')
    while start >= 0:
        end = data.find(b'"', start + 1)
        while end > 0 and data[end - 1] == 0x5C:  # a backslash before it: escaped when the run is odd
            run = end - 1
            while data[run - 1] == 0x5C:
                run -= 1
            if (end - run) % 2 == 0:
                break
            end = data.find(b'"', end + 1)
        if end < 0:
            return None  # not closed: orjson says why
        strings += 1
        if strings > _STRINGS:
            return None
        if end - start - 1 >= LONG_STRING:
            after = end + 1
            while after < len(data) and data[after] in _SPACE:
                after += 1
            if (after >= len(data) or data[after] != 0x3A) and data.find(b"\\", start, end) < 0:
                spans.append((start, end))
        start = data.find(b'"', end + 1)
    if not spans:
        return None
    taken: list[str] = []
    pieces: list[bytes] = []
    done = 0
    for start, end in spans:
        for i in range(start + 1, end, _BASE64_SLICE):
            if bytes(view[i : min(i + _BASE64_SLICE, end)]).translate(None, _PRINTABLE):
                return None  # a control character: not JSON, orjson says so
        try:
            taken.append(str(view[start + 1 : end], "utf-8"))
        except UnicodeDecodeError:
            return None
        pieces += [bytes(view[done:start]), b'"', _MARK_TEXT, str(len(taken) - 1).encode(), b'"']
        done = end + 1
    pieces.append(bytes(view[done:]))
    text = b"".join(pieces)
    # NUL has one spelling in JSON, `\u0000`: when the markers' are the only ones left, no
    # other string of the text holds a NUL, so none can be read as a marker.
    if text.count(b"\\u0000") != len(taken):
        return None
    return text, taken


def restore(doc: Any, taken: list[str]) -> Any:
    """`doc` (orjson's parse of what `splice` made) with each marker replaced by its string, in
    place; walked without recursion."""
    if type(doc) is str:
        return taken[int(doc[len(_MARK) :])] if doc.startswith(_MARK) else doc
    stack = [doc]
    while stack:
        container = stack.pop()
        items = container.items() if type(container) is dict else enumerate(container)
        for key, value in items:
            if type(value) is str:
                if value.startswith(_MARK):
                    container[key] = taken[int(value[len(_MARK) :])]
            elif type(value) is dict or type(value) is list:
                stack.append(value)
    return doc
