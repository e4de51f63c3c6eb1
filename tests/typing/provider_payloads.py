"""A user's file: each adapter's output passed as it is to its provider SDK's request.

Never run (the clients would call the network); `tests/adapters/test_typing_payloads.py` type-checks
it with mypy --strict and with pyright in strict mode.
"""

from __future__ import annotations

from anthropic import Anthropic
from anthropic.types import MessageParam
from google.genai import Client as GeminiClient
from google.genai import types as genai_types
from openai import OpenAI
from openai.types.chat import ChatCompletionMessageParam
from openai.types.responses import ResponseInputParam

from toolnexus import RunResult, Toolkit, tool
from toolnexus.adapters import (
    anthropic_tool_calls,
    anthropic_tool_result,
    anthropic_tools,
    gemini_function_response,
    gemini_tool_calls,
    gemini_tools,
    openai_chat_messages,
    openai_chat_tool_calls,
    openai_chat_tools,
    openai_responses_output,
    openai_responses_tool_calls,
    openai_responses_tools,
)


@tool(strict=True)
def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


kit = Toolkit([add])


async def openai_chat(client: OpenAI, messages: list[ChatCompletionMessageParam]) -> None:
    completion = client.chat.completions.create(
        model="gpt-5", messages=messages, tools=openai_chat_tools([add])
    )
    calls, refused = openai_chat_tool_calls(completion.choices[0].message)
    run: RunResult = await kit.run_calls(calls)
    for result in [*run.results, *refused]:
        messages.extend(openai_chat_messages(result))
    client.chat.completions.create(model="gpt-5", messages=messages, tools=openai_chat_tools(kit.tools()))


async def openai_responses(client: OpenAI, items: ResponseInputParam) -> None:
    response = client.responses.create(model="gpt-5", input=items, tools=openai_responses_tools([add]))
    calls, refused = openai_responses_tool_calls(response)
    run = await kit.run_calls(calls)
    items.extend(openai_responses_output(result) for result in [*run.results, *refused])
    client.responses.create(
        model="gpt-5", input=items, previous_response_id=response.id, tools=openai_responses_tools([add])
    )


async def anthropic(client: Anthropic, messages: list[MessageParam]) -> None:
    message = client.messages.create(
        model="claude-sonnet-4-5", max_tokens=1024, messages=messages, tools=anthropic_tools([add])
    )
    calls, refused = anthropic_tool_calls(message)
    run = await kit.run_calls(calls)
    messages.append({"role": "assistant", "content": message.content})
    messages.append({"role": "user", "content": [anthropic_tool_result(r) for r in [*run.results, *refused]]})
    client.messages.create(
        model="claude-sonnet-4-5", max_tokens=1024, messages=messages, tools=anthropic_tools([add])
    )


async def gemini(client: GeminiClient, contents: list[genai_types.ContentDict]) -> None:
    config: genai_types.GenerateContentConfigDict = {"tools": gemini_tools([add])}
    response = client.models.generate_content(model="gemini-2.5-flash", contents=contents, config=config)
    calls, refused = gemini_tool_calls(response)
    run = await kit.run_calls(calls)
    contents.append(
        {"role": "user", "parts": [gemini_function_response(r) for r in [*run.results, *refused]]}
    )
    client.models.generate_content(model="gemini-2.5-flash", contents=contents, config=config)
