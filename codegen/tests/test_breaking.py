"""Golden tests of the breaking-change check (`python -m codegen breaking --against <ref>`).

Each folder in `breaking_cases/` holds a `before/` and an `after/` IDL and `expected.txt`: the
exit status and the report. The comparison runs on the two loaded IDLs, without git; one more
test drives the command through a throwaway git repository.
Set TOOLNEXUS_UPDATE_GOLDENS=1 to rewrite the expected files after a deliberate change.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from codegen import breaking
from codegen.idl import load

CASES = Path(__file__).resolve().parent / "breaking_cases"
UPDATE = os.environ.get("TOOLNEXUS_UPDATE_GOLDENS") == "1"
NAMES = sorted(p.name for p in CASES.iterdir() if p.is_dir())


def _report(case: Path) -> str:
    status, lines = breaking.run(load(case / "before"), load(case / "after"), "before")
    return f"exit {status}\n" + "".join(f"{line}\n" for line in lines)


@pytest.mark.parametrize("name", NAMES)
def test_golden_case(name: str) -> None:
    case = CASES / name
    got = _report(case)
    expected = case / "expected.txt"
    if UPDATE:
        expected.write_text(got, encoding="utf-8")
    assert got == expected.read_text(encoding="utf-8")


def test_every_rule_has_a_golden_case_that_fires_it() -> None:
    fired = {
        line.split(": ")[1]
        for name in NAMES
        for line in (CASES / name / "expected.txt").read_text().splitlines()
        if not line.startswith(("exit ", "breaking: "))
    }
    assert set(breaking.RULES) <= fired


#: The rules each case is meant to fire, written independently of the golden reports.
CASE_RULES: dict[str, set[str]] = {
    "no_change": set(),
    "added_optional_field": {"added-field"},
    "removed_field": {"removed-field"},
    "added_required_field": {"added-required-field"},
    "now_required": {"now-required"},
    "now_optional": {"now-optional"},
    "changed_type": {"changed-type"},
    "enum_value_removed": {"enum-value-removed"},
    "enum_value_added": {"enum-value-added"},
    "enum_gained": {"changed-type"},
    # A new wire key is also a new name in the APIs (no `x-name` keeps the old one).
    "renamed_key": {"renamed-key", "renamed-api"},
    # `kind` a|b, required -> `type` b|c, optional: the rename and what changed with it.
    "renamed_enum_key": {
        "renamed-key",
        "renamed-api",
        "enum-value-removed",
        "enum-value-added",
        "now-optional",
    },
    "closed_object": {"closed-object"},
    "removed_type": {"removed-type", "removed-field"},
    "breaking_with_major_bump": {"removed-field"},
    "tightened_constraint": {"tightened-constraint"},
    "loosened_constraint": {"loosened-constraint"},
    "added_type": {"added-type"},
    "inserted_field": {"inserted-field"},
    "reordered_fields": {"reordered-fields"},
    "renamed_api": {"renamed-api"},
    "default_changed": {"default-changed"},
    "requirement_added": {"requirement-added", "default-changed"},
    "requirement_removed": {"requirement-removed"},
    "described": {"described"},
}


def test_every_case_has_its_rules_written_down() -> None:
    assert sorted(CASE_RULES) == NAMES


@pytest.mark.parametrize(("name", "rules"), sorted(CASE_RULES.items()))
def test_each_case_fires_exactly_its_rules(name: str, rules: set[str]) -> None:
    """Independent of the golden text: the rules each case is meant to show, and no others."""
    changes = breaking.compare(load(CASES / name / "before"), load(CASES / name / "after"))
    assert {c.rule for c in changes} == rules


def test_a_breaking_change_fails_without_a_major_bump_and_passes_with_one() -> None:
    before = load(CASES / "removed_field" / "before")
    assert breaking.run(before, load(CASES / "removed_field" / "after"))[0] == 1
    assert breaking.run(before, load(CASES / "breaking_with_major_bump" / "after"))[0] == 0
    # The additive case bumps the minor version; the same change without a bump fails.
    assert breaking.run(before, load(CASES / "added_optional_field" / "after"))[0] == 0
    assert breaking.run(load(CASES / "no_change" / "before"), load(CASES / "no_change" / "after"))[0] == 0


@pytest.mark.parametrize(
    ("old", "new", "bump", "ok"),
    [
        ("1.2.0", "2.0.0", "major", True),
        ("1.2.0", "1.3.0", "major", False),
        ("1.2.0", "1.3.0", "minor", True),
        ("1.2.0", "2.0.0", "minor", True),
        ("1.2.0", "1.2.1", "minor", False),
        ("1.2.0", "1.2.1", "patch", True),
        ("1.2.0", "1.2.0", "patch", False),
        ("1.2.0", "1.2.0", None, True),
        ("1.2.0", "1.1.9", None, False),
    ],
)
def test_the_version_must_move_by_the_worst_grade(old: str, new: str, bump: str | None, ok: bool) -> None:
    assert breaking.version_moves_enough(old, new, bump) is ok


def test_grades_need_their_bumps() -> None:
    def grade(rule: str) -> str | None:
        return breaking.needed_bump([breaking.Change("T", "f", rule, "")])

    assert [grade(r) for r in ("removed-field", "renamed-api", "added-field", "described")] == [
        "major",
        "major",
        "minor",
        "patch",
    ]
    assert breaking.needed_bump([]) is None


def test_the_comparison_is_not_symmetric_where_it_should_not_be() -> None:
    """Adding an optional field is additive; removing it (the same pair reversed) breaks."""
    case = CASES / "added_optional_field"
    assert [c.grade for c in breaking.compare(load(case / "before"), load(case / "after"))] == ["additive"]
    reverse = breaking.compare(load(case / "after"), load(case / "before"))
    assert [c.rule for c in reverse] == ["removed-field"]


def test_the_repository_idl_against_edited_copies_of_itself(tmp_path: Path) -> None:
    """The check runs on the real IDL: a copy with an optional field added passes, a copy
    with a field removed or a type closed fails, naming the field or type."""
    root = CASES.parent.parent.parent / "idl"
    original = load(root)

    def edited(name: str, edit: Callable[[dict[str, Any]], None]) -> list[str]:
        copy = tmp_path / name
        shutil.copytree(root, copy)
        path = copy / "ToolResult.json"
        schema = json.loads(path.read_text())
        edit(schema)
        path.write_text(json.dumps(schema))
        return [
            f"{c.rule}: {c.type_name}.{c.field}"
            for c in breaking.compare(original, load(copy))
            if c.grade != "additive"
        ]

    def add(s: dict[str, Any]) -> None:
        s["properties"]["durationMs"] = {"description": "How long it took.", "type": "integer"}

    def remove(s: dict[str, Any]) -> None:
        del s["properties"]["metadata"]

    def close(s: dict[str, Any]) -> None:
        s["additionalProperties"] = False

    assert edited("added", add) == []
    assert edited("removed", remove) == ["removed-field: ToolResult.metadata"]
    assert [c.split(":")[0] for c in edited("closed", close)] == ["closed-object"]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_against_a_git_ref(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(tmp_path), *args],
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.strip()

    git("init", "-q")
    (tmp_path / "README").write_text("first commit, no idl/\n")
    git("add", "README")
    git("commit", "-q", "-m", "first")
    first = git("rev-parse", "HEAD")
    shutil.copytree(CASES / "removed_field" / "before", tmp_path / "idl")
    assert breaking.main(tmp_path, first) == 0
    assert "has no idl/; nothing to compare" in capsys.readouterr().out

    git("add", "idl")
    git("commit", "-q", "-m", "idl")
    assert breaking.main(tmp_path, "HEAD") == 0

    for f in (tmp_path / "idl").glob("*.json"):
        f.unlink()
    for f in (CASES / "removed_field" / "after").glob("*.json"):
        shutil.copy(f, tmp_path / "idl" / f.name)
    assert breaking.main(tmp_path, "HEAD") == 1
    captured = capsys.readouterr()
    assert "wire-breaking: removed-field: Thing.count" in captured.out
    assert "needs a major version, and 1.2.0 -> 1.2.0 is not one" in captured.err

    assert breaking.main(tmp_path, "no-such-ref") == 2
