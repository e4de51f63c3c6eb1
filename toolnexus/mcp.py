"""MCP, live: serve a `Toolkit` as an MCP server, and use an MCP server's tools as `Tool`s.

Built on the official MCP Python SDK (`pip install toolnexus-contract[mcp]`); the
protocol is the SDK's, and every shape crossing it is mapped by
`toolnexus.adapters` (`mcp_tools`, `mcp_call_tool_result`, `from_mcp_call_tool_result`,
`mcp_input_required`, `answer_from_mcp`, `mcp_input_responses`).

Serving (`mcp_server`, `serve`, `serve_async`): `tools/list` lists the toolkit's tools;
`tools/call` runs one through `Toolkit.execute`. A failure, bad arguments or an unknown
tool is an `isError` result, never a protocol error, and `metadata` never leaves the
process. A suspension becomes MCP's `input_required` result on a 2026-07-28 connection
(the client's retry with `inputResponses` re-runs the tool with `ctx.answer`, under the
toolkit's loop rule), and an elicitation on an older one (URL mode for an `authorization`
with a url); a client that can do neither gets the suspension's prompt as an error.
`ToolContext.progress` becomes `notifications/progress` when the client sent a token.

Consuming (`mcp_tools_from`): every tool of an initialized `ClientSession` becomes a
`Tool` whose calls go over the session. A server's `input_required` result is a
suspension whose answer goes back as `inputResponses`; a server's elicitation on an
older connection is a suspension too when the session was built with an
`ElicitationRelay`. The server's progress reaches the calling tool's `ctx.progress`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Literal

import mcp_types as types
from mcp.client.session import ClientRequestContext, ClientSession
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from toolnexus_wire import WireError, dumps

from toolnexus._loop import after_retry, approval_for, approved_arguments, verdict
from toolnexus._output import Output
from toolnexus._result import Answer, Request, ToolHints, ToolResult
from toolnexus._suspend import pending, pending_of
from toolnexus._tool import Tool, ToolContext
from toolnexus._toolkit import ProgressHook, Toolkit, idempotency_key, turn_digest
from toolnexus.adapters.mcp import (
    answer_from_mcp,
    from_mcp_call_tool_result,
    mcp_call_tool_result,
    mcp_input_required,
    mcp_input_responses,
    mcp_tools,
)

__all__ = ["ElicitationRelay", "mcp_server", "mcp_tools_from", "serve", "serve_async"]

logger = logging.getLogger(__name__)

_STATE_VERSION = 1
_ANSWERED_MEMORY = 10_000
_ASKED_MEMORY = 10_000


# --- serving ---------------------------------------------------------------------------------------


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


# --- consuming -------------------------------------------------------------------------------------

#: The key under which a relayed elicitation sits in the `input_required` shape the adapters read.
_ELICITATION_KEY = "elicitation"


@dataclass(eq=False)
class _Flight:
    """A call in flight over a session with an `ElicitationRelay`, and the elicitation it waits on."""

    task: asyncio.Task[Any] | None = None
    asked: asyncio.Future[types.ElicitRequestParams] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    reply: asyncio.Future[types.ElicitResult] | None = None
    request: Request | None = None
    ctx: ToolContext | None = None
    timer: asyncio.TimerHandle | None = None


class ElicitationRelay:
    """The `elicitation_callback` of a `ClientSession` whose tools `mcp_tools_from` wraps: a
    server's elicitation (how a pre-2026 server asks for input in the middle of a call)
    becomes a suspension of the tool call that is waiting, and the toolkit's answer goes
    back as the elicitation's result when the tool runs again.

    The MCP call stays open meanwhile, so the answer must come to this process (through
    `Toolkit.run_calls(wait_for=...)`, or `resume` here) within `wait` seconds, after which
    the elicitation is cancelled (a refusal never reaches the tool, so it ends this way too).
    An elicitation is matched to the oldest call of the session not already waiting: exact
    when the session runs one call at a time. One outside any call is declined.

        relay = ElicitationRelay()
        async with ClientSession(read, write, elicitation_callback=relay) as session:
            await session.initialize()
            tools = await mcp_tools_from(session, elicitations=relay)
    """

    def __init__(self, *, wait: float = 600.0) -> None:
        self.wait = wait
        self._flights: list[_Flight] = []
        self._parked: dict[str, _Flight] = {}

    async def __call__(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult | types.ErrorData:
        for flight in self._flights:
            if not flight.asked.done():
                flight.reply = asyncio.get_running_loop().create_future()
                flight.asked.set_result(params)
                return await flight.reply
        return types.ElicitResult(action="decline")

    def _open(self) -> _Flight:
        flight = _Flight()
        self._flights.append(flight)
        return flight

    def _close(self, flight: _Flight) -> None:
        if flight in self._flights:
            self._flights.remove(flight)
        if flight.request is not None:
            self._parked.pop(flight.request.id, None)
        if flight.timer is not None:
            flight.timer.cancel()
        if flight.asked.done() and flight.reply is not None and not flight.reply.done():
            # The call ended while an elicitation was matched to it: it was another call's.
            self._hand_on(flight.asked.result(), flight.reply)

    def _hand_on(self, params: types.ElicitRequestParams, reply: asyncio.Future[types.ElicitResult]) -> None:
        for flight in self._flights:
            if not flight.asked.done():
                flight.reply = reply
                flight.asked.set_result(params)
                return
        reply.set_result(types.ElicitResult(action="decline"))

    def _park(self, flight: _Flight, request: Request) -> None:
        flight.request = request
        self._parked[request.id] = flight
        flight.timer = asyncio.get_running_loop().call_later(self.wait, self._expire, flight)
        if flight.task is not None:
            flight.task.add_done_callback(lambda _: self._misplaced(flight, request))

    def _misplaced(self, flight: _Flight, request: Request) -> None:
        """A parked call ended while its elicitation waited: the elicitation was another call's.
        It goes to that call (asked again there); this call's answer then just returns its result."""
        if self._parked.get(request.id) is flight and flight.reply is not None and not flight.reply.done():
            params, reply = flight.asked.result(), flight.reply
            flight.reply = None
            self._hand_on(params, reply)

    def _take(self, request_id: str) -> _Flight | None:
        flight = self._parked.pop(request_id, None)
        if flight is not None and flight.timer is not None:
            flight.timer.cancel()
            flight.timer = None
        return flight

    def _expire(self, flight: _Flight) -> None:
        """No answer came in time: cancel the elicitation, and drop the call's result."""
        if flight.request is not None:
            self._parked.pop(flight.request.id, None)
        if flight.reply is not None and not flight.reply.done():
            flight.reply.set_result(types.ElicitResult(action="cancel"))
        if flight.task is not None:
            flight.task.add_done_callback(lambda t: self._close(flight))


class _Remote:
    """The handler of one tool of an MCP session."""

    def __init__(self, session: ClientSession, name: str, relay: ElicitationRelay | None) -> None:
        self.session = session
        self.name = name
        self.relay = relay
        self._asked: OrderedDict[str, Request] = OrderedDict()

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        answer = ctx.answer
        if answer is None:
            return await self._call(args, ctx)
        flight = self.relay._take(answer.id) if self.relay is not None else None
        if flight is not None:  # the server waits on an elicitation: answer it, and wait on
            assert flight.request is not None
            reply = flight.reply
            flight.asked = asyncio.get_running_loop().create_future()
            flight.ctx = ctx
            if reply is not None and not reply.done():  # (else it was another call's: see `_misplaced`)
                response = mcp_input_responses(flight.request, answer)["inputResponses"][_ELICITATION_KEY]
                reply.set_result(types.ElicitResult.model_validate(response))
            return await self._land(flight)
        request = self._asked.pop(answer.id, None)
        if request is None and _retried(ctx.request, answer):
            request = ctx.request  # the run was resumed elsewhere: the request came with it
        if request is None and ctx.request is not None and ctx.request.id == answer.id:
            return ToolResult.error(
                f"the MCP elicitation {answer.id!r} of {self.name} is no longer open: it is answered "
                "over its MCP call, in the process that asked it, within the relay's wait"
            )
        if request is None:
            return ToolResult.error(
                f"no MCP request {answer.id!r} of {self.name} is known here: resume the run "
                "through a Toolkit, which passes the request the answer is for"
            )
        retry = mcp_input_responses(request, answer)
        responses: types.InputResponses = {
            key: types.ElicitResult.model_validate(value) for key, value in retry["inputResponses"].items()
        }
        return await self._call(args, ctx, responses, retry.get("requestState"))

    async def _call(
        self,
        args: dict[str, Any],
        ctx: ToolContext,
        responses: types.InputResponses | None = None,
        state: str | None = None,
    ) -> ToolResult:
        flight = self.relay._open() if self.relay is not None else None
        if flight is not None:
            flight.ctx = ctx

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            # The call's own context; after a relayed elicitation, the retry's.
            target = flight.ctx if flight is not None and flight.ctx is not None else ctx
            if total:
                target.progress(min(max(progress / total, 0.0), 1.0), message or "")

        call = self.session.call_tool(
            self.name,
            args,
            progress_callback=on_progress,
            input_responses=responses,
            request_state=state,
            allow_input_required=True,
        )
        if flight is None:
            return self._mapped(await call)
        flight.task = asyncio.ensure_future(call)
        flight.task.add_done_callback(_retrieved)  # a parked call may end unawaited
        return await self._land(flight)

    async def _land(self, flight: _Flight) -> ToolResult:
        """The call's result, or a suspension when the server elicits first."""
        assert self.relay is not None and flight.task is not None
        try:
            await asyncio.wait({flight.task, flight.asked}, return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            flight.task.cancel()
            self.relay._close(flight)
            raise
        if flight.task.done():
            self.relay._close(flight)
            return self._mapped(flight.task.result())
        asked = {
            "resultType": "input_required",
            "inputRequests": {
                _ELICITATION_KEY: {"method": "elicitation/create", "params": _wire(flight.asked.result())}
            },
        }
        request = pending_of(from_mcp_call_tool_result(asked))
        assert request is not None and request.data is not None
        # Marked: this question is answered over the MCP call held open here, not by a retry.
        request = request.model_copy(update={"data": {"mcp": {**request.data["mcp"], _HELD_OPEN: True}}})
        self.relay._park(flight, request)
        return pending(request)

    def _mapped(self, result: types.CallToolResult | types.InputRequiredResult | Any) -> ToolResult:
        mapped = from_mcp_call_tool_result(_wire(result))
        request = pending_of(mapped)
        if request is not None:
            self._asked[request.id] = request
            if len(self._asked) > _ASKED_MEMORY:
                self._asked.popitem(last=False)
        return mapped


_HELD_OPEN = "heldOpen"


def _retried(request: Request | None, answer: Answer) -> bool:
    """Whether `request`, handed over by the toolkit, is one a retry answers: an
    `input_required` question, not an elicitation held open over an MCP call."""
    if request is None or request.id != answer.id or request.data is None:
        return False
    mcp = request.data.get("mcp")
    return isinstance(mcp, dict) and not mcp.get(_HELD_OPEN)


def _retrieved(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()


def _hints(annotations: types.ToolAnnotations | None) -> ToolHints | None:
    """MCP's annotations as hints, with MCP's defaults for the ones left out."""
    if annotations is None or (
        annotations.read_only_hint is None
        and annotations.destructive_hint is None
        and annotations.open_world_hint is None
    ):
        return None
    return ToolHints(
        read_only=bool(annotations.read_only_hint),
        destructive=annotations.destructive_hint is not False,
        open_world=annotations.open_world_hint is not False,
    )


async def mcp_tools_from(
    session: ClientSession, *, elicitations: ElicitationRelay | None = None
) -> list[Tool]:
    """A `Tool` for every tool an initialized `ClientSession` lists (all pages).

    Each keeps the MCP tool's name, description, input schema, output schema and hints; the
    server checks the arguments. Results come through `from_mcp_call_tool_result`, so `_meta` is kept
    host-only and an `input_required` result is a suspension: answer it through
    `Toolkit.run_calls`/`resume` in this process and the retry carries the answer as
    `inputResponses`. Pass the session's `ElicitationRelay` to turn a pre-2026 server's
    elicitation into a suspension too. The server's progress reaches `ctx.progress`.
    """
    listed: list[types.Tool] = []
    cursor: str | None = None
    while True:
        page = await session.list_tools(
            params=types.PaginatedRequestParams(cursor=cursor) if cursor else None
        )
        listed.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    source = f"mcp:{session.server_info.name}" if session.server_info is not None else "mcp"
    tools = []
    for t in listed:
        handler = _Remote(session, t.name, elicitations)
        tools.append(
            Tool(
                t.name,
                t.description or "",
                dict(t.input_schema),
                handler,
                check=None,
                source=source,
                is_async=True,
                hints=_hints(t.annotations),
                output=_output(t.output_schema),
            )
        )
    return tools


def _output(schema: dict[str, Any] | None) -> Output | None:
    """The output schema a tool declares, kept (and checked, as the SDK's session checks it
    too); one that is not a valid JSON Schema is left out rather than refusing the tool."""
    if schema is None:
        return None
    try:
        return Output(dict(schema))
    except ValueError:
        logger.warning("an MCP tool's outputSchema is not a valid JSON Schema; left out", exc_info=True)
        return None
