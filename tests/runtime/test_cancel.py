"""`Toolkit.cancel`: a running handler gets the language's cancellation, the call settles as
declined with reason `cancelled`, and a handler that ignores it is abandoned after the grace."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from toolnexus import ToolCall, ToolContext, Toolkit, define_tool


class Slow:
    """A handler that runs until cancelled, noting what it saw."""

    def __init__(self, ignore: bool = False) -> None:
        self.ignore = ignore
        self.keys: list[str] = []
        self.cancelled = asyncio.Event()
        self.started = asyncio.Event()

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> str:
        self.keys.append(ctx.idempotency_key)
        self.started.set()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            self.cancelled.set()
            if not self.ignore:
                raise
            await asyncio.sleep(30)  # a handler that will not stop
        return "finished"


async def _cancel_when_started(kit: Toolkit, slow: Slow, call_id: str) -> bool:
    await slow.started.wait()
    return kit.cancel(call_id)


async def test_a_cancelled_call_settles_as_declined_and_the_others_finish() -> None:
    slow = Slow()
    kit = Toolkit([define_tool("slow", "", None, slow), define_tool("quick", "", None, lambda a, c: "quick")])
    calls = [ToolCall("c1", "slow", {}), ToolCall("c2", "quick", {})]
    run, found = await asyncio.gather(
        kit.run_calls(calls, turn_id="t1"), _cancel_when_started(kit, slow, "c1")
    )
    assert found and slow.cancelled.is_set(), "the handler got CancelledError"
    slow_result, quick_result = [r.result for r in run.results]
    assert slow_result.output == "declined: the call to slow was cancelled" and slow_result.is_error
    assert slow_result.metadata == {"declined": {"call": "c1", "reason": "cancelled"}}
    assert quick_result.output == "quick"
    assert not kit.cancel("c1"), "nothing runs any more"


async def test_a_handler_that_ignores_its_cancellation_is_abandoned_after_the_grace() -> None:
    slow = Slow(ignore=True)
    kit = Toolkit([define_tool("slow", "", None, slow)], cancel_grace=0.2)
    started = time.monotonic()
    run, _ = await asyncio.gather(
        kit.run_calls([ToolCall("c1", "slow", {})]), _cancel_when_started(kit, slow, "c1")
    )
    assert time.monotonic() - started < 5, "abandoned after the grace, not waited for"
    assert run.results[0].result.metadata == {"declined": {"call": "c1", "reason": "cancelled"}}


async def test_a_sync_handler_is_abandoned_in_its_thread() -> None:
    release = threading.Event()
    started = threading.Event()

    def blocking(args: dict[str, Any], ctx: ToolContext) -> str:
        started.set()
        release.wait(10)
        return "late"

    kit = Toolkit([define_tool("blocking", "", None, blocking)], cancel_grace=0.1)

    async def cancel() -> bool:
        await asyncio.to_thread(started.wait, 10)
        return kit.cancel("c1", turn_id="t9")

    run, found = await asyncio.gather(kit.run_calls([ToolCall("c1", "blocking", {})], turn_id="t9"), cancel())
    release.set()
    assert found and run.results[0].result.output == "declined: the call to blocking was cancelled"


async def test_cancel_names_the_turn_and_a_call_that_runs_nowhere_is_not_found() -> None:
    slow = Slow()
    kit = Toolkit([define_tool("slow", "", None, slow)])
    task = asyncio.ensure_future(kit.run_calls([ToolCall("c1", "slow", {})], turn_id="t1"))
    await slow.started.wait()
    assert not kit.cancel("c1", turn_id="t2") and not kit.cancel("c9")
    assert kit.cancel("c1", turn_id="t1")
    run = await task
    assert run.results[0].result.metadata == {"declined": {"call": "c1", "reason": "cancelled"}}
    assert len(slow.keys) == 1 and slow.keys[0].startswith("idk-")
