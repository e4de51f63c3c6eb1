"""Partial results and progress while a call runs (`ToolEvent`): an async generator handler's
values as it yields them (the last is the result too), `ctx.partial`, and `ctx.progress`,
reaching `Toolkit(on_event=...)`."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from toolnexus import ToolCall, ToolContext, ToolEvent, Toolkit, ToolResult, define_tool, tool


@tool
async def count_rows(table: str, ctx: ToolContext) -> Any:
    """Counts rows, reporting as it goes."""
    for n in (3, 5):
        ctx.progress(n / 7, f"{n} of 7")
        yield f"{n} rows so far"
    yield f"7 rows in {table}"


async def test_an_async_generator_handler_reports_each_value_as_it_yields_it() -> None:
    seen: list[ToolResult] = []
    result = await count_rows.call({"table": "orders"}, ToolContext(on_partial=seen.append))
    assert result == ToolResult.ok("7 rows in orders")
    assert seen == [ToolResult.ok("3 rows so far"), ToolResult.ok("5 rows so far"), result]


async def test_the_toolkit_relays_progress_and_partials_as_events_in_order() -> None:
    events: list[ToolEvent] = []
    kit = Toolkit([count_rows], on_event=events.append)
    run = await kit.run_calls([ToolCall("c1", "count_rows", {"table": "orders"})])
    assert run.results[0].result.output == "7 rows in orders"
    assert [e.to_wire() for e in events] == [
        {"callId": "c1", "percent": 43, "message": "3 of 7"},
        {"callId": "c1", "partial": {"output": "3 rows so far", "isError": False}},
        {"callId": "c1", "percent": 71, "message": "5 of 7"},
        {"callId": "c1", "partial": {"output": "5 rows so far", "isError": False}},
        {"callId": "c1", "partial": {"output": "7 rows in orders", "isError": False}},
    ]
    assert all(ToolEvent.from_json(e.to_json()) == e for e in events), "each is a wire value"


async def test_a_handler_may_report_a_partial_itself_and_a_generator_that_yields_nothing_returns_empty() -> (
    None
):
    async def reporting(args: dict[str, Any], ctx: ToolContext) -> str:
        ctx.partial("half")
        ctx.partial(ToolResult.ok("most").with_metadata({"host": 1}))
        return "all"

    async def silent(args: dict[str, Any], ctx: ToolContext) -> Any:
        if False:
            yield "never"

    seen: list[ToolResult] = []
    ctx = ToolContext(on_partial=seen.append)
    assert await define_tool("r", "", None, reporting).call({}, ctx) == ToolResult.ok("all")
    assert [p.output for p in seen] == ["half", "most"]
    assert await define_tool("s", "", None, silent).call({}) == ToolResult.ok("")


async def test_a_generator_that_fails_is_an_error_result_after_its_partials() -> None:
    @tool
    async def flaky() -> Any:
        """Fails after one partial."""
        yield "one"
        raise RuntimeError("lost the connection")

    seen: list[ToolResult] = []
    result = await flaky.call({}, ToolContext(on_partial=seen.append))
    assert result == ToolResult.error("lost the connection") and [p.output for p in seen] == ["one"]


async def _busy(args: dict[str, Any], ctx: ToolContext) -> Any:
    """Yields values it already holds, awaiting nothing, for 3 s of the wall clock at most."""
    end = time.monotonic() + 3.0
    while time.monotonic() < end:
        yield "x"


async def test_a_generator_that_never_awaits_still_times_out() -> None:
    started = time.monotonic()
    result = await define_tool("busy", "B", None, _busy).call({}, ToolContext(timeout=0.2))
    assert result.is_error and "timed out" in result.output, result.output
    assert time.monotonic() - started < 2.0, "the timeout took effect, not the generator's end"


async def test_a_generator_that_never_awaits_can_be_cancelled() -> None:
    kit = Toolkit([define_tool("busy", "B", None, _busy)])
    asyncio.get_running_loop().call_later(0.2, kit.cancel, "c1")
    started = time.monotonic()
    run = await kit.run_calls([ToolCall("c1", "busy", {})])
    assert "cancelled" in run.results[0].result.output, run.results[0].result.output
    assert time.monotonic() - started < 2.0
