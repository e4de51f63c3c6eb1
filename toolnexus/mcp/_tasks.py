"""MCP's Tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28), served: a tool call run in
the background, followed with `tasks/get`, answered with `tasks/update`, stopped with
`tasks/cancel`, and kept in a `SqliteRunStore` (`store.tasks`) so that any process serving the
same file answers for it.

A host of the loop like the rest of the bridge: the call runs through `Toolkit.run_calls`; an
answer goes through `SqliteRunStore.resume` (the store's claim, then `Toolkit.resume`, so
approval, edited arguments, refusals, policies and expiry are the engine's); a cancellation is
`Toolkit.cancel` (the engine settles the call as declined with reason `cancelled`) or, for a
task waiting on a person, a refusal with reason `cancelled`.

    working ──► input_required ──► working ──► completed | cancelled
       │               │                          ▲
       └───────────────┴──────────► failed ───────┘ (a JSON-RPC error: the server died under it)
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
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import Field

from toolnexus._errors import ResumeError, WireError
from toolnexus._result import Answer, Request, RunResult, ToolCall, ToolResult
from toolnexus._sqlite_tasks import StoredTask, TaskStatus
from toolnexus._suspend import pending
from toolnexus._toolkit import Toolkit
from toolnexus.adapters.mcp import answer_from_mcp, mcp_call_tool_result, mcp_input_required

if TYPE_CHECKING:
    from toolnexus.store import SqliteRunStore

__all__ = ["TASKS_EXTENSION", "TaskMode", "served_tasks"]

logger = logging.getLogger("toolnexus.mcp")

#: The extension's identifier, in the client's per-request capabilities and the server's.
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
#: Which calls a server runs as tasks, for a client that declares the extension: the calls to
#: tools whose hints say `long_running`, or every call.
TaskMode = Literal["long_running", "always"]


class TaskParams(types.RequestParams):
    """The params of `tasks/get` and `tasks/cancel`."""

    task_id: str = Field(alias="taskId")


class UpdateTaskParams(TaskParams):
    """The params of `tasks/update`."""

    input_responses: dict[str, Any] = Field(alias="inputResponses")


class GetTaskRequest(types.Request[TaskParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    params: TaskParams
    name_param = "taskId"  # the `Mcp-Name` header, which the extension asks for over HTTP


class UpdateTaskRequest(types.Request[UpdateTaskParams, Literal["tasks/update"]]):
    method: Literal["tasks/update"] = "tasks/update"
    params: UpdateTaskParams
    name_param = "taskId"


class CancelTaskRequest(types.Request[TaskParams, Literal["tasks/cancel"]]):
    method: Literal["tasks/cancel"] = "tasks/cancel"
    params: TaskParams
    name_param = "taskId"


class _Task(types.Result):
    """MCP's `Task`."""

    task_id: str
    status: str
    status_message: str | None = None
    created_at: str | None = None
    last_updated_at: str | None = None
    ttl_ms: int | None = None
    poll_interval_ms: int | None = None


class CreatedTask(_Task):
    """MCP's `CreateTaskResult`: the answer to a `tools/call` that became a task."""

    result_type: Literal["task"] = "task"


class TaskState(_Task):
    """A task as `tasks/get` reports it: with its result, its error or its input requests."""

    result_type: str | None = None
    input_requests: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


def declares_tasks(ctx: ServerRequestContext[Any, Any]) -> bool:
    """Whether this request's client declared the tasks extension (in its per-request
    capabilities, at 2026-07-28: a task is never returned to any other)."""
    if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        return False
    caps = (ctx.meta or {}).get(types.CLIENT_CAPABILITIES_META_KEY)
    extensions = caps.get("extensions") if isinstance(caps, dict) else None
    return isinstance(extensions, dict) and TASKS_EXTENSION in extensions


def _iso(when: float) -> str:
    return datetime.fromtimestamp(when, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _outcome(result: ToolResult) -> TaskStatus:
    """`cancelled` for a call the loop settled as cancelled, else `completed` (an error result
    too: `failed` is for JSON-RPC errors only)."""
    declined = (result.metadata or {}).get("declined")
    return (
        "cancelled" if isinstance(declined, dict) and declined.get("reason") == "cancelled" else "completed"
    )


def _waiting(run: RunResult) -> list[Request]:
    return list(run.requests) or ([run.pending] if run.pending is not None else [])


class _Notes:
    """A task's status message, from the call's progress messages: the last one is written to
    the store by one writer at a time (progress may come from a sync tool's worker thread)."""

    def __init__(self, tasks: _ServedTasks, task_id: str) -> None:
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


class _ServedTasks:
    """The tasks of one served toolkit, in `store` (see the module's docstring)."""

    def __init__(
        self,
        toolkit: Toolkit,
        store: SqliteRunStore,
        *,
        mode: TaskMode,
        ttl: float | None,
        poll_interval: float,
        principal: Callable[[ServerRequestContext[Any, Any]], str | None],
    ) -> None:
        if mode not in ("long_running", "always"):
            raise ValueError(f"tasks must be 'long_running' or 'always', got {mode!r}")
        if ttl is not None and not ttl > 0:
            raise ValueError(f"task_ttl must be a positive number of seconds or None, got {ttl!r}")
        if not poll_interval > 0:
            raise ValueError(f"poll_interval must be a positive number of seconds, got {poll_interval!r}")
        self.toolkit = toolkit
        self.store = store
        self.table = store.tasks
        self.mode = mode
        self.ttl = ttl
        self.poll_ms = max(1, round(poll_interval * 1000))
        self.principal = principal
        self._runners: dict[str, asyncio.Task[None]] = {}  # task id -> its runner, in this process

    # -- which calls ---------------------------------------------------------------------

    def wanted(self, ctx: ServerRequestContext[Any, Any], name: str) -> bool:
        """Whether the call to `name` runs as a task for this request."""
        if not declares_tasks(ctx):
            return False
        if self.mode == "always":
            return True
        tool = self.toolkit.get(name)
        return tool is not None and tool.hints is not None and bool(tool.hints.long_running)

    # -- tools/call ----------------------------------------------------------------------

    async def start(self, call: ToolCall, principal: str | None) -> dict[str, Any]:
        """Store a new task for `call`, start it, and return MCP's `CreateTaskResult`: only once
        the task is committed to the store, so a `tasks/get` in any process finds it."""
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
            sealed = toolkit._key is not None
            return toolkit.run_calls(
                [call],
                expires_in=self.ttl if sealed else None,
                principal=principal if sealed else None,
                turn_id=turn,
                progress=notes,
            )

        self._launch(task, lease, first)
        return {"resultType": "task", **self._shape(task)}

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
            status = _outcome(result)
            await asyncio.to_thread(
                self.table.settle,
                task.id,
                status,
                expect=("working",),
                lease=lease,
                result=mcp_call_tool_result(result),
                message="the call was cancelled" if status == "cancelled" else None,
            )
            return
        run_id = task.run_id
        if run_id is None:  # the first suspension: the run is stored (a resume stored it already)
            run_id = await asyncio.to_thread(self.store.save, run)
        stored = await asyncio.to_thread(self.store.get, run_id)
        expiry = _run_expiry(self.store, run_id)
        ttl_ms = None if expiry is None else max(0, round((expiry - task.created_at) * 1000))
        waiting = _waiting(run if stored is None or stored.run is None else stored.run)
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

    # -- tasks/get, tasks/update, tasks/cancel -------------------------------------------------

    async def _owned(self, ctx: ServerRequestContext[Any, Any], task_id: str) -> StoredTask:
        """The task, when it is there and this request's principal owns it; else MCP's invalid
        params (the same error either way: another principal's task is not there for it)."""
        task = await asyncio.to_thread(self.table.get, task_id)
        if task is None or task.owner != self.principal(ctx):
            raise MCPError(INVALID_PARAMS, f"Failed to retrieve task: no task {task_id!r}")
        return task

    async def get(self, ctx: ServerRequestContext[Any, Any], params: TaskParams) -> dict[str, Any]:
        task = await self._owned(ctx, params.task_id)
        if task.status == "input_required":
            task = await self._expire_if_due(task)
        return {"resultType": "complete", **self._shape(task, detailed=True)}

    async def _expire_if_due(self, task: StoredTask) -> StoredTask:
        """An `input_required` task whose run has expired is settled as the loop settles an
        expiry (`Toolkit.expire`, through the store), and reads as what came of it."""
        assert task.run_id is not None
        expiry = _run_expiry(self.store, task.run_id)
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
        from toolnexus.store import _under_lease

        toolkit = self.toolkit
        try:
            run = await _under_lease(self.store, toolkit, task.run_id, [], lambda run: toolkit.expire(run))
        except ResumeError as exc:
            await self._resume_refused(task, lease, exc)
        else:
            await self._record(task, lease, run)
        return await self._reread(task)

    async def _reread(self, task: StoredTask) -> StoredTask:
        again = await asyncio.to_thread(self.table.get, task.id)
        assert again is not None
        return again

    async def update(self, ctx: ServerRequestContext[Any, Any], params: UpdateTaskParams) -> dict[str, Any]:
        """Answer what the task waits on (`inputResponses` keyed by request id), through the store
        and the toolkit's `resume`; responses to anything not outstanding are ignored, as the
        extension asks. Acknowledged at once: the task is `working` until the tool is done."""
        principal = self.principal(ctx)
        task = await self._owned(ctx, params.task_id)
        if task.status != "input_required" or task.run_id is None:
            return {"resultType": "complete"}
        stored = await asyncio.to_thread(self.store.get, task.run_id)
        if stored is None or stored.run is None:
            return {"resultType": "complete"}
        try:
            answers = [
                answer_from_mcp(request, params.input_responses)
                for request in _waiting(stored.run)
                if request.id in params.input_responses
            ]
        except WireError as exc:
            raise MCPError(INVALID_PARAMS, f"tasks/update: {exc}") from None
        if not answers:
            return {"resultType": "complete"}
        self._resume(task, answers, principal)
        return {"resultType": "complete"}

    def _resume(self, task: StoredTask, answers: list[Answer], principal: str | None) -> None:
        lease = secrets.token_hex(8)
        if not self.table.settle(
            task.id, "working", expect=("input_required",), lease=lease, lease_for=self.store.lease
        ):
            return  # another request took the task first: these answers have no use
        run_id, store, toolkit = task.run_id, self.store, self.toolkit
        assert run_id is not None

        def step(notes: _Notes) -> Awaitable[RunResult]:
            bound = principal if toolkit._key is not None else None
            return store.resume(toolkit, run_id, answers, principal=bound, progress=notes)

        self._launch(task, lease, step)

    async def cancel(self, ctx: ServerRequestContext[Any, Any], params: TaskParams) -> dict[str, Any]:
        """Cancel the task: a running call's handler gets `asyncio.CancelledError` (here at once,
        in another process when its runner next renews its lease); a task waiting on a person
        has its requests refused with reason `cancelled`. Either way the loop settles the call
        as declined with reason `cancelled`, and the task reads `cancelled`. A finished task
        stays as it is."""
        task = await self._owned(ctx, params.task_id)
        if task.status == "working":
            await asyncio.to_thread(self.table.ask_cancel, task.id)
            if task.id in self._runners:
                self.toolkit.cancel(task.call.id, turn_id=task.turn)
        elif task.status == "input_required" and task.run_id is not None:
            stored = await asyncio.to_thread(self.store.get, task.run_id)
            if stored is not None and stored.run is not None:
                refusals = [Answer(r.id, False, reason="cancelled") for r in _waiting(stored.run)]
                self._resume(task, refusals, self.principal(ctx))
        return {"resultType": "complete"}

    # -- the shapes --------------------------------------------------------------------

    def _shape(self, task: StoredTask, *, detailed: bool = False) -> dict[str, Any]:
        """MCP's `Task` (and, `detailed`, its `DetailedTask` with the result, the error or the
        input requests)."""
        out: dict[str, Any] = {
            "taskId": task.id,
            "status": task.status,
            "createdAt": _iso(task.created_at),
            "lastUpdatedAt": _iso(task.updated_at),
            "ttlMs": task.ttl_ms,
            "pollIntervalMs": task.poll_ms,
        }
        if task.message:
            out["statusMessage"] = task.message
        if not detailed:
            return out
        if task.status in ("completed", "cancelled") and task.result is not None:
            out["result"] = task.result
        elif task.status == "failed":
            out["error"] = task.error or {"code": INTERNAL_ERROR, "message": "the task failed"}
        elif task.status == "input_required" and task.run_id is not None:
            stored = self.store.get(task.run_id)
            requests: dict[str, Any] = {}
            for request in _waiting(stored.run) if stored is not None and stored.run is not None else []:
                asked = mcp_input_required(pending(request))
                assert asked is not None
                requests.update(asked["inputRequests"])
            out["inputRequests"] = requests
        return out


def _run_expiry(store: SqliteRunStore, run_id: int) -> float | None:
    """When something of the stored run expires first (a Unix time), or None."""
    row = store._conn().execute("SELECT expires_at FROM runs WHERE id = ?", (run_id,)).fetchone()
    return None if row is None else row[0]


def served_tasks(
    toolkit: Toolkit,
    store: SqliteRunStore,
    *,
    mode: TaskMode = "long_running",
    ttl: float | None = 3600.0,
    poll_interval: float = 1.0,
    principal: Callable[[ServerRequestContext[Any, Any]], str | None],
) -> _ServedTasks:
    return _ServedTasks(toolkit, store, mode=mode, ttl=ttl, poll_interval=poll_interval, principal=principal)
