"""The store's rules, written once for every database: a claim under a lease, the outcome kept
while it holds, a run handed back or set aside. `SqliteRunStore` and `PostgresRunStore` are this
over their `Backend`."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, Literal

from .._book import refuse_answering, refuse_missing, refuse_over, refuse_replayed, refuse_seal
from .._errors import ResumeError, WireError
from .._result import Answer, RunResult
from .._toolkit import ProgressHook, Toolkit
from ._backend import Backend, Connection
from ._doubt import Doubts
from ._log import DecisionLog, Policies
from ._results import StoredResults
from ._rows import INSERT_WAITING, RunRows, quarantined
from ._tasks import Tasks
from ._types import UNCHANGED, Claim, Row, answers_of, context_of, context_text, row_of, waiting_rows
from ._wait import Waits


class RunStore(RunRows, Doubts, Waits):
    """Pending runs in a database, each handed out to one resumer at a time (see the package).

    `lease` is how long (seconds) a claim holds without renewal: a resumer renews it while its
    tools run, so only a resumer that died loses it. `clock` is what the store reads the time
    from (Unix seconds; `time.time` by default): leases, expiry and the times it writes."""

    #: Where the store is, for people (a file's path; a database's host, port and name).
    path: str

    def __init__(self, db: Backend, lease: float, clock: Callable[[], float] = time.time) -> None:
        self._db = db
        self.lease = lease
        self._clock = clock
        self.policies = Policies(db)  #: `Toolkit(policy_store=store.policies)`
        self.log = DecisionLog(db)  #: `Toolkit(decision_log=store.log)`: hash-chained
        self.tasks = Tasks(db)  #: an MCP server's tasks: `mcp_server(toolkit, store=store)`
        self.results = StoredResults(db)  #: `Toolkit(spill=store.results)`: cut outputs kept whole

    def close(self) -> None:
        """Close this thread's connection (the next use opens another)."""
        self._db.close()

    def claim(self, run_id: int, answers: Answer | Iterable[Answer]) -> Claim:
        """Take the run to resume it with `answers` (it becomes `claimed` under a lease), in one
        transaction, and return it with the lease's token.

        Raises `ResumeError` and changes nothing when the run cannot be taken: `replayed` when an
        answer answers a request this run already took an answer to, or that another process
        is answering now; `not_pending` when the run is claimed, in doubt, done, refused or not
        there; `seal` when the row is not a valid run (it is then quarantined). Hand the run back
        with `finish` (or `release`).
        """
        ids = [a.id for a in answers_of(answers)]
        now = self._clock()
        lease = secrets.token_hex(8)
        ids_column = self._db.waiting_ids
        with self._db.transaction() as conn:
            row = conn.execute(
                "SELECT status, answered, body, lease_until, doubt, context"
                + (f", {ids_column}" if ids_column else "")
                + " FROM runs WHERE id = ?"
                + self._db.claim_lock,
                (run_id,),
            ).fetchone()
            listed: str | None = None  # the waiting request ids, as read with the row (`waiting_ids`)
            read = row is not None and bool(ids_column)
            if row is None:
                if conn.execute("SELECT 1 FROM runs WHERE id = ?", (run_id,)).fetchone() is None:
                    raise refuse_missing(f"run {run_id}")
                row = ("claimed", "[]", "", None, None, None)  # another process is taking it right now
            elif read:
                *row, listed = row
            status, answered, body, until, doubt, context = row
            if status == "claimed" and until is not None and until < now:
                if doubt is not None:  # its holder is gone while a call ran: no one may run it again
                    raise refuse_over(f"run {run_id} has a call in doubt (settle or retry it)", ids)
                status = "pending"  # its holder is gone
            if read:  # none waiting reads as NULL
                waiting = set(json.loads(listed or "[]"))
            else:
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
                why = quarantined(conn, run_id, exc, now)
                self._db.changed(conn, run_id)
            else:
                conn.execute(
                    "UPDATE runs SET status = 'claimed', lease = ?, lease_until = ?, updated_at = ?"
                    " WHERE id = ?",
                    (lease, now + self.lease, now, run_id),
                )
        if why is not None:
            raise refuse_seal(f"run {run_id} is not a valid run ({why}); it is quarantined")
        return Claim(run, lease, context_of(context))

    def renew(self, run_id: int, lease: str) -> bool:
        """Extend the claim `lease` on `run_id` by another `lease` seconds; False when it is no
        longer held by that token."""
        now = self._clock()
        with self._db.transaction() as conn:
            cur = conn.execute(
                "UPDATE runs SET lease_until = ?, updated_at = ?"
                " WHERE id = ? AND status = 'claimed' AND lease = ?",
                (now + self.lease, now, run_id, lease),
            )
        return cur.rowcount == 1

    def finish(
        self,
        run_id: int,
        answered: Answer | Iterable[Answer],
        run: RunResult,
        *,
        lease: str | None = None,
        context: Any = UNCHANGED,
    ) -> None:
        """Store what resuming the claimed run `run_id` with `answered` returned: pending again
        (on the requests still open) or done. The requests answered are remembered, so none is
        taken twice. With `lease`, only while that claim is the run's last (`ValueError` if
        another process has claimed it since); `ValueError` when the run is not claimed. With
        `context`, the context kept with the run is replaced, in the same transaction."""
        text = context_text(context, f"run {run_id}")
        self._store(run_id, row_of(run), [a.id for a in answers_of(answered)], lease, text)

    def _store(
        self, run_id: int, row: Row, answered: list[str], lease: str | None, context: str | None = None
    ) -> None:
        with self._db.transaction() as conn, self._db.batched(conn):
            write_outcome(conn, self._db.row_lock, run_id, row, answered, lease, now=self._clock())
            self._db.changed(conn, run_id)
            if context is not None:
                conn.execute("UPDATE runs SET context = ? WHERE id = ?", (context, run_id))

    def release(
        self, run_id: int, status: Literal["pending", "refused"] = "pending", *, reason: str | None = None
    ) -> None:
        """Hand a claimed run back unchanged (`pending`), or set it aside for good (`refused`,
        with `reason`). A claim whose holder died is given back on its own when its lease runs
        out; this gives it back at once."""
        with self._db.transaction() as conn:
            conn.execute(
                "UPDATE runs SET status = ?, lease = NULL, lease_until = NULL, reason = ?, doubt = NULL,"
                " updated_at = ? WHERE id = ? AND status = 'claimed'",
                (status, reason, self._clock(), run_id),
            )
            if status == "refused":
                self._db.changed(conn, run_id)

    async def resume(
        self,
        toolkit: Toolkit,
        run_id: int,
        answers: Answer | Iterable[Answer],
        *,
        principal: str | None = None,
        session: str | None = None,
        progress: ProgressHook | None = None,
        context: Any = UNCHANGED,
    ) -> RunResult:
        """Claim the run, continue it with `toolkit.resume(run, answers, principal=..., session=...,
        progress=...)`, store the outcome and return it. `answers` is one `Answer` or several,
        to any of the requests the run waits on. With `context`, the context kept with the run is
        replaced by it, with the outcome (else it stays as it was).

        Raises `ResumeError` from `claim` (another process has the run, the request was
        answered, the row is not a valid run) or from `toolkit.resume`: then nothing ran, and
        the run goes back to `pending` as it was, except for a seal that does not hold, which
        marks it `refused`. Raises `OutcomeNotStored`, holding the resumed run, when the tools
        ran but the outcome could not be stored (see there). Raises the database's error when
        the calls about to run could not be marked started: then none of those tools ran, and
        the run goes back to `pending` as it was.
        """
        batch = answers_of(answers)
        text = context_text(context, f"run {run_id}")
        return await self.under_lease(
            toolkit,
            run_id,
            batch,
            lambda kit, run: kit.resume(run, batch, principal=principal, session=session, progress=progress),
            context=text,
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
                await self.under_lease(
                    toolkit, run_id, [], lambda kit, run: kit.expire(run, now=when, principal=principal)
                )
            except ResumeError:
                continue
            settled.append(run_id)
        return settled


def write_outcome(
    conn: Connection,
    lock: str,
    run_id: int,
    row: Row,
    answered: list[str],
    lease: str | None,
    *,
    now: float,
) -> None:
    """Store a claimed run's outcome (`row`), and the answers it took, while `lease` holds it."""
    status, body, expires, waiting = row
    held = conn.execute(
        "SELECT status, answered, lease, principal, session FROM runs WHERE id = ?" + lock, (run_id,)
    ).fetchone()
    if held is None or held[0] != "claimed" or (lease is not None and held[2] != lease):
        raise ValueError(f"run {run_id} is not claimed under this lease, so there is nothing to finish")
    conn.execute(
        "UPDATE runs SET status = ?, body = ?, expires_at = ?, answered = ?, lease = NULL,"
        " lease_until = NULL, doubt = NULL, updated_at = ? WHERE id = ?",
        (status, body, expires, json.dumps([*json.loads(held[1]), *answered]), now, run_id),
    )
    conn.execute("DELETE FROM waiting WHERE run_id = ?", (run_id,))
    if waiting:
        conn.executemany(INSERT_WAITING, waiting_rows(run_id, waiting, held[3], held[4]))
