"""The reference pages of the docs site: one Markdown page per wire type, from the IDL.

Written into `docs/reference/wire/` by `make gen` and checked by `make check` like
`generated/`. Each page gives the type's description, its fields (the wire key, the name and
type in Python, TypeScript and Rust, whether it is required, its default and constraints, and
its documentation), its requirements, and the vectors of `idl/examples/<Type>/` as examples.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import rust_target, typescript_target
from .common import header_lines
from .idl import Field, Idl, TypeRef, WireType

__all__ = ["OUT", "render"]

#: Where the pages go, relative to the repository.
OUT = "docs/reference/wire"
EXAMPLES = Path(__file__).resolve().parent.parent / "idl" / "examples"
#: A vector longer than this is shown cut, with its size.
_SHOWN = 600


def _md(text: str) -> str:
    """A table cell: one line, pipes escaped outside code spans (Python-Markdown's tables leave
    a pipe inside backticks alone, and would show a backslash before it)."""
    pieces = text.replace("\n", " ").split("`")
    return "`".join(p if i % 2 else p.replace("|", "\\|") for i, p in enumerate(pieces))


def _schema_type(t: TypeRef) -> str:
    if t.kind == "ref":
        return f"[`{t.ref}`]({t.ref}.md)"
    if t.kind == "array":
        assert t.items is not None
        return f"array of {_schema_type(t.items)}"
    if t.kind == "map":
        return "object (free-form JSON)"
    if t.kind == "any":
        return "any JSON value but `null`"
    if t.enum is not None:
        return " \\| ".join(f'`"{v}"`' for v in t.enum)
    return f"`{t.kind}`"


def _constraints(t: TypeRef) -> str:
    while t.kind == "array" and t.items is not None:
        t = t.items
    out = []
    if t.min_length:
        out.append(f"at least {t.min_length} character{'s' if t.min_length > 1 else ''}")
    if t.pattern is not None:
        out.append(f"matches `{t.pattern}`")
    return "; ".join(out)


def _default(f: Field) -> str:
    if f.required:
        return "—"
    if f.default is None:
        return "absent"
    if f.emit == "if_nonempty":
        return f"`{json.dumps(f.default)}` (omitted when empty)"
    return f"`{json.dumps(f.default)}`"


def _vector_text(path: Path) -> tuple[str, str]:
    """(the text to show, a note about it)."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
        note = ""
    except UnicodeDecodeError:
        text = raw.decode("utf-8", errors="backslashreplace")
        note = " Not UTF-8: the bytes that are not are shown as `\\x..`."
    text = text.rstrip("\n")
    if len(text) > _SHOWN:
        note += f" Shown cut: {len(raw):,} bytes in all."
        text = text[:_SHOWN] + " …"
    return text, note


def _examples(t: WireType, examples: Path) -> list[str]:
    folder = examples / t.name
    lines: list[str] = []
    valid = sorted((folder / "valid").glob("*.json")) if (folder / "valid").is_dir() else []
    invalid = sorted((folder / "invalid").glob("*.json")) if (folder / "invalid").is_dir() else []
    lines += [
        "## Examples",
        "",
        f"The wire vectors of `idl/examples/{t.name}/`: every language parses each valid one and",
        "writes it back byte for byte (or as its canonical form, when shown), and refuses each",
        "invalid one at the path given.",
        "",
        f"### Valid ({len(valid)})",
        "",
    ]
    for path in valid:
        text, note = _vector_text(path)
        lines += [f"`{path.stem}`{note}", "", "```json", text, "```", ""]
        canonical = folder / "canonical" / path.name
        if canonical.exists():
            ctext, _ = _vector_text(canonical)
            lines += ["written back as", "", "```json", ctext, "```", ""]
    lines += [f"### Invalid ({len(invalid)})", ""]
    for path in invalid:
        text, note = _vector_text(path)
        sidecar = path.with_suffix(".path")
        where = sidecar.read_text(encoding="utf-8").strip() if sidecar.exists() else "$"
        lines += [f"`{path.stem}`: refused at `{where}`.{note}", "", "```json", text, "```", ""]
    return lines


def _page(idl: Idl, t: WireType, examples: Path) -> str:
    rust = rust_target._Builder(idl)
    rust_fields = {f.wire_name: f for f in rust.struct(t).fields}
    ts = {f.name: f for f in typescript_target._type_view(t, set()).fields}
    rust_struct = rust.struct(t)
    lines = [
        *(f"<!-- {line} -->" for line in header_lines(idl)),
        "",
        f"# {t.name}",
        "",
        t.description,
        "",
        f"- Schema: `{t.source}`; in the bundle `generated/jsonschema/toolnexus.schema.json` as "
        f"`$defs/{t.name}`, versioned URI `{idl.type_id(t.name)}`.",
        "- Unknown keys: "
        + (
            "kept through a parse and emit round trip."
            if t.open
            else "refused (`additionalProperties: false`)."
        ),
        f"- Python: `toolnexus.{t.name}` (also `toolnexus_wire.{t.name}`); TypeScript: the interface "
        f"`{t.name}`, `parse{t.name}`, `fromJson{t.name}`, `toJson{t.name}`; Rust: `toolnexus::{t.name}`"
        + (
            " (a struct literal ending in `..Default::default()`)."
            if rust_struct.literal
            else f" (`#[non_exhaustive]`: `{t.name}::new`"
            + (", `Default`)." if rust_struct.default else ").")
        ),
        "",
        "## Fields",
        "",
        "| wire key | Python | TypeScript | Rust | type | required | absent means | constraints |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for f in t.fields:
        rf, tf = rust_fields[f.wire_name], ts[f.wire_name]
        lines.append(
            f"| [`{f.wire_name}`](#{f.wire_name}) | `{f.py_name}` | `{tf.prop}{'?' if tf.optional else ''}: "
            f"{tf.ts_type}` | `{rf.ident}: {rf.rust_type}` | {_schema_type(f.type)} | "
            f"{'yes' if f.required else 'no'} | {_default(f)} | {_md(_constraints(f.type)) or '—'} |"
        )
    lines.append("")
    for f in t.fields:
        lines += [f"### `{f.wire_name}` {{#{f.wire_name}}}", "", f.description, ""]
    if t.requires:
        lines += [
            "## Requirements",
            "",
            "Checked once the fields are valid; the error is at the object's path.",
            "",
        ]
        for r in t.requires:
            values = ", ".join(f"`{v}`" for v in r.values)
            needs = " or ".join(f"[`{name}`](#{name})" for name in r.any_of)
            when = f"[`{r.when}`](#{r.when})"
            lines.append(f"- {r.description} When {when} is {values}, {needs} is present and not empty.")
        lines.append("")
    lines += _examples(t, examples)
    return "\n".join(lines).rstrip("\n") + "\n"


def _index(idl: Idl) -> str:
    lines = [
        *(f"<!-- {line} -->" for line in header_lines(idl)),
        "",
        "# Wire types",
        "",
        f"The {idl.name} schema **{idl.version}**: {idl.description} One page per type, generated "
        "from `idl/` by `make gen`; the bundled JSON Schema is `generated/jsonschema/toolnexus.schema.json` "
        f"(`$id` `{idl.bundle_id}`).",
        "",
        "| type | what it is |",
        "|---|---|",
    ]
    for t in idl.types:
        first = t.description.split(". ")[0].rstrip(".")
        lines.append(f"| [`{t.name}`]({t.name}.md) | {_md(first)}. |")
    return "\n".join(lines) + "\n"


def render(idl: Idl, examples: Path = EXAMPLES) -> dict[str, Any]:
    """The pages, keyed by their path relative to the repository."""
    pages = {f"{OUT}/index.md": _index(idl)}
    for t in idl.types:
        pages[f"{OUT}/{t.name}.md"] = _page(idl, t, examples)
    return pages
