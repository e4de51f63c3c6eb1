"""Load `idl/` into one normalised model that every target renders from.

The IDL is a folder of JSON Schema (2020-12) files, one per wire type, plus
`manifest.json` (name, version, type order). Targets never read the files
themselves: they get an :class:`Idl`, so a rule about the wire (which fields
are omitted when empty, which keep a default) is decided here once.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "FIELD_KEYWORDS",
    "ITEM_KEYWORDS",
    "REFUSED",
    "TYPE_KEYWORDS",
    "Field",
    "Idl",
    "IdlError",
    "LoopData",
    "LoopText",
    "Requirement",
    "TypeRef",
    "WireType",
    "load",
    "load_loop_data",
    "snake_case",
]

_PRIMITIVES = {"string", "boolean", "integer", "number"}
#: The `type` list of a field that holds any JSON value but `null`.
_ANY = ["object", "array", "string", "number", "boolean"]

# The closed model of the schema: every keyword the generator carries to every target.
# Anything else is refused with the file, the JSON pointer and the keyword, never dropped.
# docs/idl.md is the table; a test pins these sets to it.
TYPE_KEYWORDS = frozenset(
    {"$schema", "title", "description", "type", "properties", "required", "additionalProperties", "allOf"}
)
FIELD_KEYWORDS = frozenset(
    {
        "description",
        "type",
        "$ref",
        "enum",
        "pattern",
        "minLength",
        "minimum",
        "maximum",
        "items",
        "default",
        "x-name",
    }
)
ITEM_KEYWORDS = frozenset(
    {"description", "type", "$ref", "enum", "pattern", "minLength", "minimum", "maximum", "items"}
)
#: Keywords a schema author may reach for that the generator deliberately does not model,
#: each with the reason given in the error.
REFUSED = {
    "maxLength": "no length limit is enforced by every language yet",
    "maxItems": "no array limit is enforced by every language yet",
    "minItems": "no array limit is enforced by every language yet",
    "uniqueItems": "no array uniqueness is enforced by every language",
    "exclusiveMinimum": "only inclusive bounds are modelled: use `minimum`",
    "exclusiveMaximum": "only inclusive bounds are modelled: use `maximum`",
    "multipleOf": "no step is enforced by every language",
    "const": "use a one-value `enum` of strings instead",
    "format": "formats are not checked alike by every language; use `pattern`",
    "oneOf": "unions have no common shape in the three languages; use optional fields",
    "anyOf": "unions have no common shape in the three languages; use optional fields",
    "allOf": "composition is not modelled; write the fields out (a type's own `allOf` of "
    "`if`/`then` requirements is, in the form docs/idl.md shows)",
    "not": "negation is not modelled",
    "if": "conditional schemas are not modelled",
    "nullable": "an absent optional field is omitted, never null",
    "patternProperties": 'a free-form object is `{"type": "object"}` without properties',
    "propertyNames": 'a free-form object is `{"type": "object"}` without properties',
    "$defs": "one wire type per file; `$ref` a sibling file",
}


class IdlError(Exception):
    """The IDL breaks one of the rules the generator relies on; the message names the file and key."""


@dataclass(frozen=True)
class TypeRef:
    """The type of a field.

    `kind` is one of `string`, `boolean`, `integer`, `number`, `map` (a free-form
    JSON object), `any` (any JSON value but `null`: `type` lists every other type), `ref`
    (another wire type, named in `ref`) or `array` (of `items`).
    """

    kind: str
    ref: str | None = None
    items: TypeRef | None = None
    enum: tuple[str, ...] | None = None
    pattern: str | None = None
    min_length: int | None = None
    #: Inclusive bounds of an `integer` or `number`, compared as IEEE doubles in every language.
    minimum: int | float | None = None
    maximum: int | float | None = None


@dataclass(frozen=True)
class Field:
    """One property of a wire type."""

    wire_name: str
    #: The field's name in Python (snake case of `api_name`).
    py_name: str
    description: str
    type: TypeRef
    required: bool
    #: The JSON default of an optional field (`false` for `isError`, `[]` for `parts`), or None.
    default: Any = None
    #: The field's name in the languages' APIs (camel case; `x-name`, else the wire name).
    api_name: str = ""

    @property
    def emit(self) -> str:
        """How the field is written: `always`, `if_present` (omitted when absent) or `if_nonempty`
        (an array, or a string whose default is `""`: omitted when empty, and absent reads as empty)."""
        if self.required:
            return "always"
        if self.type.kind == "array" or (self.type.kind == "string" and self.default == ""):
            return "if_nonempty"
        if self.default is not None:
            return "always"
        return "if_present"


@dataclass(frozen=True)
class Requirement:
    """A conditional requirement of a type (its `allOf` of `if`/`then`): when the enum field
    `when` holds one of `values`, at least one of the string fields `any_of` is present and
    not empty. An empty string is omitted from the wire and reads as absent, so "present"
    means "not empty" in every language. Wire names throughout."""

    when: str
    values: tuple[str, ...]
    any_of: tuple[str, ...]
    description: str

    def message(self, value: str) -> str:
        """The error every language gives, at the path of the object."""
        needs = " or ".join(f'"{name}"' for name in self.any_of)
        return f'a "{self.when}": "{value}" object carries nothing: it needs {needs}'


@dataclass(frozen=True)
class WireType:
    name: str
    description: str
    fields: tuple[Field, ...]
    #: True when unknown keys are allowed (and kept through a round trip).
    open: bool
    source: str
    sha256: str
    #: The type's conditional requirements, checked after its fields, in order.
    requires: tuple[Requirement, ...] = ()


@dataclass(frozen=True)
class Idl:
    name: str
    version: str
    description: str
    types: tuple[WireType, ...]
    #: sha256 over the manifest and every type file, in manifest order, then loop.json.
    sha256: str
    #: The schema files with cross-file `$ref`s rewritten to `#/$defs/<Type>`.
    schemas: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: The loop's data (`loop.json`, rendered by `codegen.loop_data`); None where an Idl is built by hand.
    loop: LoopData | None = None

    def type(self, name: str) -> WireType:
        for t in self.types:
            if t.name == name:
                return t
        raise KeyError(name)

    @property
    def bundle_id(self) -> str:
        """The versioned URI of the bundled schema: `urn:toolnexus:schema:3.0.0`."""
        return f"urn:{self.name}:schema:{self.version}"

    def type_id(self, name: str) -> str:
        """The versioned URI of a type in the bundle: `urn:toolnexus:schema:3.0.0#/$defs/ToolResult`."""
        return f"{self.bundle_id}#/$defs/{name}"

    def bundle(self) -> dict[str, Any]:
        """One JSON Schema document holding every type under `$defs`, as the IDL writes them
        (the generators' input; `jsonschema_target.published` is the form other tools read)."""
        return {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": self.bundle_id,
            "title": self.name,
            "description": self.description,
            "version": self.version,
            "$defs": {t.name: self.schemas[t.name] for t in self.types},
        }


def snake_case(name: str) -> str:
    """`mimeType` -> `mime_type`, `isError` -> `is_error`."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def _ref_name(ref: str, where: str) -> str:
    m = re.fullmatch(r"([A-Za-z][A-Za-z0-9]*)\.json", ref)
    if not m:
        raise IdlError(f"{where}: $ref {ref!r} must name a sibling file like 'ContentPart.json'")
    return m.group(1)


def _refuse_unknown(node: dict[str, Any], allowed: frozenset[str], file: str, pointer: str) -> None:
    """Refuse a keyword outside the closed model, naming the file, the JSON pointer and the keyword."""
    for key in node:
        if key not in allowed:
            why = REFUSED.get(key, "the generator does not model it")
            escaped = key.replace("~", "~0").replace("/", "~1")
            raise IdlError(
                f"{file}#{pointer}/{escaped}: unsupported keyword `{key}`: {why} (see docs/idl.md)"
            )


def _type_ref(
    prop: dict[str, Any], where: str, file: str = "", pointer: str = "", *, item: bool = False
) -> TypeRef:
    if not isinstance(prop, dict):
        raise IdlError(f"{file}#{pointer}: a field's schema must be an object")
    if prop.get("type") == "object" and "properties" in prop:
        raise IdlError(
            f"{where}: an inline object with properties has no name; "
            "give it a file of its own with a `title` and `$ref` it"
        )
    _refuse_unknown(prop, ITEM_KEYWORDS if item else FIELD_KEYWORDS, file, pointer)
    if isinstance(prop.get("type"), list):  # any JSON value but null, spelled out for the schema
        if sorted(prop["type"]) != sorted(_ANY) or len(prop["type"]) != len(_ANY):
            raise IdlError(
                f"{file}#{pointer}/type: a list of types must be exactly {json.dumps(_ANY)} "
                "(any JSON value but null); unions of some types are not modelled"
            )
        others = sorted(set(prop) - {"description", "x-name", "type"})
        if others:
            raise IdlError(f"{file}#{pointer}/{others[0]}: a field of any JSON value takes no other keyword")
        return TypeRef("any")
    if "$ref" in prop:
        extra = set(prop) - {"$ref", "description", "default", "x-name"}
        if extra:
            raise IdlError(
                f"{file}#{pointer}: `$ref` stands alone (with a `description`); found {sorted(extra)}"
            )
        return TypeRef("ref", ref=_ref_name(prop["$ref"], where))
    kind = prop.get("type")
    string_only = [k for k in ("enum", "pattern", "minLength") if k in prop]
    if string_only and kind != "string":
        raise IdlError(f"{file}#{pointer}/{string_only[0]}: `{string_only[0]}` applies to strings only")
    bounds = _bounds(prop, kind, file, pointer)
    if kind in _PRIMITIVES:
        enum = prop.get("enum")
        if enum is not None and (not enum or not all(isinstance(v, str) for v in enum)):
            raise IdlError(f"{where}: only string enums are supported")
        min_length = prop.get("minLength")
        if min_length is not None and (type(min_length) is not int or min_length < 0):
            raise IdlError(f"{file}#{pointer}/minLength: must be a non-negative integer")
        pattern = prop.get("pattern")
        if pattern is not None and not isinstance(pattern, str):
            raise IdlError(f"{file}#{pointer}/pattern: must be a string")
        return TypeRef(
            kind,
            enum=tuple(enum) if enum is not None else None,
            pattern=pattern,
            min_length=min_length,
            minimum=bounds[0],
            maximum=bounds[1],
        )
    if kind == "array":
        if "items" not in prop:
            raise IdlError(f"{where}: an array needs `items`")
        return TypeRef(
            "array",
            items=_type_ref(prop["items"], f"{where}.items", file, f"{pointer}/items", item=True),
        )
    if kind == "object":
        if "properties" in prop:
            raise IdlError(
                f"{where}: an inline object with properties has no name; "
                "give it a file of its own with a `title` and `$ref` it"
            )
        return TypeRef("map")
    raise IdlError(f"{where}: unsupported type {kind!r}")


def _bounds(
    prop: dict[str, Any], kind: Any, file: str, pointer: str
) -> tuple[int | float | None, int | float | None]:
    """The inclusive `minimum` and `maximum` of an `integer` or `number` field: finite JSON
    numbers (an integer within 2**53 for an `integer`, so every language holds it exactly),
    the minimum not above the maximum."""
    found: list[int | float | None] = []
    for key in ("minimum", "maximum"):
        value = prop.get(key)
        if value is not None:
            if kind not in ("integer", "number"):
                raise IdlError(f"{file}#{pointer}/{key}: `{key}` applies to integers and numbers only")
            if type(value) not in (int, float) or not math.isfinite(value):
                raise IdlError(f"{file}#{pointer}/{key}: must be a finite number")
            if kind == "integer" and (type(value) is not int or abs(value) > 2**53):
                raise IdlError(f"{file}#{pointer}/{key}: an integer's bound is an integer within 2**53")
        found.append(value)
    low, high = found
    if low is not None and high is not None and low > high:
        raise IdlError(f"{file}#{pointer}/minimum: {low} is above the maximum {high}")
    return low, high


def _rewrite_refs(node: Any) -> Any:
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str) and v.endswith(".json"):
                out[k] = "#/$defs/" + v[: -len(".json")]
            elif k == "$schema":
                continue
            else:
                out[k] = _rewrite_refs(v)
        return out
    if isinstance(node, list):
        return [_rewrite_refs(v) for v in node]
    return node


def _present(clause: Any, fields: dict[str, Field], where: str) -> str:
    """The field a `then` clause requires: `{"required": [f], "properties": {f: {"type": "string",
    "minLength": 1}}}` (the `type` for strict validators such as Ajv's)."""
    shape = 'a clause is {"required": ["f"], "properties": {"f": {"type": "string", "minLength": 1}}}'
    if not isinstance(clause, dict) or set(clause) != {"required", "properties"}:
        raise IdlError(f"{where}: {shape}")
    required, props = clause["required"], clause["properties"]
    if not (isinstance(required, list) and len(required) == 1 and isinstance(required[0], str)):
        raise IdlError(f"{where}/required: {shape}")
    name = required[0]
    if props != {name: {"type": "string", "minLength": 1}}:
        raise IdlError(f"{where}/properties: {shape}")
    f = fields.get(name)
    if f is None or f.required or f.type.kind != "string" or f.default != "":
        raise IdlError(
            f'{where}: {name!r} must be an optional string field whose default is "" '
            "(omitted when empty), so that present means not empty in every language"
        )
    return name


def _requirements(schema: dict[str, Any], fields: list[Field], where: str) -> tuple[Requirement, ...]:
    """A type's `allOf`: each item `{"description", "if": {"properties": {F: {"enum": [...]}}},
    "then": <clause> | {"anyOf": [<clause>, ...]}}`, F a required enum field. Nothing else."""
    items = schema.get("allOf")
    if items is None:
        return ()
    if not isinstance(items, list) or not items:
        raise IdlError(f"{where}#/allOf: a non-empty list of if/then requirements")
    by_name = {f.wire_name: f for f in fields}
    out = []
    for i, item in enumerate(items):
        at = f"{where}#/allOf/{i}"
        if not isinstance(item, dict) or set(item) != {"description", "if", "then"}:
            raise IdlError(f"{at}: a requirement has exactly `description`, `if` and `then`")
        cond = item["if"]
        if not (isinstance(cond, dict) and set(cond) == {"properties"} and len(cond["properties"]) == 1):
            raise IdlError(f'{at}/if: must be {{"properties": {{"<field>": {{"enum": [...]}}}}}}')
        [(when, test)] = cond["properties"].items()
        f = by_name.get(when)
        if f is None or not f.required or f.type.enum is None:
            raise IdlError(f"{at}/if/properties: {when!r} must be a required enum field of the type")
        values = test.get("enum") if isinstance(test, dict) and set(test) == {"enum"} else None
        if not values or not all(v in f.type.enum for v in values) or len(set(values)) != len(values):
            raise IdlError(f"{at}/if/properties/{when}: an `enum` of values of {when!r}")
        then = item["then"]
        if isinstance(then, dict) and set(then) == {"anyOf"}:
            if not isinstance(then["anyOf"], list) or len(then["anyOf"]) < 2:
                raise IdlError(f"{at}/then/anyOf: two clauses or more (one is written without anyOf)")
            names = [_present(c, by_name, f"{at}/then/anyOf/{j}") for j, c in enumerate(then["anyOf"])]
        else:
            names = [_present(then, by_name, f"{at}/then")]
        if not isinstance(item["description"], str) or not item["description"]:
            raise IdlError(f"{at}/description: say what the requirement is for")
        out.append(Requirement(when, tuple(values), tuple(names), item["description"]))
    return tuple(out)


def load(root: Path) -> Idl:
    """Read and check `root` (the `idl/` folder)."""
    manifest_path = root / "manifest.json"
    manifest_bytes = manifest_path.read_bytes()
    manifest = json.loads(manifest_bytes)
    digest = hashlib.sha256(manifest_bytes)
    types: list[WireType] = []
    schemas: dict[str, dict[str, Any]] = {}
    names = list(manifest["types"])
    for name in names:
        path = root / f"{name}.json"
        raw = path.read_bytes()
        digest.update(raw)
        schema = json.loads(raw)
        where = f"idl/{name}.json"
        _refuse_unknown(schema, TYPE_KEYWORDS, where, "")
        if not isinstance(schema.get("additionalProperties", True), bool):
            raise IdlError(f"{where}#/additionalProperties: must be true or false")
        if schema.get("title") != name:
            raise IdlError(f"{where}: `title` must be {name!r}")
        if schema.get("type") != "object":
            raise IdlError(f"{where}: a wire type is an object")
        if not schema.get("description"):
            raise IdlError(f"{where}: the type needs a `description`")
        required = set(schema.get("required", []))
        fields = []
        for wire_name, prop in schema.get("properties", {}).items():
            fwhere = f"{where} properties.{wire_name}"
            if not prop.get("description"):
                raise IdlError(f"{fwhere}: every field needs a `description`")
            escaped = wire_name.replace("~", "~0").replace("/", "~1")
            tref = _type_ref(prop, fwhere, where, f"/properties/{escaped}")
            if "default" in prop and wire_name in required:
                raise IdlError(f"{where}#/properties/{escaped}/default: a required field has no default")
            api_name = prop.get("x-name", wire_name)
            if "x-name" in prop and (
                not isinstance(api_name, str) or not re.fullmatch(r"[a-z][A-Za-z0-9]*", api_name)
            ):
                raise IdlError(
                    f"{where}#/properties/{escaped}/x-name: "
                    f"must be a camelCase name like `kind`, got {api_name!r}"
                )
            for ref in (tref.ref, tref.items.ref if tref.items else None):
                if ref is not None and ref not in names:
                    raise IdlError(f"{fwhere}: refers to {ref!r}, which the manifest does not list")
            fields.append(
                Field(
                    wire_name=wire_name,
                    py_name=snake_case(api_name),
                    api_name=api_name,
                    description=prop["description"],
                    type=tref,
                    required=wire_name in required,
                    default=prop.get("default"),
                )
            )
        unknown = required - {f.wire_name for f in fields}
        if unknown:
            raise IdlError(f"{where}: required names unknown properties {sorted(unknown)}")
        types.append(
            WireType(
                name=name,
                description=schema["description"],
                fields=tuple(fields),
                open=schema.get("additionalProperties", True) is not False,
                source=where,
                sha256=hashlib.sha256(raw).hexdigest(),
                requires=_requirements(schema, fields, where),
            )
        )
        schemas[name] = _rewrite_refs(schema)
    loop, loop_bytes = load_loop_data(root)
    if loop_bytes:
        digest.update(loop_bytes)
    return Idl(
        name=manifest["name"],
        version=manifest["version"],
        description=manifest["description"],
        types=tuple(types),
        sha256=digest.hexdigest(),
        schemas=schemas,
        loop=loop,
    )


# -- the loop's data: idl/loop.json (rendered by codegen.loop_data) -----------------------------

LOOP_FILE = "loop.json"
#: The depth an IDL without `loop.json` gets (the contract's, docs/limits.md).
DEFAULT_MAX_DEPTH = 100

_LIMIT = re.compile(r"[A-Z][A-Z0-9_]*")
_TEXT = re.compile(r"[a-z][a-z0-9_]*")
_PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")
#: Words a placeholder (a parameter in every language) cannot be: keywords of Python, TypeScript
#: and Rust that match `_PLACEHOLDER` (Rust's `ref` and `type` first among them).
_KEYWORDS = (
    "abstract as async await become box break case catch class const continue crate def del delete "
    "do dyn elif else enum export extends false final finally fn for from function global if impl "
    "import in instanceof is lambda let loop macro match mod move mut new nonlocal not null or "
    "override pass priv pub raise ref return self static struct super switch this throw trait true "
    "try type typeof union unsafe unsized use var virtual void where while with yield"
)
_RESERVED = frozenset(_KEYWORDS.split())
_EXTENSION = re.compile(r"\.[a-z0-9]+")
_MIME = re.compile(r"[a-z]+/[a-z0-9.+-]+")


@dataclass(frozen=True)
class LoopText:
    name: str
    description: str
    #: The text cut at its placeholders: literal pieces and (placeholder,) names, in order.
    pieces: tuple[str | tuple[str], ...]

    @property
    def params(self) -> list[str]:
        seen: list[str] = []
        for piece in self.pieces:
            if isinstance(piece, tuple) and piece[0] not in seen:
                seen.append(piece[0])
        return seen


@dataclass(frozen=True)
class LoopData:
    limits: tuple[tuple[str, int, str], ...]
    resume_reasons: tuple[tuple[str, str], ...]
    texts: tuple[LoopText, ...]
    extensions: tuple[tuple[str, str], ...]


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value or any(ord(c) < 0x20 for c in value):
        raise IdlError(f"{where}: a non-empty string without control characters is expected")
    return value


def load_loop_data(root: Path) -> tuple[LoopData, bytes]:
    """The loop's data of the IDL at `root`, and the file's bytes (for the IDL's digest; empty
    when the IDL has no `loop.json`)."""
    path = root / LOOP_FILE
    if not path.exists():
        return LoopData(
            ((("MAX_DEPTH", DEFAULT_MAX_DEPTH, "How deep a document may nest."),)), (), (), ()
        ), b""
    raw = path.read_bytes()
    data = json.loads(raw)
    where = f"idl/{LOOP_FILE}"
    unknown = set(data) - {"$comment", "limits", "resumeReasons", "texts", "extensions"}
    if unknown:
        raise IdlError(f"{where}: unknown keys {sorted(unknown)}")
    limits = []
    for name, spec in data.get("limits", {}).items():
        at = f"{where}#/limits/{name}"
        value = spec.get("value") if isinstance(spec, dict) else None
        if not _LIMIT.fullmatch(name) or not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise IdlError(f"{at}: a SCREAMING_SNAKE name with a non-negative integer `value` is expected")
        limits.append((name, value, _str(spec.get("description"), f"{at}/description")))
    if "MAX_DEPTH" not in {n for n, _, _ in limits}:
        raise IdlError(f"{where}#/limits: MAX_DEPTH is required (the wire's readers need it)")
    reasons = []
    for i, spec in enumerate(data.get("resumeReasons", [])):
        at = f"{where}#/resumeReasons/{i}"
        name = _str(spec.get("name"), f"{at}/name")
        if not _TEXT.fullmatch(name):
            raise IdlError(f"{at}/name: a snake_case name is expected, got {name!r}")
        reasons.append((name, _str(spec.get("description"), f"{at}/description")))
    texts = []
    for name, spec in data.get("texts", {}).items():
        at = f"{where}#/texts/{name}"
        if not _TEXT.fullmatch(name):
            raise IdlError(f"{at}: a snake_case name is expected")
        text = _str(spec.get("text"), f"{at}/text")
        if re.sub(_PLACEHOLDER, "", text).count("{") or re.sub(_PLACEHOLDER, "", text).count("}"):
            raise IdlError(f"{at}/text: a brace that is not a placeholder such as {{prompt}}")
        pieces: list[str | tuple[str]] = []
        at_char = 0
        for m in _PLACEHOLDER.finditer(text):
            if m.group(1) in _RESERVED:
                word = m.group(1)
                raise IdlError(f"{at}/text: {{{word}}} is a keyword in a target language; name it otherwise")
            if m.start() > at_char:
                pieces.append(text[at_char : m.start()])
            pieces.append((m.group(1),))
            at_char = m.end()
        if at_char < len(text):
            pieces.append(text[at_char:])
        texts.append(LoopText(name, _str(spec.get("description"), f"{at}/description"), tuple(pieces)))
    extensions = []
    for ext, mime in data.get("extensions", {}).items():
        if not _EXTENSION.fullmatch(ext) or not isinstance(mime, str) or not _MIME.fullmatch(mime):
            raise IdlError(f"{where}#/extensions/{ext}: a lower-case `.ext` and a MIME type are expected")
        extensions.append((ext, mime))
    return LoopData(tuple(limits), tuple(reasons), tuple(texts), tuple(extensions)), raw
