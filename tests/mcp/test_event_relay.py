"""A running call's events and cancellation, relayed by the hosts: MCP progress notifications
(with their message) both ways, Temporal heartbeat details, and each cancellation path reaching
the handler as `asyncio.CancelledError`."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from mcp import Client

from toolnexus import ToolCall, ToolContext, ToolEvent, Toolkit, ToolResult, define_tool
from toolnexus.mcp import mcp_server, mcp_tools_from


async def steps(args: dict[str, Any], ctx: ToolContext) -> str:
    for i in range(1, 5):
        ctx.progress(i / 4, f"step {i}")
        await asyncio.sleep(0.01)
    return "4 steps"


class Seen:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.started = asyncio.Event()


def hanging(seen: Seen) -> Any:
    async def hang(args: dict[str, Any], ctx: ToolContext) -> str:
        seen.lines.append("started")
        seen.started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            seen.lines.append(f"cancelled {ctx.idempotency_key}")
            raise
        return "never"

    return hang


async def test_served_progress_reaches_the_client_with_its_messages() -> None:
    heard: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        heard.append((progress, total, message))

    server = mcp_server(Toolkit([define_tool("steps", "Reports progress", None, steps)]))
    async with Client(server) as client:
        result = await client.call_tool("steps", {}, progress_callback=on_progress)
    assert result.content[0].text == "4 steps"  # type: ignore[union-attr]
    assert heard == [(0.25, 1.0, "step 1"), (0.5, 1.0, "step 2"), (0.75, 1.0, "step 3"), (1.0, 1.0, "step 4")]


async def test_consumed_progress_comes_back_as_tool_events() -> None:
    server = mcp_server(Toolkit([define_tool("steps", "Reports progress", None, steps)]))
    events: list[ToolEvent] = []
    async with Client(server) as client:
        local = Toolkit(await mcp_tools_from(client.session), on_event=events.append)
        run = await local.run_calls([ToolCall("c1", "steps", {})])
    assert run.results[0].result.output == "4 steps"
    assert [e.to_wire() for e in events] == [
        {"callId": "c1", "percent": 25, "message": "step 1"},
        {"callId": "c1", "percent": 50, "message": "step 2"},
        {"callId": "c1", "percent": 75, "message": "step 3"},
        {"callId": "c1", "percent": 100, "message": "step 4"},
    ]


async def test_mcp_cancellation_reaches_the_served_handler() -> None:
    """The SDK's client abandoning a call sends `notifications/cancelled`; the served handler
    gets `asyncio.CancelledError`, under the call's idempotency key."""
    seen = Seen()
    server = mcp_server(Toolkit([define_tool("hang", "Runs until cancelled", None, hanging(seen))]))
    async with Client(server) as client:
        call = asyncio.ensure_future(client.call_tool("hang", {}))
        await asyncio.wait_for(seen.started.wait(), 30)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        for _ in range(500):
            if len(seen.lines) == 2:
                break
            await asyncio.sleep(0.01)
    assert seen.lines[0] == "started" and seen.lines[1].startswith("cancelled idk-")


# --- Temporal: the tool activity's heartbeats and cancellation ------------------------------------

temporalio = pytest.importorskip("temporalio")


def _payload(call: ToolCall) -> str:
    job = {
        "call": call.to_wire(),
        "answer": None,
        "request": None,
        "gate": False,
        "key": "idk-1",
        "timeout": None,
    }
    return json.dumps(job)


async def test_temporal_heartbeat_details_are_tool_events() -> None:
    from temporalio.testing import ActivityEnvironment

    from toolnexus.temporal import ToolPolicy
    from toolnexus.temporal._activities import ToolActivities

    async def slow(args: dict[str, Any], ctx: ToolContext) -> str:
        ctx.progress(0.5, "half way")
        await asyncio.sleep(1.3)  # past the activity's 1 s heartbeat (no heartbeat timeout set)
        return "slow done"

    async def growing(args: dict[str, Any], ctx: ToolContext) -> AsyncIterator[str]:
        yield "first rows"
        await asyncio.sleep(1.3)
        yield "all rows"

    toolkit = Toolkit([define_tool("slow", "", None, slow), define_tool("growing", "", None, growing)])
    acts = ToolActivities(toolkit, {}, ToolPolicy())
    beats: list[Any] = []
    env = ActivityEnvironment()
    env.on_heartbeat = lambda *details: beats.append(details)
    out = await env.run(acts.run_tool, _payload(ToolCall("c1", "slow", {})))
    assert ToolResult.from_json(out).output == "slow done"
    assert beats and beats[0] == ({"callId": "c1", "percent": 50, "message": "half way"},)
    assert ToolEvent.from_wire(beats[0][0]).message == "half way"
    beats.clear()
    out = await env.run(acts.run_tool, _payload(ToolCall("c2", "growing", {})))
    assert ToolResult.from_json(out).output == "all rows"
    assert beats[0] == ({"callId": "c2", "partial": {"output": "first rows", "isError": False}},)


async def test_temporal_activity_cancellation_reaches_the_handler() -> None:
    from temporalio.testing import ActivityEnvironment

    from toolnexus.temporal import ToolPolicy
    from toolnexus.temporal._activities import ToolActivities

    seen = Seen()
    acts = ToolActivities(Toolkit([define_tool("hang", "", None, hanging(seen))]), {}, ToolPolicy())
    env = ActivityEnvironment()
    running = asyncio.ensure_future(env.run(acts.run_tool, _payload(ToolCall("c3", "hang", {}))))
    await asyncio.wait_for(seen.started.wait(), 30)
    env.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert seen.lines == ["started", "cancelled idk-1"]  # the key the workflow gave the run
