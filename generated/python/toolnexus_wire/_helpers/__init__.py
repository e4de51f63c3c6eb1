# Generated from idl/ (toolnexus schema 2.0.0, sha256 5ea9af94d3efd49e20ffb4d20164ad50e0fdb4353b7c45fb5a0cc2480e6baed6).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
