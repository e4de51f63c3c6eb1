"""A call the server runs as a task (MCP's Tasks extension, `io.modelcontextprotocol/tasks`):
following it to its end, its questions as suspensions answered with `tasks/update`
(`_TaskCalls`, what a consumed tool does), and the extension declared for a client
(`TaskSupport`)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from typing import Any

import mcp_types as types
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError

from toolnexus._result import Answer, Request, ToolResult
from toolnexus._suspend import pending, pending_of
from toolnexus._tool import ToolContext
from toolnexus.adapters.mcp import from_mcp_call_tool_result, mcp_input_responses

from ._tasks import (
    TASKS_EXTENSION,
    CancelTaskRequest,
    CreatedTask,
    GetTaskRequest,
    TaskParams,
    TaskState,
    UpdateTaskParams,
    UpdateTaskRequest,
)

__all__ = ["TaskSupport"]

_ASKED_MEMORY = 10_000

#: Seconds a call may wait on the server by default (the MCP TypeScript SDK's default request
#: timeout): `mcp_tools_from`'s `timeout`.
DEFAULT_TIMEOUT = 60.0
#: Where a task's question keeps the task's id, and the keys of its questions answered already.
_TASK_ID, _ANSWERED = "taskId", "answered"


def _wire(model: Any) -> dict[str, Any]:
    out: dict[str, Any] = model.model_dump(by_alias=True, mode="json", exclude_none=True)
    return out


class _TaskCalls:
    """What a consumed tool (`_client._Remote`) does with the results of its calls: maps them
    (a question kept, so that its answer finds it), and follows a call the server runs as a task."""

    session: ClientSession
    name: str
    timeout: float | None
    server: str
    _asked: OrderedDict[str, Request]

    def _mapped(self, result: types.CallToolResult | types.InputRequiredResult | Any) -> ToolResult:
        mapped = from_mcp_call_tool_result(result if isinstance(result, dict) else _wire(result))
        request = pending_of(mapped)
        if request is not None:
            self._asked[request.id] = request
            if len(self._asked) > _ASKED_MEMORY:
                self._asked.popitem(last=False)
        return mapped

    # -- a call the server runs as a task (MCP's Tasks extension) ----------------------------

    async def _task_request(self, request: Any, result_type: Any) -> Any:
        return await self.session.send_request(
            request, result_type, request_read_timeout_seconds=self.timeout
        )

    async def _follow(
        self, task: TaskState, ctx: ToolContext, answered: frozenset[str] = frozenset()
    ) -> ToolResult:
        """Poll the task at the server's interval until it ends (its result) or asks something
        not answered yet (a suspension carrying the task's id, answered with `tasks/update`).
        A local cancellation is passed on with `tasks/cancel`."""
        task_id = task.task_id
        started = time.monotonic()
        try:
            while True:
                if task.status == "completed":
                    return self._mapped(task.result or {"content": []})
                if task.status == "cancelled":
                    if task.result is not None:
                        return self._mapped(task.result)
                    marker = {"declined": {"reason": "cancelled", "task": task_id}}
                    return ToolResult.error(
                        f"declined: the MCP server {self.server!r} cancelled the task of {self.name}"
                    ).with_metadata(marker)
                if task.status == "failed":
                    error = task.error or {}
                    return ToolResult.error(
                        f"the MCP server {self.server!r} failed the task of {self.name!r}: "
                        f"{error.get('message', 'no reason given')}"
                    )
                asked = {k: v for k, v in (task.input_requests or {}).items() if k not in answered}
                if task.status == "input_required" and asked:
                    return self._task_question(task_id, asked, answered)
                if task.ttl_ms is not None and time.monotonic() - started > task.ttl_ms / 1000 + 1:
                    return ToolResult.error(
                        f"the MCP server {self.server!r} kept the task of {self.name!r} past its ttl "
                        f"({task.ttl_ms} ms) without finishing it"
                    )
                interval = (task.poll_interval_ms or 1000) / 1000
                await asyncio.sleep(min(max(interval, 0.01), 60.0))
                task = await self._task_request(GetTaskRequest(params=TaskParams(task_id=task_id)), TaskState)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._cancel_task(task_id))
            raise
        except MCPError as exc:
            return ToolResult.error(
                f"the MCP server {self.server!r} lost the task of {self.name!r}: {exc.message}"
            )

    async def _cancel_task(self, task_id: str) -> None:
        async with asyncio.timeout(self.timeout or DEFAULT_TIMEOUT):
            await self._task_request(CancelTaskRequest(params=TaskParams(task_id=task_id)), types.EmptyResult)

    def _task_question(self, task_id: str, asked: dict[str, Any], answered: frozenset[str]) -> ToolResult:
        """The task's open questions as a suspension whose request keeps the task's id (and
        the keys answered already), so a resume in any process continues this task."""
        mapped = from_mcp_call_tool_result({"resultType": "input_required", "inputRequests": asked})
        request = pending_of(mapped)
        assert request is not None and request.data is not None
        mcp = {**request.data["mcp"], _TASK_ID: task_id, _ANSWERED: sorted(answered)}
        request = request.model_copy(update={"data": {"mcp": mcp}})
        self._asked[request.id] = request
        if len(self._asked) > _ASKED_MEMORY:
            self._asked.popitem(last=False)
        return pending(request)

    async def _answer_task(
        self, mcp: dict[str, Any], request: Request, answer: Answer, ctx: ToolContext
    ) -> ToolResult:
        """Send the answer with `tasks/update`, and follow the task on."""
        task_id = mcp[_TASK_ID]
        try:
            responses = mcp_input_responses(request, answer)["inputResponses"]
        except ValueError as exc:
            return ToolResult.error(f"the answer cannot go to the MCP task {task_id!r}: {exc}")
        before = mcp.get(_ANSWERED)
        answered = frozenset(before if isinstance(before, list) else ()) | frozenset(responses)
        try:
            await self._task_request(
                UpdateTaskRequest(params=UpdateTaskParams(task_id=task_id, input_responses=responses)),
                types.EmptyResult,
            )
            task = await self._task_request(GetTaskRequest(params=TaskParams(task_id=task_id)), TaskState)
        except MCPError as exc:
            return ToolResult.error(
                f"the MCP server {self.server!r} lost the task of {self.name!r}: {exc.message}"
            )
        return await self._follow(task, ctx, answered)


class TaskSupport(ClientExtension):
    """MCP's Tasks extension (`io.modelcontextprotocol/tasks`) for a client: declared in every
    request, so a server may answer a call with a task, which `mcp_tools_from`'s tools follow
    (polling at the server's interval, a question as a suspension answered with
    `tasks/update`, a local cancellation passed on with `tasks/cancel`).

        async with Client(server, extensions=[TaskSupport()]) as client: ...
        ClientSession(read, write, **TaskSupport().session_options())

    Through `Client.call_tool` itself (not a toolkit), a task is followed to its end, and one
    that asks a question raises `RuntimeError`: answer it through `mcp_tools_from`'s tools.
    """

    identifier = TASKS_EXTENSION

    def claims(self) -> tuple[ResultClaim[CreatedTask], ...]:
        return (ResultClaim(result_type="task", model=CreatedTask, resolve=_resolve_task),)

    def session_options(self) -> dict[str, Any]:
        """The keywords that declare the extension on a `ClientSession` built by hand."""
        return {"extensions": {TASKS_EXTENSION: {}}, "result_claims": {TASKS_EXTENSION: list(self.claims())}}


def _state(created: CreatedTask) -> TaskState:
    return TaskState.model_validate(created.model_dump(by_alias=True, exclude={"result_type"}))


async def _resolve_task(created: CreatedTask, ctx: ClaimContext) -> types.CallToolResult:
    """`Client.call_tool`'s way through a task: poll it to its end."""
    task = _state(created)
    while task.status in ("working", "input_required"):
        if task.status == "input_required":
            raise RuntimeError(
                f"the MCP task {task.task_id!r} of {ctx.tool_name!r} asks a question; "
                "follow it through mcp_tools_from, whose tools turn it into a suspension"
            )
        await asyncio.sleep(min(max((task.poll_interval_ms or 1000) / 1000, 0.01), 60.0))
        task = await ctx.session.send_request(
            GetTaskRequest(params=TaskParams(task_id=task.task_id)), TaskState
        )
    if task.status == "failed":
        message = (task.error or {}).get("message", "no reason given")
        return types.CallToolResult(
            content=[types.TextContent(text=f"the task failed: {message}")], is_error=True
        )
    if task.result is None:
        return types.CallToolResult(
            content=[types.TextContent(text=f"the task was {task.status}")], is_error=True
        )
    return types.CallToolResult.model_validate(task.result)
