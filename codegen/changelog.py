"""`python -m codegen changelog [--check]`: the schema version's wire changes in CHANGELOG.md.

The graded comparison of `codegen.breaking` (the IDL against the last release) is written as
one marked block in the section of the manifest's version: `## Unreleased` until the version
is released (listed in `idl/releases.json`), then `## <version>`. The block is rewritten where
it stands, or put first in the section (before its Keep a Changelog parts, `### Added` ...)
when it is missing; everything outside the markers is written by hand and kept as it is, so
bullets others add under `## Unreleased` survive every rewrite. `--check` fails
with a diff when the block is missing or differs from what the IDL gives (`make check`).
"""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path

from . import breaking
from .idl import Idl, load

__all__ = ["BEGIN", "END", "block", "main", "updated"]

BEGIN = "<!-- wire-changes:begin: written by `make changelog` from idl/; edit idl/, not this block -->"
END = "<!-- wire-changes:end -->"

_ADVICE = {
    "wire": (
        "Wire-breaking: a peer on the old version may refuse a document the new one writes, or "
        "the reverse. Move every reader to the new version before any writer, and check the "
        "documents you write against the rows above."
    ),
    "source": (
        "Source-breaking: code against the named languages' packages may need the change each row names."
    ),
    "additive": (
        "Additive: nothing to do; an older peer keeps a new field as an unknown key and passes it on."
    ),
    "docs": "Docs: the descriptions, and so the doc comments of every package, changed.",
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def block(changes: list[breaking.Change], old: Idl, new: Idl, against: str) -> str:
    """The marked block for `old` -> `new`."""
    bump = breaking.needed_bump(changes)
    worst = next((g for g in breaking.GRADES if any(c.grade == g for c in changes)), None)
    lines = [BEGIN]
    if bump is None:
        lines.append(f"Schema {new.version}: no change to the wire since {against}.")
    else:
        why = {"wire": "wire-breaking", "source": "source-breaking"}.get(worst or "", worst or "docs")
        lines.append(
            f"Schema **{new.version}**, against {against}: the changes need a **{bump}** version "
            f"(the worst is {why})."
        )
        lines += ["", "| grade | rule | where | what |", "|---|---|---|---|"]
        for c in sorted(changes, key=lambda c: (list(breaking.GRADES).index(c.grade), c)):
            lines.append(f"| {c.label} | `{c.rule}` | `{c.where}` | {_cell(c.detail)} |")
        lines.append("")
        lines += [f"- {_ADVICE[g]}" for g in breaking.GRADES if any(c.grade == g for c in changes)]
    lines.append(END)
    return "\n".join(lines) + "\n"


def updated(text: str, version: str, released: bool, new_block: str) -> str:
    """`text` with the block of `version`'s section replaced, or inserted first in the section
    when it has none. Raises ValueError when the section is missing."""
    heading = f"## {version}" if released else "## Unreleased"
    match = re.search(rf"^{re.escape(heading)}(?:[ \t].*)?$", text, re.M)
    if match is None:
        raise ValueError(f"CHANGELOG.md has no `{heading}` section")
    start = match.end()
    following = re.search(r"^## ", text[start:], re.M)
    end = start + following.start() if following else len(text)
    section = text[start:end]
    if BEGIN in section and END in section:
        a = section.index(BEGIN)
        b = section.index(END) + len(END) + 1
        section = section[:a] + new_block + section[b:]
    else:
        rest = section.lstrip("\n")
        section = "\n\n" + new_block + ("\n" + rest if rest else "\n")
    return text[:start] + section + text[end:]


def render(root: Path) -> tuple[str, str] | None:
    """(current CHANGELOG.md, what it should be), or None when there is nothing to compare with."""
    new = load(root / "idl")
    # The section of a version is about what changed since the release before it.
    ref, name = breaking.resolve_against(root, None, new.version, before=True)
    if ref is None:
        return None
    old = breaking.idl_at_ref(root, ref)
    if old is None:
        return None
    released = any(r.version == new.version for r in breaking.releases(root))
    path = root / "CHANGELOG.md"
    text = path.read_text(encoding="utf-8")
    fresh = block(breaking.compare(old, new), old, new, name)
    return text, updated(text, new.version, released, fresh)


def main(root: Path, check: bool) -> int:
    try:
        rendered = render(root)
    except ValueError as exc:
        print(f"changelog: {exc}", file=sys.stderr)
        return 1
    if rendered is None:
        print("changelog: no release to compare with; nothing to write")
        return 0
    text, want = rendered
    if text == want:
        print("changelog: CHANGELOG.md's wire changes are current")
        return 0
    if check:
        sys.stdout.writelines(
            difflib.unified_diff(
                text.splitlines(keepends=True),
                want.splitlines(keepends=True),
                "CHANGELOG.md",
                "CHANGELOG.md (from idl/)",
            )
        )
        print(
            "\nchangelog: CHANGELOG.md's wire changes are missing or stale; run `make changelog`",
            file=sys.stderr,
        )
        return 1
    (root / "CHANGELOG.md").write_text(want, encoding="utf-8", newline="\n")
    print("changelog: wrote the wire changes into CHANGELOG.md")
    return 0
