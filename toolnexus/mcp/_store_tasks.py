"""The tasks of a served toolkit kept in a `SqliteRunStore` (`store.tasks`), so that any process
serving the same file answers for them: the store's backend of `toolnexus/mcp/_tasks.py`.

A host of the loop like the rest of the bridge: the call runs through `Toolkit.run_calls`; an
answer goes through `SqliteRunStore.resume` (the store's claim, then `Toolkit.resume`, so
approval, edited arguments, refusals, policies and expiry are the engine's); a cancellation is
`Toolkit.cancel` (the engine settles the call as declined with reason `cancelled`) or, for a
task waiting on a person, a refusal with reason `cancelled`. While the call runs, its runner
holds a lease on the task's row (`toolnexus/store/_tasks.py`); a task whose lease ran out reads `failed`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from mcp_types.jsonrpc import INTERNAL_ERROR

from toolnexus._errors import ResumeError
from toolnexus._result import Answer, Request, RunResult, ToolCall
from toolnexus._toolkit import Toolkit, seals
from toolnexus.adapters.mcp import mcp_call_tool_result
from toolnexus.store._tasks import StoredTask

from ._tasks import CANCELLED_MESSAGE, TaskView, settled_status, waiting_requests

if TYPE_CHECKING:
    from toolnexus.store import RunStore

__all__ = ["StoreTasks"]

logger = logging.getLogger("toolnexus.mcp")


class _Notes:
    """A task's status message, from the call's progress messages: the last one is written to
    the store by one writer at a time (progress may come from a sync tool's worker thread)."""

    def __init__(self, tasks: StoreTasks, task_id: str) -> None:
        self._tasks = tasks
        self._task_id = task_id
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()
        self._latest: str | None = None
        self._writer: asyncio.Task[None] | None = None

    def __call__(self, call_id: str, fraction: float, message: str) -> None:
        if not message:
            return
        if threading.get_ident() == self._thread:
            self._put(message)
        else:
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._put, message)

    def _put(self, message: str) -> None:
        self._latest = message
        if self._writer is None or self._writer.done():
            self._writer = self._loop.create_task(self._write())

    async def _write(self) -> None:
        while (message := self._latest) is not None:
            self._latest = None
            try:
                await asyncio.to_thread(self._tasks.table.note, self._task_id, message)
            except Exception:  # advisory: the result still goes out
                logger.debug("a task's status message was not stored", exc_info=True)

    async def close(self) -> None:
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)


class StoreTasks:
    """A `TaskBackend`: the tasks of `toolkit`, in `store` (see the module's docstring)."""

    def __init__(self, toolkit: Toolkit, store: RunStore, *, ttl: float | None, poll_ms: int) -> None:
        self.toolkit = toolkit
        self.store = store
        self.table = store.tasks
        self.ttl = ttl
        self.poll_ms = poll_ms
        self._runners: dict[str, asyncio.Task[None]] = {}  # task id -> its runner, in this process

    # -- create --------------------------------------------------------------------------

    async def create(self, call: ToolCall, principal: str | None) -> TaskView:
        """Store a new task for `call` and start it: returned once the task is committed to the
        store, so a `find` in any process finds it."""
        task_id = str(uuid.uuid4())
        turn = f"task-{task_id}"
        lease = secrets.token_hex(8)
        ttl_ms = None if self.ttl is None else round(self.ttl * 1000)
        task = await asyncio.to_thread(
            self.table.create,
            task_id,
            call,
            turn,
            owner=principal,
            ttl_ms=ttl_ms,
            poll_ms=self.poll_ms,
            lease=lease,
            lease_for=self.store.lease,
        )
        toolkit = self.toolkit

        def first(notes: _Notes) -> Awaitable[RunResult]:
            # The run's expiry and principal go into its seal (a toolkit without a key keeps
            # neither; the task's owner still binds the task).
            sealed = seals(toolkit)
            return toolkit.run_calls(
                [call],
                expires_in=self.ttl if sealed else None,
                principal=principal if sealed else None,
                turn_id=turn,
                progress=notes,
            )

        self._launch(task, lease, first)
        return _view(task)

    def _launch(self, task: StoredTask, lease: str, step: Callable[[_Notes], Awaitable[RunResult]]) -> None:
        runner = asyncio.ensure_future(self._run(task, lease, step))
        self._runners[task.id] = runner
        runner.add_done_callback(lambda _: self._runners.pop(task.id, None))

    async def _run(
        self, task: StoredTask, lease: str, step: Callable[[_Notes], Awaitable[RunResult]]
    ) -> None:
        """Make `step` (a first run, or a resume) under the task's lease, and store what came of it."""
        notes = _Notes(self, task.id)
        keeper = asyncio.ensure_future(self._keep(task, lease))
        try:
            run = await step(notes)
        except ResumeError as exc:
            await self._resume_refused(task, lease, exc)
            return
        except asyncio.CancelledError:  # the server is shutting down: its lease runs out, and it reads failed
            raise
        except Exception as exc:
            logger.exception("task %s failed", task.id)
            await self._fail(task, lease, f"the call could not be run: {exc}")
            return
        finally:
            keeper.cancel()
            await notes.close()
        await self._record(task, lease, run)

    async def _record(self, task: StoredTask, lease: str, run: RunResult) -> None:
        if run.status == "done":
            result = run.results[0].result
            status = settled_status(result)
            await asyncio.to_thread(
                self.table.settle,
                task.id,
                status,
                expect=("working",),
                lease=lease,
                result=mcp_call_tool_result(result),
                message=CANCELLED_MESSAGE if status == "cancelled" else None,
            )
            return
        run_id = task.run_id
        if run_id is None:  # the first suspension: the run is stored (a resume stored it already)
            run_id = await asyncio.to_thread(self.store.save, run)
        stored = await asyncio.to_thread(self.store.get, run_id)
        expiry = self.store.expiry(run_id)
        ttl_ms = None if expiry is None else max(0, round((expiry - task.created_at) * 1000))
        waiting = waiting_requests(run if stored is None or stored.run is None else stored.run)
        await asyncio.to_thread(
            self.table.settle,
            task.id,
            "input_required",
            expect=("working",),
            lease=lease,
            run_id=run_id,
            ttl_ms=ttl_ms,
            message=waiting[0].prompt if waiting else None,
        )

    async def _resume_refused(self, task: StoredTask, lease: str, exc: ResumeError) -> None:
        """The store refused an answer (another process answered first, the run expired and
        was settled): the task follows its run as stored."""
        assert task.run_id is not None
        stored = await asyncio.to_thread(self.store.get, task.run_id)
        if stored is not None and stored.run is not None and stored.status == "done":
            await self._record(task, lease, stored.run)
            return
        if stored is not None and stored.run is not None and stored.status in ("pending", "claimed"):
            await asyncio.to_thread(
                self.table.settle,
                task.id,
                "input_required",
                expect=("working",),
                lease=lease,
                message=str(exc),
            )
            return
        await self._fail(task, lease, f"the task's run cannot be resumed: {exc}")

    async def _fail(self, task: StoredTask, lease: str, why: str) -> None:
        """Settle the working task as `failed`, with `why` as its JSON-RPC error and message."""
        error = {"code": INTERNAL_ERROR, "message": why}
        await asyncio.to_thread(
            self.table.settle, task.id, "failed", expect=("working",), lease=lease, error=error, message=why
        )

    async def _keep(self, task: StoredTask, lease: str) -> None:
        """Renew the runner's lease every third of it; a cancellation asked in another process
        (a flag in the row) becomes `Toolkit.cancel` here."""
        cancelled = False
        while True:
            await asyncio.sleep(self.store.lease / 3)
            try:
                held, asked = await asyncio.to_thread(self.table.renew, task.id, lease, self.store.lease)
            except Exception:  # a missed renewal: the next one may do
                logger.debug("a task's lease was not renewed", exc_info=True)
                continue
            if asked and not cancelled:
                cancelled = self.toolkit.cancel(task.call.id, turn_id=task.turn)
            if not held:
                return

    # -- find, answer, cancel -------------------------------------------------------------

    async def find(self, task_id: str, principal: str | None) -> TaskView | None:
        """The task, when it is there and `principal` owns it; an `input_required` task whose run
        has expired is settled first, as the loop settles an expiry."""
        task = await asyncio.to_thread(self.table.get, task_id)
        if task is None or task.owner != principal:
            return None
        if task.status == "input_required":
            task = await self._expire_if_due(task)
        if task.status != "input_required" or task.run_id is None:
            return _view(task)
        stored = await asyncio.to_thread(self.store.get, task.run_id)
        run = None if stored is None else stored.run
        return _view(task, tuple(waiting_requests(run)) if run is not None else ())

    async def _expire_if_due(self, task: StoredTask) -> StoredTask:
        """An `input_required` task whose run has expired is settled as the loop settles an
        expiry (`Toolkit.expire`, through the store), and reads as what came of it."""
        assert task.run_id is not None
        expiry = self.store.expiry(task.run_id)
        if expiry is None or expiry > time.time():
            return task
        lease = secrets.token_hex(8)
        if not await asyncio.to_thread(
            self.table.settle,
            task.id,
            "working",
            expect=("input_required",),
            lease=lease,
            lease_for=self.store.lease,
        ):
            return await self._reread(task)
        toolkit = self.toolkit
        try:
            run = await self.store.under_lease(toolkit, task.run_id, [], lambda kit, run: kit.expire(run))
        except ResumeError as exc:
            await self._resume_refused(task, lease, exc)
        else:
            await self._record(task, lease, run)
        return await self._reread(task)

    async def _reread(self, task: StoredTask) -> StoredTask:
        again = await asyncio.to_thread(self.table.get, task.id)
        assert again is not None
        return again

    async def answer(self, task: TaskView, answers: list[Answer], principal: str | None) -> None:
        """Resume the task's run with `answers` through `SqliteRunStore.resume`, in the background."""
        stored = await asyncio.to_thread(self.table.get, task.id)
        if stored is not None:
            self._resume(stored, answers, principal)

    def _resume(self, task: StoredTask, answers: list[Answer], principal: str | None) -> None:
        lease = secrets.token_hex(8)
        if task.run_id is None or not self.table.settle(
            task.id, "working", expect=("input_required",), lease=lease, lease_for=self.store.lease
        ):
            return  # another request took the task first: these answers have no use
        run_id, store, toolkit = task.run_id, self.store, self.toolkit

        def step(notes: _Notes) -> Awaitable[RunResult]:
            bound = principal if seals(toolkit) else None
            return store.resume(toolkit, run_id, answers, principal=bound, progress=notes)

        self._launch(task, lease, step)

    async def cancel(self, task: TaskView, principal: str | None) -> None:
        """A running call's handler is cancelled here at once, or in another process when its
        runner next renews its lease; a task waiting on a person has its requests refused with
        reason `cancelled`."""
        stored = await asyncio.to_thread(self.table.get, task.id)
        if stored is None:
            return
        if stored.status == "working":
            await asyncio.to_thread(self.table.ask_cancel, stored.id)
            if stored.id in self._runners:
                self.toolkit.cancel(stored.call.id, turn_id=stored.turn)
        elif stored.status == "input_required" and task.requests:
            refusals = [Answer(r.id, False, reason="cancelled") for r in task.requests]
            self._resume(stored, refusals, principal)


def _view(task: StoredTask, requests: tuple[Request, ...] = ()) -> TaskView:
    return TaskView(
        task.id,
        task.status,
        task.created_at,
        task.updated_at,
        task.ttl_ms,
        task.poll_ms,
        message=task.message,
        result=task.result,
        error=task.error,
        requests=requests,
    )
