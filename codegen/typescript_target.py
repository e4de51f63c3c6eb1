"""TypeScript target (to be filled in): returns no files yet."""

from __future__ import annotations

from .idl import Idl

__all__ = ["render"]


def render(idl: Idl) -> dict[str, str]:
    return {}
