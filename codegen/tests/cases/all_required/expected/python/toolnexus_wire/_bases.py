# Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""Per-type bases of the generated models: the type's hand-written helpers, when it has any
(`_helpers/`), the refusal of `null` for an optional field: None in Python, absent on
the wire, at the cost of a check only when the key is present, the text of a `number`
field's value kept as it came (`_number.keep_number_text`), and the type's conditional
requirements (`allOf` in the IDL), checked once the fields are."""

from __future__ import annotations

from typing import Any

from pydantic import field_validator

from ._base import WireModel
from ._number import keep_number_text

__all__ = [
    "PointBase",
]


def _refuse_null(value: Any) -> Any:
    if value is None:
        raise ValueError("null is not allowed: leave the key out instead")
    return value


class PointBase(WireModel):
    _number_text = field_validator("x", "y", mode="wrap", check_fields=False)(keep_number_text)
