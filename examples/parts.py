"""Spec example 4: non-text output, `parts` alongside `output`."""

import os
from pathlib import Path

from toolnexus import ContentPart, ToolResult

# TOOLNEXUS_REPO is set by the test runner; in your own code just use a path.
png = Path(os.environ["TOOLNEXUS_REPO"]) / "examples/media/fixture.png"
r = ToolResult.ok("fixture.png (image/png)")
r.parts.append(ContentPart.from_path(png))

assert r.parts[0].kind == "image"
assert r.parts[0].mime_type == "image/png"
assert r.parts[0].data
wire = r.to_wire()
assert wire["parts"][0]["mimeType"] == "image/png"
print(f"ok: {r.output} + {len(r.parts)} part(s)")
