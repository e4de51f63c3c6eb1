"""The store's reads and the writes that need no claim: saving runs, reading one, listing what
waits, what has expired and what was set aside. Written once, over a `Backend`."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from itertools import starmap
from typing import Any

from .._errors import UsageError, WireError
from .._result import RunResult
from ._backend import Backend, Connection
from ._types import PendingRequest, Status, StoredRun, context_of, context_text, row_of, waiting_rows

#: A claim is free to take when it is pending, or claimed with a lease that has run out while no
#: call that is not idempotent had started under it (such a call is in doubt: `RunStore.in_doubt`).
FREE = "(status = 'pending' OR (status = 'claimed' AND lease_until < ? AND doubt IS NULL))"
INSERT_WAITING = (
    "INSERT INTO waiting (run_id, position, request_id, request, tool, kind, principal, session)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


class RunRows:
    """Saving, reading and listing stored runs (the part of a store that takes no claim)."""

    _db: Backend
    _clock: Callable[[], float]

    def save(
        self, run: RunResult, *, context: Any = None, principal: str | None = None, session: str | None = None
    ) -> int:
        """Store `run` (pending, or done already) and return its id. `context` is the host's, kept
        with the run (the messages so far: any JSON, up to `CONTEXT_LIMIT` bytes), returned by
        `claim` and `get`, and unchanged by a resume unless the host writes it (`resume(...,
        context=...)`, `finish(..., context=...)`). `principal` and `session` say whose run it is
        and in which session, for `pending(principal=, session=)`; kept as given, for the run's
        life (the seal's binding to a principal is `run_calls(principal=)`'s, apart from this)."""
        return self.save_many([run], contexts=[context], principals=[principal], sessions=[session])[0]

    def save_many(
        self,
        runs: Iterable[RunResult],
        *,
        contexts: Iterable[Any] | None = None,
        principals: Iterable[str | None] | None = None,
        sessions: Iterable[str | None] | None = None,
    ) -> list[int]:
        """Store every run of `runs` in one transaction and return their ids, in order (`contexts`,
        `principals`, `sessions`, when given: each run's, in the same order; see `save`)."""
        rows = [row_of(run) for run in runs]
        texts = _each(contexts, len(rows), "contexts")
        kept = [None if c is None else context_text(c, f"run {i} of the batch") for i, c in enumerate(texts)]
        whose = _each(principals, len(rows), "principals")
        where = _each(sessions, len(rows), "sessions")
        for i, value in enumerate([*whose, *where]):
            if value is not None and not isinstance(value, str):
                name = "principal" if i < len(rows) else "session"
                raise UsageError(f"the {name} of run {i % len(rows)} of the batch is {value!r}, not a string")
        now = self._clock()
        ids = []
        with self._db.transaction() as conn:
            for (status, body, expires, waiting), context, principal, session in zip(
                rows, kept, whose, where, strict=True
            ):
                run_id = int(
                    conn.execute(
                        "INSERT INTO runs (status, body, expires_at, updated_at, context, principal, session)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                        (status, body, expires, now, context, principal, session),
                    ).fetchone()[0]
                )
                if waiting:
                    conn.executemany(INSERT_WAITING, waiting_rows(run_id, waiting, principal, session))
                ids.append(run_id)
        return ids

    def get(self, run_id: int) -> StoredRun | None:
        """The run stored under `run_id`, or None. A claim whose lease has run out reads as
        `pending` (as `claimed` while a call of it is in doubt); a row that is not a valid run is
        quarantined (see `StoredRun`)."""
        row = (
            self._db.connection()
            .execute(
                "SELECT status, body, lease_until, reason, doubt, context, principal, session FROM runs"
                " WHERE id = ?",
                (run_id,),
            )
            .fetchone()
        )
        if row is None:
            return None
        status, body, until, reason, doubt, context, principal, session = row
        if status == "claimed" and until is not None and until < self._clock() and doubt is None:
            status = "pending"
        if status == "quarantined":
            return StoredRun(run_id, status, None, reason, principal=principal, session=session)
        try:
            run = RunResult.from_json(body)
        except WireError as exc:
            why = self._quarantine(run_id, exc)
            return StoredRun(run_id, "quarantined", None, why, principal=principal, session=session)
        return StoredRun(run_id, status, run, reason, context_of(context), principal, session)

    def ids(self, status: Status | None = None) -> list[int]:
        """The ids of the stored runs (with that status, when given), oldest first."""
        where, args = ("", ()) if status is None else (" WHERE status = ?", (status,))
        conn = self._db.connection()
        return [row[0] for row in conn.execute(f"SELECT id FROM runs{where} ORDER BY id", args)]

    def pending(
        self,
        *,
        principal: str | None = None,
        session: str | None = None,
        tool: str | None = None,
        kind: str | None = None,
        limit: int | None = None,
        after: PendingRequest | tuple[int, int] | None = None,
    ) -> list[PendingRequest]:
        """The requests the pending runs wait on: oldest run first, each run's in call order
        (runs being resumed, and runs with a call in doubt, are left out). Any can be answered.

        Without arguments, every one. `principal` and `session` keep those of the runs saved with
        that principal or session (`save(run, principal=, session=)`), `tool` and `kind` those of
        that tool or kind; `limit` returns at most that many, and `after` (the last
        `PendingRequest` of the page before, or its `(run_id, position)`) starts past it: a page
        costs the same wherever it starts (keyset pagination, on the indexes `waiting_principal`,
        `waiting_session`, `waiting_tool` and `waiting_kind`)."""
        sql, args = pending_query(self._clock(), principal, session, tool, kind, limit, after)
        rows = self._db.connection().execute(sql, args).fetchall()
        return list(starmap(PendingRequest, rows))  # each row is (run_id, request, position)

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
        when = now.timestamp() if now is not None else self._clock()
        rows = (
            self._db.connection()
            .execute(
                f"SELECT id FROM runs WHERE {FREE} AND expires_at IS NOT NULL AND expires_at <= ?"
                " ORDER BY id",
                (self._clock(), when),
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
            why = quarantined(conn, run_id, exc, self._clock())
            self._db.changed(conn, run_id)
            return why


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


def _each(values: Iterable[Any] | None, count: int, name: str) -> list[Any]:
    """One value of `values` (a `save_many` keyword) per run of the batch; None for each when absent."""
    out = [None] * count if values is None else list(values)
    if len(out) != count:
        raise UsageError(f"save_many got {count} runs and {len(out)} {name}")
    return out


def _keyset(after: PendingRequest | tuple[int, int]) -> tuple[int, int]:
    """Where a page of `pending` starts: past this `(run_id, position)`."""
    if isinstance(after, PendingRequest):
        return after.run_id, after.position
    try:
        run_id, position = after
    except (TypeError, ValueError):
        raise UsageError(
            f"after must be a PendingRequest or a (run_id, position) pair, got {after!r}"
        ) from None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (run_id, position)):
        raise UsageError(f"after must be a PendingRequest or a (run_id, position) pair, got {after!r}")
    return run_id, position


def pending_query(
    now: float,
    principal: str | None,
    session: str | None,
    tool: str | None,
    kind: str | None,
    limit: int | None,
    after: PendingRequest | tuple[int, int] | None,
) -> tuple[str, list[Any]]:
    """The statement of a page of `RunRows.pending`, and its arguments."""
    free = FREE.replace("status", "r.status").replace("lease_until", "r.lease_until")
    where, args = [free.replace("doubt", "r.doubt")], list[Any]([now])
    for column, value in (("principal", principal), ("session", session), ("tool", tool), ("kind", kind)):
        if value is not None:
            if not isinstance(value, str):
                raise UsageError(f"{column} must be a string, got {value!r}")
            where.append(f"w.{column} = ?")
            args.append(value)
    if after is not None:
        run_id, position = _keyset(after)
        # A row comparison, which both databases take as a range of the index (an OR of the two
        # halves is a filter over every row before it); `r.id >= ?` starts the join there too.
        where.append("(w.run_id, w.position) > (?, ?) AND r.id >= ?")
        args += [run_id, position, run_id]
    page = ""
    if limit is not None:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise UsageError(f"limit must be a positive whole number, got {limit!r}")
        page = f" LIMIT {limit}"
    sql = (
        "SELECT w.run_id, w.request, w.position FROM waiting w JOIN runs r ON r.id = w.run_id"
        f" WHERE {' AND '.join(where)} ORDER BY w.run_id, w.position{page}"
    )
    return sql, args
