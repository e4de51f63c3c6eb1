"""The toolkit: the registry, `execute`, and every path a suspension can take through the loop."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.conftest import SECRET
from toolnexus import (
    Answer,
    Request,
    ResumeError,
    RunResult,
    Tool,
    ToolCall,
    ToolContext,
    Toolkit,
    ToolResult,
    define_tool,
    pending,
    pending_of,
    tool,
)
from toolnexus._policies import PolicyMemory

PAST = "2000-01-01T00:00:00Z"
FUTURE = "2999-01-01T00:00:00Z"


def declined(prompt: str, reason: str, request: Request | None) -> ToolResult:
    """The loop's result for a refused or expired request, with its host-only marker."""
    assert request is not None
    marker = {"declined": {"request": request.id, "reason": reason}}
    return ToolResult.error(f"declined/expired: {prompt}").with_metadata(marker)


def ok_tool(name: str, output: str) -> Tool:
    return define_tool(name, f"returns {output}", None, lambda args, ctx: output)


class Gate:
    """A tool that suspends on `prompt` until it is called with an answer; it records every call."""

    def __init__(self, name: str = "delete_files", prompt: str = "Delete 3 files?", **request: Any) -> None:
        self.prompt = prompt
        self.request = request
        self.answers: list[Answer | None] = []
        self.tool = define_tool(name, "suspends first", None, self.handler)

    async def handler(self, args: dict[str, Any], ctx: ToolContext) -> Any:
        self.answers.append(ctx.answer)
        if ctx.answer is None:
            return pending(Request("approval", self.prompt, **self.request))
        return f"done with {args} ({(ctx.answer.data or {}).get('note', 'no note')})"


class Asker:
    """A `wait_for` that answers every request the same way and records the requests."""

    def __init__(self, ok: bool, reason: Any = None, data: dict[str, Any] | None = None) -> None:
        self.ok, self.reason, self.data = ok, reason, data
        self.asked: list[Request] = []

    def __call__(self, request: Request) -> Answer:
        self.asked.append(request)
        return Answer(request.id, self.ok, data=self.data, reason=self.reason)


# -- registry -------------------------------------------------------------------------


def test_register_tools_and_get():
    a, b = ok_tool("alpha", "a"), ok_tool("beta", "b")
    kit = Toolkit([a])
    assert kit.register(b) is b
    assert kit.tools() == [a, b]
    assert kit.get("alpha") is a
    assert kit.get("gamma") is None


def test_duplicate_names_are_rejected():
    kit = Toolkit([ok_tool("alpha", "a")])
    with pytest.raises(ValueError, match="a tool named 'alpha' is already registered"):
        kit.register(ok_tool("alpha", "again"))
    with pytest.raises(ValueError, match="already registered"):
        Toolkit([ok_tool("x", "1"), ok_tool("x", "2")])


def test_names_are_normalised_on_registration():
    original = ok_tool("files.read v2", "r")
    kit = Toolkit([original])
    registered = kit.tools()[0]
    assert registered.name == "files_read_v2"
    assert original.name == "files.read v2", "the caller's tool is left as it was"
    assert kit.get("files_read_v2") is registered
    assert kit.get("files.read v2") is registered, "get normalises the name it is given"
    assert registered.spec().name == "files_read_v2"
    assert Toolkit([ok_tool("ok-name_9", "x")]).tools()[0].name == "ok-name_9"


def test_names_that_collide_after_normalising_are_rejected():
    kit = Toolkit([ok_tool("a.b", "1")])
    with pytest.raises(ValueError, match=r"'a_b' \(normalised from 'a b'\) is already registered"):
        kit.register(ok_tool("a b", "2"))


def test_register_refuses_empty_names_and_non_tools():
    with pytest.raises(ValueError, match="non-empty name"):
        Toolkit([ok_tool("", "x")])
    with pytest.raises(TypeError, match="expected a Tool"):
        Toolkit([lambda: None])  # type: ignore[list-item]


def test_secret_must_be_long_enough_bytes():
    with pytest.raises(ValueError, match="at least 16"):
        Toolkit(secret=b"short")
    with pytest.raises(ValueError, match="bytes"):
        Toolkit(secret="0123456789abcdef0123")  # type: ignore[arg-type]


# -- execute ----------------------------------------------------------------------------


async def test_execute_runs_the_tool():
    @tool
    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    kit = Toolkit([add])
    assert (await kit.execute("add", {"a": 2, "b": 3})).output == "5"
    bad = await kit.execute("add", {"a": "x"})
    assert bad.is_error and "invalid arguments for add" in bad.output


async def test_unknown_tool_is_an_error_result_naming_the_tools():
    kit = Toolkit([ok_tool("alpha", "a"), ok_tool("beta", "b")])
    result = await kit.execute("gamma", {})
    assert result.is_error
    assert result.output == "Unknown tool: gamma"
    empty = await Toolkit().execute("x", {})
    assert empty.output == "Unknown tool: x"


async def test_a_suspension_is_not_counted_as_an_error():
    seen: list[tuple[str, bool]] = []
    gate = Gate()
    failing = define_tool("fail", "", None, lambda args, ctx: 1 / 0)
    kit = Toolkit(
        [gate.tool, failing, ok_tool("fine", "ok")],
        on_result=lambda name, result: seen.append((name, pending_of(result) is not None)),
    )
    await kit.execute("delete_files", {})
    assert kit.error_count == 0, "the suspension is an error result, but not a failure"
    await kit.execute("fine", {})
    assert kit.error_count == 0
    await kit.execute("fail", {})
    await kit.execute("missing", {})
    assert kit.error_count == 2
    assert seen == [("delete_files", True), ("fine", False), ("fail", False), ("missing", False)]


async def test_declined_and_unresolved_are_not_tool_failures():
    gate = Gate()
    kit = Toolkit([gate.tool])
    run = await kit.run_calls([ToolCall("c1", "delete_files", {})], wait_for=Asker(ok=False))
    assert run.results[0].result.is_error
    assert kit.error_count == 0


# -- running a turn -----------------------------------------------------------------


async def test_calls_run_concurrently_and_results_keep_call_order():
    in_flight, peak = 0, 0

    async def slow(args: dict[str, Any], ctx: ToolContext) -> str:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        for _ in range(3):
            await asyncio.sleep(0)
        in_flight -= 1
        return f"slow {args['n']}"

    kit = Toolkit([define_tool("slow", "", None, slow), ok_tool("fast", "quick")])
    calls = [ToolCall("c1", "slow", {"n": 1}), ToolCall("c2", "fast", {}), ToolCall("c3", "slow", {"n": 3})]
    run = await kit.run_calls(calls)
    assert peak == 2, "both slow calls were in flight at once"
    assert run.status == "done" and run.pending is None and run.calls == []
    assert [(r.id, r.name, r.result.output) for r in run.results] == [
        ("c1", "slow", "slow 1"),
        ("c2", "fast", "quick"),
        ("c3", "slow", "slow 3"),
    ]
    assert "calls" not in run.to_wire() and "seal" not in run.to_wire()


async def test_no_calls_is_a_done_run():
    run = await Toolkit().run_calls([])
    assert run.to_wire() == {"status": "done", "results": []}


# -- the suspension table: with wait_for ------------------------------------------------


async def test_wait_for_ok_reruns_the_call_once_with_the_answer():
    gate = Gate()
    asker = Asker(ok=True, data={"note": "approved by ada"})
    kit = Toolkit([gate.tool])
    run = await kit.run_calls([ToolCall("c1", "delete_files", {"n": 3})], wait_for=asker)
    assert run.status == "done"
    assert run.results[0].result == ToolResult.ok("done with {'n': 3} (approved by ada)")
    assert [a.id if a else None for a in gate.answers] == [None, asker.asked[0].id]
    assert asker.asked[0].prompt == "Delete 3 files?"


async def test_wait_for_can_be_async():
    gate = Gate()

    async def approve(request: Request) -> Answer:
        await asyncio.sleep(0)
        return Answer(request.id, True)

    run = await Toolkit([gate.tool]).run_calls([ToolCall("c1", "delete_files", {})], wait_for=approve)
    assert run.results[0].result.output == "done with {} (no note)"


@pytest.mark.parametrize("reason", ["declined", "expired", "cancelled", None])
async def test_wait_for_not_ok_is_declined_or_expired(reason):
    gate = Gate()
    run = await Toolkit([gate.tool]).run_calls(
        [ToolCall("c1", "delete_files", {})], wait_for=Asker(ok=False, reason=reason)
    )
    assert run.status == "done"
    result = run.results[0].result
    assert result.output == "declined/expired: Delete 3 files?" and result.is_error
    assert result.metadata is not None
    assert result.metadata["declined"]["reason"] == (reason or "declined"), "a denial, not a failure"
    assert gate.answers == [None], "the call is not run again"


async def test_a_passed_expires_at_is_expired_without_asking():
    gate = Gate(expires_at=PAST)
    asker = Asker(ok=True)
    run = await Toolkit([gate.tool]).run_calls([ToolCall("c1", "delete_files", {})], wait_for=asker)
    assert asker.asked == [], "wait_for is not called"
    result = run.results[0].result
    assert result.output == "declined/expired: Delete 3 files?"
    assert result.metadata is not None and result.metadata["declined"]["reason"] == "expired"
    assert gate.answers == [None]


async def test_a_future_expires_at_is_asked():
    gate = Gate(expires_at=FUTURE)
    asker = Asker(ok=True)
    run = await Toolkit([gate.tool]).run_calls([ToolCall("c1", "delete_files", {})], wait_for=asker)
    assert [r.expires_at for r in asker.asked] == [FUTURE]
    assert run.results[0].result == ToolResult.ok("done with {} (no note)")
    assert len(gate.answers) == 2 and gate.answers[1] is not None and gate.answers[1].ok


async def test_a_second_suspension_is_unresolved():
    async def always(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        prompt = "Sign in again" if ctx.answer else "Sign in"
        return pending(Request("authorization", prompt, url="https://example.com/login"))

    kit = Toolkit([define_tool("mail", "", None, always)])
    run = await kit.run_calls([ToolCall("c1", "mail", {})], wait_for=Asker(ok=True))
    # Every upstream port names the original request, not the second one.
    assert run.results[0].result == ToolResult.error("unresolved: Sign in")
    assert kit.error_count == 0


async def test_wait_for_is_asked_in_call_order_and_other_results_are_kept():
    first, second = Gate("first", "First?"), Gate("second", "Second?")
    asker = Asker(ok=True)
    kit = Toolkit([first.tool, ok_tool("plain", "p"), second.tool])
    calls = [ToolCall("c1", "second", {}), ToolCall("c2", "plain", {}), ToolCall("c3", "first", {})]
    run = await kit.run_calls(calls, wait_for=asker)
    assert [r.prompt for r in asker.asked] == ["Second?", "First?"]
    assert [(r.id, r.result.output) for r in run.results] == [
        ("c1", "done with {} (no note)"),
        ("c2", "p"),
        ("c3", "done with {} (no note)"),
    ]


async def test_wait_for_answering_another_request_is_an_error():
    gate = Gate()
    with pytest.raises(ResumeError, match="wait_for answered 'pnd-other'") as info:
        await Toolkit([gate.tool]).run_calls(
            [ToolCall("c1", "delete_files", {})], wait_for=lambda request: Answer("pnd-other", True)
        )
    assert info.value.reason == "mismatch"
    assert gate.answers == [None]


async def test_wait_for_must_return_an_answer():
    gate = Gate()
    with pytest.raises(TypeError, match="wait_for must return an Answer, got bool"):
        await Toolkit([gate.tool]).run_calls([ToolCall("c1", "delete_files", {})], wait_for=lambda r: True)


# -- the suspension table: without wait_for, and resume ------------------------------------


async def test_no_wait_for_stops_on_the_first_suspension_in_call_order():
    late, early = Gate("late", "Late?"), Gate("early", "Early?")
    kit = Toolkit([late.tool, early.tool, ok_tool("plain", "p")])
    calls = [ToolCall("c1", "plain", {}), ToolCall("c2", "early", {"x": 1}), ToolCall("c3", "late", {})]
    run = await kit.run_calls(calls)
    assert run.status == "pending"
    assert run.pending is not None and run.pending.prompt == "Early?"
    assert [(r.id, r.result.output) for r in run.results] == [("c1", "p")]
    assert [(c.id, c.name, c.arguments) for c in run.calls] == [("c2", "early", {"x": 1}), ("c3", "late", {})]
    assert run.order == ["c1", "c2", "c3"]
    assert run.seal is None and "seal" not in run.to_wire()
    again = RunResult.from_json(run.to_json())
    assert again.to_wire() == run.to_wire(), "plain data: it survives the wire"


async def test_resume_continues_the_run_in_another_toolkit():
    gate = Gate()
    calls = [ToolCall("c1", "plain", {}), ToolCall("c2", "delete_files", {"n": 3})]
    stored = (await Toolkit([gate.tool, ok_tool("plain", "p")]).run_calls(calls)).to_json()

    later = Gate()  # a new process: new tool objects, new toolkit
    kit = Toolkit([later.tool, ok_tool("plain", "p")])
    run = RunResult.from_json(stored)
    assert run.pending is not None
    answer = Answer(run.pending.id, True, data={"note": "yes"})
    done = await kit.resume(run, answer)
    assert done.status == "done" and done.pending is None and done.calls == []
    assert [(r.id, r.result.output) for r in done.results] == [
        ("c1", "p"),
        ("c2", "done with {'n': 3} (yes)"),
    ]
    assert later.answers == [answer], "the suspended call re-ran once, with the answer"


async def test_several_suspensions_surface_one_at_a_time():
    one, two = Gate("one", "One?"), Gate("two", "Two?")
    kit = Toolkit([one.tool, two.tool, ok_tool("plain", "p")])
    calls = [ToolCall("c1", "one", {}), ToolCall("c2", "plain", {}), ToolCall("c3", "two", {})]
    first = await kit.run_calls(calls)
    assert first.pending is not None and first.pending.prompt == "One?"
    assert [c.id for c in first.calls] == ["c1", "c3"]

    second = await kit.resume(first, Answer(first.pending.id, True))
    assert second.status == "pending"
    assert second.pending is not None and second.pending.prompt == "Two?"
    assert second.pending.id != first.pending.id
    assert [c.id for c in second.calls] == ["c3"]
    assert [r.id for r in second.results] == ["c1", "c2"], "results stay in call order"

    third = await kit.resume(second, Answer(second.pending.id, False, reason="declined"))
    assert third.status == "done"
    assert [(r.id, r.result.output) for r in third.results] == [
        ("c1", "done with {} (no note)"),
        ("c2", "p"),
        ("c3", "declined/expired: Two?"),
    ]
    assert third.order == [], "a done run keeps no order"
    assert [a is None for a in one.answers] == [True, False], "one: to suspend, then with its answer"
    assert two.answers == [None], "two: to suspend only; declined, it does not run again"


async def test_a_waiting_call_is_asked_its_own_request_and_not_run_again():
    one, two = Gate("one", "One?"), Gate("two", "Two?", expires_at=FUTURE)
    kit = Toolkit([one.tool, two.tool])
    first = await kit.run_calls([ToolCall("c1", "one", {}), ToolCall("c2", "two", {"n": 2})])
    assert [r.prompt for r in first.requests] == ["One?", "Two?"]
    assert first.requests[0] == first.pending
    asked_of_two = first.requests[1]

    second = await kit.resume(first, Answer(first.pending.id, True))
    assert second.pending == asked_of_two, "the same request, id and expiry included"
    assert second.requests == [asked_of_two]
    assert two.answers == [None], "two was not run again to ask"

    done = await kit.resume(second, Answer(asked_of_two.id, True, data={"note": "fine"}))
    assert [(r.id, r.result.output) for r in done.results] == [
        ("c1", "done with {} (no note)"),
        ("c2", "done with {'n': 2} (fine)"),
    ]
    assert [a is None for a in two.answers] == [True, False], "two ran twice in all: to suspend, to finish"


async def test_a_waiting_calls_stored_request_that_expired_is_expired():
    one, two = Gate("one", "One?"), Gate("two", "Two?", expires_at=FUTURE)
    kit = Toolkit([one.tool, two.tool])
    first = await kit.run_calls([ToolCall("c1", "one", {}), ToolCall("c2", "two", {})])
    second = await kit.resume(first, Answer(first.pending.id, True))
    wire = second.to_wire()
    wire["pending"]["expiresAt"] = wire["requests"][0]["expiresAt"] = PAST
    done = await kit.resume(RunResult.from_wire(wire), Answer(second.pending.id, True))
    assert done.results[1].result.output == "declined/expired: Two?"
    assert len(two.answers) == 1


async def test_a_run_stored_without_requests_runs_its_other_waiting_calls_again():
    one, two = Gate("one", "One?"), Gate("two", "Two?")
    kit = Toolkit([one.tool, two.tool])
    first = await kit.run_calls([ToolCall("c1", "one", {}), ToolCall("c2", "two", {})])
    wire = first.to_wire()
    del wire["requests"]  # as a run stored before `requests` existed
    second = await kit.resume(RunResult.from_wire(wire), Answer(first.pending.id, True))
    assert second.pending is not None and second.pending.prompt == "Two?"
    assert second.pending.id != first.requests[1].id, "asked afresh"
    assert len(two.answers) == 2


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda w: w["requests"].pop(), id="one-request-short"),
        pytest.param(lambda w: w["requests"].reverse(), id="first-is-not-pending"),
    ],
)
async def test_requests_that_do_not_match_the_waiting_calls_are_refused(change):
    one, two = Gate("one", "One?"), Gate("two", "Two?")
    kit = Toolkit([one.tool, two.tool])
    first = await kit.run_calls([ToolCall("c1", "one", {}), ToolCall("c2", "two", {})])
    wire = first.to_wire()
    change(wire)
    with pytest.raises(ResumeError) as info:
        await kit.resume(RunResult.from_wire(wire), Answer(first.pending.id, True))
    assert info.value.reason == "not_pending"
    assert one.answers == [None], "nothing ran"


async def test_the_calls_of_a_turn_need_distinct_ids():
    kit = Toolkit([ok_tool("plain", "p")])
    with pytest.raises(ValueError, match="distinct ids"):
        await kit.run_calls([ToolCall("c1", "plain", {}), ToolCall("c1", "plain", {})])


async def test_resume_with_a_refusal_is_declined():
    gate = Gate()
    kit = Toolkit([gate.tool])
    run = await kit.run_calls([ToolCall("c1", "delete_files", {})])
    assert run.pending is not None
    done = await kit.resume(run, Answer(run.pending.id, False, reason="expired"))
    assert done.results[0].result == declined("Delete 3 files?", "expired", run.pending)
    assert gate.answers == [None]


async def test_a_request_expired_when_asked_is_settled_at_once_without_waiting():
    gate = Gate(expires_at=PAST)
    kit = Toolkit([gate.tool])
    run = await kit.run_calls([ToolCall("c1", "delete_files", {})])
    assert run.status == "done" and not run.requests, "nothing to wait for: it had expired"
    result = run.results[0].result
    assert result.output == "declined/expired: Delete 3 files?"
    assert result.metadata is not None and result.metadata["declined"]["reason"] == "expired"
    assert gate.answers == [None]


async def test_resume_after_expires_at_is_expired_even_when_ok():
    now = [datetime(2026, 12, 1, 12, 0, tzinfo=UTC)]
    gate = Gate(expires_at="2026-12-01T12:30:00Z")
    kit = Toolkit([gate.tool], clock=lambda: now[0])
    run = await kit.run_calls([ToolCall("c1", "delete_files", {})])
    assert run.pending is not None and run.pending.expires_at == "2026-12-01T12:30:00Z"
    now[0] += timedelta(hours=1)  # the person answers after the request's time
    done = await kit.resume(run, Answer(run.pending.id, True))
    assert done.results[0].result == declined("Delete 3 files?", "expired", run.pending)
    assert gate.answers == [None]


async def test_resume_that_suspends_again_is_unresolved():
    async def always(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        return pending(Request("input", "Which folder?" if ctx.answer else "Which file?"))

    kit = Toolkit([define_tool("pick", "", None, always)])
    run = await kit.run_calls([ToolCall("c1", "pick", {})])
    assert run.pending is not None
    done = await kit.resume(run, Answer(run.pending.id, True))
    assert done.status == "done"
    assert done.results[0].result == ToolResult.error("unresolved: Which file?")


async def test_a_mismatched_answer_is_refused_and_the_run_is_left_as_it_was():
    gate = Gate()
    kit = Toolkit([gate.tool])
    run = await kit.run_calls([ToolCall("c1", "delete_files", {})])
    assert run.pending is not None
    with pytest.raises(ResumeError, match="does not answer the pending request") as info:
        await kit.resume(run, Answer("pnd-someone-else", True))
    assert info.value.reason == "mismatch"
    assert gate.answers == [None], "nothing ran"
    done = await kit.resume(run, Answer(run.pending.id, True))
    assert done.status == "done"


async def test_a_replayed_answer_is_refused():
    gate = Gate()
    kit = Toolkit([gate.tool])
    run = await kit.run_calls([ToolCall("c1", "delete_files", {})])
    assert run.pending is not None
    answer = Answer(run.pending.id, True)
    done = await kit.resume(run, answer)

    with pytest.raises(ResumeError, match="already answered") as info:
        await kit.resume(run, answer)  # the old copy of the run, again
    assert info.value.reason == "replayed"
    with pytest.raises(ResumeError) as info:
        await kit.resume(RunResult.from_json(run.to_json()), answer)  # a stored copy of it
    assert info.value.reason == "replayed"
    assert len(gate.answers) == 2, "the tool ran once with the answer, not again"

    # Another process, given the run that resuming returned: it waits on nothing.
    with pytest.raises(ResumeError, match="waits on no request") as info:
        await Toolkit([Gate().tool]).resume(done, answer)
    assert info.value.reason == "not_pending"


async def test_a_replayed_answer_on_the_next_pending_run_is_refused_in_another_process():
    one, two = Gate("one", "One?"), Gate("two", "Two?")
    calls = [ToolCall("c1", "one", {}), ToolCall("c2", "two", {})]
    first = await Toolkit([one.tool, two.tool]).run_calls(calls)
    assert first.pending is not None
    old = Answer(first.pending.id, True)
    second = await Toolkit([one.tool, two.tool]).resume(first, old)
    fresh = Toolkit([Gate("one").tool, Gate("two").tool])
    with pytest.raises(ResumeError) as info:
        await fresh.resume(second, old)
    assert info.value.reason == "mismatch", "the pending id moved on, so the old answer fits nothing"


async def test_concurrent_resumes_of_one_run_run_the_tool_once():
    gate = Gate()
    kit = Toolkit([gate.tool])
    run = await kit.run_calls([ToolCall("c1", "delete_files", {})])
    assert run.pending is not None
    answer = Answer(run.pending.id, True)
    outcomes = await asyncio.gather(kit.resume(run, answer), kit.resume(run, answer), return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["ResumeError", "RunResult"]
    assert len(gate.answers) == 2


async def test_a_done_run_cannot_be_resumed():
    done = RunResult("done", [])
    with pytest.raises(ResumeError) as info:
        await Toolkit().resume(done, Answer("pnd-x", True))
    assert info.value.reason == "not_pending"


# -- the suspension table: sealing -------------------------------------------------------


async def sealed_run(kit: Toolkit) -> RunResult:
    calls = [ToolCall("c1", "plain", {}), ToolCall("c2", "delete_files", {"paths": ["a", "b", "c"]})]
    return await kit.run_calls(calls)


def sealed_kit() -> tuple[Toolkit, Gate]:
    gate = Gate()
    return Toolkit([gate.tool, ok_tool("plain", "p")], secret=SECRET), gate


async def test_a_sealed_run_resumes_in_another_toolkit_with_the_same_secret():
    kit, _ = sealed_kit()
    run = await sealed_run(kit)
    assert run.seal is not None and run.seal.startswith("v4.hmac-sha256.default.")
    assert run.to_wire()["seal"] == run.seal
    # Stored pretty-printed with the keys reordered: the seal is over the values, not the text.
    stored = json.dumps(json.loads(run.to_json()), indent=2, sort_keys=True)
    other, gate = sealed_kit()
    assert run.pending is not None
    done = await other.resume(RunResult.from_json(stored), Answer(run.pending.id, True))
    assert done.status == "done" and done.seal is None
    assert len(gate.answers) == 1


def _flip(text: str, at: int) -> str:
    """`text` with the character at index `at` replaced by another, so it always changes
    (a fixed replacement may equal what is there: the seal's last base64 digits often are "A")."""
    i = at % len(text)
    return text[:i] + ("B" if text[i] != "B" else "C") + text[i + 1 :]


def altered(run: RunResult, change: Any) -> RunResult:
    wire = json.loads(run.to_json())
    change(wire)
    return RunResult.from_wire(wire)


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda w: w["pending"].update(prompt="List 3 files?"), id="pending-prompt"),
        pytest.param(lambda w: w["pending"].update(expiresAt=FUTURE), id="pending-expiry-added"),
        pytest.param(lambda w: w["calls"][0]["arguments"].update(paths=["/"]), id="call-arguments"),
        pytest.param(lambda w: w["calls"][0].update(name="plain"), id="call-name"),
        pytest.param(
            lambda w: w["calls"].append({"id": "c9", "name": "plain", "arguments": {}}), id="call-added"
        ),
        pytest.param(lambda w: w["results"][0]["result"].update(output="forged"), id="finished-result"),
        pytest.param(lambda w: w["results"][0]["result"].update(metadata={"x": 1}), id="finished-metadata"),
        pytest.param(lambda w: w["results"].clear(), id="finished-result-dropped"),
        pytest.param(lambda w: w.pop("requests"), id="requests-dropped"),
        pytest.param(lambda w: w["requests"][0].update(prompt="List 3 files?"), id="requests-prompt"),
        pytest.param(lambda w: w.pop("seal"), id="seal-removed"),
        pytest.param(lambda w: w.update(seal=_flip(w["seal"], -5)), id="seal-altered"),
        pytest.param(lambda w: w.update(seal="v1.hmac-sha256.é"), id="seal-not-ascii"),
    ],
)
async def test_an_altered_or_unsealed_run_is_refused(change):
    kit, gate = sealed_kit()
    run = altered(await sealed_run(kit), change)
    assert run.pending is not None
    with pytest.raises(ResumeError) as info:
        await kit.resume(run, Answer(run.pending.id, True))
    assert info.value.reason == "seal"
    assert gate.answers == [None], "nothing ran"


async def test_a_sealed_run_without_requests_is_refused():
    """Only seal versions 1 and 2, retired, sealed a run without `requests`; a version-4 seal
    always covers them, so a sealed run without them was altered."""
    kit, gate = sealed_kit()
    run = await sealed_run(kit)
    wire = run.to_wire()
    del wire["requests"]
    with pytest.raises(ResumeError, match="does not match") as info:
        await kit.resume(RunResult.from_wire(wire), Answer(run.pending.id, True))
    assert info.value.reason == "seal" and gate.answers == [None], "nothing ran"


async def test_a_seal_forged_with_another_secret_is_refused():
    gate = Gate()
    forger = Toolkit([gate.tool, ok_tool("plain", "p")], secret=b"not-the-host-secret-0123456789")
    forged = await sealed_run(forger)
    assert forged.pending is not None
    kit, _ = sealed_kit()
    with pytest.raises(ResumeError, match="seal does not match") as info:
        await kit.resume(forged, Answer(forged.pending.id, True))
    assert info.value.reason == "seal"


async def test_a_sealed_run_needs_a_toolkit_with_a_secret():
    kit, _ = sealed_kit()
    run = await sealed_run(kit)
    assert run.pending is not None
    with pytest.raises(ResumeError, match="no secret") as info:
        await Toolkit([Gate().tool]).resume(run, Answer(run.pending.id, True))
    assert info.value.reason == "seal"


@pytest.mark.parametrize("expires_at", ["tomorrow", "2026-12-31 23:59:59", "2025-06-30"])
async def test_an_unreadable_expires_at_is_still_a_suspension_and_counts_as_passed(expires_at: str) -> None:
    """As the upstream ports send it: the request survives the wire, and the loop declines it."""
    suspension = ToolResult.from_json(pending(Request("approval", "Go?", expires_at=expires_at)).to_json())
    request = pending_of(suspension)
    assert request is not None and request.expires_at == expires_at
    gate = Gate(expires_at=expires_at)
    run = await Toolkit([gate.tool]).run_calls([ToolCall("c1", "delete_files", {})], wait_for=Asker(ok=True))
    assert run.results[0].result.output == "declined/expired: Delete 3 files?"
    assert gate.answers == [None]


async def test_an_empty_expires_at_means_no_expiry() -> None:
    gate = Gate(expires_at="")
    asker = Asker(ok=True)
    run = await Toolkit([gate.tool]).run_calls([ToolCall("c1", "delete_files", {})], wait_for=asker)
    assert len(asker.asked) == 1, "asked: an empty expiry has not passed"
    assert run.results[0].result == ToolResult.ok("done with {} (no note)")


# -- a resume's decisions: kept and logged as one unit, or not at all ---------------------------


class _FailingLog:
    """A decision log whose writes fail while `full` is set (its disk is full)."""

    def __init__(self) -> None:
        self.full = True
        self.entries: list[str] = []

    def record(self, decision: Any, *, principal: str | None, at: datetime) -> None:
        if self.full:
            raise OSError("database or disk is full")
        self.entries.append(decision.kind)


class _FailingPolicies(PolicyMemory):
    """A policy store whose `keep` fails while `full` is set."""

    full = True

    def keep(self, policy: Any) -> None:
        if self.full:
            raise OSError("database or disk is full")
        super().keep(policy)


@pytest.mark.parametrize("failing", ["log", "policies"])
async def test_a_resume_whose_decision_write_fails_is_not_remembered_as_taken(failing: str) -> None:
    ran: list[object] = []
    refund = define_tool(
        "refund", "R", None, lambda args, ctx: ran.append(args) or "refunded", needs_approval=True
    )
    log = _FailingLog()
    log.full = failing == "log"
    policies = _FailingPolicies()
    policies.full = failing == "policies"
    kit = Toolkit([refund], secret=SECRET, policy_store=policies, decision_log=log)
    run = await kit.run_calls([ToolCall("c1", "refund", {})])
    stored = run.to_json()
    answer = Answer(run.pending.id, True, scope="tool")
    with pytest.raises(OSError, match="disk is full"):
        await kit.resume(RunResult.from_json(stored), answer)
    assert ran == [] and log.entries == [] and policies.policies() == [], "nothing of the decision kept"
    log.full = policies.full = False
    done = await kit.resume(RunResult.from_json(stored), answer)
    assert done.results[0].result.output == "refunded" and len(ran) == 1, "taken now, not `replayed`"
    assert log.entries == ["approve"] and len(policies.policies()) == 1


class _CountingPolicies(PolicyMemory):
    def __init__(self) -> None:
        super().__init__()
        self.reads: list[str | None] = []

    def policies(self, tool: str | None = None) -> list[Any]:
        self.reads.append(tool)
        return super().policies(tool)


async def test_the_policy_store_is_read_only_for_calls_that_ask_an_approval() -> None:
    """A durable store's `policies` is a query: a call that asks nothing does not make one."""
    refund = define_tool("refund", "R", None, lambda args, ctx: "refunded", needs_approval=True)
    add = define_tool("add", "A", None, lambda args, ctx: "3")
    policies = _CountingPolicies()
    kit = Toolkit([refund, add], secret=SECRET, policy_store=policies)
    run = await kit.run_calls([ToolCall(f"a{i}", "add", {}) for i in range(5)])
    assert run.status == "done" and policies.reads == []
    run = await kit.run_calls([ToolCall("r1", "refund", {}), ToolCall("a9", "add", {})])
    assert run.status == "pending" and policies.reads == ["refund"]
