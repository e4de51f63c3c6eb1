# Generated from idl/ (toolnexus schema 1.0.0, sha256 fba634dffffaefd970e0f3dc7e5ba5788254ff546fd625fdd1bdb0d5e3a8b159).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
