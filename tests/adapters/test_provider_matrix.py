"""Every part kind to every provider, checked against the table in docs/providers.md.

Each cell is what the adapter wrote for one part, validated by the provider SDK's own
types, then classified by looking for the part in that output: as the target's own block
(`native`), in the user message after a Chat tool message (`user message`), as text joined
to the result's text (`text`), or as a note naming it (`note`). The classification must
equal the cell of the hand-written table, and a part found nowhere fails the test.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import mcp.types as mcp_types
import pytest
from anthropic.types import ToolResultBlockParam
from google.genai import types as genai
from openai.types.chat import ChatCompletionMessageParam
from openai.types.responses.response_input_item_param import FunctionCallOutput
from pydantic import TypeAdapter

from toolnexus import ContentPart, ToolCallResult, ToolResult
from toolnexus.adapters import (
    anthropic_tool_result,
    from_mcp_call_tool_result,
    gemini_function_response,
    mcp_call_tool_result,
    openai_chat_messages,
    openai_responses_output,
)

DOC = (Path(__file__).resolve().parents[2] / "docs" / "providers.md").read_text(encoding="utf-8")
PROVIDERS = ["OpenAI Chat", "OpenAI Responses", "Anthropic", "Gemini", "MCP"]

PARTS = {
    "text": ContentPart.from_text("a line of text from the tool"),
    "image (data)": ContentPart.from_bytes(b"\x89PNG\r\n\x1a\n-img-", "image/png", name="chart.png"),
    "audio (data)": ContentPart.from_bytes(b"RIFF\0\0\0\0WAVE-aud-", "audio/wav", name="beep.wav"),
    "file (data)": ContentPart.from_bytes(b"%PDF-1.4 -doc-", "application/pdf", name="report.pdf"),
    "image (url)": ContentPart.from_url("https://example.com/chart.png", "image/png"),
    "audio (url)": ContentPart.from_url("https://example.com/beep.wav", "audio/wav"),
    "file (url)": ContentPart.from_url(
        "https://example.com/report.pdf", "application/pdf", name="report.pdf"
    ),
}


def _table() -> dict[tuple[str, str], str]:
    rows = [line for line in DOC.splitlines() if line.startswith("| ") and not line.startswith("| part")]
    cells: dict[tuple[str, str], str] = {}
    for line in rows:
        name, *modes = (c.strip() for c in line.strip().strip("|").split("|"))
        assert len(modes) == len(PROVIDERS), line
        for provider, mode in zip(PROVIDERS, modes, strict=True):
            cells[(name, provider)] = mode
    return cells


TABLE = _table()


def test_the_table_covers_every_part_and_provider():
    assert set(TABLE) == {(p, q) for p in PARTS for q in PROVIDERS}
    assert set(TABLE.values()) <= {"native", "user message", "text", "note"}


def _sdk(sdk_type: Any, value: Any) -> None:
    TypeAdapter(sdk_type).validate_python(value)


def _noted(text: str, part: ContentPart, target: str) -> bool:
    """Whether `text` holds the note for `part`: its kind, MIME type, and its URL or size."""
    for line in text.splitlines():
        names = "not included" in line and target in line and line.startswith(f"[{part.kind}")
        if names and part.mime_type in line and (part.url in line if part.url else "bytes" in line):
            return True
    return False


def _carries(block: Any, part: ContentPart) -> bool:
    """Whether a value holds the part's data or URL (as itself, in a data URL, or as bytes)."""
    needle = part.data or part.url
    return needle != "" and (needle in repr(block) or (part.data != "" and repr(part.raw()) in repr(block)))


def classify(provider: str, part: ContentPart) -> str:
    call = ToolCallResult("call_1", "fetch", ToolResult(output="the tool said", parts=[part]))
    if provider == "OpenAI Chat":
        messages = openai_chat_messages(call)
        _sdk(list[ChatCompletionMessageParam], messages)
        tool_text = messages[0]["content"]
        if len(messages) == 2 and any(_carries(c, part) for c in messages[1]["content"][1:]):
            return "user message"
        if part.kind == "text" and part.text in tool_text.splitlines():
            return "text"
        return "note" if _noted(tool_text, part, provider) else "lost"
    if provider == "OpenAI Responses":
        item = openai_responses_output(call)
        _sdk(FunctionCallOutput, item)
        blocks = item["output"][1:]
        if part.kind == "text" and {"type": "input_text", "text": part.text} in blocks:
            return "native"
        if any(b["type"] in ("input_image", "input_file") and _carries(b, part) for b in blocks):
            return "native"
        texts = "\n".join(b.get("text", "") for b in blocks)
        return "note" if _noted(texts, part, provider) else "lost"
    if provider == "Anthropic":
        block = anthropic_tool_result(call)
        _sdk(ToolResultBlockParam, block)
        content = block["content"][1:]
        if part.kind == "text" and {"type": "text", "text": part.text} in content:
            return "native"
        if any(b["type"] in ("image", "document") and _carries(b, part) for b in content):
            return "native"
        texts = "\n".join(b.get("text", "") for b in content)
        return "note" if _noted(texts, part, provider) else "lost"
    if provider == "Gemini":
        response = gemini_function_response(call)
        genai.Part.model_validate(response)
        inner = response["function_response"]
        if any(_carries(p, part) for p in inner.get("parts", [])):
            return "native"
        text = inner["response"]["output"]
        if part.kind == "text" and part.text in text.splitlines():
            return "text"
        return "note" if _noted(text, part, provider) else "lost"
    assert provider == "MCP"
    out = mcp_call_tool_result(call.result)
    mcp_types.CallToolResult.model_validate(out)
    blocks = out["content"][1:]
    if part.kind == "text" and {"type": "text", "text": part.text} in blocks:
        return "native"
    if any(
        b["type"] in ("image", "audio", "resource", "resource_link") and _carries(b, part) for b in blocks
    ):
        return "native"
    texts = "\n".join(b.get("text", "") for b in blocks)
    return "note" if _noted(texts, part, provider) else "lost"


@pytest.mark.parametrize(("part_name", "provider"), sorted(TABLE))
def test_each_part_reaches_each_provider_as_the_table_says(part_name: str, provider: str):
    assert classify(provider, PARTS[part_name]) == TABLE[(part_name, provider)]


@pytest.mark.parametrize("part_name", sorted(PARTS))
def test_a_part_survives_an_mcp_round_trip(part_name: str):
    part = PARTS[part_name]
    back = from_mcp_call_tool_result(mcp_call_tool_result(ToolResult(output="x", parts=[part])))
    if part.kind == "text":  # MCP has no text part apart from text blocks: it joins the output
        assert back.output == f"x\n{part.text}" and back.parts == []
        return
    (got,) = back.parts
    assert (got.kind, got.mime_type, got.data, got.url) == (part.kind, part.mime_type, part.data, part.url)
    if part.kind in ("image", "audio") and part.data:  # MCP's image and audio blocks have no name
        assert got.name == ""
    else:
        assert got.name == part.name


def test_structured_content_crosses_mcp_both_ways():
    result = ToolResult(output='{"temp":21.5}', structured_content={"temp": 21.5})
    out = mcp_call_tool_result(result)
    sdk = mcp_types.CallToolResult.model_validate(out)
    assert sdk.structured_content == {"temp": 21.5}
    back = from_mcp_call_tool_result(out)
    assert back.structured_content == {"temp": 21.5} and back.output == '{"temp":21.5}'


def test_no_provider_output_carries_metadata():
    secret = "HOST-ONLY-91c2"
    r = ToolResult(output="x", parts=list(PARTS.values())).with_metadata({"k": secret})
    call = ToolCallResult("c", "n", r)
    outputs = [
        openai_chat_messages(call),
        openai_responses_output(call),
        anthropic_tool_result(call),
        gemini_function_response(call),
        mcp_call_tool_result(r),
    ]
    assert not re.search(secret, repr(outputs))
