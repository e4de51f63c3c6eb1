"""toolnexus.store: pending runs in SQLite and PostgreSQL (every test of a `store` or `new_store`
runs on both), each resumed once, also by racing processes."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, SECRET
from tests.postgres import tamper
from toolnexus import (
    Answer,
    Request,
    ResumeError,
    RunResult,
    ToolCall,
    ToolCallResult,
    ToolContext,
    Toolkit,
    ToolnexusError,
    ToolResult,
    UsageError,
    define_tool,
    pending,
    tool,
)
from toolnexus.store import OutcomeNotStored, PendingRequest, RunStore, SqliteRunStore, open_store
from toolnexus.store._sqlite import SCHEMA_VERSION

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


async def test_a_stored_run_is_resumed_once_and_finishes(store: RunStore):
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


async def test_a_wrong_answer_leaves_the_run_pending(store: RunStore):
    run_id = store.save(await toolkit().run_calls([ToolCall("a", "approve", {"what": "A"})]))
    with pytest.raises(ResumeError) as wrong:
        await store.resume(toolkit(), run_id, Answer("pnd-not-it", True))
    assert wrong.value.reason == "mismatch"
    [waiting] = store.pending()
    assert waiting.run_id == run_id
    done = await store.resume(toolkit(), run_id, Answer(waiting.request.id, True))
    assert done.status == "done"


async def test_a_run_altered_in_the_file_is_refused_for_good(store: RunStore):
    run_id = store.save(await toolkit().run_calls([ToolCall("a", "approve", {"what": "A"})]))
    with tamper(store) as conn:
        body = json.loads(conn.execute("SELECT body FROM runs").fetchone()[0])
        body["calls"][0]["arguments"]["what"] = "everything"
        conn.execute("UPDATE runs SET body = ?", (json.dumps(body),))
    request_id = body["pending"]["id"]
    with pytest.raises(ResumeError) as sealed:
        await store.resume(toolkit(), run_id, Answer(request_id, True))
    assert sealed.value.reason == "seal"
    assert store.ids("refused") == [run_id] and store.pending() == []


async def test_a_claimed_run_is_not_handed_out_again_until_released(store: RunStore):
    run_id = store.save(await toolkit().run_calls([ToolCall("a", "approve", {"what": "A"})]))
    [waiting] = store.pending()
    answer = Answer(waiting.request.id, True)
    claimed = store.claim(run_id, answer).run
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


async def test_expired_requests_are_settled_as_declined(store: RunStore):
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


async def test_one_run_settles_an_expired_request_and_keeps_waiting_on_the_others(store: RunStore):
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
def test_racing_processes_resume_a_run_once(store: RunStore, tmp_path: Path):
    """Eight processes answer the same stored run at once: the tool runs once (on PostgreSQL, the
    claim's `SKIP LOCKED` turns the ones that meet the row locked away as being answered)."""
    from tests.postgres import location

    log = tmp_path / "runs.log"
    run_id = store.save(asyncio.run(toolkit().run_calls([ToolCall("a", "approve", {"what": "A"})])))
    [waiting] = store.pending()
    racers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.store.test_store",
                location(store),
                str(run_id),
                waiting.request.id,
            ],
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
    print(f"\n{type(store).__name__}: {outcomes}")
    assert len(log.read_text(encoding="utf-8").splitlines()) == 1
    stored = store.get(run_id)
    assert stored is not None and stored.status == "done"


def _race(db: str, run_id: int, request_id: str) -> None:
    try:
        asyncio.run(open_store(db).resume(toolkit(), run_id, Answer(request_id, True)))
    except ResumeError as exc:
        print(f"refused: {exc.reason}")
    else:
        print("done")


if __name__ == "__main__":
    _race(sys.argv[1], int(sys.argv[2]), sys.argv[3])


async def test_a_request_whose_expiry_cannot_be_read_is_settled_before_it_is_stored(new_store):
    """An unreadable `expiresAt` counts as passed: the loop settles the call at once (a request
    that has expired is never waited on), so the stored run is done, and `expire` passes it by."""
    from toolnexus import define_tool

    def asks(args, ctx):
        if ctx.answer is None:
            return pending(Request(id="", kind="input", prompt="when?", expires_at="2026-13-45 25:61"))
        return "answered"

    kit = Toolkit([define_tool("asks", "asks", None, asks)], secret=b"s" * 32)
    store = new_store()
    run_id = store.save(await kit.run_calls([ToolCall("c", "asks", {})]))
    assert store.get(run_id).status == "done" and store.pending() == []
    assert await store.expire(kit) == []
    (item,) = store.get(run_id).run.results
    assert item.result.output == "declined/expired: when?"


async def test_two_calls_waiting_on_one_fixed_request_id_each_take_an_answer(new_store):
    from toolnexus import define_tool

    def asks(args, ctx):
        if ctx.answer is None:
            return pending(Request(id="fixed", kind="approval", prompt="go?"))
        return f"went {args['n']}"

    kit = Toolkit([define_tool("asks", "asks", None, asks)], secret=b"s" * 32)
    store = new_store()
    calls = [ToolCall("a", "asks", {"n": 1}), ToolCall("b", "asks", {"n": 2})]
    run_id = store.save(await kit.run_calls(calls))
    first = await store.resume(kit, run_id, Answer("fixed", True))
    assert first.status == "pending"
    done = await store.resume(kit, run_id, Answer("fixed", True))
    assert [r.result.output for r in done.results] == ["went 1", "went 2"]
    with pytest.raises(ResumeError) as again:
        await store.resume(kit, run_id, Answer("fixed", True))
    assert again.value.reason in ("replayed", "not_pending")


# -- never stuck, nothing lost ------------------------------------------------------------------


@contextlib.contextmanager
def write_lock(db: Path, seconds: float) -> Iterator[threading.Event]:
    """Another writer holding `db`'s write lock for `seconds`, from when the event is set."""
    go = threading.Event()

    def hold() -> None:
        go.wait()
        with closing(sqlite3.connect(db, isolation_level=None)) as conn:
            conn.execute("BEGIN IMMEDIATE")
            time.sleep(seconds)
            conn.execute("ROLLBACK")

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    try:
        yield go
    finally:
        holder.join()


def _locking_tool(lock: threading.Event, ran: list[str]) -> Any:
    """`approve`, but taking the database's write lock (as another process would) as it runs."""

    @tool(name="approve")
    def locking(what: str, ctx: ToolContext) -> object:
        """Asks, then runs while another writer takes the lock."""
        if ctx.answer is None:
            return pending(Request("approval", f"{what}?"))
        ran.append(ctx.idempotency_key)
        lock.set()
        time.sleep(0.05)  # the other writer has it now
        return f"did {what}"

    return locking


async def test_an_outcome_write_that_fails_is_retried_while_the_lease_holds(tmp_path: Path) -> None:
    """The database locked past `timeout` as the outcome is written (r06): the tool has run, so
    the write is tried again until it goes through, and the run is done, not claimed for good."""
    db = tmp_path / "runs.sqlite3"
    store = SqliteRunStore(db, timeout=0.2, lease=10)
    ran: list[str] = []
    with write_lock(db, 1.0) as go:
        kit = Toolkit([_locking_tool(go, ran)], secret=SECRET)
        run_id = store.save(await kit.run_calls([ToolCall("a", "approve", {"what": "pay"})]))
        [waiting] = store.pending()
        done = await store.resume(kit, run_id, Answer(waiting.request.id, True))
    assert done.status == "done" and done.results[0].result.output == "did pay"
    stored = store.get(run_id)
    assert stored is not None and stored.status == "done" and len(ran) == 1


async def test_an_outcome_that_cannot_be_stored_in_time_is_handed_back_and_stored_later(
    tmp_path: Path,
) -> None:
    db = tmp_path / "runs.sqlite3"
    store = SqliteRunStore(db, timeout=0.1, lease=0.6)
    ran: list[str] = []
    with write_lock(db, 1.5) as go:
        kit = Toolkit([_locking_tool(go, ran)], secret=SECRET)
        run_id = store.save(await kit.run_calls([ToolCall("a", "approve", {"what": "pay"})]))
        [waiting] = store.pending()
        with pytest.raises(OutcomeNotStored) as info:
            await store.resume(kit, run_id, Answer(waiting.request.id, True))
    lost = info.value
    assert lost.run_id == run_id and lost.run.status == "done" and "not stored" in str(lost)
    assert lost.run.results[0].result.output == "did pay", "the result is handed back, not dropped"
    assert isinstance(lost, ToolnexusError) and isinstance(lost.cause, sqlite3.OperationalError)
    store.finish(run_id, lost.answers, lost.run, lease=lost.lease)  # the database takes writes again
    stored = store.get(run_id)
    assert stored is not None and stored.status == "done" and stored.run == lost.run and len(ran) == 1


async def test_an_outcome_not_stored_and_released_can_be_resumed_again_by_the_same_toolkit(
    tmp_path: Path,
) -> None:
    """The disk full as the outcome is written (a trigger stands in for SQLITE_FULL): released
    instead of finished, the run is pending again, and the same process may resume it, as any
    other may; the tool runs again with the same idempotency key."""
    db = tmp_path / "runs.sqlite3"
    store = SqliteRunStore(db, lease=0.3)
    keys: list[str] = []

    @tool(name="approve")
    async def transfer(what: str, ctx: ToolContext) -> object:
        """Asks, then moves money."""
        if ctx.answer is None:
            return pending(Request("approval", f"{what}?"))
        keys.append(ctx.idempotency_key)
        return "sent"

    kit = Toolkit([transfer], secret=SECRET)
    run_id = store.save(await kit.run_calls([ToolCall("a", "approve", {"what": "pay"})]))
    [waiting] = store.pending()
    with sqlite3.connect(db) as conn:
        conn.execute(
            "CREATE TRIGGER full BEFORE UPDATE OF body ON runs"
            " BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END"
        )
    with pytest.raises(OutcomeNotStored):
        await store.resume(kit, run_id, Answer(waiting.request.id, True))
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TRIGGER full")
    store.release(run_id)
    assert store.pending() == [waiting]
    done = await store.resume(kit, run_id, Answer(waiting.request.id, True))
    assert done.status == "done" and done.results[0].result.output == "sent"
    assert len(keys) == 2 and keys[0] == keys[1]
    with pytest.raises(ResumeError) as again:  # now stored: a replay, here and everywhere
        await store.resume(kit, run_id, Answer(waiting.request.id, True))
    assert again.value.reason == "replayed"


async def test_a_claim_whose_holder_died_is_given_back_when_its_lease_runs_out(new_store: Any) -> None:
    store = new_store(lease=0.3)
    run_id = store.save(await toolkit().run_calls([ToolCall("a", "approve", {"what": "A"})]))
    [waiting] = store.pending()
    store.claim(run_id, Answer(waiting.request.id, True))  # and the process dies here
    assert store.pending() == [] and store.get(run_id).status == "claimed"  # type: ignore[union-attr]
    with pytest.raises(ResumeError) as busy:
        store.claim(run_id, Answer(waiting.request.id, True))
    assert busy.value.reason == "replayed"
    time.sleep(0.4)
    assert store.pending() == [waiting] and store.get(run_id).status == "pending"  # type: ignore[union-attr]
    done = await store.resume(toolkit(), run_id, Answer(waiting.request.id, True))
    assert done.status == "done"


async def test_a_lease_is_renewed_while_the_tools_run(new_store: Any) -> None:
    store = new_store(lease=0.3)

    @tool(name="approve")
    async def slow(what: str, ctx: ToolContext) -> object:
        """Asks, then runs for three leases."""
        if ctx.answer is None:
            return pending(Request("approval", f"{what}?"))
        await asyncio.sleep(0.9)
        return "done slowly"

    kit = Toolkit([slow], secret=SECRET)
    run_id = store.save(await kit.run_calls([ToolCall("a", "approve", {"what": "A"})]))
    [waiting] = store.pending()
    task = asyncio.ensure_future(store.resume(kit, run_id, Answer(waiting.request.id, True)))
    await asyncio.sleep(0.6)  # two leases on: still held, so no one else may take it
    with pytest.raises(ResumeError) as busy:
        await asyncio.to_thread(store.claim, run_id, Answer(waiting.request.id, True))
    assert busy.value.reason == "replayed"
    assert (await task).results[0].result.output == "done slowly"


async def test_a_row_that_is_not_a_run_is_quarantined_and_harms_no_other(store: RunStore) -> None:
    """r08: a torn or hand-edited row is listed with why, resumable by no one, and every other
    run is listed, expired and resumed as before."""
    good = store.save(await toolkit().run_calls([ToolCall("a", "approve", {"what": "good"})]))
    bad = store.save(await toolkit().run_calls([ToolCall("a", "approve", {"what": "bad"})]))
    with tamper(store) as conn:
        conn.execute("UPDATE runs SET body = substr(body, 1, 40) WHERE id = ?", (bad,))
    assert {w.run_id for w in store.pending()} == {good, bad}, "listing reads no run"
    assert await store.expire(toolkit(), datetime.now(UTC) + timedelta(days=1)) == []
    [bad_waiting] = [w for w in store.pending() if w.run_id == bad]
    with pytest.raises(ResumeError) as info:
        await store.resume(toolkit(), bad, Answer(bad_waiting.request.id, True))
    assert info.value.reason == "seal" and "quarantined" in str(info.value)
    [(quarantined, why)] = store.quarantined()
    assert quarantined == bad and why.startswith("not a valid run: ")
    stored = store.get(bad)
    assert stored is not None and (stored.status, stored.run) == ("quarantined", None)
    assert [w.run_id for w in store.pending()] == [good]
    [good_waiting] = store.pending()
    assert (await store.resume(toolkit(), good, Answer(good_waiting.request.id, True))).status == "done"


async def test_a_run_past_its_sealed_expiry_is_settled_not_listed_forever(store: RunStore) -> None:
    """r07: `expire` settles a run whose sealed expiry has passed; a resume that finds it so
    settles it too, and neither puts it back."""
    now = [datetime.now(UTC)]
    kit = Toolkit([approve], secret=SECRET, clock=lambda: now[0])
    first = store.save(await kit.run_calls([ToolCall("a", "approve", {"what": "A"})], expires_in=60))
    second = store.save(await kit.run_calls([ToolCall("a", "approve", {"what": "B"})], expires_in=60))
    waiting = {w.run_id: w.request for w in store.pending()}
    now[0] += timedelta(minutes=2)
    assert store.expired(now[0]) == [first, second]
    with pytest.raises(ResumeError) as info:
        await store.resume(kit, second, Answer(waiting[second].id, True))
    assert info.value.reason == "expired"
    assert await store.expire(kit) == [first]
    for run_id, what in ((first, "A"), (second, "B")):
        stored = store.get(run_id)
        assert stored is not None and stored.status == "done" and stored.run is not None
        result = stored.run.results[0].result
        assert (
            result.output == "declined: the call to approve was not approved (expired)"
            or result.output == (f"declined/expired: {what}?")
        )
        assert result.metadata is not None and result.metadata["declined"]["reason"] == "expired"
    assert store.pending() == [] and store.expired(now[0]) == []


async def test_save_many_stores_runs_in_one_transaction(store: RunStore) -> None:
    kit = toolkit()
    runs = [await kit.run_calls([ToolCall("a", "approve", {"what": str(i)})]) for i in range(3)]
    ids = store.save_many(runs)
    assert len(ids) == 3 and [store.get(i).run for i in ids] == runs  # type: ignore[union-attr]
    assert [w.request.prompt for w in store.pending()] == ["0?", "1?", "2?"]
    with pytest.raises(TypeError, match="the store keeps RunResults, got str"):
        store.save_many([runs[0], RunResult("done", [ToolCallResult("x", "y", ToolResult.ok("not"))]), "no"])  # type: ignore[list-item]
    assert store.ids() == ids, "nothing of a batch that fails is stored"


def test_pending_parses_no_run(store: RunStore, monkeypatch: pytest.MonkeyPatch) -> None:
    runs = [asyncio.run(toolkit().run_calls([ToolCall("a", "approve", {"what": str(i)})])) for i in range(3)]
    store.save_many(runs)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a run was parsed")

    monkeypatch.setattr(RunResult, "from_json", refuse)
    assert [w.request for w in store.pending()] == [r.requests[0] for r in runs]


async def test_a_store_of_the_first_version_is_brought_up_to_date_and_nothing_is_lost(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite3"
    kit = toolkit()
    pending_run = await kit.run_calls([ToolCall("a", "approve", {"what": "old"})])
    done_run = await kit.run_calls([ToolCall("a", "expiring", {"minutes": -1})])
    with closing(sqlite3.connect(db)) as conn:
        conn.executescript(
            "CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, status TEXT NOT NULL,"
            " pending_id TEXT, expires_at REAL, body TEXT NOT NULL, answered TEXT NOT NULL DEFAULT '[]',"
            " claimed_at REAL, updated_at REAL NOT NULL);"
            "CREATE INDEX runs_waiting ON runs (status, expires_at);"
        )
        assert pending_run.pending is not None
        asked = pending_run.pending.id
        rows = [
            ("pending", asked, pending_run.to_json()),
            ("done", None, done_run.to_json()),
            ("claimed", asked, pending_run.to_json()),
            ("pending", "x", "{not a run"),
        ]
        conn.executemany("INSERT INTO runs (status, pending_id, body, updated_at) VALUES (?, ?, ?, 0)", rows)
        conn.commit()
    store = SqliteRunStore(db)
    assert [w.run_id for w in store.pending()] == [1, 3], "the claim of version 1 is given back"
    assert store.quarantined() == [(4, store.quarantined()[0][1])] and store.get(2).status == "done"  # type: ignore[union-attr]
    [first, _] = store.pending()
    assert (await store.resume(kit, 1, Answer(first.request.id, True))).results[0].result.output == "did old"
    assert SqliteRunStore(db).pending()[0].run_id == 3, "opened again: nothing moves twice"


# -- the decision log and policies -------------------------------------------------------------


async def test_decisions_are_logged_hash_chained_and_a_changed_byte_is_found(store: RunStore) -> None:
    kit = Toolkit([approve], secret=SECRET, policy_store=store.policies, decision_log=store.log)
    for what in ("A", "B", "C"):
        run_id = store.save(await kit.run_calls([ToolCall("a", "approve", {"what": what})], principal="ada"))
        [waiting] = store.pending()
        await store.resume(
            kit, run_id, Answer(waiting.request.id, what != "B", message="no"), principal="ada"
        )
    entries = list(store.log.entries())
    assert [(e["seq"], e["kind"], e["by"]) for e in entries] == [
        (1, "respond", "ada"),
        (2, "decline", "ada"),
        (3, "respond", "ada"),
    ]
    assert entries[1]["message"] == "no" and entries[1]["previous"] != entries[0]["previous"]
    assert store.log.verify() is None, "a clean log holds"
    out = io.StringIO()
    assert store.log.export(out) == 3
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["seq"] for line in lines] == [1, 2, 3] and all(len(line["hash"]) == 64 for line in lines)
    with tamper(store) as conn:  # one byte changed in the second entry
        text = conn.execute("SELECT entry FROM decisions WHERE seq = 2").fetchone()[0]
        conn.execute(
            "UPDATE decisions SET entry = ? WHERE seq = 2", (text.replace('"decline"', '"declinf"'),)
        )
    assert store.log.verify() == 2
    with tamper(store) as conn:  # put back, then the first entry removed
        conn.execute("UPDATE decisions SET entry = ? WHERE seq = 2", (text,))
        conn.execute("DELETE FROM decisions WHERE seq = 1")
    assert store.log.verify() == 2, "the chain starts at the first entry"


async def _logged(store: RunStore, n: int = 4) -> RunStore:
    """`store`, its log holding `n` decisions of a keyed toolkit (the last one a refusal)."""
    wipe = define_tool("wipe", "W", None, lambda args, ctx: "ok", needs_approval=True)
    kit = Toolkit([wipe], secret=SECRET, decision_log=store.log)
    for i in range(n):
        run_id = store.save(await kit.run_calls([ToolCall(f"c{i}", "wipe", {})]))
        await store.resume(kit, run_id, Answer(store.get(run_id).run.pending.id, i != n - 1), principal="ana")
    return store


def _rewrite(store: RunStore, entries: list[dict[str, Any]], *, head: bool) -> None:
    """Put `entries` in the log in place of what it holds, rehashed as the store would (and its
    head too, unkeyed, when `head`): what someone with the file but not the key can do."""
    from toolnexus.store._log import _GENESIS, _link

    previous = _GENESIS
    with tamper(store) as conn:
        conn.execute("DELETE FROM decisions")
        for seq, entry in enumerate(entries, 1):
            entry = {**entry, "seq": seq, "previous": previous}
            previous = _link(entry)
            conn.execute("INSERT INTO decisions VALUES (?, ?, ?)", (seq, json.dumps(entry), previous))
        if head:
            conn.execute(
                "UPDATE decisions_head SET seq = ?, hash = ?, key_id = NULL, mac = NULL",
                (len(entries), previous),
            )


async def test_the_logs_head_finds_a_removed_tail_an_appended_entry_and_a_rehash(store: RunStore) -> None:
    await _logged(store)
    assert store.log.verify() is None and store.log.verify(SECRET) is None
    assert store.log.verify({"default": SECRET}) is None, "keys by id, as `secrets=`"
    kept = store.log.head()
    assert kept is not None and kept["seq"] == 4 and kept["key"] == "default" and len(kept["mac"]) == 64
    entries = list(store.log.entries())
    _rewrite(store, entries[:3], head=False)  # the refusal removed
    assert store.log.verify() == 4 and store.log.verify(SECRET) == 4
    forged = {**entries[0], "kind": "approve", "call": "c9"}
    _rewrite(store, [*entries, forged], head=False)  # an approval appended
    assert store.log.verify() == 5 and store.log.verify(SECRET) == 5
    _rewrite(store, [*entries[:3], {**entries[3], "kind": "approve"}], head=True)  # all rehashed
    assert store.log.verify() is None, "without the key, a rehash with its head is not found"
    assert store.log.verify(SECRET) == 1 and store.log.verify(b"another key of 32 bytes........") == 1
    _rewrite(store, entries[:3], head=True)  # put back to an earlier state, head and all
    assert store.log.verify() is None, "a consistent earlier state, as far as the store can tell"
    assert store.log.verify(SECRET, head=kept) == 4, "a head kept elsewhere finds the rollback"
    with tamper(store) as conn:
        conn.execute("DELETE FROM decisions_head")
    assert store.log.verify() is None and store.log.verify(SECRET) == 1, "no head: only a key notices"


@pytest.mark.parametrize(("table", "scope"), [("decisions", None), ("policies", "tool")])
async def test_a_decision_whose_log_or_policy_write_fails_is_not_taken(
    tmp_path: Path, table: str, scope: str | None
) -> None:
    """The log's or the policy's write fails (a full disk, made by a trigger): nothing runs, the
    run is pending again, the log holds nothing, and the same answer is taken later, once."""
    ran: list[object] = []
    refund = define_tool(
        "refund", "R", None, lambda args, ctx: ran.append(args) or "refunded", needs_approval=True
    )
    store = SqliteRunStore(tmp_path / "runs.sqlite3")
    kit = Toolkit([refund], secret=SECRET, policy_store=store.policies, decision_log=store.log)
    run_id = store.save(await kit.run_calls([ToolCall("c1", "refund", {"amount": 5})]))
    [waiting] = store.pending()
    with closing(sqlite3.connect(store.path)) as conn:
        conn.execute(
            f"CREATE TRIGGER full BEFORE INSERT ON {table} BEGIN SELECT RAISE(FAIL, 'disk is full'); END"
        )
        conn.commit()
    with pytest.raises(sqlite3.Error, match="disk is full"):
        await store.resume(kit, run_id, Answer(waiting.request.id, True, scope=scope))
    assert ran == [] and store.get(run_id).status == "pending"
    assert list(store.log.entries()) == [] and store.policies.policies() == [], "no half of the unit"
    with closing(sqlite3.connect(store.path)) as conn:
        conn.execute("DROP TRIGGER full")
        conn.commit()
    done = await store.resume(kit, run_id, Answer(waiting.request.id, True, scope=scope))
    assert done.results[0].result.output == "refunded" and len(ran) == 1
    assert [e["kind"] for e in store.log.entries()] == ["approve"] and store.log.verify() is None
    assert len(store.policies.policies()) == (1 if scope else 0)


async def test_policies_are_kept_in_the_store_and_shared_by_toolkits(new_store: Any) -> None:
    store = new_store()
    kit = Toolkit([approve], secret=SECRET, policy_store=store.policies, decision_log=store.log)
    run_id = store.save(await kit.run_calls([ToolCall("a", "approve", {"what": "A"})]))
    [waiting] = store.pending()
    await store.resume(kit, run_id, Answer(waiting.request.id, True, scope="tool"))
    # `approve` asks with its own request (it is not `needs_approval`): a question's answer makes no policy
    assert store.policies.policies() == []
    gated = define_tool("gated", "", None, lambda args, ctx: "ran", needs_approval=True)
    kit = Toolkit([gated], secret=SECRET, policy_store=store.policies)
    run_id = store.save(await kit.run_calls([ToolCall("g", "gated", {})]))
    [waiting] = store.pending()
    await store.resume(kit, run_id, Answer(waiting.request.id, True, scope="tool"))
    [policy] = new_store().policies.policies("gated")
    assert (policy.tool, policy.approve, policy.scope) == ("gated", True, "tool")
    other = Toolkit([gated], secret=SECRET, policy_store=new_store().policies)
    run = await other.run_calls([ToolCall("g", "gated", {})])
    assert run.status == "done" and run.results[0].result.output == "ran", "another process's toolkit"
    assert other.revoke_policy(policy.id) and store.policies.policies() == []
    assert (await other.run_calls([ToolCall("g", "gated", {})])).status == "pending"


# -- calls in doubt ------------------------------------------------------------------------------


def _hanging(ran: list[str], started: threading.Event, go: threading.Event, **kw: Any) -> Any:
    @tool(name="approve", **kw)
    async def pay(what: str, ctx: ToolContext) -> object:
        """Asks, then pays (and hangs until `go`)."""
        if ctx.answer is None:
            return pending(Request("approval", f"{what}?"))
        ran.append(ctx.idempotency_key)
        started.set()
        await asyncio.to_thread(go.wait, 10)
        return f"paid {what}"

    return pay


async def _cut_off(
    store: RunStore, kit: Toolkit, monkeypatch: pytest.MonkeyPatch, started: threading.Event
) -> Any:
    """Resume the one stored run with a tool that hangs, its lease never renewed (as if its
    process had died), until the lease has run out; returns the resume still under way."""
    async def dead(*args: Any) -> None:
        return None

    monkeypatch.setattr(RunStore, "_renew", dead)
    [waiting] = store.pending()
    task = asyncio.ensure_future(store.resume(kit, waiting.run_id, Answer(waiting.request.id, True)))
    await asyncio.to_thread(started.wait, 10)
    await asyncio.sleep(store.lease + 0.1)
    return task, waiting


async def test_a_call_whose_lease_ran_out_while_its_tool_ran_is_in_doubt_and_settled(
    new_store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = new_store(lease=0.3)
    ran: list[str] = []
    started, go = threading.Event(), threading.Event()
    kit = Toolkit([_hanging(ran, started, go)], secret=SECRET, decision_log=store.log)
    run_id = store.save(await kit.run_calls([ToolCall("a", "approve", {"what": "rent"})]))
    task, waiting = await _cut_off(store, kit, monkeypatch, started)
    [doubt] = store.in_doubt()
    assert (doubt.run_id, doubt.tool, doubt.arguments, doubt.call.id) == (
        run_id,
        "approve",
        {"what": "rent"},
        "a",
    )
    assert doubt.idempotency_key == ran[0] and doubt.started_at <= time.time() and doubt.lease
    assert store.pending() == [] and store.get(run_id).status == "claimed"  # type: ignore[union-attr]
    with pytest.raises(ResumeError) as refused:
        store.claim(run_id, Answer(waiting.request.id, True))
    assert refused.value.reason == "not_pending" and "in doubt" in str(refused.value)
    assert await store.expire(kit, datetime.now(UTC) + timedelta(days=1)) == []
    # A person knows the rent was paid: settled, the tool does not run again.
    done = await store.settle(kit, run_id, "paid by hand", principal="ops")
    assert done.status == "done" and done.results[0].result.output == "paid by hand" and len(ran) == 1
    assert store.in_doubt() == [] and store.get(run_id).status == "done"  # type: ignore[union-attr]
    settled = [e for e in store.log.entries() if e["kind"] == "settle"]
    assert [(e["call"], e["by"], e["result"], e["idempotencyKey"]) for e in settled] == [
        ("a", "ops", "paid by hand", ran[0])
    ]
    assert store.log.verify() is None
    go.set()  # the cut-off resume comes back: its claim is no longer its own, so nothing is overwritten
    with pytest.raises(OutcomeNotStored):
        await task
    assert store.get(run_id).run == done  # type: ignore[union-attr]


async def test_a_call_in_doubt_is_retried_under_the_same_key_and_a_late_outcome_ends_the_doubt(
    new_store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = new_store(lease=0.3)
    ran: list[str] = []
    started, go = threading.Event(), threading.Event()
    kit = Toolkit([_hanging(ran, started, go)], secret=SECRET, decision_log=store.log)
    first = store.save(await kit.run_calls([ToolCall("a", "approve", {"what": "A"})]))
    task, _ = await _cut_off(store, kit, monkeypatch, started)
    assert [d.run_id for d in store.in_doubt()] == [first]
    go.set()  # the holder was slow, not dead: its outcome is stored and the doubt is over
    assert (await task).status == "done" and store.in_doubt() == []
    second = store.save(await kit.run_calls([ToolCall("b", "approve", {"what": "B"})]))
    started.clear()
    go.clear()
    task, _ = await _cut_off(store, kit, monkeypatch, started)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, OutcomeNotStored, ResumeError):
        await task
    [doubt] = store.in_doubt()
    go.set()
    with pytest.raises(ResumeError):
        await store.retry(kit, first)  # nothing of it is in doubt
    done = await store.retry(kit, second, principal="ops")
    assert done.results[0].result.output == "paid B" and ran[-1] == ran[-2] == doubt.idempotency_key
    retried = [e for e in store.log.entries() if e["kind"] == "retry"]
    assert [(e["call"], e["by"], e["run"], e["idempotencyKey"]) for e in retried] == [
        ("b", "ops", second, doubt.idempotency_key)
    ]
    assert store.get(second).status == "done" and store.log.verify() is None  # type: ignore[union-attr]


async def test_an_idempotent_tool_cut_off_is_given_back_not_in_doubt(
    new_store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolnexus import ToolHints

    store = new_store(lease=0.3)
    ran: list[str] = []
    started, go = threading.Event(), threading.Event()
    kit = Toolkit([_hanging(ran, started, go, hints=ToolHints(idempotent=True))], secret=SECRET)
    run_id = store.save(await kit.run_calls([ToolCall("a", "approve", {"what": "A"})]))
    task, waiting = await _cut_off(store, kit, monkeypatch, started)
    assert store.in_doubt() == [] and store.pending() == [waiting], (
        "its lease ran out: anyone may run it again"
    )
    go.set()
    await task
    assert store.get(run_id).status == "done"  # type: ignore[union-attr]


# -- what is wrong, named ------------------------------------------------------------------------


def test_a_file_that_cannot_be_opened_is_named(tmp_path: Path) -> None:
    where = tmp_path / "no" / "such" / "dir" / "runs.sqlite3"
    with pytest.raises(UsageError) as info:
        SqliteRunStore(where)
    assert str(where) in str(info.value) and "unable to open database file" in str(info.value)
    assert not where.parent.exists(), "nothing made"


def test_a_database_that_cannot_be_reached_is_named_without_its_password() -> None:
    from tests.conftest import free_port
    from toolnexus.store import PostgresRunStore

    port = free_port()  # nothing listens there
    with pytest.raises(UsageError) as info:
        PostgresRunStore(f"postgresql://ada:pw-s3cret-9@127.0.0.1:{port}/ledger", timeout=2)
    text = str(info.value)
    assert f"host 127.0.0.1 port {port} database ledger (user ada)" in text, text
    assert "pw-s3cret-9" not in text and info.value.__cause__ is None and info.value.__suppress_context__
    with pytest.raises(UsageError) as keyed:
        PostgresRunStore(f"host=127.0.0.1 port={port} dbname=ledger password=pw-s3cret-9", timeout=2)
    assert "pw-s3cret-9" not in str(keyed.value) and "database ledger" in str(keyed.value)


def test_a_database_of_a_newer_schema_is_refused_naming_both_versions(
    store: RunStore, new_store: Any
) -> None:
    run_id = store.save(asyncio.run(toolkit().run_calls([ToolCall("a", "approve", {"what": "A"})])))
    store.close()
    newer = (
        "PRAGMA user_version = 99"
        if isinstance(store, SqliteRunStore)
        else "UPDATE toolnexus_schema SET version = 99"
    )
    with tamper(store) as conn:
        conn.execute(newer)
    newer_than = f"has schema version 99, newer than this toolnexus's {SCHEMA_VERSION}"
    with pytest.raises(UsageError, match=newer_than):
        new_store()
    with tamper(store) as conn:
        conn.execute(
            f"PRAGMA user_version = {SCHEMA_VERSION}"
            if isinstance(store, SqliteRunStore)
            else f"UPDATE toolnexus_schema SET version = {SCHEMA_VERSION}"
        )
    assert new_store().get(run_id).status == "pending", "nothing changed by the refusal"  # type: ignore[union-attr]


# -- the conversation beside the run ---------------------------------------------------------------


async def test_a_runs_context_is_kept_beside_it_and_changed_only_when_written(store: RunStore) -> None:
    from toolnexus.store import CONTEXT_LIMIT

    kit = toolkit()
    messages = [{"role": "user", "content": "pay A and B — ünïcode"}, {"role": "assistant", "tool_calls": 2}]
    calls = [ToolCall("a", "approve", {"what": "A"}), ToolCall("b", "approve", {"what": "B"})]
    run_id = store.save(await kit.run_calls(calls), context=messages)
    bare = store.save(await kit.run_calls([ToolCall("c", "approve", {"what": "C"})]))
    assert store.get(run_id).context == messages and store.get(bare).context is None  # type: ignore[union-attr]
    a, b = [w for w in store.pending() if w.run_id == run_id]
    claim = store.claim(run_id, Answer(a.request.id, True))
    assert claim.context == messages
    store.release(run_id)
    half = await store.resume(kit, run_id, Answer(a.request.id, True))
    assert half.status == "pending" and store.get(run_id).context == messages, "unchanged by a resume"  # type: ignore[union-attr]
    later = [*messages, {"role": "tool", "content": "did A"}]
    await store.resume(kit, run_id, Answer(b.request.id, True), context=later)
    assert store.get(run_id).context == later, "written with the outcome"  # type: ignore[union-attr]
    before = store.ids()
    with pytest.raises(UsageError, match=f"bytes of JSON, over the limit of {CONTEXT_LIMIT}"):
        store.save(await kit.run_calls(calls), context={"text": "x" * CONTEXT_LIMIT})
    with pytest.raises(UsageError, match="is not JSON"):
        store.save(await kit.run_calls(calls), context={"when": datetime.now(UTC)})
    [waiting] = [w for w in store.pending() if w.run_id == bare]
    with pytest.raises(UsageError, match=f"the context of run {bare} is not JSON"):
        await store.resume(kit, bare, Answer(waiting.request.id, True), context=float("nan"))
    assert store.ids() == before and store.get(bare).status == "pending", "nothing stored, nothing run"  # type: ignore[union-attr]


async def test_a_store_of_version_4_gets_its_new_columns_and_keeps_its_runs(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite3"
    old = SqliteRunStore(db)
    run_id = old.save(await toolkit().run_calls([ToolCall("a", "approve", {"what": "A"})]))
    old.close()
    with closing(sqlite3.connect(db)) as conn:  # the tables as version 4 left them
        for column in ("doubt", "context", "principal", "session"):
            conn.execute(f"ALTER TABLE runs DROP COLUMN {column}")
        conn.execute("DROP INDEX waiting_principal")
        conn.execute("DROP INDEX waiting_session")
        conn.execute("ALTER TABLE waiting DROP COLUMN principal")
        conn.execute("ALTER TABLE waiting DROP COLUMN session")
        conn.execute("DROP INDEX waiting_tool")
        conn.execute("DROP INDEX waiting_kind")
        conn.execute("ALTER TABLE waiting DROP COLUMN tool")
        conn.execute("ALTER TABLE waiting DROP COLUMN kind")
        conn.execute("PRAGMA user_version = 4")
        conn.commit()
    store = SqliteRunStore(db)
    with closing(sqlite3.connect(db)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        columns = {row[1] for row in conn.execute("PRAGMA table_info(runs)")}
        assert {"doubt", "context", "principal"} <= columns
    [waiting] = store.pending(tool="approve", kind="approval")
    assert (await store.resume(toolkit(), run_id, Answer(waiting.request.id, True))).status == "done"


async def test_a_store_of_version_5_gets_the_table_of_kept_results(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite3"
    old = SqliteRunStore(db)
    run_id = old.save(await toolkit().run_calls([ToolCall("a", "approve", {"what": "A"})]))
    old.close()
    with closing(sqlite3.connect(db)) as conn:  # the tables as version 5 left them
        conn.execute("DROP TABLE results")
        conn.execute("PRAGMA user_version = 5")
        conn.commit()
    store = SqliteRunStore(db)
    store.results.put(("p", "s"), "result-0123456789abcdef", "the whole output")
    assert store.results.get(("p", "s"), "result-0123456789abcdef") == "the whole output"
    assert store.results.get(("p", None), "result-0123456789abcdef") is None, "another scope reads nothing"
    assert store.get(run_id).status == "pending"  # type: ignore[union-attr]
    with closing(sqlite3.connect(db)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 6
async def test_a_store_of_version_5_gets_principal_and_session_and_keeps_its_runs(
    store: RunStore, new_store: Any
) -> None:
    """Version 5 to 6 (a step of its own: `_sqlite._to_version_6`, `_postgres._VERSION_6`)."""
    kit = toolkit()
    old = store.save(await kit.run_calls([ToolCall("a", "approve", {"what": "A"})]))
    store.close()
    with tamper(store) as conn:  # the tables as version 5 left them
        conn.execute("DROP TABLE results")
        conn.execute("DROP INDEX waiting_principal")
        conn.execute("DROP INDEX waiting_session")
        for table, column in [(t, c) for t in ("runs", "waiting") for c in ("principal", "session")]:
            conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        postgres = not isinstance(store, SqliteRunStore)
        conn.execute("UPDATE toolnexus_schema SET version = 5" if postgres else "PRAGMA user_version = 5")
    again = new_store()
    new = again.save(await kit.run_calls([ToolCall("b", "approve", {"what": "B"})]), principal="ann")
    assert [w.run_id for w in again.pending()] == [old, new], "the run of version 5 still waits"
    assert [w.run_id for w in again.pending(principal="ann")] == [new]
    assert again.get(old).principal is None and again.get(new).principal == "ann"  # type: ignore[union-attr]
    with tamper(again) as conn:
        version = conn.execute(
            "SELECT version FROM toolnexus_schema" if postgres else "PRAGMA user_version"
        ).fetchone()[0]
        indexes = conn.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'waiting'"
            if postgres
            else "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'waiting'"
        ).fetchall()
    assert version == SCHEMA_VERSION
    assert {"waiting_principal", "waiting_session"} <= {name for (name,) in indexes}


async def test_pending_filters_by_tool_and_kind_and_pages_by_keyset(store: RunStore) -> None:
    kit = toolkit()
    calls = [ToolCall("a", "approve", {"what": "A"}), ToolCall("e", "expiring", {"minutes": 60})]
    ids = store.save_many([await kit.run_calls(calls) for _ in range(5)])
    everything = store.pending()
    assert [(w.run_id, w.position) for w in everything] == [(i, p) for i in ids for p in (0, 1)]
    approvals = store.pending(tool="approve")
    assert [w.run_id for w in approvals] == ids and {w.request.prompt for w in approvals} == {"A?"}
    assert [w.request.prompt for w in store.pending(tool="expiring", kind="approval")] == ["Go?"] * 5
    assert store.pending(kind="input") == [] and store.pending(tool="nothing") == []
    pages, after = [], None
    while page := store.pending(limit=3, after=after):
        pages.append(page)
        after = page[-1]
    assert [len(p) for p in pages] == [3, 3, 3, 1] and [w for p in pages for w in p] == everything
    assert store.pending(tool="approve", limit=2, after=(ids[2], 0)) == approvals[3:5]
    store.claim(ids[0], Answer(everything[0].request.id, True))
    assert store.pending(limit=1) == [everything[2]], "a claimed run is left out, and the page is full"
    for bad in (0, -1, True, 2.5):
        with pytest.raises(UsageError, match="limit must be a positive whole number"):
            store.pending(limit=bad)  # type: ignore[arg-type]


async def test_pending_filters_by_principal_and_session_on_their_indexes(store: RunStore) -> None:
    from toolnexus.store._rows import pending_query

    kit = toolkit()
    runs = [await kit.run_calls([ToolCall("a", "approve", {"what": w})]) for w in "ABCD"]
    ids = store.save_many(runs, principals=["ann", "bob", "ann", None], sessions=["s1", "s1", "s2", "s2"])
    assert [w.run_id for w in store.pending(principal="ann")] == [ids[0], ids[2]]
    assert [w.run_id for w in store.pending(session="s2")] == [ids[2], ids[3]]
    assert [w.run_id for w in store.pending(principal="ann", session="s2", tool="approve")] == [ids[2]]
    assert [w.run_id for w in store.pending(principal="ann", limit=1, after=(ids[0], 0))] == [ids[2]]
    with pytest.raises(UsageError, match="principal must be a string, got 7"):
        store.pending(principal=7)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="save_many got 1 runs and 2 principals"):
        store.save_many(runs[:1], principals=["ann", "bob"])
    with pytest.raises(UsageError, match="the session of run 0 of the batch is 3, not a string"):
        store.save_many(runs[:1], sessions=[3])  # type: ignore[list-item]
    assert len(store.pending()) == 4, "nothing of a refused batch is stored"
    for column, index in (("principal", "waiting_principal"), ("session", "waiting_session")):
        whose = ("x", None) if column == "principal" else (None, "x")
        sql, args = pending_query(0.0, *whose, None, None, 50, None)
        with tamper(store) as conn:
            if isinstance(store, SqliteRunStore):
                plan = " ".join(str(row) for row in conn.execute("EXPLAIN QUERY PLAN " + sql, tuple(args)))
            else:
                conn.execute("SET enable_seqscan = off")  # a table this small is read whole otherwise
                plan = " ".join(str(row) for row in conn.execute("EXPLAIN " + sql, tuple(args)))
        assert index in plan, f"pending({column}=...) is not on {index}: {plan}"


async def test_a_postgresql_store_reconnects_after_a_restart_and_loses_nothing(postgres_dsn: str) -> None:
    """PostgreSQL restarted between the calls of a host: every connection of the store (one per
    thread) dropped; the next read, and the next transaction at its BEGIN, open another."""
    from tests.postgres import restart_postgres
    from toolnexus.store import PostgresRunStore

    store, kit = PostgresRunStore(postgres_dsn, lease=2.0), toolkit()
    ids = store.save_many([await kit.run_calls([ToolCall("a", "approve", {"what": w})]) for w in "ABC"])
    first, second, third = store.pending()
    restart_postgres()
    assert [w.run_id for w in store.pending()] == ids, "the read after the drop reconnects"
    assert (await store.resume(kit, first.run_id, Answer(first.request.id, True))).status == "done"
    restart_postgres()
    assert (await store.resume(kit, second.run_id, Answer(second.request.id, True))).status == "done"
    restart_postgres()
    store.save(await kit.run_calls([ToolCall("a", "approve", {"what": "D"})]))  # a write first
    assert store.ids("claimed") == [] and [w.run_id for w in store.pending()] == [third.run_id, ids[-1] + 1]


def _backend_pid(store: RunStore) -> int:
    """The server process of the store's connection in this thread."""
    from toolnexus.store._postgres import PostgresBackend

    assert isinstance(store._db, PostgresBackend)
    return int(store._db.connection().raw.info.backend_pid)


def _recovered(dsn: str) -> None:
    """Wait until the cluster, in recovery after a killed backend (the postmaster ends every other
    one too), takes a new connection again: the store's own stays dead, and what follows, this
    test's calls and the next tests', meets a server that is up."""
    import psycopg

    deadline = time.monotonic() + 20
    while True:
        try:
            with psycopg.connect(dsn, connect_timeout=2) as conn:
                conn.execute("SELECT 1")
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@pytest.mark.parametrize("how", ["terminated", "killed"])
async def test_a_postgresql_connection_dropped_while_idle_is_opened_again(
    postgres_dsn: str, how: str
) -> None:
    """The server ended the store's idle connection between two calls: with a goodbye
    (`pg_terminate_backend`: "terminating connection due to administrator command") or without
    one (the backend killed: "consuming input failed: server closed the connection unexpectedly",
    and the cluster in recovery for a moment). The next read, and the next transaction at its
    BEGIN, open a new connection and succeed."""
    import signal

    from toolnexus.store import PostgresRunStore

    def drop() -> None:
        pid = _backend_pid(store)
        if how == "terminated":
            with tamper(store) as conn:
                conn.execute("SELECT pg_terminate_backend(?)", (pid,))
            time.sleep(0.2)  # the server is done with it
            return
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        with contextlib.suppress(ProcessLookupError):  # gone once the postmaster reaped it
            while time.monotonic() < deadline:
                os.kill(pid, 0)
                time.sleep(0.005)
        _recovered(postgres_dsn)

    store, kit = PostgresRunStore(postgres_dsn, lease=2.0), toolkit()
    ids = store.save_many([await kit.run_calls([ToolCall("a", "approve", {"what": w})]) for w in "AB"])
    first, second = store.pending()
    drop()
    assert [w.run_id for w in store.pending()] == ids, "the read after the drop reconnects"
    drop()
    assert (await store.resume(kit, first.run_id, Answer(first.request.id, True))).status == "done"
    assert [w.run_id for w in store.pending()] == [second.run_id]


async def test_a_postgresql_call_made_while_the_server_restarts_waits_for_it(postgres_dsn: str) -> None:
    """The server is down for a second (stopped, then started): a read made meanwhile waits for
    it (a reconnect is tried again for up to `RECONNECT_FOR` seconds, or `timeout`); with a
    `timeout` shorter than the outage it raises the server's refusal, after about `timeout`."""
    import psycopg

    from tests.postgres import start_postgres, stop_postgres
    from toolnexus.store import PostgresRunStore

    store, kit = PostgresRunStore(postgres_dsn, lease=2.0), toolkit()
    short = PostgresRunStore(postgres_dsn, timeout=1.0)
    run_id = store.save(await kit.run_calls([ToolCall("a", "approve", {"what": "A"})]))
    assert [w.run_id for w in short.pending()] == [run_id]
    stop_postgres()
    try:
        began = time.monotonic()
        with pytest.raises(psycopg.OperationalError):
            short.pending()
        gave_up = time.monotonic() - began
        starting = threading.Timer(1.0, start_postgres)
        starting.start()
        began = time.monotonic()
        assert [w.run_id for w in store.pending()] == [run_id], "the read waited for the server"
        waited = time.monotonic() - began
        starting.join()
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            start_postgres()  # a test that failed with the server down leaves it up for the next
    assert 0.5 <= gave_up < 3.0, f"gave up after {gave_up:.2f} s, timeout 1 s"
    assert 0.9 <= waited < 5.0, f"waited {waited:.2f} s for a server down about 1 s"


async def test_a_mark_the_database_does_not_take_runs_no_tool_and_gives_the_run_back(
    new_store: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Marking a call started (before a tool that is not idempotent runs) met the database's
    error: tried again while a third of the lease lasts, then raised by `resume` as that error.
    The tool did not run, the error is not the call's result, the run is pending again as it was,
    and it resumes later: the tool runs once (issue #33: a restart at the mark's COMMIT)."""
    store = new_store(lease=3.0)  # the mark tried again for 1 s: room for a loaded machine
    kit, log = toolkit(), tmp_path / "ran.log"
    monkeypatch.setenv(RUNS_LOG, str(log))
    original, fails = RunStore._started, {"left": 2}

    def flaky(self: RunStore, *args: Any) -> bool:
        if fails["left"]:
            fails["left"] -= 1
            raise self._db.errors[0]("server closed the connection unexpectedly")
        return bool(original(self, *args))

    def ran() -> int:
        return len(log.read_text().splitlines()) if log.exists() else 0

    monkeypatch.setattr(RunStore, "_started", flaky)
    first, second = [store.save(await kit.run_calls([ToolCall("a", "approve", {"what": w})])) for w in "AB"]
    [one, two] = store.pending()
    result = await store.resume(kit, first, Answer(one.request.id, True))  # two misses, then it holds
    assert result.status == "done" and result.results[0].result.output == "did A" and ran() == 1
    fails["left"] = 1000
    with pytest.raises(store._db.errors[0]):
        await store.resume(kit, second, Answer(two.request.id, True))
    got = store.get(second)
    assert ran() == 1, "the tool did not run on a mark that failed"
    assert got is not None and got.status == "pending" and store.in_doubt() == []
    assert [w.run_id for w in store.pending()] == [second]
    fails["left"] = 0
    again = await store.resume(kit, second, Answer(two.request.id, True))
    assert again.status == "done" and again.results[0].result.output == "did B" and ran() == 2


async def test_a_retry_whose_mark_fails_leaves_the_call_in_doubt(
    new_store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A retry of a call in doubt whose mark the database does not take runs nothing and puts the
    doubt back as it was: the call may have run before, so it is never handed back as pending
    (where an answer would run it again)."""
    store = new_store(lease=0.3)
    ran: list[str] = []
    started, go = threading.Event(), threading.Event()
    kit = Toolkit([_hanging(ran, started, go)], secret=SECRET, decision_log=store.log)
    run_id = store.save(await kit.run_calls([ToolCall("a", "approve", {"what": "A"})]))
    task, _ = await _cut_off(store, kit, monkeypatch, started)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, OutcomeNotStored, ResumeError):
        await task
    [doubt] = store.in_doubt()
    original = RunStore._started

    def refused(self: RunStore, *args: Any) -> bool:
        raise self._db.errors[0]("the disk is full")

    monkeypatch.setattr(RunStore, "_started", refused)
    go.set()
    with pytest.raises(store._db.errors[0], match="the disk is full"):
        await store.retry(kit, run_id, principal="ops")
    assert len(ran) == 1, "the tool did not run again on a mark that failed"
    still = [(d.run_id, d.call.id, d.idempotency_key, d.started_at) for d in store.in_doubt()]
    assert still == [(run_id, "a", doubt.idempotency_key, doubt.started_at)], "still in doubt"
    assert store.pending() == [] and store.get(run_id).status == "claimed"  # type: ignore[union-attr]
    monkeypatch.setattr(RunStore, "_started", original)
    done = await store.retry(kit, run_id, principal="ops")
    assert done.results[0].result.output == "paid A" and ran == [doubt.idempotency_key] * 2


async def test_a_settle_the_toolkit_refuses_leaves_the_call_in_doubt(
    new_store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = new_store(lease=0.3)
    ran: list[str] = []
    started, go = threading.Event(), threading.Event()
    kit = Toolkit([_hanging(ran, started, go)], secret=SECRET)
    run_id = store.save(await kit.run_calls([ToolCall("a", "approve", {"what": "A"})], principal="ada"))
    async def dead(*args: Any) -> None:
        return None

    monkeypatch.setattr(RunStore, "_renew", dead)
    [waiting] = store.pending()
    task = asyncio.ensure_future(store.resume(kit, run_id, Answer(waiting.request.id, True), principal="ada"))
    await asyncio.to_thread(started.wait, 10)
    await asyncio.sleep(0.4)
    [doubt] = store.in_doubt()
    with pytest.raises(ResumeError) as refused:  # the run is bound to ada
        await store.settle(kit, run_id, "paid", principal="bob")
    assert refused.value.reason == "principal"
    still = [(d.run_id, d.call.id, d.idempotency_key, d.started_at) for d in store.in_doubt()]
    assert still == [(run_id, "a", doubt.idempotency_key, doubt.started_at)], "still in doubt"
    assert store.pending() == [] and len(ran) == 1
    done = await store.settle(kit, run_id, "paid", principal="ada")
    assert done.results[0].result.output == "paid" and len(ran) == 1
    go.set()
    with contextlib.suppress(OutcomeNotStored):
        await task
