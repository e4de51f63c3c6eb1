"""A step of a stored run made under a claim: claimed, the calls about to run marked started
(when a tool is not idempotent: see `_doubt.py`), the lease renewed while the tools run, and the
outcome stored while the lease holds."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING, Any

from .._errors import ResumeError
from .._result import Answer, RunResult
from .._rewrap import before_tools
from .._seal import idempotency_key, turn_digest
from .._toolkit import Toolkit, forget_answers
from ._types import Claim, OutcomeNotStored, row_of

if TYPE_CHECKING:
    from ._backend import Backend


def started_calls(toolkit: Toolkit, run: RunResult, batch: list[Answer]) -> list[dict[str, Any]]:
    """The calls of `run` that `batch` answers and whose tools are not idempotent: what resuming
    is about to run, as `runs.doubt` keeps them."""
    ids = {a.id for a in batch}
    calls, requests = run.calls or [], run.requests or ([run.pending] if run.pending else [])
    digest = turn_digest(run.order or [], run.turn) if run.order else b""
    out = []
    for call, request in zip(calls, requests, strict=False):
        if request.id not in ids:
            continue
        tool = toolkit.get(call.name)
        hints = tool.hints if tool is not None else None
        if hints is not None and hints.idempotent:
            continue
        key = idempotency_key(digest, call.id) if digest else ""
        out.append({"call": call.to_wire(), "key": key})
    return out


class Leases:
    """The steps a store makes under a claim (mixed into `RunStore`)."""

    _db: Backend
    lease: float

    if TYPE_CHECKING:

        def claim(self, run_id: int, answers: list[Answer]) -> Claim: ...

        renew: Any
        release: Any
        finish: Any
        _started: Any
        _lapse: Any
        _unclaim: Any
        _give_back: Any
        _store: Any

    async def under_lease(
        self,
        toolkit: Toolkit,
        run_id: int,
        batch: list[Answer],
        step: Any,
        claim: Claim | None = None,
        *,
        context: str | None = None,
        doubt: dict[str, Any] | None = None,
    ) -> RunResult:
        """Claim `run_id` for `batch` (unless `claim` holds it already), make `step(toolkit, run)` of it
        under a renewed lease, and store the outcome (see `RunStore.resume`, which is this with the
        toolkit's resume as `step`; a host built on the store, as the MCP tasks are, passes its own).
        The toolkit `step` is given marks the calls started just before their tools run, when a
        tool is not idempotent. `doubt` is the record of calls in doubt that `claim` took over (a
        retry or a settle): a mark that fails puts it back, so those calls stay in doubt."""
        errors = self._db.errors
        if claim is None:
            claim = await asyncio.to_thread(self.claim, run_id, batch)
        run, lease = claim.run, claim.lease
        renewal = asyncio.ensure_future(self._renew(run_id, lease))
        calls = started_calls(toolkit, run, batch)
        kit, marked = toolkit, list[str]()
        marking: list[asyncio.Future[None]] = []  # the one mark of `calls`, which each tool awaits
        if calls:

            async def starting(call_id: str) -> None:
                if not marked:  # from here, a lease that runs out leaves these calls in doubt
                    marked.append(call_id)
                    marking.append(asyncio.ensure_future(self._mark_started(run_id, lease, batch, calls)))
                await asyncio.shield(marking[0])  # no tool of `calls` runs before the mark holds

            kit = before_tools(toolkit, starting)
        try:
            resumed: RunResult = await step(kit, run)
            if marking and (unmarked := await _failure(marking[0])) is not None:
                raise _Unmarked(unmarked)
        except _Unmarked as exc:  # no tool of `calls` ran now: the run goes back as it was
            with contextlib.suppress(*errors):
                if doubt is None:
                    await asyncio.to_thread(self._unclaim, run_id, lease)
                else:  # they may have run before, under the lease that lapsed: still in doubt
                    await asyncio.to_thread(self._give_back, run_id, lease, doubt)
            forget_answers(toolkit, run, batch)
            raise exc.error from None
        except ResumeError as exc:
            if exc.reason == "expired":  # past its sealed expiry: settled now, never put back
                settled = await toolkit.expire(run)
                if settled is not run:
                    await asyncio.to_thread(self.finish, run_id, [], settled, lease=lease)
                    raise
            refused = exc.reason == "seal"
            await asyncio.to_thread(
                self.release,
                run_id,
                "refused" if refused else "pending",
                reason=str(exc) if refused else None,
            )
            raise
        except BaseException:  # cancelled, or the process is stopping: a call that started stays in doubt
            with contextlib.suppress(*errors):
                if marked:
                    await asyncio.shield(asyncio.to_thread(self._lapse, run_id, lease))
                else:
                    await asyncio.shield(asyncio.to_thread(self.release, run_id))
            raise
        finally:
            renewal.cancel()
        if resumed is run:  # nothing changed (nothing had expired): the run goes back as it was
            await asyncio.to_thread(self.release, run_id)
            return run
        try:
            return await self._store_outcome(run_id, resumed, batch, lease, context)
        except OutcomeNotStored:
            # Storage does not hold that the answers were taken, so this process does not either:
            # after `release`, they may be given again here as in any other process.
            forget_answers(toolkit, run, batch)
            raise

    async def _store_outcome(
        self, run_id: int, resumed: RunResult, batch: list[Answer], lease: str, context: str | None
    ) -> RunResult:
        """Write `resumed` as the outcome of the claimed run, retrying while the lease lasts."""
        try:
            row = row_of(resumed)
        except (TypeError, ValueError) as exc:  # a result with no JSON form: it cannot be stored
            await asyncio.to_thread(self.release, run_id, "refused", reason=f"its outcome is not JSON: {exc}")
            raise OutcomeNotStored(run_id, resumed, batch, lease, exc) from None
        answered = [a.id for a in batch]
        deadline = time.monotonic() + self.lease
        delay = 0.05
        while True:
            try:
                await asyncio.to_thread(self._store, run_id, row, answered, lease, context)
                return resumed
            except self._db.errors as exc:  # locked past its time, disk full, I/O: the lease holds
                if time.monotonic() + delay >= deadline:
                    raise OutcomeNotStored(run_id, resumed, batch, lease, exc) from None
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)
            except ValueError as exc:  # another process took the run after the lease ran out
                raise OutcomeNotStored(run_id, resumed, batch, lease, exc) from None

    async def _mark_started(
        self, run_id: int, lease: str, batch: list[Answer], calls: list[dict[str, Any]]
    ) -> None:
        """Mark `calls` started under the claim `lease`, tried again while a third of the lease
        lasts (the mark is the same each time: one that met the drop at its commit, and held, is
        written again unchanged); `ResumeError` when the claim is no longer this one's."""
        deadline = time.monotonic() + self.lease / 3
        delay = 0.05
        while True:
            try:
                held = await asyncio.to_thread(self._started, run_id, lease, batch, calls)
                break
            except self._db.errors:
                if time.monotonic() + delay >= deadline:
                    raise
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)
        if not held:
            raise ResumeError("not_pending", f"run {run_id}: its claim ran out before its tools started")

    async def _renew(self, run_id: int, lease: str) -> None:
        """Renew the claim every third of the lease while the tools run."""
        while True:
            await asyncio.sleep(self.lease / 3)
            with contextlib.suppress(*self._db.errors):  # a missed renewal: the next one may do
                if not await asyncio.to_thread(self.renew, run_id, lease):
                    return


class _Unmarked(Exception):
    """The calls about to run could not be marked started, so none of their tools ran: `error`
    is why (the database's error, or `ResumeError` when the claim ran out)."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


async def _failure(marking: asyncio.Future[None]) -> BaseException | None:
    """What the mark failed with, or None when it holds."""
    try:
        await asyncio.shield(marking)
    except Exception as exc:
        return exc
    return None
