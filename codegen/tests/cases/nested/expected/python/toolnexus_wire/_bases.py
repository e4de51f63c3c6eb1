# Generated from idl/ (nest schema 2.0.0, sha256 97126eb81160e4cbc9fbb0e6ef8c8b197963ea825c0f6c9aadd45fd2706b192f).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""Per-type bases of the generated models: the type's hand-written helpers, when it has any
(`_helpers/`), the refusal of `null` for an optional field: None in Python, absent on
the wire, at the cost of a check only when the key is present, and the type's conditional
requirements (`allOf` in the IDL), checked once the fields are."""

from __future__ import annotations

from typing import Any

from pydantic import field_validator

from ._base import WireModel

__all__ = [
    "ItemBase",
    "BoxBase",
]


def _refuse_null(value: Any) -> Any:
    if value is None:
        raise ValueError("null is not allowed: leave the key out instead")
    return value


class ItemBase(WireModel):
    _no_null = field_validator("count", "weight", mode="before", check_fields=False)(_refuse_null)


class BoxBase(WireModel):
    _no_null = field_validator("labels", mode="before", check_fields=False)(_refuse_null)
