# Generated from idl/ (toolnexus schema 1.0.0, sha256 8ac1f99c23bfce603cb079a85f872167e40493e6bb42e9a241b9ef0d7559ee40).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
