"""A durable store for pending runs: `SqliteRunStore` (one file, no server, for a host on one
machine) and `PostgresRunStore` (a PostgreSQL database, shared by hosts on many machines), with
one API and one set of rules.

`Toolkit.run_calls` without a `wait_for` returns a pending `RunResult`: plain data to keep
until a person answers, maybe in another process. A store keeps it, hands it out to one
resumer at a time, and stores what resuming returns:

    store = SqliteRunStore("runs.sqlite3")                     # or PostgresRunStore("postgresql://…")
    run_id = store.save(await toolkit.run_calls(calls))       # process 1
    for waiting in store.pending(): ...                        # any process: what to ask
    run = await store.resume(toolkit, run_id, answer)          # process 2: claim, resume, store
    await store.expire(toolkit)                                # settle what has expired

A host of the loop for storage only: what an answer or the time does to a run is the
toolkit's (`Toolkit.resume`, `Toolkit.expire`); the store claims, keeps and lists.

- **One resumer at a time.** `resume` claims the run in one transaction: of two processes that
  resume the same run one runs the tool and the other gets `ResumeError`, and a request is
  answered once. A claim is a *lease*: renewed while the tool runs, and given back on its own
  when its holder dies (`lease` seconds after the last renewal), so no run stays claimed for good.
- **Never a call run twice in doubt.** A call whose tool started under a claim whose lease then
  ran out, before the outcome was written, is *in doubt* (`in_doubt()`): the store does not run
  it again by itself unless its tool declares `idempotent` in its hints. A person retries it
  (`retry`) or records what happened (`settle`); both are decisions in the log.
- **Nothing lost.** The outcome's write is retried while the lease lasts; if it still fails
  (the disk is full, the database locked past its time), `resume` raises `OutcomeNotStored`
  holding the resumed run, which the host can store later with `finish`. A row that is not a
  valid run is *quarantined*: listed by `quarantined()` with why, resumable by no one, and
  harmless to every other row.
- **Cheap to list.** Each waiting request is a row of its own, so `pending()` is one query that
  parses no run.

The async methods run their database work in a worker thread, so the event loop never waits on
the database. The rules are written once (`_core.py`, `_rows.py`, `_doubt.py`, `_log.py`,
`_tasks.py`) over a small `Backend` (`_backend.py`) that `_sqlite.py` and `_postgres.py` supply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._core import RunStore
from ._doubt import InDoubt
from ._sqlite import SqliteRunStore
from ._types import CONTEXT_LIMIT, UNCHANGED, Claim, OutcomeNotStored, PendingRequest, Status, StoredRun

if TYPE_CHECKING:
    from ._postgres import PostgresRunStore

__all__ = [
    "CONTEXT_LIMIT",
    "UNCHANGED",
    "Claim",
    "InDoubt",
    "OutcomeNotStored",
    "PendingRequest",
    "PostgresRunStore",
    "RunStore",
    "SqliteRunStore",
    "Status",
    "StoredRun",
    "open_store",
]


def __getattr__(name: str) -> Any:
    if name == "PostgresRunStore":  # psycopg (the extra `postgres`) is imported only when used
        from ._postgres import PostgresRunStore

        return PostgresRunStore
    raise AttributeError(f"module 'toolnexus.store' has no attribute {name!r}")


def open_store(where: str, **options: Any) -> RunStore:
    """The store at `where`: a PostgreSQL database for a `postgresql://` or `postgres://` URL,
    else a SQLite file's path."""
    if where.startswith(("postgresql://", "postgres://")):
        from ._postgres import PostgresRunStore

        return PostgresRunStore(where, **options)
    return SqliteRunStore(where, **options)


def run_expiry(store: RunStore, run_id: int) -> float | None:
    """When something of the stored run expires first (a Unix time), or None."""
    return store.expiry(run_id)
