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
import hashlib
import json
import logging
import secrets
import threading
import time
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, cast

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity, authenticated_principal
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from toolnexus_wire import SCHEMA_VERSION as __version__
from toolnexus_wire import WireError, dumps

from toolnexus._context import LOG_LEVELS
from toolnexus._errors import ResumeError, UsageError
from toolnexus._result import Answer, Request, RunResult, ToolCall, ToolResult
from toolnexus._suspend import pending
from toolnexus._toolkit import Toolkit, seals
from toolnexus.adapters.mcp import answer_from_mcp, mcp_call_tool_result, mcp_input_required, mcp_tools

from ._tasks import (
    TASKS_EXTENSION,
    TaskBackend,
    TaskMode,
    TaskParams,
    UpdateTaskParams,
    _ServedTasks,
    checked_ttl,
    poll_ms,
)

if TYPE_CHECKING:
    from toolnexus.store import RunStore
    from toolnexus.temporal import TurnClient

#: Who is calling, for a request (`mcp_server(principal=...)`); None when unknown.
PrincipalOf = Callable[[ServerRequestContext[Any, Any]], "str | None"]

__all__ = ["mcp_server", "serve", "serve_async"]

logger = logging.getLogger("toolnexus.mcp")

#: The `requestState` this server writes: `{"v": 2, "run": <the pending RunResult>}`.
_STATE_VERSION = 2


def _wire(model: Any) -> dict[str, Any]:
    out: dict[str, Any] = model.model_dump(by_alias=True, mode="json", exclude_none=True)
    return out


class _Relay:
    """What one MCP call reports as it runs, sent to the client in order by one task (`_deliver`
    each item). Safe to call from a sync tool's worker thread."""

    def __init__(self, ctx: ServerRequestContext[Any, Any]) -> None:
        self._session = ctx.session
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()
        self._queue: asyncio.Queue[Any] | None = None
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    def _report(self, item: Any) -> None:
        if threading.get_ident() == self._thread:
            self._put(item)
            return
        with contextlib.suppress(RuntimeError):  # a closed loop: the call is long over
            self._loop.call_soon_threadsafe(self._put, item)

    def _put(self, item: Any) -> None:
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

    async def _send(self, queue: asyncio.Queue[Any]) -> None:
        while (item := await queue.get()) is not None:
            try:
                await self._deliver(item)
            except Exception:  # a closed stream: reports are advisory, the result still goes out
                logger.debug("notification not sent", exc_info=True)

    async def _deliver(self, item: Any) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        """Send what was reported before the tool returned, then stop."""
        self._put(None)
        if self._task is not None:
            await self._task


class _Progress(_Relay):
    """`ToolContext.on_progress` for one MCP call: each report becomes `notifications/progress`
    (fraction of a total of 1). Reports are dropped by the SDK when the client sent no progress
    token."""

    def __call__(self, fraction: float, message: str) -> None:
        self._report((fraction, message))

    async def _deliver(self, item: tuple[float, str]) -> None:
        await self._session.report_progress(item[0], 1.0, item[1] or None)

    def of_call(self, call_id: str, fraction: float, message: str) -> None:
        """The turn's progress hook (`Toolkit.run_calls(progress=...)`): the call is this one."""
        self(fraction, message)


#: Where a connection keeps the level its client set with `logging/setLevel` (`Connection.state`).
_LOG_LEVEL_KEY = "toolnexus.logLevel"


class _Log(_Relay):
    """`ToolContext.log` for one MCP call (`Toolkit.run_calls(log=...)`): each line becomes
    `notifications/message` (`logger` the tool's name; `data` the message, or `{"message",
    "data"}` with the line's data), at and above the level the client set with
    `logging/setLevel` (every level when it set none). On the 2026-07-28 protocol the SDK sends
    only what the request's `_meta` log level asks for."""

    def __init__(self, ctx: ServerRequestContext[Any, Any], tool: str) -> None:
        super().__init__(ctx)
        self._tool = tool
        state = _connection_state(ctx)
        level = state.get(_LOG_LEVEL_KEY) if state is not None else None
        self._lowest = LOG_LEVELS.index(level) if level in LOG_LEVELS else 0

    def of_call(self, call_id: str, level: str, message: str, data: dict[str, Any]) -> None:
        if LOG_LEVELS.index(level) >= self._lowest:
            self._report((level, message if not data else {"message": message, "data": data}))

    async def _deliver(self, item: tuple[str, Any]) -> None:
        with warnings.catch_warnings():  # MCP deprecates logging at 2026-07-28; older clients use it
            warnings.simplefilter("ignore")
            await self._session.send_log_message(
                cast("types.LoggingLevel", item[0]), item[1], logger=self._tool
            )


def _connection_state(ctx: ServerRequestContext[Any, Any]) -> dict[str, Any] | None:
    """The connection's scratch state (the SDK's `Connection.state`), where the session shows it."""
    state = getattr(getattr(ctx.session, "_connection", None), "state", None)
    return state if isinstance(state, dict) else None


async def _set_level(
    ctx: ServerRequestContext[Any, Any], params: types.SetLevelRequestParams
) -> types.EmptyResult:
    """`logging/setLevel`: the lowest level of the tools' log lines this connection is sent."""
    state = _connection_state(ctx)
    if state is not None:
        state[_LOG_LEVEL_KEY] = params.level
    return types.EmptyResult()


class _Bridge:
    """The handlers of the server `mcp_server` builds: a host of the toolkit's loop.

    Each `tools/call` is a turn of one call, run by `Toolkit.run_calls`; the loop (approval,
    edited arguments, questions, retries, refusals, expiry) is the toolkit's. On a 2026-07-28
    connection a suspension becomes `input_required` whose `requestState` carries the pending
    run (sealed by the toolkit when it has a key, and by the SDK's `RequestStateBoundary`), and
    the client's retry resumes that run with `Toolkit.resume`, so a replayed state is refused
    by the toolkit's replay memory. An older client is asked by elicitation, in the call
    (`run_calls` with a `wait_for` that elicits).
    """

    def __init__(
        self,
        toolkit: Toolkit,
        *,
        principal: PrincipalOf,
        store: RunStore | None = None,
        tasks: _ServedTasks | None = None,
        state_ttl: float = 600.0,
    ) -> None:
        self.toolkit = toolkit
        self.principal = principal
        self.store = store
        self.tasks = tasks
        self.state_ttl = state_ttl

    async def list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult.model_validate({"tools": mcp_tools(self.toolkit.tools())})

    async def call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.InputRequiredResult | dict[str, Any]:
        principal = self.principal(ctx)
        if params.request_state is None and self.tasks is not None and self.tasks.wanted(ctx, params.name):
            call = ToolCall("mcp-" + secrets.token_hex(8), params.name, dict(params.arguments or {}))
            return await self.tasks.start(call, principal)
        if not seals(
            self.toolkit
        ):  # the toolkit keeps a principal in its seal: without a key, the SDK's alone
            principal = None
        progress = _Progress(ctx)
        log = _Log(ctx, params.name)
        try:
            if params.request_state is not None:
                return await self._retry(ctx, params, progress, principal, log)
            call = ToolCall("mcp-" + secrets.token_hex(8), params.name, dict(params.arguments or {}))
            modern = ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
            asker = None if modern else _Elicitor(ctx)
            if asker is not None and not asker.can_ask:
                asker = None
            wait_for = asker.ask if asker is not None else None
            try:
                run = await self.toolkit.run_calls(
                    [call], wait_for, progress=progress.of_call, principal=principal, log=log.of_call
                )
            except _Unaskable as exc:  # the client cannot be asked this: the prompt, as an error
                return _result(pending(exc.request))
            except ResumeError as exc:  # the elicitation's answer does not fit it (`check_answer`)
                return _result(ToolResult.error(str(exc)))
            return self._reply(run, modern)
        finally:
            await progress.close()
            await log.close()

    async def _retry(
        self,
        ctx: ServerRequestContext[Any, Any],
        params: types.CallToolRequestParams,
        progress: _Progress,
        principal: str | None,
        log: _Log,
    ) -> dict[str, Any] | types.InputRequiredResult:
        """The client's retry of a call that returned `input_required` (the state was checked
        and unsealed by the SDK's `RequestStateBoundary`: it is what `_reply` wrote, for this
        principal). With a store, a state is taken once across every process that shares it."""
        if self.store is not None:
            digest = hashlib.sha256(str(params.request_state).encode()).hexdigest()
            fresh = await asyncio.to_thread(self.store.tasks.spend, digest, time.time() + self.state_ttl)
            if not fresh:
                return _result(ToolResult.error("this requestState was already used: a retry is taken once"))
        try:
            state = json.loads(str(params.request_state))
            if not isinstance(state, dict) or state.get("v") != _STATE_VERSION:
                raise ValueError("not a toolnexus request state")
            run = RunResult.from_wire(state["run"])
            if run.pending is None:
                raise ValueError("the run in it waits on nothing")
        except (ValueError, KeyError, TypeError, WireError) as exc:
            return _result(ToolResult.error(f"the retry's requestState is not usable: {exc}"))
        responses = {key: _wire(value) for key, value in (params.input_responses or {}).items()}
        try:
            answer = answer_from_mcp(run.pending, responses)
            resumed = await self.toolkit.resume(
                run, answer, progress=progress.of_call, principal=principal, log=log.of_call
            )
        except (WireError, ResumeError) as exc:
            return _result(ToolResult.error(str(exc)))
        return self._reply(resumed, modern=True)

    @staticmethod
    def _reply(run: RunResult, modern: bool) -> dict[str, Any] | types.InputRequiredResult:
        """The call's result, or (a run still pending) the question to the client: MCP's
        `input_required` on a modern connection, else the suspension's prompt as an error (the
        client can be asked nothing)."""
        if run.status == "done":
            return _result(run.results[0].result)
        assert run.pending is not None
        suspension = pending(run.pending)
        if not modern:
            return _result(suspension)
        asked = mcp_input_required(suspension)
        assert asked is not None
        asked["requestState"] = dumps({"v": _STATE_VERSION, "run": run.to_wire()})
        return types.InputRequiredResult.model_validate(asked)


class _Unaskable(Exception):
    """The client declared no elicitation mode that can ask `request`."""

    def __init__(self, request: Request) -> None:
        super().__init__(request.id)
        self.request = request


class _Elicitor:
    """`wait_for` of a call from a client on an older protocol: the question as an elicitation,
    in the call (URL mode for an `authorization` with a url). A client that cannot be asked,
    refuses the elicitation or answers it malformed has cancelled the question; one that did
    not declare the mode a question needs gets its prompt as an error (`_Unaskable`)."""

    def __init__(self, ctx: ServerRequestContext[Any, Any]) -> None:
        self._ctx = ctx
        caps = ctx.session.client_capabilities
        self._declared = caps.elicitation if caps is not None else None
        self.can_ask = self._declared is not None and ctx.session.can_send_request

    async def ask(self, request: Request) -> Answer:
        elicit = _elicitation(self._declared, request)
        if elicit is None:
            raise _Unaskable(request)
        try:
            reply = await self._ctx.session.send_request(
                types.ElicitRequest(params=elicit),
                types.ElicitResult,
                metadata=ServerMessageMetadata(related_request_id=self._ctx.request_id),
            )
            return answer_from_mcp(request, {request.id: _wire(reply)})
        except Exception:  # the client refused the elicitation (an error response), left, or misspoke
            logger.info("the client was not asked %r, or did not answer it", request.id, exc_info=True)
            return Answer(request.id, False, reason="cancelled")


def _result(result: ToolResult) -> dict[str, Any]:
    """`result` as the wire form of a `CallToolResult`: the SDK checks a handler's result against
    the protocol's schema as it sends it, so a model built here first would be built twice."""
    wire = mcp_call_tool_result(result)
    wire.setdefault("isError", False)  # the defaults the model would write
    wire["resultType"] = "complete"
    return wire


def _elicitation(
    declared: types.ElicitationCapability | None, request: Request
) -> types.ElicitRequestFormParams | types.ElicitRequestURLParams | None:
    """The elicitation that asks a pre-2026 client `request`, or None when the client did not
    declare the mode it needs (URL mode for an authorization with a url)."""
    if declared is None:
        return None
    asked = mcp_input_required(pending(request))
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
    version: str | None = None,
    instructions: str | None = None,
    request_state_security: RequestStateSecurity | None = None,
    store: RunStore | None = None,
    temporal: TurnClient | None = None,
    tasks: TaskMode | None = "long_running",
    task_ttl: float | None = 3600.0,
    poll_interval: float = 1.0,
    principal: PrincipalOf = authenticated_principal,
) -> Server[Any]:
    """The MCP SDK's lowlevel `Server` serving `toolkit`'s tools; run it yourself (over any of
    the SDK's transports, or in process with `mcp.Client(server)`) or through `serve`.

    The `requestState` of an `input_required` result is sealed by the SDK's
    `RequestStateBoundary` (encrypted, bound to the tool, its arguments, the principal and a
    time to live); by default under a key held by this process only
    (`RequestStateSecurity(keys=[random])`), so a retry must reach the same process. Pass
    `request_state_security` with shared keys for several workers. `version` is the server's
    (the package's, `toolnexus.__version__`, when None).

    `principal(ctx)` says who calls (by default the SDK's `authenticated_principal`: the OAuth
    client and subject of an authenticated HTTP request; None on stdio): a pending run is
    bound to it (`Toolkit.run_calls(principal=...)`, enforced by the toolkit's seal when it has
    a key), a `requestState` too (when `request_state_security` is not given), and a task is
    visible to it alone.

    With a `store` (a `SqliteRunStore`) or `temporal` (a `toolnexus.temporal.TurnClient`), the
    server offers MCP's Tasks extension (`io.modelcontextprotocol/tasks`): for a client that
    declares it, a call to a tool whose hints say `long_running` (every call, with
    `tasks="always"`; none, with `tasks=None`) returns a task, followed with `tasks/get` (every
    `poll_interval` seconds, the client is told), answered with `tasks/update` and cancelled
    with `tasks/cancel`. The task lives where you say, one place or the other (both is a
    `ValueError`): a row of the store, its call run in this process (any process sharing the
    file answers for it; a `requestState` is taken once across them all too); or a Temporal
    turn, its call run by a worker (`worker_for`) on the client's task queue (any process on the
    namespace answers for it). `task_ttl` (seconds; None for none) is how long its run may wait
    (`Toolkit.run_calls(expires_in=...)`, `TurnClient.start(expires_in=...)`) and how long the
    store keeps it (Temporal keeps a turn for the namespace's retention).
    """
    if store is not None and temporal is not None:
        raise UsageError("a task lives in one place: give mcp_server store= or temporal=, not both")
    backend: TaskBackend | None = None
    if tasks is not None and (store is not None or temporal is not None):
        ttl, poll = checked_ttl(task_ttl), poll_ms(poll_interval)
        if store is not None:
            from ._store_tasks import StoreTasks

            backend = StoreTasks(toolkit, store, ttl=ttl, poll_ms=poll)
        elif temporal is not None:
            from ._temporal_tasks import TemporalTasks

            backend = TemporalTasks(temporal, ttl=ttl, poll_ms=poll)
    tasks_host = None
    if backend is not None:
        assert tasks is not None
        tasks_host = _ServedTasks(toolkit, backend, mode=tasks, principal=principal)
    security = request_state_security or RequestStateSecurity(
        keys=[secrets.token_bytes(32)], bind_principal=principal
    )
    bridge = _Bridge(toolkit, principal=principal, store=store, tasks=tasks_host, state_ttl=security.ttl)
    server: Server[Any] = Server(
        name,
        version=__version__ if version is None else version,
        instructions=instructions,
        on_list_tools=bridge.list_tools,
        # A task (`CreateTaskResult`) is a result shape the SDK's typing of `tools/call` does not name.
        on_call_tool=cast(Any, bridge.call_tool),
    )
    server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, _set_level)
    server.middleware.append(RequestStateBoundary(security, default_audience=name))
    if tasks_host is not None:
        server.add_request_handler("tasks/get", TaskParams, tasks_host.get)
        server.add_request_handler("tasks/update", UpdateTaskParams, tasks_host.update)
        server.add_request_handler("tasks/cancel", TaskParams, tasks_host.cancel)
        server.extensions[TASKS_EXTENSION] = {}
    return server


async def serve_async(
    toolkit: Toolkit,
    transport: Literal["stdio", "http"] = "stdio",
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    **options: Any,
) -> None:
    """Serve `toolkit` over stdio, or over streamable HTTP at `http://host:port/path`,
    until the client closes stdin (stdio) or the process is stopped (HTTP). `options` are
    `mcp_server`'s."""
    server = mcp_server(toolkit, **options)
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
        raise UsageError(f"transport must be 'stdio' or 'http', got {transport!r}")


def serve(
    toolkit: Toolkit,
    transport: Literal["stdio", "http"] = "stdio",
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    **options: Any,
) -> None:
    """`serve_async` in a new event loop: the one call a server script makes (`options` are
    `mcp_server`'s: `name`, `version`, `instructions`, `request_state_security`, `store`,
    `temporal`, `tasks`, `task_ttl`, `poll_interval`, `principal`)."""
    asyncio.run(serve_async(toolkit, transport, host=host, port=port, path=path, **options))
