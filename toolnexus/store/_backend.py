"""What a store needs of a database: connections, transactions and the few pieces of SQL that
differ between databases. The store's rules (`_core.py`, `_log.py`, `_tasks.py`) are written once
over this; `_sqlite.py` and `_postgres.py` supply it.

The statements the rules run are plain SQL with `?` placeholders, understood by both databases
(a backend that needs another placeholder rewrites them). What differs is here: the tables'
layout (`create`), how a row is locked for a claim (`claim_lock`, `row_lock`), how the decision
log is kept to one writer at a time (`lock_log`), and which errors mean the database could not
do the work right now (`errors`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from typing import Any, Protocol

__all__ = ["AsyncSignal", "Backend", "Connection", "Cursor", "Signal"]


class Cursor(Protocol):
    """The result of one statement."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """What the rules run statements on (`?` placeholders)."""

    def execute(self, sql: str, args: Sequence[Any] = ..., /) -> Cursor: ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]], /) -> Any: ...


class Signal(Protocol):
    """What `store.wait` blocks on: word that a run may have changed."""

    def wait(self, run_id: int, timeout: float) -> None:
        """Return when run `run_id` may have changed (an outcome committed), or after `timeout`
        seconds; returning early is allowed (the caller reads the run again)."""
        ...


class AsyncSignal(Protocol):
    """`Signal` for an event loop."""

    async def wait(self, run_id: int, timeout: float) -> None: ...


class Backend(Protocol):
    """A database a store keeps its tables in."""

    #: The errors that mean the database could not do it now (locked, full, gone): the outcome's
    #: write is retried on them while the lease lasts, and a lease's renewal passes over them.
    errors: tuple[type[BaseException], ...]
    #: Appended to the `SELECT` of the row a claim takes: locks it, and passes over a row another
    #: transaction holds (`FOR UPDATE SKIP LOCKED`), or "" where a write transaction locks all.
    claim_lock: str
    #: Appended to the `SELECT` of a row a transaction then changes (`FOR UPDATE`), or "".
    row_lock: str
    #: The column that orders policies as kept (oldest first).
    policy_order: str
    #: A column of the claim's `SELECT` on `runs`: the JSON array (text) of the run's waiting
    #: request ids, NULL when none, read with the row; "" where they are read by a statement of
    #: their own (a database where a statement costs no trip to a server).
    waiting_ids: str

    def connection(self) -> Connection:
        """This thread's connection, for reads (each statement sees what is committed) and for a
        write of one statement, which is a transaction of its own."""
        ...

    def transaction(self) -> AbstractContextManager[Connection]:
        """A write transaction; inside another of this thread's, part of that one."""
        ...

    def batched(self, conn: Connection) -> AbstractContextManager[object]:
        """Inside `conn`'s transaction: the statements whose results are not read are sent
        together, their errors raised at the end at the latest (PostgreSQL's pipeline: one trip
        to the server for the outcome's writes); nothing where a statement costs no trip."""
        ...

    def lock_log(self, conn: Connection) -> None:
        """Make `conn`'s transaction the decision log's only writer until it ends."""
        ...

    def changed(self, conn: Connection, run_id: int) -> None:
        """Tell the listeners (`listen`) in `conn`'s transaction that run `run_id` has an outcome:
        heard when it commits (PostgreSQL's `NOTIFY`; nothing where listeners poll)."""
        ...

    def listen(self) -> AbstractContextManager[Signal]:
        """Start hearing of the runs' outcomes (before the first read of what is waited on)."""
        ...

    def listen_async(self) -> AbstractAsyncContextManager[AsyncSignal]:
        """`listen`, for an event loop."""
        ...

    def close(self) -> None:
        """Close this thread's connection (the next use opens another)."""
        ...
