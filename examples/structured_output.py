"""Spec example 2: structured output and metadata.

`output` is the text the model reads, so structured data goes in as JSON text.
`metadata` is for the host only: it is never sent to the model.
"""

import json

from toolnexus import ToolResult

rows = [{"id": 1, "name": "ada"}, {"id": 2, "name": "linus"}]
r = ToolResult.ok(json.dumps(rows)).with_metadata({"rowCount": 2, "elapsedMs": 12})

parsed = json.loads(r.output)
assert parsed[1]["name"] == "linus"
assert r.metadata is not None and r.metadata["rowCount"] == 2

# The wire shape: camelCase isError, parts omitted when empty.
wire = r.to_wire()
assert wire["isError"] is False
assert "parts" not in wire
print(f"ok: {len(parsed)} rows, wire keys {list(wire)}")
