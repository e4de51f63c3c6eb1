# Generated from idl/ (toolnexus schema 3.0.0, sha256 f7989955f48390800b493e051aad67c8ab8756843d3aac565548f6cbf13145cc).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
