# Generated from idl/ (toolnexus schema 2.1.0, sha256 db64425673cd82c556d605dbe7d548eed4db91c24ce2e1942f11a5f5644e7f8f).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/request.py (hand-written, copied verbatim).
# codegen: copy; requires Request
"""What the generated `Request` constructor takes beyond the IDL."""

from __future__ import annotations

__all__ = ["INIT_DEFAULTS"]

#: Constructor defaults of fields the wire requires, read by the generator (a literal, so
#: it can be read without importing): an empty id is replaced by `pending` with a fresh one.
INIT_DEFAULTS = {"id": ""}
