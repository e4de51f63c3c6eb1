# Generated from idl/ (deep schema 0.3.0, sha256 4dc98f140ed7c0ffdcb8df9a9b23e58b0b4ab442c36ab15e0be5a35f0940376b).
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


def _encode_Span(m: models.Span) -> dict[str, Any]:
    out: dict[str, Any] = {
        "text": m.text,
    }
    if m.style is not None:
        out["style"] = m.style
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


def _encode_Para(m: models.Para) -> dict[str, Any]:
    out: dict[str, Any] = {
        "spans": [_encode_Span(v0) for v0 in m.spans],
    }
    if m.grid:
        out["grid"] = [[_encode_Span(v1) for v1 in v0] for v0 in m.grid]
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


def _encode_Section(m: models.Section) -> dict[str, Any]:
    out: dict[str, Any] = {
        "heading": m.heading,
        "paras": [_encode_Para(v0) for v0 in m.paras],
    }
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


def _encode_Doc(m: models.Doc) -> dict[str, Any]:
    out: dict[str, Any] = {
        "title": m.title,
    }
    if m.sections:
        out["sections"] = [_encode_Section(v0) for v0 in m.sections]
    if m.lead is not None:
        out["lead"] = _encode_Section(m.lead)
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


install_encoders(
    {
        models.Span: _encode_Span,
        models.Para: _encode_Para,
        models.Section: _encode_Section,
        models.Doc: _encode_Doc,
    }
)
