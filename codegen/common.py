"""Pieces every target shares: the DO NOT EDIT header, the jinja2 environment, and the
hand-written part of each language's package, read from `support/<language>/`.

A package is assembled from two trees without copying either: its root is the hand-written
tree `support/<language>/` (where the compiler, linter and tests see the code), and every file
the generator writes to `generated/<language>/<path>` appears there, at `<path>`, as a
relative symbolic link (`package_links`). Packing a package (wheel, npm tarball, .crate)
follows the links, so what a user installs holds real files."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

import jinja2

from .idl import Idl, IdlError

__all__ = [
    "LINKED",
    "SUPPORT",
    "TEMPLATES",
    "TREE_CONFIG",
    "assemble",
    "environment",
    "header_lines",
    "package_links",
    "support_files",
]

TEMPLATES = Path(__file__).parent / "templates"
#: The hand-written tree of each language's package: the package's root (see the module doc).
SUPPORT = Path(__file__).resolve().parent.parent / "support"
#: The languages whose package root is `support/<language>/`, with generated/<language>/ linked in.
LINKED = ("python", "typescript", "rust")

# The marker a hand-written module carries in its first lines to belong to the package:
#   `# codegen: package` or `// codegen: package; requires Request, ToolResult`
# A module that names types belongs to a package only when the IDL has every one of them
# (the generator then declares and exports it), the same rule in every language; the small
# IDLs of codegen/tests/cases get the modules they can use. Files without the marker are the
# tree's configuration (tsconfig.json, rustfmt.toml, Cargo.lock, mypy.ini).
_MARKER = re.compile(r"^\s*(?:#|//)\s*codegen: package(?:; requires ([A-Za-z0-9_, ]+))?\s*$")
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
    """Whether `path` belongs to the package, and the IDL types it requires."""
    with path.open(encoding="utf-8") as f:
        for _ in range(_MARKER_LINES):
            m = _MARKER.match(f.readline())
            if m:
                return True, tuple(n.strip() for n in (m.group(1) or "").split(",") if n.strip())
    return False, ()


def support_files(idl: Idl, language: str, root: Path = SUPPORT) -> dict[str, str]:
    """The hand-written modules of `language`'s package that this IDL can use, keyed by their
    path in the package, as they are. The links into generated/ are not among them."""
    base = root / language
    names = {t.name for t in idl.types}
    files: dict[str, str] = {}
    for path in sorted(base.rglob("*")):
        parts = path.relative_to(base).parts
        if (
            path.is_symlink()
            or not path.is_file()
            or any(x.startswith(".") for x in parts)
            or {"node_modules", "target", "dist", "__pycache__"} & set(parts)
        ):
            continue  # generated files linked in, build products and tool caches
        member, requires = _marker(path)
        if not member:
            continue
        unknown = [n for n in requires if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", n)]
        if unknown:
            raise IdlError(f"support/{language}/{path.relative_to(base)}: bad type names {unknown}")
        if not set(requires) <= names:
            continue
        files[path.relative_to(base).as_posix()] = path.read_text(encoding="utf-8")
    return files


def package_links(generated: Iterable[str], root: Path) -> dict[str, str]:
    """Where each generated file (a path under generated/, such as
    `rust/src/types.rs`) appears in its package's hand-written tree, and the relative target
    that link holds: `support/rust/src/types.rs` -> `../../../generated/rust/src/types.rs`.
    Paths are relative to the repository `root`; languages outside LINKED have no tree."""
    links: dict[str, str] = {}
    for rel in sorted(generated):
        language = rel.split("/", 1)[0]
        if language not in LINKED:
            continue
        link = root / "support" / rel
        links[f"support/{rel}"] = os.path.relpath(root / "generated" / rel, link.parent)
    return links


#: The configuration files of a package's tree that a package assembled elsewhere needs too.
TREE_CONFIG = {"python": (), "typescript": ("tsconfig.json",), "rust": ("rustfmt.toml",)}


def assemble(idl: Idl, files: dict[str, str], dest: Path, root: Path = SUPPORT) -> None:
    """Lay out each language's whole package for `idl` under `dest/<language>/`, as its tree
    in the repository is: the generated `files` (render output, keyed by their path under
    generated/) and the hand-written modules and configuration this IDL's package has. For
    building a package of another IDL (the golden cases, a changed contract) in a scratch
    folder; the files are written, not linked."""
    out: dict[str, str] = dict(files)
    for language in LINKED:
        for rel, text in support_files(idl, language, root).items():
            out[f"{language}/{rel}"] = text
        for rel in TREE_CONFIG[language]:
            out[f"{language}/{rel}"] = (root / language / rel).read_text(encoding="utf-8")
    for rel, text in out.items():
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
