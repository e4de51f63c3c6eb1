# Generated from idl/ (toolnexus schema 2.1.0, sha256 ea2cc0613ce8cb1bef2565cc4a05c35d37a551c7722b86c2a8af2c22510d9b17).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/request.py (hand-written, copied verbatim).
# codegen: copy; requires Request
"""What the generated `Request` constructor takes beyond the IDL."""

from __future__ import annotations

__all__ = ["INIT_DEFAULTS"]

#: Constructor defaults of fields the wire requires, read by the generator (a literal, so
#: it can be read without importing): an empty id is replaced by `pending` with a fresh one.
INIT_DEFAULTS = {"id": ""}
