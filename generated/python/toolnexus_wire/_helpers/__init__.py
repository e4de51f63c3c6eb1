# Generated from idl/ (toolnexus schema 2.0.0, sha256 461a9de12d0e88502ec770c4cc9f8ca6758166a502c211ad64e864efce9b199f).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
