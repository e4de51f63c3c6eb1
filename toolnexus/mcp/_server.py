"""Serving a `Toolkit` over MCP (`mcp_server`, `serve`, `serve_async`).

`tools/list` lists the toolkit's tools; `tools/call` runs one through `Toolkit.execute`. A
failure, bad arguments or an unknown tool is an `isError` result, never a protocol error, and
`metadata` never leaves the process. A suspension becomes MCP's `input_required` result on a
2026-07-28 connection (the client's retry with `inputResponses` re-runs the tool with
`ctx.answer`, under the toolkit's loop rule), and an elicitation on an older one (URL mode for
an `authorization` with a url); a client that can do neither gets the suspension's prompt as an
error. `ToolContext.progress` becomes `notifications/progress` when the client sent a token.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Literal

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from toolnexus_wire import WireError, dumps

from toolnexus._loop import after_retry, approval_for, approved_arguments, verdict
from toolnexus._result import Answer, Request, ToolResult
from toolnexus._suspend import pending, pending_of
from toolnexus._tool import ToolContext
from toolnexus._toolkit import ProgressHook, Toolkit, idempotency_key, turn_digest
from toolnexus.adapters.mcp import answer_from_mcp, mcp_call_tool_result, mcp_input_required, mcp_tools

__all__ = ["mcp_server", "serve", "serve_async"]

logger = logging.getLogger("toolnexus.mcp")

_STATE_VERSION = 1
_ANSWERED_MEMORY = 10_000


def _wire(model: Any) -> dict[str, Any]:
    out: dict[str, Any] = model.model_dump(by_alias=True, mode="json", exclude_none=True)
    return out


class _Progress:
    """`ToolContext.on_progress` for one MCP call: each report becomes `notifications/progress`
    (fraction of a total of 1), sent in order by one task. Safe to call from a sync tool's
    worker thread. Reports are dropped by the SDK when the client sent no progress token."""

    def __init__(self, ctx: ServerRequestContext[Any, Any]) -> None:
        self._session = ctx.session
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()
        self._queue: asyncio.Queue[tuple[float, str] | None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    def __call__(self, fraction: float, message: str) -> None:
        if threading.get_ident() == self._thread:
            self._put((fraction, message))
            return
        with contextlib.suppress(RuntimeError):  # a closed loop: the call is long over
            self._loop.call_soon_threadsafe(self._put, (fraction, message))

    def _put(self, item: tuple[float, str] | None) -> None:
        if self._closed:  # a worker thread that outlived its call (a timeout) reports on
            return
        if item is None:
            self._closed = True
        if self._queue is None:
            if item is None:
                return
            self._queue = asyncio.Queue()
            self._task = self._loop.create_task(self._send(self._queue))
        self._queue.put_nowait(item)

    async def _send(self, queue: asyncio.Queue[tuple[float, str] | None]) -> None:
        while (item := await queue.get()) is not None:
            try:
                await self._session.report_progress(item[0], 1.0, item[1] or None)
            except Exception:  # a closed stream: progress is advisory, the result still goes out
                logger.debug("progress notification not sent", exc_info=True)

    async def close(self) -> None:
        """Send what was reported before the tool returned, then stop."""
        self._put(None)
        if self._task is not None:
            await self._task


@dataclass(slots=True)
class _Call:
    """One `tools/call`, across its rounds: the id the toolkit sees, and its tool and arguments."""

    name: str
    args: dict[str, Any]
    call_id: str
    progress: _Progress
    also: ProgressHook | None = None  # the toolkit's own `on_progress`, told too

    def context(self, answer: Answer | None = None) -> ToolContext:
        key = idempotency_key(turn_digest([self.call_id]), self.call_id)
        return ToolContext(answer=answer, call_id=self.call_id, idempotency_key=key, on_progress=self.report)

    def report(self, fraction: float, message: str) -> None:
        self.progress(fraction, message)
        if self.also is not None:
            self.also(self.call_id, fraction, message)


class _Bridge:
    """The handlers of the server `mcp_server` builds."""

    def __init__(self, toolkit: Toolkit) -> None:
        self.toolkit = toolkit
        self.also: ProgressHook | None = toolkit.on_progress
        # (call id, request id) of every answer taken: a replayed `requestState` is refused.
        self._answered: OrderedDict[tuple[str, str], None] = OrderedDict()

    async def list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult.model_validate({"tools": mcp_tools(self.toolkit.tools())})

    async def call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        args = dict(params.arguments or {})
        progress = _Progress(ctx)
        try:
            if params.request_state is None:
                call = _Call(params.name, args, "mcp-" + secrets.token_hex(8), progress, self.also)
                gate = approval_for(self.toolkit.get(call.name), call.args)
                if gate is not None:
                    return await self._finish(ctx, call, pending(gate), approval=True)
                result = await self.toolkit.execute(call.name, call.args, call.context())
                return await self._finish(ctx, call, result)
            return await self._retry(ctx, params, args, progress)
        finally:
            await progress.close()

    async def _retry(
        self,
        ctx: ServerRequestContext[Any, Any],
        params: types.CallToolRequestParams,
        args: dict[str, Any],
        progress: _Progress,
    ) -> types.CallToolResult | types.InputRequiredResult:
        """The client's retry of a call that returned `input_required` (the state was checked
        and unsealed by the SDK's `RequestStateBoundary`: it is what `_finish` wrote)."""
        try:
            state = json.loads(str(params.request_state))
            if not isinstance(state, dict) or state.get("v") != _STATE_VERSION:
                raise ValueError("not a toolnexus request state")
            request = Request.from_wire(state["request"])
            call = _Call(params.name, args, str(state["callId"]), progress, self.also)
            approval = state.get("approval") is True
        except (ValueError, KeyError, TypeError, WireError) as exc:
            return _result(ToolResult.error(f"the retry's requestState is not usable: {exc}"))
        responses = {key: _wire(value) for key, value in (params.input_responses or {}).items()}
        try:
            answer = answer_from_mcp(request, responses)
        except WireError as exc:
            return _result(ToolResult.error(str(exc)))
        return await self._settle(ctx, call, request, answer, approval)

    async def _finish(
        self, ctx: ServerRequestContext[Any, Any], call: _Call, result: ToolResult, approval: bool = False
    ) -> types.CallToolResult | types.InputRequiredResult:
        """A first run's result, or for a suspension the question to the client (`approval`:
        the question is the toolkit's own, asked before the tool runs)."""
        request = pending_of(result)
        if request is None:
            return _result(result)
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            asked = mcp_input_required(result)
            assert asked is not None
            state = {"v": _STATE_VERSION, "callId": call.call_id, "request": request.to_wire()}
            if approval:
                state["approval"] = True
            asked["requestState"] = dumps(state)
            return types.InputRequiredResult.model_validate(asked)
        elicit = _elicitation(ctx, result, request)
        if elicit is None:  # the client can be asked nothing: the prompt, as an error
            return _result(result)
        try:
            reply = await ctx.session.send_request(
                types.ElicitRequest(params=elicit),
                types.ElicitResult,
                metadata=ServerMessageMetadata(related_request_id=ctx.request_id),
            )
        except Exception as exc:  # the client refused the elicitation (an error response) or left
            return _result(ToolResult.error(f"{request.prompt} (the client was not asked: {exc})"))
        try:
            answer = answer_from_mcp(request, {request.id: _wire(reply)})
        except WireError as exc:
            return _result(ToolResult.error(str(exc)))
        return await self._settle(ctx, call, request, answer, approval)

    async def _settle(
        self,
        ctx: ServerRequestContext[Any, Any],
        call: _Call,
        request: Request,
        answer: Answer,
        approval: bool = False,
    ) -> types.CallToolResult | types.InputRequiredResult:
        """The toolkit's loop rule for one answered suspension; an approved call runs as a
        first run, and may then ask its own question."""
        taken = (call.call_id, request.id)
        if taken in self._answered:
            return _result(ToolResult.error(f"request {request.id!r} was already answered"))
        self._answered[taken] = None
        if len(self._answered) > _ANSWERED_MEMORY:
            self._answered.popitem(last=False)
        ended = verdict(call.name, request, answer)
        if ended is not None:
            return _result(ended)
        if approval:
            args = approved_arguments(call.args, answer)
            if isinstance(args, str):  # MCP form content holds no objects: JSON text instead
                with contextlib.suppress(ValueError):
                    args = json.loads(args)
            if not isinstance(args, dict):  # edited into something else: the tool checks a dict
                message = f"invalid arguments for {call.name}: $: the edited arguments are not an object"
                return _result(ToolResult.error(message))
            first = await self.toolkit.execute(call.name, args, call.context())
            return await self._finish(ctx, call, first)
        retry = await self.toolkit.execute(call.name, call.args, call.context(answer))
        return _result(after_retry(request, retry))


def _result(result: ToolResult) -> types.CallToolResult:
    return types.CallToolResult.model_validate(mcp_call_tool_result(result))


def _elicitation(
    ctx: ServerRequestContext[Any, Any], result: ToolResult, request: Request
) -> types.ElicitRequestFormParams | types.ElicitRequestURLParams | None:
    """The elicitation that asks a pre-2026 client the suspension's question, or None when the
    client declared no elicitation (or not the URL mode an authorization needs)."""
    caps = ctx.session.client_capabilities
    declared = caps.elicitation if caps is not None else None
    if declared is None or not ctx.session.can_send_request:
        return None
    asked = mcp_input_required(result)
    assert asked is not None
    params = dict(asked["inputRequests"][request.id]["params"])
    if params.get("mode") == "url":
        if declared.url is None:
            return None
        params["elicitationId"] = request.id
        return types.ElicitRequestURLParams.model_validate(params)
    if declared.form is None and declared.url is not None:  # URL mode only
        return None
    return types.ElicitRequestFormParams.model_validate(params)


def mcp_server(
    toolkit: Toolkit,
    *,
    name: str = "toolnexus",
    version: str = "",
    instructions: str | None = None,
    request_state_security: RequestStateSecurity | None = None,
) -> Server[Any]:
    """The MCP SDK's lowlevel `Server` serving `toolkit`'s tools; run it yourself (over any of
    the SDK's transports, or in process with `mcp.Client(server)`) or through `serve`.

    The `requestState` of an `input_required` result is sealed by the SDK's
    `RequestStateBoundary` (encrypted, bound to the tool, its arguments and a time to live);
    by default under a key held by this process only (`RequestStateSecurity.ephemeral()`),
    so a retry must reach the same process. Pass `request_state_security` with shared keys
    for several workers.
    """
    bridge = _Bridge(toolkit)
    server: Server[Any] = Server(
        name,
        version=version,
        instructions=instructions,
        on_list_tools=bridge.list_tools,
        on_call_tool=bridge.call_tool,
    )
    security = request_state_security or RequestStateSecurity.ephemeral()
    server.middleware.append(RequestStateBoundary(security, default_audience=name))
    return server


async def serve_async(
    toolkit: Toolkit,
    transport: Literal["stdio", "http"] = "stdio",
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    name: str = "toolnexus",
    version: str = "",
    instructions: str | None = None,
    request_state_security: RequestStateSecurity | None = None,
) -> None:
    """Serve `toolkit` over stdio, or over streamable HTTP at `http://host:port/path`,
    until the client closes stdin (stdio) or the process is stopped (HTTP)."""
    server = mcp_server(
        toolkit,
        name=name,
        version=version,
        instructions=instructions,
        request_state_security=request_state_security,
    )
    if transport == "stdio":
        from mcp.server.stdio import stdio_server

        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    elif transport == "http":
        import uvicorn

        app = server.streamable_http_app(streamable_http_path=path, host=host)
        config = uvicorn.Config(app, host=host, port=port, log_level="warning")
        await uvicorn.Server(config).serve()
    else:
        raise ValueError(f"transport must be 'stdio' or 'http', got {transport!r}")


def serve(
    toolkit: Toolkit,
    transport: Literal["stdio", "http"] = "stdio",
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    name: str = "toolnexus",
    version: str = "",
    instructions: str | None = None,
    request_state_security: RequestStateSecurity | None = None,
) -> None:
    """`serve_async` in a new event loop: the one call a server script makes."""
    asyncio.run(
        serve_async(
            toolkit,
            transport,
            host=host,
            port=port,
            path=path,
            name=name,
            version=version,
            instructions=instructions,
            request_state_security=request_state_security,
        )
    )
