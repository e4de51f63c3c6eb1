# Generated from idl/ (nest schema 2.0.0, sha256 97126eb81160e4cbc9fbb0e6ef8c8b197963ea825c0f6c9aadd45fd2706b192f).
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


def _encode_Item(m: models.Item) -> dict[str, Any]:
    out: dict[str, Any] = {
        "code": m.code,
        "size": m.size,
    }
    if m.count is not None:
        out["count"] = m.count
    if m.weight is not None:
        out["weight"] = m.weight
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


def _encode_Box(m: models.Box) -> dict[str, Any]:
    out: dict[str, Any] = {
        "main": _encode_Item(m.main),
        "tags": list(m.tags),
    }
    if m.items:
        out["items"] = [_encode_Item(v0) for v0 in m.items]
    if m.labels is not None:
        out["labels"] = m.labels
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


install_encoders(
    {
        models.Item: _encode_Item,
        models.Box: _encode_Box,
    }
)
