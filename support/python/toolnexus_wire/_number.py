# codegen: package
"""JSON numbers written back as they were read: the number rule every language keeps.

A number in free-form JSON (`metadata`, `structuredContent`, unknown keys) is written back
with the text it came with, except that an exponent is written as `e` with a sign
(`1E5` and `1e5` are written `1e+5`; `1e-7` stays). Python's own float formatting would
write `1.50` as `1.5`, `1e5` as `100000.0`, `-0` as `0` and `1e-400` as `0.0`, so a number
whose text Python would not write back is read as a `JsonNumber`: a `float` (it computes and
compares as its value) that keeps its text. Every other number is a plain `int` or `float`.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable
from typing import Any, Self

__all__ = ["JsonNumber", "float_text", "int_number", "keep_number_text", "loads", "may_hold_minus_zero"]


def _spelled(token: str) -> str:
    """`token` (a JSON number) with its exponent written `e` and a sign."""
    i = token.find("e")
    if i < 0:
        i = token.find("E")
        if i < 0:
            return token
    sign = "" if token[i + 1] in "+-" else "+"
    return f"{token[:i]}e{sign}{token[i + 1 :]}"


class JsonNumber(float):
    """A float read from JSON whose text Python would write differently; `text` is written back.

    It behaves as the float it stands for (`JsonNumber("1.50") == 1.5`); arithmetic on it
    gives a plain float.
    """

    __slots__ = ("text",)
    text: str

    def __new__(cls, token: str) -> Self:
        self = super().__new__(cls, float(token))
        self.text = _spelled(token)
        return self

    def __repr__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[type[Self], tuple[str]]:
        return (type(self), (self.text,))


_repr = float.__repr__
_new_float = float.__new__


def _float(token: str) -> float:
    """A float token as `loads` keeps it; called once per float of a document, so it makes a
    `JsonNumber` the way `JsonNumber(token)` does, without its second parse and spelling."""
    value = float(token)
    text = _spelled(token) if "e" in token or "E" in token else token
    if _repr(value) == text:
        return value
    number = _new_float(JsonNumber, value)
    number.text = text
    return number


def _int(token: str) -> int | float:
    return JsonNumber(token) if token == "-0" else int(token)


_DECODER = json.JSONDecoder(parse_float=_float, parse_int=_int)


def loads(data: str | bytes | bytearray) -> Any:
    """JSON text already found valid (by orjson) decoded with every number's text kept.

    The cyclic garbage collector is paused meanwhile: a `JsonNumber` holds its text, so each is
    an object the collector tracks, and a document of a few hundred thousand of them (floats
    written `1.50`) ran collections that find nothing (none of them can be in a cycle), more of
    them the longer the document. A collector paused by someone else stays paused."""
    text = data if isinstance(data, str) else bytes(data).decode("utf-8")
    if not gc.isenabled():
        return _DECODER.decode(text)
    gc.disable()
    try:
        return _DECODER.decode(text)
    finally:
        gc.enable()


# `-0` is the one integer whose text an `int` loses; orjson reads it as 0. A document that
# may hold one as a value (after `[`, `:` or `,`) is read by `loads`. Dates hold `-0` too, so
# each `-0` found is looked at: a few steps each, where a regular expression over the whole
# text would cost more than parsing it.
_SPACE_STR, _LEAD_STR, _NUMBER_STR = " \t\r\n", "[:,", "0123456789.eE"
_SPACE_BYTES, _LEAD_BYTES, _NUMBER_BYTES = b" \t\r\n", b"[:,", b"0123456789.eE"


def may_hold_minus_zero(data: str | bytes | bytearray) -> bool:
    """Whether `data` may hold the integer `-0` as a value (a false positive only costs time)."""
    if isinstance(data, str):
        return _minus_zero(data, "-", "0", _SPACE_STR, _LEAD_STR, _NUMBER_STR)
    return _minus_zero(data, b"-", 48, _SPACE_BYTES, _LEAD_BYTES, _NUMBER_BYTES)


def _minus_zero(data: Any, minus: Any, zero: Any, space: Any, lead: Any, number: Any) -> bool:
    # One character at a time: `find` of one character is a memchr, of two a slower search.
    i = data.find(minus)
    end = len(data)
    while i >= 0:
        if i + 1 < end and data[i + 1] == zero:
            j = i - 1
            while j >= 0 and data[j] in space:
                j -= 1
            if j >= 0 and data[j] in lead and (i + 2 >= end or data[i + 2] not in number):
                return True
        i = data.find(minus, i + 1)
    return False


def float_text(value: float) -> str:
    """The JSON text of a float: a `JsonNumber`'s own, else Python's (`json`'s) spelling;
    `ValueError` for NaN and the infinities, which JSON has no text for."""
    if type(value) is JsonNumber:
        return value.text
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"Out of range float values are not JSON compliant: {value!r}")
    return float.__repr__(value)


def keep_number_text(value: Any, check: Callable[[Any], Any]) -> Any:
    """The value of a typed `number` field, or of an array of them (a wrap validator's body;
    `check` is pydantic's own check, bounds included): a number keeps the text it came with,
    as in free-form JSON, so `1` is written back `1` (not `1.0`) and `0.10` as `0.10`. A
    `JsonNumber` stays itself, an `int` becomes the `JsonNumber` of its digits, and a `float`
    stays a float (written in Python's spelling, as a number made in code is)."""
    return _kept(value, check(value))


def int_number(value: int) -> float:
    """An integer in a typed `number` field: the `JsonNumber` of its digits, so that it is
    written back as it came (`1`, not Python's `1.0`); typed as the float it is, for the
    decoders that bind it where a float may go."""
    number = _new_float(JsonNumber, value)
    number.text = str(value)
    return number


def _kept(value: Any, checked: Any) -> Any:
    t = type(value)
    if t is JsonNumber:
        return value
    if t is int:
        return int_number(value)
    if t is list and type(checked) is list:
        return [_kept(v, c) for v, c in zip(value, checked, strict=True)]
    return checked
