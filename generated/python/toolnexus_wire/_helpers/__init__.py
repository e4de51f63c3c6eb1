# Generated from idl/ (toolnexus schema 3.0.0, sha256 3c14617c880ef8ed75c50a48b9016e74430164e8beb66e9b1ad41e9982ac54b3).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
