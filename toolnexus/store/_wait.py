"""Waiting for a stored run to move on: `store.wait(run_id, timeout)` and `await
store.wait_async(run_id, timeout)`, for a host that suspended a run and wants to hear when a
person's answer has been taken, in any process.

What it waits for, exactly: an *outcome* of the run stored after the call (or after `since`, the
run as the caller last saw it). An outcome is what `resume`, `finish`, `expire`, `retry` and
`settle` write (the run waiting on other requests, or done), and the run set aside (`refused`,
`quarantined`). A claim is not one (it ends in an outcome, or is handed back unchanged), nor is
a `release` to `pending`. A run that is done, refused or quarantined already is returned at once:
nothing more will happen to it.

How it hears of one: PostgreSQL by `LISTEN toolnexus_runs` on a connection of its own (every
write of an outcome sends `NOTIFY toolnexus_runs, '<run id>'` in its transaction, so it is heard
when it commits); SQLite by polling the file's `PRAGMA data_version` (which changes when any
connection commits) every `poll` seconds, 0.05 by default, reading the run again only then.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from .._book import refuse_missing
from .._errors import UsageError
from .._result import RunResult
from ._types import StoredRun

if TYPE_CHECKING:
    from ._backend import Backend

#: The statuses after which nothing more happens to a run.
_FINAL = ("done", "refused", "quarantined")


class Waits:
    """`wait` and `wait_async` over a `Backend`'s `listen` and `listen_async`."""

    _db: Backend

    if TYPE_CHECKING:

        def get(self, run_id: int) -> StoredRun | None: ...  # `RunRows.get`

    def wait(self, run_id: int, timeout: float, *, since: RunResult | None = None) -> StoredRun | None:
        """Block until the stored run `run_id` has an outcome stored after this call (or one that
        differs from `since`, the run as the caller last saw it), and return it as stored; None
        when `timeout` seconds pass first. A run that is done, refused or quarantined is returned
        at once. `ResumeError` (`not_pending`) when there is no such run. See the module's text."""
        deadline = _deadline(timeout)
        with self._db.listen() as signal:  # listening before the first read: no outcome is missed
            mark = self._mark(run_id, since)
            while True:
                found = self._moved(run_id, mark)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                signal.wait(run_id, left)

    async def wait_async(
        self, run_id: int, timeout: float, *, since: RunResult | None = None
    ) -> StoredRun | None:
        """`wait`, without blocking the event loop: the database's reads run in a worker thread,
        and the wait itself is the event loop's (cancel the task to stop waiting)."""
        deadline = _deadline(timeout)
        async with self._db.listen_async() as signal:
            mark = await asyncio.to_thread(self._mark, run_id, since)
            while True:
                found = await asyncio.to_thread(self._moved, run_id, mark)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                await signal.wait(run_id, left)

    def _mark(self, run_id: int, since: RunResult | None) -> str | None:
        """What the run is now (its JSON), to tell an outcome from; None for a final run."""
        if since is not None:
            if not isinstance(since, RunResult):
                raise UsageError(f"since must be the RunResult last seen of run {run_id}, got {since!r}")
            return since.to_json()
        found = self.get(run_id)
        if found is None:
            raise refuse_missing(f"run {run_id}")
        if found.status in _FINAL or found.run is None:
            return None
        return found.run.to_json()

    def _moved(self, run_id: int, mark: str | None) -> StoredRun | None:
        """The run when it has moved on from `mark`, else None."""
        found = self.get(run_id)
        if found is None:
            raise refuse_missing(f"run {run_id}")
        if mark is None or found.status in _FINAL or found.run is None or found.run.to_json() != mark:
            return found
        return None


def _deadline(timeout: float) -> float:
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout >= 0:
        raise UsageError(f"timeout must be a number of seconds (0 or more), got {timeout!r}")
    return time.monotonic() + timeout
