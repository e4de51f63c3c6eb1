"""`python -m codegen changelog`: the generated block of wire changes in CHANGELOG.md, and what
it leaves alone (the hand-written bullets others add under `## Unreleased`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen import breaking, changelog
from codegen.idl import load

CASES = Path(__file__).resolve().parent / "breaking_cases"
ROOT = CASES.parent.parent.parent

TEXT = """# Changelog

Intro.

## Unreleased

### Wire

- a hand-written bullet about the wire

### Python runtime

- a bullet someone added

## 1.2.0

Old notes.
"""


def _block(case: str) -> str:
    old, new = load(CASES / case / "before"), load(CASES / case / "after")
    return changelog.block(breaking.compare(old, new), old, new, "1.2.0")


def test_the_block_grades_each_change_and_names_the_bump() -> None:
    block = _block("requirement_added")
    assert block.startswith(changelog.BEGIN) and block.endswith(changelog.END + "\n")
    assert "Schema **2.0.0**, against 1.2.0: the changes need a **major** version" in block
    assert '| wire-breaking | `requirement-added` | `Thing` | when "kind" is "a", it needs "note"' in block
    assert "Move every reader to the new version before any writer" in block
    additive = _block("added_type")
    assert "a **minor** version" in additive and "| additive | `added-type` | `Extra` |" in additive


def test_the_block_goes_first_and_hand_written_bullets_survive() -> None:
    once = changelog.updated(TEXT, "2.0.0", False, _block("requirement_added"))
    assert once.count(changelog.BEGIN) == 1
    unreleased = once[once.index("## Unreleased") : once.index("## 1.2.0")]
    assert unreleased.index(changelog.END) < unreleased.index("- a hand-written bullet about the wire")
    assert "- a bullet someone added" in unreleased
    assert once.endswith("## 1.2.0\n\nOld notes.\n")
    # Rewritten with another block: replaced in place, nothing else moves.
    twice = changelog.updated(once, "2.0.0", False, _block("added_type"))
    assert twice.count(changelog.BEGIN) == 1 and "added-type" in twice and "requirement-added" not in twice
    assert twice.replace(_block("added_type"), "") == once.replace(_block("requirement_added"), "")
    # Idempotent.
    assert changelog.updated(twice, "2.0.0", False, _block("added_type")) == twice


def test_a_section_without_the_block_gets_it_first_and_a_missing_section_is_an_error() -> None:
    text = "# Changelog\n\n## Unreleased\n\n### Added\n\n- Rust: a bullet\n"
    done = changelog.updated(text, "2.0.0", False, _block("described"))
    assert done.index("## Unreleased") < done.index(changelog.BEGIN) < done.index("### Added")
    assert "### Wire" not in done
    assert done.endswith("### Added\n\n- Rust: a bullet\n")
    # A released version's block is in its own section.
    with pytest.raises(ValueError, match=r"no `## 2\.0\.0` section"):
        changelog.updated(text, "2.0.0", True, _block("described"))


def test_the_repository_changelog_is_current() -> None:
    rendered = changelog.render(ROOT)
    assert rendered is not None, "idl/releases.json names a release"
    text, want = rendered
    assert text == want, "CHANGELOG.md is stale: run `make changelog`"


def test_a_released_version_compares_with_itself_and_its_section_with_the_one_before(tmp_path: Path) -> None:
    (tmp_path / "idl").mkdir()
    (tmp_path / "idl" / "releases.json").write_text(
        '{"releases": [{"version": "2.0.0", "commit": "a"}, {"version": "3.0.0", "commit": "b"}]}'
    )
    assert breaking.baseline(tmp_path, "3.0.0") == breaking.Release("3.0.0", "b")
    assert breaking.baseline(tmp_path, "3.0.0", before=True) == breaking.Release("2.0.0", "a")
    assert breaking.baseline(tmp_path, "3.1.0") == breaking.Release("3.0.0", "b")
    assert breaking.baseline(tmp_path, "3.1.0", before=True) == breaking.Release("3.0.0", "b")
    assert breaking.baseline(tmp_path, "2.0.0", before=True) is None
