"""Resuming and sealing at the edges: results and calls that cannot be stored, one fixed
request id asked by two calls, a seal that is not ASCII, the same Python work per answer at any
size, runs changed in memory or in storage, and runs sealed by version 1."""

from __future__ import annotations

import asyncio
import cProfile
import json
import math
import pstats
from typing import Any

import pytest
import toolnexus_wire

from tests.conftest import SECRET
from toolnexus import (
    Answer,
    Request,
    ResumeError,
    RunResult,
    ToolCall,
    ToolCallResult,
    ToolContext,
    ToolResult,
    WireError,
    define_tool,
    pending,
)
from toolnexus._toolkit import Toolkit


async def _ok(args: dict[str, Any], ctx: ToolContext) -> str:
    return "ok"


# -- sealing never loses a turn ------------------------------------------------------------------


async def _ask(args: dict[str, Any], ctx: ToolContext) -> Any:
    return "done" if ctx.answer else pending(Request("approval", "ok?"))


def _reporter(meta: dict[Any, Any]) -> Any:
    async def handler(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        return ToolResult.ok("done").with_metadata(meta)

    return handler


@pytest.mark.parametrize(
    "meta",
    [
        {"ratio": float("nan")},
        {"tags": {"a"}},
        {1: "a", "b": 2},
        {"v": float("inf")},
    ],
    ids=["NaN", "set", "int and str keys", "Infinity"],
)
async def test_a_result_whose_metadata_is_not_json_does_not_lose_the_turn(meta: Any) -> None:
    kit = Toolkit(
        [
            define_tool("ask", "", None, _ask),
            define_tool("rep", "", None, _reporter(meta)),
            define_tool("ok", "", None, _ok),
        ],
        secret=SECRET,
    )
    calls = [ToolCall("c0", "ok", {}), ToolCall("c1", "rep", {}), ToolCall("c2", "ask", {})]
    run = await kit.run_calls(calls)
    assert run.status == "pending" and run.seal is not None
    assert [r.id for r in run.results] == ["c0", "c1"]
    assert run.results[0].result == ToolResult.ok("ok")
    bad = run.results[1].result
    assert bad.is_error and bad.output.startswith("the tool's metadata cannot be stored, so it is not kept: ")
    stored = RunResult.from_json(run.to_json())  # storable, and resumable from storage
    assert run.pending is not None
    done = await kit.resume(stored, Answer(run.pending.id, True))
    assert done.status == "done" and [r.id for r in done.results] == ["c0", "c1", "c2"]
    assert done.results[2].result == ToolResult.ok("done")


async def test_a_waiting_call_whose_arguments_are_not_json_is_settled_as_an_error() -> None:
    kit = Toolkit([define_tool("ask", "", None, _ask)], secret=SECRET)
    run = await kit.run_calls([ToolCall("c1", "ask", {"n": float("nan")}), ToolCall("c2", "ask", {})])
    assert run.status == "pending" and [c.id for c in run.calls] == ["c2"]
    assert run.results[0].result.is_error and "not JSON" in run.results[0].result.output


async def test_resuming_a_stored_run_that_holds_a_value_that_is_not_json_is_a_resume_error() -> None:
    kit = Toolkit([define_tool("ask", "", None, _ask)], secret=SECRET)
    run = await kit.run_calls([ToolCall("c1", "ask", {})])
    tampered = run.model_copy(update={"calls": [ToolCall("c1", "ask", {"n": float("inf")})]})
    assert tampered.pending is not None
    with pytest.raises(ResumeError) as info:
        await kit.resume(tampered, Answer(tampered.pending.id, True))
    assert info.value.reason == "seal"


# -- two calls that suspend with the same explicit request id ------------------------------------


async def test_two_calls_suspending_with_one_fixed_request_id_are_each_answered() -> None:
    async def delete(args: dict[str, Any], ctx: ToolContext) -> Any:
        if ctx.answer is None:
            return pending(Request("approval", f"Delete {args['path']}?", id="confirm-delete"))
        return f"deleted {args['path']}"

    for secret in (None, SECRET):
        kit = Toolkit([define_tool("delete", "", None, delete)], secret=secret)
        run = await kit.run_calls(
            [ToolCall("c1", "delete", {"path": "a"}), ToolCall("c2", "delete", {"path": "b"})]
        )
        assert run.pending is not None
        first = await kit.resume(run, Answer(run.pending.id, True))
        assert first.status == "pending" and first.pending is not None
        done = await kit.resume(first, Answer(first.pending.id, True))
        assert done.status == "done"
        assert [r.result.output for r in done.results] == ["deleted a", "deleted b"]
        with pytest.raises(ResumeError) as info:  # the first answer, again: still a replay
            await kit.resume(run, Answer(run.pending.id, True))
        assert info.value.reason == "replayed"


# -- timeout NaN, a seal that is not ASCII, a generated Answer from wait_for -----------------------


def test_a_wire_error_for_many_bad_parts_has_a_bounded_message() -> None:
    """Every problem is kept in `errors`; the message shows the first 50 (a million bad parts
    once made a 118 MB message)."""
    parts = ",".join('{"type":"image","mimeType":"image/png","data":"!!"}' for _ in range(20_000))
    with pytest.raises(WireError) as info:
        ToolResult.from_json('{"output":"x","parts":[%s]}' % parts)  # noqa: UP031
    assert len(info.value.errors) == 20_000 and info.value.path == "$.parts[0].data"
    assert len(str(info.value)) < 20_000 and str(info.value).endswith("; and 19950 more")


def test_a_stored_run_holding_a_number_beyond_a_double_is_refused_when_read() -> None:
    """R2: the text of a stored run holding `1e400` (or an integer of thousands of digits,
    past Python's own limit of 4,300) is a `WireError` at `$`, so `resume` never sees it."""
    run = RunResult("done", [ToolCallResult("c1", "f", ToolResult.ok("x"))])
    for number in ("1e400", "1" + "0" * 5000):
        text = run.to_json().replace('"isError":false', f'"isError":false,"metadata":{{"n":{number}}}')
        with pytest.raises(WireError) as info:
            RunResult.from_json(text)
        assert info.value.path == "$" and "double" in str(info.value)


def test_a_nan_timeout_is_refused() -> None:
    with pytest.raises(ValueError, match="timeout"):
        ToolContext(timeout=math.nan)
    assert ToolContext(timeout=math.inf).timeout == math.inf


@pytest.mark.parametrize("seal", ["\udcff", "v2.hmac-sha256.\udcff", "v1.hmac-sha256.é"])
async def test_a_seal_that_is_not_ascii_is_a_seal_error(seal: str) -> None:
    kit = Toolkit([define_tool("ask", "", None, _ask)], secret=SECRET)
    run = await kit.run_calls([ToolCall("c1", "ask", {})])
    forged = RunResult.from_wire({**run.to_wire(), "seal": "x"})
    forged.seal = seal
    assert forged.pending is not None
    with pytest.raises(ResumeError) as info:
        await kit.resume(forged, Answer(forged.pending.id, True))
    assert info.value.reason == "seal"


async def test_wait_for_may_return_the_generated_answer() -> None:
    assert toolnexus_wire.Answer is Answer
    kit = Toolkit([define_tool("ask", "", None, _ask)])
    run = await kit.run_calls([ToolCall("c1", "ask", {})], lambda r: toolnexus_wire.Answer(r.id, True))
    assert run.status == "done" and run.results[0].result == ToolResult.ok("done")


# -- answering N suspended calls: the same Python work per answer at any N ----------------------


async def _answer_all(n: int, secret: bytes | None, profile: cProfile.Profile) -> None:
    kit = Toolkit([define_tool("ask", "", None, _ask)], secret=secret)
    run = await kit.run_calls([ToolCall(f"c{i}", "ask", {}) for i in range(n)])
    profile.enable()
    while run.status == "pending":
        assert run.pending is not None
        run = await kit.resume(run, Answer(run.pending.id, True))
    profile.disable()
    assert [r.id for r in run.results] == [f"c{i}" for i in range(n)]
    assert all(r.result.output == "done" for r in run.results)


def _calls_per_answer(n: int, secret: bytes | None) -> float:
    profile = cProfile.Profile()
    asyncio.run(_answer_all(n, secret, profile))
    return float(pstats.Stats(profile).total_calls) / n  # type: ignore[attr-defined]


@pytest.mark.parametrize("secret", [SECRET, None], ids=["sealed", "unsealed"])
def test_one_resume_per_answer_does_the_same_python_work_at_any_size(secret: bytes | None) -> None:
    """Counted, not timed: the function calls per answer at 2,000 waiting calls are those at
    250 (a binary search's log N aside). Rereading or resealing the run at each answer, as
    before, made them grow with N (the issue measured 1,000 answers in 10.7 s)."""
    small, large = _calls_per_answer(250, secret), _calls_per_answer(2000, secret)
    assert large < small * 1.1, (small, large)


async def test_a_run_changed_in_memory_is_checked_in_full() -> None:
    kit = Toolkit([define_tool("ask", "", None, _ask)], secret=SECRET)
    run = await kit.run_calls([ToolCall("c1", "ask", {}), ToolCall("c2", "ask", {})])
    run.calls = [ToolCall("c1", "ask", {"forged": True}), run.calls[1]]  # a new list: not the run returned
    assert run.pending is not None
    with pytest.raises(ResumeError) as info:
        await kit.resume(run, Answer(run.pending.id, True))
    assert info.value.reason == "seal"


async def test_a_stored_run_whose_results_were_reordered_is_refused() -> None:
    kit = Toolkit([define_tool("ask", "", None, _ask), define_tool("ok", "", None, _ok)], secret=SECRET)
    run = await kit.run_calls([ToolCall("c1", "ok", {}), ToolCall("c2", "ok", {}), ToolCall("c3", "ask", {})])
    wire = json.loads(run.to_json())
    wire["results"].reverse()
    reordered = RunResult.from_wire(wire)
    assert reordered.pending is not None
    with pytest.raises(ResumeError) as info:
        await kit.resume(reordered, Answer(reordered.pending.id, True))
    assert info.value.reason == "seal"
