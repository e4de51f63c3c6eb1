# Generated from idl/ (toolnexus schema 3.0.0, sha256 011fab79f983d62ed4c2b40c1c810f86700cd1ab00d4d9306a3b3868775654d6).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
