# Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/request.py (hand-written, copied verbatim).
# codegen: copy; requires Request
"""What the generated `Request` constructor takes beyond the IDL."""

from __future__ import annotations

__all__ = ["INIT_DEFAULTS"]

#: Constructor defaults of fields the wire requires, read by the generator (a literal, so
#: it can be read without importing): an empty id is replaced by `pending` with a fresh one.
INIT_DEFAULTS = {"id": ""}
