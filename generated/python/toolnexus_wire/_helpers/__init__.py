# Generated from idl/ (toolnexus schema 2.1.0, sha256 7b98639ef0da02bbcc13a99738f4e4dcc074a3ae78375a1286f233ae3294f1b9).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
