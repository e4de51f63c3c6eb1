"""The loop's data (`idl/loop.json`): its limits, the reasons a resume is refused for, the texts a
model reads when the loop settles a call, and the MIME types of file extensions, each written once
and rendered into every language: `toolnexus_wire/loop_data.py`, `src/loop.ts`, `src/loop_data.rs`.
The engines' control flow stays hand-written and reads these; the loop vectors pin both.

The data is read, and checked, by `codegen.idl.load_loop_data`. The format (docs/idl.md):
`limits` maps a SCREAMING_SNAKE name to `{value, description}` (a non-negative integer);
`resumeReasons` lists `{name, description}`; `texts` maps a snake_case name to `{text,
description}`, where `{name}` in the text is a placeholder filled with a string (a function per
text, its parameters in order of appearance: camelCase in TypeScript); `extensions` maps a
lower-case file extension, with its dot, to a MIME type. Only `limits.MAX_DEPTH` is required
(the wire's readers need it); an IDL without the file, such as a golden case's, gets the default
depth alone.
"""

from __future__ import annotations

import json

from .idl import LoopData

__all__ = ["python_module", "rust_module", "typescript_module"]


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.capitalize() for p in rest)


def _doc_lines(text: str, prefix: str, width: int = 96) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return [f"{prefix}{x}" for x in lines]


def python_module(data: LoopData, header: str) -> str:
    """`toolnexus_wire/loop_data.py` (ruff formats it afterwards)."""
    out = [header.rstrip("\n"), '"""The loop\'s data, from idl/loop.json (see codegen/loop_data.py)."""', ""]
    out += ["from __future__ import annotations", "", "from typing import Final, Literal", ""]
    names = [n for n, _, _ in data.limits]
    if data.resume_reasons:
        names += ["RESUME_REASONS", "ResumeReason"]
    if data.extensions:
        names.append("EXTENSIONS")
    names += [t.name for t in data.texts]
    out += [f"__all__ = {json.dumps(sorted(names))}", ""]
    for name, value, description in data.limits:
        out += [f"#: {line}" for line in _doc_lines(description, "")]
        out += [f"{name}: Final = {value}", ""]
    if data.resume_reasons:
        out += ["#: Why a resume is refused (`ResumeError.reason`):"]
        out += [f"#: `{n}`: {d}" for n, d in data.resume_reasons]
        literal = ", ".join(json.dumps(n) for n, _ in data.resume_reasons)
        out += [
            f"ResumeReason = Literal[{literal}]",
            f"RESUME_REASONS: Final[tuple[ResumeReason, ...]] = ({literal},)",
            "",
        ]
    if data.extensions:
        out += ["#: The MIME type of a file by its extension, lower case with its dot."]
        body = ", ".join(f"{json.dumps(e)}: {json.dumps(m)}" for e, m in data.extensions)
        out += [f"EXTENSIONS: Final[dict[str, str]] = {{{body}}}", ""]
    for t in data.texts:
        params = ", ".join(f"{p}: str" for p in t.params)
        expr = " + ".join(
            p[0] if isinstance(p, tuple) else json.dumps(p, ensure_ascii=False) for p in t.pieces
        )
        out += ["", f"def {t.name}({'*, ' if len(t.params) > 1 else ''}{params}) -> str:"]
        out += [f'    """{t.description}"""', f"    return {expr}", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def typescript_module(data: LoopData, header: str) -> str:
    """`src/loop.ts`."""
    out = [header.rstrip("\n"), "", "// The loop's data, from idl/loop.json (see codegen/loop_data.py).", ""]
    for name, value, description in data.limits:
        out += [f"/** {description} */", f"export const {name} = {value};", ""]
    if data.resume_reasons:
        out += ["/** Why a resume is refused (`ResumeError.reason`): */"]
        out += ["export const RESUME_REASONS = ["]
        out += [f"  /** {d} */\n  {json.dumps(n)}," for n, d in data.resume_reasons]
        out += ["] as const;", "", "/** A reason of {@link RESUME_REASONS}. */"]
        out += ["export type ResumeReason = (typeof RESUME_REASONS)[number];", ""]
    if data.extensions:
        out += ["/** The MIME type of a file by its extension, lower case with its dot. */"]
        out += ["export const EXTENSIONS: { readonly [suffix: string]: string } = {"]
        out += [f"  {json.dumps(e)}: {json.dumps(m)}," for e, m in data.extensions]
        out += ["};", ""]
    for t in data.texts:
        params = ", ".join(f"{_camel(p)}: string" for p in t.params)
        expr = " + ".join(
            _camel(p[0]) if isinstance(p, tuple) else json.dumps(p, ensure_ascii=False) for p in t.pieces
        )
        out += [f"/** {t.description} */", f"export function {_camel(t.name)}({params}): string {{"]
        out += [f"  return {expr};", "}", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def _rust_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def rust_module(data: LoopData, header: str) -> str:
    """`src/loop_data.rs`."""
    out = [header.rstrip("\n"), "", "//! The loop's data, from idl/loop.json (see codegen/loop_data.py)."]
    out += ["// Each configuration of the crate (the wire types alone, the runtime) uses a part of it."]
    out += ["#![allow(dead_code)]", ""]
    for name, value, description in data.limits:
        out += _doc_lines(description, "/// ")
        out += [f"pub const {name}: usize = {value};", ""]
    if data.resume_reasons:
        out += ["/// Why a resume is refused, by the name every language gives the reason:"]
        out += [f"/// `{n}`: {d}" for n, d in data.resume_reasons]
        out += [f"pub const RESUME_REASONS: [&str; {len(data.resume_reasons)}] = ["]
        out += [f"    {_rust_str(n)}," for n, _ in data.resume_reasons]
        out += ["];", ""]
    if data.extensions:
        out += ["/// The MIME type of a file by its extension, lower case with its dot."]
        out += ["pub const EXTENSIONS: &[(&str, &str)] = &["]
        out += [f"    ({_rust_str(e)}, {_rust_str(m)})," for e, m in data.extensions]
        out += ["];", ""]
    for t in data.texts:
        params = ", ".join(f"{p}: &str" for p in t.params)
        parts = ", ".join(p[0] if isinstance(p, tuple) else _rust_str(p) for p in t.pieces)
        out += _doc_lines(t.description, "/// ")
        out += [f"pub fn {t.name}({params}) -> String {{", f"    [{parts}].concat()", "}", ""]
    return "\n".join(out).rstrip("\n") + "\n"
