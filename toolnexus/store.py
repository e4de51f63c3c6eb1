"""An embedded store for pending runs, for a host on one machine: SQLite, no server.

`Toolkit.run_calls` without a `wait_for` returns a pending `RunResult`: plain data to keep
until a person answers, maybe in another process. `SqliteRunStore` keeps it, hands it out
once, and stores what resuming returns:

    store = SqliteRunStore("runs.sqlite3")
    run_id = store.save(await toolkit.run_calls(calls))       # process 1
    for waiting in store.pending(): ...                        # any process: what to ask
    run = await store.resume(toolkit, run_id, answer)          # process 2: claim, resume, save
    await store.expire(toolkit)                                # settle the requests that expired

`resume` claims the run with a compare-and-swap (`pending` → `claimed`) in one SQLite
transaction, so of two processes that resume the same run one runs the tool and the other
gets `ResumeError`, and a request is answered once. Several processes on one machine may
share the file; across machines, use `toolnexus.temporal`.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from ._errors import ResumeError
from ._loop import parse_time
from ._result import Answer, Request, RunResult
from ._toolkit import Toolkit

__all__ = ["PendingRequest", "SqliteRunStore", "StoredRun"]

#: What a stored run is: waiting for an answer, being resumed by one process, finished, or
#: refused for good (its seal did not hold: it was altered in the database).
Status = Literal["pending", "claimed", "done", "refused"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    status TEXT NOT NULL,
    pending_id TEXT,
    expires_at REAL,
    body TEXT NOT NULL,
    answered TEXT NOT NULL DEFAULT '[]',
    claimed_at REAL,
    updated_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_waiting ON runs (status, expires_at);
"""


@dataclass(frozen=True, slots=True)
class StoredRun:
    """A run as stored: its id, its status and the run itself."""

    id: int
    status: Status
    run: RunResult


@dataclass(frozen=True, slots=True)
class PendingRequest:
    """A request a stored run waits on: answer it with `SqliteRunStore.resume(toolkit, run_id, …)`."""

    run_id: int
    request: Request


def _expiry(request: Request) -> float | None:
    """`expiresAt` as a Unix time; None for no expiry, 0 when unreadable (it counts as passed)."""
    if not request.expires_at:
        return None
    try:
        return parse_time(request.expires_at).timestamp()
    except ValueError:
        return 0.0


def _waiting(run: RunResult) -> list[Request]:
    """The requests `run` waits on, in call order (a run stored before `requests` existed has one)."""
    if run.status != "pending" or run.pending is None:
        return []
    return list(run.requests) or [run.pending]


def _first_expiry(requests: list[Request]) -> float | None:
    times = [t for t in map(_expiry, requests) if t is not None]
    return min(times, default=None)


class SqliteRunStore:
    """Pending runs in one SQLite file, each handed out to one resumer at a time.

    Every method opens its own connection, so one store may be used from several threads,
    and several processes may open the same file. `timeout` is how long (seconds) a write
    waits for another process's write to finish.
    """

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = 30.0) -> None:
        self.path = os.fspath(path)
        self._timeout = timeout
        with self._connect() as conn:
            conn.executescript(_SCHEMA)

    def __repr__(self) -> str:
        return f"<SqliteRunStore {self.path!r}>"

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(self.path, timeout=self._timeout, isolation_level=None)) as conn:
            conn.execute("PRAGMA journal_mode=WAL")
            yield conn

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction, taken at once (`BEGIN IMMEDIATE`), so reads in it are current."""
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    # -- saving and reading -------------------------------------------------------------

    def save(self, run: RunResult) -> int:
        """Store `run` (pending, or done already) and return its id."""
        waiting = _waiting(run)
        status = "pending" if waiting else "done"
        with self._transaction() as conn:
            cur = conn.execute(
                "INSERT INTO runs (status, pending_id, expires_at, body, updated_at) VALUES (?, ?, ?, ?, ?)",
                (status, run.pending.id if waiting and run.pending else None, _first_expiry(waiting),
                 run.to_json(), time.time()),
            )  # fmt: skip
        assert cur.lastrowid is not None
        return cur.lastrowid

    def get(self, run_id: int) -> StoredRun | None:
        """The run stored under `run_id`, or None."""
        with self._connect() as conn:
            row = conn.execute("SELECT status, body FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            return None
        return StoredRun(run_id, row[0], RunResult.from_json(row[1]))

    def ids(self, status: Status | None = None) -> list[int]:
        """The ids of the stored runs (with that status, when given), oldest first."""
        with self._connect() as conn:
            if status is None:
                rows = conn.execute("SELECT id FROM runs ORDER BY id").fetchall()
            else:
                rows = conn.execute("SELECT id FROM runs WHERE status = ? ORDER BY id", (status,)).fetchall()
        return [row[0] for row in rows]

    def pending(self) -> list[PendingRequest]:
        """Every request the pending runs wait on: oldest run first, each run's in call order
        (claimed runs are left out). Any of them can be answered."""
        with self._connect() as conn:
            rows = conn.execute("SELECT id, body FROM runs WHERE status = 'pending' ORDER BY id").fetchall()
        found: list[PendingRequest] = []
        for run_id, body in rows:
            found.extend(PendingRequest(run_id, r) for r in _waiting(RunResult.from_json(body)))
        return found

    def expired(self, now: datetime | None = None) -> list[int]:
        """The ids of the pending runs with a request whose `expiresAt` has passed (an unreadable
        one has)."""
        when = (now or datetime.now(UTC)).timestamp()
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT id FROM runs WHERE status = 'pending' AND expires_at IS NOT NULL"
                " AND expires_at <= ? ORDER BY id",
                (when,),
            ).fetchall()
        return [row[0] for row in rows]

    # -- resuming -----------------------------------------------------------------------

    def claim(self, run_id: int, answers: Answer | Iterable[Answer]) -> RunResult:
        """Take the run for resuming with `answers`: `pending` → `claimed`, in one transaction.

        Raises `ResumeError` and changes nothing when the run cannot be taken: `replayed`
        when an answer answers a request this run already took an answer to, or that another
        process is answering now; `not_pending` when the run is claimed, done, refused or
        not there. Hand the run back with `finish` (or `release`).
        """
        ids = [a.id for a in _answers(answers)]
        with self._transaction() as conn:
            row = conn.execute(
                "SELECT status, pending_id, answered, body FROM runs WHERE id = ?", (run_id,)
            ).fetchone()
            if row is None:
                raise ResumeError("not_pending", f"there is no run {run_id}")
            status, _, answered, body = row
            waiting = {r.id for r in _waiting(RunResult.from_json(body))}
            # An id answered before is a replay, unless another call still waits on the same id
            # (two calls may suspend with one fixed request id; each takes one answer).
            taken = set(json.loads(answered)) - (waiting if status == "pending" else set())
            if any(i in taken for i in ids):
                again = next(i for i in ids if i in taken)
                raise ResumeError("replayed", f"request {again!r} was already answered")
            asked = waiting if status == "claimed" else set()
            if any(i in asked for i in ids):
                busy = next(i for i in ids if i in asked)
                raise ResumeError("replayed", f"request {busy!r} is being answered by another process")
            if status != "pending":
                raise ResumeError(
                    "not_pending", f"run {run_id} is {status}, so the answers {ids} have no use"
                )
            conn.execute(
                "UPDATE runs SET status = 'claimed', claimed_at = ?, updated_at = ? WHERE id = ?",
                (time.time(), time.time(), run_id),
            )
        return RunResult.from_json(body)

    def finish(self, run_id: int, answered: Answer | Iterable[Answer], run: RunResult) -> None:
        """Store what resuming the claimed run `run_id` with `answered` returned: pending again
        (on the requests still open) or done. The requests answered are remembered, so none is
        taken twice."""
        waiting = _waiting(run)
        with self._transaction() as conn:
            row = conn.execute("SELECT status, answered FROM runs WHERE id = ?", (run_id,)).fetchone()
            if row is None or row[0] != "claimed":
                raise ValueError(f"run {run_id} is not claimed, so there is nothing to finish")
            taken = [*json.loads(row[1]), *(a.id for a in _answers(answered))]
            conn.execute(
                "UPDATE runs SET status = ?, pending_id = ?, expires_at = ?, body = ?, answered = ?,"
                " claimed_at = NULL, updated_at = ? WHERE id = ?",
                (
                    "pending" if waiting else "done",
                    run.pending.id if waiting and run.pending else None,
                    _first_expiry(waiting),
                    run.to_json(),
                    json.dumps(taken),
                    time.time(),
                    run_id,
                ),
            )

    def release(self, run_id: int, status: Literal["pending", "refused"] = "pending") -> None:
        """Hand a claimed run back unchanged (`pending`), or set it aside for good (`refused`).

        A process that dies between `claim` and `finish` leaves its run `claimed`; look at it
        (the tool may have run: its `ToolContext.idempotency_key` tells the system it changed)
        and release it to let it be resumed again.
        """
        with self._transaction() as conn:
            conn.execute(
                "UPDATE runs SET status = ?, claimed_at = NULL, updated_at = ?"
                " WHERE id = ? AND status = 'claimed'",
                (status, time.time(), run_id),
            )

    async def resume(
        self,
        toolkit: Toolkit,
        run_id: int,
        answers: Answer | Iterable[Answer],
        *,
        principal: str | None = None,
    ) -> RunResult:
        """Claim the run, continue it with `toolkit.resume(run, answers, principal=...)`, store
        the outcome and return it. `answers` is one `Answer` or several, to any of the requests
        the run waits on.

        Raises `ResumeError` from `claim` (another process has the run, or the request was
        answered) or from `toolkit.resume`: then the run goes back to `pending` as it was,
        except for a seal that does not hold, which marks it `refused`.
        """
        answers = _answers(answers)
        run = self.claim(run_id, answers)
        try:
            resumed = await toolkit.resume(run, answers, principal=principal)
        except ResumeError as exc:
            self.release(run_id, "refused" if exc.reason == "seal" else "pending")
            raise
        except BaseException:
            self.release(run_id)
            raise
        try:
            resumed.to_json()
        except (TypeError, ValueError) as exc:  # a result with no JSON form: the run cannot be stored
            self.release(run_id, "refused")
            raise ValueError(
                f"run {run_id} was resumed, but what it holds is not JSON, so it cannot be stored "
                f"({exc}); it is set aside as refused"
            ) from None
        self.finish(run_id, answers, resumed)
        return resumed

    async def expire(
        self, toolkit: Toolkit, now: datetime | None = None, *, principal: str | None = None
    ) -> list[int]:
        """Settle every expired request of the pending runs (the loop rule makes each
        `declined/expired: <prompt>`); returns the ids of the runs settled. Runs another
        process holds are skipped."""
        when = (now or datetime.now(UTC)).timestamp()
        settled = []
        for run_id in self.expired(now):
            stored = self.get(run_id)
            if stored is None:
                continue
            passed = [r for r in _waiting(stored.run) if (t := _expiry(r)) is not None and t <= when]
            if not passed:
                continue
            answers = [Answer(r.id, False, reason="expired") for r in passed]
            try:
                await self.resume(toolkit, run_id, answers, principal=principal)
            except ResumeError:
                continue
            settled.append(run_id)
        return settled


def _answers(answers: Answer | Iterable[Answer]) -> list[Answer]:
    return [answers] if isinstance(answers, Answer) else list(answers)
