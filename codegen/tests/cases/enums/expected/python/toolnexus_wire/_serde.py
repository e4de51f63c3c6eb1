# Generated from idl/ (enums schema 1.2.0, sha256 1b3351d4174578732efb74c03e93d6509b883db9b5a81ef4d561b8dcdffd2475).
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


def _encode_Light(m: models.Light) -> dict[str, Any]:
    out: dict[str, Any] = {
        "color": m.color,
    }
    if m.mode is not None:
        out["mode"] = m.mode
    if m.cycle:
        out["cycle"] = list(m.cycle)
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


install_encoders(
    {
        models.Light: _encode_Light,
    }
)
