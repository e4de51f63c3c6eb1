"""Parallel suspensions: one pending run lists every request, and `resume` takes the answers
in any order, one at a time or several at once, keeping the results in call order."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.conftest import SECRET
from toolnexus import (
    Answer,
    Request,
    ResumeError,
    RunResult,
    ToolCall,
    ToolContext,
    Toolkit,
    define_tool,
    pending,
)


class Asker:
    """A tool that asks `Which <arg>?` once, and records every run."""

    def __init__(self) -> None:
        self.runs: list[tuple[str, Answer | None]] = []
        self.tool = define_tool("ask", "asks", None, self.handler)

    async def handler(self, args: dict[str, Any], ctx: ToolContext) -> Any:
        self.runs.append((args["q"], ctx.answer))
        if ctx.answer is None:
            return pending(Request("input", f"Which {args['q']}?"))
        return f"{args['q']}={(ctx.answer.data or {}).get('v')}"


def _plain(args: dict[str, Any], ctx: ToolContext) -> str:
    return "plain"


def turn(n: int, plain_every: int = 0) -> list[ToolCall]:
    calls = []
    for i in range(n):
        if plain_every and i % plain_every == 0:
            calls.append(ToolCall(f"c{i}", "plain", {}))
        else:
            calls.append(ToolCall(f"c{i}", "ask", {"q": f"q{i}"}))
    return calls


def kit_of(asker: Asker, secret: bytes | None) -> Toolkit:
    return Toolkit([asker.tool, define_tool("plain", "", None, _plain)], secret=secret)


def reply(request: Request) -> Answer:
    return Answer(request.id, True, data={"v": request.prompt.split()[1].rstrip("?")})


@pytest.fixture(params=[None, SECRET], ids=["unsealed", "sealed"])
def secret(request: pytest.FixtureRequest) -> bytes | None:
    return request.param  # type: ignore[no-any-return]


async def test_every_request_is_listed_and_pending_is_the_first_in_call_order(secret: bytes | None) -> None:
    asker = Asker()
    run = await kit_of(asker, secret).run_calls(turn(5, plain_every=2))
    assert [c.id for c in run.calls] == ["c1", "c3"]
    assert [r.prompt for r in run.requests] == ["Which q1?", "Which q3?"]
    assert run.pending == run.requests[0]
    assert [r.id for r in run.results] == ["c0", "c2", "c4"]


@pytest.mark.parametrize("stored", [False, True], ids=["in-memory", "from-storage"])
async def test_answers_one_at_a_time_in_reverse_order(secret: bytes | None, stored: bool) -> None:
    asker = Asker()
    kit = kit_of(asker, secret)
    run = await kit.run_calls(turn(6, plain_every=3))
    requests = list(run.requests)
    for request in reversed(requests):
        if stored:
            run = RunResult.from_json(run.to_json())
        run = await kit.resume(run, reply(request))
        remaining = [r.id for r in run.requests]
        assert request.id not in remaining
        if remaining:
            assert run.status == "pending" and run.pending is not None
            assert run.pending.id == requests[0].id, "pending stays the first waiting call in call order"
            assert [r.id for r in run.results] == sorted(
                (r.id for r in run.results), key=lambda c: int(c[1:])
            )
    assert run.status == "done"
    assert [r.result.output for r in run.results] == [
        "plain",
        "q1=q1",
        "q2=q2",
        "plain",
        "q4=q4",
        "q5=q5",
    ]
    answered = [q for q, a in asker.runs if a is not None]
    assert answered == ["q5", "q4", "q2", "q1"], "each call re-ran once, when answered"


async def test_a_partial_answer_leaves_the_rest_pending_and_all_at_once_finishes(
    secret: bytes | None,
) -> None:
    asker = Asker()
    kit = kit_of(asker, secret)
    run = await kit.run_calls(turn(4))
    a, b, c, d = run.requests
    part = await kit.resume(run, [reply(c), reply(a)])
    assert part.status == "pending" and [r.id for r in part.requests] == [b.id, d.id]
    assert part.pending == b
    assert [r.id for r in part.results] == ["c0", "c2"]
    done = await kit.resume(RunResult.from_json(part.to_json()), [reply(d), reply(b)])
    assert done.status == "done"
    assert [r.result.output for r in done.results] == ["q0=q0", "q1=q1", "q2=q2", "q3=q3"]


async def test_random_orders_and_batches_agree_with_answering_in_call_order() -> None:
    rng = random.Random(7)
    for _ in range(20):
        n = rng.randint(1, 30)
        asker = Asker()
        kit = kit_of(asker, SECRET)
        run = await kit.run_calls(turn(n, plain_every=rng.choice([0, 3])))
        todo = list(run.requests)
        rng.shuffle(todo)
        while todo:
            size = rng.randint(1, len(todo))
            batch, todo = todo[:size], todo[size:]
            if rng.random() < 0.5:
                run = RunResult.from_json(run.to_json())
            run = await kit.resume(run, [reply(r) for r in batch])
        assert run.status == "done"
        assert [r.id for r in run.results] == [f"c{i}" for i in range(n)]
        for item in run.results:
            assert item.result.output in ("plain", f"q{item.id[1:]}=q{item.id[1:]}")


async def test_an_answer_that_fits_no_waiting_request_refuses_the_whole_batch(secret: bytes | None) -> None:
    asker = Asker()
    kit = kit_of(asker, secret)
    run = await kit.run_calls(turn(3))
    with pytest.raises(ResumeError) as info:
        await kit.resume(run, [reply(run.requests[1]), Answer("pnd-nobody", True)])
    assert info.value.reason == "mismatch"
    with pytest.raises(ResumeError) as info:
        await kit.resume(run, [reply(run.requests[1]), reply(run.requests[1])])
    assert info.value.reason == "replayed", "one answer given twice in a batch"
    assert [a for _, a in asker.runs] == [None, None, None], "nothing ran"
    with pytest.raises(ValueError, match="at least one"):
        await kit.resume(run, [])
    with pytest.raises(TypeError, match="Answers"):
        await kit.resume(run, [run.requests[0]])  # type: ignore[list-item]


async def test_a_replayed_answer_out_of_order_is_refused(secret: bytes | None) -> None:
    asker = Asker()
    kit = kit_of(asker, secret)
    run = await kit.run_calls(turn(3))
    middle = reply(run.requests[1])
    nxt = await kit.resume(run, middle)
    for again in (run, RunResult.from_json(run.to_json())):  # the old run: still waits on it
        with pytest.raises(ResumeError) as info:
            await kit.resume(again, middle)
        assert info.value.reason == "replayed"
    with pytest.raises(ResumeError) as info:  # the new run: it no longer waits on it
        await Toolkit([Asker().tool], secret=secret).resume(nxt, middle)
    assert info.value.reason == "mismatch"


async def test_two_calls_asked_under_one_fixed_id_take_one_answer_each() -> None:
    async def confirm(args: dict[str, Any], ctx: ToolContext) -> Any:
        if ctx.answer is None:
            return pending(Request("approval", f"Delete {args['p']}?", id="confirm"))
        return f"deleted {args['p']}"

    kit = Toolkit([define_tool("rm", "", None, confirm)], secret=SECRET)
    run = await kit.run_calls([ToolCall("c1", "rm", {"p": "a"}), ToolCall("c2", "rm", {"p": "b"})])
    done = await kit.resume(run, [Answer("confirm", True), Answer("confirm", False)])
    assert [r.result.output for r in done.results] == ["deleted a", "declined/expired: Delete b?"]


async def test_a_resealed_run_checks_as_a_run_from_storage() -> None:
    """The seal written after an answer out of order is the one a fresh reading computes."""
    asker = Asker()
    kit = kit_of(asker, SECRET)
    run = await kit.run_calls(turn(7, plain_every=2))
    step = await kit.resume(run, reply(run.requests[1]))
    assert step.seal is not None and step.seal != run.seal
    assert [c.id for c in step.calls] == ["c1", "c5"]
    stored = RunResult.from_json(step.to_json())
    assert stored.pending is not None
    last = await kit_of(Asker(), SECRET).resume(stored, reply(stored.requests[1]))
    assert last.status == "pending" and [c.id for c in last.calls] == ["c1"]
    wire = step.to_wire()
    wire["calls"].reverse()
    wire["requests"].reverse()
    wire["pending"] = wire["requests"][0]
    with pytest.raises(ResumeError) as info:
        await kit_of(Asker(), SECRET).resume(RunResult.from_wire(wire), reply(step.requests[0]))
    assert info.value.reason == "seal", "waiting calls out of call order"


def _drop_middle(wire: dict[str, Any]) -> None:
    del wire["calls"][1], wire["requests"][1]


def _swap_requests(wire: dict[str, Any]) -> None:
    wire["requests"][1], wire["requests"][2] = wire["requests"][2], wire["requests"][1]


def _move_to_results(wire: dict[str, Any]) -> None:
    call = wire["calls"].pop()
    wire["requests"].pop()
    wire["results"].append(
        {"id": call["id"], "name": call["name"], "result": {"output": "x", "isError": False}}
    )


@pytest.mark.parametrize("change", [_drop_middle, _swap_requests, _move_to_results])
async def test_a_waiting_set_changed_in_storage_is_refused(change: Any) -> None:
    asker = Asker()
    kit = kit_of(asker, SECRET)
    run = await kit.run_calls(turn(4))
    step = await kit.resume(run, reply(run.requests[0]))  # resealed incrementally, then stored
    wire = step.to_wire()
    change(wire)
    tampered = RunResult.from_wire(wire)
    assert tampered.pending is not None
    with pytest.raises(ResumeError) as info:
        await kit_of(Asker(), SECRET).resume(tampered, reply(tampered.pending))
    assert info.value.reason == "seal"


async def test_an_approval_that_asks_again_keeps_its_place_in_memory_and_in_storage() -> None:
    async def careful(args: dict[str, Any], ctx: ToolContext) -> Any:
        if ctx.answer is None:
            return pending(Request("input", f"Which {args['q']}?"))
        return f"{args['q']}={(ctx.answer.data or {}).get('v')}"

    gated = define_tool("gated", "", None, careful, needs_approval=True)
    kit = Toolkit([Asker().tool, gated], secret=SECRET)
    calls = [
        ToolCall("c0", "ask", {"q": "q0"}),
        ToolCall("c1", "gated", {"q": "q1"}),
        ToolCall("c2", "ask", {"q": "q2"}),
    ]
    run = await kit.run_calls(calls)
    approval = run.requests[1]
    assert approval.kind == "approval"
    step = await kit.resume(run, [Answer(approval.id, True), reply(run.requests[2])])
    assert [c.id for c in step.calls] == ["c0", "c1"] and step.requests[1].kind == "input"
    stored = RunResult.from_json(step.to_json())
    for given, other in ((step, kit), (stored, kit_of(Asker(), SECRET))):
        if other is not kit:
            other.register(define_tool("gated", "", None, careful, needs_approval=True))
        done = await other.resume(given, [reply(given.requests[1]), reply(given.requests[0])])
        assert [r.result.output for r in done.results] == ["q0=q0", "q1=q1", "q2=q2"]
