"""Calls in doubt: a call whose tool started under a claim, and whose outcome was not written when
the claim's lease ran out. The tool may have done its work (a payment made) or not; the store
cannot know, so it never runs such a call again by itself. A tool that declares `idempotent` in
its hints is not marked: running it again under the same idempotency key is safe, and a claim
whose holder died is given back as before.

Before the tools of a claim run, the claim's row records the calls about to run whose tools are
not idempotent, with the answers they run on (`runs.doubt`, JSON). The outcome's write clears it;
so does a release. A claimed row whose lease has run out with `doubt` set is in doubt: no one can
claim it, `pending()` leaves it out, and `in_doubt()` lists its calls.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from .._book import refuse_missing, refuse_over
from .._errors import ResumeError, UsageError
from .._result import Answer, RunResult, ToolCall
from .._rewrap import with_results
from .._toolkit import forget_answers
from ._lease import Leases
from ._types import Claim

if TYPE_CHECKING:
    from .._toolkit import Toolkit
    from ._backend import Backend
    from ._log import DecisionLog

#: What `runs.doubt` holds: the answers the claim took, the calls that started, and when.
_IN_DOUBT = (
    "SELECT id, lease, doubt FROM runs WHERE status = 'claimed' AND doubt IS NOT NULL AND lease_until < ?"
)


@dataclass(frozen=True, slots=True)
class InDoubt:
    """A call in doubt: the run it is of, the call (tool and arguments), the idempotency key it ran
    under, when it started (a Unix time) and the token of the lease that held it."""

    run_id: int
    call: ToolCall
    idempotency_key: str
    started_at: float
    lease: str

    @property
    def tool(self) -> str:
        return self.call.name

    @property
    def arguments(self) -> Any:
        return self.call.arguments


class Doubts(Leases):
    """The calls in doubt of a store, and what a person does about them (a retry and a settle are
    steps under a claim: `Leases`)."""

    _db: Backend
    _clock: Callable[[], float]
    lease: float
    log: DecisionLog

    def _started(self, run_id: int, lease: str, batch: list[Answer], calls: list[dict[str, Any]]) -> bool:
        """Record that `calls` start now under the claim `lease`, on the answers `batch`; False
        when that claim is no longer the run's (its lease ran out and another process took it)."""
        doubt = {"answers": [a.to_wire() for a in batch], "calls": calls, "started": self._clock()}
        # One statement, its own transaction: no BEGIN and COMMIT to wait on before the tool runs.
        cur = self._db.connection().execute(
            "UPDATE runs SET doubt = ? WHERE id = ? AND status = 'claimed' AND lease = ?",
            (json.dumps(doubt, ensure_ascii=False), run_id, lease),
        )
        return cur.rowcount == 1

    def _unclaim(self, run_id: int, lease: str) -> None:
        """Hand the run back as it was while the claim `lease` is still its own: the calls it
        marked did not start (the mark failed), so they are not in doubt."""
        with self._db.transaction() as conn:
            conn.execute(
                "UPDATE runs SET status = 'pending', lease = NULL, lease_until = NULL, doubt = NULL,"
                " updated_at = ? WHERE id = ? AND status = 'claimed' AND lease = ?",
                (self._clock(), run_id, lease),
            )

    def _lapse(self, run_id: int, lease: str) -> None:
        """End the claim `lease` now, its calls left in doubt (it was cut off while they ran)."""
        with self._db.transaction() as conn:
            conn.execute(
                "UPDATE runs SET lease_until = 0 WHERE id = ? AND status = 'claimed' AND lease = ?"
                " AND doubt IS NOT NULL",
                (run_id, lease),
            )

    def in_doubt(self) -> list[InDoubt]:
        """Every call in doubt, oldest run first, each run's in call order."""
        rows = self._db.connection().execute(_IN_DOUBT + " ORDER BY id", (self._clock(),)).fetchall()
        out = []
        for run_id, lease, text in rows:
            doubt = json.loads(text)
            for call in doubt["calls"]:
                out.append(
                    InDoubt(run_id, ToolCall.from_wire(call["call"]), call["key"], doubt["started"], lease)
                )
        return out

    async def retry(
        self, toolkit: Toolkit, run_id: int, *, principal: str | None = None, session: str | None = None
    ) -> RunResult:
        """Run the calls in doubt of `run_id` again, under the same idempotency keys, on the answers
        they ran on, and store the outcome (as `resume` does). Logged first, as a decision
        (`kind` `retry`) of `principal`. `ResumeError` (`not_pending`) when no call of it is in doubt."""
        return await self._again(toolkit, run_id, "retry", None, principal, session)

    async def settle(
        self,
        toolkit: Toolkit,
        run_id: int,
        result: Any,
        *,
        principal: str | None = None,
        session: str | None = None,
    ) -> RunResult:
        """Record what the call in doubt of `run_id` did, `result` (what its tool would have
        returned: a value, or a `ToolResult`), and continue the run with it without running the
        tool; store the outcome and return it. A run with several calls in doubt takes a mapping
        of each call's id to its result. Logged first, as a decision (`kind` `settle`)."""
        return await self._again(toolkit, run_id, "settle", result, principal, session)

    async def _again(
        self,
        toolkit: Toolkit,
        run_id: int,
        kind: Literal["retry", "settle"],
        result: Any,
        principal: str | None,
        session: str | None,
    ) -> RunResult:
        claim, doubt = await asyncio.to_thread(self._take_over, run_id)
        calls = [ToolCall.from_wire(c["call"]) for c in doubt["calls"]]
        results: dict[str, Any] | None = None
        if kind == "settle":
            ids = {c.id for c in calls}
            if len(calls) == 1:
                results = {calls[0].id: result}
            elif isinstance(result, Mapping) and set(result) == ids:
                results = dict(result)
            else:
                await asyncio.to_thread(self._give_back, run_id, claim.lease, doubt)
                raise UsageError(
                    f"run {run_id} has {len(calls)} calls in doubt ({', '.join(sorted(ids))}):"
                    " settle takes a mapping of each call's id to its result"
                )
        entries = [
            {
                "kind": kind,
                "tool": call.name,
                "call": call.id,
                "request": None,
                "arguments": call.arguments,
                "run": run_id,
                "idempotencyKey": key["key"],
                **({"result": _json(results[call.id])} if results is not None else {}),
            }
            for call, key in zip(calls, doubt["calls"], strict=True)
        ]
        await asyncio.to_thread(self.log.record_entries, entries, principal=principal, at=toolkit.now())
        answers = [Answer.from_wire(a) for a in doubt["answers"]]
        kit = toolkit if results is None else with_results(toolkit, results)
        forget_answers(kit, claim.run, answers)  # given again on purpose, also in this process
        try:
            return await self.under_lease(
                kit,
                run_id,
                answers,
                lambda marking, run: marking.resume(run, answers, principal=principal, session=session),
                claim,
                doubt=doubt,
            )
        except ResumeError:  # the toolkit refused before anything ran (a principal, a seal): still in doubt
            await asyncio.to_thread(self._give_back, run_id, claim.lease, doubt)
            raise

    def _take_over(self, run_id: int) -> tuple[Claim, dict[str, Any]]:
        """Take the claim of `run_id`, whose calls are in doubt, under a new lease of this process."""
        now, lease = self._clock(), secrets.token_hex(8)
        with self._db.transaction() as conn:
            row = conn.execute(
                "SELECT status, body, lease_until, doubt FROM runs WHERE id = ?" + self._db.row_lock,
                (run_id,),
            ).fetchone()
            if row is None:
                raise refuse_missing(f"run {run_id}")
            status, body, until, doubt = row
            if status != "claimed" or doubt is None or until is None or until >= now:
                raise refuse_over(f"run {run_id} has no call in doubt", [])
            conn.execute(
                "UPDATE runs SET lease = ?, lease_until = ?, doubt = NULL, updated_at = ? WHERE id = ?",
                (lease, now + self.lease, now, run_id),
            )
        return Claim(RunResult.from_json(body), lease), json.loads(doubt)

    def _give_back(self, run_id: int, lease: str, doubt: dict[str, Any]) -> None:
        """Put the calls in doubt back as they were (claimed under a lapsed lease, the doubt
        recorded), after a retry or settle that ran nothing: held by `lease`, or handed back."""
        with self._db.transaction() as conn:
            conn.execute(
                "UPDATE runs SET status = 'claimed', lease = ?, doubt = ?, lease_until = 0, reason = NULL"
                " WHERE id = ? AND (lease = ? OR (status = 'pending' AND lease IS NULL))",
                (lease, json.dumps(doubt, ensure_ascii=False), run_id, lease),
            )


def _json(value: Any) -> Any:
    """`value` as the log keeps it: itself when it is JSON, else its wire form or its text."""
    to_wire = getattr(value, "to_wire", None)
    if callable(to_wire):
        return to_wire()
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value
