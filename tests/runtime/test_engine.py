"""The loop's engine (`toolnexus._engine`): its transitions, one event at a time, with no host.
Every host (Toolkit, store, Temporal, MCP) performs these steps; the loop vectors in
`idl/loop/` pin the same rules through each host (`tests/runtime/test_loop_vectors.py`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from toolnexus import Answer, Request, ResumeError, ToolCall, Toolkit, ToolResult, define_tool, pending
from toolnexus._book import check_answer  # the book refuses what the engine's unfit_answer names
from toolnexus._engine import (
    APPROVAL_PREFIX,
    STOP,
    Ask,
    Run,
    Settle,
    answered,
    approval_form,
    decided,
    drive,
    expired,
    gate,
    is_approval,
    lapsed,
    parse_time,
    ran,
    start,
    timed,
)

NOW = datetime(2030, 1, 1, tzinfo=UTC)
SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
CALL = ToolCall("c1", "pick", {"n": 1})


async def handler(args: dict[str, Any], ctx: Any) -> str:
    return "ran"


def question(expires_at: str = "") -> Request:
    return Request("input", "Which one?", id="pnd-1", expires_at=expires_at or None)


def approval(arguments: Any = None) -> Ask:
    tool = define_tool("wipe", "Wipes", SCHEMA, handler, needs_approval=True)
    call = ToolCall("c1", "wipe", {"n": 1} if arguments is None else arguments)
    asked = gate(tool, call)
    assert isinstance(asked, Request)
    return Ask(call, asked)


def test_a_call_starts_with_a_gated_first_run() -> None:
    assert start(CALL) == Run(CALL, gate=True)


def test_a_first_run_that_finishes_settles_and_one_that_asks_waits() -> None:
    done = ToolResult.ok("4")
    assert ran(start(CALL), done) == Settle(CALL, done)
    asks = ran(start(CALL), pending(question()))
    assert asks == Ask(CALL, question()) and not asks.approval


def test_an_answered_question_runs_again_with_the_answer() -> None:
    answer = Answer("pnd-1", True, {"text": "x"})
    assert answered(Ask(CALL, question()), answer, NOW) == Run(CALL, answer, question())


@pytest.mark.parametrize(
    ("answer", "expires_at", "reason"),
    [
        (None, "", "expired"),  # the time ran out before an answer came
        (Answer("pnd-1", False), "", "declined"),
        (Answer("pnd-1", False, reason="cancelled"), "", "cancelled"),
        (Answer("pnd-1", True), "2029-12-31T23:59:59Z", "expired"),  # ok, but too late
        (Answer("pnd-1", True), "not a time", "expired"),  # an unreadable expiry has passed
    ],
)
def test_a_refused_or_expired_question_is_declined_with_its_marker(
    answer: Answer | None, expires_at: str, reason: str
) -> None:
    step = answered(Ask(CALL, question(expires_at)), answer, NOW)
    assert isinstance(step, Settle) and step.result.is_error
    assert step.result.output == "declined/expired: Which one?"
    assert step.result.metadata == {"declined": {"request": "pnd-1", "reason": reason}}


def test_a_retry_that_asks_again_is_unresolved_naming_the_first_prompt() -> None:
    answer = Answer("pnd-1", True)
    retry = Run(CALL, answer, question())
    step = ran(retry, pending(Request("input", "And now?")))
    assert step == Settle(CALL, ToolResult.error("unresolved: Which one?"))
    done = ToolResult.ok("4")
    assert ran(retry, done) == Settle(CALL, done)


def test_an_approval_is_refused_naming_the_tool_and_why_unless_simply_declined() -> None:
    ask = approval()
    assert ask.request.id.startswith(APPROVAL_PREFIX) and ask.approval
    refused = answered(ask, Answer(ask.request.id, False), NOW)
    assert isinstance(refused, Settle)
    assert refused.result.output == "declined: the call to wipe was not approved"
    late = lapsed(ask, NOW)
    assert late.result.output == "declined: the call to wipe was not approved (expired)"
    assert late.result.metadata == {"declined": {"request": ask.request.id, "reason": "expired"}}


def test_an_approved_call_runs_for_the_first_time_with_the_arguments_approved() -> None:
    ask = approval()
    assert answered(ask, Answer(ask.request.id, True), NOW) == Run(ask.call)
    assert answered(ask, Answer(ask.request.id, True, {"note": "ok"}), NOW) == Run(ask.call)
    edited = answered(ask, Answer(ask.request.id, True, {"arguments": {"n": 2}}), NOW)
    assert edited == Run(ToolCall("c1", "wipe", {"n": 2}))


@pytest.mark.parametrize(
    ("edited", "what"),
    [(None, "null"), ([1], "a list"), ("{}", "a string"), (3, "a number"), (True, "a boolean")],
)
def test_edited_arguments_that_are_not_an_object_settle_the_call_unrun(edited: Any, what: str) -> None:
    ask = approval()
    step = answered(ask, Answer(ask.request.id, True, {"arguments": edited}), NOW)
    assert isinstance(step, Settle) and step.result.is_error
    assert step.result.output == (
        f"invalid arguments for wipe: $: the approval's edited arguments are {what}, not an object"
    )


def test_a_questions_answer_never_edits_the_arguments() -> None:
    answer = Answer("pnd-1", True, {"arguments": {"n": 99}})
    assert answered(Ask(CALL, question()), answer, NOW) == Run(CALL, answer, question())


def test_the_gate_asks_as_the_rule_says_over_checked_arguments() -> None:
    seen: list[Any] = []

    def big(args: dict[str, Any]) -> bool:
        seen.append(args)
        return bool(args["n"] > 10)

    tool = define_tool("wipe", "Wipes", SCHEMA, handler, needs_approval=big)
    assert gate(tool, ToolCall("c1", "wipe", {"n": 3})) is None
    arguments = {"n": 30}
    asked = gate(tool, ToolCall("c1", "wipe", arguments))
    assert isinstance(asked, Request) and asked.data == {"tool": "wipe", "arguments": {"n": 30}}
    assert asked.data["arguments"] is not arguments  # a copy: the caller's dict may change
    assert gate(tool, ToolCall("c1", "wipe", {"n": "x"})) is None  # fails the schema: the run refuses it
    assert seen == [{"n": 3}, {"n": 30}]

    def broken(args: dict[str, Any]) -> bool:
        raise RuntimeError("boom")

    call = ToolCall("c1", "w", {"n": 1})
    assert isinstance(gate(define_tool("w", "W", SCHEMA, handler, needs_approval=broken), call), Request)
    assert gate(define_tool("w", "W", SCHEMA, handler), call) is None
    assert gate(None, call) is None  # an unknown tool: nothing to approve


def _nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"k": value}
    return value


@pytest.mark.parametrize("depth", [99, 500, 5000])
async def test_arguments_too_deep_to_store_settle_unasked_and_never_raise(depth: int) -> None:
    tool = define_tool("send", "Sends", None, handler, needs_approval=True)
    step = gate(tool, ToolCall("c1", "send", _nested(depth)))
    run = await Toolkit([tool]).run_calls([ToolCall("c1", "send", _nested(depth))])
    assert run.status == "done" and run.results[0].result.is_error
    if depth == 99:  # checked, but too deep to wait for an answer: settled at the gate
        assert isinstance(step, ToolResult) and step.is_error
        assert step.output.startswith("the call cannot wait for its approval: ")
        assert "nested more than 100 levels" in step.output
        assert run.results[0].result == step
    else:  # too deep to check: not asked about, and the run refuses them before the handler
        assert step is None
        assert run.results[0].result.output == (
            "invalid arguments for send: $: nested too deeply to check"
            " (over the interpreter's recursion limit)"
        )


def test_arguments_that_fail_the_schema_are_never_put_to_a_person() -> None:
    always = define_tool("w", "W", SCHEMA, handler, needs_approval=True)
    assert gate(always, ToolCall("c1", "w", {"n": "three"})) is None  # the run refuses them
    asked = gate(always, ToolCall("c1", "w", {"n": 3}))
    assert isinstance(asked, Request) and asked.kind == "approval"


def test_a_question_that_cannot_be_stored_settles_as_an_error() -> None:
    deep = pending(Request("input", "Which?", data=_nested(150)))
    step = ran(start(CALL), deep)
    assert isinstance(step, Settle) and step.result.output.startswith("the call cannot wait for an answer: ")


def test_a_question_that_looks_like_an_approval_is_not_one() -> None:
    data = {"tool": "wipe", "arguments": {}}
    assert not is_approval("wipe", Request("approval", "?", id="pnd-1", data=data))  # not our id
    assert not is_approval("wipe", Request("input", "?", id="apr-1", data=data))
    assert not is_approval("other", Request("approval", "?", id="apr-1", data=data))
    assert not is_approval("wipe", Request("approval", "?", id="apr-1", data={**data, "x": 1}))
    assert is_approval("wipe", Request("approval", "?", id="apr-1", data=data))


def test_expiry_reads_rfc_3339_by_the_clock_given() -> None:
    assert parse_time("2030-01-01T00:00:00.1234567+01:00") == datetime(
        2029, 12, 31, 23, 0, 0, 123456, tzinfo=UTC
    )
    with pytest.raises(ValueError, match="RFC 3339"):
        parse_time("2030-01-01")
    later = question((NOW + timedelta(seconds=1)).isoformat())
    assert not expired(later, NOW) and expired(later, NOW + timedelta(seconds=1))
    assert not expired(question(), NOW)  # no expiry
    assert timed(Ask(CALL, later), NOW) is None
    assert isinstance(timed(Ask(CALL, later), NOW + timedelta(seconds=1)), Settle)


class Script:
    """Effects that record what the engine asked of them."""

    def __init__(self, results: list[ToolResult], answers: list[Any]) -> None:
        self.results, self.answers = results, answers
        self.log: list[Any] = []

    async def run(self, step: Run) -> ToolResult:
        self.log.append(("run", step.call.arguments, step.answer))
        return self.results.pop(0)

    async def ask(self, step: Ask) -> Any:
        self.log.append(("ask", step.request.id))
        return self.answers.pop(0)

    def now(self) -> datetime:
        return NOW

    def decide(self, step: Ask, answer: Any, after: Any) -> None:
        self.log.append(("decide", decided(step, answer, after).kind))


async def test_drive_performs_the_steps_until_the_call_settles() -> None:
    answer = Answer("pnd-1", True)
    effects = Script([pending(question()), ToolResult.ok("done")], [answer])
    outcome = await drive(start(CALL), effects)
    assert outcome == Settle(CALL, ToolResult.ok("done"))
    assert effects.log == [
        ("run", {"n": 1}, None),
        ("ask", "pnd-1"),
        ("decide", "respond"),
        ("run", {"n": 1}, answer),
    ]


async def test_drive_stops_on_an_ask_the_host_does_not_wait_for() -> None:
    effects = Script([pending(question())], [STOP])
    assert await drive(start(CALL), effects) == Ask(CALL, question())


async def test_drive_never_asks_a_request_that_has_expired() -> None:
    effects = Script([pending(question("2000-01-01T00:00:00Z"))], [])
    outcome = await drive(start(CALL), effects)
    assert isinstance(outcome, Settle) and outcome.result.output == "declined/expired: Which one?"
    assert effects.log[0][0] == "run" and effects.log[1:] == [("decide", "expire")], "never asked"


def _approval() -> Ask:
    call = ToolCall("c1", "w", {"n": 3})
    asked = gate(define_tool("w", "W", SCHEMA, handler, needs_approval=True), call)
    assert isinstance(asked, Request)
    return Ask(call, asked)


def test_an_approval_answered_with_a_key_it_does_not_take_is_refused_naming_it() -> None:
    step = _approval()
    with pytest.raises(ResumeError) as caught:
        check_answer(step, Answer(step.request.id, True, data={"args": {"n": 4}}))
    assert caught.value.reason == "mismatch"
    assert "with data holding 'args': an approval's data holds only 'arguments'" in str(caught.value)
    # What it takes: edited arguments, nothing, or anything on a refusal (its data is not read).
    check_answer(step, Answer(step.request.id, True, data={"arguments": {"n": 4}}))
    check_answer(step, Answer(step.request.id, True))
    check_answer(step, Answer(step.request.id, False, data={"why": "not today"}))
    # A tool's own question takes any data.
    question = Ask(CALL, Request("input", "Which?", id="pnd-1"))
    check_answer(question, Answer("pnd-1", True, data={"args": 1}))


def test_the_arguments_asked_sent_back_are_an_approval_not_an_edit() -> None:
    step = _approval()
    same = Answer(step.request.id, True, data={"arguments": {"n": 3}})
    after = answered(step, same, NOW)
    assert after == Run(step.call)
    assert decided(step, same, after).kind == "approve"
    other = Answer(step.request.id, True, data={"arguments": {"n": 3.0}})  # another number, as JSON
    assert decided(step, other, answered(step, other, NOW)).kind == "edit"


def test_the_approval_form_declares_the_arguments_to_edit() -> None:
    step = _approval()
    form = approval_form(step.request)
    assert form == {
        "type": "object",
        "properties": {
            "arguments": {
                "type": "string",
                "title": "Arguments",
                "description": "The arguments w runs with, as JSON: edit them to run it with others.",
                "default": '{"n":3}',
            }
        },
    }
    assert approval_form(Request("input", "Which?", id="pnd-1", data={"tool": "w", "arguments": {}})) is None
