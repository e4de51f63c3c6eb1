"""The code blocks of the docs, which are examples and so are tests.

The pages are `README.md` and every page under `docs/` but the generated wire reference
(`docs/reference/`). A block fenced ```python, ```ts or ```rust is a whole program, which the
tests run: Python in `tests/project/test_examples.py` (and outside the checkout in
`tests/dist/python.sh`), Rust in `tests/project/test_readme_rust.py`, TypeScript in
`tests/typescript/examples.test.ts` (which lists the pages the same way). A fragment that does
not run on its own is fenced ```py (or ```sh, ```text, ```toml) and is not run.

Standard library only: `tests/dist/python.sh` loads this file from a virtualenv that has
nothing but the built wheel.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Block", "blocks", "pages"]

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Block:
    """One code block: the page it is on (relative to the repository), the line its fence is
    on, and its code."""

    page: str
    line: int
    code: str

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line}"


def pages(root: Path = ROOT) -> list[Path]:
    """README.md, then every Markdown page under docs/ (sorted) but docs/reference/."""
    docs = root / "docs"
    found = sorted(p for p in docs.rglob("*.md") if (docs / "reference") not in p.parents)
    return [root / "README.md", *found]


def blocks(language: str, root: Path = ROOT) -> list[Block]:
    """Every block fenced exactly ```<language> on the pages, in page order."""
    fence = re.compile(rf"^```{re.escape(language)}\n(.*?)^```$", re.S | re.M)
    out = []
    for page in pages(root):
        text = page.read_text(encoding="utf-8")
        for m in fence.finditer(text):
            out.append(Block(str(page.relative_to(root)), text.count("\n", 0, m.start()) + 1, m.group(1)))
    return out
