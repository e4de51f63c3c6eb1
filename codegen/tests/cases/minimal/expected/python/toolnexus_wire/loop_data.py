# Generated from idl/ (mini schema 0.1.0, sha256 48fd3a01ee3a8aeff58393457f1c5b3755201e6590414d3b8acb17333de67558).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
"""The loop's data, from idl/loop.json (see codegen/loop_data.py)."""

from __future__ import annotations

from typing import Final, Literal

__all__ = ["MAX_DEPTH"]

#: How deep a document may nest.
MAX_DEPTH: Final = 100
