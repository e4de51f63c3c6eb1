# Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_keys.py (hand-written, copied verbatim).
# codegen: copy
"""Repeated keys: an object that names a key twice is not a wire document, in any language.

orjson, like most parsers, keeps the last of two values for one key and says nothing, so
`repeated_key` looks at the text again. Most documents are proved free of repeats without a
second parse:

- a compact document as orjson writes it (what `to_json` writes, and serde_json's compact
  form) is exactly `orjson.dumps` of its parse, which holds each key once;
- otherwise, and first in a large document, it is counted: each key of the text ends in `"`
  just before its `:` (when no whitespace sits between them), so the `":` of the text are at
  least its keys, and the keys of the text at least those of the parse, one fewer for each
  repeat. When the `":` are exactly as many as the keys of the parse, nothing was repeated
  (and when all the colons are: the cheapest count, first). A `":` inside a string (JSON text
  held as a string) makes the count inconclusive, not wrong, and so does whitespace before a
  colon. The text is counted by `count` (in C, a pass per pattern), the parse's keys by
  `_speed.nesting`: both linear.

Anything not proved is read again by the standard `json` module, which reports each object's
keys as written.
"""

from __future__ import annotations

import json
from typing import Any

from . import _speed

__all__ = ["COUNT_FROM", "repeated_key"]

#: From this size on, a document is first counted rather than written again (which would
#: hold a second copy of it).
COUNT_FROM = 16 * 1024
#: Below one key in this many bytes of text, colons are found one by one rather than counted.
_BYTES_PER_KEY = 4096


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


def repeated_key(
    data: str | bytes | bytearray, doc: Any, as_written: bool | None = None, keys: int | None = None
) -> str | None:
    """The first key that some object of `data` repeats, or None; `doc` is orjson's parse of
    `data` (valid JSON), `as_written` whether `data` is exactly `orjson.dumps(doc)`, when the
    caller knows (`_speed.floats_as_written`), and `keys` how many keys `doc` holds, when the
    caller counted them (`_speed.nesting`). `RecursionError` when the text nests deeper than
    the `json` module reads (about 1,000 levels: far past `MAX_DEPTH`)."""
    if as_written is None:
        if len(data) >= COUNT_FROM and _counted_once(data, doc, keys):
            return None
        as_written = _speed.floats_as_written(data, doc)
    if as_written or _counted_once(data, doc, keys):
        return None  # (a pretty-printed text, `"key": value`, is counted too)
    try:
        _DECODER.decode(data if isinstance(data, str) else bytes(data).decode("utf-8"))
    except _Repeated as exc:
        return exc.key
    return None


def _counted_once(data: str | bytes | bytearray, doc: Any, keys: int | None) -> bool:
    """True when counting proves that no object of `data` repeats a key (see the module
    docstring); False when it cannot tell."""
    if keys is None:
        keys = _speed.nesting(doc)[1]
    if isinstance(data, str):
        colon, key_ends, spaced = ":", '":', (" :", "\t:", "\n:", "\r:")
    else:
        colon, key_ends, spaced = b":", b'":', (b" :", b"\t:", b"\n:", b"\r:")  # type: ignore[assignment]
    # Every key of the text has a colon after it: as many colons as keys in the parse leaves
    # none for a repeat. With few keys for the text's size (a large part, a long output), the
    # colons are found one by one (`find` of one character skips ahead at memory speed, and
    # stops past `keys`); with many, `count` passes over the text once.
    if keys * _BYTES_PER_KEY < len(data):
        colons, i = 0, data.find(colon)  # type: ignore[arg-type]
        while i >= 0 and colons <= keys:
            colons += 1
            i = data.find(colon, i + 1)  # type: ignore[arg-type]
        if colons == keys:
            return True
    elif data.count(colon) == keys:  # type: ignore[arg-type]
        return True
    # Colons in strings too ("https://", "12:30"): count only those just after a quote.
    if any(data.count(s) for s in spaced):  # type: ignore[arg-type]
        return False  # whitespace between a key and its colon: that key is not counted
    return data.count(key_ends) == keys  # type: ignore[arg-type]
