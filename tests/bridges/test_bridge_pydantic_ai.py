"""toolnexus tools as pydantic-ai tools, run by a real pydantic-ai `Agent` (a scripted
`FunctionModel` stands in for the model): results, errors, parts, approvals and suspensions
as deferred tool requests, answered with `Answer`s, also after a round trip through storage."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter
from pydantic_ai import Agent
from pydantic_ai.messages import (
    BinaryContent,
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.tools import DeferredToolRequests, ToolApproved, ToolDenied
from pydantic_core import to_jsonable_python

from toolnexus import Answer, ContentPart, Request, ToolContext, Toolkit, ToolResult, pending, tool
from toolnexus.pydantic_ai import ToolnexusToolset, requests

RAN: list[str] = []


class Forecast(BaseModel):
    city: str
    high_c: float


@tool
def forecast(city: str) -> Forecast:
    """Tomorrow's forecast."""
    return Forecast(city=city, high_c=7.5)


@tool
def chart() -> ToolResult:
    """A chart."""
    part = ContentPart.from_bytes(b"\x89PNG\r\n\x1a\n", "image/png", name="chart.png")
    return ToolResult(output="a chart", parts=[part]).with_metadata({"render_ms": 40})


@tool
def broken(n: int) -> str:
    """Always fails."""
    raise ValueError(f"no luck with {n}")


@tool(needs_approval=lambda args: args["amount"] > 100)
def refund(order: str, amount: int) -> str:
    """Refund an order."""
    RAN.append(f"refund {amount}")
    return f"refunded {amount} EUR on {order}"


@tool
def ask(question: str, ctx: ToolContext) -> str:
    """Ask the user."""
    if ctx.answer is None:
        return pending(Request("input", question))
    return ctx.answer.data["text"]


@tool
def nag(ctx: ToolContext) -> str:
    """Asks twice."""
    return pending(Request("question", "Again?"))


def scripted(*calls: ToolCallPart) -> FunctionModel:
    """A model that makes `calls`, then answers with the contents of the tool returns it got."""

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        last = messages[-1]
        returns = (
            [p for p in last.parts if isinstance(p, ToolReturnPart)] if isinstance(last, ModelRequest) else []
        )
        if returns:
            return ModelResponse(
                parts=[TextPart(json.dumps([to_jsonable_python(p.content) for p in returns]))]
            )
        return ModelResponse(parts=list(calls))

    return FunctionModel(respond)


def agent_for(toolset: ToolnexusToolset, *calls: ToolCallPart) -> Agent[None, str | DeferredToolRequests]:
    return Agent(scripted(*calls), toolsets=[toolset], output_type=[str, DeferredToolRequests])  # type: ignore[arg-type]


def test_the_declarations_are_the_tools() -> None:
    @tool(strict=True)
    def add(a: int, b: int) -> str:
        """Add."""
        return str(a + b)

    toolset = ToolnexusToolset(Toolkit([add, forecast]))
    assert set(toolset.tools) == {"add", "forecast"}
    made = toolset.tools["add"]
    assert made.description == "Add." and made.strict is True
    assert made.function_schema.json_schema == add.input_schema
    with pytest.raises(TypeError, match="takes toolnexus Tools, got function"):
        ToolnexusToolset([lambda: None])  # type: ignore[list-item]


async def test_results_errors_and_parts_reach_the_model() -> None:
    toolset = ToolnexusToolset([forecast, chart, broken])
    agent = agent_for(
        toolset,
        ToolCallPart("forecast", {"city": "Oslo"}, tool_call_id="c1"),
        ToolCallPart("chart", {}, tool_call_id="c2"),
        ToolCallPart("broken", {"n": 3}, tool_call_id="c3"),
        ToolCallPart("broken", {"n": "x"}, tool_call_id="c4"),
    )
    run = await agent.run("go")
    returns = {
        p.tool_call_id: p
        for m in run.all_messages()
        for p in getattr(m, "parts", [])
        if p.part_kind in ("tool-return", "retry-prompt")
    }
    assert returns["c1"].content == {"city": "Oslo", "high_c": 7.5}  # structured content as the value
    assert returns["c2"].content == [
        "a chart",
        BinaryContent(b"\x89PNG\r\n\x1a\n", media_type="image/png", identifier="chart.png"),
    ]
    assert returns["c2"].metadata == {"render_ms": 40}  # host-only in pydantic-ai too
    assert returns["c3"].outcome == "failed" and returns["c3"].content == "no luck with 3"
    assert returns["c4"].content.startswith("invalid arguments for broken: $.n:")


async def test_approvals_and_questions_become_deferred_requests_answered_with_answers() -> None:
    RAN.clear()
    toolset = ToolnexusToolset([refund, ask])
    agent = agent_for(
        toolset,
        ToolCallPart("refund", {"order": "A-17", "amount": 250}, tool_call_id="c1"),
        ToolCallPart("refund", {"order": "B-2", "amount": 20}, tool_call_id="c2"),  # under the rule's bar
        ToolCallPart("ask", {"question": "Which colour?"}, tool_call_id="c3"),
    )
    first = await agent.run("go")
    deferred = first.output
    assert isinstance(deferred, DeferredToolRequests)
    assert [p.tool_call_id for p in deferred.approvals] == ["c1"] and [
        p.tool_call_id for p in deferred.calls
    ] == ["c3"]
    assert deferred.kind("c3") == "question"
    assert RAN == ["refund 20"], "nothing over the bar runs before it is approved"
    approval, question = toolset.requests(deferred)
    assert approval.kind == "approval" and approval.data == {
        "tool": "refund",
        "arguments": {"order": "A-17", "amount": 250},
    }
    assert question.kind == "input" and question.prompt == "Which colour?"

    # Stored and answered in another process: the deferred requests are plain data.
    adapter = TypeAdapter(DeferredToolRequests)
    restored = adapter.validate_json(adapter.dump_json(deferred))
    assert requests(restored) == [approval, question]
    edited = {"order": "A-17", "amount": 200}
    results = await ToolnexusToolset([refund, ask]).results(
        restored,
        [
            Answer(question.id, True, data={"text": "blue"}),
            Answer(approval.id, True, data={"arguments": edited}),
        ],
    )
    assert results.approvals == {"c1": ToolApproved(override_args=edited)}
    assert [r.return_value for r in results.calls.values()] == ["blue"]

    second = await agent.run(message_history=first.all_messages(), deferred_tool_results=results)
    assert json.loads(second.output) == ["refunded 200 EUR on A-17", "refunded 20 EUR on B-2", "blue"]
    assert RAN == ["refund 20", "refund 200"]


async def test_refusals_and_a_second_suspension_follow_the_loop_rule() -> None:
    toolset = ToolnexusToolset([refund, ask, nag])
    agent = agent_for(
        toolset,
        ToolCallPart("refund", {"order": "A-17", "amount": 250}, tool_call_id="c1"),
        ToolCallPart("ask", {"question": "Which colour?"}, tool_call_id="c2"),
        ToolCallPart("nag", {}, tool_call_id="c3"),
    )
    first = await agent.run("go")
    deferred = first.output
    assert isinstance(deferred, DeferredToolRequests)
    approval, question, again = toolset.requests(deferred)
    results = await toolset.results(
        deferred,
        [
            Answer(approval.id, False, reason="declined"),
            Answer(question.id, False, reason="expired"),
            Answer(again.id, True),
        ],
    )
    assert results.approvals == {"c1": ToolDenied("declined: the call to refund was not approved")}
    assert {k: v.message for k, v in results.calls.items()} == {
        "c2": "declined/expired: Which colour?",
        "c3": "unresolved: Again?",
    }
    second = await agent.run(message_history=first.all_messages(), deferred_tool_results=results)
    assert json.loads(second.output) == [
        "declined: the call to refund was not approved",
        "declined/expired: Which colour?",
        "unresolved: Again?",
    ]


@pytest.mark.parametrize(("edited", "what"), [(None, "null"), (["A-17"], "a list"), ("{}", "a string")])
async def test_edited_arguments_that_are_not_an_object_are_refused_as_the_engine_refuses_them(
    edited: Any, what: str
) -> None:
    """The bridge takes the loop's verdict (`toolnexus._engine`): an approver that sends `null`
    for "unchanged" does not run the call, with its own arguments or anyone else's."""
    toolset = ToolnexusToolset([refund])
    agent = agent_for(toolset, ToolCallPart("refund", {"order": "A-17", "amount": 250}, tool_call_id="c1"))
    deferred = (await agent.run("go")).output
    assert isinstance(deferred, DeferredToolRequests)
    [approval] = toolset.requests(deferred)
    results = await toolset.results(deferred, Answer(approval.id, True, {"arguments": edited}))
    assert results.approvals == {
        "c1": ToolDenied(
            f"invalid arguments for refund: $: the approval's edited arguments are {what}, not an object"
        )
    }


async def test_an_answer_to_no_request_is_refused_and_an_unanswered_call_waits() -> None:
    toolset = ToolnexusToolset([ask])
    agent = agent_for(
        toolset,
        ToolCallPart("ask", {"question": "A?"}, tool_call_id="c1"),
        ToolCallPart("ask", {"question": "B?"}, tool_call_id="c2"),
    )
    deferred: Any = (await agent.run("go")).output
    a, _ = toolset.requests(deferred)
    with pytest.raises(ValueError, match="no deferred toolnexus request has the id 'pnd-nope'"):
        await toolset.results(deferred, Answer("pnd-nope", True))
    partial = await toolset.results(deferred, Answer(a.id, True, data={"text": "yes"}))
    assert list(partial.calls) == ["c1"]
