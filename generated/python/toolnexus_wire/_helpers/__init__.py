# Generated from idl/ (toolnexus schema 3.0.0, sha256 bd25c6e511ef604fe9e24376587b09d1f1fba0d4dc038e17a84187a9cfeb8ee8).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
