# Generated from idl/ (toolnexus schema 2.1.0, sha256 ea2cc0613ce8cb1bef2565cc4a05c35d37a551c7722b86c2a8af2c22510d9b17).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
