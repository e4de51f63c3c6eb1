"""The 2026-07-28 details of the MCP bridge: tool titles, icons and `idempotentHint` both ways, a
`requestState` bound to the principal and taken once across processes, `structuredContent:
null`, and W3C trace context in `_meta`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp import Client
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.request_state import RequestStateSecurity
from mcp.shared.exceptions import MCPError
from opentelemetry import trace
from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags

from toolnexus import (
    Request,
    ToolContext,
    ToolHints,
    ToolIcon,
    Toolkit,
    define_tool,
    pending,
)
from toolnexus.adapters.mcp import from_mcp_call_tool_result
from toolnexus.mcp import mcp_server, mcp_tools_from
from toolnexus.store import SqliteRunStore

ICON = ToolIcon(src="https://example.com/mail.png", mime_type="image/png", sizes=["32x32"], theme="light")
MAIL = ToolHints(
    read_only=False, destructive=False, open_world=True, idempotent=True, title="Send an email", icons=[ICON]
)


async def send(args: dict[str, Any], ctx: ToolContext) -> str:
    return "sent"


async def test_title_icons_and_idempotent_hint_both_ways() -> None:
    server = mcp_server(Toolkit([define_tool("send", "Send mail", None, send, hints=MAIL)]))
    async with Client(server) as client:
        [listed] = (await client.list_tools()).tools
        [consumed] = await mcp_tools_from(client.session)
    declared = listed.model_dump(by_alias=True, exclude_none=True)
    assert declared["title"] == "Send an email"
    assert declared["icons"] == [
        {"src": "https://example.com/mail.png", "mimeType": "image/png", "sizes": ["32x32"], "theme": "light"}
    ]
    assert declared["annotations"] == {
        "readOnlyHint": False,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": True,
    }
    assert consumed.hints == MAIL


async def test_a_foreign_servers_title_and_icons() -> None:
    """A server's `annotations.title` is the title when the tool has none of its own; an icon
    that is not `https` or `data:` is left out; a tool with none of these has no hints."""

    async def list_tools(ctx: ServerRequestContext[Any, Any], params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name="a",
                    input_schema={"type": "object"},
                    annotations=types.ToolAnnotations(title="Tool A"),
                    icons=[
                        types.Icon(src="javascript:alert(1)"),
                        types.Icon(src="data:image/png;base64,AA=="),
                    ],
                ),
                types.Tool(name="b", input_schema={"type": "object"}),
            ]
        )

    async with Client(Server("foreign", on_list_tools=list_tools)) as client:
        a, b = await mcp_tools_from(client.session)
    assert a.hints == ToolHints(
        read_only=False,
        destructive=True,
        open_world=True,
        title="Tool A",
        icons=[ToolIcon(src="data:image/png;base64,AA==")],
    )
    assert b.hints is None


def approving() -> Toolkit:
    async def approve(args: dict[str, Any], ctx: ToolContext) -> Any:
        if ctx.answer is None:
            return pending(Request("approval", "Go?"))
        return "went"

    return Toolkit([define_tool("approve", "", None, approve)])


async def _asked(client: Client) -> types.InputRequiredResult:
    asked = await client.session.call_tool("approve", {}, allow_input_required=True)
    assert isinstance(asked, types.InputRequiredResult)
    return asked


def _accept(asked: types.InputRequiredResult) -> dict[str, Any]:
    [key] = asked.input_requests or {}
    return {key: types.ElicitResult(action="accept", content={})}


async def test_a_request_state_is_taken_once_across_processes(tmp_path: Path) -> None:
    """Two servers (as two worker processes) share the state's keys and a store: a retry is
    taken by the first, and the same state sent to the second is refused."""
    security = RequestStateSecurity(keys=[b"k" * 32])
    path = tmp_path / "runs.sqlite3"
    one = mcp_server(approving(), request_state_security=security, store=SqliteRunStore(path))
    two = mcp_server(approving(), request_state_security=security, store=SqliteRunStore(path))
    async with Client(one) as a, Client(two) as b:
        asked = await _asked(a)
        first = await a.session.call_tool(
            "approve", {}, input_responses=_accept(asked), request_state=asked.request_state
        )
        replay = await b.session.call_tool(
            "approve", {}, input_responses=_accept(asked), request_state=asked.request_state
        )
    assert first.content[0].text == "went"  # type: ignore[union-attr]
    assert replay.is_error and replay.content[0].text == (  # type: ignore[union-attr]
        "this requestState was already used: a retry is taken once"
    )


async def test_a_request_state_is_bound_to_the_principal() -> None:
    who = {"name": "alice"}
    server = mcp_server(approving(), principal=lambda ctx: who["name"])
    async with Client(server) as client:
        asked = await _asked(client)
        who["name"] = "mallory"
        with pytest.raises(MCPError, match="requestState"):
            await client.session.call_tool(
                "approve", {}, input_responses=_accept(asked), request_state=asked.request_state
            )
        who["name"] = "alice"
        done = await client.session.call_tool(
            "approve", {}, input_responses=_accept(asked), request_state=asked.request_state
        )
    assert done.content[0].text == "went"  # type: ignore[union-attr]


async def test_a_principal_binds_the_toolkits_own_seal() -> None:
    """With a key, the pending run in the state is sealed to the principal by the toolkit (its
    rule, `ResumeError("principal")`): a retry by another principal is refused even where the
    SDK's state codec binds no principal."""
    who = {"name": "alice"}
    kit = Toolkit(approving().tools(), secret=b"s" * 32)
    security = RequestStateSecurity(keys=[b"k" * 32], bind_principal=None)
    server = mcp_server(kit, request_state_security=security, principal=lambda ctx: who["name"])
    async with Client(server) as client:
        asked = await _asked(client)
        who["name"] = "mallory"
        refused = await client.session.call_tool(
            "approve", {}, input_responses=_accept(asked), request_state=asked.request_state
        )
        who["name"] = "alice"
        done = await client.session.call_tool(
            "approve", {}, input_responses=_accept(asked), request_state=asked.request_state
        )
    assert refused.is_error and "principal" in refused.content[0].text  # type: ignore[union-attr]
    assert done.content[0].text == "went"  # type: ignore[union-attr]


def test_structured_content_null_is_read_as_absent() -> None:
    """MCP 2026-07-28 lets `structuredContent` be any JSON value; toolnexus's wire has no null
    there (an absent field is omitted, never null), so a server's `null` is read as no
    structured content, and the text is the output (docs/limits.md)."""
    result = from_mcp_call_tool_result(
        {"content": [{"type": "text", "text": "t"}], "structuredContent": None}
    )
    assert result.output == "t" and result.structured_content is None
    assert "structuredContent" not in result.to_wire()
    empty = from_mcp_call_tool_result({"content": [], "structuredContent": None})
    assert empty.output == "" and empty.structured_content is None


TRACE = 0x0AF7651916CD43DD8448EB211C80319C
PARENT = 0xB7AD6B7169203331


async def test_trace_context_reaches_the_served_handler() -> None:
    """A `traceparent` in the request's `_meta` parents the span the served handler runs in."""
    seen: list[int] = []

    async def traced(args: dict[str, Any], ctx: ToolContext) -> str:
        seen.append(trace.get_current_span().get_span_context().trace_id)
        return "ok"

    server = mcp_server(Toolkit([define_tool("traced", "", None, traced)]))
    meta: Any = {"traceparent": f"00-{TRACE:032x}-{PARENT:016x}-01", "tracestate": "vendor=1"}
    async with Client(server) as client:
        await client.call_tool("traced", {}, meta=meta)
    assert seen == [TRACE]


async def test_trace_context_goes_out_with_a_consumed_call() -> None:
    """A consumed tool called inside a span sends its trace context in `_meta`."""
    seen: list[dict[str, Any]] = []

    async def traced(args: dict[str, Any], ctx: ToolContext) -> str:
        seen.append(trace.get_current_span().get_span_context().trace_id)  # type: ignore[arg-type]
        return "ok"

    server = mcp_server(Toolkit([define_tool("traced", "", None, traced)]))
    span = NonRecordingSpan(SpanContext(TRACE, PARENT, is_remote=False, trace_flags=TraceFlags(1)))
    async with Client(server) as client:
        [tool] = await mcp_tools_from(client.session)
        with trace.use_span(span):
            result = await tool.call({}, ToolContext())
    assert result.output == "ok" and seen == [TRACE]
