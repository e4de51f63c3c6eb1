# Generated from idl/ (wire2 schema 1.0.0, sha256 f6e9383411275297c30ab302ae6e2d5c71a68e0ad76b38167f649b072175702e).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""Per-type bases of the generated models: the type's hand-written helpers, when it has any
(`_helpers/`), the refusal of `null` for an optional field: None in Python, absent on
the wire, at the cost of a check only when the key is present, the text of a `number`
field's value kept as it came (`_number.keep_number_text`), and the type's conditional
requirements (`allOf` in the IDL), checked once the fields are."""

from __future__ import annotations

from typing import Any

from pydantic import field_validator, model_validator

from ._base import WireModel

__all__ = [
    "PieceBase",
    "OutcomeBase",
]


def _refuse_null(value: Any) -> Any:
    if value is None:
        raise ValueError("null is not allowed: leave the key out instead")
    return value


class PieceBase(WireModel):
    _no_null = field_validator("body", mode="before", check_fields=False)(_refuse_null)

    @model_validator(mode="after")
    def _requirements(self) -> Any:
        """What the IDL's `allOf` requires of a Piece, at the object's path."""
        d = self.__dict__
        # A blob is labelled.
        if d["kind"] in ("blob",) and not (d["label"]):
            raise ValueError("a \"type\": \"{}\" object carries nothing: it needs \"label\"".format(d["kind"]))
        return self


class OutcomeBase(WireModel):
    _no_null = field_validator("result_value", mode="before", check_fields=False)(_refuse_null)
