"""`SqliteRunStore`: the store's rules over one SQLite file, for a host on one machine.

Every thread has its own connection, opened once (WAL journal, `synchronous=NORMAL` unless
asked for `FULL`). A write transaction is taken at once (`BEGIN IMMEDIATE`), so it holds the
whole file: the reads in it are current and no row lock is needed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Literal

from .._errors import UsageError, WireError
from .._result import RunResult
from ._backend import Connection
from ._core import RunStore
from ._rows import INSERT_WAITING, quarantined
from ._types import row_of, waiting_rows

#: How often (seconds) `store.wait` looks at the file for a commit (`PRAGMA data_version`).
WAIT_POLL = 0.05
#: The version of the tables this code writes (`PRAGMA user_version`); see docs/durable.md.
SCHEMA_VERSION = 6
#: The decision log's head (made on its own too, for an old store whose log lacks it).
_HEAD = (
    "CREATE TABLE IF NOT EXISTS decisions_head (one INTEGER PRIMARY KEY CHECK (one = 1),"
    " seq INTEGER NOT NULL, hash TEXT NOT NULL, key_id TEXT, mac TEXT)"
)
_TABLES = (
    """CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    status TEXT NOT NULL,
    body TEXT NOT NULL,
    answered TEXT NOT NULL DEFAULT '[]',
    expires_at REAL,
    lease TEXT,
    lease_until REAL,
    reason TEXT,
    updated_at REAL NOT NULL,
    doubt TEXT,
    context TEXT,
    principal TEXT,
    session TEXT
)""",
    """CREATE TABLE IF NOT EXISTS waiting (
    run_id INTEGER NOT NULL,
    position INTEGER NOT NULL,
    request_id TEXT NOT NULL,
    request TEXT NOT NULL,
    tool TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL DEFAULT '',
    principal TEXT,
    session TEXT,
    PRIMARY KEY (run_id, position)
) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS runs_due ON runs (status, expires_at)",
    "CREATE INDEX IF NOT EXISTS waiting_tool ON waiting (tool, run_id, position)",
    "CREATE INDEX IF NOT EXISTS waiting_kind ON waiting (kind, run_id, position)",
    # whose run, which session: `pending(principal=, session=)` (version 6)
    "CREATE INDEX IF NOT EXISTS waiting_principal ON waiting (principal, run_id, position)",
    "CREATE INDEX IF NOT EXISTS waiting_session ON waiting (session, run_id, position)",
    # policies and the decision log (version 3)
    "CREATE TABLE IF NOT EXISTS policies (id TEXT PRIMARY KEY, tool TEXT NOT NULL, body TEXT NOT NULL,"
    " expires_at TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS policies_tool ON policies (tool)",
    "CREATE TABLE IF NOT EXISTS decisions (seq INTEGER PRIMARY KEY, entry TEXT NOT NULL, hash TEXT NOT NULL)",
    _HEAD,
    # an MCP server's tasks and spent request states (version 4)
    """CREATE TABLE IF NOT EXISTS tasks (
    id TEXT PRIMARY KEY,
    owner TEXT,
    status TEXT NOT NULL,
    call TEXT NOT NULL,
    turn TEXT NOT NULL,
    run_id INTEGER,
    result TEXT,
    error TEXT,
    message TEXT,
    ttl_ms INTEGER,
    poll_ms INTEGER NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    lease TEXT,
    lease_until REAL,
    cancel_asked INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID""",
    "CREATE TABLE IF NOT EXISTS spent_states (digest TEXT PRIMARY KEY, until REAL NOT NULL) WITHOUT ROWID",
    # the outputs a toolkit cut, kept whole (version 6)
    "CREATE TABLE IF NOT EXISTS results (scope TEXT NOT NULL, ref TEXT NOT NULL, body TEXT NOT NULL,"
    " kept_at REAL NOT NULL, PRIMARY KEY (scope, ref))",
    "CREATE INDEX IF NOT EXISTS results_kept ON results (kept_at)",
)
#: The columns added to `runs` since version 1 (leases, reasons) and version 4 (calls in doubt,
#: the host's context).
_ADDED = ("lease TEXT", "lease_until REAL", "reason TEXT", "doubt TEXT", "context TEXT")
#: The columns version 6 adds to `runs` and to `waiting` (whose run, which session; see `_to_version_6`).
_ADDED_6 = ("principal TEXT", "session TEXT")


class SqliteBackend:
    """One SQLite file, a connection per thread (a `Backend`)."""

    errors: tuple[type[BaseException], ...] = (sqlite3.Error,)
    claim_lock = ""
    row_lock = ""
    policy_order = "rowid"
    waiting_ids = ""

    def __init__(self, path: str, timeout: float, synchronous: str) -> None:
        self.path = path
        self._timeout = timeout
        self._synchronous = synchronous
        self._local = threading.local()

    def connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            try:
                conn = sqlite3.connect(self.path, timeout=self._timeout, isolation_level=None)
                conn.execute("PRAGMA journal_mode=WAL")
            except sqlite3.Error as exc:
                raise UsageError(f"cannot open the SQLite store {self.path!r}: {exc}") from exc
            conn.execute(f"PRAGMA synchronous={self._synchronous}")
            self._local.conn = conn
        return conn

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            self._local.conn = None
            conn.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        conn = self.connection()
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

    def batched(self, conn: Connection) -> contextlib.AbstractContextManager[object]:
        """Nothing to batch: a statement is no trip to a server."""
        return contextlib.nullcontext()

    def lock_log(self, conn: Connection) -> None:
        """`BEGIN IMMEDIATE` holds the file already; a head table is made if an old store lacks it."""
        conn.execute(_HEAD)

    def changed(self, conn: Connection, run_id: int) -> None:
        """Nothing: a waiting host polls the file (`listen`)."""

    @contextlib.contextmanager
    def listen(self) -> Iterator[_Poll]:
        poll = _Poll(self)
        try:
            yield poll
        finally:
            poll.close()

    @contextlib.asynccontextmanager
    async def listen_async(self) -> AsyncIterator[_AsyncPoll]:
        poll = _Poll(self)
        try:
            yield _AsyncPoll(poll)
        finally:
            poll.close()


class _Poll:
    """Hears of commits to the file by polling `PRAGMA data_version` on a connection of its own
    (it changes when another connection commits) every `WAIT_POLL` seconds."""

    def __init__(self, backend: SqliteBackend) -> None:
        try:
            self._conn = sqlite3.connect(backend.path, timeout=backend._timeout, check_same_thread=False)
        except sqlite3.Error as exc:
            raise UsageError(f"cannot open the SQLite store {backend.path!r}: {exc}") from exc
        self.seen = self.version()

    def version(self) -> int:
        return int(self._conn.execute("PRAGMA data_version").fetchone()[0])

    def changed(self) -> bool:
        """Whether the file was committed to since the last look."""
        now = self.version()
        moved, self.seen = now != self.seen, now
        return moved

    def wait(self, run_id: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not self.changed():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(WAIT_POLL, left))

    def close(self) -> None:
        self._conn.close()


class _AsyncPoll:
    def __init__(self, poll: _Poll) -> None:
        self._poll = poll

    async def wait(self, run_id: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not self._poll.changed():  # a read of one pragma: cheaper than a trip to a thread
            left = deadline - time.monotonic()
            if left <= 0:
                return
            await asyncio.sleep(min(WAIT_POLL, left))


class SqliteRunStore(RunStore):
    """Pending runs in one SQLite file, each handed out to one resumer at a time.

    One store may be used from several threads (each has its own connection) and several
    processes may open the same file. `timeout` is how long (seconds) one write waits for
    another process's write. `lease` is how long (seconds) a claim holds without renewal: a
    resumer renews it while its tools run, so only a resumer that died loses it. `synchronous`
    is SQLite's: `NORMAL` (the default, in WAL mode) survives a crash of the process, and may
    lose the last writes on a power cut or an OS crash; `FULL` survives those too, at an fsync
    per write. `clock` is where the store reads the time (Unix seconds; `time.time` by default):
    a test, or a host with a clock of its own, passes another.

    A file that cannot be opened (its folder missing, no permission) is a `UsageError` naming
    it; one written by a newer toolnexus (a higher schema version) is refused, naming both.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        timeout: float = 30.0,
        lease: float = 30.0,
        synchronous: Literal["NORMAL", "FULL"] = "NORMAL",
        clock: Callable[[], float] = time.time,
    ) -> None:
        if synchronous not in ("NORMAL", "FULL"):
            raise UsageError(f"synchronous must be 'NORMAL' or 'FULL', got {synchronous!r}")
        if not lease > 0:
            raise UsageError(f"lease must be a positive number of seconds, got {lease!r}")
        self.path = os.fspath(path)
        backend = SqliteBackend(self.path, timeout, synchronous)
        super().__init__(backend, lease, clock)
        conn = backend.connection()
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise UsageError(
                f"the SQLite store {self.path!r} has schema version {version}, newer than this"
                f" toolnexus's {SCHEMA_VERSION}: open it with a newer toolnexus"
            )
        if version < SCHEMA_VERSION:
            with backend.transaction() as conn:
                _create(conn)

    def __repr__(self) -> str:
        return f"<SqliteRunStore {self.path!r}>"


def _create(conn: sqlite3.Connection) -> None:
    """The tables of this version, made or brought up to date."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(runs)")}
    waits = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'waiting'").fetchone()
    for column in _ADDED if columns else ():
        if column.split()[0] not in columns:
            conn.execute(f"ALTER TABLE runs ADD COLUMN {column}")
    listed = {row[1] for row in conn.execute("PRAGMA table_info(waiting)")} if waits else set()
    for column in ("tool", "kind") if waits else ():
        if column not in listed:
            conn.execute(f"ALTER TABLE waiting ADD COLUMN {column} TEXT NOT NULL DEFAULT ''")
    if columns:
        _to_version_6(conn, columns, listed)
    for statement in _TABLES:
        conn.execute(statement)
    if columns and waits is None:  # a store of version 1
        _migrate(conn)
    elif waits is not None and "tool" not in listed:  # before version 5: the requests' tool and kind
        _fill_waiting(conn)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _to_version_6(conn: sqlite3.Connection, columns: set[str], listed: set[str]) -> None:
    """Version 5 to 6, a step of its own: `runs` and `waiting` get `principal` and `session`
    (NULL for the runs kept before: saved with neither), and `_TABLES` their indexes."""
    for column in _ADDED_6:
        if column.split()[0] not in columns:
            conn.execute(f"ALTER TABLE runs ADD COLUMN {column}")
        if listed and column.split()[0] not in listed:
            conn.execute(f"ALTER TABLE waiting ADD COLUMN {column}")


def _fill_waiting(conn: sqlite3.Connection) -> None:
    """The tool and kind of each waiting request of a store made before version 5."""
    now = time.time()
    for run_id, body in conn.execute(
        "SELECT id, body FROM runs WHERE id IN (SELECT run_id FROM waiting)"
    ).fetchall():
        try:
            waiting = row_of(RunResult.from_json(body))[3]
        except WireError as exc:
            quarantined(conn, run_id, exc, now)
            continue
        conn.executemany(
            "UPDATE waiting SET tool = ?, kind = ? WHERE run_id = ? AND position = ?",
            [(tool, kind, run_id, i) for i, (_, _, tool, kind) in enumerate(waiting)],
        )


def _migrate(conn: sqlite3.Connection) -> None:
    """A store of version 1 (no waiting table, no lease): the waiting requests of its pending
    runs moved into their table (a row that is not a valid run is quarantined). Claims it held
    are given back."""
    now = time.time()
    conn.execute("UPDATE runs SET status = 'pending' WHERE status = 'claimed'")
    for run_id, body in conn.execute("SELECT id, body FROM runs WHERE status = 'pending'").fetchall():
        try:
            status, _, expires, waiting = row_of(RunResult.from_json(body))
        except WireError as exc:
            quarantined(conn, run_id, exc, now)
            continue
        conn.execute("UPDATE runs SET status = ?, expires_at = ? WHERE id = ?", (status, expires, run_id))
        conn.executemany(INSERT_WAITING, waiting_rows(run_id, waiting))
