"""MCP's Tasks extension served with its tasks as Temporal turns: `mcp_server(toolkit,
temporal=TurnClient(...))`, against the dev server of the `temporal` fixture (these tests share
its xdist group, `tests/conftest.py`).

In process, with the MCP SDK's own `Client` and a worker (`worker_for`) in the same process: a
task created, polled (its status message the tool activity's last heartbeat), answered through
`input_required` and completed; refused and replayed answers; two tasks cancelled (one running,
one waiting on a person); another principal's task. Then live: a task that outlives the MCP
server process (stdio), answered by a second process on the same namespace.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
import uuid
from typing import Any, cast

import pytest

pytest.importorskip("temporalio")

from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from temporalio.client import Client as TemporalClient

from tests.conftest import REPO
from tests.mcp.task_server import toolkit as served_toolkit
from tests.mcp.test_mcp_tasks import LONG, REASON, _env, cancel, create, get, text, until, update
from toolnexus import Request, ToolContext, Toolkit, define_tool, pending
from toolnexus._seal import idempotency_key, turn_digest
from toolnexus.mcp import TASKS_EXTENSION, TaskSupport, mcp_server
from toolnexus.store import SqliteRunStore
from toolnexus.temporal import ToolPolicy, TurnClient, worker_for

#: Left out by `make test-fast`: starts a server and processes.
pytestmark = pytest.mark.slow

SERVER = REPO / "tests" / "mcp" / "task_server.py"
#: A short heartbeat: a cancellation reaches a handler, and a progress message the task, at the
#: tool activity's next one.
QUICK = ToolPolicy(heartbeat=1.0)


class Seen:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.release = asyncio.Event()


def kit(seen: Seen) -> Toolkit:
    async def survey(args: dict[str, Any], ctx: ToolContext) -> Any:
        if ctx.answer is None:
            ctx.progress(0.5, "counting files")
            await seen.release.wait()
            return pending(Request("approval", f"Delete {args['n']} files?", data={"schema": REASON}))
        seen.lines.append(f"survey {ctx.answer.data} {ctx.idempotency_key}")
        return f"deleted {args['n']} files: {(ctx.answer.data or {}).get('reason')}"

    async def hang(args: dict[str, Any], ctx: ToolContext) -> str:
        seen.lines.append("hang started")
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            seen.lines.append(f"hang cancelled {ctx.idempotency_key}")
            raise
        return "never"

    return Toolkit(
        [
            define_tool("survey", "Counts, then deletes after an approval", None, survey, hints=LONG),
            define_tool("hang", "Runs until cancelled", None, hang, hints=LONG),
        ],
        cancel_grace=1.0,
    )


def queue_name() -> str:
    return f"tasks-{uuid.uuid4().hex[:8]}"


async def key_of(turns: TurnClient, task_id: str) -> str:
    """The idempotency key of the task's call: the turn is `task-<task id>`."""
    run = await turns.result(f"task-{task_id}")
    call_id = run.results[0].id
    return idempotency_key(turn_digest([call_id], f"task-{task_id}"), call_id)


def test_a_task_lives_in_one_place() -> None:
    turns = TurnClient(cast(TemporalClient, object()), task_queue="q")
    with pytest.raises(ValueError, match="store= or temporal="):
        mcp_server(kit(Seen()), store=cast(SqliteRunStore, object()), temporal=turns)


async def test_a_task_is_created_polled_answered_and_completed(temporal: str) -> None:
    seen = Seen()
    tc = await TemporalClient.connect(temporal)
    queue = queue_name()
    turns = TurnClient(tc, task_queue=queue, default=QUICK)
    server = mcp_server(kit(seen), temporal=turns, poll_interval=0.25, task_ttl=120)
    async with (
        worker_for(tc, kit(seen), task_queue=queue),
        Client(server, extensions=[TaskSupport()]) as client,
    ):
        caps = client.session.server_capabilities
        assert caps is not None and caps.extensions is not None and TASKS_EXTENSION in caps.extensions
        created = await create(client, "survey", {"n": 3})
        assert created.status == "working" and created.poll_interval_ms == 250 and created.ttl_ms == 120_000
        # durable before it is returned: Temporal has the turn, named after the task
        described = await tc.get_workflow_handle(f"task-{created.task_id}").describe()
        assert described.workflow_type == "toolnexus.Turn"
        working = await until(client, created.task_id, "working")
        deadline = time.monotonic() + 20
        while working.status_message != "counting files":  # the activity's last heartbeat ToolEvent
            assert time.monotonic() < deadline, working
            await asyncio.sleep(0.05)
            working = await get(client, created.task_id)
        assert working.status == "working" and working.result is None and working.input_requests is None
        seen.release.set()
        asking = await until(client, created.task_id, "input_required")
        [(key, asked)] = (asking.input_requests or {}).items()
        assert key.startswith("pnd-") and asked["params"]["message"] == "Delete 3 files?"
        assert asked["params"]["requestedSchema"] == REASON
        assert asking.status_message == "Delete 3 files?"
        assert asking.ttl_ms is not None and 115_000 < asking.ttl_ms < 125_000  # the turn's expiry
        # a response to a key that is not outstanding is ignored: the task still waits
        await update(client, created.task_id, {"pnd-other": {"action": "accept", "content": {}}})
        assert (await get(client, created.task_id)).status == "input_required"
        await update(client, created.task_id, {key: {"action": "accept", "content": {"reason": "old"}}})
        done = await until(client, created.task_id, "completed")
        call_key = await key_of(turns, created.task_id)
    assert done.result is not None and text(done.result) == "deleted 3 files: old"
    assert done.result.get("isError") is None
    assert done.created_at == created.created_at and done.last_updated_at is not None
    assert done.last_updated_at >= created.created_at and done.status_message is None
    assert seen.lines == [f"survey {{'reason': 'old'}} {call_key}"]


async def test_refused_and_replayed_answers(temporal: str) -> None:
    """A decline is the loop's refusal (a result, not a failed task); an answer the turn refuses
    (`replayed`: two updates racing, then one after the end) leaves the task as its turn is."""
    seen = Seen()
    seen.release.set()
    tc = await TemporalClient.connect(temporal)
    queue = queue_name()
    turns = TurnClient(tc, task_queue=queue, default=QUICK)
    who = {"name": "alice"}
    server = mcp_server(kit(seen), temporal=turns, poll_interval=0.05, principal=lambda ctx: who["name"])
    async with (
        worker_for(tc, kit(seen), task_queue=queue),
        Client(server, extensions=[TaskSupport()]) as client,
    ):
        declined = await create(client, "survey", {"n": 2})
        approved = await create(client, "survey", {"n": 5})
        [key] = (await until(client, declined.task_id, "input_required")).input_requests or {}
        await update(client, declined.task_id, {key: {"action": "decline"}})
        refused = await until(client, declined.task_id, "completed", "cancelled")
        [key] = (await until(client, approved.task_id, "input_required")).input_requests or {}
        # another principal's task is not there for it
        who["name"] = "mallory"
        for attempt in (
            get(client, approved.task_id),
            cancel(client, approved.task_id),
            update(client, approved.task_id, {key: {"action": "accept", "content": {"reason": "mine"}}}),
        ):
            with pytest.raises(MCPError) as other:
                await attempt
            assert other.value.code == -32602
        who["name"] = "alice"
        first = {key: {"action": "accept", "content": {"reason": "first"}}}
        second = {key: {"action": "accept", "content": {"reason": "second"}}}
        await asyncio.gather(
            update(client, approved.task_id, first), update(client, approved.task_id, second)
        )
        done = await until(client, approved.task_id, "completed")
        await update(client, approved.task_id, second)  # after the end: changes nothing
        again = await get(client, approved.task_id)
        decisions = await turns.decisions(f"task-{declined.task_id}")
    assert refused.status == "completed" and refused.result is not None and refused.result["isError"] is True
    assert text(refused.result) == "declined/expired: Delete 2 files?"
    assert [(d["kind"], d["by"]) for d in decisions] == [("decline", "alice")]
    assert done.result is not None and text(done.result) in (
        "deleted 5 files: first",
        "deleted 5 files: second",
    )
    assert again.status == "completed" and again.result == done.result
    assert len(seen.lines) == 1  # taken once


async def test_tasks_cancel_of_a_running_and_a_waiting_task(temporal: str) -> None:
    seen = Seen()
    tc = await TemporalClient.connect(temporal)
    queue = queue_name()
    turns = TurnClient(tc, task_queue=queue, default=QUICK)
    server = mcp_server(kit(seen), temporal=turns, poll_interval=0.05)
    async with (
        worker_for(tc, kit(seen), task_queue=queue),
        Client(server, extensions=[TaskSupport()]) as client,
    ):
        running = await create(client, "hang")
        waiting = await create(client, "survey", {"n": 1})
        seen.release.set()
        await until(client, waiting.task_id, "input_required")
        while "hang started" not in seen.lines:
            await asyncio.sleep(0.02)
        await asyncio.gather(cancel(client, running.task_id), cancel(client, waiting.task_id))
        stopped = await until(client, running.task_id, "cancelled")
        refused = await until(client, waiting.task_id, "cancelled")
        await cancel(client, running.task_id)  # a finished task stays as it is
        again = await get(client, running.task_id)
        hang_key = await key_of(turns, running.task_id)
    assert seen.lines == ["hang started", f"hang cancelled {hang_key}"]  # the key is kept
    assert stopped.result is not None and stopped.result["isError"] is True
    assert text(stopped.result) == "declined: the call to hang was cancelled"
    assert stopped.status_message == "the call was cancelled"
    assert refused.result is not None and text(refused.result) == "declined/expired: Delete 1 files?"
    assert again.status == "cancelled" and again.result == stopped.result


async def test_a_task_outlives_the_mcp_server_process(temporal: str) -> None:
    """The stdio server process exits while its task waits on a person; a second process on the
    same Temporal namespace answers tasks/get for it (the state is Temporal's) and tasks/update,
    and the turn completes. The tools run in this process's worker throughout."""
    tc = await TemporalClient.connect(temporal)
    queue = queue_name()
    where = StdioServerParameters(
        command=sys.executable, args=[str(SERVER), "temporal", temporal, queue], env=_env()
    )
    async with worker_for(tc, served_toolkit(), task_queue=queue):
        async with Client(where, extensions=[TaskSupport()]) as client:
            assert client.protocol_version == "2026-07-28"
            created = await create(client, "approve", {"n": 7})
            asking = await until(client, created.task_id, "input_required")
        # the first process has exited (its stdin closed); a second one starts on the namespace
        async with Client(where, extensions=[TaskSupport()]) as client:
            found = await get(client, created.task_id)
            [key] = found.input_requests or {}
            await update(client, created.task_id, {key: {"action": "accept", "content": {}}})
            done = await until(client, created.task_id, "completed")
    print(
        "\nrestart (temporal):",
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
