"""The loop rule's decisions (`toolnexus._loop`), which `Toolkit`, the Temporal workflow and
the MCP server all apply: what ends a suspended call, and with which result."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from toolnexus import Answer, Request, ToolResult, define_tool, pending
from toolnexus._loop import (
    APPROVAL_PREFIX,
    after_retry,
    approval_for,
    approved_arguments,
    expired,
    is_approval,
    parse_time,
    verdict,
)

NOW = datetime(2030, 1, 1, tzinfo=UTC)
SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


async def handler(args: dict[str, Any], ctx: Any) -> str:
    return "ran"


def question(expires_at: str = "") -> Request:
    return Request("input", "Which one?", id="pnd-1", expires_at=expires_at or None)


def test_an_answered_question_runs_again() -> None:
    assert verdict("pick", question(), Answer("pnd-1", True), NOW) is None


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
    ended = verdict("pick", question(expires_at), answer, NOW)
    assert ended is not None and ended.is_error
    assert ended.output == "declined/expired: Which one?"
    assert ended.metadata == {"declined": {"request": "pnd-1", "reason": reason}}


def test_an_approval_is_refused_naming_the_tool_and_why_unless_simply_declined() -> None:
    tool = define_tool("wipe", "Wipes", SCHEMA, handler, needs_approval=True)
    asked = approval_for(tool, {"n": 1})
    assert asked is not None and asked.id.startswith(APPROVAL_PREFIX) and is_approval("wipe", asked)
    refused = verdict("wipe", asked, Answer(asked.id, False), NOW)
    assert refused is not None and refused.output == "declined: the call to wipe was not approved"
    expired_ = verdict("wipe", asked, None, NOW)
    assert expired_ is not None and expired_.output == "declined: the call to wipe was not approved (expired)"
    assert expired_.metadata == {"declined": {"request": asked.id, "reason": "expired"}}
    assert verdict("wipe", asked, Answer(asked.id, True), NOW) is None


def test_an_approval_is_asked_as_the_rule_says_over_checked_arguments() -> None:
    seen: list[Any] = []

    def big(args: dict[str, Any]) -> bool:
        seen.append(args)
        return bool(args["n"] > 10)

    tool = define_tool("wipe", "Wipes", SCHEMA, handler, needs_approval=big)
    assert approval_for(tool, {"n": 3}) is None
    arguments = {"n": 30}
    asked = approval_for(tool, arguments)
    assert asked is not None and asked.data == {"tool": "wipe", "arguments": {"n": 30}}
    assert asked.data["arguments"] is not arguments  # a copy: the caller's dict may change
    assert approval_for(tool, {"n": "x"}) is None  # fails the schema: an error result, not a question
    assert seen == [{"n": 3}, {"n": 30}]

    def broken(args: dict[str, Any]) -> bool:
        raise RuntimeError("boom")

    assert approval_for(define_tool("w", "W", SCHEMA, handler, needs_approval=broken), {"n": 1}) is not None
    assert approval_for(define_tool("w", "W", SCHEMA, handler), {"n": 1}) is None
    assert approval_for(None, {"n": 1}) is None  # an unknown tool: nothing to approve


def test_a_question_that_looks_like_an_approval_is_not_one() -> None:
    data = {"tool": "wipe", "arguments": {}}
    assert not is_approval("wipe", Request("approval", "?", id="pnd-1", data=data))  # not our id
    assert not is_approval("wipe", Request("input", "?", id="apr-1", data=data))
    assert not is_approval("other", Request("approval", "?", id="apr-1", data=data))
    assert not is_approval("wipe", Request("approval", "?", id="apr-1", data={**data, "x": 1}))
    assert is_approval("wipe", Request("approval", "?", id="apr-1", data=data))


def test_approved_arguments_are_the_edited_ones_when_given() -> None:
    assert approved_arguments({"n": 1}, Answer("apr-1", True)) == {"n": 1}
    assert approved_arguments({"n": 1}, Answer("apr-1", True, {"arguments": {"n": 2}})) == {"n": 2}
    assert approved_arguments({"n": 1}, Answer("apr-1", True, {"note": "ok"})) == {"n": 1}


def test_a_second_suspension_after_the_retry_is_unresolved_naming_the_first_prompt() -> None:
    first = question()
    again = pending(Request("input", "And now?"))
    assert after_retry(first, again).output == "unresolved: Which one?"
    done = ToolResult.ok("4")
    assert after_retry(first, done) is done


def test_expiry_reads_rfc_3339_by_the_clock_given() -> None:
    assert parse_time("2030-01-01T00:00:00.1234567+01:00") == datetime(
        2029, 12, 31, 23, 0, 0, 123456, tzinfo=UTC
    )
    with pytest.raises(ValueError, match="RFC 3339"):
        parse_time("2030-01-01")
    later = question((NOW + timedelta(seconds=1)).isoformat())
    assert not expired(later, NOW) and expired(later, NOW + timedelta(seconds=1))
    assert not expired(question(), NOW)  # no expiry
