"""The wire vectors in idl/examples, as the conformance tests read them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "idl" / "examples"


@dataclass(frozen=True)
class Vector:
    type_name: str
    valid: bool
    path: Path

    @property
    def id(self) -> str:
        return self.path.relative_to(EXAMPLES).as_posix()

    @property
    def raw(self) -> bytes:
        return self.path.read_bytes()

    @property
    def expected(self) -> str:
        """What a valid vector re-emits: its canonical sidecar, else itself (less the final newline)."""
        canonical = self.path.parent.parent / "canonical" / self.path.name
        source = canonical if canonical.exists() else self.path
        return source.read_text(encoding="utf-8").removesuffix("\n")

    @property
    def error_path(self) -> str:
        """The JSON path an invalid vector's error must name."""
        return self.path.with_suffix(".path").read_text(encoding="utf-8").strip()


class _Repeated(ValueError):
    pass


def _once_each(pairs: list[tuple[str, object]]) -> dict[str, object]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _Repeated("an object repeats a key")
    return obj


def repeats_a_key(raw: bytes | str) -> bool:
    """Whether some object of the JSON text `raw` names a key twice (the JSON-level rule R7 of
    docs/limits.md), read by the standard `json` module, apart from the packages' readers."""
    try:
        json.loads(raw, object_pairs_hook=_once_each)
    except _Repeated:
        return True
    return False


def vectors() -> list[Vector]:
    found = []
    for type_dir in sorted(p for p in EXAMPLES.iterdir() if p.is_dir()):
        for kind in ("valid", "invalid"):
            for path in sorted((type_dir / kind).glob("*.json")):
                found.append(Vector(type_dir.name, kind == "valid", path))
    return found


def path_matches(reported: str, expected: str) -> bool:
    """A missing key may be reported at the object (`$`) or at the key itself (`$.output`)."""
    if reported == expected:
        return True
    if not reported.startswith(expected):
        return False
    rest = reported[len(expected) :]
    return rest.startswith((".", "[")) and rest.count(".") + rest.count("[") == 1


def by_value() -> dict[str, dict[str, str]]:
    """Vectors a language compares by value rather than bytes: {vector id: {language: why}}."""
    path = EXAMPLES / "by-value.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


# --- built vectors: wire documents too large to keep as files (idl/examples/built.json) ------------

BUILT = EXAMPLES / "built.json"


@dataclass(frozen=True)
class BuiltVector:
    name: str
    type_name: str
    segments: tuple[object, ...]
    valid: bool
    error_path: str | None

    def text(self) -> str:
        """The document: each segment a string as it is, or `{"repeat": s, "times": n}`."""
        return "".join(s if isinstance(s, str) else s["repeat"] * s["times"] for s in self.segments)  # type: ignore[index]


def built_vectors() -> list[BuiltVector]:
    doc = json.loads(BUILT.read_text(encoding="utf-8"))
    return [
        BuiltVector(v["name"], v["type"], tuple(v["text"]), v["valid"], v.get("path")) for v in doc["vectors"]
    ]
