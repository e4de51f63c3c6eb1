"""toolnexus.store: pending runs in SQLite, each resumed once, also by racing processes."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from toolnexus import Answer, Request, ResumeError, ToolCall, ToolContext, Toolkit, pending, tool
from toolnexus.store import PendingRequest, SqliteRunStore

REPO = Path(__file__).resolve().parent.parent
SECRET = b"store-test-secret-0123456789abcdef"
#: Every run of `approve` appends a line here, so a test sees how often the tool really ran.
RUNS_LOG = "TOOLNEXUS_STORE_TEST_LOG"


@tool
def approve(what: str, ctx: ToolContext) -> object:
    """Asks before doing `what`."""
    if ctx.answer is None:
        return pending(Request("approval", f"{what}?"))
    log = os.environ.get(RUNS_LOG)
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(f"{os.getpid()} {ctx.idempotency_key}\n")
    return f"did {what}"


@tool
def expiring(minutes: float, ctx: ToolContext) -> object:
    """Asks a question that expires `minutes` from now."""
    if ctx.answer is None:
        when = datetime.now(UTC) + timedelta(minutes=minutes)
        return pending(Request("approval", "Go?", expires_at=when.isoformat()))
    return "went"


def toolkit() -> Toolkit:
    return Toolkit([approve, expiring], secret=SECRET)


@pytest.fixture
def store(tmp_path: Path) -> SqliteRunStore:
    return SqliteRunStore(tmp_path / "runs.sqlite3")


async def test_a_stored_run_is_resumed_once_and_finishes(store: SqliteRunStore):
    kit = toolkit()
    run = await kit.run_calls(
        [ToolCall("a", "approve", {"what": "A"}), ToolCall("b", "approve", {"what": "B"})]
    )
    run_id = store.save(run)
    first, second = store.pending()
    assert first == PendingRequest(run_id, run.requests[0]) and first.request.prompt == "A?"
    assert second == PendingRequest(run_id, run.requests[1]) and second.request.prompt == "B?"
    assert store.get(run_id) is not None and store.get(run_id).status == "pending"  # type: ignore[union-attr]

    after_a = await store.resume(toolkit(), run_id, Answer(first.request.id, True))
    assert after_a.status == "pending"
    assert store.pending() == [second]
    with pytest.raises(ResumeError) as again:  # the first request, answered again
        await store.resume(toolkit(), run_id, Answer(first.request.id, True))
    assert again.value.reason == "replayed"
    assert store.pending() == [second]

    done = await store.resume(toolkit(), run_id, Answer(second.request.id, False, reason="declined"))
    assert [(r.id, r.result.output) for r in done.results] == [("a", "did A"), ("b", "declined/expired: B?")]
    stored = store.get(run_id)
    assert stored is not None and stored.status == "done" and stored.run.to_json() == done.to_json()
    assert store.pending() == [] and store.ids("done") == [run_id]
    with pytest.raises(ResumeError) as late:
        await store.resume(toolkit(), run_id, Answer("pnd-other", True))
    assert late.value.reason == "not_pending"
    with pytest.raises(ResumeError) as missing:
        await store.resume(toolkit(), 999, Answer("pnd-other", True))
    assert missing.value.reason == "not_pending"


async def test_a_wrong_answer_leaves_the_run_pending(store: SqliteRunStore):
    run_id = store.save(await toolkit().run_calls([ToolCall("a", "approve", {"what": "A"})]))
    with pytest.raises(ResumeError) as wrong:
        await store.resume(toolkit(), run_id, Answer("pnd-not-it", True))
    assert wrong.value.reason == "mismatch"
    [waiting] = store.pending()
    assert waiting.run_id == run_id
    done = await store.resume(toolkit(), run_id, Answer(waiting.request.id, True))
    assert done.status == "done"


async def test_a_run_altered_in_the_file_is_refused_for_good(store: SqliteRunStore):
    run_id = store.save(await toolkit().run_calls([ToolCall("a", "approve", {"what": "A"})]))
    with closing(sqlite3.connect(store.path)) as conn:
        body = json.loads(conn.execute("SELECT body FROM runs").fetchone()[0])
        body["calls"][0]["arguments"]["what"] = "everything"
        conn.execute("UPDATE runs SET body = ?", (json.dumps(body),))
        conn.commit()
    request_id = body["pending"]["id"]
    with pytest.raises(ResumeError) as sealed:
        await store.resume(toolkit(), run_id, Answer(request_id, True))
    assert sealed.value.reason == "seal"
    assert store.ids("refused") == [run_id] and store.pending() == []


async def test_a_claimed_run_is_not_handed_out_again_until_released(store: SqliteRunStore):
    run_id = store.save(await toolkit().run_calls([ToolCall("a", "approve", {"what": "A"})]))
    [waiting] = store.pending()
    answer = Answer(waiting.request.id, True)
    claimed = store.claim(run_id, answer)
    assert claimed.pending is not None and claimed.pending.id == answer.id
    with pytest.raises(ResumeError) as same:
        store.claim(run_id, answer)
    assert same.value.reason == "replayed"
    with pytest.raises(ResumeError) as other:
        store.claim(run_id, Answer("pnd-other", True))
    assert other.value.reason == "not_pending"
    assert store.pending() == []
    store.release(run_id)
    assert [w.run_id for w in store.pending()] == [run_id]


async def test_expired_requests_are_settled_as_declined(store: SqliteRunStore):
    soon = store.save(await toolkit().run_calls([ToolCall("s", "expiring", {"minutes": 1})]))
    later = store.save(await toolkit().run_calls([ToolCall("l", "expiring", {"minutes": 60})]))
    plain = store.save(await toolkit().run_calls([ToolCall("p", "approve", {"what": "P"})]))
    assert store.expired() == []
    in_five = datetime.now(UTC) + timedelta(minutes=5)
    assert store.expired(in_five) == [soon]
    assert await store.expire(toolkit(), in_five) == [soon]
    stored = store.get(soon)
    assert stored is not None and stored.status == "done"
    assert [r.result.output for r in stored.run.results] == ["declined/expired: Go?"]
    assert [w.run_id for w in store.pending()] == [later, plain]
    assert await store.expire(toolkit()) == []


async def test_one_run_settles_an_expired_request_and_keeps_waiting_on_the_others(store: SqliteRunStore):
    calls = [
        ToolCall("s", "expiring", {"minutes": 1}),
        ToolCall("a", "approve", {"what": "A"}),
        ToolCall("b", "approve", {"what": "B"}),
    ]
    run_id = store.save(await toolkit().run_calls(calls))
    assert [w.request.prompt for w in store.pending()] == ["Go?", "A?", "B?"]
    assert await store.expire(toolkit(), datetime.now(UTC) + timedelta(minutes=5)) == [run_id]
    a, b = store.pending()
    # Both at once, out of call order.
    done = await store.resume(toolkit(), run_id, [Answer(b.request.id, True), Answer(a.request.id, True)])
    assert [(r.id, r.result.output) for r in done.results] == [
        ("s", "declined/expired: Go?"),
        ("a", "did A"),
        ("b", "did B"),
    ]


@pytest.mark.slow
def test_racing_processes_resume_a_run_once(tmp_path: Path):
    """Eight processes answer the same stored run at once: the tool runs once."""
    db = tmp_path / "runs.sqlite3"
    log = tmp_path / "runs.log"
    store = SqliteRunStore(db)
    run_id = store.save(asyncio.run(toolkit().run_calls([ToolCall("a", "approve", {"what": "A"})])))
    [waiting] = store.pending()
    racers = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.test_store", str(db), str(run_id), waiting.request.id],
            cwd=REPO,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, RUNS_LOG: str(log)},
        )
        for _ in range(8)
    ]
    outcomes = sorted(p.communicate(timeout=120)[0].strip() for p in racers)
    assert outcomes.count("done") == 1, outcomes
    assert all(o in ("done", "refused: replayed", "refused: not_pending") for o in outcomes), outcomes
    assert len(log.read_text(encoding="utf-8").splitlines()) == 1
    stored = store.get(run_id)
    assert stored is not None and stored.status == "done"


def _race(db: str, run_id: int, request_id: str) -> None:
    try:
        asyncio.run(SqliteRunStore(db).resume(toolkit(), run_id, Answer(request_id, True)))
    except ResumeError as exc:
        print(f"refused: {exc.reason}")
    else:
        print("done")


if __name__ == "__main__":
    _race(sys.argv[1], int(sys.argv[2]), sys.argv[3])


async def test_expire_passes_over_a_run_whose_expiry_cannot_be_read_as_passed_later(tmp_path):
    """An unreadable `expiresAt` counts as passed: `expire` settles it, and never raises."""
    from toolnexus import define_tool

    def asks(args, ctx):
        if ctx.answer is None:
            return pending(Request(id="", kind="input", prompt="when?", expires_at="2026-13-45 25:61"))
        return "answered"

    kit = Toolkit([define_tool("asks", "asks", None, asks)], secret=b"s" * 32)
    store = SqliteRunStore(tmp_path / "runs.db")
    run_id = store.save(await kit.run_calls([ToolCall("c", "asks", {})]))
    assert await store.expire(kit) == [run_id]
    assert await store.expire(kit) == []
    (item,) = store.get(run_id).run.results
    assert item.result.output == "declined/expired: when?"


async def test_two_calls_waiting_on_one_fixed_request_id_each_take_an_answer(tmp_path):
    from toolnexus import define_tool

    def asks(args, ctx):
        if ctx.answer is None:
            return pending(Request(id="fixed", kind="approval", prompt="go?"))
        return f"went {args['n']}"

    kit = Toolkit([define_tool("asks", "asks", None, asks)], secret=b"s" * 32)
    store = SqliteRunStore(tmp_path / "runs.db")
    calls = [ToolCall("a", "asks", {"n": 1}), ToolCall("b", "asks", {"n": 2})]
    run_id = store.save(await kit.run_calls(calls))
    first = await store.resume(kit, run_id, Answer("fixed", True))
    assert first.status == "pending"
    done = await store.resume(kit, run_id, Answer("fixed", True))
    assert [r.result.output for r in done.results] == ["went 1", "went 2"]
    with pytest.raises(ResumeError) as again:
        await store.resume(kit, run_id, Answer("fixed", True))
    assert again.value.reason in ("replayed", "not_pending")
