# Generated from idl/ (toolnexus schema 1.0.0, sha256 d106c0605c0b7741ba15055557e7193c5afe8392ed0e5add12ef0e6abed99f3f).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
