# Generated from idl/ (nest schema 2.0.0, sha256 9d9d9c3336abe30c1393e2927f3e7698f176b4ec0c3166ad1dd10ec4085a5ff4).
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
    if m.share is not None:
        out["share"] = m.share
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
