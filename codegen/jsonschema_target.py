"""The bundled JSON Schema: every IDL type under `$defs` of one document, for other tools.

It is the IDL in a form that common validators and code generators take as it is (the
generators table in docs/generators.md is measured on it):

- Ajv's strict mode accepts it: no keyword of this project's own (`x-name` is left out: the
  API names are the generators' own business, and the field descriptions say it; the version
  is in the `$id` and the `$comment`), and a field of any JSON value but `null` is an `anyOf`
  of the five other types instead of a list of types (which strict mode refuses, and which
  cargo-typify cannot take as `{"not": {"type": "null"}}`).
- A root reaches every type: an object with one optional property per type, named after it,
  so a generator given the file alone emits every type once. No wire document is of the root
  type; validate one against `$defs/<Type>`.
- Every type has a versioned URI: the root's `$id` is `urn:<name>:schema:<version>`, and a
  type is that and its pointer (`urn:toolnexus:schema:3.0.0#/$defs/ToolResult`). Not a nested
  `$id` per type: json-schema-to-typescript and quicktype resolve one as a file or URL and
  fail, and it would change the base URI of the `#/$defs/...` references inside the type. Not
  an `$anchor`: Ajv's strict mode refuses it as an unknown keyword (its core vocabulary lacks
  it). Measured with each tool (docs/generators.md).
- A `$ref` stands alone (the field's `description` is dropped beside it): json-schema-to-
  typescript copies a reference with siblings into a second type (`ToolResult1`).
- A type's requirements (the IDL's `allOf` of `if`/`then`) are written under
  `dependentSchemas`, keyed by the required field they depend on:
  `{"dependentSchemas": {"type": {"allOf": [...]}}}`. The field is always there, so every
  validator applies them as written; code generators leave `dependentSchemas` alone, where
  a type-level `allOf` splits the type (json-schema-to-typescript's `ContentPart1`), `if`
  stops cargo-typify ("if/then/else schemas are not supported") and a `not` of the violations
  makes it an enum of no variant.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from .common import header_lines
from .idl import Idl

__all__ = ["published", "render"]


def _rewrite(node: Any) -> Any:
    if isinstance(node, list):
        return [_rewrite(v) for v in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return {"$ref": node["$ref"]}
    out = {}
    for key, value in node.items():
        if key == "x-name":
            continue
        if key == "type" and isinstance(value, list):
            out["anyOf"] = [{"type": kind} for kind in value]
            continue
        out[key] = _rewrite(value)
    return out


def _requirements(schema: dict[str, Any]) -> dict[str, Any]:
    items = schema.pop("allOf", None)
    if items:
        by_field: dict[str, list[Any]] = {}
        for item in items:
            [field] = item["if"]["properties"]
            by_field.setdefault(field, []).append(item)
        schema["dependentSchemas"] = {field: {"allOf": group} for field, group in by_field.items()}
    return schema


def published(idl: Idl) -> dict[str, Any]:
    """The bundle as other tools read it (see the module's docstring)."""
    base = idl.bundle()
    defs = {}
    for t in idl.types:
        schema = _requirements(_rewrite(copy.deepcopy(base["$defs"][t.name])))
        defs[t.name] = schema
    return {
        "$comment": " ".join(header_lines(idl)),
        "$schema": base["$schema"],
        "$id": idl.bundle_id,
        "title": base["title"],
        "description": (
            f"{base['description']} Schema version {idl.version}. The root holds one optional "
            "property per wire type, named after it, so that a code generator given this file "
            "emits every type; no document is of the root type: validate a document against "
            f"`{idl.bundle_id}#/$defs/<Type>`."
        ),
        "type": "object",
        "properties": {t.name: {"$ref": f"#/$defs/{t.name}"} for t in idl.types},
        "additionalProperties": False,
        "$defs": defs,
    }


def render(idl: Idl) -> dict[str, str]:
    text = json.dumps(published(idl), indent=2, ensure_ascii=False) + "\n"
    return {"jsonschema/toolnexus.schema.json": text}
