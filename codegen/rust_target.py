"""Rust target: the crate `toolnexus` in `generated/rust/`.

What derives from the IDL is rendered from the jinja2 templates in `templates/rust/`:
the wire types (`src/types.rs`), `src/lib.rs` (its `mod` and `pub use` lines name only
the modules copied for this IDL), `Cargo.toml` (the dependencies those modules need,
and a libtest-free `[[test]]` for each copied test with its own `fn main`),
`rustfmt.toml`, and `.cargo/config.toml` when a copied test reads `TOOLNEXUS_REPO`.

The runtime helpers and the crate's tests are hand-written Rust in `support/rust/`
(`src/wire.rs`, `src/result.rs`, `src/suspend.rs`, `src/media.rs`, `tests/*.rs`),
compiled, linted and tested there against the generated types by
`bash tests/rust/run.sh lint`. Each is copied behind the header when the IDL has the
types its `// codegen: copy; requires ...` line names (`common.support_files`), so a
small IDL gets `wire.rs` alone.

Structs serialize through serde's derive; parsing is generated code that walks a
`serde_json::Value` field by field, so it accepts exactly what the schema accepts
(types, enums, `minLength`, `pattern`, no `null` for an absent optional, no unknown key
in a closed type) and names the JSON path of what it rejects.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .common import environment, header_lines, support_files
from .idl import Field, Idl, IdlError, TypeRef, WireType

__all__ = ["CRATE", "DEPENDENCIES", "render"]

CRATE = "rust"

# Exact pins, so two machines build the same crate, each with the support module that
# needs it (None: every crate). serde_json's features: `preserve_order` keeps metadata
# keys in insertion order, `arbitrary_precision` keeps numbers as written (a big
# integer survives byte for byte). support/rust/Cargo.toml repeats them.
DEPENDENCIES: tuple[tuple[str, str, str | None], ...] = (
    ("base64", '"=0.23.1"', "src/media.rs"),
    ("getrandom", '"=0.4.3"', "src/suspend.rs"),
    # ecma_to_rust_regex spells every class out in ASCII ranges, so the Unicode
    # tables and the literal optimisations are left out to keep the build small.
    (
        "regex",
        '{ version = "=1.13.2", default-features = false, features = '
        '["std", "perf-cache", "perf-dfa", "perf-onepass", "perf-backtrack"] }',
        None,
    ),
    ("serde", '{ version = "=1.0.229", features = ["derive"] }', None),
    ("serde_json", '{ version = "=1.0.154", features = ["preserve_order", "arbitrary_precision"] }', None),
)

# Rust keywords: a field with one of these names becomes a raw identifier (`r#type`).
_KEYWORD_LIST = (
    "as async await break const continue crate dyn else enum extern false fn for if impl in let loop "
    "match mod move mut pub ref return self static struct super trait true type unsafe use where "
    "while abstract become box do final macro override priv try typeof unsized virtual yield"
)
_KEYWORDS = frozenset(_KEYWORD_LIST.split())
# ECMA-262 (JSON Schema's regex dialect) classes that Rust's regex spells differently:
# there `\d` and `\w` are ASCII, `\s` is this set, `.` stops at these line terminators.
_ECMA_SPACE = (
    "\\t\\n\\x0B\\x0C\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}"
    "\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}"
)
_ECMA_CLASSES = {"d": "0-9", "w": "0-9A-Za-z_", "s": _ECMA_SPACE}
_ECMA_DOT = "[^\\n\\r\\x{2028}\\x{2029}]"
_EXTRA = "extra"
# Names the generated parser uses itself; a field with one of them gets a `_` suffix locally.
_PARSER_LOCALS = frozenset({"at", "value", "key", "extra", "wire"})


def _pascal(text: str) -> str:
    words = re.findall(r"[A-Za-z][a-z0-9]*|[0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text))
    name = "".join(w[:1].upper() + w[1:].lower() for w in words)
    if not name or not name[0].isalpha():
        name = "V" + name
    return name


def _screaming(text: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", text).upper()


def _ident(name: str) -> str:
    return f"r#{name}" if name in _KEYWORDS else name


def ecma_to_rust_regex(pattern: str) -> str:
    """`pattern` (ECMA-262, as JSON Schema reads it) in Rust's regex syntax, meaning the same.

    `.`, `\\d`, `\\w`, `\\s` and their negations are spelled out as ECMA-262 defines
    them (Rust's are Unicode-aware, or differ on line terminators); everything else
    is the same in both. Constructs Rust's regex lacks or reads differently raise
    ValueError: back-references, lookaround, `\\b`, `\\p`, `\\c`, a negated class
    escape inside `[...]`.
    """
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            if i + 1 >= len(pattern):
                raise ValueError("ends with a lone backslash")
            nxt = pattern[i + 1]
            i += 2
            if nxt.lower() in _ECMA_CLASSES:
                chars = _ECMA_CLASSES[nxt.lower()]
                if in_class and nxt.isupper():
                    raise ValueError(f"\\{nxt} inside [...] has no Rust spelling; list the characters")
                out.append(chars if in_class else (f"[^{chars}]" if nxt.isupper() else f"[{chars}]"))
            elif nxt in "bBpPkc" or (nxt.isdigit() and nxt != "0"):
                raise ValueError(f"\\{nxt} means something else (or nothing) in Rust's regex")
            else:
                out.append("\\" + nxt)
            continue
        if in_class:
            if ch == "]":
                in_class = False
            elif ch in "[&~":
                out.append("\\" + ch)  # literal in ECMA-262; a nested class or set operator in Rust
                i += 1
                continue
        elif ch == "[":
            in_class = True
            out.append(ch)
            i += 1
            if pattern.startswith("^", i):
                out.append("^")
                i += 1
            if pattern.startswith("]", i):
                raise ValueError("an empty class [] or [^] has no Rust spelling")
            continue
        elif ch == ".":
            out.append(_ECMA_DOT)
            i += 1
            continue
        elif ch == "(" and pattern.startswith(("(?=", "(?!", "(?<=", "(?<!"), i):
            raise ValueError("lookaround is not supported by Rust's regex")
        out.append(ch)
        i += 1
    return "".join(out)


def rust_str(text: str) -> str:
    """A Rust string literal holding `text`."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{{{ord(ch):x}}}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def doc_lines(text: str, indent: str, width: int = 96) -> list[str]:
    """`///` lines for `text`, wrapped at `width` columns (a word longer than that stays whole)."""
    out: list[str] = []
    for para in text.split("\n"):
        words = para.split()
        line = ""
        for word in words:
            if line and len(indent) + 4 + len(line) + 1 + len(word) > width:
                out.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        out.append(line)
    return [f"{indent}///" + (f" {line}" if line else "") for line in out]


@dataclass(frozen=True)
class RustEnum:
    """A string enum of the IDL, as a Rust enum."""

    name: str
    description: str
    values: tuple[tuple[str, str], ...]  # (wire value, variant)

    @property
    def all_items(self) -> str:
        return ", ".join(f"Self::{v}" for _, v in self.values)


@dataclass(frozen=True)
class RustStringRule:
    """The `minLength`/`pattern` checks of one string field, as a `static` StringRule."""

    static: str
    min_length: int
    pattern: str | None  # as the schema writes it (quoted in errors)
    regex: str | None  # the same pattern in Rust's regex syntax


@dataclass(frozen=True)
class RustField:
    ident: str
    wire_name: str
    description: str
    rust_type: str  # as declared on the struct (with Option<> when optional)
    serde_attrs: tuple[str, ...]
    parse: str  # an expression of type Result<T, WireError> over `value` and `at`
    local: str  # the parser's variable for the field (an Option)
    finish: str  # what turns `local` into the field's value ("" for an Option field)


@dataclass(frozen=True)
class RustStruct:
    name: str
    description: str
    open: bool
    default: bool
    fields: tuple[RustField, ...]


class _Builder:
    def __init__(self, idl: Idl) -> None:
        self.idl = idl
        self.enums: list[RustEnum] = []
        self.rules: list[RustStringRule] = []
        self._check_acyclic()
        self.defaultable = self._defaultable()

    # -- checks ---------------------------------------------------------------

    def _check_acyclic(self) -> None:
        """A struct holding itself (not through a Vec) would need a Box; the IDL has none, so refuse it."""
        edges = {t.name: [f.type.ref for f in t.fields if f.type.kind == "ref"] for t in self.idl.types}

        def visit(name: str, trail: tuple[str, ...]) -> None:
            if name in trail:
                cycle = " -> ".join((*trail[trail.index(name) :], name))
                raise IdlError(f"rust target: recursive types are not supported ({cycle})")
            for ref in edges[name]:
                assert ref is not None
                visit(ref, (*trail, name))

        for t in self.idl.types:
            visit(t.name, ())

    def _defaultable(self) -> set[str]:
        """Types that can derive `Default`: every required field has an empty value and
        every schema default is the type's zero (so the derived value is a valid default)."""
        zero = {"boolean": False, "string": "", "array": []}
        ok: set[str] = set()
        changed = True
        while changed:
            changed = False
            for t in self.idl.types:
                if t.name in ok:
                    continue
                good = True
                for f in t.fields:
                    if f.default is not None and (f.type.kind not in zero or f.default != zero[f.type.kind]):
                        good = False
                    if f.required and not self._zeroable(f.type, ok):
                        good = False
                if good:
                    ok.add(t.name)
                    changed = True
        return ok

    @staticmethod
    def _zeroable(t: TypeRef, ok: set[str]) -> bool:
        if t.kind == "string":
            return t.enum is None
        if t.kind == "ref":
            return t.ref in ok
        return t.kind in ("boolean", "array", "map")  # serde_json::Number has no Default

    # -- types ----------------------------------------------------------------

    def _enum(self, owner: WireType, field: Field, t: TypeRef, suffix: str) -> str:
        assert t.enum is not None
        name = owner.name + _pascal(field.wire_name) + suffix
        variants = tuple((v, _pascal(v)) for v in t.enum)
        if len({v for _, v in variants}) != len(variants):
            raise IdlError(f"{owner.source} {field.wire_name}: enum values collide as Rust variants")
        if t.pattern is not None or t.min_length is not None:
            raise IdlError(
                f"{owner.source} {field.wire_name}: an enum with pattern/minLength is not supported"
            )
        self.enums.append(RustEnum(name, field.description, variants))
        return name

    def _rule(self, owner: WireType, field: Field, t: TypeRef, suffix: str) -> str:
        regex = None
        if t.pattern is not None:
            try:
                regex = ecma_to_rust_regex(t.pattern)
            except ValueError as exc:
                raise IdlError(f"{owner.source} {field.wire_name}: pattern {t.pattern!r}: {exc}") from None
        static = "_".join(_screaming(part) for part in (owner.name, field.wire_name, suffix) if part)
        self.rules.append(RustStringRule(static, t.min_length or 0, t.pattern, regex))
        return static

    def _rust_type(self, owner: WireType, field: Field, t: TypeRef, suffix: str = "") -> tuple[str, str]:
        """(Rust type, parse expression over `value` and `at`) for a value of type `t`."""
        if t.kind == "string":
            if t.enum is not None:
                name = self._enum(owner, field, t, suffix)
                return name, f"{name}::parse_at(value, at)"
            if t.pattern is None and t.min_length is None:
                return "String", "wire::string(value, at)"
            rule = self._rule(owner, field, t, suffix)
            return "String", f"wire::checked_string(value, at, &{rule})"
        if t.kind == "boolean":
            return "bool", "wire::boolean(value, at)"
        if t.kind == "integer":
            return "Number", "wire::integer(value, at)"
        if t.kind == "number":
            return "Number", "wire::number(value, at)"
        if t.kind == "map":
            return "Map<String, Value>", "wire::object(value, at)"
        if t.kind == "ref":
            assert t.ref is not None
            return t.ref, f"{t.ref}::parse_at(value, at)"
        if t.kind == "array":
            assert t.items is not None
            item_type, item_parse = self._rust_type(owner, field, t.items, suffix + "Item")
            if item_parse.endswith("(value, at)"):  # a plain function of (value, at): pass it itself
                item_fn = item_parse[: -len("(value, at)")]
            else:
                item_fn = f"|value, at| {item_parse}"
            return f"Vec<{item_type}>", f"wire::array(value, at, {item_fn})"
        raise IdlError(f"{owner.source} {field.wire_name}: the rust target has no type for {t.kind!r}")

    @staticmethod
    def _default_finish(owner: WireType, f: Field) -> str:
        """How the parser fills in the schema default of an absent field."""
        if (
            f.default in (False, "", [])
            and f.type.kind in ("boolean", "string", "array")
            and f.type.enum is None
        ):
            return ".unwrap_or_default()"
        if f.type.kind == "boolean" and f.default is True:
            return ".unwrap_or(true)"
        if f.type.kind == "string" and isinstance(f.default, str) and f.type.enum is None:
            return f".unwrap_or_else(|| {rust_str(f.default)}.to_owned())"
        raise IdlError(
            f"{owner.source} {f.wire_name}: the rust target cannot express the default {f.default!r}"
        )

    def struct(self, t: WireType) -> RustStruct:
        fields = []
        for f in t.fields:
            ident = _ident(f.py_name)
            if f.py_name == _EXTRA and t.open:
                raise IdlError(f"{t.source} {f.wire_name}: `extra` is the Rust field for unknown keys")
            base, parse = self._rust_type(t, f, f.type)
            attrs = []
            if f.wire_name != f.py_name:
                attrs.append(f"rename = {rust_str(f.wire_name)}")
            missing = f"wire::missing(at, {rust_str(f.wire_name)})"
            if f.emit == "always" and f.required:
                rust_type, finish = base, f".ok_or_else(|| {missing})?"
            elif f.emit == "always":
                rust_type, finish = base, self._default_finish(t, f)
            elif f.emit == "if_nonempty":
                rust_type, finish = base, ".unwrap_or_default()"
                attrs.append('skip_serializing_if = "Vec::is_empty"')
            else:
                rust_type, finish = f"Option<{base}>", ""
                attrs.append('skip_serializing_if = "Option::is_none"')
            local = ident + "_" if ident in _PARSER_LOCALS else ident
            fields.append(
                RustField(
                    ident=ident,
                    wire_name=f.wire_name,
                    description=f.description,
                    rust_type=rust_type,
                    serde_attrs=tuple(attrs),
                    parse=parse,
                    local=local,
                    finish=finish,
                )
            )
        return RustStruct(t.name, t.description, t.open, t.name in self.defaultable, tuple(fields))


def use_list(module: str, names: list[str], width: int = 100) -> str:
    """`pub use module::{...};` laid out as rustfmt does (one line, else filled lines)."""
    one = f"pub use {module}::{{{', '.join(names)}}};"
    if len(one) <= width:
        return one
    lines: list[str] = []
    line = ""
    for name in names:
        candidate = f"{line} {name}," if line else f"    {name},"
        if line and len(candidate) > width:
            lines.append(line)
            line = f"    {name},"
        else:
            line = candidate
    lines.append(line)
    return f"pub use {module}::{{\n" + "\n".join(lines) + "\n};"


# A copied test with its own `fn main` (the spec's examples) runs without libtest.
_MAIN = re.compile(r"^fn main\(", re.MULTILINE)


def render(idl: Idl) -> dict[str, str]:
    builder = _Builder(idl)
    structs = [builder.struct(t) for t in idl.types]
    support = support_files(idl, CRATE, "//")
    modules = sorted(rel[len("src/") : -len(".rs")] for rel in support if rel.startswith("src/"))
    if "wire" not in modules:
        raise IdlError("rust target: support/rust/src/wire.rs is missing or not marked `// codegen: copy`")
    env = environment(CRATE)
    env.filters["rust_str"] = rust_str
    env.globals["doc_lines"] = doc_lines
    env.globals["use_list"] = use_list
    slash = "".join(f"// {line}\n" for line in header_lines(idl))
    hash_ = "".join(f"# {line}\n" for line in header_lines(idl))
    names = {s.name for s in structs}
    ctx = {
        "idl": idl,
        "structs": structs,
        "enums": builder.enums,
        "rules": builder.rules,
        "has_patterns": any(r.pattern is not None for r in builder.rules),
        # Sorted as rustfmt's 2024 style sorts them (ASCII order for these names).
        "type_exports": sorted(
            [s.name for s in structs]
            + [e.name for e in builder.enums]
            + ["SCHEMA_VERSION", "TYPE_NAMES", "roundtrip"]
        ),
        "uses_number": any("Number" in f.rust_type for s in structs for f in s.fields),
        "uses_map": any(s.open or any("Map<" in f.rust_type for f in s.fields) for s in structs),
        "modules": modules,
        # The crate doc's example parses a ToolResult with an image part.
        "result_example": {"ToolResult", "ContentPart"} <= names,
        "dependencies": [
            (name, spec) for name, spec, needed_by in DEPENDENCIES if needed_by in (None, *support)
        ],
        "main_tests": sorted(
            rel[len("tests/") : -len(".rs")]
            for rel, text in support.items()
            if rel.startswith("tests/") and _MAIN.search(text)
        ),
        "crate_description": json.dumps(idl.description),
        "slash_header": slash,
        "hash_header": hash_,
    }
    files = {
        f"{CRATE}/Cargo.toml": env.get_template("Cargo.toml.jinja").render(ctx),
        f"{CRATE}/rustfmt.toml": env.get_template("rustfmt.toml.jinja").render(ctx),
        f"{CRATE}/src/lib.rs": env.get_template("lib.rs.jinja").render(ctx),
        f"{CRATE}/src/types.rs": env.get_template("types.rs.jinja").render(ctx),
    }
    if any("TOOLNEXUS_REPO" in text for text in support.values()):  # the spec's example 4
        files[f"{CRATE}/.cargo/config.toml"] = env.get_template("config.toml.jinja").render(ctx)
    for rel, text in support.items():
        files[f"{CRATE}/{rel}"] = text
    return files
