"""The store's reads and the writes that need no claim: saving runs, reading one, listing what
waits, what has expired and what was set aside. Written once, over a `Backend`."""

from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from .._errors import UsageError, WireError
from .._result import RunResult
from ._backend import Backend, Connection
from ._types import PendingRequest, Status, StoredRun, context_of, context_text, row_of, waiting_rows

#: A claim is free to take when it is pending, or claimed with a lease that has run out while no
#: call that is not idempotent had started under it (such a call is in doubt: `RunStore.in_doubt`).
FREE = "(status = 'pending' OR (status = 'claimed' AND lease_until < ? AND doubt IS NULL))"
INSERT_WAITING = (
    "INSERT INTO waiting (run_id, position, request_id, request, tool, kind) VALUES (?, ?, ?, ?, ?, ?)"
)


class RunRows:
    """Saving, reading and listing stored runs (the part of a store that takes no claim)."""

    _db: Backend

    def save(self, run: RunResult, *, context: Any = None) -> int:
        """Store `run` (pending, or done already) and return its id. `context` is the host's, kept
        with the run (the messages so far: any JSON, up to `CONTEXT_LIMIT` bytes), returned by
        `claim` and `get`, and unchanged by a resume unless the host writes it (`resume(...,
        context=...)`, `finish(..., context=...)`)."""
        return self.save_many([run], contexts=[context])[0]

    def save_many(self, runs: Iterable[RunResult], *, contexts: Iterable[Any] | None = None) -> list[int]:
        """Store every run of `runs` in one transaction and return their ids, in order (`contexts`,
        when given: each run's context, in the same order)."""
        rows = [row_of(run) for run in runs]
        texts = [None] * len(rows) if contexts is None else list(contexts)
        if len(texts) != len(rows):
            raise UsageError(f"save_many got {len(rows)} runs and {len(texts)} contexts")
        kept = [None if c is None else context_text(c, f"run {i} of the batch") for i, c in enumerate(texts)]
        now = time.time()
        ids = []
        with self._db.transaction() as conn:
            for (status, body, expires, waiting), context in zip(rows, kept, strict=True):
                run_id = int(
                    conn.execute(
                        "INSERT INTO runs (status, body, expires_at, updated_at, context)"
                        " VALUES (?, ?, ?, ?, ?) RETURNING id",
                        (status, body, expires, now, context),
                    ).fetchone()[0]
                )
                if waiting:
                    conn.executemany(INSERT_WAITING, waiting_rows(run_id, waiting))
                ids.append(run_id)
        return ids

    def get(self, run_id: int) -> StoredRun | None:
        """The run stored under `run_id`, or None. A claim whose lease has run out reads as
        `pending` (as `claimed` while a call of it is in doubt); a row that is not a valid run is
        quarantined (see `StoredRun`)."""
        row = (
            self._db.connection()
            .execute(
                "SELECT status, body, lease_until, reason, doubt, context FROM runs WHERE id = ?", (run_id,)
            )
            .fetchone()
        )
        if row is None:
            return None
        status, body, until, reason, doubt, context = row
        if status == "claimed" and until is not None and until < time.time() and doubt is None:
            status = "pending"
        if status == "quarantined":
            return StoredRun(run_id, status, None, reason)
        try:
            return StoredRun(run_id, status, RunResult.from_json(body), reason, context_of(context))
        except WireError as exc:
            why = self._quarantine(run_id, exc)
            return StoredRun(run_id, "quarantined", None, why)

    def ids(self, status: Status | None = None) -> list[int]:
        """The ids of the stored runs (with that status, when given), oldest first."""
        where, args = ("", ()) if status is None else (" WHERE status = ?", (status,))
        conn = self._db.connection()
        return [row[0] for row in conn.execute(f"SELECT id FROM runs{where} ORDER BY id", args)]

    def pending(
        self,
        *,
        tool: str | None = None,
        kind: str | None = None,
        limit: int | None = None,
        after: PendingRequest | tuple[int, int] | None = None,
    ) -> list[PendingRequest]:
        """The requests the pending runs wait on: oldest run first, each run's in call order
        (runs being resumed, and runs with a call in doubt, are left out). Any can be answered.

        Without arguments, every one. `tool` and `kind` keep those of that tool or kind; `limit`
        returns at most that many, and `after` (the last `PendingRequest` of the page before, or
        its `(run_id, position)`) starts past it: a page costs the same wherever it starts
        (keyset pagination, on the indexes `waiting_tool` and `waiting_kind`)."""
        free = FREE.replace("status", "r.status").replace("lease_until", "r.lease_until")
        where, args = [free.replace("doubt", "r.doubt")], list[Any]([time.time()])
        if tool is not None:
            where.append("w.tool = ?")
            args.append(tool)
        if kind is not None:
            where.append("w.kind = ?")
            args.append(kind)
        if after is not None:
            run_id, position = (after.run_id, after.position) if isinstance(after, PendingRequest) else after
            where.append("(w.run_id > ? OR (w.run_id = ? AND w.position > ?))")
            args += [run_id, run_id, position]
        page = ""
        if limit is not None:
            if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
                raise UsageError(f"limit must be a positive whole number, got {limit!r}")
            page = f" LIMIT {limit}"
        rows = (
            self._db.connection()
            .execute(
                "SELECT w.run_id, w.request, w.position FROM waiting w JOIN runs r ON r.id = w.run_id"
                f" WHERE {' AND '.join(where)} ORDER BY w.run_id, w.position{page}",
                args,
            )
            .fetchall()
        )
        return [PendingRequest(run_id, text, position) for run_id, text, position in rows]

    def quarantined(self) -> list[tuple[int, str]]:
        """The rows that are not valid runs, each with why: no one can resume them."""
        rows = (
            self._db.connection()
            .execute("SELECT id, reason FROM runs WHERE status = 'quarantined' ORDER BY id")
            .fetchall()
        )
        return [(run_id, reason or "") for run_id, reason in rows]

    def expired(self, now: datetime | None = None) -> list[int]:
        """The ids of the pending runs with something expired by `now` (the wall clock when
        None): a request's `expiresAt` (an unreadable one has passed), or the run's sealed expiry."""
        when = now.timestamp() if now is not None else time.time()
        rows = (
            self._db.connection()
            .execute(
                f"SELECT id FROM runs WHERE {FREE} AND expires_at IS NOT NULL AND expires_at <= ?"
                " ORDER BY id",
                (time.time(), when),
            )
            .fetchall()
        )
        return [row[0] for row in rows]

    def expiry(self, run_id: int) -> float | None:
        """When something of the stored run expires first (a Unix time), or None."""
        row = self._db.connection().execute("SELECT expires_at FROM runs WHERE id = ?", (run_id,)).fetchone()
        return None if row is None else row[0]

    def _quarantine(self, run_id: int, exc: BaseException) -> str:
        with self._db.transaction() as conn:
            return quarantined(conn, run_id, exc, time.time())


def quarantined(conn: Connection, run_id: int, exc: BaseException, now: float) -> str:
    """Set the row `run_id` aside for good, as not a valid run (`exc` says why); returns why."""
    why = f"not a valid run: {exc}"
    conn.execute(
        "UPDATE runs SET status = 'quarantined', reason = ?, lease = NULL, lease_until = NULL,"
        " doubt = NULL, updated_at = ? WHERE id = ?",
        (why, now, run_id),
    )
    conn.execute("DELETE FROM waiting WHERE run_id = ?", (run_id,))
    return why
