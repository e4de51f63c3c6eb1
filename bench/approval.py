"""The approval round trip `bench.py` measures (issue 37): a turn whose one call needs approval
suspends, the state is serialized, and a fresh process parses it and resumes with the answer
"approved", up to the next request's messages.

- toolnexus: the recorded completion through `openai_chat_tool_calls` and `Toolkit.run_calls`
  with a key (sealed), the stored document `{"messages", "run"}` (the conversation so far and
  `RunResult.to_wire()`); in the fresh process `RunResult.from_wire`, `Toolkit.resume` with
  `Answer(id, True)` (the seal checked in full: the run is not the object the toolkit returned),
  and `openai_chat_messages`.
- pydantic-ai: deferred tools (`requires_approval=True`, `output_type=[str,
  DeferredToolRequests]`) on a `FunctionModel`; the stored document `all_messages_json()`; in
  the fresh process `ModelMessagesTypeAdapter.validate_json` and `agent.run(message_history=…,
  deferred_tool_results=DeferredToolResults(approvals={id: True}))` until the model is asked again.
- The OpenAI Agents SDK: `needs_approval=True`, `result.to_state().to_string()`; in the fresh
  process `RunState.from_string`, `approve` and `Runner.run(agent, state)` until the model is
  asked again.

Suspend (to the stored text) is timed here; parse and resume in a child process
(`python bench/approval.py resume <framework> <file>`) over texts of distinct runs, a fresh
toolkit or agent for each, made before its clock starts.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import orjson  # noqa: E402

import toolnexus  # noqa: E402
from toolnexus.adapters import openai_chat_messages, openai_chat_tool_calls  # noqa: E402

SECRET = b"bench-secret-0123456789abcdef012"
PROMPT = {"role": "user", "content": "go"}


async def refund(order: str, amount: int) -> str:
    """Refund an order."""
    return f"refunded {amount} on {order}"


def recorded(i: int) -> bytes:
    """A recorded OpenAI Chat completion making one call of `refund`."""
    call = {
        "id": f"c{i}",
        "type": "function",
        "function": {"name": "refund", "arguments": json.dumps({"order": f"A-{i}", "amount": 250})},
    }
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    choice = {"index": 0, "finish_reason": "tool_calls", "message": message}
    return orjson.dumps({"id": f"chatcmpl-{i}", "object": "chat.completion", "model": "mock", "choices": [choice]})


# --- toolnexus -----------------------------------------------------------------------------------


def _kit() -> toolnexus.Toolkit:
    return toolnexus.Toolkit([toolnexus.tool(needs_approval=True)(refund)], secret=SECRET)


async def toolnexus_suspend(i: int) -> tuple[float, str]:
    kit, response = _kit(), orjson.loads(recorded(i))
    t1 = time.perf_counter()
    calls, _ = openai_chat_tool_calls(response)
    run = await kit.run_calls(calls)
    text = orjson.dumps({"messages": [PROMPT, response["choices"][0]["message"]], "run": run.to_wire()}).decode()
    took = time.perf_counter() - t1
    assert run.status == "pending" and len(run.requests) == 1
    return took, text


async def toolnexus_resume(text: str) -> float:
    kit = _kit()
    t0 = time.perf_counter()
    doc = orjson.loads(text)
    run = toolnexus.RunResult.from_wire(doc["run"])
    done = await kit.resume(run, toolnexus.Answer(run.requests[0].id, True))
    messages = [*doc["messages"], *(m for r in done.results for m in openai_chat_messages(r))]
    took = time.perf_counter() - t0
    assert messages[-1]["content"].startswith("refunded 250"), messages[-1]
    return took


# --- pydantic-ai ---------------------------------------------------------------------------------


class _PydanticAI:
    def __init__(self, i: int) -> None:
        from pydantic_ai import Agent
        from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
        from pydantic_ai.models.function import AgentInfo, FunctionModel
        from pydantic_ai.tools import DeferredToolRequests

        self.t1 = self.t2 = 0.0
        self.asked_again: list[ModelMessage] = []

        def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
            if len(messages) == 1:
                args = json.dumps({"order": f"A-{i}", "amount": 250})
                response = ModelResponse(parts=[ToolCallPart("refund", args, tool_call_id=f"c{i}")])
                self.t1 = time.perf_counter()
                return response
            self.t2 = time.perf_counter()
            self.asked_again = messages
            return ModelResponse(parts=[TextPart("done")])

        self.agent: Any = Agent(FunctionModel(respond), output_type=[str, DeferredToolRequests])  # type: ignore[arg-type]
        self.agent.tool_plain(refund, requires_approval=True)


async def pydantic_ai_suspend(i: int) -> tuple[float, str]:
    from pydantic_ai.tools import DeferredToolRequests

    bench = _PydanticAI(i)
    first = await bench.agent.run("go")
    text = first.all_messages_json().decode()
    took = time.perf_counter() - bench.t1
    assert isinstance(first.output, DeferredToolRequests) and len(first.output.approvals) == 1
    return took, text


async def pydantic_ai_resume(text: str) -> float:
    from pydantic_ai.messages import ModelMessagesTypeAdapter
    from pydantic_ai.tools import DeferredToolResults

    i = int(json.loads(text)[1]["parts"][0]["tool_call_id"][1:])  # outside the clock: which agent
    bench = _PydanticAI(i)
    t0 = time.perf_counter()
    history = ModelMessagesTypeAdapter.validate_json(text)
    call_id = history[-1].parts[0].tool_call_id  # type: ignore[union-attr]
    await bench.agent.run(message_history=history, deferred_tool_results=DeferredToolResults(approvals={call_id: True}))
    took = bench.t2 - t0
    assert str(bench.asked_again[-1].parts[0].content).startswith("refunded 250")  # type: ignore[union-attr]
    return took


# --- the OpenAI Agents SDK -----------------------------------------------------------------------


class _Agents:
    def __init__(self, i: int) -> None:
        from agents import Agent, ModelResponse, RunConfig, Usage, function_tool
        from agents.models.interface import Model
        from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

        bench = self
        self.t1 = self.t2 = 0.0
        self.given: Any = None

        class Recorded(Model):
            async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
                given = kwargs.get("input", args[1] if len(args) > 1 else [])
                if not any(isinstance(g, dict) and g.get("type") == "function_call_output" for g in given):
                    args_text = json.dumps({"order": f"A-{i}", "amount": 250})
                    call = ResponseFunctionToolCall(
                        type="function_call", call_id=f"c{i}", name="refund", arguments=args_text
                    )
                    response = ModelResponse(output=[call], usage=Usage(), response_id=None)
                    bench.t1 = time.perf_counter()
                    return response
                bench.t2 = time.perf_counter()
                bench.given = given
                done = ResponseOutputText(type="output_text", text="done", annotations=[])
                message = ResponseOutputMessage(
                    id="m", type="message", role="assistant", status="completed", content=[done]
                )
                return ModelResponse(output=[message], usage=Usage(), response_id=None)

            def stream_response(self, *args: Any, **kwargs: Any) -> Any:
                raise NotImplementedError

        self.agent = Agent(name="bench", model=Recorded(), tools=[function_tool(refund, needs_approval=True)])
        self.config = RunConfig(tracing_disabled=True)


async def agents_suspend(i: int) -> tuple[float, str]:
    from agents import Runner

    bench = _Agents(i)
    first = await Runner.run(bench.agent, "go", run_config=bench.config)
    text = first.to_state().to_string()
    took = time.perf_counter() - bench.t1
    assert len(first.interruptions) == 1
    return took, text


async def agents_resume(text: str) -> float:
    from agents import Runner
    from agents.run_state import RunState

    bench = _Agents(int(text.split('"call_id": "c', 1)[1].split('"', 1)[0]))  # outside the clock
    t0 = time.perf_counter()
    state = await RunState.from_string(bench.agent, text)
    state.approve(state.get_interruptions()[0])
    await Runner.run(bench.agent, state, run_config=bench.config)
    took = bench.t2 - t0
    outputs = [g["output"] for g in bench.given if isinstance(g, dict) and g.get("type") == "function_call_output"]
    assert outputs and str(outputs[-1]).startswith("refunded 250"), outputs
    return took


# --- the round trip ------------------------------------------------------------------------------

FRAMEWORKS: dict[str, tuple[Any, Any]] = {
    "toolnexus (sealed)": (toolnexus_suspend, toolnexus_resume),
    "pydantic-ai deferred tools": (pydantic_ai_suspend, pydantic_ai_resume),
    "OpenAI Agents SDK RunState": (agents_suspend, agents_resume),
}


def round_trips(count: int, rounds: int) -> dict[str, dict[str, float]]:
    """{framework: {"suspend", "resume", "total", "first resume"}}: medians of seconds; the
    resumes in a fresh child process per framework and round, `count` texts each."""
    suspends: dict[str, list[float]] = {k: [] for k in FRAMEWORKS}
    resumes: dict[str, list[float]] = {k: [] for k in FRAMEWORKS}
    firsts: dict[str, list[float]] = {k: [] for k in FRAMEWORKS}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(rounds):
            for name, (suspend, _) in FRAMEWORKS.items():
                got = [asyncio.run(_suspend_all(suspend, r * count, count))][0]
                suspends[name] += [t for t, _ in got]
                path = Path(tmp) / "texts.json"
                path.write_text(json.dumps([text for _, text in got]), encoding="utf-8")
                out = subprocess.run(
                    [sys.executable, __file__, "resume", name, str(path)],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                times = json.loads(out.stdout)
                firsts[name].append(times[0])
                resumes[name] += times[1:]
    out: dict[str, dict[str, float]] = {}
    for name in FRAMEWORKS:
        suspend, resume = statistics.median(suspends[name]), statistics.median(resumes[name])
        out[name] = {
            "suspend": suspend,
            "resume": resume,
            "total": suspend + resume,
            "first resume": statistics.median(firsts[name]),
        }
    return out


async def _suspend_all(suspend: Any, start: int, count: int) -> list[tuple[float, str]]:
    return [await suspend(i) for i in range(start, start + count)]


async def _resume_all(resume: Any, texts: list[str]) -> list[float]:
    return [await resume(text) for text in texts]


if __name__ == "__main__":
    if sys.argv[1:2] != ["resume"] or len(sys.argv) != 4:
        raise SystemExit("python bench/approval.py resume <framework> <file of texts>")
    texts = json.loads(Path(sys.argv[3]).read_text(encoding="utf-8"))
    print(json.dumps(asyncio.run(_resume_all(FRAMEWORKS[sys.argv[2]][1], texts))))
