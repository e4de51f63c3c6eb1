# Generated from idl/ (toolnexus schema 1.0.0, sha256 d106c0605c0b7741ba15055557e7193c5afe8392ed0e5add12ef0e6abed99f3f).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/request.py (hand-written, copied verbatim).
# codegen: copy; requires Request
"""What the generated `Request` constructor takes beyond the IDL."""

from __future__ import annotations

__all__ = ["INIT_DEFAULTS"]

#: Constructor defaults of fields the wire requires, read by the generator (a literal, so
#: it can be read without importing): an empty id is replaced by `pending` with a fresh one.
INIT_DEFAULTS = {"id": ""}
