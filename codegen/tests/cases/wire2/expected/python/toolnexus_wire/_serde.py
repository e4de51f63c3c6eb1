# Generated from idl/ (wire2 schema 1.0.0, sha256 f6e9383411275297c30ab302ae6e2d5c71a68e0ad76b38167f649b072175702e).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""Wire encoders, one per type, written out field by field from the IDL.

A field is written always, when present (not None), or when non-empty, as
the IDL says; unknown keys follow the known ones in the order they came.
"""

from __future__ import annotations

from typing import Any

from . import models
from ._base import install_encoders

__all__: list[str] = []


def _encode_Piece(m: models.Piece) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": m.kind,
        "body": m.body,
    }
    if m.label:
        out["label"] = m.label
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


def _encode_Outcome(m: models.Outcome) -> dict[str, Any]:
    out: dict[str, Any] = {
        "summary": m.summary,
    }
    if m.result_value is not None:
        out["result"] = m.result_value
    if m.pieces:
        out["pieces"] = [_encode_Piece(v0) for v0 in m.pieces]
    if m.note:
        out["note"] = m.note
    return out


install_encoders(
    {
        models.Piece: _encode_Piece,
        models.Outcome: _encode_Outcome,
    }
)
