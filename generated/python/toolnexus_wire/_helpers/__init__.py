# Generated from idl/ (toolnexus schema 2.0.0, sha256 cfd34062a47609ded3f0701bdc21ca0be8782747599608d456ec81aabd42858e).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/__init__.py (hand-written, copied verbatim).
# codegen: copy
"""Hand-written helpers of the wire types, one module per type, each a base class of the
generated model it is named after (`tool_result.py` holds `ToolResultHelpers`)."""
