"""Inbound adapters: each provider's tool calls as `ToolCall`s, from the SDK's own response
objects (parsed from recorded responses) and from plain dicts; bad arguments are an error
result for that call, never an exception for the turn."""

from __future__ import annotations

import copy

import mcp.types as mcp_types
import pytest
from anthropic.types import Message
from google.genai import types as genai
from openai.types.chat import ChatCompletion
from openai.types.responses import Response

from toolnexus import ToolCall, Toolkit, tool
from toolnexus.adapters import (
    ParsedCalls,
    anthropic_tool_calls,
    gemini_function_response,
    gemini_tool_calls,
    mcp_tool_calls,
    openai_chat_tool_calls,
    openai_responses_tool_calls,
)

CHAT = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1764590000,
    "model": "gpt-5",
    "choices": [
        {
            "index": 0,
            "finish_reason": "tool_calls",
            "message": {
                "role": "assistant",
                "content": None,
                "refusal": None,
                "tool_calls": [
                    {
                        "id": "call_a",
                        "type": "function",
                        "function": {"name": "add", "arguments": '{"a":2,"b":3}'},
                    },
                    {"id": "call_b", "type": "function", "function": {"name": "add", "arguments": '{"a":2,'}},
                    {"id": "call_c", "type": "function", "function": {"name": "add", "arguments": "[1, 2]"}},
                    {"id": "call_d", "type": "function", "function": {"name": "now", "arguments": ""}},
                ],
            },
        }
    ],
}
RESPONSES = {
    "id": "resp_1",
    "object": "response",
    "created_at": 1764590000,
    "model": "gpt-5",
    "status": "completed",
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [],
    "output": [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_a",
            "name": "add",
            "arguments": '{"a":2,"b":3}',
            "status": "completed",
        },
        {
            "type": "function_call",
            "id": "fc_2",
            "call_id": "call_b",
            "name": "add",
            "arguments": '"two and three"',
            "status": "completed",
        },
    ],
}
ANTHROPIC = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 10, "output_tokens": 20},
    "content": [
        {"type": "text", "text": "Adding."},
        {"type": "tool_use", "id": "toolu_a", "name": "add", "input": {"a": 2, "b": 3}},
        {"type": "tool_use", "id": "toolu_b", "name": "now", "input": {}},
    ],
}
GEMINI = {  # the REST API's JSON, as the SDK parses it
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [
                    {"text": "Adding."},
                    {"functionCall": {"name": "add", "args": {"a": 2, "b": 3}}},
                    {"functionCall": {"id": "fc-7", "name": "now", "args": {}}},
                ],
            },
            "finishReason": "STOP",
        }
    ]
}


@tool
def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


@tool
def now() -> str:
    """The time."""
    return "noon"


kit = Toolkit([add, now])
ADD = ToolCall("call_a", "add", {"a": 2, "b": 3})


def test_openai_chat_from_the_sdk_object_its_message_and_a_dict() -> None:
    completion = ChatCompletion.model_validate(CHAT)
    for given in (completion, completion.choices[0].message, CHAT, CHAT["choices"][0]["message"]):  # type: ignore[index]
        parsed = openai_chat_tool_calls(given)
        assert isinstance(parsed, ParsedCalls)
        assert parsed.calls == [ADD, ToolCall("call_d", "now", {})]  # empty text: no arguments
        bad_json, not_object = parsed.refused
        assert (bad_json.id, bad_json.name, bad_json.result.is_error) == ("call_b", "add", True)
        assert bad_json.result.output.startswith("invalid arguments for add: $: not valid JSON (")
        assert bad_json.result.output.endswith("""): '{"a":2,'""")
        assert (
            not_object.result.output == "invalid arguments for add: $: expected a JSON object, got an array"
        )


def test_openai_chat_without_tool_calls() -> None:
    message = {"role": "assistant", "content": "Hello", "tool_calls": None}
    assert openai_chat_tool_calls(message) == ParsedCalls([], [])


def test_openai_chat_refuses_a_custom_tool_call() -> None:
    item = {"id": "call_x", "type": "custom", "custom": {"name": "grammar", "input": "free text"}}
    parsed = openai_chat_tool_calls([item])
    assert parsed.calls == []
    assert parsed.refused[0].id == "call_x" and parsed.refused[0].name == "grammar"
    assert "of type 'custom'" in parsed.refused[0].result.output


def test_openai_responses_from_the_sdk_object_and_a_dict() -> None:
    response = Response.model_validate(RESPONSES)
    for given in (response, response.output, RESPONSES):
        calls, refused = openai_responses_tool_calls(given)
        assert calls == [ADD]  # the reasoning item is not a call
        assert [(r.id, r.result.output) for r in refused] == [
            ("call_b", "invalid arguments for add: $: expected a JSON object, got a string")
        ]


def test_anthropic_from_the_sdk_object_and_a_dict() -> None:
    message = Message.model_validate(ANTHROPIC)
    for given in (message, message.content, ANTHROPIC):
        calls, refused = anthropic_tool_calls(given)
        assert calls == [ToolCall("toolu_a", "add", {"a": 2, "b": 3}), ToolCall("toolu_b", "now", {})]
        assert refused == []


def test_anthropic_input_that_is_not_an_object() -> None:
    block = {"type": "tool_use", "id": "toolu_x", "name": "add", "input": "2+3"}
    [refused] = anthropic_tool_calls([block]).refused
    assert refused.result.output == "invalid arguments for add: $: expected a JSON object, got a string"


def test_gemini_from_the_sdk_object_rest_json_and_sdk_dicts() -> None:
    response = genai.GenerateContentResponse.model_validate(GEMINI)
    content = response.candidates[0].content  # type: ignore[index]
    snake = [
        {"function_call": {"name": "add", "args": {"a": 2, "b": 3}}},
        {"function_call": {"id": "fc-7", "name": "now"}},
    ]
    for given in (response, content, GEMINI, snake):
        calls, refused = gemini_tool_calls(given)
        # A call without an id gets its place among the calls; Gemini's own id is kept.
        assert calls == [ToolCall("gemini-0", "add", {"a": 2, "b": 3}), ToolCall("fc-7", "now", {})]
        assert refused == []


async def test_gemini_answers_a_call_without_an_id_by_name_only() -> None:
    calls, _ = gemini_tool_calls(GEMINI)
    run = await kit.run_calls(calls)
    first, second = (gemini_function_response(r) for r in run.results)
    assert first == {"function_response": {"name": "add", "response": {"output": "5"}}}
    assert second == {"function_response": {"id": "fc-7", "name": "now", "response": {"output": "noon"}}}


def test_mcp_from_the_jsonrpc_request_its_params_and_the_sdk_objects() -> None:
    request = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 2, "b": 3}},
    }
    assert mcp_tool_calls(request).calls == [ToolCall("7", "add", {"a": 2, "b": 3})]
    assert mcp_tool_calls(request["params"]).calls == [ToolCall("", "add", {"a": 2, "b": 3})]
    sdk = mcp_types.CallToolRequestParams(name="now")
    assert mcp_tool_calls(sdk).calls == [ToolCall("", "now", {})]  # absent arguments: {}
    sdk_request = mcp_types.CallToolRequest(
        params=mcp_types.CallToolRequestParams(name="add", arguments={"a": 1})
    )
    assert mcp_tool_calls(sdk_request).calls == [ToolCall("", "add", {"a": 1})]
    with pytest.raises(ValueError, match="expected a tools/call request, got 'tools/list'"):
        mcp_tool_calls({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ('{"a": NaN}', "not valid JSON (NaN is not JSON)"),
        ('{"a": 1, "a": 2}', 'not valid JSON (an object repeats the key "a")'),
        ("null", "expected a JSON object, got null"),
        ("3", "expected a JSON object, got a number"),
        ("[" * 5000 + "]" * 5000, "not valid JSON ("),
        ('{"a":' * 120 + "1" + "}" * 120, "not JSON: nested more than 98 levels"),
    ],
    ids=["nan", "repeat", "null", "number", "deep-text", "deep-object"],
)
def test_arguments_the_wire_refuses_are_a_refusal(arguments: str, problem: str) -> None:
    item = {"id": "c", "type": "function", "function": {"name": "add", "arguments": arguments}}
    parsed = openai_chat_tool_calls([item])
    assert parsed.calls == []
    assert parsed.refused[0].result.output.startswith(f"invalid arguments for add: $: {problem}")
    assert len(parsed.refused[0].result.output) < 400  # the raw text is cut short


def test_a_call_without_a_name_is_refused() -> None:
    [refused] = anthropic_tool_calls([{"type": "tool_use", "id": "toolu_x", "input": {}}]).refused
    assert (refused.id, refused.name) == ("toolu_x", "")
    assert refused.result.is_error and refused.result.output == "the tool call 'toolu_x' names no tool"


async def test_a_turn_with_a_bad_call_still_answers_every_call() -> None:
    calls, refused = openai_chat_tool_calls(CHAT)
    run = await kit.run_calls(calls)
    answered = {r.id: r.result for r in [*run.results, *refused]}
    assert sorted(answered) == ["call_a", "call_b", "call_c", "call_d"]
    assert answered["call_a"].output == "5" and answered["call_d"].output == "noon"
    assert answered["call_b"].is_error and answered["call_c"].is_error


def test_the_given_objects_are_left_as_they_were() -> None:
    before = copy.deepcopy(CHAT)
    calls, _ = openai_chat_tool_calls(CHAT)
    calls[0].arguments["a"] = 99
    assert before == CHAT


def test_a_response_that_is_not_a_list_where_one_is_expected() -> None:
    with pytest.raises(TypeError, match="tool_calls: expected a list, got str"):
        openai_chat_tool_calls({"tool_calls": "call_a"})
