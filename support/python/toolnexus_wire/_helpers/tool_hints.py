# codegen: package; requires ToolHints
"""What the generated `ToolHints` constructor takes beyond the IDL."""

from __future__ import annotations

__all__ = ["INIT_DEFAULTS"]

#: Constructor defaults of fields the wire requires, read by the generator (a literal, so it
#: can be read without importing): MCP's defaults for a tool that says nothing (not read-only,
#: destructive, open world), the cautious reading, so `ToolHints(read_only=True)` declares one
#: hint and claims nothing it did not say. The wire is unchanged: all three are still written
#: and required, as upstream toolnexus writes them.
INIT_DEFAULTS = {"read_only": False, "destructive": True, "open_world": True}
