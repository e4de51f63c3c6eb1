"""TypeScript target: the IDL-derived half of the npm package `toolnexus-contract`.

The package's root is its hand-written tree, `support/typescript/` (see `common`): there the
compiler, the tests and `npm pack` see both halves, the files this target writes to
`generated/typescript/` appearing as links. From the IDL, through the jinja2 templates in
`templates/typescript/`: the interfaces (`types.ts`), a parser and an emitter per type and
`extraKeys` (`codec.ts`), the public surface (`index.ts`), `package.json` and `README.md`.
Hand-written in `support/typescript/src/` (each marked `// codegen: package`, see
`common.support_files`): `WireError` (`errors.ts`), the lossless JSON reader and writer
(`json.ts`), the checks the codec is made of (`check.ts`), the suspension helpers (`suspend.ts`,
part of a package whose IDL has `Request` and `ToolResult`) and the content-part helpers
(`media.ts`: `text`, `fromBytes`, `fromPath`, `fromUrl`; with `ContentPart`). `index.ts` exports
from a hand-written module only when the IDL's package has it. The runtime (`runtime.ts`, the
entry point `toolnexus-contract/runtime`: tools, the loop's engine, the book, the seal and the
`Toolkit`, in `tool.ts`, `schema.ts`, `engine.ts`, `book.ts`, `seal.ts`, `toolkit.ts`) belongs to a
package whose IDL has the loop's types; package.json then exports `./runtime` and lists the
dependencies only it loads (`RUNTIME_DEPENDENCIES`, pinned exactly), which `index.ts` never
imports.

The interfaces are wire-shaped: a property is its wire key even where the IDL names the field
otherwise for the APIs (`x-name`, such as `ContentPart.type`, `kind` in Python and Rust); the
README says so. A field of any JSON value but `null` is a `JsonValue` (checked by `expectAny`),
and a string whose default is `""` is an optional property that the parser and the emitter both
leave out when it is empty. The package compiles with `tsc` alone (no `@types`), under `strict`
(`support/typescript/tsconfig.json`).

The package is ESM-only (`"type": "module"`, `exports` with `types`, `import` and `default`)
for Node.js >= 20.19, which loads it from `require()` too. Its version is the schema version
(`idl/manifest.json`). `npm pack` builds `dist/` first (the `prepack` script, with the pinned
`typescript` devDependency) and ships `dist/`, README.md, LICENSE and package.json. The
interfaces have no index signature, so a misspelled key in an object literal is a compile
error; unknown keys a peer sends are still kept on the parsed object and written back by the
emitter, untyped (`extraKeys(value, "Type")` reads them).
"""

from __future__ import annotations

import json
import re
import textwrap
from dataclasses import dataclass
from typing import Any

from . import loop_data
from .common import environment, header_lines, support_files
from .idl import Field, Idl, TypeRef, WireType

__all__ = [
    "NODE_VERSION",
    "PACKAGE_NAME",
    "RUNTIME_DEPENDENCIES",
    "STORE_PEERS",
    "TYPESCRIPT_VERSION",
    "render",
]

PACKAGE_NAME = "toolnexus-contract"
#: The oldest Node.js the package supports: the first 20.x that loads ES modules from `require()`.
NODE_VERSION = "20.19"
#: The compiler the package is checked with; tests/typescript/package.json pins the same.
TYPESCRIPT_VERSION = "5.9.3"
#: What the runtime (`toolnexus-contract/runtime`: tools, the loop, the seal) loads, pinned exactly;
#: only that entry point imports them. tests/typescript/package.json pins the same.
RUNTIME_DEPENDENCIES = {"ajv": "8.20.0", "canonicalize": "4.0.0"}
#: The SDKs whose types the provider adapters (`toolnexus-contract/adapters/<name>`) are written
#: in, by adapter: optional peer dependencies (types only; nothing loads them), from the version
#: tests/typescript/package.json pins exactly and tests against, within its major version.
ADAPTER_PEERS = {
    "anthropic": ("@anthropic-ai/sdk", "1.15.0"),
    "gemini": ("@google/genai", "3.3.0"),
    "mcp": ("@modelcontextprotocol/sdk", "1.32.2"),
    "openai": ("openai", "7.59.0"),
}
#: The frameworks the bridges (`toolnexus-contract/<name>`, `src/bridges/<name>.ts`) plug toolkits
#: into, by bridge: an optional peer dependency each (its range: the majors tested, each from the
#: version tests/typescript/package.json pins), and the version the package is built against.
BRIDGE_PEERS = {
    "ai-sdk": ("ai", "^6.0.326 || ^7.0.173", "7.0.173"),
    "openai-agents": ("@openai/agents", "^0.20.0", "0.20.0"),
}
#: What the durable stores (`toolnexus-contract/store`) load, by store: optional peer dependencies,
#: each loaded only when a store of that kind is opened, from the version
#: tests/typescript/package.json pins exactly and tests against, within its major version.
STORE_PEERS = {"sqlite": ("better-sqlite3", "12.9.0"), "postgres": ("pg", "8.23.1")}

_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def _js(value: Any) -> str:
    """A JavaScript literal for a JSON value (JSON is valid JavaScript since ES2019)."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _const_name(*parts: str) -> str:
    """`("ContentPart", "mimeType")` -> `CONTENT_PART_MIME_TYPE`."""
    return "_".join(re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", p).upper() for p in parts)


def _prop_name(name: str) -> str:
    return name if _IDENT.fullmatch(name) else _js(name)


def _path(name: str) -> str:
    """The path of a known key below `path`, as a TypeScript expression."""
    step = f".{name}" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else f"[{json.dumps(name)}]"
    return f"path + {_js(step)}"


def _doc(text: str, indent: str, extra: list[str] | None = None) -> str:
    """A TSDoc comment: `text` wrapped at 100 columns, then `extra` lines (tags)."""
    text = text.replace("*/", "*\\/").replace("@", "\\@")
    width = 100 - len(indent) - 3
    lines = textwrap.wrap(text, width=width, break_long_words=False, break_on_hyphens=False)
    if extra:
        lines += ["", *extra]
    if len(lines) == 1:
        return f"{indent}/** {lines[0]} */"
    body = "\n".join(f"{indent} *" + (f" {line}" if line else "") for line in lines)
    return f"{indent}/**\n{body}\n{indent} */"


def _ts_type(t: TypeRef) -> str:
    if t.kind == "string":
        return " | ".join(_js(v) for v in t.enum) if t.enum else "string"
    if t.kind == "boolean":
        return "boolean"
    if t.kind in ("integer", "number"):
        return "number | JsonNumber"
    if t.kind == "map":
        return "{ [key: string]: JsonValue }"
    if t.kind == "any":
        return "JsonValue"
    if t.kind == "ref":
        assert t.ref is not None
        return t.ref
    assert t.items is not None
    inner = _ts_type(t.items)
    union = t.items.kind in ("integer", "number") or (t.items.kind == "string" and t.items.enum)
    return f"({inner})[]" if union else f"{inner}[]"


def _refs(t: TypeRef) -> set[str]:
    """The wire types `t` names (itself a ref, or an array of them)."""
    if t.kind == "ref":
        assert t.ref is not None
        return {t.ref}
    return _refs(t.items) if t.items is not None else set()


def _filled(f: Field) -> bool:
    """Whether the parser always sets the optional field `f` (it has a default it reads absence as)."""
    return (
        not f.required and f.default is not None and not (f.emit == "if_nonempty" and f.type.kind == "string")
    )


def _parsed_types(idl: Idl) -> set[str]:
    """The types whose parsed form says more than the interface: a field the parser always sets
    (a default), or a field of such a type. Each gets a `Parsed<Type>` interface, which its
    parser returns."""
    parsed: set[str] = set()
    grew = True
    while grew:
        grew = False
        for t in idl.types:
            if t.name not in parsed and any(_filled(f) or _refs(f.type) & parsed for f in t.fields):
                parsed.add(t.name)
                grew = True
    return parsed


def _parsed_ts_type(t: TypeRef, parsed: set[str]) -> str:
    """`_ts_type` with each type in `parsed` as its `Parsed<Type>`."""
    if t.kind == "ref" and t.ref in parsed:
        return f"Parsed{t.ref}"
    if t.kind == "array" and t.items is not None and _refs(t.items) & parsed:
        return f"{_parsed_ts_type(t.items, parsed)}[]"
    return _ts_type(t)


@dataclass
class _Consts:
    """Module-level constants of a type's checks (enum value lists, string rules), in first-use order."""

    texts: dict[str, str]

    def add(self, name: str, text: str) -> str:
        assert self.texts.setdefault(name, text) == text, name
        return name


def _check(t: TypeRef, value: str, path: str, consts: _Consts, name: str, mode: str) -> str:
    """A TypeScript expression that checks `value` against `t` at `path`.

    `mode` is `parse` (refs give typed values) or `wire` (refs give their wire objects).
    `name` names the constant a constrained string needs.
    """
    if t.kind == "string":
        if t.enum:
            values = ", ".join(_js(v) for v in t.enum)
            return f"expectEnum({value}, {path}, {consts.add(name, f'const {name} = [{values}] as const;')})"
        rule = []
        if t.pattern is not None:
            rule.append(f"pattern: patternFor({json.dumps(t.pattern)})")
        if t.min_length is not None:
            rule.append(f"minLength: {t.min_length}")
        if rule:
            consts.add(name, f"const {name}: StringRule = {{ {', '.join(rule)} }};")
            return f"expectString({value}, {path}, {name})"
        return f"expectString({value}, {path})"
    if t.kind == "boolean":
        return f"expectBoolean({value}, {path})"
    if t.kind in ("integer", "number"):
        fn = "expectInteger" if t.kind == "integer" else "expectNumber"
        bounds = [
            f"{k}: {_js(b)}" for k, b in (("minimum", t.minimum), ("maximum", t.maximum)) if b is not None
        ]
        if bounds:
            consts.add(name, f"const {name}: NumberRule = {{ {', '.join(bounds)} }};")
            return f"{fn}({value}, {path}, {name})"
        return f"{fn}({value}, {path})"
    if t.kind == "map":
        return f"expectMap({value}, {path})"
    if t.kind == "any":
        return f"expectAny({value}, {path})"
    if t.kind == "ref":
        if mode == "parse":
            return f"parse{t.ref}({value}, {path})"
        return f"toWire{t.ref}({value} as {t.ref}, {path})"
    assert t.items is not None
    if mode == "parse" and t.items.kind == "ref":
        fn = f"parse{t.items.ref}"  # already (value: unknown, path: string) => T
    else:
        fn = f"(item, at) => {_check(t.items, 'item', 'at', consts, f'{name}_ITEM', mode)}"
    return f"expectArray({value}, {path}, {fn})"


@dataclass
class _FieldView:
    name: str
    prop: str
    doc: str
    ts_type: str
    optional: bool
    required: bool
    emit: str
    #: A string omitted when empty (`"default": ""`): absent from the parsed value when empty too.
    drop_empty: bool
    #: TypeScript literal of the default, or None.
    default: str | None
    #: The checked value for the parser and for the emitter (`need(...)` when required).
    parse_value: str
    wire_value: str


@dataclass
class _TypeView:
    name: str
    #: `a` or `an`, for the docs.
    article: str
    doc: str
    const: str
    open: bool
    keys: str
    fields: list[_FieldView]
    #: Constants the type's checks use (enum value lists, string rules).
    consts: list[str]
    #: Fields set in the parser's object literal (required or with a default).
    literal_fields: list[_FieldView]
    optional_fields: list[_FieldView]
    defaults: list[str]
    #: The calls of `carries` that check the type's requirements (the IDL's `allOf`).
    requires: list[str]
    #: What the parser returns: `Parsed<name>` when the type has one, else the name.
    parsed_name: str
    #: The properties `Parsed<name>` declares anew (`parts: ContentPart[];`), when it has one.
    parsed_props: list[str]


def _field_view(t: WireType, f: Field, consts: _Consts) -> _FieldView:
    value = f"src[{_js(f.wire_name)}]"
    if f.required:
        value = f"need(src, {_js(f.wire_name)}, path)"
    path = _path(f.wire_name)
    name = _const_name(t.name, f.wire_name)
    tags = []
    if f.default is not None:
        tags.append(f"@defaultValue `{json.dumps(f.default)}`")
    return _FieldView(
        name=f.wire_name,
        prop=_prop_name(f.wire_name),
        doc=_doc(f.description, "  ", tags),
        ts_type=_ts_type(f.type),
        optional=not f.required,
        required=f.required,
        emit=f.emit,
        drop_empty=f.emit == "if_nonempty" and f.type.kind == "string",
        default=_js(f.default) if f.default is not None else None,
        parse_value=_check(f.type, value, path, consts, name, "parse"),
        wire_value=_check(f.type, value, path, consts, name, "wire"),
    )


def _type_view(t: WireType, parsed: set[str]) -> _TypeView:
    const = _const_name(t.name)
    consts = _Consts({})
    fields = [_field_view(t, f, consts) for f in t.fields]
    defaults = [
        f"An empty `{f.name}` is read as absent (absent means empty)."
        if f.drop_empty
        else f"Absent `{f.name}` becomes `{f.default}`."
        for f in fields
        if f.default is not None
    ]
    return _TypeView(
        name=t.name,
        article="an" if t.name[0] in "AEIOU" else "a",
        doc=_doc(t.description, ""),
        const=const,
        open=t.open,
        keys=", ".join(_js(f.name) for f in fields),
        fields=fields,
        consts=list(consts.texts.values()),
        literal_fields=[f for f in fields if f.required or (f.default is not None and not f.drop_empty)],
        optional_fields=[f for f in fields if not f.required and (f.default is None or f.drop_empty)],
        defaults=defaults,
        requires=[
            f"carries(checked, path, {_js(r.when)}, {json.dumps(list(r.values))}, "
            f"{json.dumps(list(r.any_of))});"
            for r in t.requires
        ],
        parsed_name=f"Parsed{t.name}" if t.name in parsed else t.name,
        parsed_props=[
            f"{_prop_name(f.wire_name)}{'' if f.required or _filled(f) else '?'}: "
            f"{_parsed_ts_type(f.type, parsed)};"
            for f in t.fields
            if t.name in parsed and (_filled(f) or _refs(f.type) & parsed)
        ],
    )


def _package_json(
    idl: Idl,
    runtime: bool,
    adapters: list[str],
    engine: bool = False,
    bridges: list[str] | None = None,
    mcp: bool = False,
    store: bool = False,
) -> str:
    """The package's package.json; with `runtime` (the package has runtime.ts), the `./runtime` entry point
    and the dependencies only it loads; with `engine` (src/engine-entry.ts), the loop's engine for
    hosts, `./engine`; with `mcp` (src/mcp.ts, which needs the MCP adapter's SDK), the MCP bridge,
    `./mcp`; with `store` (src/store/index.ts), the durable stores, `./store`, and their drivers as
    optional peers; with `adapters` (the provider modules in src/adapters/ the
    package has), an entry point `./adapters/<name>` each, and its SDK as an optional peer; with
    `bridges` (the modules in src/bridges/ named in `BRIDGE_PEERS`), an entry point `./<name>`
    each, and its framework as an optional peer."""
    bridges = bridges or []
    clean = "node -e \"require('node:fs').rmSync('dist', {recursive: true, force: true})\""
    exports: dict[str, Any] = {
        ".": {"types": "./dist/index.d.ts", "import": "./dist/index.js", "default": "./dist/index.js"},
    }
    if runtime:
        exports["./runtime"] = {
            "types": "./dist/runtime.d.ts",
            "import": "./dist/runtime.js",
            "default": "./dist/runtime.js",
        }
    if engine:
        exports["./engine"] = {
            "types": "./dist/engine-entry.d.ts",
            "import": "./dist/engine-entry.js",
            "default": "./dist/engine-entry.js",
        }
    if mcp:
        exports["./mcp"] = {"types": "./dist/mcp.d.ts", "import": "./dist/mcp.js", "default": "./dist/mcp.js"}
    if store:
        exports["./store"] = {
            "types": "./dist/store/index.d.ts",
            "import": "./dist/store/index.js",
            "default": "./dist/store/index.js",
        }
    for name in adapters:
        exports[f"./adapters/{name}"] = {
            "types": f"./dist/adapters/{name}.d.ts",
            "import": f"./dist/adapters/{name}.js",
            "default": f"./dist/adapters/{name}.js",
        }
    for name in bridges:
        exports[f"./{name}"] = {
            "types": f"./dist/bridges/{name}.d.ts",
            "import": f"./dist/bridges/{name}.js",
            "default": f"./dist/bridges/{name}.js",
        }
    exports["./package.json"] = "./package.json"
    package: dict[str, Any] = {
        "//": " ".join(header_lines(idl)),
        "name": PACKAGE_NAME,
        "version": idl.version,
        "description": f"Wire types, parsers and emitters for {idl.name} schema {idl.version}.",
        "license": "MIT",
        "type": "module",
        "main": "./dist/index.js",
        "types": "./dist/index.d.ts",
        "exports": exports,
        "files": ["dist"],
        "sideEffects": False,
        "engines": {"node": f">={NODE_VERSION}"},
        "scripts": {
            "build": "tsc -p tsconfig.json",
            "clean": clean,
            "prepack": "npm run clean && npm run build",
            "typecheck": "tsc -p tsconfig.json --noEmit",
        },
    }
    if runtime:
        package["dependencies"] = dict(RUNTIME_DEPENDENCIES)
    stores = list(STORE_PEERS.values()) if store else []
    peers = sorted(
        [(sdk, f"^{version}") for sdk, version in [*(ADAPTER_PEERS[name] for name in adapters), *stores]]
        + [(sdk, ranges) for sdk, ranges, _ in (BRIDGE_PEERS[name] for name in bridges)]
    )
    if peers:
        package["peerDependencies"] = dict(peers)
        package["peerDependenciesMeta"] = {sdk: {"optional": True} for sdk, _ in peers}
    # The package's own build (`npm pack` from a checkout runs prepack's tsc) needs the adapters'
    # SDK types, which npm does not install for optional peers: they are dev dependencies too (and
    # the stores' drivers, which the build does not need, so that a checkout's tests have them).
    dev = dict(
        sorted(
            [ADAPTER_PEERS[name] for name in adapters]
            + stores
            + [(sdk, version) for sdk, _, version in (BRIDGE_PEERS[name] for name in bridges)]
        )
    )
    package["devDependencies"] = {**dev, "typescript": TYPESCRIPT_VERSION}
    return json.dumps(package, indent=2, ensure_ascii=False) + "\n"


#: What check.ts gives the codec; codec.ts imports the ones its code uses.
_CHECKS = (
    "carries",
    "expectAny",
    "expectArray",
    "expectBoolean",
    "expectEnum",
    "expectInteger",
    "expectMap",
    "expectNumber",
    "expectObject",
    "expectString",
    "has",
    "keepUnknown",
    "need",
    "NumberRule",
    "patternFor",
    "rejectUnknown",
    "StringRule",
    "unknownKeys",
)


def _uses(names: tuple[str, ...], text: str) -> list[str]:
    return sorted((n for n in names if re.search(rf"\b{n}\b", text)), key=str.lower)


def _codec_imports(types: list[_TypeView]) -> list[str]:
    code = ["expectObject", "unknownKeys"]
    for t in types:
        code += [*t.consts, "keepUnknown" if t.open else "rejectUnknown"]
        code += [v for f in t.fields for v in (f.parse_value, f.wire_value)]
        code += ["has" for f in t.fields if not f.required]
        code += t.requires
    return [f"type {n}" if n in ("StringRule", "NumberRule") else n for n in _uses(_CHECKS, " ".join(code))]


def render(idl: Idl) -> dict[str, str]:
    env = environment("typescript")
    parsed = _parsed_types(idl)
    types = [_type_view(t, parsed) for t in idl.types]
    support = support_files(idl, "typescript")
    ctx = {
        "header": "".join(f"// {line}\n" for line in header_lines(idl)).rstrip("\n"),
        "idl": idl,
        "package_name": PACKAGE_NAME,
        "node_version": NODE_VERSION,
        "md_header": "".join(f"<!-- {line} -->\n" for line in header_lines(idl)).rstrip("\n"),
        "types": types,
        # Every type's name, then each `Parsed<Type>`, for the imports and exports.
        "type_names": [t.name for t in types] + [t.parsed_name for t in types if t.parsed_name != t.name],
        "types_imports": _uses(
            ("JsonNumber", "JsonValue"), " ".join(f.ts_type for t in types for f in t.fields)
        ),
        "codec_imports": _codec_imports(types),
        # Fields whose API name (`x-name`) is not their wire key, which the interfaces keep.
        "api_names": [
            (t.name, f.wire_name, f.api_name)
            for t in idl.types
            for f in t.fields
            if f.api_name != f.wire_name
        ],
        # The hand-written modules of the package, by module name (`suspend`), for index.ts.
        "support": {rel.removeprefix("src/").removesuffix(".ts") for rel in support},
    }
    files = {
        "typescript/package.json": _package_json(
            idl,
            "src/runtime.ts" in support,
            sorted(name for name in ADAPTER_PEERS if f"src/adapters/{name}.ts" in support),
            "src/engine-entry.ts" in support,
            sorted(name for name in BRIDGE_PEERS if f"src/bridges/{name}.ts" in support),
            "src/mcp.ts" in support and "src/adapters/mcp.ts" in support,
            "src/store/index.ts" in support,
        ),
        "typescript/README.md": env.get_template("README.md.j2").render(**ctx),
    }
    for src in ("types.ts", "codec.ts", "index.ts"):
        files[f"typescript/src/{src}"] = env.get_template(f"{src}.j2").render(**ctx)
    if idl.loop is not None:
        files["typescript/src/loop.ts"] = loop_data.typescript_module(idl.loop, str(ctx["header"]))
    return files
