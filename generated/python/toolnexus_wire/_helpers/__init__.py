# Generated from idl/ (toolnexus schema 3.0.0, sha256 ccafb618d72bb3caa1fc6e840683bc88febc076acf285324edc2fd217fb426b9).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
