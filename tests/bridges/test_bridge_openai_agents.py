"""toolnexus tools as OpenAI Agents SDK `FunctionTool`s, run by a real `Runner` (a scripted
`Model` stands in for the model): parts reach the model, the whole result (structured
content, metadata) survives for the host, `needs_approval` is the SDK's approval, and a
suspension is answered in place by `wait_for`."""

from __future__ import annotations

from typing import Any

import pytest
from agents import Agent, ModelResponse, RunConfig, Runner, ToolCallOutputItem, Usage
from agents.models.interface import Model
from agents.tool import ToolOutputFileContent, ToolOutputImage, ToolOutputText
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText
from pydantic import BaseModel

from toolnexus import (
    Answer,
    ContentPart,
    Request,
    ToolContext,
    Toolkit,
    ToolResult,
    pending,
    pending_of,
    tool,
)
from toolnexus.openai_agents import function_tool, function_tools, result_of

NO_TRACES = RunConfig(tracing_disabled=True)


class Scripted(Model):
    """Calls the tools in `calls` (name, arguments text), then says "done"."""

    def __init__(self, *calls: tuple[str, str]) -> None:
        self.calls = calls
        self.turns = 0

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        self.turns += 1
        if self.turns == 1:
            output: list[Any] = [
                ResponseFunctionToolCall(
                    type="function_call",
                    call_id=f"c{i}",
                    name=name,
                    arguments=text,
                    id=f"fc{i}",
                    status="completed",
                )
                for i, (name, text) in enumerate(self.calls, 1)
            ]
        else:
            done = ResponseOutputText(type="output_text", text="done", annotations=[])
            output = [
                ResponseOutputMessage(
                    id="m", type="message", role="assistant", status="completed", content=[done]
                )
            ]
        return ModelResponse(output=output, usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


class Forecast(BaseModel):
    city: str
    high_c: float


@tool
def forecast(city: str) -> Forecast:
    """Tomorrow's forecast."""
    return Forecast(city=city, high_c=7.5)


@tool
def report() -> ToolResult:
    """A report with a chart, a PDF, a link and a sound."""
    parts = [
        ContentPart.from_bytes(b"\x89PNG\r\n\x1a\n", "image/png", name="chart.png"),
        ContentPart.from_bytes(b"%PDF-1.7", "application/pdf", name="report.pdf"),
        ContentPart.from_url("https://example.com/data.csv", "text/csv"),
        ContentPart.from_bytes(b"RIFF", "audio/wav", name="beep.wav"),
    ]
    return ToolResult(output="the report", parts=parts).with_metadata({"render_ms": 40})


@tool(needs_approval=lambda args: args["amount"] > 100)
def refund(order: str, amount: int) -> str:
    """Refund an order."""
    return f"refunded {amount} EUR on {order}"


@tool
def ask(question: str, ctx: ToolContext) -> str:
    """Ask the user."""
    if ctx.answer is None:
        return pending(Request("input", question))
    return ctx.answer.data["text"]


def outputs(items: list[Any]) -> dict[str, ToolCallOutputItem]:
    return {item.call_id: item for item in items if isinstance(item, ToolCallOutputItem)}


def test_the_declaration_is_the_tool() -> None:
    @tool(strict=True)
    def add(a: int, b: int) -> str:
        """Add."""
        return str(a + b)

    made = function_tool(add)
    assert (made.name, made.description, made.params_json_schema) == ("add", "Add.", add.input_schema)
    assert made.strict_json_schema is True and made.needs_approval is False
    assert function_tool(forecast).strict_json_schema is False
    assert [t.name for t in function_tools(Toolkit([add, forecast]))] == ["add", "forecast"]
    assert function_tool(refund).needs_approval is not False
    with pytest.raises(TypeError, match="takes a toolnexus Tool, got function"):
        function_tool(lambda: None)  # type: ignore[arg-type]


async def test_parts_reach_the_model_and_the_whole_result_survives() -> None:
    agent = Agent(
        name="a",
        model=Scripted(
            ("forecast", '{"city":"Oslo"}'), ("report", "{}"), ("forecast", '{"city":'), ("forecast", "[]")
        ),
        tools=function_tools([forecast, report]),
    )
    run = await Runner.run(agent, "go", run_config=NO_TRACES)
    assert run.final_output == "done"
    got = outputs(run.new_items)

    assert got["c1"].output == '{"city":"Oslo","high_c":7.5}'
    assert result_of(got["c1"]).structured_content == {"city": "Oslo", "high_c": 7.5}  # type: ignore[union-attr]

    assert got["c2"].output == [
        ToolOutputText(text="the report"),
        ToolOutputImage(image_url="data:image/png;base64,iVBORw0KGgo="),
        ToolOutputFileContent(file_data="data:application/pdf;base64,JVBERi0xLjc=", filename="report.pdf"),
        ToolOutputFileContent(file_url="https://example.com/data.csv"),
        ToolOutputText(
            text="[audio 'beep.wav' (audio/wav, 4 bytes) not included: "
            "the OpenAI Agents SDK does not accept it in a tool result]"
        ),
    ]
    kept = result_of(got["c2"])
    assert kept is not None and kept.output == "the report" and kept.metadata == {"render_ms": 40}
    assert [(p.kind, p.name) for p in kept.parts] == [
        ("image", "chart.png"),
        ("file", "report.pdf"),
        ("file", ""),
        ("audio", "beep.wav"),
    ]
    assert "render_ms" not in str(got["c2"].raw_item), "metadata never reaches the model"

    assert str(got["c3"].output).startswith("invalid arguments for forecast: $: not valid JSON (")
    assert got["c4"].output == "invalid arguments for forecast: $: expected a JSON object, got an array"


async def test_needs_approval_is_the_sdk_approval() -> None:
    agent = Agent(
        name="a",
        model=Scripted(
            ("refund", '{"order":"A-17","amount":250}'),
            ("refund", '{"order":"B-2","amount":20}'),
            ("refund", '{"order":"C-3"}'),  # refused by the check: nothing to approve
        ),
        tools=function_tools([refund]),
    )
    first = await Runner.run(agent, "go", run_config=NO_TRACES)
    assert [i.raw_item.call_id for i in first.interruptions] == ["c1"]
    state = first.to_state()
    state.approve(first.interruptions[0])
    second = await Runner.run(agent, state, run_config=NO_TRACES)
    got = outputs(second.new_items)
    assert got["c1"].output == "refunded 250 EUR on A-17"
    assert got["c2"].output == "refunded 20 EUR on B-2"
    assert str(got["c3"].output).startswith("invalid arguments for refund: $.amount:")

    rejected = first.to_state()
    rejected.reject(first.interruptions[0])
    third = await Runner.run(agent, rejected, run_config=NO_TRACES)
    assert outputs(third.new_items)["c1"].output == "Tool execution was not approved."  # the SDK's text


@pytest.mark.parametrize("sync", [True, False])
async def test_a_suspension_is_answered_in_place_by_wait_for(sync: bool) -> None:
    asked: list[Request] = []

    def answer(request: Request) -> Answer:
        asked.append(request)
        return Answer(request.id, True, data={"text": "blue"})

    async def answer_async(request: Request) -> Answer:
        return answer(request)

    wait_for: Any = answer if sync else answer_async
    agent = Agent(
        name="a",
        model=Scripted(("ask", '{"question":"Which colour?"}')),
        tools=function_tools([ask], wait_for=wait_for),
    )
    run = await Runner.run(agent, "go", run_config=NO_TRACES)
    assert outputs(run.new_items)["c1"].output == "blue"
    assert [r.prompt for r in asked] == ["Which colour?"]


async def test_a_suspension_without_wait_for_and_a_refusal() -> None:
    agent = Agent(
        name="a", model=Scripted(("ask", '{"question":"Which colour?"}')), tools=function_tools([ask])
    )
    got = outputs((await Runner.run(agent, "go", run_config=NO_TRACES)).new_items)["c1"]
    assert got.output == "Which colour?"
    assert pending_of(result_of(got)).prompt == "Which colour?"  # type: ignore[arg-type,union-attr]

    refuse = function_tools([ask], wait_for=lambda r: Answer(r.id, False, reason="declined"))
    agent = Agent(name="a", model=Scripted(("ask", '{"question":"Which colour?"}')), tools=refuse)
    got = outputs((await Runner.run(agent, "go", run_config=NO_TRACES)).new_items)["c1"]
    assert got.output == "declined/expired: Which colour?"
