# Generated from idl/ (toolnexus schema 2.0.0, sha256 64b2bf99b7f52f6c0516327c5c9599520068dedb52bbc115361e8f68b793124b).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
