# Generated from idl/ (toolnexus schema 2.0.0, sha256 461a9de12d0e88502ec770c4cc9f8ca6758166a502c211ad64e864efce9b199f).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_number.py (hand-written, copied verbatim).
# codegen: copy
"""JSON numbers written back as they were read: the number rule every language keeps.

A number in free-form JSON (`metadata`, `structuredContent`, unknown keys) is written back
with the text it came with, except that an exponent is written as `e` with a sign
(`1E5` and `1e5` are written `1e+5`; `1e-7` stays). Python's own float formatting would
write `1.50` as `1.5`, `1e5` as `100000.0`, `-0` as `0` and `1e-400` as `0.0`, so a number
whose text Python would not write back is read as a `JsonNumber`: a `float` (it computes and
compares as its value) that keeps its text. Every other number is a plain `int` or `float`.
"""

from __future__ import annotations

import json
import re
from typing import Any, Self

__all__ = ["JsonNumber", "float_text", "loads", "may_hold_minus_zero"]


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


def _float(token: str) -> float:
    value = float(token)
    text = _spelled(token)
    return value if float.__repr__(value) == text else JsonNumber(text)


def _int(token: str) -> int | float:
    return JsonNumber(token) if token == "-0" else int(token)


_DECODER = json.JSONDecoder(parse_float=_float, parse_int=_int)


def loads(data: str | bytes | bytearray) -> Any:
    """JSON text already found valid (by orjson) decoded with every number's text kept."""
    text = data if isinstance(data, str) else bytes(data).decode("utf-8")
    return _DECODER.decode(text)


# `-0` is the one integer whose text an `int` loses; orjson reads it as 0. A document that
# may hold one (as a value: after `[`, `:` or `,`) is read by `loads`. Dates hold `-0` too,
# so the pattern confirms what the quick substring test suggests.
_MINUS_ZERO_STR = re.compile(r"[\[:,]\s*-0(?![0-9.eE])")
_MINUS_ZERO_BYTES = re.compile(rb"[\[:,]\s*-0(?![0-9.eE])")


def may_hold_minus_zero(data: str | bytes | bytearray) -> bool:
    """Whether `data` may hold the integer `-0` as a value (a false positive only costs time)."""
    if isinstance(data, str):
        return "-0" in data and _MINUS_ZERO_STR.search(data) is not None
    return b"-0" in data and _MINUS_ZERO_BYTES.search(data) is not None


def float_text(value: float) -> str:
    """The JSON text of a float: a `JsonNumber`'s own, else Python's (`json`'s) spelling;
    `ValueError` for NaN and the infinities, which JSON has no text for."""
    if type(value) is JsonNumber:
        return value.text
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"Out of range float values are not JSON compliant: {value!r}")
    return float.__repr__(value)
