"""`store.wait` and `store.wait_async`: a host hears that a run it suspended has an outcome,
stored by another thread or process (PostgreSQL: LISTEN/NOTIFY; SQLite: polling the file's
data_version). Every test runs on both databases."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from tests.conftest import SECRET
from toolnexus import Answer, Request, ResumeError, ToolCall, ToolContext, Toolkit, UsageError, pending, tool
from toolnexus.store import RunStore


@tool
def ask(what: str, ctx: ToolContext) -> object:
    """Asks which `what`."""
    if ctx.answer is None:
        return pending(Request("question", f"Which {what}?"))
    return f"{what}: {ctx.answer.data}"


def _kit() -> Toolkit:
    return Toolkit([ask], secret=SECRET)


async def _saved(store: RunStore, *whats: str) -> tuple[int, list[Answer]]:
    run = await _kit().run_calls([ToolCall(f"c{i}", "ask", {"what": w}) for i, w in enumerate(whats)])
    return store.save(run), [Answer(r.id, True, data={"text": "x"}) for r in run.requests]


def _answer_later(store: RunStore, run_id: int, answers: list[Answer], delay: float) -> threading.Thread:
    """Another host (a thread of its own, with its own connection) resumes the run after `delay`."""

    def answer() -> None:
        time.sleep(delay)
        asyncio.run(store.resume(_kit(), run_id, answers))

    thread = threading.Thread(target=answer)
    thread.start()
    return thread


async def test_wait_returns_when_another_host_resumes_the_run(store: RunStore) -> None:
    run_id, answers = await _saved(store, "colour")
    thread = _answer_later(store, run_id, answers, 0.3)
    started = time.monotonic()
    got = await asyncio.to_thread(store.wait, run_id, 30)
    waited = time.monotonic() - started
    thread.join()
    assert got is not None and got.status == "done" and got.run is not None
    assert got.run.results[0].result.output == "colour: {'text': 'x'}"
    assert waited < 25, "it returned on the outcome, not at its timeout"


async def test_wait_async_returns_on_the_next_outcome_only(store: RunStore) -> None:
    run_id, answers = await _saved(store, "colour", "size")
    thread = _answer_later(store, run_id, answers[1:], 0.2)  # one of two answered: pending again
    got = await store.wait_async(run_id, 30)
    thread.join()
    assert got is not None and got.status == "pending" and got.run is not None
    assert [r.id for r in got.run.results] == ["c1"]
    thread = _answer_later(store, run_id, answers[:1], 0.2)
    last = await store.wait_async(run_id, 30)
    thread.join()
    assert last is not None and last.status == "done"


async def test_a_claim_handed_back_is_no_outcome_and_the_wait_times_out(store: RunStore) -> None:
    run_id, answers = await _saved(store, "colour")

    def claim_and_release() -> None:
        time.sleep(0.1)
        store.claim(run_id, answers)
        store.release(run_id)

    thread = threading.Thread(target=claim_and_release)
    thread.start()
    assert store.wait(run_id, 0.6) is None
    thread.join()
    assert await store.wait_async(run_id, 0.2) is None


async def test_a_finished_run_and_one_that_moved_on_since_are_returned_at_once(store: RunStore) -> None:
    run_id, answers = await _saved(store, "colour")
    seen = store.get(run_id)
    assert seen is not None and seen.run is not None
    await store.resume(_kit(), run_id, answers)
    started = time.monotonic()
    moved = store.wait(run_id, 30, since=seen.run)  # the outcome came before the call: not missed
    done = await store.wait_async(run_id, 30)  # done: nothing more will happen to it
    assert moved is not None and moved.status == "done" and done is not None and done.status == "done"
    assert time.monotonic() - started < 5


async def test_wait_async_can_be_cancelled(store: RunStore) -> None:
    run_id, _ = await _saved(store, "colour")
    task = asyncio.ensure_future(store.wait_async(run_id, 30))
    await asyncio.sleep(0.2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


@pytest.mark.parametrize("timeout", [-1, "5", True, float("nan")])
async def test_a_bad_timeout_or_a_missing_run_is_refused(store: RunStore, timeout: Any) -> None:
    run_id, _ = await _saved(store, "colour")
    with pytest.raises(UsageError, match="timeout must be a number of seconds"):
        store.wait(run_id, timeout)
    with pytest.raises(UsageError, match="timeout must be a number of seconds"):
        await store.wait_async(run_id, timeout)
    with pytest.raises(ResumeError, match="there is no run 999999") as refused:
        store.wait(999999, 0.1)
    assert refused.value.reason == "not_pending"
    with pytest.raises(UsageError, match="since must be the RunResult"):
        store.wait(run_id, 0.1, since="run")  # type: ignore[arg-type]
