# Generated from idl/ (toolnexus schema 3.0.0, sha256 543d6977a0c2ed3d1f08c44923318262a4818e52856e1f4a1a432a227675f507).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
