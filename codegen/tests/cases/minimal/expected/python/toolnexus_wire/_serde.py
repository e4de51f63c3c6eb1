# Generated from idl/ (mini schema 0.1.0, sha256 48fd3a01ee3a8aeff58393457f1c5b3755201e6590414d3b8acb17333de67558).
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


def _encode_Note(m: models.Note) -> dict[str, Any]:
    out: dict[str, Any] = {
        "text": m.text,
        "isPinned": m.is_pinned,
    }
    if m.author is not None:
        out["author"] = m.author
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


install_encoders(
    {
        models.Note: _encode_Note,
    }
)
