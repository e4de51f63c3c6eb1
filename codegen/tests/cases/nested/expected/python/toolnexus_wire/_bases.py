# Generated from idl/ (nest schema 2.0.0, sha256 9d9d9c3336abe30c1393e2927f3e7698f176b4ec0c3166ad1dd10ec4085a5ff4).
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
    "ItemBase",
    "BoxBase",
]


def _refuse_null(value: Any) -> Any:
    if value is None:
        raise ValueError("null is not allowed: leave the key out instead")
    return value


class ItemBase(WireModel):
    _no_null = field_validator("count", "weight", "share", mode="before", check_fields=False)(_refuse_null)
    _number_text = field_validator("weight", "share", mode="wrap", check_fields=False)(keep_number_text)


class BoxBase(WireModel):
    _no_null = field_validator("labels", mode="before", check_fields=False)(_refuse_null)
