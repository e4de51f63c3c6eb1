"""`python -m codegen breaking --against <git-ref>`: the wire changes an older peer would trip on.

The IDL in `idl/` is compared with the IDL at a git ref, type by type and field by field.
Each of these is a breaking change:

- `removed-type`: a wire type is gone;
- `removed-field`: a field is gone (a peer that sends it, or reads it, breaks);
- `added-required-field`: a new field is required (an older peer does not send it);
- `now-required`: an optional field became required;
- `now-optional`: a required field became optional (a newer peer may leave it out, as it does
  an empty string whose default is `""`; an older peer requires it);
- `changed-type`: a field's JSON type changed (including a string that gained or lost an enum);
- `enum-value-removed` / `enum-value-added`: an enum lost or gained a value (one side refuses it);
- `renamed-key`: a field was removed and one of the same type added in the same type, read as
  one renamed wire key rather than two changes (its enum values, constraints and being required
  are then compared as for a kept field);
- `closed-object`: a type that allowed unknown keys (`additionalProperties` true) now refuses them;
- `tightened-constraint`: a string gained a `pattern` or a different one (whether one regex
  accepts all another does is not decided here, so any change counts), or a higher `minLength`
  (an older peer may send a value the new one refuses). Dropping or loosening one is not breaking.

A breaking change needs a major bump of `version` in `idl/manifest.json`; without one the
command exits 1. When the ref has no `idl/` there is nothing to compare and it exits 0.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .idl import Field, Idl, TypeRef, load

__all__ = ["RULES", "Change", "compare", "idl_at_ref", "main", "major_bumped", "run"]

RULES = (
    "removed-type",
    "removed-field",
    "added-required-field",
    "now-required",
    "now-optional",
    "changed-type",
    "enum-value-removed",
    "enum-value-added",
    "renamed-key",
    "closed-object",
    "tightened-constraint",
)


@dataclass(frozen=True, order=True)
class Change:
    """One breaking change: the rule it breaks, where, and what changed."""

    type_name: str
    field: str
    rule: str
    detail: str

    def __str__(self) -> str:
        where = f"{self.type_name}.{self.field}" if self.field else self.type_name
        return f"{self.rule}: {where}: {self.detail}"


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


def _enum(ref: TypeRef) -> tuple[str, ...] | None:
    while ref.kind == "array" and ref.items is not None:
        ref = ref.items
    return ref.enum


def _leaf(ref: TypeRef) -> TypeRef:
    while ref.kind == "array" and ref.items is not None:
        ref = ref.items
    return ref


def _tightened(type_name: str, name: str, old: TypeRef, new: TypeRef) -> list[Change]:
    out: list[Change] = []
    old, new = _leaf(old), _leaf(new)
    if new.pattern is not None and new.pattern != old.pattern:
        was = f"was {old.pattern!r}" if old.pattern is not None else "had none"
        out.append(
            Change(
                type_name,
                name,
                "tightened-constraint",
                f"pattern {new.pattern!r} ({was}); older peers may not match it",
            )
        )
    if (new.min_length or 0) > (old.min_length or 0):
        out.append(
            Change(
                type_name,
                name,
                "tightened-constraint",
                f"minLength {old.min_length or 0} -> {new.min_length}; older peers may send shorter values",
            )
        )
    return out


def _compare_field(type_name: str, old: Field, new: Field) -> list[Change]:
    out: list[Change] = []
    name = new.wire_name
    if _shape(old.type) != _shape(new.type):
        out.append(Change(type_name, name, "changed-type", f"was {_shape(old.type)}, now {_shape(new.type)}"))
    else:
        before, after = _enum(old.type) or (), _enum(new.type) or ()
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
        out.extend(_tightened(type_name, name, old.type, new.type))
    if new.required and not old.required:
        out.append(Change(type_name, name, "now-required", "was optional, now required"))
    if old.required and not new.required:
        out.append(
            Change(type_name, name, "now-optional", "was required, now optional; older peers require it")
        )
    return out


def compare(old: Idl, new: Idl) -> list[Change]:
    """Every breaking change from `old` to `new`, sorted by type, field and rule."""
    changes: list[Change] = []
    new_types = {t.name: t for t in new.types}
    for old_type in old.types:
        new_type = new_types.get(old_type.name)
        if new_type is None:
            changes.append(Change(old_type.name, "", "removed-type", "the type is gone"))
            continue
        old_fields = {f.wire_name: f for f in old_type.fields}
        new_fields = {f.wire_name: f for f in new_type.fields}
        removed = [f for name, f in old_fields.items() if name not in new_fields]
        added = [f for name, f in new_fields.items() if name not in old_fields]
        for name in old_fields.keys() & new_fields.keys():
            changes.extend(_compare_field(old_type.name, old_fields[name], new_fields[name]))
        # A removed field and an added one of the same type: one renamed wire key.
        for gone in list(removed):
            twin = next((f for f in added if _shape(f.type) == _shape(gone.type)), None)
            if twin is not None:
                removed.remove(gone)
                added.remove(twin)
                changes.append(
                    Change(
                        old_type.name,
                        gone.wire_name,
                        "renamed-key",
                        f"the wire key {gone.wire_name!r} is now {twin.wire_name!r}",
                    )
                )
                changes.extend(_compare_field(old_type.name, gone, twin))
        changes.extend(
            Change(old_type.name, f.wire_name, "removed-field", f"the field ({_shape(f.type)}) is gone")
            for f in removed
        )
        changes.extend(
            Change(
                old_type.name,
                f.wire_name,
                "added-required-field",
                f"a new required field ({_shape(f.type)}) older peers do not send",
            )
            for f in added
            if f.required
        )
        if old_type.open and not new_type.open:
            changes.append(
                Change(old_type.name, "", "closed-object", "unknown keys were kept, now they are refused")
            )
    return sorted(changes)


def _major(version: str) -> int:
    head = version.split(".", 1)[0]
    if not head.isdigit():
        raise ValueError(f"version {version!r} does not start with a major number")
    return int(head)


def major_bumped(old: Idl, new: Idl) -> bool:
    """True when `new`'s schema version has a higher major number than `old`'s."""
    return _major(new.version) > _major(old.version)


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
    bumped = major_bumped(old, new)
    summary = f"{len(changes)} breaking change(s), schema version {old.version} -> {new.version}"
    if not changes:
        return 0, [f"breaking: no breaking changes against {against} (version {new.version})"]
    if bumped:
        return 0, [*lines, f"breaking: {summary}: allowed by the major version bump"]
    return 1, [
        *lines,
        f"breaking: {summary}: a breaking change needs a major version bump in idl/manifest.json",
    ]


def main(root: Path, against: str) -> int:
    try:
        old = idl_at_ref(root, against)
    except ValueError as exc:
        print(f"breaking: {exc}", file=sys.stderr)
        return 2
    status, lines = run(old, load(root / "idl"), against)
    for line in lines:
        print(line, file=sys.stdout if status == 0 or not line.startswith("breaking:") else sys.stderr)
    return status
