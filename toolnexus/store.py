"""An embedded store for pending runs, for a host on one machine: SQLite, no server.

`Toolkit.run_calls` without a `wait_for` returns a pending `RunResult`: plain data to keep
until a person answers, maybe in another process. `SqliteRunStore` keeps it, hands it out
to one resumer at a time, and stores what resuming returns:

    store = SqliteRunStore("runs.sqlite3")
    run_id = store.save(await toolkit.run_calls(calls))       # process 1
    for waiting in store.pending(): ...                        # any process: what to ask
    run = await store.resume(toolkit, run_id, answer)          # process 2: claim, resume, store
    await store.expire(toolkit)                                # settle what has expired

A host of the loop for storage only: what an answer or the time does to a run is the
toolkit's (`Toolkit.resume`, `Toolkit.expire`); the store claims, keeps and lists.

- **One resumer at a time.** `resume` claims the run with a compare-and-swap in one SQLite
  transaction: of two processes that resume the same run one runs the tool and the other gets
  `ResumeError`, and a request is answered once. A claim is a *lease*: renewed while the tool
  runs, and given back on its own when its holder dies (`lease` seconds after the last renewal),
  so no run stays claimed for good.
- **Nothing lost.** The outcome's write is retried while the lease lasts; if it still fails
  (the disk is full, the database locked past its time), `resume` raises `OutcomeNotStored`
  holding the resumed run, which the host can store later with `finish`. A row that is not a
  valid run is *quarantined*: listed by `quarantined()` with why, resumable by no one, and
  harmless to every other row.
- **Cheap to list.** Each waiting request is a row of its own, so `pending()` is one query that
  parses no run.

Every thread has its own connection, opened once (WAL journal, `synchronous=NORMAL` unless
asked for `FULL`). The async methods run their database work in a worker thread, so the event
loop never waits on SQLite. Several processes on one machine may share the file; across
machines, use `toolnexus.temporal`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from . import _seal
from ._book import refuse_answering, refuse_missing, refuse_over, refuse_replayed, refuse_seal
from ._engine import parse_time
from ._errors import ResumeError, ToolnexusError, UsageError, WireError
from ._result import Answer, Request, RunResult
from ._sqlite_log import SqliteDecisionLog, SqlitePolicies, create_tables
from ._sqlite_tasks import SqliteTasks
from ._sqlite_tasks import create_tables as create_task_tables
from ._toolkit import ProgressHook, Toolkit, forget_answers

__all__ = ["Claim", "OutcomeNotStored", "PendingRequest", "SqliteRunStore", "StoredRun"]

#: What a stored run is: waiting for an answer, held by one resumer, finished, refused for
#: good (its seal did not hold: it was altered in the database), or quarantined (it is not a
#: valid run at all).
Status = Literal["pending", "claimed", "done", "refused", "quarantined"]

_SCHEMA_VERSION = 4
_RUNS = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    status TEXT NOT NULL,
    body TEXT NOT NULL,
    answered TEXT NOT NULL DEFAULT '[]',
    expires_at REAL,
    lease TEXT,
    lease_until REAL,
    reason TEXT,
    updated_at REAL NOT NULL
)"""
_WAITING = """
CREATE TABLE IF NOT EXISTS waiting (
    run_id INTEGER NOT NULL,
    position INTEGER NOT NULL,
    request_id TEXT NOT NULL,
    request TEXT NOT NULL,
    PRIMARY KEY (run_id, position)
) WITHOUT ROWID"""
_INDEX = "CREATE INDEX IF NOT EXISTS runs_due ON runs (status, expires_at)"
#: The rows of a store made before the waiting table (version 1) are moved into it on open.
_MIGRATE_1 = ("lease TEXT", "lease_until REAL", "reason TEXT")
#: A claim is free to take when it is pending, or claimed with a lease that has run out.
_FREE = "(status = 'pending' OR (status = 'claimed' AND lease_until < ?))"


@dataclass(frozen=True, slots=True)
class StoredRun:
    """A run as stored: its id, its status and the run itself (None for a quarantined row,
    whose `reason` says why it is not a valid run; `reason` also says why a run was refused)."""

    id: int
    status: Status
    run: RunResult | None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Claim:
    """A run taken by `SqliteRunStore.claim`, and the token of its lease (for `finish`)."""

    run: RunResult
    lease: str


class PendingRequest:
    """A request a stored run waits on: answer it with `SqliteRunStore.resume(toolkit, run_id, …)`.

    `store.pending()` reads the request's JSON and parses it on first use of `request`, so
    listing many costs little more than the query."""

    __slots__ = ("_request", "_text", "run_id")

    def __init__(self, run_id: int, request: Request | str) -> None:
        self.run_id = run_id
        self._request = request if isinstance(request, Request) else None
        self._text = request if isinstance(request, str) else None

    @property
    def request(self) -> Request:
        if self._request is None:
            assert self._text is not None
            self._request = Request.from_json(self._text)
        return self._request

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PendingRequest):
            return NotImplemented
        return self.run_id == other.run_id and self.request == other.request

    def __hash__(self) -> int:
        return hash((self.run_id, self.request.id))

    def __repr__(self) -> str:
        return f"PendingRequest(run_id={self.run_id!r}, request={self.request!r})"


class OutcomeNotStored(ToolnexusError):
    """`SqliteRunStore.resume` ran the answered calls, but could not store what came of it.

    The tools have run; nothing of it is lost: `run` is the resumed run, `answers` the answers it
    took, and `lease` the claim it holds (until it runs out). Store it with
    `store.finish(run_id, answers, run, lease=lease)` once the database takes writes again; if
    the claim has run out and another process took the run meanwhile, `finish` refuses, and the
    other process's outcome stands (the tools ran again there, under the same idempotency keys).
    It differs from `ResumeError`, which is raised before anything runs.
    """

    __module__ = "toolnexus.store"

    def __init__(
        self, run_id: int, run: RunResult, answers: list[Answer], lease: str, cause: BaseException
    ) -> None:
        self.run_id = run_id
        self.run = run
        self.answers = answers
        self.lease = lease
        self.cause = cause
        super().__init__(
            f"run {run_id} was resumed and its tools ran, but the outcome was not stored: {cause}"
        )


class SqliteRunStore:
    """Pending runs in one SQLite file, each handed out to one resumer at a time.

    One store may be used from several threads (each has its own connection) and several
    processes may open the same file. `timeout` is how long (seconds) one write waits for
    another process's write. `lease` is how long (seconds) a claim holds without renewal: a
    resumer renews it while its tools run, so only a resumer that died loses it. `synchronous`
    is SQLite's: `NORMAL` (the default, in WAL mode) survives a crash of the process, and may
    lose the last writes on a power cut or an OS crash; `FULL` survives those too, at an fsync
    per write.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        timeout: float = 30.0,
        lease: float = 30.0,
        synchronous: Literal["NORMAL", "FULL"] = "NORMAL",
    ) -> None:
        if synchronous not in ("NORMAL", "FULL"):
            raise UsageError(f"synchronous must be 'NORMAL' or 'FULL', got {synchronous!r}")
        if not lease > 0:
            raise UsageError(f"lease must be a positive number of seconds, got {lease!r}")
        self.path = os.fspath(path)
        self.lease = lease
        self._timeout = timeout
        self._synchronous = synchronous
        self._local = threading.local()
        self.policies = SqlitePolicies(self)  #: `Toolkit(policy_store=store.policies)`
        self.log = SqliteDecisionLog(self)  #: `Toolkit(decision_log=store.log)`: hash-chained
        self.tasks = SqliteTasks(self)  #: an MCP server's tasks: `mcp_server(toolkit, store=store)`
        if self._conn().execute("PRAGMA user_version").fetchone()[0] < _SCHEMA_VERSION:
            with self._transaction() as conn:
                _create(conn)

    def __repr__(self) -> str:
        return f"<SqliteRunStore {self.path!r}>"

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=self._timeout, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA synchronous={self._synchronous}")
            self._local.conn = conn
        return conn

    def close(self) -> None:
        """Close this thread's connection (the next use opens another)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            self._local.conn = None
            conn.close()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction, taken at once (`BEGIN IMMEDIATE`), so reads in it are current.
        Inside another of this thread's, it is part of that one (committed or rolled back whole)."""
        conn = self._conn()
        if conn.in_transaction:
            yield conn
            return
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
        return self.save_many([run])[0]

    def save_many(self, runs: Iterable[RunResult]) -> list[int]:
        """Store every run of `runs` in one transaction and return their ids, in order."""
        rows = [_row(run) for run in runs]
        now = time.time()
        ids = []
        with self._transaction() as conn:
            for status, body, expires, waiting in rows:
                cur = conn.execute(
                    "INSERT INTO runs (status, body, expires_at, updated_at) VALUES (?, ?, ?, ?)",
                    (status, body, expires, now),
                )
                run_id = cur.lastrowid
                assert run_id is not None
                conn.executemany(
                    "INSERT INTO waiting (run_id, position, request_id, request) VALUES (?, ?, ?, ?)",
                    [(run_id, i, rid, text) for i, (rid, text) in enumerate(waiting)],
                )
                ids.append(run_id)
        return ids

    def get(self, run_id: int) -> StoredRun | None:
        """The run stored under `run_id`, or None. A claim whose lease has run out reads as
        `pending`; a row that is not a valid run is quarantined (see `StoredRun`)."""
        row = (
            self._conn()
            .execute("SELECT status, body, lease_until, reason FROM runs WHERE id = ?", (run_id,))
            .fetchone()
        )
        if row is None:
            return None
        status, body, until, reason = row
        if status == "claimed" and until is not None and until < time.time():
            status = "pending"
        if status == "quarantined":
            return StoredRun(run_id, status, None, reason)
        try:
            return StoredRun(run_id, status, RunResult.from_json(body), reason)
        except WireError as exc:
            why = self._quarantine(run_id, exc)
            return StoredRun(run_id, "quarantined", None, why)

    def ids(self, status: Status | None = None) -> list[int]:
        """The ids of the stored runs (with that status, when given), oldest first."""
        where, args = ("", ()) if status is None else (" WHERE status = ?", (status,))
        return [row[0] for row in self._conn().execute(f"SELECT id FROM runs{where} ORDER BY id", args)]

    def pending(self) -> list[PendingRequest]:
        """Every request the pending runs wait on: oldest run first, each run's in call order
        (runs being resumed are left out). Any of them can be answered."""
        rows = (
            self._conn()
            .execute(
                "SELECT w.run_id, w.request FROM waiting w JOIN runs r ON r.id = w.run_id"
                f" WHERE {_FREE.replace('status', 'r.status').replace('lease_until', 'r.lease_until')}"
                " ORDER BY w.run_id, w.position",
                (time.time(),),
            )
            .fetchall()
        )
        return [PendingRequest(run_id, text) for run_id, text in rows]

    def quarantined(self) -> list[tuple[int, str]]:
        """The rows that are not valid runs, each with why: no one can resume them."""
        rows = (
            self._conn()
            .execute("SELECT id, reason FROM runs WHERE status = 'quarantined' ORDER BY id")
            .fetchall()
        )
        return [(run_id, reason or "") for run_id, reason in rows]

    def expired(self, now: datetime | None = None) -> list[int]:
        """The ids of the pending runs with something expired by `now` (the wall clock when
        None): a request's `expiresAt` (an unreadable one has passed), or the run's sealed expiry."""
        when = now.timestamp() if now is not None else time.time()
        rows = (
            self._conn()
            .execute(
                f"SELECT id FROM runs WHERE {_FREE} AND expires_at IS NOT NULL AND expires_at <= ?"
                " ORDER BY id",
                (time.time(), when),
            )
            .fetchall()
        )
        return [row[0] for row in rows]

    # -- resuming -----------------------------------------------------------------------

    def claim(self, run_id: int, answers: Answer | Iterable[Answer]) -> Claim:
        """Take the run to resume it with `answers` (it becomes `claimed` under a lease), in one
        transaction, and return it with the lease's token.

        Raises `ResumeError` and changes nothing when the run cannot be taken: `replayed` when an
        answer answers a request this run already took an answer to, or that another process
        is answering now; `not_pending` when the run is claimed, done, refused or not there;
        `seal` when the row is not a valid run (it is then quarantined). Hand the run back with
        `finish` (or `release`).
        """
        ids = [a.id for a in _answers(answers)]
        now = time.time()
        lease = secrets.token_hex(8)
        with self._transaction() as conn:
            row = conn.execute(
                "SELECT status, answered, body, lease_until FROM runs WHERE id = ?", (run_id,)
            ).fetchone()
            if row is None:
                raise refuse_missing(f"run {run_id}")
            status, answered, body, until = row
            if status == "claimed" and until is not None and until < now:
                status = "pending"  # its holder is gone
            waiting = {
                r for (r,) in conn.execute("SELECT request_id FROM waiting WHERE run_id = ?", (run_id,))
            }
            # An id answered before is a replay, unless another call still waits on the same id
            # (two calls may suspend with one fixed request id; each takes one answer).
            taken = set(json.loads(answered)) - (waiting if status == "pending" else set())
            if again := next((i for i in ids if i in taken), None):
                raise refuse_replayed(again)
            if status == "claimed" and (busy := next((i for i in ids if i in waiting), None)):
                raise refuse_answering(busy)
            if status != "pending":
                raise refuse_over(f"run {run_id} is {status}", ids)
            why: str | None = None
            try:
                run = RunResult.from_json(body)
            except WireError as exc:  # set aside for good (committed), then refused
                why = _quarantined(conn, run_id, exc, now)
            else:
                conn.execute(
                    "UPDATE runs SET status = 'claimed', lease = ?, lease_until = ?, updated_at = ?"
                    " WHERE id = ?",
                    (lease, now + self.lease, now, run_id),
                )
        if why is not None:
            raise refuse_seal(f"run {run_id} is not a valid run ({why}); it is quarantined")
        return Claim(run, lease)

    def renew(self, run_id: int, lease: str) -> bool:
        """Extend the claim `lease` on `run_id` by another `lease` seconds; False when it is no
        longer held by that token."""
        now = time.time()
        with self._transaction() as conn:
            cur = conn.execute(
                "UPDATE runs SET lease_until = ?, updated_at = ?"
                " WHERE id = ? AND status = 'claimed' AND lease = ?",
                (now + self.lease, now, run_id, lease),
            )
        return cur.rowcount == 1

    def finish(
        self, run_id: int, answered: Answer | Iterable[Answer], run: RunResult, *, lease: str | None = None
    ) -> None:
        """Store what resuming the claimed run `run_id` with `answered` returned: pending again
        (on the requests still open) or done. The requests answered are remembered, so none is
        taken twice. With `lease`, only while that claim is the run's last (`ValueError` if
        another process has claimed it since); `ValueError` when the run is not claimed."""
        self._store(run_id, _row(run), [a.id for a in _answers(answered)], lease)

    def _store(self, run_id: int, row: _Row, answered: list[str], lease: str | None) -> None:
        with self._transaction() as conn:
            _write_outcome(conn, run_id, row, answered, lease)

    def release(
        self, run_id: int, status: Literal["pending", "refused"] = "pending", *, reason: str | None = None
    ) -> None:
        """Hand a claimed run back unchanged (`pending`), or set it aside for good (`refused`,
        with `reason`). A claim whose holder died is given back on its own when its lease runs
        out; this gives it back at once."""
        with self._transaction() as conn:
            conn.execute(
                "UPDATE runs SET status = ?, lease = NULL, lease_until = NULL, reason = ?, updated_at = ?"
                " WHERE id = ? AND status = 'claimed'",
                (status, reason, time.time(), run_id),
            )

    async def resume(
        self,
        toolkit: Toolkit,
        run_id: int,
        answers: Answer | Iterable[Answer],
        *,
        principal: str | None = None,
        session: str | None = None,
        progress: ProgressHook | None = None,
    ) -> RunResult:
        """Claim the run, continue it with `toolkit.resume(run, answers, principal=..., session=...,
        progress=...)`, store
        the outcome and return it. `answers` is one `Answer` or several, to any of the requests
        the run waits on.

        Raises `ResumeError` from `claim` (another process has the run, the request was
        answered, the row is not a valid run) or from `toolkit.resume`: then nothing ran, and
        the run goes back to `pending` as it was, except for a seal that does not hold, which
        marks it `refused`. Raises `OutcomeNotStored`, holding the resumed run, when the tools
        ran but the outcome could not be stored (see there).
        """
        batch = _answers(answers)
        return await _under_lease(
            self,
            toolkit,
            run_id,
            batch,
            lambda run: toolkit.resume(run, batch, principal=principal, session=session, progress=progress),
        )

    async def expire(
        self, toolkit: Toolkit, now: datetime | None = None, *, principal: str | None = None
    ) -> list[int]:
        """Settle, with `toolkit.expire`, every pending run with something expired by `now`
        (the toolkit's clock when None): each call whose request's `expiresAt` has passed, and
        every call of a run whose sealed expiry has. Returns the ids of the runs settled. Runs
        another process holds, and rows that are not valid runs, are passed over."""
        when = now if now is not None else toolkit.now()
        settled = []
        for run_id in await asyncio.to_thread(self.expired, when):
            try:
                await _under_lease(
                    self, toolkit, run_id, [], lambda run: toolkit.expire(run, now=when, principal=principal)
                )
            except ResumeError:
                continue
            settled.append(run_id)
        return settled

    def _quarantine(self, run_id: int, exc: BaseException) -> str:
        with self._transaction() as conn:
            return _quarantined(conn, run_id, exc, time.time())


async def _under_lease(
    store: SqliteRunStore, toolkit: Toolkit, run_id: int, batch: list[Answer], step: Any
) -> RunResult:
    """Claim `run_id` for `batch`, make `step(run)` of it under a renewed lease, and store
    the outcome (see `resume`)."""
    claim = await asyncio.to_thread(store.claim, run_id, batch)
    run, lease = claim.run, claim.lease
    renewal = asyncio.ensure_future(_renew(store, run_id, lease))
    try:
        resumed: RunResult = await step(run)
    except ResumeError as exc:
        if exc.reason == "expired":  # past its sealed expiry: settled now, never put back
            settled = await toolkit.expire(run)
            if settled is not run:
                await asyncio.to_thread(store.finish, run_id, [], settled, lease=lease)
                raise
        refused = exc.reason == "seal"
        await asyncio.to_thread(
            store.release,
            run_id,
            "refused" if refused else "pending",
            reason=str(exc) if refused else None,
        )
        raise
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            await asyncio.shield(asyncio.to_thread(store.release, run_id))
        raise
    finally:
        renewal.cancel()
    if resumed is run:  # nothing changed (nothing had expired): the run goes back as it was
        await asyncio.to_thread(store.release, run_id)
        return run
    try:
        return await _store_outcome(store, run_id, resumed, batch, lease)
    except OutcomeNotStored:
        # Storage does not hold that the answers were taken, so this process does not either:
        # after `release`, they may be given again here as in any other process.
        forget_answers(toolkit, run, batch)
        raise


async def _store_outcome(
    store: SqliteRunStore, run_id: int, resumed: RunResult, batch: list[Answer], lease: str
) -> RunResult:
    """Write `resumed` as the outcome of the claimed run, retrying while the lease lasts."""
    try:
        row = _row(resumed)
    except (TypeError, ValueError) as exc:  # a result with no JSON form: it cannot be stored
        await asyncio.to_thread(store.release, run_id, "refused", reason=f"its outcome is not JSON: {exc}")
        raise OutcomeNotStored(run_id, resumed, batch, lease, exc) from None
    answered = [a.id for a in batch]
    deadline = time.monotonic() + store.lease
    delay = 0.05
    while True:
        try:
            await asyncio.to_thread(store._store, run_id, row, answered, lease)
            return resumed
        except sqlite3.Error as exc:  # locked past `timeout`, disk full, I/O: the lease still holds
            if time.monotonic() + delay >= deadline:
                raise OutcomeNotStored(run_id, resumed, batch, lease, exc) from None
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)
        except ValueError as exc:  # another process took the run after the lease ran out
            raise OutcomeNotStored(run_id, resumed, batch, lease, exc) from None


async def _renew(store: SqliteRunStore, run_id: int, lease: str) -> None:
    """Renew the claim every third of the lease while the tools run."""
    while True:
        await asyncio.sleep(store.lease / 3)
        with contextlib.suppress(sqlite3.Error):  # a missed renewal: the next one may do
            if not await asyncio.to_thread(store.renew, run_id, lease):
                return


def _write_outcome(
    conn: sqlite3.Connection, run_id: int, row: _Row, answered: list[str], lease: str | None
) -> None:
    """Store a claimed run's outcome (`row`), and the answers it took, while `lease` holds it."""
    status, body, expires, waiting = row
    held = conn.execute("SELECT status, answered, lease FROM runs WHERE id = ?", (run_id,)).fetchone()
    if held is None or held[0] != "claimed" or (lease is not None and held[2] != lease):
        raise ValueError(f"run {run_id} is not claimed under this lease, so there is nothing to finish")
    conn.execute(
        "UPDATE runs SET status = ?, body = ?, expires_at = ?, answered = ?, lease = NULL,"
        " lease_until = NULL, updated_at = ? WHERE id = ?",
        (status, body, expires, json.dumps([*json.loads(held[1]), *answered]), time.time(), run_id),
    )
    conn.execute("DELETE FROM waiting WHERE run_id = ?", (run_id,))
    conn.executemany(
        "INSERT INTO waiting (run_id, position, request_id, request) VALUES (?, ?, ?, ?)",
        [(run_id, i, rid, text) for i, (rid, text) in enumerate(waiting)],
    )


def _quarantined(conn: sqlite3.Connection, run_id: int, exc: BaseException, now: float) -> str:
    why = f"not a valid run: {exc}"
    conn.execute(
        "UPDATE runs SET status = 'quarantined', reason = ?, lease = NULL, lease_until = NULL, updated_at = ?"
        " WHERE id = ?",
        (why, now, run_id),
    )
    conn.execute("DELETE FROM waiting WHERE run_id = ?", (run_id,))
    return why


#: A run as stored: its status, its JSON, when something of it expires first, and its waiting
#: requests (id and JSON), in call order.
_Row = tuple[str, str, float | None, list[tuple[str, str]]]


def _row(run: RunResult) -> _Row:
    """What a run is stored as: its status, its JSON, when something of it expires first, and
    its waiting requests (id and JSON), in call order."""
    if not isinstance(run, RunResult):
        raise TypeError(f"the store keeps RunResults, got {type(run).__name__}")
    body = run.to_json()
    if run.status != "pending" or run.pending is None:
        return "done", body, None, []
    requests: Sequence[Request] = run.requests or [run.pending]
    times = [t for t in map(_expiry, requests) if t is not None]
    stamp = _seal.parse_stamp(run.seal) if run.seal else None
    if stamp is not None and stamp.expires is not None:
        times.append(stamp.expires / 1000)
    return "pending", body, min(times, default=None), [(r.id, r.to_json()) for r in requests]


def _expiry(request: Request) -> float | None:
    """`expiresAt` as a Unix time; None for no expiry, 0 when unreadable (it counts as passed)."""
    if not request.expires_at:
        return None
    try:
        return parse_time(request.expires_at).timestamp()
    except ValueError:
        return 0.0


def _create(conn: sqlite3.Connection) -> None:
    """The tables of this version, made or brought up to date."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(runs)")}
    waits = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'waiting'").fetchone()
    conn.execute(_RUNS)
    conn.execute(_WAITING)
    conn.execute(_INDEX)
    create_tables(conn)  # policies and the decision log (version 3)
    create_task_tables(conn)  # an MCP server's tasks and spent request states (version 4)
    if columns and waits is None:  # a store of version 1
        _migrate(conn, columns)
    conn.execute(f"PRAGMA user_version = {_SCHEMA_VERSION}")


def _migrate(conn: sqlite3.Connection, columns: set[str]) -> None:
    """A store of version 1 (no waiting table, no lease): the columns added, and the waiting
    requests of its pending runs moved into their table (a row that is not a valid run is
    quarantined). Claims it held are given back."""
    for column in _MIGRATE_1:
        if column.split()[0] not in columns:
            conn.execute(f"ALTER TABLE runs ADD COLUMN {column}")
    now = time.time()
    conn.execute("UPDATE runs SET status = 'pending' WHERE status = 'claimed'")
    for run_id, body in conn.execute("SELECT id, body FROM runs WHERE status = 'pending'").fetchall():
        try:
            status, _, expires, waiting = _row(RunResult.from_json(body))
        except WireError as exc:
            _quarantined(conn, run_id, exc, now)
            continue
        conn.execute("UPDATE runs SET status = ?, expires_at = ? WHERE id = ?", (status, expires, run_id))
        conn.executemany(
            "INSERT INTO waiting (run_id, position, request_id, request) VALUES (?, ?, ?, ?)",
            [(run_id, i, rid, text) for i, (rid, text) in enumerate(waiting)],
        )


def _answers(answers: Answer | Iterable[Answer]) -> list[Answer]:
    return [answers] if isinstance(answers, Answer) else list(answers)


def run_expiry(store: SqliteRunStore, run_id: int) -> float | None:
    """When something of the stored run expires first (a Unix time), or None: for the MCP
    bridge's tasks, kept in the same database."""
    row = store._conn().execute("SELECT expires_at FROM runs WHERE id = ?", (run_id,)).fetchone()
    return None if row is None else row[0]
