# Generated from idl/ (toolnexus schema 3.0.0, sha256 54584dee08a58a2be6d32a1e6c6f432150db78ee303618745d243724b42ff19e).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
