"""Pieces every target shares: the DO NOT EDIT header, the jinja2 environment, and the
copying of each language's hand-written support code from `support/<language>/`."""

from __future__ import annotations

import re
from pathlib import Path

import jinja2

from .idl import Idl, IdlError

__all__ = ["SUPPORT", "TEMPLATES", "environment", "header_lines", "support_files"]

TEMPLATES = Path(__file__).parent / "templates"
#: Hand-written support code, one folder per language, laid out as in its package under generated/.
SUPPORT = Path(__file__).resolve().parent.parent / "support"

# The marker a support file carries in its first lines to be copied into the package:
#   `# codegen: copy` or `// codegen: copy; requires Request, ToolResult`
# A file that names types is copied only when the IDL has every one of them, the same
# rule in every language. Files without the marker (a Cargo.toml or tsconfig.json that
# lets the sources compile where they are edited) stay in support/.
_MARKER = re.compile(r"^\s*(?:#|//)\s*codegen: copy(?:; requires ([A-Za-z0-9_, ]+))?\s*$")
_MARKER_LINES = 5


def header_lines(idl: Idl) -> list[str]:
    """The fixed header of every generated file, without comment markers."""
    return [
        f"Generated from idl/ ({idl.name} schema {idl.version}, sha256 {idl.sha256}).",
        "Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.",
    ]


def environment(target: str) -> jinja2.Environment:
    """A strict jinja2 environment over `templates/<target>/`."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES / target),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    return env


def _marker(path: Path) -> tuple[bool, tuple[str, ...]]:
    """Whether `path` is copied, and the IDL types it requires."""
    with path.open(encoding="utf-8") as f:
        for _ in range(_MARKER_LINES):
            m = _MARKER.match(f.readline())
            if m:
                return True, tuple(n.strip() for n in (m.group(1) or "").split(",") if n.strip())
    return False, ()


def support_files(idl: Idl, language: str, comment: str, root: Path = SUPPORT) -> dict[str, str]:
    """The support files of `language` that this IDL needs, keyed by their path in the package,
    each behind the generated-file header written with `comment` (`#` or `//`)."""
    base = root / language
    names = {t.name for t in idl.types}
    files: dict[str, str] = {}
    for path in sorted(base.rglob("*")):
        parts = path.relative_to(base).parts
        if (
            not path.is_file()
            or any(x.startswith(".") for x in parts)
            or {"node_modules", "target", "__pycache__"} & set(parts)
        ):
            continue  # build products and tool caches
        copy, requires = _marker(path)
        if not copy:
            continue
        unknown = [n for n in requires if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", n)]
        if unknown:
            raise IdlError(f"support/{language}/{path.relative_to(base)}: bad type names {unknown}")
        if not set(requires) <= names:
            continue
        rel = path.relative_to(base).as_posix()
        head = "".join(f"{comment} {line}\n" for line in header_lines(idl))
        head += f"{comment} Source: support/{language}/{rel} (hand-written, copied verbatim).\n"
        files[rel] = head + path.read_text(encoding="utf-8")
    return files
