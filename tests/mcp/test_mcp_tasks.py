"""MCP's Tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28), served and consumed.

In process, with the MCP SDK's own `Client` (declaring the extension through
`toolnexus.mcp.TaskSupport`) against `mcp_server(toolkit, store=...)`; then live, over stdio
and streamable HTTP, against `tests/mcp/task_server.py` in a subprocess: a task created,
polled, answered through `input_required` and completed; a task cancelled; a task surviving
a server restart; a consumed task resumed in another process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from tests.conftest import REPO, free_port
from tests.postgres import tamper
from toolnexus import (
    Answer,
    Request,
    RunResult,
    ToolCall,
    ToolContext,
    ToolHints,
    Toolkit,
    define_tool,
    pending,
)
from toolnexus._engine import APPROVAL_PREFIX
from toolnexus._seal import idempotency_key, turn_digest
from toolnexus.mcp import TASKS_EXTENSION, TaskSupport, mcp_server, mcp_tools_from
from toolnexus.mcp._tasks import (
    CancelTaskRequest,
    CreatedTask,
    GetTaskRequest,
    TaskParams,
    TaskState,
    UpdateTaskParams,
    UpdateTaskRequest,
)
from toolnexus.store import RunStore

LONG = ToolHints(read_only=False, destructive=False, open_world=False, long_running=True)
SERVER = REPO / "tests" / "mcp" / "task_server.py"
REASON = {"type": "object", "properties": {"reason": {"type": "string"}}, "required": ["reason"]}


# --- the toolkit served in process -------------------------------------------------------------


class Seen:
    """What the handlers saw, for the test to read."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.release = asyncio.Event()


def kit(seen: Seen, **kw: Any) -> Toolkit:
    async def approve(args: dict[str, Any], ctx: ToolContext) -> str | Any:
        if ctx.answer is None:
            return pending(Request("approval", f"Delete {args['n']} files?", data={"schema": REASON}))
        seen.lines.append(f"approve {ctx.answer.data} {ctx.idempotency_key}")
        return f"deleted {args['n']} files: {ctx.answer.data['reason']}"

    async def slow(args: dict[str, Any], ctx: ToolContext) -> str:
        ctx.progress(0.5, "half way")
        await seen.release.wait()
        return "slow done"

    async def hang(args: dict[str, Any], ctx: ToolContext) -> str:
        seen.lines.append("hang started")
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            seen.lines.append(f"hang cancelled {ctx.idempotency_key}")
            raise
        return "never"

    async def wipe(args: dict[str, Any], ctx: ToolContext) -> str:
        seen.lines.append(f"wipe {args}")
        return f"wiped {args.get('disk')}"

    async def quick(args: dict[str, Any], ctx: ToolContext) -> str:
        return "quick"

    async def soon(args: dict[str, Any], ctx: ToolContext) -> Any:
        if ctx.answer is None:
            when = (time.time() + 0.4) * 1000
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(when / 1000)) + f".{int(when % 1000):03d}Z"
            return pending(Request("input", "Quickly: which?", expires_at=stamp))
        return "answered"

    return Toolkit(
        [
            define_tool("approve", "Deletes after an approval", None, approve, hints=LONG),
            define_tool("slow", "Takes a while", None, slow, hints=LONG),
            define_tool("hang", "Runs until cancelled", None, hang, hints=LONG),
            define_tool("wipe", "Wipes, once approved", None, wipe, hints=LONG, needs_approval=True),
            define_tool("quick", "Not long-running", None, quick),
            define_tool("soon", "Asks, with a short expiry", None, soon, hints=LONG),
        ],
        cancel_grace=1.0,
        **kw,
    )


@pytest.fixture
def store(new_store: Any) -> Iterator[RunStore]:
    """A store of each database (SQLite, PostgreSQL): the in-process tests run on both."""
    s = new_store(lease=3.0)
    yield s
    s.close()


async def get(client: Client, task_id: str) -> TaskState:
    return await client.session.send_request(GetTaskRequest(params=TaskParams(task_id=task_id)), TaskState)


async def until(client: Client, task_id: str, *statuses: str, timeout: float = 20.0) -> TaskState:
    """Poll until the task is in one of `statuses` (a readiness wait, not an assertion on time)."""
    deadline = time.monotonic() + timeout
    while True:
        task = await get(client, task_id)
        if task.status in statuses:
            return task
        assert time.monotonic() < deadline, f"task {task_id} still {task.status}, waiting for {statuses}"
        await asyncio.sleep(0.02)


async def update(client: Client, task_id: str, responses: dict[str, Any]) -> None:
    params = UpdateTaskParams(task_id=task_id, input_responses=responses)
    await client.session.send_request(UpdateTaskRequest(params=params), types.EmptyResult)


async def cancel(client: Client, task_id: str) -> None:
    await client.session.send_request(
        CancelTaskRequest(params=TaskParams(task_id=task_id)), types.EmptyResult
    )


async def create(client: Client, name: str, args: dict[str, Any] | None = None) -> CreatedTask:
    created = await client.session.call_tool(name, args or {}, allow_claimed=True)
    assert isinstance(created, CreatedTask), created
    return created


def text(result: dict[str, Any]) -> str:
    return "\n".join(block["text"] for block in result["content"] if block["type"] == "text")


# --- served: the SDK's client against mcp_server(toolkit, store=...) --------------------------------


async def test_the_server_declares_the_extension(store: RunStore) -> None:
    async with Client(mcp_server(kit(Seen()), store=store), extensions=[TaskSupport()]) as client:
        caps = client.session.server_capabilities
        assert caps is not None and caps.extensions is not None and TASKS_EXTENSION in caps.extensions
    async with Client(mcp_server(kit(Seen()))) as client:  # no store: no tasks
        caps = client.session.server_capabilities
        assert caps is None or not caps.extensions or TASKS_EXTENSION not in caps.extensions


async def test_a_task_is_created_polled_and_completed(store: RunStore) -> None:
    seen = Seen()
    server = mcp_server(kit(seen), store=store, poll_interval=0.25, task_ttl=120)
    async with Client(server, extensions=[TaskSupport()]) as client:
        created = await create(client, "slow")
        assert created.status == "working" and created.result_type == "task"
        assert created.poll_interval_ms == 250 and created.ttl_ms == 120_000
        # durable before it is returned: the store has it, committed
        assert store.tasks.get(created.task_id) is not None
        working = await until(client, created.task_id, "working")
        deadline = time.monotonic() + 10
        while working.status_message != "half way":  # the call's progress message, once stored
            assert time.monotonic() < deadline
            await asyncio.sleep(0.02)
            working = await get(client, created.task_id)
        assert working.result is None and working.input_requests is None
        seen.release.set()
        done = await until(client, created.task_id, "completed")
    assert done.result is not None and text(done.result) == "slow done"
    assert done.result.get("isError") is None
    assert done.created_at == created.created_at and done.last_updated_at is not None
    assert done.last_updated_at >= created.created_at


async def test_input_required_is_answered_with_tasks_update(store: RunStore) -> None:
    seen = Seen()
    async with Client(mcp_server(kit(seen), store=store), extensions=[TaskSupport()]) as client:
        created = await create(client, "approve", {"n": 3})
        asking = await until(client, created.task_id, "input_required")
        assert asking.input_requests is not None and len(asking.input_requests) == 1
        [(key, asked)] = asking.input_requests.items()
        assert key.startswith("pnd-") and asked["method"] == "elicitation/create"
        assert asked["params"]["message"] == "Delete 3 files?"
        assert asked["params"]["requestedSchema"] == REASON
        assert asking.status_message == "Delete 3 files?"
        # a response to a key that is not outstanding is ignored: the task still waits
        await update(client, created.task_id, {"pnd-other": {"action": "accept", "content": {}}})
        assert (await get(client, created.task_id)).status == "input_required"
        await update(client, created.task_id, {key: {"action": "accept", "content": {"reason": "old"}}})
        done = await until(client, created.task_id, "completed")
        # answered once: a second update to the same key changes nothing
        await update(client, created.task_id, {key: {"action": "accept", "content": {"reason": "again"}}})
        again = await get(client, created.task_id)
    assert done.result is not None and text(done.result) == "deleted 3 files: old"
    assert again.status == "completed" and again.result == done.result
    # the idempotency key is the turn's, and the turn is named after the task
    call = store.tasks.get(created.task_id).call  # type: ignore[union-attr]
    key = idempotency_key(turn_digest([call.id], f"task-{created.task_id}"), call.id)
    assert seen.lines == [f"approve {{'reason': 'old'}} {key}"]


async def test_a_refusal_through_tasks_update_is_the_loops(store: RunStore) -> None:
    seen = Seen()
    async with Client(mcp_server(kit(seen), store=store), extensions=[TaskSupport()]) as client:
        created = await create(client, "approve", {"n": 2})
        asking = await until(client, created.task_id, "input_required")
        [key] = asking.input_requests or {}
        await update(client, created.task_id, {key: {"action": "decline"}})
        done = await until(client, created.task_id, "completed", "cancelled")
    assert done.status == "completed"  # a refusal is a result (isError), not a failed task
    assert done.result is not None and done.result["isError"] is True
    assert text(done.result) == "declined/expired: Delete 2 files?"
    assert seen.lines == []


async def test_an_approval_with_edited_arguments_runs_with_them(store: RunStore) -> None:
    seen = Seen()
    async with Client(mcp_server(kit(seen), store=store), extensions=[TaskSupport()]) as client:
        created = await create(client, "wipe", {"disk": "C:"})
        asking = await until(client, created.task_id, "input_required")
        [(key, asked)] = (asking.input_requests or {}).items()
        assert key.startswith(APPROVAL_PREFIX) and "Allow wipe to run" in asked["params"]["message"]
        edited = {"action": "accept", "content": {"arguments": json.dumps({"disk": "D:"})}}
        await update(client, created.task_id, {key: edited})
        done = await until(client, created.task_id, "completed")
    assert done.result is not None and text(done.result) == "wiped D:"
    assert seen.lines == ["wipe {'disk': 'D:'}"]


async def test_tasks_cancel_reaches_the_running_handler(store: RunStore) -> None:
    seen = Seen()
    async with Client(mcp_server(kit(seen), store=store), extensions=[TaskSupport()]) as client:
        created = await create(client, "hang")
        await until(client, created.task_id, "working")
        while "hang started" not in seen.lines:
            await asyncio.sleep(0.01)
        await cancel(client, created.task_id)
        done = await until(client, created.task_id, "cancelled")
    call = store.tasks.get(created.task_id).call  # type: ignore[union-attr]
    key = idempotency_key(turn_digest([call.id], f"task-{created.task_id}"), call.id)
    assert seen.lines[-1] == f"hang cancelled {key}"  # the key is kept when a call is cancelled
    assert done.result is not None and done.result["isError"] is True
    assert text(done.result) == "declined: the call to hang was cancelled"
    assert done.status_message == "the call was cancelled"


async def test_tasks_cancel_of_a_task_waiting_on_a_person(store: RunStore) -> None:
    seen = Seen()
    async with Client(mcp_server(kit(seen), store=store), extensions=[TaskSupport()]) as client:
        created = await create(client, "approve", {"n": 1})
        await until(client, created.task_id, "input_required")
        await cancel(client, created.task_id)
        done = await until(client, created.task_id, "cancelled")
        await cancel(client, created.task_id)  # a finished task stays as it is
        again = await get(client, created.task_id)
    assert done.result is not None and text(done.result) == "declined/expired: Delete 1 files?"
    assert again.status == "cancelled" and seen.lines == []


async def test_which_calls_become_tasks(store: RunStore) -> None:
    seen = Seen()
    seen.release.set()
    async with Client(mcp_server(kit(seen), store=store), extensions=[TaskSupport()]) as client:
        quick = await client.session.call_tool("quick", {}, allow_claimed=True)
        assert isinstance(quick, types.CallToolResult)  # not long-running: answered inline
    async with Client(mcp_server(kit(seen), store=store)) as client:  # the client did not declare it
        slow = await client.session.call_tool("slow", {}, allow_claimed=True)
        assert isinstance(slow, types.CallToolResult) and slow.content[0].text == "slow done"  # type: ignore[union-attr]
    async with Client(
        mcp_server(kit(seen), store=store, tasks="always"), extensions=[TaskSupport()]
    ) as client:
        created = await create(client, "quick")
        done = await until(client, created.task_id, "completed")
        assert done.result is not None and text(done.result) == "quick"
    async with Client(mcp_server(kit(seen), store=store, tasks=None), extensions=[TaskSupport()]) as client:
        slow = await client.session.call_tool("slow", {}, allow_claimed=True)
        assert isinstance(slow, types.CallToolResult)


async def test_client_call_tool_follows_a_task_to_its_end(store: RunStore) -> None:
    seen = Seen()
    seen.release.set()
    async with Client(
        mcp_server(kit(seen), store=store, poll_interval=0.02), extensions=[TaskSupport()]
    ) as client:
        result = await client.call_tool("slow", {})
        assert result.content[0].text == "slow done"  # type: ignore[union-attr]
        with pytest.raises(RuntimeError, match="asks a question"):
            await client.call_tool("approve", {"n": 1})


async def test_an_unknown_task_and_another_principals_task(store: RunStore) -> None:
    seen = Seen()
    who = {"name": "alice"}
    server = mcp_server(kit(seen), store=store, principal=lambda ctx: who["name"])
    async with Client(server, extensions=[TaskSupport()]) as client:
        created = await create(client, "approve", {"n": 1})
        await until(client, created.task_id, "input_required")
        with pytest.raises(MCPError) as unknown:
            await get(client, "no-such-task")
        assert unknown.value.code == -32602 and "no-such-task" in unknown.value.message
        who["name"] = "mallory"
        for attempt in (get(client, created.task_id), cancel(client, created.task_id)):
            with pytest.raises(MCPError) as other:
                await attempt
            assert other.value.code == -32602
        who["name"] = "alice"
        assert (await get(client, created.task_id)).status == "input_required"
    assert store.tasks.get(created.task_id).owner == "alice"  # type: ignore[union-attr]


async def test_a_task_survives_a_new_server_on_the_same_store(store: RunStore, new_store: Any) -> None:
    first = Seen()
    async with Client(mcp_server(kit(first), store=store), extensions=[TaskSupport()]) as client:
        created = await create(client, "approve", {"n": 4})
        asking = await until(client, created.task_id, "input_required")
    # another server, another toolkit, the same file: as after a restart
    second = Seen()
    again = new_store(lease=3.0)
    async with Client(mcp_server(kit(second), store=again), extensions=[TaskSupport()]) as client:
        found = await get(client, created.task_id)
        assert found.status == "input_required" and found.input_requests == asking.input_requests
        [key] = found.input_requests or {}
        await update(client, created.task_id, {key: {"action": "accept", "content": {"reason": "later"}}})
        done = await until(client, created.task_id, "completed")
    assert done.result is not None and text(done.result) == "deleted 4 files: later"
    assert first.lines == [] and len(second.lines) == 1


async def test_a_task_whose_server_died_reads_failed(store: RunStore) -> None:
    call = ToolCall("c1", "slow", {})
    store.tasks.create(
        "t-died", call, "turn", owner=None, ttl_ms=None, poll_ms=100, lease="l", lease_for=0.05
    )
    assert store.tasks.get("t-died").status == "working"  # type: ignore[union-attr]
    time.sleep(0.1)
    async with Client(mcp_server(kit(Seen()), store=store), extensions=[TaskSupport()]) as client:
        failed = await get(client, "t-died")
    assert failed.status == "failed" and failed.error is not None
    assert failed.error["code"] == -32603 and "stopped while the call ran" in failed.error["message"]


async def test_an_expired_question_is_settled_as_the_loop_settles_expiry(store: RunStore) -> None:
    async with Client(mcp_server(kit(Seen()), store=store), extensions=[TaskSupport()]) as client:
        created = await create(client, "soon")
        asking = await until(client, created.task_id, "input_required")
        assert asking.ttl_ms is not None and asking.ttl_ms < 5_000  # the run's expiry, not the 1 h default
        await asyncio.sleep(0.6)
        done = await until(client, created.task_id, "completed")
    assert done.result is not None and text(done.result) == "declined/expired: Quickly: which?"


# --- consumed: mcp_tools_from against a server that answers with tasks -------------------------------


async def test_a_consumed_task_becomes_a_suspension_and_is_resumed(store: RunStore) -> None:
    seen = Seen()
    server = mcp_server(kit(seen), store=store, poll_interval=0.02)
    async with Client(server, extensions=[TaskSupport()]) as client:
        local = Toolkit(await mcp_tools_from(client.session))
        run = await local.run_calls([ToolCall("c1", "approve", {"n": 5})])
        assert run.status == "pending" and run.pending is not None
        task_id = run.pending.data["mcp"]["taskId"]  # type: ignore[index]
        assert store.tasks.get(task_id).status == "input_required"  # type: ignore[union-attr]
        stored = run.to_json()
    # another connection and toolkit (as another process would): the same remote task goes on
    async with Client(server, extensions=[TaskSupport()]) as client:
        other = Toolkit(await mcp_tools_from(client.session))
        again = RunResult.from_json(stored)
        assert again.pending is not None
        done = await other.resume(again, Answer(again.pending.id, True, {"reason": "elsewhere"}))
    assert done.status == "done" and done.results[0].result.output == "deleted 5 files: elsewhere"
    assert store.tasks.get(task_id).status == "completed"  # type: ignore[union-attr]
    assert len(seen.lines) == 1


async def test_a_local_cancel_cancels_the_remote_task(store: RunStore) -> None:
    seen = Seen()
    server = mcp_server(kit(seen), store=store, poll_interval=0.02)
    async with Client(server, extensions=[TaskSupport()]) as client:
        local = Toolkit(await mcp_tools_from(client.session))
        turn = asyncio.ensure_future(local.run_calls([ToolCall("c9", "hang", {})]))
        while "hang started" not in seen.lines:
            await asyncio.sleep(0.01)
        assert local.cancel("c9")
        run = await turn
        with tamper(store) as conn:
            [task_id] = [row[0] for row in conn.execute("SELECT id FROM tasks").fetchall()]
        while store.tasks.get(task_id).status != "cancelled":  # type: ignore[union-attr]
            await asyncio.sleep(0.01)
    assert run.results[0].result.output == "declined: the call to hang was cancelled"
    assert seen.lines[-1].startswith("hang cancelled")


# --- live: over stdio and streamable HTTP, against a server process --------------------------------


def _env(log: Path | None = None) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "support" / "python")])}
    if log is not None:
        env["TOOLNEXUS_TASK_LOG"] = str(log)
    return env


@contextlib.contextmanager
def http_server(db: Path, log: Path) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, str(SERVER), str(db), "http", str(port)],
        env=_env(log),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        import socket

        deadline = time.monotonic() + 60
        while True:  # a readiness wait
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited: {proc.stderr.read().decode() if proc.stderr else ''}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            assert time.monotonic() < deadline, "the HTTP server did not start listening"
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@contextlib.asynccontextmanager
async def live(where: Any) -> AsyncIterator[Client]:
    async with Client(where, extensions=[TaskSupport()]) as client:
        assert client.protocol_version == "2026-07-28"
        yield client


def stdio(db: Path, log: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[str(SERVER), str(db)], env=_env(log))


@pytest.mark.slow
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_live_task_life(tmp_path: Path, transport: str) -> None:
    db, log = tmp_path / "tasks.sqlite3", tmp_path / "handlers.log"
    with contextlib.ExitStack() as stack:
        where = stdio(db, log) if transport == "stdio" else stack.enter_context(http_server(db, log))
        async with live(where) as client:
            created = await create(client, "approve", {"n": 3})
            asking = await until(client, created.task_id, "input_required")
            [key] = asking.input_requests or {}
            await update(client, created.task_id, {key: {"action": "accept", "content": {}}})
            done = await until(client, created.task_id, "completed")
            slow = await create(client, "slow")
            seen_messages = set()
            while (state := await get(client, slow.task_id)).status == "working":
                if state.status_message:
                    seen_messages.add(state.status_message)
                await asyncio.sleep(0.02)
    assert done.result is not None and text(done.result).startswith("deleted 3 files (idk-")
    assert state.status == "completed" and state.result is not None and text(state.result) == "slow done"
    assert seen_messages and seen_messages <= {"step 1 of 3", "step 2 of 3", "step 3 of 3"}
    assert log.read_text().startswith("approve ran with True under idk-")


@pytest.mark.slow
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_live_task_cancelled(tmp_path: Path, transport: str) -> None:
    db, log = tmp_path / "tasks.sqlite3", tmp_path / "handlers.log"
    with contextlib.ExitStack() as stack:
        where = stdio(db, log) if transport == "stdio" else stack.enter_context(http_server(db, log))
        async with live(where) as client:
            created = await create(client, "hang")
            deadline = time.monotonic() + 30
            while not log.exists() or "hang started" not in log.read_text():
                assert time.monotonic() < deadline
                await asyncio.sleep(0.02)
            await cancel(client, created.task_id)
            done = await until(client, created.task_id, "cancelled")
    assert log.read_text().splitlines() == ["hang started", "hang cancelled"]
    assert done.result is not None and text(done.result) == "declined: the call to hang was cancelled"


@pytest.mark.slow
async def test_live_task_survives_a_server_restart(tmp_path: Path) -> None:
    """The stdio server process is stopped while its task waits on a person; a new process on
    the same store answers tasks/get for it, takes the answer, and completes it."""
    db, log = tmp_path / "tasks.sqlite3", tmp_path / "handlers.log"
    async with live(stdio(db, log)) as client:
        created = await create(client, "approve", {"n": 7})
        asking = await until(client, created.task_id, "input_required")
    # the first process has exited (its stdin closed); a second one starts on the same file
    async with live(stdio(db, log)) as client:
        found = await get(client, created.task_id)
        [key] = found.input_requests or {}
        await update(client, created.task_id, {key: {"action": "accept", "content": {}}})
        done = await until(client, created.task_id, "completed")
    print(
        "\nrestart:",
        json.dumps(
            {
                "before": asking.model_dump(by_alias=True, exclude_none=True, exclude={"meta"}),
                "after restart": found.model_dump(by_alias=True, exclude_none=True, exclude={"meta"}),
                "done": done.model_dump(by_alias=True, exclude_none=True, exclude={"meta"}),
            },
            indent=1,
        ),
    )
    assert found.status == "input_required" and found.input_requests == asking.input_requests
    assert found.created_at == created.created_at
    assert done.result is not None and text(done.result).startswith("deleted 7 files (idk-")


CLIENT = """
import asyncio, sys
from mcp import Client
from toolnexus import Answer, RunResult, Toolkit
from toolnexus.mcp import TaskSupport, mcp_tools_from

async def main():
    run = RunResult.from_json(open(sys.argv[2]).read())
    async with Client(sys.argv[1], extensions=[TaskSupport()]) as client:
        kit = Toolkit(await mcp_tools_from(client.session))
        done = await kit.resume(run, Answer(run.pending.id, True, {}))
    print(done.results[0].result.output)

asyncio.run(main())
"""


@pytest.mark.slow
async def test_live_consumed_task_resumed_in_another_process(tmp_path: Path) -> None:
    db, log = tmp_path / "tasks.sqlite3", tmp_path / "handlers.log"
    with http_server(db, log) as url:
        async with live(url) as client:
            local = Toolkit(await mcp_tools_from(client.session))
            run = await local.run_calls([ToolCall("c1", "approve", {"n": 2})])
        assert run.pending is not None and run.pending.data is not None
        task_id = run.pending.data["mcp"]["taskId"]
        saved = tmp_path / "run.json"
        saved.write_text(run.to_json())
        script = tmp_path / "resume.py"
        script.write_text(CLIENT)
        out = subprocess.run(
            [sys.executable, str(script), url, str(saved)],
            env=_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0, out.stderr
        async with live(url) as client:
            done = await get(client, task_id)
    assert out.stdout.strip().startswith("deleted 2 files (idk-")
    assert done.status == "completed" and done.result is not None
    assert text(done.result) == out.stdout.strip()
