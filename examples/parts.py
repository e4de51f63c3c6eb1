"""Spec example 4: non-text output, `parts` alongside `output`."""

import os
from pathlib import Path

from toolnexus import ContentPart, ToolResult

# The specification's example reads the checkout from TOOLNEXUS_REPO; without it, the
# checkout this file sits in. In your own code just use a path.
repo = os.environ.get("TOOLNEXUS_REPO") or Path(__file__).resolve().parent.parent
png = Path(repo) / "examples/media/fixture.png"
r = ToolResult.ok("fixture.png (image/png)")
r.parts.append(ContentPart.from_path(png))

assert r.parts[0].kind == "image"
assert r.parts[0].mime_type == "image/png"
assert r.parts[0].data
wire = r.to_wire()
assert wire["parts"][0]["mimeType"] == "image/png"
print(f"ok: {r.output} + {len(r.parts)} part(s)")
