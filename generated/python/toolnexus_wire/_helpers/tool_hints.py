# Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/tool_hints.py (hand-written, copied verbatim).
# codegen: copy; requires ToolHints
"""What the generated `ToolHints` constructor takes beyond the IDL."""

from __future__ import annotations

__all__ = ["INIT_DEFAULTS"]

#: Constructor defaults of fields the wire requires, read by the generator (a literal, so it
#: can be read without importing): MCP's defaults for a tool that says nothing (not read-only,
#: destructive, open world), the cautious reading, so `ToolHints(read_only=True)` declares one
#: hint and claims nothing it did not say. The wire is unchanged: all three are still written
#: and required, as upstream toolnexus writes them.
INIT_DEFAULTS = {"read_only": False, "destructive": True, "open_world": True}
