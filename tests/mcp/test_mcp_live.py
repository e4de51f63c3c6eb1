"""toolnexus.mcp over real MCP connections, with the MCP SDK's own client and server.

Serve: the SDK's `Client` talks to a toolkit served by `toolnexus.mcp.serve` in a
subprocess, over stdio and over streamable HTTP on 127.0.0.1, at the current protocol
(2026-07-28, reached through `server/discover`) and at the handshake-era 2025-11-25
(the `initialize` handshake), where a suspension is asked through elicitation; one test
handshakes at 2025-06-18 (form-only elicitation, no URL mode).

Consume: `mcp_tools_from` wraps the same servers' tools, and the SDK's own `MCPServer`'s,
for a `Toolkit`.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel

from tests.conftest import REPO, free_port, serving
from toolnexus import Answer, RunResult, ToolCall, Toolkit, pending_of
from toolnexus.mcp import ElicitationRelay, mcp_server, mcp_tools_from

pytestmark = pytest.mark.slow

SERVER = REPO / "tests" / "mcp" / "toolkit_server.py"
FIXTURE = REPO / "examples" / "media" / "fixture.png"
MODERN, HANDSHAKE = "2026-07-28", "2025-11-25"
NAMES = [
    "add",
    "picture",
    "fail",
    "secret",
    "approve",
    "login",
    "again",
    "steps",
    "wipe",
    "forecast",
    "report",
    "files",
]
WAV = b"RIFF\x24\x00\x00\x00WAVEfmt "
PDF = b"%PDF-1.4\n%toolnexus\n"
FORECAST = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "celsius": {"type": "number"}},
    "required": ["city", "celsius"],
}
ERAS = {"modern": ("auto", MODERN), "legacy": ("legacy", HANDSHAKE)}


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "support" / "python")])}


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    """`toolkit_server.py http PORT` in a subprocess, for the module's HTTP tests."""
    port = free_port()
    with serving([sys.executable, str(SERVER), "http", str(port)], port, _env(), "the HTTP server"):
        yield f"http://127.0.0.1:{port}/mcp"


@pytest.fixture(params=["stdio", "http"])
def where(request: pytest.FixtureRequest) -> Any:
    """Where the served toolkit is: stdio parameters (a process per client) or the HTTP url."""
    if request.param == "stdio":
        return StdioServerParameters(command=sys.executable, args=[str(SERVER)], env=_env())
    return request.getfixturevalue("http_url")


@pytest.fixture(params=list(ERAS))
def era(request: pytest.FixtureRequest) -> tuple[str, str]:
    return ERAS[request.param]


@contextlib.asynccontextmanager
async def connect(where: Any, era: tuple[str, str], **kw: Any) -> AsyncIterator[Client]:
    mode, version = era
    async with Client(where, mode=mode, **kw) as client:
        assert client.protocol_version == version
        yield client


def _text(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


# --- serve: the SDK's client against a served toolkit ------------------------------------------------


async def test_list(where: Any, era: tuple[str, str]) -> None:
    async with connect(where, era) as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
    assert list(listed) == NAMES
    add = listed["add"]
    assert add.description == "Add two integers."
    assert add.input_schema["required"] == ["a", "b"]
    assert add.input_schema["properties"]["a"]["type"] == "integer"
    assert add.annotations is not None
    assert (add.annotations.read_only_hint, add.annotations.destructive_hint) == (True, False)
    assert add.annotations.open_world_hint is False
    assert listed["fail"].annotations is None
    assert listed["forecast"].output_schema == FORECAST
    assert listed["add"].output_schema is None
    assert listed["approve"].input_schema == {
        "type": "object",
        "properties": {"n": {"type": "integer"}},
        "required": ["n"],
    }


async def test_call_text_image_error_and_bad_arguments(where: Any, era: tuple[str, str]) -> None:
    async with connect(where, era) as client:
        ok = await client.call_tool("add", {"a": 2, "b": 3})
        picture = await client.call_tool("picture", {})
        failed = await client.call_tool("fail", {"what": "that"})
        bad = await client.call_tool("add", {"a": "two"})
        unknown = await client.call_tool("nope", {})
    assert (ok.is_error, _text(ok)) == (False, "5")
    assert _text(picture) == "a picture" and not picture.is_error
    [image] = [b for b in picture.content if isinstance(b, types.ImageContent)]
    assert image.mime_type == "image/png"
    assert base64.b64decode(image.data) == FIXTURE.read_bytes()
    assert (failed.is_error, _text(failed)) == (True, "cannot do that")
    assert bad.is_error and _text(bad).startswith("invalid arguments for add: ")
    assert "$.a" in _text(bad) and "$.b" in _text(bad)
    assert (unknown.is_error, _text(unknown)) == (True, "Unknown tool: nope")


async def test_structured_output_and_a_resource_link(where: Any, era: tuple[str, str]) -> None:
    async with connect(where, era) as client:
        await client.list_tools()  # the SDK's client checks structured output against the listing
        structured = await client.call_tool("forecast", {"city": "Oslo"})
        report = await client.call_tool("report", {})
    assert not structured.is_error
    assert structured.structured_content == {"city": "Oslo", "celsius": 21.5}
    assert json.loads(_text(structured)) == {"city": "Oslo", "celsius": 21.5}
    assert _text(report) == "the report\nshown to the person only"  # the output, then the note
    [link] = [b for b in report.content if isinstance(b, types.ResourceLink)]
    assert (str(link.uri), link.mime_type, link.name) == (
        "https://example.com/r/report.pdf",
        "application/pdf",
        "report.pdf",
    )
    # A link's title and description, and content annotations, as the SDK's client reads them.
    assert (link.title, link.description) == ("Quarterly report", "Revenue and costs for Q3")
    assert link.annotations is not None
    assert (link.annotations.audience, link.annotations.priority) == (["user"], 0.5)
    assert link.annotations.last_modified == "2026-07-28T10:00:00Z"
    note = report.content[-1]
    assert isinstance(note, types.TextContent) and note.text == "shown to the person only"
    assert note.annotations is not None and note.annotations.audience == ["user"]


async def test_audio_and_a_file(where: Any, era: tuple[str, str]) -> None:
    """No text: no text block; audio as an audio block, a PDF as an embedded resource."""
    async with connect(where, era) as client:
        result = await client.call_tool("files", {})
    sound, document = result.content
    assert isinstance(sound, types.AudioContent) and sound.mime_type == "audio/wav"
    assert base64.b64decode(sound.data) == WAV
    assert isinstance(document, types.EmbeddedResource)
    assert isinstance(document.resource, types.BlobResourceContents)
    assert str(document.resource.uri) == "toolnexus://parts/1/r%201.pdf"
    assert document.resource.mime_type == "application/pdf"
    assert base64.b64decode(document.resource.blob) == PDF


async def test_metadata_never_leaves(where: Any, era: tuple[str, str]) -> None:
    async with connect(where, era) as client:
        result = await client.call_tool("secret", {})
    assert _text(result) == "visible"
    assert "s3cret" not in result.model_dump_json(by_alias=True)


async def test_progress_reaches_the_client(where: Any, era: tuple[str, str]) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async with connect(where, era) as client:
        result = await client.call_tool("steps", {}, progress_callback=on_progress)
    assert _text(result) == "4 steps"
    assert seen == [(i / 4, 1.0, f"step {i}") for i in range(1, 5)]


class Elicitations:
    """An elicitation callback that records what it is asked and answers with `reply`."""

    def __init__(self, reply: types.ElicitResult) -> None:
        self.reply = reply
        self.asked: list[types.ElicitRequestParams] = []

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.asked.append(params)
        return self.reply


async def test_suspension_answered(where: Any, era: tuple[str, str]) -> None:
    """Modern: `input_required`, driven by the SDK's client; legacy: an elicitation. The tool
    runs again with the answer, under the same call id."""
    asked = Elicitations(types.ElicitResult(action="accept", content={"reason": "tidy"}))
    async with connect(where, era, elicitation_callback=asked) as client:
        result = await client.call_tool("approve", {"n": 3})
    assert not result.is_error
    assert _text(result).startswith("deleted 3 files: tidy (mcp-")
    [params] = asked.asked
    assert isinstance(params, types.ElicitRequestFormParams)
    assert params.message == "Delete 3 files?"
    assert params.requested_schema["properties"] == {"reason": {"type": "string"}}


async def test_suspension_declined(where: Any, era: tuple[str, str]) -> None:
    async with connect(
        where, era, elicitation_callback=Elicitations(types.ElicitResult(action="decline"))
    ) as c:
        result = await c.call_tool("approve", {"n": 3})
    assert (result.is_error, _text(result)) == (True, "declined/expired: Delete 3 files?")


async def test_authorization_is_url_mode(where: Any, era: tuple[str, str]) -> None:
    asked = Elicitations(types.ElicitResult(action="accept"))
    async with connect(where, era, elicitation_callback=asked) as client:
        result = await client.call_tool("login", {})
    assert (result.is_error, _text(result)) == (False, "signed in")
    [params] = asked.asked
    assert isinstance(params, types.ElicitRequestURLParams)
    assert (params.url, params.message) == ("https://example.com/login", "Sign in to continue")


@pytest.mark.parametrize("action", ["accept", "decline"])
async def test_needs_approval_is_asked_before_the_tool_runs(
    where: Any, era: tuple[str, str], action: str
) -> None:
    asked = Elicitations(types.ElicitResult(action=action, content={}))
    async with connect(where, era, elicitation_callback=asked) as client:
        result = await client.call_tool("wipe", {"disk": "d1"})
    [params] = asked.asked
    assert params.message == 'Allow wipe to run with these arguments?\n{\n  "disk": "d1"\n}'
    if action == "accept":
        assert (result.is_error, _text(result)) == (False, "wiped d1")
    else:
        assert (result.is_error, _text(result)) == (True, "declined: the call to wipe was not approved")


async def test_a_second_suspension_is_unresolved(where: Any, era: tuple[str, str]) -> None:
    asked = Elicitations(types.ElicitResult(action="accept", content={}))
    async with connect(where, era, elicitation_callback=asked) as client:
        result = await client.call_tool("again", {})
    assert (result.is_error, _text(result)) == (True, "unresolved: Again?")
    assert len(asked.asked) == 1


async def test_a_client_that_cannot_be_asked_gets_the_prompt(where: Any) -> None:
    """Legacy, no elicitation declared: the suspension's prompt comes back as an error."""
    async with connect(where, ERAS["legacy"]) as client:
        result = await client.call_tool("login", {})
    assert result.is_error
    assert _text(result) == "Sign in to continue\nhttps://example.com/login"


async def test_input_required_on_the_wire(where: Any) -> None:
    """The 2026-07-28 exchange by hand: the result, a sealed state, the retry, and a replay."""
    async with connect(where, ERAS["modern"]) as client:
        session = client.session
        first = await session.call_tool("approve", {"n": 2}, allow_input_required=True)
        assert isinstance(first, types.InputRequiredResult)
        assert first.input_requests is not None
        [(key, request)] = first.input_requests.items()
        assert key.startswith("pnd-")
        assert isinstance(request, types.ElicitRequest)
        assert isinstance(request.params, types.ElicitRequestFormParams)
        assert request.params.message == "Delete 2 files?"
        state = first.request_state
        assert state is not None and "Delete" not in state and key not in state  # sealed, not readable
        answer = {key: types.ElicitResult(action="accept", content={"reason": "old"})}
        done = await session.call_tool("approve", {"n": 2}, input_responses=answer, request_state=state)
        assert isinstance(done, types.CallToolResult)
        assert _text(done).startswith("deleted 2 files: old")
        replay = await session.call_tool("approve", {"n": 2}, input_responses=answer, request_state=state)
        assert replay.is_error and "already answered" in _text(replay)
        # The state is bound to the arguments it was issued for, and cannot be forged.
        with pytest.raises(MCPError, match="Invalid or expired requestState"):
            await session.call_tool("approve", {"n": 200}, input_responses=answer, request_state=state)
        with pytest.raises(MCPError, match="Invalid or expired requestState"):
            await session.call_tool(
                "approve", {"n": 2}, input_responses=answer, request_state=state[:-4] + "AAAA"
            )
        missing = await session.call_tool("approve", {"n": 2}, input_responses={}, request_state=state)
        assert missing.is_error and "inputResponses" in _text(missing)


async def test_handshake_2025_06_18(tmp_path: Path) -> None:
    """A 2025-06-18 client declares elicitation without modes: a form is asked without
    `mode`, and an authorization (URL mode came later) comes back as its prompt."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import stdio_client

    asked = Elicitations(types.ElicitResult(action="accept", content={"reason": "old client"}))
    params = StdioServerParameters(command=sys.executable, args=[str(SERVER)], env=_env())
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write, elicitation_callback=asked) as s,
    ):
        init = await s.send_request(
            types.InitializeRequest(
                params=types.InitializeRequestParams(
                    protocol_version="2025-06-18",
                    capabilities=types.ClientCapabilities(elicitation=types.ElicitationCapability()),
                    client_info=types.Implementation(name="old", version="1"),
                )
            ),
            types.InitializeResult,
        )
        assert init.protocol_version == "2025-06-18"
        s.adopt(init)
        await s.send_notification(types.InitializedNotification())
        approved = await s.call_tool("approve", {"n": 1})
        login = await s.call_tool("login", {})
    assert _text(approved).startswith("deleted 1 files: old client")
    assert (login.is_error, _text(login)) == (True, "Sign in to continue\nhttps://example.com/login")
    assert len(asked.asked) == 1


# --- consume: mcp_tools_from over the same connections --------------------------------------------


async def test_consumed_tools_match_the_listing(where: Any, era: tuple[str, str]) -> None:
    async with connect(where, era) as client:
        listed = (await client.list_tools()).tools
        tools = await mcp_tools_from(client.session)
    assert [t.name for t in tools] == [t.name for t in listed]
    assert [t.description for t in tools] == [t.description for t in listed]
    assert [t.input_schema for t in tools] == [t.input_schema for t in listed]
    add = tools[0]
    assert add.hints is not None
    assert (add.hints.read_only, add.hints.destructive, add.hints.open_world) == (True, False, False)
    assert tools[2].hints is None
    assert add.source == "mcp:toolnexus"
    assert [t.output_schema for t in tools] == [t.output_schema for t in listed]
    assert tools[NAMES.index("forecast")].output_schema == FORECAST


async def test_consumed_tools_in_run_calls(where: Any, era: tuple[str, str]) -> None:
    """A consumed server's tools in `Toolkit.run_calls`: text, an image part, an error, bad
    arguments (refused by the server), and the server's progress on `Toolkit(on_progress=)`."""
    progress: list[tuple[str, float, str]] = []
    async with connect(where, era) as client:
        toolkit = Toolkit(await mcp_tools_from(client.session), on_progress=lambda *a: progress.append(a))
        run = await toolkit.run_calls(
            [
                ToolCall("c1", "add", {"a": 20, "b": 22}),
                ToolCall("c2", "picture", {}),
                ToolCall("c3", "fail", {"what": "this"}),
                ToolCall("c4", "add", {"a": "x"}),
                ToolCall("c5", "steps", {}),
                ToolCall("c6", "secret", {}),
                ToolCall("c7", "forecast", {"city": "Oslo"}),
                ToolCall("c8", "report", {}),
                ToolCall("c9", "files", {}),
            ]
        )
    assert run.status == "done"
    r = {item.id: item.result for item in run.results}
    assert (r["c1"].is_error, r["c1"].output) == (False, "42")
    assert r["c2"].output == "a picture"
    [part] = r["c2"].parts
    assert (part.kind, part.mime_type, part.raw()) == ("image", "image/png", FIXTURE.read_bytes())
    assert (r["c3"].is_error, r["c3"].output) == (True, "cannot do this")
    assert r["c4"].is_error and r["c4"].output.startswith("invalid arguments for add: ")
    assert r["c5"].output == "4 steps"
    assert progress == [("c5", i / 4, f"step {i}") for i in range(1, 5)]
    assert r["c6"].output == "visible" and "s3cret" not in r["c6"].to_json()
    assert r["c7"].structured_content == {"city": "Oslo", "celsius": 21.5}
    assert json.loads(r["c7"].output) == {"city": "Oslo", "celsius": 21.5}
    assert r["c8"].output == "the report"
    link, note = r["c8"].parts
    assert (link.kind, link.url, link.mime_type, link.name, link.data) == (
        "file",
        "https://example.com/r/report.pdf",
        "application/pdf",
        "report.pdf",
        "",
    )
    # Title, description and annotations came through the MCP SDK both ways.
    assert (link.title, link.description) == ("Quarterly report", "Revenue and costs for Q3")
    assert link.annotations is not None and link.annotations.to_wire() == {
        "audience": ["user"],
        "priority": 0.5,
        "lastModified": "2026-07-28T10:00:00Z",
    }
    assert (note.kind, note.text) == ("text", "shown to the person only")
    assert note.annotations is not None and note.annotations.audience == ["user"]
    sound, document = r["c9"].parts
    assert (r["c9"].output, sound.kind, sound.mime_type, sound.raw()) == ("", "audio", "audio/wav", WAV)
    assert (document.kind, document.mime_type, document.name, document.raw()) == (
        "file",
        "application/pdf",
        "r 1.pdf",
        PDF,
    )


def _relay_kw(era: tuple[str, str]) -> tuple[dict[str, Any], ElicitationRelay | None]:
    """Legacy: the session needs the relay as its elicitation callback; modern: nothing."""
    if era[0] == "legacy":
        relay = ElicitationRelay()
        return {"elicitation_callback": relay}, relay
    return {}, None


async def test_consumed_suspension_with_wait_for(where: Any, era: tuple[str, str]) -> None:
    kw, relay = _relay_kw(era)
    asked = []

    def wait_for(request: Any) -> Answer:
        asked.append(request)
        approves = request.prompt.startswith("Allow ")  # the server's approval takes no `reason`
        return Answer(request.id, True, None if approves else {"reason": "consumed"})

    async with connect(where, era, **kw) as client:
        toolkit = Toolkit(await mcp_tools_from(client.session, elicitations=relay))
        run = await toolkit.run_calls(
            [ToolCall("a", "approve", {"n": 4}), ToolCall("b", "add", {"a": 1, "b": 1})], wait_for=wait_for
        )
        # The server's own approval of a `needs_approval` tool is a question like any other.
        wiped = await toolkit.run_calls([ToolCall("w", "wipe", {"disk": "d2"})], wait_for=wait_for)
        # Answered with a field its form does not declare, it is refused, naming the field.
        misspelled = await toolkit.run_calls(
            [ToolCall("w", "wipe", {"disk": "d3"})], wait_for=lambda r: Answer(r.id, True, {"args": "{}"})
        )
    assert "with data holding 'args': an approval's data holds only 'arguments'" in (
        misspelled.results[0].result.output
    )
    assert run.status == "done"
    request, approval = asked
    assert (request.kind, request.prompt) == ("input", "Delete 4 files?")
    assert run.results[0].result.output.startswith("deleted 4 files: consumed")
    assert run.results[1].result.output == "2"
    assert approval.prompt == 'Allow wipe to run with these arguments?\n{\n  "disk": "d2"\n}'
    assert wiped.results[0].result.output == "wiped d2"


async def test_consumed_suspension_resumed(where: Any, era: tuple[str, str]) -> None:
    """Without `wait_for` the run stops on the server's question; `resume` carries the answer
    back (as `inputResponses`, or as the elicitation's result); a refusal is the loop's."""
    kw, relay = _relay_kw(era)
    async with connect(where, era, **kw) as client:
        toolkit = Toolkit(await mcp_tools_from(client.session, elicitations=relay))
        run = await toolkit.run_calls([ToolCall("a", "approve", {"n": 5}), ToolCall("b", "login", {})])
        assert run.status == "pending" and run.pending is not None
        assert run.pending.prompt == "Delete 5 files?"
        # The run is plain data: it survives its wire form.
        run = type(run).from_json(run.to_json())
        run = await toolkit.resume(run, Answer(run.pending.id, True, {"reason": "resumed"}))
        assert run.status == "pending" and run.pending is not None
        login = run.pending
        assert (login.kind, login.url, login.prompt) == (
            "authorization",
            "https://example.com/login",
            "Sign in to continue",
        )
        run = await toolkit.resume(run, Answer(login.id, False, reason="declined"))
    assert run.status == "done"
    r = {item.id: item.result for item in run.results}
    assert r["a"].output.startswith("deleted 5 files: resumed")
    assert (r["b"].is_error, r["b"].output) == (True, "declined/expired: Sign in to continue")


async def test_consumed_suspension_resumed_in_another_connection(http_url: str) -> None:
    """At 2026-07-28 the server's question and its `requestState` travel in the stored run, so a
    toolkit on a new connection (as in another process) resumes it: the answer goes out as
    `inputResponses` with the request the toolkit hands the tool (`ctx.request`). (Over HTTP:
    the same server, whose `requestState` key a new stdio server process would not share.)"""
    where = http_url
    async with connect(where, ERAS["modern"]) as client:
        first = Toolkit(await mcp_tools_from(client.session))
        stored = (await first.run_calls([ToolCall("a", "approve", {"n": 3})])).to_json()
    run = RunResult.from_json(stored)
    assert run.status == "pending" and run.pending is not None
    async with connect(where, ERAS["modern"]) as client:
        second = Toolkit(await mcp_tools_from(client.session))
        done = await second.resume(run, Answer(run.pending.id, True, {"reason": "elsewhere"}))
    assert done.status == "done"
    assert done.results[0].result.output.startswith("deleted 3 files: elsewhere")


async def test_consumed_answer_from_nowhere() -> None:
    """An answer this process never asked for is an error result, not a hang."""
    server = mcp_server(Toolkit([]))
    async with Client(server, mode="legacy") as client:
        tools = await mcp_tools_from(client.session)
    assert tools == []
    from tests.mcp.toolkit_server import toolkit

    async with Client(mcp_server(toolkit())) as client:
        [approve] = [t for t in await mcp_tools_from(client.session) if t.name == "approve"]
        from toolnexus import ToolContext

        result = await approve.call({"n": 1}, ToolContext(answer=Answer("pnd-unknown", True, {})))
    assert result.is_error and "pnd-unknown" in result.output


class Reading(BaseModel):
    city: str
    celsius: float


class Confirm(BaseModel):
    ok: bool


SCHEMA: Any = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


def weather() -> MCPServer:
    """An MCP server that is not toolnexus: the SDK's `MCPServer`, with structured output and
    questions of its own (`input_required` at 2026-07-28, an elicitation before)."""
    app = MCPServer("weather")

    @app.tool()
    def temperature(city: str) -> Reading:
        """The temperature in a city."""
        return Reading(city=city, celsius=21.5)

    @app.tool()
    async def book(city: str, ctx: Context) -> str | types.InputRequiredResult:
        """Book a trip, after a confirmation."""
        if ctx.protocol_version != MODERN:
            answer = await ctx.elicit(f"Book {city}?", Confirm)
            return f"booked {city}" if answer.action == "accept" and answer.data.ok else "not booked"
        if not ctx.input_responses:
            form = types.ElicitRequestFormParams(message=f"Book {city}?", requested_schema=SCHEMA)
            return types.InputRequiredResult(
                input_requests={"confirm": types.ElicitRequest(params=form)}, request_state="booking"
            )
        reply = ctx.input_responses["confirm"]
        ok = ctx.request_state == "booking" and isinstance(reply, types.ElicitResult) and reply.content
        return f"booked {city}" if ok and reply.content and reply.content["ok"] else "not booked"

    return app


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_consume_the_sdks_own_server(mode: str) -> None:
    """Any MCP server, in process, at 2026-07-28 (`auto`) and at the handshake (`legacy`)."""
    relay = ElicitationRelay()
    asked = []

    def wait_for(request: Any) -> Answer:
        asked.append(request.prompt)
        return Answer(request.id, True, {"ok": True})

    async with Client(weather(), mode=mode, elicitation_callback=relay) as client:
        tools = {t.name: t for t in await mcp_tools_from(client.session, elicitations=relay)}
        assert tools["temperature"].description == "The temperature in a city."
        toolkit = Toolkit(tools.values())
        run = await toolkit.run_calls(
            [ToolCall("t", "temperature", {"city": "Oslo"}), ToolCall("b", "book", {"city": "Rome"})],
            wait_for=wait_for,
        )
    r = {item.id: item.result for item in run.results}
    assert json.loads(r["t"].output) == {"city": "Oslo", "celsius": 21.5}
    assert r["b"].output == "booked Rome"
    # At the handshake an elicitation names no call: it may be matched to `temperature` first,
    # and asked again for `book` once `temperature` turns out to have finished.
    assert asked == ["Book Rome?"] if mode == "auto" else set(asked) == {"Book Rome?"}
    assert pending_of(r["b"]) is None


async def test_an_unanswered_elicitation_is_cancelled_after_wait(where: Any) -> None:
    """Handshake era: the parked call is released after `wait` seconds (the server's tool
    sees a cancelled elicitation), and a late answer is an error result, not a hang."""
    relay = ElicitationRelay(wait=0.2)
    async with connect(where, ERAS["legacy"], elicitation_callback=relay) as client:
        toolkit = Toolkit(await mcp_tools_from(client.session, elicitations=relay))
        run = await toolkit.run_calls([ToolCall("a", "approve", {"n": 6})])
        assert run.status == "pending" and run.pending is not None
        assert relay._parked  # the MCP call is open, waiting on the elicitation
        for _ in range(200):  # until the relay lets go (a wait for a state, not a timed assertion)
            if not relay._parked and relay._speaker is None:
                break
            await asyncio.sleep(0.05)
        assert not relay._parked and relay._speaker is None
        late = await toolkit.resume(run, Answer(run.pending.id, True, {"reason": "late"}))
        after = await toolkit.run_calls([ToolCall("b", "add", {"a": 1, "b": 2})])
    [item] = late.results
    assert item.result.is_error and "is no longer open" in item.result.output
    assert after.results[0].result.output == "3"


async def test_the_served_toolkits_own_progress_hook_hears_too() -> None:
    """In process: the MCP client's progress and the toolkit's `on_progress` both hear a call."""
    from tests.mcp.toolkit_server import toolkit

    heard: list[tuple[str, float, str]] = []
    served = toolkit()
    served = Toolkit(served.tools(), on_progress=lambda *report: heard.append(report))
    seen: list[float] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append(progress)

    async with Client(mcp_server(served)) as client:
        result = await client.call_tool("steps", {}, progress_callback=on_progress)
    assert _text(result) == "4 steps"
    assert seen == [0.25, 0.5, 0.75, 1.0]
    assert [(f, m) for _, f, m in heard] == [(i / 4, f"step {i}") for i in range(1, 5)]
    assert len({call_id for call_id, _, _ in heard}) == 1 and heard[0][0].startswith("mcp-")


async def test_an_approval_with_edited_arguments_runs_with_them(where: Any, era: tuple[str, str]) -> None:
    """As `Toolkit.resume` does: the answer's `arguments` replace the call's, checked by the tool.
    (MCP form content holds only strings, numbers and booleans: the arguments go as JSON text.)"""
    edited = Elicitations(types.ElicitResult(action="accept", content={"arguments": '{"disk":"d9"}'}))
    async with connect(where, era, elicitation_callback=edited) as client:
        result = await client.call_tool("wipe", {"disk": "d1"})
    assert (result.is_error, _text(result)) == (False, "wiped d9")
    wrong = Elicitations(types.ElicitResult(action="accept", content={"arguments": "[1, 2]"}))
    async with connect(where, era, elicitation_callback=wrong) as client:
        refused = await client.call_tool("wipe", {"disk": "d1"})
    assert (refused.is_error, _text(refused)) == (
        True,
        "invalid arguments for wipe: $: the approval's edited arguments are a list, not an object",
    )


async def test_the_server_reports_the_package_version() -> None:
    import toolnexus

    async with Client(mcp_server(Toolkit([]))) as client:
        info = client.session.server_info
        assert info is not None and info.version == toolnexus.__version__ and info.version
