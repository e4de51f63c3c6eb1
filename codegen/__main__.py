"""`python -m codegen gen` writes generated/ from idl/ and links each package's generated files into
its hand-written tree (support/<language>/); `python -m codegen check` fails when either is stale;
`python -m codegen breaking [--against <git-ref>]` grades every change since the last release (or
that ref) and checks the version moved enough."""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from pathlib import Path

from . import (
    breaking,
    changelog,
    docs_target,
    jsonschema_target,
    python_target,
    rust_target,
    typescript_target,
)
from .common import LINKED, package_links
from .idl import IdlError, load

ROOT = Path(__file__).resolve().parent.parent
TARGETS = (jsonschema_target, python_target, typescript_target, rust_target)
# Files under generated/ that are not generator output: build products and installed packages.
IGNORED_PARTS = {"node_modules", "target", "__pycache__", "dist", "Cargo.lock"}


def render_all(root: Path = ROOT) -> dict[str, str]:
    idl = load(root / "idl")
    files: dict[str, str] = {}
    for target in TARGETS:
        for rel, text in target.render(idl).items():
            if rel in files:
                raise SystemExit(f"codegen: two targets write generated/{rel}")
            files[rel] = text
    return dict(sorted(files.items()))


def render_docs(root: Path = ROOT) -> dict[str, str]:
    """The reference pages, keyed by their path relative to `docs_target.OUT`."""
    pages = docs_target.render(load(root / "idl"), root / "idl" / "examples")
    prefix = docs_target.OUT + "/"
    return {rel[len(prefix) :]: text for rel, text in sorted(pages.items())}


def _existing(out: Path) -> dict[str, str]:
    found = {}
    if out.is_dir():
        for path in sorted(out.rglob("*")):
            rel = path.relative_to(out)
            if path.is_file() and not IGNORED_PARTS.intersection(rel.parts) and path.suffix != ".pyc":
                found[rel.as_posix()] = path.read_text(encoding="utf-8")
    return found


def gen(root: Path = ROOT) -> int:
    files = render_all(root)
    _write(files, root / "generated", "generated")
    _link(package_links(files, root), root)
    _write(render_docs(root), root / docs_target.OUT, docs_target.OUT)
    return 0


def _stale_links(links: dict[str, str], root: Path) -> tuple[dict[str, str], list[str]]:
    """The links that are missing or point elsewhere, and the links into generated/ that the
    generator no longer wants (a file it stopped writing). A regular file where a link belongs
    is an error: the generator never overwrites hand-written code."""
    wrong = {}
    for rel, target in links.items():
        path = root / rel
        if path.is_symlink():
            if os.readlink(path) != target:
                wrong[rel] = target
        elif path.exists():
            raise IdlError(f"{rel} is a hand-written file, but the generator writes generated/{rel[8:]}")
        else:
            wrong[rel] = target
    gone = []
    for language in LINKED:
        tree = root / "support" / language
        for path in sorted(tree.rglob("*")) if tree.is_dir() else []:
            rel = path.relative_to(root).as_posix()
            if path.is_symlink() and rel not in links and "/generated/" in f"/{os.readlink(path)}":
                gone.append(rel)
    return wrong, gone


def _link(links: dict[str, str], root: Path) -> None:
    wrong, gone = _stale_links(links, root)
    for rel in gone:
        (root / rel).unlink()
    for rel, target in wrong.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink():
            path.unlink()
        path.symlink_to(target)
    print(f"codegen: {len(links)} links from support/ into generated/, {len(wrong) + len(gone)} written")


def _write(files: dict[str, str], out: Path, name: str) -> None:
    have = _existing(out)
    # The same result as a clean slate: files the generator no longer writes go (build
    # products stay). Unchanged files are left alone, so cargo and tsc do not rebuild them.
    for rel in have.keys() - files.keys():
        (out / rel).unlink()
    for path in sorted(out.rglob("*"), reverse=True) if out.is_dir() else []:
        if path.is_dir() and not any(path.iterdir()) and not IGNORED_PARTS.intersection(path.parts):
            path.rmdir()
    changed = [rel for rel, text in files.items() if have.get(rel) != text]
    for rel in changed:
        dest = out / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(files[rel], encoding="utf-8", newline="\n")
    print(f"codegen: {len(files)} files in {name}/, {len(changed)} written")


def check(root: Path = ROOT) -> int:
    files = render_all(root)
    stale = _diff(files, root / "generated", "generated")
    wrong, gone = _stale_links(package_links(files, root), root)
    stale += [f"{rel}: should be a link to {target}\n" for rel, target in wrong.items()]
    stale += [f"{rel}: links to a file the generator no longer writes\n" for rel in gone]
    stale += _diff(render_docs(root), root / docs_target.OUT, docs_target.OUT)
    if stale:
        sys.stdout.writelines(stale)
        print(
            "\ncodegen: generated/, its links in support/ or docs/reference/wire/ are stale; run `make gen`",
            file=sys.stderr,
        )
        return 1
    print(f"codegen: generated/ and {docs_target.OUT}/ are current")
    return 0


def _diff(files: dict[str, str], out: Path, name: str) -> list[str]:
    have = _existing(out)
    diff: list[str] = []
    for rel in sorted(set(files) | set(have)):
        old, new = have.get(rel), files.get(rel)
        if old != new:
            diff.extend(
                difflib.unified_diff(
                    (old or "").splitlines(keepends=True),
                    (new or "").splitlines(keepends=True),
                    fromfile=f"{name}/{rel}" if old is not None else "/dev/null",
                    tofile=f"{name}/{rel} (from idl/)" if new is not None else "/dev/null",
                )
            )
    return diff


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m codegen", description=__doc__)
    parser.add_argument("command", choices=["gen", "check", "breaking", "changelog"])
    parser.add_argument("--check", action="store_true", help="changelog: fail when CHANGELOG.md is stale")
    parser.add_argument(
        "--against",
        metavar="GIT_REF",
        help="breaking: the git ref to compare idl/ with (default: the last release in idl/releases.json)",
    )
    args = parser.parse_args(argv)
    try:
        if args.command == "breaking":
            return breaking.main(ROOT, args.against)
        if args.command == "changelog":
            return changelog.main(ROOT, args.check)
        return gen() if args.command == "gen" else check()
    except IdlError as exc:
        print(f"codegen: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
