"""Rust target: the IDL-derived half of the crate `toolnexus-contract`, library `toolnexus`.

The crate's root is its hand-written tree, `support/rust/` (see `common`), where the files
this target writes to `generated/rust/` appear as links. What derives from the IDL is rendered
from the jinja2 templates in `templates/rust/`: the wire types (`src/types.rs`), `src/lib.rs`
(its `mod` and `pub use` lines name only the hand-written modules this IDL's crate has),
`Cargo.toml` (the package, versioned as the schema; the dependencies those modules need, as
caret requirements; the opt-in `lossless` feature; a libtest-free `[[test]]` for each test with
its own `fn main`) and `README.md`.

The runtime helpers and the crate's tests are hand-written Rust in `support/rust/`
(`src/wire.rs`, `src/result.rs`, `src/suspend.rs`, `src/media.rs`, `src/runtime/`, `tests/*.rs`),
compiled, linted and tested there (`bash tests/rust/run.sh`). Each belongs to a crate whose IDL
has the types its `// codegen: package; requires ...` line names (`common.support_files`), so a
small IDL's crate gets `wire.rs` alone.

A test that reads a file of the repository through `TOOLNEXUS_REPO` (the spec's
example 4 reads `examples/media/fixture.png`) is run by a generated `tests/<name>/main.rs`
that includes it unchanged and carries the file's bytes, so the crate packaged for
crates.io tests on its own: with TOOLNEXUS_REPO unset, the runner writes the file under
cargo's scratch folder for tests and points TOOLNEXUS_REPO there.

Structs serialize through a generated `Serialize` (what serde's derive would write:
a map for an open type, its unknown keys last; a struct for a closed one) that first
checks the value's nesting against `MAX_DEPTH` without recursing (`wire::Nest`, one
generated impl per struct); parsing is generated code that walks a `serde_json::Value`
field by field, after `wire::document` has checked its nesting and numbers, so it
accepts exactly what the schema accepts (types, enums, `minLength`, `pattern`, no `null`
for an absent optional, no unknown key in a closed type) and names the JSON path of what
it rejects.

A field's Rust name is the snake case of its API name (`x-name`, else the wire key): the
wire key `type` of `ContentPart` is the field `kind` (enum `ContentPartKind`), renamed on the
wire. A field of any JSON value but `null` is a `serde_json::Value` (`Option<Value>` when
optional), checked by `wire::any` and nested and number-checked with the document, as
`metadata` is; a string whose default is `""` is a `String`, empty when absent and skipped
when empty.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

import jinja2

from . import loop_data
from .common import environment, header_lines, support_files
from .idl import Field, Idl, IdlError, Requirement, TypeRef, WireType

__all__ = [
    "CRATE",
    "DEPENDENCIES",
    "DEV_DEPENDENCIES",
    "FEATURES",
    "LIBRARY",
    "PACKAGE_NAME",
    "render",
]

CRATE = "rust"
#: The package name on crates.io (`toolnexus` there is the upstream crate the spec is
#: written for); the library keeps the contract's name, so code says `use toolnexus::...`.
PACKAGE_NAME = "toolnexus-contract"
LIBRARY = "toolnexus"
# Where the repository's files that a test reads through TOOLNEXUS_REPO are.
_REPO = Path(__file__).resolve().parent.parent

# Caret requirements, each the lowest version the crate's tests pass with, with and
# without `lossless` (a scratch copy locked by `cargo +nightly update -Z
# direct-minimal-versions`, then `cargo test`), so the crate resolves next to a user's
# own serde, regex, ...; the repository's builds are reproducible through their
# committed Cargo.lock files. Each with the support module that needs it (None: every
# crate). No serde_json feature is turned on here: features are unified over a user's
# whole dependency graph, and `preserve_order` and `arbitrary_precision` change how the
# user's own serde code behaves (an f64 in an untagged enum or a flattened struct no
# longer deserializes). They are the crate's opt-in feature `lossless` (FEATURES).
# support/rust/Cargo.toml repeats these lines (a test keeps them equal).
DEPENDENCIES: tuple[tuple[str, str, str | None], ...] = (
    ("base64", '"0.23.0"', "src/media.rs"),
    # The runtime's (src/runtime.rs, behind the feature `runtime`) are optional, so they
    # never reach a user of the wire types alone (`default-features = false`); their
    # versions are those the runtime was written and tested with, not minimal ones.
    # fancy-regex reads `pattern` as the Python package does (the engine jsonschema uses).
    ("fancy-regex", '{ version = "0.20.2", optional = true }', "src/runtime.rs"),
    ("getrandom", '"0.4.0"', "src/suspend.rs"),
    ("hmac", '{ version = "0.13.0", optional = true }', "src/runtime.rs"),
    ("jsonschema", '{ version = "0.61.2", default-features = false, optional = true }', "src/runtime.rs"),
    # `O_NONBLOCK`, so that `from_path` never waits on a FIFO swapped in for a file.
    ("libc", '"0.2.155"', "src/media.rs"),
    # ecma_to_rust_regex spells every class out in ASCII ranges, so the Unicode
    # tables and the literal optimisations are left out to keep the build small.
    (
        "regex",
        '{ version = "1.10.0", default-features = false, features = '
        '["std", "perf-cache", "perf-dfa", "perf-onepass", "perf-backtrack"] }',
        None,
    ),
    # serde_json 1.0.152 is the first to keep `-0` with `arbitrary_precision` (the
    # feature `lossless`); it needs serde_core, so serde 1.0.220 (serde_core's serde).
    ("serde", '{ version = "1.0.220", features = ["derive"] }', None),
    ("serde_jcs", '{ version = "0.2.0", optional = true }', "src/runtime.rs"),
    # `float_roundtrip`: serde_json's own float parser is off by an ulp for about one
    # float in six that Python writes, so a run read and written again would come back
    # with other doubles. It changes nothing else (a correctly rounded parse, slower).
    ("serde_json", '{ version = "1.0.152", features = ["float_roundtrip"] }', None),
    # sha2 0.11.0, the last for Rust 1.85 (the crate's rust-version), so that cargo's
    # MSRV-aware resolver can pick it; 0.11.1 (and ctutils 0.4.8 under digest) need 1.87+.
    ("sha2", '{ version = "0.11.0", optional = true }', "src/runtime.rs"),
    # Only the timer (`ToolContext::timeout`), behind the feature `tokio`.
    (
        "tokio",
        '{ version = "1.54.1", default-features = false, features = ["time"], optional = true }',
        "src/runtime.rs",
    ),
)

# The crate's own tests need a tokio runtime for the runtime's (the spec's example 1 is
# `#[tokio::main]`).
DEV_DEPENDENCIES: tuple[tuple[str, str, str | None], ...] = (
    ("tokio", '{ version = "1.54.1", features = ["macros", "rt-multi-thread", "time"] }', "src/runtime.rs"),
)

# The crate's features, as `name = [...]` lines of Cargo.toml, each with the support
# module that needs it (None: every crate). `lossless` (off by default): metadata and
# unknown keys keep their order, and numbers their text, so every document comes back
# byte for byte (the conformance run builds with it). `runtime` (on by default): tools,
# the engine, the toolkit and the seal; `tokio` (on by default): tool timeouts.
FEATURES: tuple[tuple[str, str, str | None], ...] = (
    ("default", '["runtime", "tokio"]', "src/runtime.rs"),
    ("lossless", '["serde_json/preserve_order", "serde_json/arbitrary_precision"]', None),
    (
        "runtime",
        '["dep:fancy-regex", "dep:hmac", "dep:jsonschema", "dep:serde_jcs", "dep:sha2"]',
        "src/runtime.rs",
    ),
    ("tokio", '["runtime", "dep:tokio"]', "src/runtime.rs"),
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
#: Structs a user builds with a struct literal ending in `..Default::default()`, as the
#: specification's example 3 builds a `Request`. `#[non_exhaustive]` would refuse that
#: literal, so these stay open to it and get a hidden public field of a type no user can
#: make instead: a literal must end in `..` (so a field added in a minor version breaks
#: nobody), and a pattern must too. Every other struct is `#[non_exhaustive]`.
LITERAL_STRUCTS = frozenset({"Request"})
#: Structs that note, when read from text, where an integer beyond 64 bits became a double
#: (`wire::WideIntegers`, in a crate field named `wide_integers`): the run a seal covers, so
#: that the seal over such an integer is refused without the feature `lossless` as well.
TEXT_NOTING_STRUCTS = frozenset({"RunResult"})
#: The hidden field of those structs (its type is `wire::NonExhaustive`).
_HIDDEN = "__non_exhaustive"
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
    emit_if: str | None  # the condition under which `Serialize` writes the field (None: always)
    nests: bool  # holds objects or arrays (free-form JSON, a wire type, an array of them)
    parse: str  # an expression of type Result<T, WireError> over `value` and `at`
    local: str  # the parser's variable for the field (an Option)
    finish: str  # what turns `local` into the field's value ("" for an Option field)


@dataclass(frozen=True)
class RustRequirement:
    """One conditional requirement of a struct (the IDL's `allOf`), as Rust conditions."""

    description: str
    when: str  # a `matches!` over the enum field
    absent: str  # true when none of the fields that carry the content is there
    message: str  # a format string taking the enum value's wire name
    value: str  # the enum value's wire name


@dataclass(frozen=True)
class RustParam:
    """A parameter of a struct's `new`: the required fields, in schema order."""

    ident: str
    param_type: str
    value: str  # the expression that makes the field's value from the parameter


@dataclass(frozen=True)
class RustStruct:
    name: str
    description: str
    open: bool
    default: bool
    fields: tuple[RustField, ...]
    #: Built by struct literal (see LITERAL_STRUCTS) instead of `#[non_exhaustive]`.
    literal: bool = False
    #: Notes wide integers when read from text (see TEXT_NOTING_STRUCTS).
    notes_text: bool = False
    requires: tuple[RustRequirement, ...] = ()
    #: The parameters of `new`, and the values of the other fields.
    params: tuple[RustParam, ...] = ()
    defaults: tuple[tuple[str, str], ...] = ()


def _f64_option(bound: int | float | None) -> str:
    """`Some(<bound> as an f64 literal)`, or `None`."""
    return "None" if bound is None else f"Some({float(bound)!r}_f64)"


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
        name = owner.name + _pascal(field.api_name or field.wire_name) + suffix
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
        if t.kind in ("integer", "number"):
            parse = f"wire::{t.kind}(value, at)"
            if t.minimum is None and t.maximum is None:
                return "Number", parse
            kind = "an integer" if t.kind == "integer" else "a number"
            return "Number", (
                f"wire::number_in({parse}?, at, {rust_str(kind)}, "
                f"{_f64_option(t.minimum)}, {_f64_option(t.maximum)})"
            )
        if t.kind == "map":
            return "Map<String, Value>", "wire::object(value, at)"
        if t.kind == "any":
            return "Value", "wire::any(value, at)"
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
            emit_if = None
            missing = f"wire::missing(at, {rust_str(f.wire_name)})"
            if f.emit == "always" and f.required:
                rust_type, finish = base, f".ok_or_else(|| {missing})?"
            elif f.emit == "always":
                rust_type, finish = base, self._default_finish(t, f)
            elif f.emit == "if_nonempty":
                rust_type, finish = base, ".unwrap_or_default()"
                emit_if = f"!self.{ident}.is_empty()"
            else:
                rust_type, finish = f"Option<{base}>", ""
                emit_if = f"self.{ident}.is_some()"
            local = ident + "_" if ident in _PARSER_LOCALS else ident
            fields.append(
                RustField(
                    ident=ident,
                    wire_name=f.wire_name,
                    description=f.description,
                    rust_type=rust_type,
                    emit_if=emit_if,
                    nests=_nests(f.type),
                    parse=parse,
                    local=local,
                    finish=finish,
                )
            )
        return RustStruct(
            t.name,
            t.description,
            t.open,
            t.name in self.defaultable,
            tuple(fields),
            literal=t.name in LITERAL_STRUCTS,
            notes_text=t.name in TEXT_NOTING_STRUCTS,
            requires=tuple(self._requirement(t, r) for r in t.requires),
            params=tuple(self._param(f, rf) for f, rf in zip(t.fields, fields, strict=True) if f.required),
            defaults=tuple(
                (rf.ident, self._empty(f, rf))
                for f, rf in zip(t.fields, fields, strict=True)
                if not f.required
            ),
        )

    def _requirement(self, t: WireType, r: Requirement) -> RustRequirement:
        by_wire = {f.wire_name: f for f in t.fields}
        when = by_wire[r.when]
        enum = next(e for e in self.enums if e.name == t.name + _pascal(when.api_name or when.wire_name))
        variants = " | ".join(f"{enum.name}::{v}" for value, v in enum.values if value in r.values)
        absent = " && ".join(f"self.{_ident(by_wire[name].py_name)}.is_empty()" for name in r.any_of)
        message = r.message("{}").replace('"', '\\"')
        ident = _ident(when.py_name)
        return RustRequirement(
            r.description, f"matches!(self.{ident}, {variants})", absent, message, f"self.{ident}.as_str()"
        )

    @staticmethod
    def _param(f: Field, rf: RustField) -> RustParam:
        if rf.rust_type == "String":
            return RustParam(rf.ident, "impl Into<String>", f"{rf.ident}.into()")
        return RustParam(rf.ident, rf.rust_type, rf.ident)

    @staticmethod
    def _empty(f: Field, rf: RustField) -> str:
        """The value of an optional field in `new`: its schema default, or absent."""
        if rf.rust_type.startswith("Option<"):
            return "None"
        if f.default is True:
            return "true"
        if f.default is False:
            return "false"
        if isinstance(f.default, str) and f.default:
            return f"{rust_str(f.default)}.to_owned()"
        return "Default::default()"


def _nests(t: TypeRef) -> bool:
    """Whether a value of type `t` holds objects or arrays of its own."""
    if t.kind == "array":
        assert t.items is not None
        return _nests(t.items)
    return t.kind in ("map", "any", "ref")


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


# A test with its own `fn main` (the spec's examples) runs without libtest.
_MAIN = re.compile(r"^(?:async )?fn main\(", re.MULTILINE)
# A test that reads a file of the repository, as the spec's example 4 does:
# `PathBuf::from(std::env::var("TOOLNEXUS_REPO")?).join("examples/media/fixture.png")`.
_REPO_FILE = re.compile(r'std::env::var\("TOOLNEXUS_REPO"\)\?\)\.join\("([^"]+)"\)')
_BYTES_PER_LINE = 16  # as rustfmt lays a byte array out at 100 columns
# A test that needs a feature of the crate says so in a line of its own, which the
# generated `[[test]]` repeats (cargo then skips it without the feature):
# `// cargo: required-features = ["tokio"]`.
_REQUIRED_FEATURES = re.compile(r"^// cargo: required-features = (\[[^\]\n]*\])$", re.MULTILINE)


@dataclass(frozen=True)
class RustTest:
    """A test with its own `fn main`, a `[[test]]` with `harness = false`."""

    name: str
    path: str  # the target's file, in the crate
    fixture: str | None  # the repository file its runner carries (then path is the runner)
    required_features: str | None = None  # a TOML array, from its `// cargo: required-features = [...]`


def _fixture_runner(env: jinja2.Environment, ctx: dict[str, object], name: str, fixture: str) -> str:
    source = _REPO / fixture
    if not source.is_file():
        raise IdlError(f"rust target: tests/{name}.rs reads {fixture}, which is not in the repository")
    data = source.read_bytes()
    lines = [
        " ".join(f"0x{b:02x}," for b in data[i : i + _BYTES_PER_LINE])
        for i in range(0, len(data), _BYTES_PER_LINE)
    ]
    return env.get_template("fixture_runner.rs.jinja").render(
        {
            **ctx,
            "test": name,
            "fixture": fixture,
            "fixture_size": len(data),
            "fixture_sha256": hashlib.sha256(data).hexdigest(),
            "fixture_lines": lines,
        }
    )


def render(idl: Idl) -> dict[str, str]:
    builder = _Builder(idl)
    structs = [builder.struct(t) for t in idl.types]
    support = support_files(idl, CRATE)
    # The crate's modules: the files right under src/ (a module's own files, such as
    # src/runtime/*.rs, are laid out by it).
    modules = sorted(
        rel[len("src/") : -len(".rs")] for rel in support if rel.startswith("src/") and rel.count("/") == 1
    )
    if idl.loop is not None:
        modules = sorted([*modules, "loop_data"])
    if "wire" not in modules:
        raise IdlError("rust target: support/rust/src/wire.rs is missing or not marked `// codegen: package`")
    env = environment(CRATE)
    env.filters["rust_str"] = rust_str
    env.filters["format_usize"] = lambda cond: f"usize::from({cond})"
    env.globals["doc_lines"] = doc_lines
    env.globals["use_list"] = use_list
    slash = "".join(f"// {line}\n" for line in header_lines(idl))
    hash_ = "".join(f"# {line}\n" for line in header_lines(idl))
    names = {s.name for s in structs}
    main_tests = []
    for rel, text in sorted(support.items()):
        if rel.startswith("tests/") and rel.count("/") == 1 and _MAIN.search(text):
            name = rel[len("tests/") : -len(".rs")]
            found = _REPO_FILE.search(text)
            fixture = found.group(1) if found else None
            required = _REQUIRED_FEATURES.search(text)
            main_tests.append(
                RustTest(
                    name,
                    f"tests/{name}/main.rs" if fixture else rel,
                    fixture,
                    required.group(1) if required else None,
                )
            )
    ctx = {
        "idl": idl,
        "package_name": PACKAGE_NAME,
        "library": LIBRARY,
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
        "type_names": [s.name for s in structs],
        "dependencies": [
            (name, spec) for name, spec, needed_by in DEPENDENCIES if needed_by in (None, *support)
        ],
        "dependency_versions": {
            name: re.search(r'"([0-9][^"]*)"', spec).group(1)  # type: ignore[union-attr]
            for name, spec, _ in DEPENDENCIES
        },
        "features": [(name, spec) for name, spec, needed_by in FEATURES if needed_by in (None, *support)],
        "dev_dependencies": [
            (name, spec) for name, spec, needed_by in DEV_DEPENDENCIES if needed_by in (None, *support)
        ],
        "main_tests": main_tests,
        "crate_description": json.dumps(idl.description),
        "slash_header": slash,
        "hash_header": hash_,
        "md_header": "".join(f"<!-- {line} -->\n" for line in header_lines(idl)).rstrip("\n"),
    }
    files = {
        f"{CRATE}/Cargo.toml": env.get_template("Cargo.toml.jinja").render(ctx),
        f"{CRATE}/README.md": env.get_template("README.md.jinja").render(ctx),
        f"{CRATE}/src/lib.rs": env.get_template("lib.rs.jinja").render(ctx),
        f"{CRATE}/src/types.rs": env.get_template("types.rs.jinja").render(ctx),
    }
    if idl.loop is not None:
        files[f"{CRATE}/src/loop_data.rs"] = loop_data.rust_module(idl.loop, slash)
    for test in main_tests:
        if test.fixture:
            files[f"{CRATE}/{test.path}"] = _fixture_runner(env, ctx, test.name, test.fixture)
    return files
