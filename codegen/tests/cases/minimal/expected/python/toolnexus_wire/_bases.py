# Generated from idl/ (mini schema 0.1.0, sha256 48fd3a01ee3a8aeff58393457f1c5b3755201e6590414d3b8acb17333de67558).
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
    "NoteBase",
]


def _refuse_null(value: Any) -> Any:
    if value is None:
        raise ValueError("null is not allowed: leave the key out instead")
    return value


class NoteBase(WireModel):
    _no_null = field_validator("author", mode="before", check_fields=False)(_refuse_null)
