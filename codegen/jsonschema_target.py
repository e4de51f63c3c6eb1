"""The bundled JSON Schema: every IDL type under `$defs` of one document."""

from __future__ import annotations

import json

from .common import header_lines
from .idl import Idl

__all__ = ["render"]


def render(idl: Idl) -> dict[str, str]:
    bundle = {"$comment": " ".join(header_lines(idl)), **idl.bundle()}
    return {"jsonschema/toolnexus.schema.json": json.dumps(bundle, indent=2, ensure_ascii=False) + "\n"}
