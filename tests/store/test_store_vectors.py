"""Every store vector (`idl/store/`) on every Python store: `SqliteRunStore` and
`PostgresRunStore` (the `backend` fixture; PostgreSQL on the session's throwaway cluster)."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from tests import store_vectors as sv
from tests.postgres import tamper
from toolnexus.store import RunStore, SqliteRunStore

VECTORS = sv.names()


def test_there_are_vectors_for_every_part_of_the_store() -> None:
    covered = {row for name in VECTORS for row in sv.load(name)["covers"]}
    parts = {
        "save", "save_many", "get", "pending", "filters", "pages", "claim", "lease", "resume", "release",
        "finish", "expire", "quarantine", "seal", "policies", "decision log", "in doubt", "idempotent",
        "retry", "settle", "context", "schema version",
    }  # fmt: skip
    assert parts <= covered, parts - covered


def test_every_step_of_every_vector_is_one_the_host_knows() -> None:
    def steps(doc: dict[str, Any]) -> list[dict[str, Any]]:
        out = []
        for step in doc["steps"]:
            out += [step, *steps({"steps": step.get("while", [])})]
        return out

    for name in VECTORS:
        for step in steps(sv.load(name)):
            assert callable(getattr(sv.Host, step["do"], None)), f"{name}: no step {step['do']!r}"


def _set_version(store: RunStore, version: int) -> None:
    """Write the schema version behind the store's back, as a newer toolnexus would have."""
    if isinstance(store, SqliteRunStore):
        with contextlib.closing(sqlite3.connect(store.path)) as conn:
            conn.execute(f"PRAGMA user_version = {int(version)}")
        return
    with tamper(store) as conn:
        conn.execute("UPDATE toolnexus_schema SET version = ?", (version,))


def _own_version(store: RunStore) -> int:
    if isinstance(store, SqliteRunStore):
        from toolnexus.store._sqlite import SCHEMA_VERSION
    else:
        from toolnexus.store._postgres import SCHEMA_VERSION
    return SCHEMA_VERSION


@pytest.mark.parametrize("name", VECTORS)
async def test_store_vector(name: str, new_store: Callable[..., RunStore]) -> None:
    probe = new_store()
    own = _own_version(probe)
    probe.close()
    host = sv.Host(name, sv.load(name), new_store, _set_version, tamper, own)
    try:
        await host.play()
    finally:
        host.store.close()
