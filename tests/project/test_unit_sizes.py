"""The runtimes stay in units a reader can hold: no hand-written module over 600 lines and no
class over 250, in Python, TypeScript and Rust (the files `make gen` writes, and links into the
package trees, are not counted). A class is a Python `class`, a TypeScript `class`, and in Rust
a type's `impl` blocks within one module, summed."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULE_LINES = 600
CLASS_LINES = 250


def _hand_written(folder: Path, suffix: str) -> list[Path]:
    skip = {"node_modules", "target", "dist", "__pycache__"}
    return sorted(
        p
        for p in folder.rglob(f"*{suffix}")
        if not p.is_symlink() and not skip & set(p.relative_to(folder).parts)
    )


PYTHON = _hand_written(ROOT / "toolnexus", ".py") + _hand_written(ROOT / "support" / "python", ".py")
TYPESCRIPT = _hand_written(ROOT / "support" / "typescript" / "src", ".ts")
RUST = _hand_written(ROOT / "support" / "rust" / "src", ".rs")


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _blocks(lines: list[str], opening: re.Pattern[str]) -> list[tuple[str, int]]:
    """Each block whose first line matches `opening` at the left margin (its group 1 names it),
    and its length in lines: to the first later line that is a `}` at the left margin."""
    found = []
    for i, line in enumerate(lines):
        m = opening.match(line)
        if m is None or line.rstrip().endswith(";"):
            continue
        end = next((j for j in range(i, len(lines)) if lines[j].startswith("}")), len(lines) - 1)
        found.append((m.group(1), end - i + 1))
    return found


def test_the_trees_are_found() -> None:
    # A test that looks at nothing passes for nothing.
    assert len(PYTHON) > 40 and len(TYPESCRIPT) > 20 and len(RUST) > 20
    assert all(not p.is_symlink() for p in PYTHON + TYPESCRIPT + RUST)


@pytest.mark.parametrize("path", PYTHON + TYPESCRIPT + RUST, ids=_name)
def test_no_module_is_over_600_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MODULE_LINES, f"{_name(path)}: {lines} lines; split it along a seam"


def test_no_python_class_is_over_250_lines() -> None:
    big = []
    for path in PYTHON:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                size = node.end_lineno - node.lineno + 1
                if size > CLASS_LINES:
                    big.append(f"{_name(path)}: {node.name} ({size} lines)")
    assert big == []


def test_no_typescript_class_is_over_250_lines() -> None:
    opening = re.compile(r"(?:export )?(?:default )?(?:abstract )?class (\w+)")
    big = [
        f"{_name(path)}: {name} ({size} lines)"
        for path in TYPESCRIPT
        for name, size in _blocks(path.read_text(encoding="utf-8").splitlines(), opening)
        if size > CLASS_LINES
    ]
    assert big == []


def test_no_rust_type_has_over_250_lines_of_impl_in_one_module() -> None:
    # `impl<T> Trait for Type<T> {` and `impl Type {`: the type is the last path before `{`.
    opening = re.compile(r"impl\b(?:<[^{]*?>)?\s+(?:[\w:<>, ']+\s+for\s+)?([\w:]+)")
    big = []
    for path in RUST:
        sizes: dict[str, int] = {}
        for name, size in _blocks(path.read_text(encoding="utf-8").splitlines(), opening):
            sizes[name] = sizes.get(name, 0) + size
        big += [f"{_name(path)}: {name} ({size} lines)" for name, size in sizes.items() if size > CLASS_LINES]
    assert big == []


def test_the_measures_see_a_class_and_an_impl() -> None:
    """The block reader against known shapes, so a change to it cannot make the checks blind."""
    ts = ["export class Big {", "  a(): void {", "  }", "}", "class Small {}"]
    assert _blocks(ts, re.compile(r"(?:export )?class (\w+)")) == [("Big", 4), ("Small", 1)]
    rust = ["impl<T: Clone> From<T> for Wrap<T> {", "    fn from(t: T) -> Self {", "    }", "}"]
    opening = re.compile(r"impl\b(?:<[^{]*?>)?\s+(?:[\w:<>, ']+\s+for\s+)?([\w:]+)")
    assert _blocks(rust, opening) == [("Wrap", 4)]
