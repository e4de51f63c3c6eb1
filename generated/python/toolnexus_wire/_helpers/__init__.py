# Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
