"""Secrets stay host-side: whatever a result's metadata holds, no adapter output contains it."""

import base64
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from toolnexus import ContentPart, Request, ToolCallResult, ToolResult, pending
from toolnexus.adapters import (
    anthropic_tool_result,
    gemini_function_response,
    mcp_call_tool_result,
    openai_chat_messages,
    openai_responses_output,
)

MARKER = "SECRET-7f3a9c"
JSON_LEAF = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
PARTS = st.sampled_from(
    [
        ContentPart.from_bytes(b"\x89PNG\r\n\x1a\n", "image/png", name="a.png"),
        ContentPart.from_bytes(b"RIFF....WAVE", "audio/wav"),
        ContentPart.from_bytes(b"%PDF-1.7", "application/pdf", name="doc.pdf"),
        ContentPart.from_bytes(b"plain", "text/plain"),
        ContentPart.from_bytes(b"\x00\x01", "application/octet-stream"),
    ]
)


@st.composite
def results_with_a_secret(draw: st.DrawFn) -> ToolResult:
    """A result whose metadata hides the marker in a key, a value or deep inside, maybe a suspension."""
    where = draw(st.sampled_from(["key", "value", "deep", "pending"]))
    meta = draw(st.dictionaries(st.text(max_size=6), JSON_LEAF, max_size=4))
    if where == "key":
        meta[MARKER] = draw(JSON_LEAF)
    elif where == "value":
        meta["token"] = MARKER
    elif where == "deep":
        meta["a"] = {"b": [1, {"c": MARKER}]}
    if where == "pending":
        base = pending(Request(kind="input", prompt="Which file?", data={"hint": MARKER}))
    else:
        base = draw(st.sampled_from([ToolResult.ok("done"), ToolResult.error("failed")]))
    result = base.with_metadata(meta)
    result.parts.extend(draw(st.lists(PARTS, max_size=3)))
    return result


@settings(max_examples=300, deadline=None)
@given(results_with_a_secret())
def test_no_adapter_output_contains_metadata(result: ToolResult) -> None:
    assert MARKER in result.to_json()  # the marker is really there to leak
    call = ToolCallResult("call_1", "tool", result)
    outputs = [
        anthropic_tool_result(call),
        gemini_function_response(call),
        mcp_call_tool_result(result),
        openai_chat_messages(call),
        openai_responses_output(call),
    ]
    for out in outputs:  # Gemini's inline data is bytes (the SDK's form), written here as base64
        text = json.dumps(out, ensure_ascii=False, default=lambda raw: base64.b64encode(raw).decode())
        assert MARKER not in text
