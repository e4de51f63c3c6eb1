# Generated from idl/ (toolnexus schema 2.1.0, sha256 7b98639ef0da02bbcc13a99738f4e4dcc074a3ae78375a1286f233ae3294f1b9).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_keys.py (hand-written, copied verbatim).
# codegen: copy
"""Repeated keys: an object that names a key twice is not a wire document, in any language.

orjson, like most parsers, keeps the last of two values for one key and says nothing, so
`repeated_key` looks at the text again. Most documents are proved free of repeats without a
second parse:

- a compact document as orjson writes it (what `to_json` writes, and serde_json's compact
  form) is exactly `orjson.dumps` of its parse, which holds each key once;
- otherwise, and first in a large document (mostly strings), it may be counted: each key of the
  text ends in `"` just before its `:` (when no whitespace sits between them), so the colons
  that follow a `"` are at least the keys of the text, and the keys of the text at least those
  of the parse, one fewer for each repeat. When those colons are exactly as many as the keys
  of the parse, nothing was repeated. A `":` inside a string (JSON text held as a string) makes
  the count inconclusive, not wrong.

Anything not proved is read again by the standard `json` module, which reports each object's
keys as written.
"""

from __future__ import annotations

import json
from typing import Any

from . import _speed

__all__ = ["COUNT_FROM", "repeated_key"]

#: From this size on, a document is first counted (a few steps per colon and per key of its
#: parse) rather than written again (a step per byte).
COUNT_FROM = 16 * 1024
#: How many steps counting may take, per KiB of text, before it gives up for the next way:
#: writing the text again costs about 2 steps per KiB, reading it again about 40.
_BEFORE_WRITING = 2
_BEFORE_READING = 32


class _Repeated(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Repeated(key)
            seen.add(key)
    return obj


def _nothing(_: str) -> None:
    return None


# Numbers are not needed here, nor are their values made (a huge integer would be refused).
_DECODER = json.JSONDecoder(
    object_pairs_hook=_pairs, parse_int=_nothing, parse_float=_nothing, parse_constant=_nothing
)


def repeated_key(data: str | bytes | bytearray, doc: Any, as_written: bool | None = None) -> str | None:
    """The first key that some object of `data` repeats, or None; `doc` is orjson's parse of
    `data` (valid JSON), and `as_written` whether `data` is exactly `orjson.dumps(doc)`, when
    the caller knows (`_speed.floats_as_written`). `RecursionError` when the text nests deeper
    than the `json` module reads (about 1,000 levels: far past `MAX_DEPTH`)."""
    if as_written is None:
        if len(data) >= COUNT_FROM and _counted_once(data, doc, _BEFORE_WRITING):
            return None
        as_written = _speed.floats_as_written(data, doc)
    if as_written or _counted_once(data, doc, _BEFORE_READING):
        return None  # (a pretty-printed text, `"key": value`, is counted too)
    try:
        _DECODER.decode(data if isinstance(data, str) else bytes(data).decode("utf-8"))
    except _Repeated as exc:
        return exc.key
    return None


def _counted_once(data: str | bytes | bytearray, doc: Any, steps_per_kib: int) -> bool:
    """True when counting proves that no object of `data` repeats a key (see the module
    docstring); False when it cannot tell within `steps_per_kib` steps per KiB of text."""
    if isinstance(data, str):
        colon, quote, spaces = ":", '"', (" ", "\t", "\n", "\r")
    else:
        colon, quote, spaces = b":", 34, (32, 9, 10, 13)  # type: ignore[assignment]
    budget = (len(data) // 1024 + 1) * steps_per_kib + 16
    colons = 0
    i = data.find(colon)  # type: ignore[arg-type]
    while i >= 0:  # a colon is never first in valid JSON
        before = data[i - 1]
        if before == quote:
            colons += 1
        elif before in spaces:
            return False  # whitespace between a key and its colon: that key is not counted
        budget -= 1
        if budget < 0:
            return False
        i = data.find(colon, i + 1)  # type: ignore[arg-type]
    keys = 0
    stack = [doc]
    while stack:
        value = stack.pop()
        if type(value) is dict:
            keys += len(value)
            values: Any = value.values()
        elif type(value) is list:
            values = value
        else:
            continue
        budget -= len(value)
        if budget < 0:
            return False
        stack.extend(v for v in values if type(v) is dict or type(v) is list)
    return colons == keys
