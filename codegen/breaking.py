"""`python -m codegen breaking [--against <git-ref>]`: every change to the contract, graded.

The IDL in `idl/` is compared with the IDL at a git ref (by default the last release in
`idl/releases.json`), type by type and field by field. Every change gets one grade:

- **wire-breaking** (`wire`): a document one version writes, the other refuses or reads
  differently. Peers on the two versions cannot talk until both move.
- **source-breaking** (`source`, for named languages): the wire is unchanged, but code written
  against the old package of that language may no longer compile or mean the same.
- **additive** (`additive`): nothing that worked stops working; a new optional field (an older
  peer keeps it as an unknown key and passes it on) or a new type.
- **docs** (`docs`): only a description changed; the packages' doc comments follow it.

The rules, each with its grade (and the languages, for source-breaking ones):

- `removed-type`, `removed-field`, `added-required-field`, `now-required`, `now-optional`,
  `changed-type` (a field's JSON type, including a string that gained or lost an enum),
  `enum-value-removed`, `enum-value-added` (one side refuses the value), `renamed-key` (a field
  removed and one of the same type added in the same type, read as one renamed wire key; its
  enum values, constraints and being required are then compared as for a kept field),
  `closed-object` (unknown keys were kept, now refused), `tightened-constraint` (a string gained
  a `pattern` or another one, or a higher `minLength`, or a number a `minimum` or `maximum`, or
  one moved inward: an older peer may send what the newer one refuses), `loosened-constraint`
  (the reverse: a newer peer may send what an older one refuses),
  `default-changed` (an absent field now stands for another value), `requirement-added`,
  `requirement-removed` (the type's `allOf` requirements; a changed one is both): **wire**.
- `renamed-api` (`x-name` changed; the wire key is the same): **source** for Python and Rust,
  whose attributes and struct fields carry the API name; TypeScript uses the wire keys.
- `inserted-field` (a new optional field before an existing one), `reordered-fields`:
  **source** for Python, whose generated constructor takes the fields positionally in schema
  order (required first); a reorder also changes the order keys are written in, which every
  reader accepts.
- `added-type`, `added-field` (a new optional field after the existing ones): **additive**.
- `described`: **docs**.

The version in `idl/manifest.json` must move by at least what the worst grade needs: a major
version for wire-breaking or source-breaking changes (every package carries the schema's
version, so a break in one language's package is a major version of it), a minor one for
additive changes, a patch for docs; and it must move whenever the IDL changed at all, so two
schemas never share a version. Otherwise the command exits 1. When the ref has no `idl/` there
is nothing to compare and it exits 0. docs/versioning.md is the policy this enforces.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .idl import Field, Idl, Requirement, TypeRef, WireType, load

__all__ = [
    "GRADES",
    "RULES",
    "Change",
    "Release",
    "baseline",
    "compare",
    "idl_at_ref",
    "main",
    "needed_bump",
    "releases",
    "run",
    "version_moves_enough",
]

#: The grades, worst first, and the version part each needs to move.
GRADES = {"wire": "major", "source": "major", "additive": "minor", "docs": "patch"}
_LABEL = {"wire": "wire-breaking", "source": "source-breaking", "additive": "additive", "docs": "docs"}
_LANGUAGES = {"python": "Python", "typescript": "TypeScript", "rust": "Rust"}

#: Every rule: its grade, and the languages whose source it breaks (source-breaking rules only).
RULES: dict[str, tuple[str, tuple[str, ...]]] = {
    "removed-type": ("wire", ()),
    "removed-field": ("wire", ()),
    "added-required-field": ("wire", ()),
    "now-required": ("wire", ()),
    "now-optional": ("wire", ()),
    "changed-type": ("wire", ()),
    "enum-value-removed": ("wire", ()),
    "enum-value-added": ("wire", ()),
    "renamed-key": ("wire", ()),
    "closed-object": ("wire", ()),
    "tightened-constraint": ("wire", ()),
    "loosened-constraint": ("wire", ()),
    "default-changed": ("wire", ()),
    "requirement-added": ("wire", ()),
    "requirement-removed": ("wire", ()),
    "renamed-api": ("source", ("python", "rust")),
    "inserted-field": ("source", ("python",)),
    "reordered-fields": ("source", ("python",)),
    "added-type": ("additive", ()),
    "added-field": ("additive", ()),
    "described": ("docs", ()),
}


@dataclass(frozen=True, order=True)
class Change:
    """One change: the rule it falls under, where, and what changed."""

    type_name: str
    field: str
    rule: str
    detail: str

    @property
    def grade(self) -> str:
        return RULES[self.rule][0]

    @property
    def languages(self) -> tuple[str, ...]:
        return RULES[self.rule][1]

    @property
    def label(self) -> str:
        """`wire-breaking`, `source-breaking (Python, Rust)`, `additive` or `docs`."""
        if self.grade == "source":
            return f"{_LABEL['source']} ({', '.join(_LANGUAGES[lang] for lang in self.languages)})"
        return _LABEL[self.grade]

    @property
    def where(self) -> str:
        return f"{self.type_name}.{self.field}" if self.field else self.type_name

    def __str__(self) -> str:
        return f"{self.label}: {self.rule}: {self.where}: {self.detail}"


def _shape(ref: TypeRef) -> str:
    """The JSON type of a field, without enum values: `string`, `array<ref:ContentPart>`..."""
    if ref.kind == "ref":
        return f"ref:{ref.ref}"
    if ref.kind == "array":
        assert ref.items is not None
        return f"array<{_shape(ref.items)}>"
    if ref.kind == "string" and ref.enum is not None:
        return "string(enum)"
    return ref.kind


def _leaf(ref: TypeRef) -> TypeRef:
    while ref.kind == "array" and ref.items is not None:
        ref = ref.items
    return ref


def _constraints(type_name: str, name: str, old: TypeRef, new: TypeRef) -> list[Change]:
    out: list[Change] = []
    old, new = _leaf(old), _leaf(new)
    if new.pattern != old.pattern:
        if new.pattern is not None:
            was = f"was {old.pattern!r}" if old.pattern is not None else "had none"
            detail = f"pattern {new.pattern!r} ({was}); older peers may send what it refuses"
            out.append(Change(type_name, name, "tightened-constraint", detail))
        else:
            detail = f"pattern {old.pattern!r} dropped; newer peers may send what older ones refuse"
            out.append(Change(type_name, name, "loosened-constraint", detail))
    for key, low in (("minimum", True), ("maximum", False)):
        was, now = getattr(old, key), getattr(new, key)
        if was == now:
            continue
        # A bound added, or moved inward, refuses values older peers send; the reverse lets
        # newer peers send values older ones refuse.
        tighter = was is None or (now is not None and (now > was if low else now < was))
        detail = f"{key} {'none' if was is None else was} -> {'none' if now is None else now}; " + (
            "older peers may send values it refuses"
            if tighter
            else "newer peers may send values older ones refuse"
        )
        out.append(
            Change(type_name, name, "tightened-constraint" if tighter else "loosened-constraint", detail)
        )
    before, after = old.min_length or 0, new.min_length or 0
    if after > before:
        detail = f"minLength {before} -> {after}; older peers may send shorter values"
        out.append(Change(type_name, name, "tightened-constraint", detail))
    elif after < before:
        detail = f"minLength {before} -> {after}; newer peers may send values older ones refuse"
        out.append(Change(type_name, name, "loosened-constraint", detail))
    return out


def _compare_field(type_name: str, old: Field, new: Field) -> list[Change]:
    out: list[Change] = []
    name = new.wire_name
    if _shape(old.type) != _shape(new.type):
        out.append(Change(type_name, name, "changed-type", f"was {_shape(old.type)}, now {_shape(new.type)}"))
    else:
        before, after = _leaf(old.type).enum or (), _leaf(new.type).enum or ()
        out.extend(
            Change(type_name, name, "enum-value-removed", f"{value!r} is no longer allowed")
            for value in before
            if value not in after
        )
        out.extend(
            Change(type_name, name, "enum-value-added", f"{value!r} is new; older peers refuse it")
            for value in after
            if value not in before
        )
        out.extend(_constraints(type_name, name, old.type, new.type))
    if new.required and not old.required:
        out.append(Change(type_name, name, "now-required", "was optional, now required"))
    if old.required and not new.required:
        out.append(
            Change(type_name, name, "now-optional", "was required, now optional; older peers require it")
        )
    if old.default != new.default and not (new.required or old.required):
        detail = f"an absent field meant {json.dumps(old.default)}, now {json.dumps(new.default)}"
        out.append(Change(type_name, name, "default-changed", detail))
    if old.api_name != new.api_name:
        detail = f"named {old.api_name!r} in the APIs, now {new.api_name!r} (the wire key is the same)"
        out.append(Change(type_name, name, "renamed-api", detail))
    if old.description != new.description:
        out.append(Change(type_name, name, "described", "the description changed"))
    return out


def _requirements(old: WireType, new: WireType) -> list[Change]:
    def key(r: Requirement) -> tuple[object, ...]:
        return (r.when, r.values, r.any_of)

    def say(r: Requirement) -> str:
        values = " or ".join(f'"{v}"' for v in r.values)
        fields = " or ".join(f'"{f}"' for f in r.any_of)
        return f'when "{r.when}" is {values}, it needs {fields}'

    before = {key(r): r for r in old.requires}
    after = {key(r): r for r in new.requires}
    out = [
        Change(new.name, "", "requirement-added", f"{say(r)}; older peers may send what it refuses")
        for k, r in after.items()
        if k not in before
    ]
    out += [
        Change(
            new.name, "", "requirement-removed", f"{say(r)} no more; newer peers may send what older refuse"
        )
        for k, r in before.items()
        if k not in after
    ]
    kept = [k for k in after if k in before]
    if [before[k].description for k in kept] != [after[k].description for k in kept]:
        out.append(Change(new.name, "", "described", "a requirement's description changed"))
    return out


def _compare_type(old_type: WireType, new_type: WireType) -> list[Change]:
    name = old_type.name
    changes: list[Change] = []
    old_fields = {f.wire_name: f for f in old_type.fields}
    new_fields = {f.wire_name: f for f in new_type.fields}
    removed = [f for n, f in old_fields.items() if n not in new_fields]
    added = [f for n, f in new_fields.items() if n not in old_fields]
    for n in old_fields.keys() & new_fields.keys():
        changes.extend(_compare_field(name, old_fields[n], new_fields[n]))
    # A removed field and an added one of the same type: one renamed wire key.
    for gone in list(removed):
        twin = next((f for f in added if _shape(f.type) == _shape(gone.type)), None)
        if twin is not None:
            removed.remove(gone)
            added.remove(twin)
            detail = f"the wire key {gone.wire_name!r} is now {twin.wire_name!r}"
            changes.append(Change(name, gone.wire_name, "renamed-key", detail))
            changes.extend(c for c in _compare_field(name, gone, twin) if c.rule != "described")
    changes.extend(
        Change(name, f.wire_name, "removed-field", f"the field ({_shape(f.type)}) is gone") for f in removed
    )
    order = [f.wire_name for f in new_type.fields]
    last_old = max((order.index(n) for n in old_fields if n in new_fields), default=-1)
    for f in added:
        if f.required:
            detail = f"a new required field ({_shape(f.type)}) older peers do not send"
            changes.append(Change(name, f.wire_name, "added-required-field", detail))
        elif order.index(f.wire_name) < last_old:
            detail = (
                f"a new optional field ({_shape(f.type)}) before existing ones: the Python "
                "constructor's later positional parameters move"
            )
            changes.append(Change(name, f.wire_name, "inserted-field", detail))
        else:
            detail = f"a new optional field ({_shape(f.type)}); older peers keep it as an unknown key"
            changes.append(Change(name, f.wire_name, "added-field", detail))
    kept_old = [n for n in old_fields if n in new_fields]
    kept_new = [n for n in order if n in old_fields]
    if kept_old != kept_new:
        detail = f"fields now in the order {', '.join(kept_new)} (were {', '.join(kept_old)})"
        changes.append(Change(name, "", "reordered-fields", detail))
    if old_type.open and not new_type.open:
        changes.append(Change(name, "", "closed-object", "unknown keys were kept, now they are refused"))
    if not old_type.open and new_type.open:
        detail = "unknown keys were refused, now kept; newer peers may send keys older ones refuse"
        changes.append(Change(name, "", "loosened-constraint", detail))
    changes.extend(_requirements(old_type, new_type))
    if old_type.description != new_type.description:
        changes.append(Change(name, "", "described", "the type's description changed"))
    return changes


def compare(old: Idl, new: Idl) -> list[Change]:
    """Every change from `old` to `new`, graded, sorted by type, field and rule."""
    changes: list[Change] = []
    new_types = {t.name: t for t in new.types}
    old_names = {t.name for t in old.types}
    for old_type in old.types:
        new_type = new_types.get(old_type.name)
        if new_type is None:
            changes.append(Change(old_type.name, "", "removed-type", "the type is gone"))
        else:
            changes.extend(_compare_type(old_type, new_type))
    changes.extend(
        Change(t.name, "", "added-type", "a new wire type") for t in new.types if t.name not in old_names
    )
    if old.description != new.description:
        changes.append(Change("(schema)", "", "described", "the schema's description changed"))
    return sorted(changes)


# -- versions ---------------------------------------------------------------------------------


def _parts(version: str) -> tuple[int, int, int]:
    pieces = version.split(".")
    if len(pieces) != 3 or not all(p.isdigit() for p in pieces):
        raise ValueError(f"version {version!r} is not MAJOR.MINOR.PATCH")
    major, minor, patch = (int(p) for p in pieces)
    return major, minor, patch


def needed_bump(changes: list[Change]) -> str | None:
    """`major`, `minor` or `patch` for the worst grade among `changes`; None for no change."""
    for grade in GRADES:  # worst first
        if any(c.grade == grade for c in changes):
            return GRADES[grade]
    return None


def version_moves_enough(old: str, new: str, bump: str | None) -> bool:
    """Whether `old` -> `new` moves the part `bump` names (a major bump covers a minor one...)."""
    a, b = _parts(old), _parts(new)
    if bump is None:
        return b >= a
    if bump == "major":
        return b[0] > a[0]
    if bump == "minor":
        return b[0] > a[0] or (b[0] == a[0] and b[1] > a[1])
    return b > a


# -- releases and git -----------------------------------------------------------------------


@dataclass(frozen=True)
class Release:
    """A released schema version and the commit whose `idl/` it is."""

    version: str
    commit: str


def releases(root: Path) -> list[Release]:
    """`idl/releases.json`: the released versions, oldest first."""
    path = root / "idl" / "releases.json"
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return [Release(r["version"], r["commit"]) for r in data["releases"]]


def baseline(root: Path, version: str, *, before: bool = False) -> Release | None:
    """The release `version` is compared with: the newest one not newer than it (the version
    itself once it is released, so a released schema compares with its own), or with
    `before`, the newest one older than it (what its changelog section is about)."""
    older = [
        r
        for r in releases(root)
        if _parts(r.version) < _parts(version) or (not before and r.version == version)
    ]
    return max(older, key=lambda r: _parts(r.version), default=None)


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False)


def idl_at_ref(root: Path, ref: str) -> Idl | None:
    """The IDL in `idl/` at git `ref`, or None when the ref has no `idl/manifest.json`.

    Raises `ValueError` when `ref` is not a commit.
    """
    if _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").returncode != 0:
        raise ValueError(f"{ref!r} is not a commit in {root}")
    listing = _git(root, "ls-tree", "--name-only", f"{ref}", "idl/")
    names = [Path(line).name for line in listing.stdout.decode().splitlines()]
    if "manifest.json" not in names:
        return None
    with tempfile.TemporaryDirectory(prefix="toolnexus-idl-") as tmp:
        out = Path(tmp)
        for name in names:
            if not name.endswith(".json"):
                continue
            shown = _git(root, "show", f"{ref}:idl/{name}")
            if shown.returncode != 0:
                raise ValueError(f"git show {ref}:idl/{name}: {shown.stderr.decode().strip()}")
            (out / name).write_bytes(shown.stdout)
        return load(out)


def run(old: Idl | None, new: Idl, against: str = "the ref") -> tuple[int, list[str]]:
    """The exit status and the report lines for `old` -> `new`."""
    if old is None:
        return 0, [f"breaking: {against} has no idl/; nothing to compare"]
    changes = compare(old, new)
    lines = [str(change) for change in changes]
    bump = needed_bump(changes)
    counts = ", ".join(
        f"{sum(c.grade == g for c in changes)} {_LABEL[g]}"
        for g in GRADES
        if any(c.grade == g for c in changes)
    )
    head = f"breaking: schema {old.version} -> {new.version} against {against}: {counts or 'no changes'}"
    try:
        ok = version_moves_enough(old.version, new.version, bump)
    except ValueError as exc:
        return 2, [*lines, f"{head}; {exc}"]
    if bump is None:
        return (0 if ok else 1), [*lines, f"{head}; the version may not go down" if not ok else head]
    need = f"needs a {bump} version"
    if ok:
        return 0, [*lines, f"{head}; {need}: {old.version} -> {new.version} is one"]
    return 1, [*lines, f"{head}; {need}, and {old.version} -> {new.version} is not one (idl/manifest.json)"]


def resolve_against(
    root: Path, against: str | None, version: str, *, before: bool = False
) -> tuple[str | None, str]:
    """The git ref to compare with, and how the report names it (`before`: see `baseline`)."""
    if against is not None:
        return against, against
    release = baseline(root, version, before=before)
    if release is None:
        return None, "no release (idl/releases.json lists none)"
    return release.commit, f"{release.version} (the last release, {release.commit[:10]})"


def main(root: Path, against: str | None = None) -> int:
    new = load(root / "idl")
    ref, name = resolve_against(root, against, new.version)
    if ref is None:
        print(f"breaking: nothing to compare with: {name}")
        return 0
    try:
        old = idl_at_ref(root, ref)
    except ValueError as exc:
        print(f"breaking: {exc}", file=sys.stderr)
        return 2
    status, lines = run(old, new, name)
    for line in lines:
        print(line, file=sys.stdout if status == 0 or not line.startswith("breaking:") else sys.stderr)
    return status
