"""Consuming an MCP server's tools (`mcp_tools_from`, `ElicitationRelay`).

Every tool of an initialized `ClientSession` becomes a `Tool` whose calls go over the session. A
server's `input_required` result is a suspension whose answer goes back as `inputResponses`; a
server's elicitation on an older connection is a suspension too when the session was built with
an `ElicitationRelay`. The server's progress reaches the calling tool's `ctx.progress`.

A server is not trusted to behave: its listing is bounded (pages, tools, a deadline, a cursor
sent twice), each call has a timeout (a timed-out call is an error result, and the server is
sent `notifications/cancelled`), a name it lists twice is taken once, and a URL elicitation to
anything but an `http` or `https` URL is declined without being shown to anyone.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import mcp_types as types
from mcp.client.session import ClientSession

from toolnexus._errors import UsageError, WireError
from toolnexus._output import Output
from toolnexus._result import Answer, Request, ToolHints, ToolIcon, ToolResult
from toolnexus._suspend import pending, pending_of
from toolnexus._tool import Tool, ToolContext, normalize_tool_name
from toolnexus.adapters.mcp import from_mcp_call_tool_result, mcp_input_responses

from ._relay import _ELICITATION_KEY, ElicitationRelay, _Flight, _retrieved
from ._remote_tasks import _TASK_ID, DEFAULT_TIMEOUT, TaskSupport, _state, _TaskCalls, _wire
from ._tasks import (
    CreatedTask,
)

__all__ = ["ElicitationRelay", "TaskSupport", "mcp_tools_from"]

logger = logging.getLogger("toolnexus.mcp")

#: The defaults of `mcp_tools_from`: the bounds of a listing (and `DEFAULT_TIMEOUT`, of a call).
DEFAULT_MAX_PAGES = 100
DEFAULT_MAX_TOOLS = 10_000
DEFAULT_LIST_TIMEOUT = 60.0


class _Remote(_TaskCalls):
    """The handler of one tool of an MCP session: `name` is the server's name for it."""

    def __init__(
        self,
        session: ClientSession,
        name: str,
        relay: ElicitationRelay | None,
        timeout: float | None = None,
        server: str = "",
    ) -> None:
        self.session = session
        self.name = name
        self.relay = relay
        self.timeout = timeout
        self.server = server
        self._asked: OrderedDict[str, Request] = OrderedDict()

    def _timed_out(self) -> ToolResult:
        return ToolResult.error(
            f"the MCP server {self.server!r} did not answer the call to {self.name!r} within "
            f"{self.timeout:g} s; the call was cancelled"
        )

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        answer = ctx.answer
        if answer is None:
            return await self._call(args, ctx)
        flight = self.relay._take(answer.id) if self.relay is not None else None
        if flight is not None:  # the server waits on an elicitation: answer it, and wait on
            assert flight.request is not None and self.relay is not None
            relay = self.relay
            flight.ctx = ctx
            response = mcp_input_responses(flight.request, answer)["inputResponses"][_ELICITATION_KEY]
            try:
                await relay._reply(flight, types.ElicitResult.model_validate(response))
            except BaseException:
                if flight.task is not None:
                    flight.task.cancel()
                relay._close(flight)
                raise
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
        mcp = (request.data or {}).get("mcp")
        if isinstance(mcp, dict) and isinstance(mcp.get(_TASK_ID), str):
            return await self._answer_task(mcp, request, answer, ctx)
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
            flight.budget = self.timeout

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
            allow_claimed=True,
        )
        if flight is None:
            # Cancelling the SDK's request on the deadline sends the server `notifications/cancelled`.
            deadline = asyncio.timeout(self.timeout)
            try:
                async with deadline:
                    result = await call
            except TimeoutError:
                if deadline.expired():
                    return self._timed_out()
                raise  # the SDK's own (a transport's bounded send)
            if isinstance(result, CreatedTask):
                return await self._follow(_state(result), ctx)
            return self._mapped(result)
        assert self.relay is not None  # a flight is the relay's
        try:
            await self.relay._speak(flight)
        except BaseException:
            call.close()
            self.relay._close(flight)
            raise
        flight.task = asyncio.ensure_future(call)
        flight.task.add_done_callback(_retrieved)  # a parked call may end unawaited
        return await self._land(flight)

    async def _land(self, flight: _Flight) -> ToolResult:
        """The call's result, or a suspension when the server elicits first; an error result
        when the server outlasts what is left of the call's timeout."""
        assert self.relay is not None and flight.task is not None
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            try:
                await asyncio.wait(
                    {flight.task, flight.asked}, timeout=flight.budget, return_when=asyncio.FIRST_COMPLETED
                )
            except BaseException:
                flight.task.cancel()
                self.relay._close(flight)
                raise
            if flight.budget is not None:
                flight.budget -= loop.time() - started
            if flight.task.done():
                self.relay._close(flight)
                if isinstance(flight.task.result(), CreatedTask):
                    return await self._follow(_state(flight.task.result()), flight.ctx or ToolContext())
                return self._mapped(flight.task.result())
            if not flight.asked.done():  # the timeout: the SDK tells the server the call is cancelled
                flight.task.cancel()
                self.relay._close(flight)
                return self._timed_out()
            params = flight.asked.result()
            asked = {
                "resultType": "input_required",
                "inputRequests": {
                    _ELICITATION_KEY: {"method": "elicitation/create", "params": _wire(params)}
                },
            }
            try:
                request = pending_of(from_mcp_call_tool_result(asked))
            except WireError as exc:
                # Not asked (a URL elicitation to a `javascript:` link): the server hears a
                # decline, and the call goes on to its result.
                logger.warning(
                    "declined an elicitation of the MCP server %r, not shown to anyone: %s", self.server, exc
                )
                try:
                    await self.relay._reply(flight, types.ElicitResult(action="decline"))
                except BaseException:
                    flight.task.cancel()
                    self.relay._close(flight)
                    raise
                continue
            assert request is not None and request.data is not None
            # Marked: this question is answered over the MCP call held open here, not by a retry.
            request = request.model_copy(update={"data": {"mcp": {**request.data["mcp"], _HELD_OPEN: True}}})
            self.relay._park(flight, request)
            return pending(request)


_HELD_OPEN = "heldOpen"


def _retried(request: Request | None, answer: Answer) -> bool:
    """Whether `request`, handed over by the toolkit, is one a retry answers: an
    `input_required` question, not an elicitation held open over an MCP call."""
    if request is None or request.id != answer.id or request.data is None:
        return False
    mcp = request.data.get("mcp")
    return isinstance(mcp, dict) and not mcp.get(_HELD_OPEN)


def _hints(tool: types.Tool) -> ToolHints | None:
    """MCP's annotations, title and icons as hints, with MCP's defaults for the annotations
    left out; None when the tool has none of them. An icon whose `src` is not an `https` or
    `data:` URL is left out (it would be fetched by whoever shows it)."""
    annotations = tool.annotations
    icons = [icon for icon in (tool.icons or []) if _shown(icon.src)]
    title = tool.title or (annotations.title if annotations is not None else None)
    if (
        not icons
        and not title
        and (
            annotations is None
            or (
                annotations.read_only_hint is None
                and annotations.destructive_hint is None
                and annotations.idempotent_hint is None
                and annotations.open_world_hint is None
            )
        )
    ):
        return None
    marked = annotations or types.ToolAnnotations()
    return ToolHints(
        read_only=bool(marked.read_only_hint),
        destructive=marked.destructive_hint is not False,
        open_world=marked.open_world_hint is not False,
        idempotent=marked.idempotent_hint,
        title=title or None,
        icons=[ToolIcon.from_wire(_wire(icon)) for icon in icons],
    )


def _shown(src: str) -> bool:
    return src[:8].lower() == "https://" or src[:5].lower() == "data:"


async def _listed(
    session: ClientSession, server: str, *, max_pages: int, max_tools: int, list_timeout: float | None
) -> list[types.Tool]:
    """Every page of the server's `tools/list`, within the bounds; `ValueError` or
    `TimeoutError` saying which was passed."""
    listed: list[types.Tool] = []
    cursors: set[str] = set()
    cursor: str | None = None
    page_count = 0
    deadline = asyncio.timeout(list_timeout)
    try:
        async with deadline:
            while True:
                if page_count == max_pages:
                    raise ValueError(
                        f"the MCP server {server!r} has more than {max_pages} pages of tools/list "
                        "(max_pages); no tools were taken from it"
                    )
                page = await session.list_tools(
                    params=types.PaginatedRequestParams(cursor=cursor) if cursor else None
                )
                page_count += 1
                listed.extend(page.tools)
                if len(listed) > max_tools:
                    raise ValueError(
                        f"the MCP server {server!r} lists more than {max_tools} tools (max_tools); "
                        "no tools were taken from it"
                    )
                cursor = page.next_cursor
                if not cursor:
                    return listed
                if cursor in cursors:
                    raise ValueError(
                        f"the MCP server {server!r} sent the cursor {cursor[:100]!r} twice "
                        f"(page {page_count} of tools/list): it would be listed forever; "
                        "no tools were taken from it"
                    )
                cursors.add(cursor)
    except TimeoutError:
        if not deadline.expired():
            raise
        raise TimeoutError(
            f"the MCP server {server!r} did not list its tools within {list_timeout:g} s (list_timeout; "
            f"{len(listed)} tools in {page_count} pages by then); no tools were taken from it"
        ) from None


async def mcp_tools_from(
    session: ClientSession,
    *,
    elicitations: ElicitationRelay | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    timeouts: Mapping[str, float | None] | None = None,
    prefix: str = "",
    rename: Mapping[str, str] | None = None,
    max_pages: int = DEFAULT_MAX_PAGES,
    max_tools: int = DEFAULT_MAX_TOOLS,
    list_timeout: float | None = DEFAULT_LIST_TIMEOUT,
) -> list[Tool]:
    """A `Tool` for every tool an initialized `ClientSession` lists (all pages).

    Each keeps the MCP tool's name, description, input schema, output schema and hints; the
    server checks the arguments. Results come through `from_mcp_call_tool_result`, so `_meta` is kept
    host-only and an `input_required` result is a suspension: answer it through
    `Toolkit.run_calls`/`resume` in this process and the retry carries the answer as
    `inputResponses`. Pass the session's `ElicitationRelay` to turn a pre-2026 server's
    elicitation into a suspension too. The server's progress reaches `ctx.progress`.

    A call that the server has not answered within `timeout` seconds (60 by default; None for
    none) is cancelled (the server is sent `notifications/cancelled`) and its result is an
    error saying so, so the rest of the turn finishes. `timeouts` sets it per tool, by the
    server's name for the tool. The time a person takes to answer a relayed elicitation is not
    counted. (The session's own `read_timeout_seconds`, when set, applies too.)

    The listing stops with `ValueError` when the server sends a cursor twice, or more than
    `max_pages` pages or `max_tools` tools, and with `TimeoutError` after `list_timeout`
    seconds; no tool is taken from such a server.

    A tool is named `prefix + <its name>`, or by `rename` (the server's name to the local
    one; `ValueError` for a name the server does not list), so that two servers, or a server
    and a local tool, do not clash (`Toolkit` refuses two tools of one name); the server is
    still called by its own names. A name the server lists twice (or two that are one name
    once made a tool name, `a.b` and `a_b`) is taken once, the first, with a warning on the
    `toolnexus.mcp` logger.
    """
    server = session.server_info.name if session.server_info is not None else "mcp"
    listed = await _listed(
        session, server, max_pages=max_pages, max_tools=max_tools, list_timeout=list_timeout
    )
    timeouts = dict(timeouts or {})
    source = f"mcp:{session.server_info.name}" if session.server_info is not None else "mcp"
    return [
        Tool(
            name,
            t.description or "",
            dict(t.input_schema),
            _Remote(session, t.name, elicitations, timeouts.get(t.name, timeout), server),
            check=None,
            source=source,
            is_async=True,
            hints=_hints(t),
            output=_output(t.output_schema),
        )
        for name, t in _named(listed, server, prefix, dict(rename or {}))
    ]


def _named(
    listed: list[types.Tool], server: str, prefix: str, rename: dict[str, str]
) -> list[tuple[str, types.Tool]]:
    """The listed tools under their local names (`prefix + name`, or `rename`'s), each name
    once: a name listed twice, or two that are one name once made a tool name, is taken
    once, the first, with a warning."""
    unknown = sorted(set(rename) - {t.name for t in listed})
    if unknown:
        raise UsageError(f"rename names a tool the server does not list: {', '.join(map(repr, unknown))}")
    named = []
    taken: dict[str, str] = {}  # a local name, as the toolkit registers it -> the server's name
    for t in listed:
        name = rename.get(t.name, prefix + t.name)
        key = normalize_tool_name(name)
        if key in taken:
            if taken[key] == t.name:
                logger.warning(
                    "the MCP server %r lists the tool %r more than once; the first is taken", server, t.name
                )
            else:
                logger.warning(
                    "the MCP server %r: %r has the name of its tool %r once made a tool name (%r); "
                    "the first is taken",
                    server,
                    t.name,
                    taken[key],
                    key,
                )
            continue
        taken[key] = t.name
        named.append((name, t))
    return named


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
