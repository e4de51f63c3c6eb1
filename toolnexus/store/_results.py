"""`store.results`: the whole outputs a toolkit cut, kept in the store's database (a `ResultSpill`:
`Toolkit(spill=store.results)`), so that `read_result` pages through them from any process that
opens the store. Each is keyed by its scope (the principal and session of the turn that kept it)
and its reference: one scope never reads another's."""

from __future__ import annotations

import time

from .._spill import Scope, scope_key
from ._backend import Backend

__all__ = ["StoredResults"]


class StoredResults:
    """Kept results in the `results` table (schema version 6; docs/durable.md)."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    def put(self, scope: Scope, ref: str, text: str) -> None:
        """Keep `text` under `ref` for `scope`, replacing what was kept there."""
        with self._db.transaction() as conn:
            conn.execute(
                "INSERT INTO results (scope, ref, body, kept_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (scope, ref) DO UPDATE SET body = excluded.body, kept_at = excluded.kept_at",
                (scope_key(scope), ref, text, time.time()),
            )

    def get(self, scope: Scope, ref: str) -> str | None:
        """The text kept under `ref` for `scope`, or None."""
        row = (
            self._db.connection()
            .execute("SELECT body FROM results WHERE scope = ? AND ref = ?", (scope_key(scope), ref))
            .fetchone()
        )
        return None if row is None else str(row[0])

    def purge(self, before: float) -> int:
        """Forget the results kept before `before` (a Unix time); how many were forgotten."""
        with self._db.transaction() as conn:
            return conn.execute("DELETE FROM results WHERE kept_at < ?", (before,)).rowcount
