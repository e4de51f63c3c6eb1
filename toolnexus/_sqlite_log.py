"""The decisions a `SqliteRunStore` keeps: policies (`store.policies`) and the decision log
(`store.log`), in the store's file, shared by the host's processes.

    toolkit = Toolkit(tools, secret=..., policy_store=store.policies, decision_log=store.log)

The log is hash-chained: each entry holds the hash of the entry before it, and its own hash is
SHA-256 over its JSON with sorted keys (the link included), so an entry changed, removed or put
in later breaks the chain at that place, and `verify()` names it.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import IO, Any, Protocol

from ._engine import Decision, Policy

__all__ = ["SqliteDecisionLog", "SqlitePolicies", "create_tables"]

_POLICIES = """
CREATE TABLE IF NOT EXISTS policies (
    id TEXT PRIMARY KEY,
    tool TEXT NOT NULL,
    body TEXT NOT NULL,
    expires_at TEXT NOT NULL
)"""
_POLICIES_BY_TOOL = "CREATE INDEX IF NOT EXISTS policies_tool ON policies (tool)"
_LOG = """
CREATE TABLE IF NOT EXISTS decisions (
    seq INTEGER PRIMARY KEY,
    entry TEXT NOT NULL,
    hash TEXT NOT NULL
)"""
#: The hash the first entry chains to.
_GENESIS = hashlib.sha256(b"toolnexus.decisions.v1").hexdigest()


class _Store(Protocol):
    def _conn(self) -> sqlite3.Connection: ...

    def _transaction(self) -> AbstractContextManager[sqlite3.Connection]: ...


def create_tables(conn: sqlite3.Connection) -> None:
    conn.execute(_POLICIES)
    conn.execute(_POLICIES_BY_TOOL)
    conn.execute(_LOG)


class SqlitePolicies:
    """The store's policies (a `PolicyStore`: `Toolkit(policy_store=store.policies)`)."""

    def __init__(self, store: _Store) -> None:
        self._store = store
        self._unit = store  # (one with the store's log: `Decisions.decide_all` writes both in one transaction)

    def policies(self, tool: str | None = None) -> list[Policy]:
        """The policies kept (of `tool`, when given), expired ones too, oldest first."""
        conn = self._store._conn()
        if tool is None:
            rows = conn.execute("SELECT body FROM policies ORDER BY rowid").fetchall()
        else:
            rows = conn.execute("SELECT body FROM policies WHERE tool = ? ORDER BY rowid", (tool,)).fetchall()
        return [Policy.from_wire(json.loads(body)) for (body,) in rows]

    def keep(self, policy: Policy) -> None:
        with self._store._transaction() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO policies (id, tool, body, expires_at) VALUES (?, ?, ?, ?)",
                (policy.id, policy.tool, json.dumps(policy.to_wire()), policy.expires_at.isoformat()),
            )

    def revoke(self, policy_id: str) -> bool:
        """Remove a policy; False when there is none by that id."""
        with self._store._transaction() as conn:
            return conn.execute("DELETE FROM policies WHERE id = ?", (policy_id,)).rowcount == 1


class SqliteDecisionLog:
    """The store's decision log (a `DecisionLog`: `Toolkit(decision_log=store.log)`)."""

    def __init__(self, store: _Store) -> None:
        self._store = store
        self._unit = store

    def record(self, decision: Decision, *, principal: str | None, at: datetime) -> None:
        """Append `decision`, made by `principal` at `at`, chained to the entry before it."""
        self.record_many([decision], principal=principal, at=at)

    def record_many(self, decisions: Sequence[Decision], *, principal: str | None, at: datetime) -> None:
        """Append every one of `decisions` in one transaction: all of them, or none."""
        with self._store._transaction() as conn:
            last = conn.execute("SELECT seq, hash FROM decisions ORDER BY seq DESC LIMIT 1").fetchone()
            seq, previous = (0, _GENESIS) if last is None else (last[0], last[1])
            for decision in decisions:
                seq += 1
                entry = {
                    "seq": seq,
                    "at": at.isoformat(),
                    "by": principal,
                    **decision.to_wire(),
                    "previous": previous,
                }
                previous = _link(entry)
                conn.execute(
                    "INSERT INTO decisions (seq, entry, hash) VALUES (?, ?, ?)",
                    (seq, json.dumps(entry, ensure_ascii=False), previous),
                )

    def entries(self) -> Iterator[dict[str, Any]]:
        """Every entry, oldest first: the decision's fields (`Decision.to_wire`), `seq`, `at`
        (when), `by` (the principal who decided), `previous` (the hash of the entry before)."""
        for (text,) in self._store._conn().execute("SELECT entry FROM decisions ORDER BY seq"):
            yield json.loads(text)

    def verify(self) -> int | None:
        """The `seq` of the first entry whose link is broken (changed, removed before it, or put in
        out of order), or None when the whole chain holds."""
        previous, expected = _GENESIS, 1
        for seq, text, stored in self._store._conn().execute(
            "SELECT seq, entry, hash FROM decisions ORDER BY seq"
        ):
            try:
                entry = json.loads(text)
            except ValueError:
                return int(seq)
            if seq != expected or entry.get("seq") != seq or entry.get("previous") != previous:
                return int(seq)
            if _link(entry) != stored:
                return int(seq)
            previous, expected = stored, expected + 1
        return None

    def export(self, out: IO[str]) -> int:
        """Write every entry to `out` as JSON lines (each with its `hash`); returns how many."""
        count = 0
        for text, stored in self._store._conn().execute("SELECT entry, hash FROM decisions ORDER BY seq"):
            entry = json.loads(text)
            entry["hash"] = stored
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")
            count += 1
        return count


def _link(entry: dict[str, Any]) -> str:
    """The hash of a log entry: SHA-256 of its JSON with sorted keys, compact (it holds `previous`)."""
    text = json.dumps(entry, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
