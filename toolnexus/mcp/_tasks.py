"""MCP's Tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28), served: a tool call run in
the background, followed with `tasks/get`, answered with `tasks/update`, stopped with
`tasks/cancel`.

This module is the protocol, once: which calls become tasks, the requests' params, ownership,
the answers read from `inputResponses`, and the shapes (`Task`, `CreateTaskResult`, a detailed
task). Where a task lives is a backend's (`TaskBackend`), and there are two, each a host of
the loop that keeps every rule the engine's:

- `toolnexus/mcp/_store_tasks.py`: a row of a `SqliteRunStore` (`store.tasks`), the run
  through `Toolkit.run_calls` and `SqliteRunStore.resume`;
- `toolnexus/mcp/_temporal_tasks.py`: a Temporal turn (`toolnexus.temporal`), started,
  read, answered and cancelled through `TurnClient`.

    working ──► input_required ──► working ──► completed | cancelled
       │               │                          ▲
       └───────────────┴──────────► failed ───────┘ (a JSON-RPC error: the host died under it)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import Field

from toolnexus._errors import UsageError, WireError
from toolnexus._result import Answer, Request, RunResult, ToolCall, ToolResult
from toolnexus._suspend import pending
from toolnexus._toolkit import Toolkit
from toolnexus.adapters.mcp import answer_from_mcp, mcp_input_required
from toolnexus.store._tasks import TERMINAL, TaskStatus

__all__ = ["TASKS_EXTENSION", "TaskBackend", "TaskMode", "TaskView"]

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


def iso(when: float) -> str:
    """A Unix time as MCP writes it (RFC 3339, UTC, milliseconds)."""
    return datetime.fromtimestamp(when, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def settled_status(result: ToolResult) -> TaskStatus:
    """`cancelled` for a call the loop settled as cancelled, else `completed` (an error result
    too: `failed` is for JSON-RPC errors only)."""
    declined = (result.metadata or {}).get("declined")
    return (
        "cancelled" if isinstance(declined, dict) and declined.get("reason") == "cancelled" else "completed"
    )


#: The status message of a task whose call was cancelled.
CANCELLED_MESSAGE = "the call was cancelled"


def waiting_requests(run: RunResult) -> list[Request]:
    """What a pending run waits on, in call order."""
    return list(run.requests) or ([run.pending] if run.pending is not None else [])


@dataclass(frozen=True, slots=True)
class TaskView:
    """A task as MCP shows it, whichever backend keeps it. Times are Unix times; `result` is the
    `CallToolResult` (wire form) of a `completed` or `cancelled` task, `error` the JSON-RPC
    error of a `failed` one, `requests` what an `input_required` task waits on."""

    id: str
    status: TaskStatus
    created_at: float
    updated_at: float
    ttl_ms: int | None
    poll_ms: int
    message: str | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    requests: tuple[Request, ...] = ()

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL


class TaskBackend(Protocol):
    """Where a served toolkit's tasks live, and how their calls run: each method a host's
    effect, the loop's rules left to the engine (through `Toolkit` or a Temporal turn)."""

    async def create(self, call: ToolCall, principal: str | None) -> TaskView:
        """Start a task running `call` for `principal`, and return it once it is durable (a
        `find` in any process serving the same backend finds it)."""
        ...

    async def find(self, task_id: str, principal: str | None) -> TaskView | None:
        """The task as it stands; None when there is none, or it is not `principal`'s."""
        ...

    async def answer(self, task: TaskView, answers: list[Answer], principal: str | None) -> None:
        """Answer what the `input_required` task waits on (each answer to one of its
        `requests`), through the loop; an answer the loop refuses leaves the task as its run
        stands (another took the request first, or it expired)."""
        ...

    async def cancel(self, task: TaskView, principal: str | None) -> None:
        """Cancel the unfinished task: a running call's handler is cancelled, a waiting request
        refused with reason `cancelled`; the loop settles the call either way."""
        ...


class _ServedTasks:
    """The tasks of one served toolkit, kept by `backend` (see the module's docstring)."""

    def __init__(
        self,
        toolkit: Toolkit,
        backend: TaskBackend,
        *,
        mode: TaskMode,
        principal: Callable[[ServerRequestContext[Any, Any]], str | None],
    ) -> None:
        if mode not in ("long_running", "always"):
            raise UsageError(f"tasks must be 'long_running' or 'always', got {mode!r}")
        self.toolkit = toolkit
        self.backend = backend
        self.mode = mode
        self.principal = principal

    # -- which calls ---------------------------------------------------------------------

    def wanted(self, ctx: ServerRequestContext[Any, Any], name: str) -> bool:
        """Whether the call to `name` runs as a task for this request."""
        if not declares_tasks(ctx):
            return False
        if self.mode == "always":
            return True
        tool = self.toolkit.get(name)
        return tool is not None and tool.hints is not None and bool(tool.hints.long_running)

    # -- tools/call, tasks/get, tasks/update, tasks/cancel ------------------------------------

    async def start(self, call: ToolCall, principal: str | None) -> dict[str, Any]:
        """Start a task for `call` and return MCP's `CreateTaskResult`, only once the backend
        has it durably."""
        return {"resultType": "task", **shape(await self.backend.create(call, principal))}

    async def _owned(self, ctx: ServerRequestContext[Any, Any], task_id: str) -> TaskView:
        """The task, when it is there and this request's principal owns it; else MCP's invalid
        params (the same error either way: another principal's task is not there for it)."""
        task = await self.backend.find(task_id, self.principal(ctx))
        if task is None:
            raise MCPError(INVALID_PARAMS, f"Failed to retrieve task: no task {task_id!r}")
        return task

    async def get(self, ctx: ServerRequestContext[Any, Any], params: TaskParams) -> dict[str, Any]:
        task = await self._owned(ctx, params.task_id)
        return {"resultType": "complete", **shape(task, detailed=True)}

    async def update(self, ctx: ServerRequestContext[Any, Any], params: UpdateTaskParams) -> dict[str, Any]:
        """Answer what the task waits on (`inputResponses` keyed by request id), through the
        backend and so the loop; responses to anything not outstanding are ignored, as the
        extension asks. Acknowledged at once: the task is `working` until the tool is done."""
        principal = self.principal(ctx)
        task = await self._owned(ctx, params.task_id)
        if task.status != "input_required":
            return {"resultType": "complete"}
        try:
            answers = [
                answer_from_mcp(request, params.input_responses)
                for request in task.requests
                if request.id in params.input_responses
            ]
        except WireError as exc:
            raise MCPError(INVALID_PARAMS, f"tasks/update: {exc}") from None
        if answers:
            await self.backend.answer(task, answers, principal)
        return {"resultType": "complete"}

    async def cancel(self, ctx: ServerRequestContext[Any, Any], params: TaskParams) -> dict[str, Any]:
        """Cancel the task: a running call's handler gets `asyncio.CancelledError`; a task waiting
        on a person has its requests refused with reason `cancelled`. Either way the loop settles
        the call as declined with reason `cancelled`, and the task reads `cancelled`. A finished
        task stays as it is."""
        task = await self._owned(ctx, params.task_id)
        if not task.terminal:
            await self.backend.cancel(task, self.principal(ctx))
        return {"resultType": "complete"}


def shape(task: TaskView, *, detailed: bool = False) -> dict[str, Any]:
    """MCP's `Task` (and, `detailed`, its `DetailedTask` with the result, the error or the input
    requests)."""
    out: dict[str, Any] = {
        "taskId": task.id,
        "status": task.status,
        "createdAt": iso(task.created_at),
        "lastUpdatedAt": iso(task.updated_at),
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
    elif task.status == "input_required":
        requests: dict[str, Any] = {}
        for request in task.requests:
            asked = mcp_input_required(pending(request))
            assert asked is not None
            requests.update(asked["inputRequests"])
        out["inputRequests"] = requests
    return out


def poll_ms(poll_interval: float) -> int:
    """`pollIntervalMs` from `mcp_server(poll_interval=...)` seconds, checked."""
    if not poll_interval > 0:
        raise UsageError(f"poll_interval must be a positive number of seconds, got {poll_interval!r}")
    return max(1, round(poll_interval * 1000))


def checked_ttl(ttl: float | None) -> float | None:
    """`mcp_server(task_ttl=...)` seconds, checked."""
    if ttl is not None and not ttl > 0:
        raise UsageError(f"task_ttl must be a positive number of seconds or None, got {ttl!r}")
    return ttl
