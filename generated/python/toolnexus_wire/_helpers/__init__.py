# Generated from idl/ (toolnexus schema 2.1.0, sha256 db64425673cd82c556d605dbe7d548eed4db91c24ce2e1942f11a5f5644e7f8f).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
