"""The agent frameworks `bench.py` measures the loop against: one turn of N calls of a trivial
tool, from the moment a mock model hands back its recorded response (N tool calls) to the moment
the framework asks the model again, with the next request's messages in hand.

Each framework runs from its own documented API, with the mock its own docs recommend for tests:

- toolnexus: a recorded OpenAI Chat completion (a dict), `openai_chat_tool_calls`,
  `Toolkit.run_calls`, `openai_chat_messages`; the next request's messages are the prompt,
  the assistant message and the tool messages.
- pydantic-ai: an `Agent` on a `FunctionModel`, the tool added with `tool_plain`.
- The OpenAI Agents SDK: `Runner.run` on a `Model` subclass returning `ModelResponse`s
  (tracing off), the tool a `function_tool`.
- LangGraph: a graph of one `ToolNode` (`StateGraph(MessagesState)`, START → tools → END;
  the node runs only inside a graph) invoked on `{"messages": [prompt, AIMessage(tool_calls)]}`:
  the model is a node of its own, so the recorded response is the `AIMessage`, and the state
  it returns holds the next request's messages.
- The upstream toolnexus Python port (PyPI `toolnexus`, the same import name as this package,
  and `mcp<2`): its `Client.run` loop on an `http_transport` that returns the recorded
  completion, in its own virtualenv and process (`bench/frameworks_upstream.py`).

Every mock stamps the time as it returns the calls and as it is asked again; the figure of a
turn is the time between, over N.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import orjson

import toolnexus
from toolnexus.adapters import openai_chat_messages, openai_chat_tool_calls

__all__ = ["FRAMEWORKS", "Upstream", "add", "completion", "make_frameworks"]


async def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


def arguments(i: int) -> str:
    return json.dumps({"a": i, "b": 2})


def completion(n: int) -> bytes:
    """A recorded OpenAI Chat completion making `n` calls of `add` (its JSON text)."""
    calls = [
        {"id": f"c{i}", "type": "function", "function": {"name": "add", "arguments": arguments(i)}}
        for i in range(n)
    ]
    message = {"role": "assistant", "content": None, "tool_calls": calls}
    return orjson.dumps(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1764590000,
            "model": "mock",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": message}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
    )


def _check(n: int, outputs: list[str]) -> None:
    want = [str(i + 2) for i in range(n)]
    assert outputs == want, f"the next request holds {outputs[:3]}…, not {want[:3]}…"


class Toolnexus:
    name = "toolnexus"

    def __init__(self) -> None:
        self.kit = toolnexus.Toolkit([toolnexus.tool(add)])
        self.recorded = {n: completion(n) for n in (1, 10, 100)}

    async def turn(self, n: int) -> float:
        response = orjson.loads(self.recorded[n])  # as the provider's client hands it back
        t1 = time.perf_counter()
        calls, refused = openai_chat_tool_calls(response)
        run = await self.kit.run_calls(calls)
        messages = [
            {"role": "user", "content": "go"},
            response["choices"][0]["message"],
            *(m for r in [*run.results, *refused] for m in openai_chat_messages(r)),
        ]
        t2 = time.perf_counter()
        _check(n, [m["content"] for m in messages[2:]])
        return t2 - t1


class PydanticAI:
    name = "pydantic-ai"

    def __init__(self) -> None:
        from pydantic_ai import Agent
        from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
        from pydantic_ai.models.function import AgentInfo, FunctionModel

        self.n, self.t1, self.t2 = 0, 0.0, 0.0
        self.outputs: list[str] = []

        def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
            if len(messages) == 1:
                parts = [ToolCallPart("add", arguments(i), tool_call_id=f"c{i}") for i in range(self.n)]
                response = ModelResponse(parts=parts)
                self.t1 = time.perf_counter()
                return response
            self.t2 = time.perf_counter()
            self.outputs = [str(p.content) for p in messages[-1].parts]
            return ModelResponse(parts=[TextPart("done")])

        self.agent = Agent(FunctionModel(respond))
        self.agent.tool_plain(add)

    async def turn(self, n: int) -> float:
        self.n = n
        await self.agent.run("go")
        _check(n, self.outputs)
        return self.t2 - self.t1


class OpenAIAgents:
    name = "OpenAI Agents SDK"

    def __init__(self) -> None:
        from agents import Agent, ModelResponse, RunConfig, Usage, function_tool
        from agents.models.interface import Model
        from openai.types.responses import (
            ResponseFunctionToolCall,
            ResponseOutputMessage,
            ResponseOutputText,
        )

        bench = self

        class Recorded(Model):
            """The model: the calls, then "done" once it is asked again."""

            async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
                bench.asked += 1
                if bench.asked == 1:
                    output: list[Any] = [
                        ResponseFunctionToolCall(
                            type="function_call", call_id=f"c{i}", name="add", arguments=arguments(i)
                        )
                        for i in range(bench.n)
                    ]
                    response = ModelResponse(output=output, usage=Usage(), response_id=None)
                    bench.t1 = time.perf_counter()
                    return response
                bench.t2 = time.perf_counter()
                given = kwargs.get("input", args[1] if len(args) > 1 else [])
                bench.outputs = [i["output"] for i in given if i.get("type") == "function_call_output"]
                done = ResponseOutputText(type="output_text", text="done", annotations=[])
                message = ResponseOutputMessage(
                    id="m", type="message", role="assistant", status="completed", content=[done]
                )
                return ModelResponse(output=[message], usage=Usage(), response_id=None)

            def stream_response(self, *args: Any, **kwargs: Any) -> Any:
                raise NotImplementedError

        self.n, self.asked, self.t1, self.t2 = 0, 0, 0.0, 0.0
        self.outputs: list[str] = []
        self.agent = Agent(name="bench", model=Recorded(), tools=[function_tool(add)])
        self.config = RunConfig(tracing_disabled=True)

    async def turn(self, n: int) -> float:
        from agents import Runner

        self.n, self.asked = n, 0
        await Runner.run(self.agent, "go", run_config=self.config)
        _check(n, self.outputs)
        return self.t2 - self.t1


class LangGraph:
    name = "LangGraph ToolNode"

    def __init__(self) -> None:
        from langchain_core.messages import AIMessage, HumanMessage
        from langchain_core.tools import tool as lc_tool
        from langgraph.graph import END, START, MessagesState, StateGraph
        from langgraph.prebuilt import ToolNode

        graph = StateGraph(MessagesState)
        graph.add_node("tools", ToolNode([lc_tool(add)]))
        graph.add_edge(START, "tools")
        graph.add_edge("tools", END)
        self.graph = graph.compile()
        self.prompt = HumanMessage("go")
        self.recorded = {
            n: AIMessage(
                content="",
                tool_calls=[
                    {"name": "add", "args": {"a": i, "b": 2}, "id": f"c{i}", "type": "tool_call"}
                    for i in range(n)
                ],
            )
            for n in (1, 10, 100)
        }

    async def turn(self, n: int) -> float:
        t1 = time.perf_counter()
        out = await self.graph.ainvoke({"messages": [self.prompt, self.recorded[n]]})
        messages = out["messages"]
        t2 = time.perf_counter()
        _check(n, [m.content for m in messages[2:]])
        return t2 - t1


class Upstream:
    """The upstream port in its own virtualenv: a child process that runs turns when asked
    (`<n> <turns>` on a line) and answers with their times (a JSON list)."""

    name = "upstream toolnexus 0.21.0"

    def __init__(self, python: Path) -> None:
        script = Path(__file__).with_name("frameworks_upstream.py")
        self.child = subprocess.Popen(
            [str(python), str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def turns(self, n: int, count: int) -> list[float]:
        assert self.child.stdin is not None and self.child.stdout is not None
        self.child.stdin.write(f"{n} {count}\n")
        self.child.stdin.flush()
        line = self.child.stdout.readline()
        if not line:
            raise RuntimeError(f"bench/frameworks_upstream.py ended (exit {self.child.wait()})")
        return list(json.loads(line))

    def close(self) -> None:
        if self.child.stdin is not None:
            self.child.stdin.close()
        self.child.wait(timeout=30)


FRAMEWORKS = (Toolnexus, PydanticAI, OpenAIAgents, LangGraph)


def make_frameworks() -> list[Any]:
    return [f() for f in FRAMEWORKS]
