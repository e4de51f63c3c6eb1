"""OpenAI's strict mode for tool schemas: the schema `@tool(strict=True)` writes, the check
`define_tool(..., strict=True)` makes, and the reading of a strict call's arguments.

OpenAI's strict mode (Structured Outputs, "Supported schemas") takes a subset of JSON Schema:

- the root is an object, not an `anyOf`;
- every object has `additionalProperties: false` and lists every property in `required`;
  an optional property is written as a union with `null`;
- the types are string, number, integer, boolean, object, array, enum and `anyOf`, with
  `$defs` and `$ref` (recursion too); a `$ref` stands alone;
- of the type-specific keywords, only these: `pattern` and `format` (date-time, time, date,
  duration, email, hostname, ipv4, ipv6, uuid) for strings; `multipleOf`, `minimum`,
  `maximum`, `exclusiveMinimum`, `exclusiveMaximum` for numbers; `minItems`, `maxItems` for
  arrays; composition (`allOf`, `not`, `if`/`then`/`else`, `dependentRequired`,
  `dependentSchemas`) and the rest of the object and array keywords are not supported, and
  neither is `default`;
- at most 5000 object properties in all, 10 levels of object nesting, and 1000 enum values.

`strict_schema` rewrites a schema pydantic inferred into that subset: constraints OpenAI
does not take (a length, `uniqueItems`, another `format`) leave the schema for the
description, and the tool's own check still enforces them; what would change the shape the
model may send (a free-form `dict`, a tuple, `not`) is an error naming the parameter.
`strict_problems` lists what keeps a given schema out of the subset. `drop_added_nulls`
reads a strict call's arguments: a `null` for a property that was optional (and does not
take `null` itself) means "not given", so the key is dropped and the default applies.
"""

from __future__ import annotations

import copy
from typing import Any

from ._errors import UsageError

__all__ = ["drop_added_nulls", "strict_problems", "strict_schema"]

_STRING_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
#: Keywords strict mode takes, besides the per-type ones checked below.
_ALLOWED = frozenset(
    {"type", "properties", "required", "additionalProperties", "items", "enum", "anyOf", "$ref", "$defs"}
    | {"description", "title", "$comment", "pattern", "format", "multipleOf", "minimum", "maximum"}
    | {"exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems", "$schema"}
)
#: Constraints strict mode does not take but that do not change the shape: moved to the description.
_CONSTRAINTS = frozenset(
    {"minLength", "maxLength", "uniqueItems", "minProperties", "maxProperties", "examples", "deprecated"}
    | {"readOnly", "writeOnly", "contentEncoding", "contentMediaType"}
)
_MAX_PROPERTIES = 5000
_MAX_DEPTH = 10
_MAX_ENUM_VALUES = 1000
_NULL = {"type": "null"}


class StrictSchemaError(UsageError):
    """A tool's schema that cannot be written in OpenAI's strict subset; `where` is its JSON
    path. A `UsageError` (the tool is defined wrong), raised when a strict schema is asked for;
    `define_tool(..., strict=True)` says the same with every problem listed."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


def _takes_null(node: Any) -> bool:
    if not isinstance(node, dict):
        return node is True
    kind = node.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    if node.get("const", ...) is None or None in (node.get("enum") or []):
        return True
    return any(_takes_null(branch) for branch in node.get("anyOf", []) if isinstance(branch, dict))


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    """`node` that also takes `null`: `"null"` added to a single `type` with no type-specific
    keywords beside it, else an `anyOf` of the node and `null` (its description outside)."""
    if _takes_null(node):
        return node
    if "anyOf" in node:
        return {**node, "anyOf": [*node["anyOf"], dict(_NULL)]}
    plain = {k: v for k, v in node.items() if k not in ("description", "title")}
    if isinstance(plain.get("type"), str) and plain.keys() == {"type"}:
        return {**node, "type": [node["type"], "null"]}
    outside: dict[str, Any] = {k: node[k] for k in ("description", "title") if k in node}
    return {"anyOf": [plain, dict(_NULL)], **outside}


def _note(node: dict[str, Any], moved: dict[str, Any]) -> dict[str, Any]:
    if not moved:
        return node
    words = ", ".join(f"{k} {v!r}" if not isinstance(v, bool) else k for k, v in moved.items())
    text = node.get("description", "")
    return {**node, "description": f"{text} ({words})" if text else f"({words})"}


class _Writer:
    """Rewrites one schema into the strict subset, raising `StrictSchemaError` where it cannot."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.defs: dict[str, Any] = root.get("$defs", {})
        self.properties = 0
        self.enum_values = 0

    def resolve(self, ref: str, where: str) -> dict[str, Any]:
        if not ref.startswith("#/$defs/") or ref[len("#/$defs/") :] not in self.defs:
            raise StrictSchemaError(where, f"a $ref strict mode cannot follow: {ref!r}")
        target: dict[str, Any] = self.defs[ref[len("#/$defs/") :]]
        return target

    def node(self, node: Any, where: str, depth: int) -> Any:
        if node is True or node == {}:
            raise StrictSchemaError(where, "any value is allowed here, which strict mode cannot express")
        if not isinstance(node, dict):
            raise StrictSchemaError(where, f"expected a schema object, got {node!r}")
        node = dict(node)
        node.pop("default", None)
        if "$ref" in node and node.keys() - {"$ref", "description", "title"}:
            raise StrictSchemaError(where, "a $ref with other keywords beside it")
        if "$ref" in node and len(node) > 1:  # a documented reference: the definition inlined
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            node = {**self.resolve(node["$ref"], where), **siblings}
        if "$ref" in node:
            self.resolve(node["$ref"], where)
            return node
        if "allOf" in node:
            parts = node.pop("allOf")
            if len(parts) != 1:
                raise StrictSchemaError(where, "allOf (an intersection) is not supported in strict mode")
            node = {**parts[0], **node}
            return self.node(node, where, depth)
        if "oneOf" in node:
            if "discriminator" not in node:
                raise StrictSchemaError(where, "oneOf is not supported in strict mode (a tagged union is)")
            node["anyOf"] = node.pop("oneOf")  # disjoint by their tag: anyOf accepts the same
        node.pop("discriminator", None)
        if "const" in node:
            node["enum"] = [node.pop("const")]
        if node.get("format") is not None and node["format"] not in _STRING_FORMATS:
            node = _note(node, {"format": node.pop("format")})
        node = _note(node, {k: node.pop(k) for k in sorted(node.keys() & _CONSTRAINTS)})
        unknown = sorted(node.keys() - _ALLOWED)
        if unknown:
            raise StrictSchemaError(where, f"{unknown[0]} is not supported in strict mode")
        if "enum" in node:
            self.enum_values += len(node["enum"])
        if "anyOf" in node:
            node["anyOf"] = [self.node(b, f"{where}.anyOf[{i}]", depth) for i, b in enumerate(node["anyOf"])]
        kinds = node.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if "object" in kinds or "properties" in node:
            node = self.object(node, where, depth + 1)
        if "array" in kinds or "items" in node:
            if "items" not in node:
                raise StrictSchemaError(where, "an array without `items` (any elements) is not supported")
            node["items"] = self.node(node["items"], f"{where}[*]", depth)
        return node

    def object(self, node: dict[str, Any], where: str, depth: int) -> dict[str, Any]:
        if depth > _MAX_DEPTH:
            raise StrictSchemaError(where, f"objects nest more than {_MAX_DEPTH} levels")
        properties = node.get("properties")
        extra = node.get("additionalProperties")
        if not properties and extra is not False:
            raise StrictSchemaError(where, "a free-form object (a dict) is not supported in strict mode")
        if isinstance(extra, dict):
            raise StrictSchemaError(where, "additionalProperties with a schema (a dict) is not supported")
        required = set(node.get("required", []))
        out: dict[str, Any] = {}
        for name, sub in (properties or {}).items():
            written = self.node(sub, f"{where}.{name}", depth)
            out[name] = written if name in required else _nullable(written)
        self.properties += len(out)
        return {**node, "properties": out, "required": list(out), "additionalProperties": False}

    def write(self, schema: dict[str, Any]) -> dict[str, Any]:
        if "anyOf" in schema or schema.get("type") != "object":
            raise StrictSchemaError("$", "the root must be an object, not a union or another type")
        out: dict[str, Any] = self.node(schema, "$", 0)
        if self.defs:
            out["$defs"] = {name: self.node(sub, f"$defs.{name}", 0) for name, sub in self.defs.items()}
        if self.properties > _MAX_PROPERTIES:
            raise StrictSchemaError("$", f"more than {_MAX_PROPERTIES} object properties in all")
        if self.enum_values > _MAX_ENUM_VALUES:
            raise StrictSchemaError("$", f"more than {_MAX_ENUM_VALUES} enum values in all")
        return out


def strict_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` in OpenAI's strict subset (a new dict); `StrictSchemaError` where it cannot be."""
    return _Writer(copy.deepcopy(schema)).write(copy.deepcopy(schema))


def strict_problems(schema: dict[str, Any]) -> list[str]:
    """What keeps `schema` out of OpenAI's strict subset, each with its JSON path; [] when none."""
    problems: list[str] = []
    defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}

    def walk(node: Any, where: str, depth: int) -> None:
        if not isinstance(node, dict):
            problems.append(f"{where}: expected a schema object")
            return
        for key in sorted(node.keys() - _ALLOWED):
            if key != "$defs":
                problems.append(f"{where}: {key} is not supported in strict mode")
        if "$ref" in node and node.keys() - {"$ref"}:
            problems.append(f"{where}: a $ref must stand alone")
        if node.get("format") is not None and node["format"] not in _STRING_FORMATS:
            problems.append(f"{where}: format {node['format']!r} is not supported in strict mode")
        for i, branch in enumerate(node.get("anyOf", [])):
            walk(branch, f"{where}.anyOf[{i}]", depth)
        kinds = node.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if "object" in kinds or "properties" in node:
            if depth + 1 > _MAX_DEPTH:
                problems.append(f"{where}: objects nest more than {_MAX_DEPTH} levels")
            if node.get("additionalProperties") is not False:
                problems.append(f"{where}: additionalProperties must be false")
            properties = node.get("properties") or {}
            missing = [name for name in properties if name not in node.get("required", [])]
            if missing:
                problems.append(f"{where}: every property must be required (not: {', '.join(missing)})")
            for name, sub in properties.items():
                walk(sub, f"{where}.{name}", depth + 1)
        if "items" in node:
            walk(node["items"], f"{where}[*]", depth)

    if not isinstance(schema, dict) or schema.get("type") != "object" or "anyOf" in schema:
        return ["$: the root must be an object, not a union or another type"]
    walk(schema, "$", 0)
    for name, sub in defs.items():
        walk(sub, f"$defs.{name}", 0)
    return problems


def drop_added_nulls(args: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """`args` of a strict call read against the tool's own (not strict) `schema`: a `null`
    for a property that is not required and does not take `null` is left out, so the
    default applies. Nested objects are read the same way, through `properties`, `items`,
    `$ref`, and unions (`anyOf`, `oneOf`) where one branch alone fits the value (by its keys,
    and by its tag in a tagged union)."""
    defs = schema.get("$defs", {})

    def leaves(node: Any, seen: int = 0) -> list[Any]:
        if seen > 32 or not isinstance(node, dict):  # a reference cycle of unions: give up
            return [node]
        if isinstance(node.get("$ref"), str):
            return leaves(defs.get(node["$ref"][len("#/$defs/") :]), seen + 1)
        branches = node.get("anyOf") or node.get("oneOf")
        if isinstance(branches, list):
            return [leaf for branch in branches for leaf in leaves(branch, seen + 1)]
        return [node]

    def fits(node: dict[str, Any], value: dict[str, Any]) -> bool:
        properties = node["properties"]
        if not value.keys() <= properties.keys() and node.get("additionalProperties") is False:
            return False
        for key, sub in properties.items():
            tag = sub.get("const", ...) if isinstance(sub, dict) else ...
            if isinstance(sub, dict) and isinstance(sub.get("enum"), list) and len(sub["enum"]) == 1:
                tag = sub["enum"][0]
            if tag is not ... and key in value and value[key] != tag:
                return False
        return True

    def read(value: Any, node: Any) -> Any:
        if isinstance(value, dict):
            found = [n for n in leaves(node) if isinstance(n, dict) and "properties" in n and fits(n, value)]
            if len(found) != 1:
                return value
            properties, required = found[0]["properties"], found[0].get("required", [])
            out = {}
            for key, item in value.items():
                sub = properties.get(key)
                if item is None and sub is not None and key not in required and not _takes_null_deep(sub):
                    continue
                out[key] = read(item, sub) if sub is not None else item
            return out
        if isinstance(value, list):
            arrays = [n for n in leaves(node) if isinstance(n, dict) and "items" in n]
            if len(arrays) == 1:
                return [read(item, arrays[0]["items"]) for item in value]
        return value

    def _takes_null_deep(node: Any) -> bool:
        return any(_takes_null(leaf) for leaf in leaves(node))

    out: dict[str, Any] = read(args, schema)
    return out
