# Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
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


def _encode_Point(m: models.Point) -> dict[str, Any]:
    out: dict[str, Any] = {
        "x": m.x,
        "y": m.y,
        "label": m.label,
        "tags": list(m.tags),
        "visible": m.visible,
        "attrs": m.attrs,
    }
    return out


install_encoders(
    {
        models.Point: _encode_Point,
    }
)
