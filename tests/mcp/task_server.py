"""The toolkit the live MCP task tests serve, its tasks in a store:
`python task_server.py STORE [stdio | http PORT]`; or as Temporal turns, over stdio, the tools
run by a worker elsewhere (the test's): `python task_server.py temporal ADDRESS QUEUE`.

`TOOLNEXUS_TASK_LOG`, when set, is a file each handler appends what it saw to (one line each),
so a test in another process can tell what a cancellation did to it."""

from __future__ import annotations

import asyncio
import os
import sys

from toolnexus import Request, ToolHints, Toolkit, define_tool, pending
from toolnexus.mcp import serve
from toolnexus.store import SqliteRunStore

LONG = ToolHints(read_only=False, destructive=False, open_world=False, long_running=True)
COUNT = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


def _log(line: str) -> None:
    path = os.environ.get("TOOLNEXUS_TASK_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")


async def approve(args, ctx):
    if ctx.answer is None:
        return pending(Request("approval", f"Delete {args['n']} files?"))
    _log(f"approve ran with {ctx.answer.ok} under {ctx.idempotency_key}")
    return f"deleted {args['n']} files ({ctx.idempotency_key})"


async def slow(args, ctx):
    for i in range(1, 4):
        ctx.progress(i / 3, f"step {i} of 3")
        await asyncio.sleep(0.2)
    return "slow done"


async def hang(args, ctx):
    _log("hang started")
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        _log("hang cancelled")
        raise
    return "never"


async def steps(args, ctx):
    for i in range(1, 5):
        ctx.progress(i / 4, f"step {i}")
        await asyncio.sleep(0.01)
    return "4 steps"


def toolkit() -> Toolkit:
    return Toolkit(
        [
            define_tool("approve", "Deletes files after an approval", COUNT, approve, hints=LONG),
            define_tool("slow", "Takes a while", None, slow, hints=LONG),
            define_tool("hang", "Runs until cancelled", None, hang, hints=LONG),
            define_tool("steps", "Reports progress, quickly", None, steps),
        ],
        cancel_grace=2.0,
    )


async def serve_temporal(address: str, queue: str) -> None:
    from temporalio.client import Client

    from toolnexus.mcp import serve_async
    from toolnexus.temporal import TurnClient

    turns = TurnClient(await Client.connect(address), task_queue=queue)
    await serve_async(toolkit(), temporal=turns, poll_interval=0.05)


if __name__ == "__main__":
    if sys.argv[1] == "temporal":
        asyncio.run(serve_temporal(sys.argv[2], sys.argv[3]))
        sys.exit(0)
    store = SqliteRunStore(sys.argv[1], lease=3.0)
    if sys.argv[2:3] == ["http"]:
        serve(toolkit(), "http", host="127.0.0.1", port=int(sys.argv[3]), store=store, poll_interval=0.05)
    else:
        serve(toolkit(), store=store, poll_interval=0.05)
