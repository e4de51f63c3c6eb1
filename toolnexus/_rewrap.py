"""Copies of a toolkit whose tools are wrapped: sharing its keys, policies, decision log,
answers taken and runs under way, so that resuming through the copy is resuming through it.
For a store's calls in doubt (`toolnexus/store/_doubt.py`): marking a call started just before
its tool runs, and continuing a run with a result a person supplies instead of running the tool."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ._tool import Tool, ToolContext
from ._toolkit import Toolkit, rewrapped

__all__ = ["before_tools", "with_results"]


def with_results(toolkit: Toolkit, results: Mapping[str, Any]) -> Toolkit:
    """A copy of `toolkit` in which each call whose id is a key of `results` returns that result
    instead of running its tool: a host that knows what a call did (a call in doubt, settled by
    a person) continues the run without it."""

    async def supplied(tool: Tool, args: Any, ctx: ToolContext) -> Any:
        return results[ctx.call_id] if ctx.call_id in results else await tool.call(args, ctx)

    return rewrapped(toolkit, supplied)


def before_tools(toolkit: Toolkit, hook: Callable[[str], Awaitable[None]]) -> Toolkit:
    """A copy of `toolkit` whose tools await `hook(call_id)` just before they run (a store marks
    the call started there: see `toolnexus/store/_doubt.py`)."""

    async def hooked(tool: Tool, args: Any, ctx: ToolContext) -> Any:
        await hook(ctx.call_id)
        return await tool.call(args, ctx)

    return rewrapped(toolkit, hooked)
