# Generated from idl/ (deep schema 0.3.0, sha256 4dc98f140ed7c0ffdcb8df9a9b23e58b0b4ab442c36ab15e0be5a35f0940376b).
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

__all__ = [
    "SpanBase",
    "ParaBase",
    "SectionBase",
    "DocBase",
]


def _refuse_null(value: Any) -> Any:
    if value is None:
        raise ValueError("null is not allowed: leave the key out instead")
    return value


class SpanBase(WireModel):
    _no_null = field_validator("style", mode="before", check_fields=False)(_refuse_null)


class ParaBase(WireModel):
    pass


class SectionBase(WireModel):
    pass


class DocBase(WireModel):
    _no_null = field_validator("lead", mode="before", check_fields=False)(_refuse_null)
