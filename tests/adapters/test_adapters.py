"""The provider adapters, validated by each provider's own SDK types.

TypedDict request types (openai, anthropic) go through a pydantic `TypeAdapter`; what
the SDK kept is compared with what the adapter wrote, so a key the SDK does not know
(and would silently drop) fails the test as surely as a wrong type. The pydantic
models (google-genai forbids unknown keys; mcp ignores them, so it is compared the
same way) validate the JSON text, as the wire would carry it.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable
from typing import Any

import mcp.types as mcp_types
import pytest
from anthropic.types import MessageParam, ToolParam, ToolResultBlockParam
from google.genai import types as genai
from openai.types.chat import (
    ChatCompletionFunctionToolParam,
    ChatCompletionMessageParam,
    ChatCompletionToolMessageParam,
    ChatCompletionUserMessageParam,
)
from openai.types.responses import FunctionToolParam, ResponseInputItemParam
from openai.types.responses.response_input_item_param import FunctionCallOutput
from pydantic import BaseModel, TypeAdapter, ValidationError

import toolnexus.adapters as adapters
from tests.conftest import REPO
from toolnexus import (
    Answer,
    ContentPart,
    Request,
    ToolCallResult,
    ToolResult,
    ToolSpec,
    WireError,
    auth_required,
    define_tool,
    pending,
    pending_of,
    tool,
)
from toolnexus.adapters import (
    answer_from_mcp,
    anthropic_tool_result,
    anthropic_tools,
    from_mcp_call_tool_result,
    gemini_function_response,
    gemini_tools,
    mcp_call_tool_result,
    mcp_input_required,
    mcp_input_responses,
    mcp_tools,
    openai_chat_messages,
    openai_chat_tools,
    openai_responses_output,
    openai_responses_tools,
)

HOST_ONLY = "HOST-ONLY-7f3a"
#: Bytes whose base64 has `+` and `/`, which URL-safe base64 would spell differently.
ODD_BYTES = b"\xfb\xff\xfe\xfb\xef\xbe"


# -- helpers --------------------------------------------------------------------------


def kept(value: Any) -> Any:
    """A validated value as plain data, consuming the lazy iterators pydantic makes of `Iterable` fields."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, dict):
        return {k: kept(v) for k, v in value.items()}
    if isinstance(value, (str, bytes, int, float, bool)) or value is None:
        return value
    if isinstance(value, Iterable):
        return [kept(v) for v in value]
    raise AssertionError(f"unexpected {type(value).__name__} in a validated value")


def sdk_typed(sdk_type: Any, value: Any) -> None:
    """`value` is valid for the SDK's TypedDict type, and the SDK keeps all of it."""
    assert kept(TypeAdapter(sdk_type).validate_python(value)) == value


def sdk_model(model: type[BaseModel], value: Any) -> BaseModel:
    """`value`, as JSON text, is valid for the SDK's pydantic model, and the model keeps all of it."""
    parsed = model.model_validate_json(json.dumps(value))
    assert parsed.model_dump(mode="json", by_alias=True, exclude_unset=True) == value
    return parsed


def sdk_dict(model: type[BaseModel], value: Any) -> BaseModel:
    """`value`, a dict in the SDK's own form (snake_case, bytes), is valid for the SDK's
    pydantic model, and the model keeps all of it."""
    parsed = model.model_validate(value)
    assert parsed.model_dump(exclude_unset=True) == value
    return parsed


def no_metadata(value: Any) -> None:
    text = json.dumps(value, default=repr)
    assert HOST_ONLY not in text and '"metadata"' not in text


def part(raw: bytes, mime: str, name: str | None = None) -> ContentPart:
    return ContentPart.from_bytes(raw, mime, name=name)


PNG = ContentPart.from_path(REPO / "examples" / "media" / "fixture.png")
JPEG = part(b"\xff\xd8\xff\xe0" + ODD_BYTES, "image/jpeg")
BMP = part(b"BM" + ODD_BYTES, "image/bmp", "old.bmp")
PDF = part(b"%PDF-1.4\n" + ODD_BYTES, "application/pdf", "report.pdf")
TXT = part("notes: ünïcode\n".encode(), "text/plain", "notes.txt")
ZIP = part(b"PK\x03\x04" + ODD_BYTES, "application/zip")
WAV = part(b"RIFF\x00\x00\x00\x00WAVE", "audio/wav", "beep.wav")
OGG = part(b"OggS" + ODD_BYTES, "audio/ogg")
MP4 = part(b"\x00\x00\x00\x18ftypmp42", "video/mp4", "clip.mp4")
ALL_PARTS = [PNG, JPEG, BMP, PDF, TXT, ZIP, WAV, OGG, MP4]


def result(output: str = "found 9 attachments", parts: list[ContentPart] | None = None, error: bool = False):
    r = ToolResult(output=output, is_error=error, parts=parts or [])
    return r.with_metadata({"audit": HOST_ONLY, "pending_note": HOST_ONLY})


def call(r: ToolResult, id: str = "call_1", name: str = "fetch") -> ToolCallResult:
    return ToolCallResult(id, name, r)


@tool
def search(query: str, limit: int = 10, tags: list[str] | None = None) -> str:
    """Search the notes."""
    return query


class Point(BaseModel):
    x: int


@tool
def plot(p: Point) -> str:
    """Plot a point (its schema has `$defs` and `$ref`)."""
    return ""


SPECS = [
    search,
    define_tool("sqrt", "Square root", None, lambda a, c: "1"),
    ToolSpec("raw", "A spec", {"type": "object"}),
]


def test_the_adapters_names_are_pinned():
    assert adapters.__all__ == [
        "PROVIDER_LIMITS",
        "ParsedCalls",
        "PartLimit",
        "ProviderLimits",
        "Structured",
        "answer_from_mcp",
        "anthropic_tool_calls",
        "anthropic_tool_result",
        "anthropic_tools",
        "from_mcp_call_tool_result",
        "gemini_function_response",
        "gemini_tool_calls",
        "gemini_tools",
        "mcp_call_tool_result",
        "mcp_input_required",
        "mcp_input_responses",
        "mcp_tool_calls",
        "mcp_tools",
        "openai_chat_messages",
        "openai_chat_tool_calls",
        "openai_chat_tools",
        "openai_responses_output",
        "openai_responses_tool_calls",
        "openai_responses_tools",
    ]


def test_declarations_refuse_other_things():
    with pytest.raises(TypeError, match="expected a Tool or a ToolSpec, got dict"):
        openai_chat_tools([{"name": "x"}])  # type: ignore[list-item]


# -- OpenAI Chat Completions ---------------------------------------------------------


def test_openai_chat_tools():
    declared = openai_chat_tools(SPECS)
    for d in declared:
        sdk_typed(ChatCompletionFunctionToolParam, d)
    assert declared[0] == {
        "type": "function",
        "function": {"name": "search", "description": "Search the notes.", "parameters": search.input_schema},
    }
    assert [d["function"]["name"] for d in declared] == ["search", "sqrt", "raw"]


def test_openai_chat_text_result_is_one_tool_message():
    messages = openai_chat_messages(call(result("4")))
    assert messages == [{"role": "tool", "tool_call_id": "call_1", "content": "4"}]
    sdk_typed(ChatCompletionToolMessageParam, messages[0])
    no_metadata(messages)


def test_openai_chat_error_keeps_its_message():
    messages = openai_chat_messages(call(result("cannot take the square root of -1", error=True)))
    assert messages[0]["content"] == "cannot take the square root of -1"


def test_openai_chat_moves_images_and_files_into_a_user_message():
    messages = openai_chat_messages(call(result(parts=ALL_PARTS)))
    sdk_typed(list[ChatCompletionMessageParam], messages)
    tool_message, user_message = messages
    sdk_typed(ChatCompletionToolMessageParam, tool_message)
    sdk_typed(ChatCompletionUserMessageParam, user_message)
    assert isinstance(tool_message["content"], str), "a tool message is text only"
    chat_refuses = "OpenAI Chat does not accept it in a tool result"
    assert tool_message["content"].splitlines() == [
        "found 9 attachments",
        f"[image 'old.bmp' (image/bmp, 8 bytes) not included: {chat_refuses}]",
        f"[audio (audio/ogg, 10 bytes) not included: {chat_refuses}]",
        "[7 attachment(s) follow in the next message]",
    ]
    content = user_message["content"]
    assert content[0] == {"type": "text", "text": "Attachments returned by tool call call_1 (fetch):"}
    assert [c["type"] for c in content[1:]] == [
        "image_url",
        "image_url",
        "file",
        "file",
        "file",
        "input_audio",
        "file",
    ]
    assert content[1]["image_url"]["url"] == f"data:image/png;base64,{PNG.data}"
    assert content[3]["file"] == {
        "file_data": f"data:application/pdf;base64,{PDF.data}",
        "filename": "report.pdf",
    }
    assert content[5]["file"]["filename"] == "attachment-5"
    assert content[6]["input_audio"] == {"data": WAV.data, "format": "wav"}
    assert content[7]["file"] == {"file_data": f"data:video/mp4;base64,{MP4.data}", "filename": "clip.mp4"}
    no_metadata(messages)


# -- OpenAI Responses ----------------------------------------------------------------


def test_openai_responses_tools():
    declared = openai_responses_tools(SPECS)
    for d in declared:
        sdk_typed(FunctionToolParam, d)
    assert declared[1] == {
        "type": "function",
        "name": "sqrt",
        "description": "Square root",
        "parameters": {"type": "object"},
        "strict": False,
    }


def test_openai_responses_text_output():
    item = openai_responses_output(call(result("4")))
    assert item == {"type": "function_call_output", "call_id": "call_1", "output": "4"}
    sdk_typed(FunctionCallOutput, item)
    sdk_typed(ResponseInputItemParam, item)


def test_openai_responses_output_with_images_and_files():
    item = openai_responses_output(call(result(parts=ALL_PARTS)))
    sdk_typed(FunctionCallOutput, item)
    sdk_typed(ResponseInputItemParam, item)
    output = item["output"]
    assert [o["type"] for o in output] == [
        "input_text",
        "input_image",
        "input_image",
        "input_text",
        "input_file",
        "input_file",
        "input_file",
        "input_text",
        "input_text",
        "input_file",
    ]
    assert output[0] == {"type": "input_text", "text": "found 9 attachments"}
    assert output[2] == {"type": "input_image", "image_url": f"data:image/jpeg;base64,{JPEG.data}"}
    assert output[5] == {
        "type": "input_file",
        "file_data": f"data:text/plain;base64,{TXT.data}",
        "filename": "notes.txt",
    }
    assert output[6]["filename"] == "attachment-5"
    assert "OpenAI Responses does not accept it" in output[8]["text"]
    assert output[9]["filename"] == "clip.mp4"
    no_metadata(item)


def test_openai_responses_parts_without_text():
    item = openai_responses_output(call(result("", parts=[PNG])))
    assert item["output"] == [{"type": "input_image", "image_url": f"data:image/png;base64,{PNG.data}"}]
    sdk_typed(FunctionCallOutput, item)


# -- Anthropic -----------------------------------------------------------------------


def test_anthropic_tools():
    declared = anthropic_tools(SPECS)
    for d in declared:
        sdk_typed(ToolParam, d)
    assert declared[0] == {
        "name": "search",
        "description": "Search the notes.",
        "input_schema": search.input_schema,
    }


def test_anthropic_text_result_and_error_flag():
    ok = anthropic_tool_result(call(result("4")))
    assert ok == {"type": "tool_result", "tool_use_id": "call_1", "content": "4"}
    bad = anthropic_tool_result(call(result("boom", error=True)))
    assert bad == {"type": "tool_result", "tool_use_id": "call_1", "content": "boom", "is_error": True}
    empty = anthropic_tool_result(call(result("")))
    assert empty == {"type": "tool_result", "tool_use_id": "call_1"}
    for block in (ok, bad, empty):
        sdk_typed(ToolResultBlockParam, block)
    sdk_typed(MessageParam, {"role": "user", "content": [ok, bad]})
    no_metadata([ok, bad])


def test_anthropic_tool_result_with_images_and_documents():
    block = anthropic_tool_result(call(result(parts=ALL_PARTS, error=True)))
    sdk_typed(ToolResultBlockParam, block)
    sdk_typed(MessageParam, {"role": "user", "content": [block]})
    assert block["is_error"] is True
    content = block["content"]
    assert [c["type"] for c in content] == [
        "text",
        "image",
        "image",
        "text",
        "document",
        "document",
        "text",
        "text",
        "text",
        "text",
    ]
    assert content[1] == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": PNG.data},
    }
    assert content[3]["text"].startswith("[image 'old.bmp' (image/bmp, 8 bytes) not included: Anthropic")
    assert content[4] == {
        "type": "document",
        "source": {"type": "base64", "media_type": "application/pdf", "data": PDF.data},
        "title": "report.pdf",
    }
    assert content[5]["source"] == {"type": "text", "media_type": "text/plain", "data": "notes: ünïcode\n"}
    no_metadata(block)


def test_anthropic_refuses_the_image_types_the_adapter_turns_into_notes():
    """The SDK itself rejects a BMP image block: the note is not an arbitrary choice."""
    bmp = {"type": "image", "source": {"type": "base64", "media_type": "image/bmp", "data": BMP.data}}
    with pytest.raises(ValidationError):
        sdk_typed(ToolResultBlockParam, {"type": "tool_result", "tool_use_id": "t", "content": [bmp]})


# -- Gemini --------------------------------------------------------------------------


def test_gemini_tools():
    declared = gemini_tools(SPECS)
    assert len(declared) == 1
    parsed = sdk_dict(genai.Tool, declared[0])
    sdk_typed(genai.ToolDict, declared[0])
    assert isinstance(parsed, genai.Tool) and parsed.function_declarations is not None
    assert [f.name for f in parsed.function_declarations] == ["search", "sqrt", "raw"]
    assert parsed.function_declarations[0].parameters_json_schema == search.input_schema
    assert gemini_tools([]) == []


def test_gemini_parameters_would_refuse_an_inferred_schema():
    """Why the schema goes in `parameters_json_schema`: `parameters` takes only Gemini's subset."""
    declared = gemini_tools([plot])[0]["function_declarations"][0]
    sdk_dict(genai.FunctionDeclaration, declared)
    as_parameters = {"name": "plot", "parameters": declared["parameters_json_schema"]}
    with pytest.raises(ValidationError):
        genai.FunctionDeclaration.model_validate(as_parameters)


def test_gemini_function_response_output_and_error():
    ok = gemini_function_response(call(result("4")))
    assert ok == {"function_response": {"id": "call_1", "name": "fetch", "response": {"output": "4"}}}
    bad = gemini_function_response(call(result("boom", error=True), id=""))
    assert bad == {"function_response": {"name": "fetch", "response": {"error": "boom"}}}
    for p in (ok, bad):
        parsed = sdk_dict(genai.Part, p)
        sdk_typed(genai.PartDict, p)
        assert isinstance(parsed, genai.Part) and parsed.function_response is not None
    sdk_dict(genai.Content, {"role": "user", "parts": [ok, bad]})
    no_metadata([ok, bad])


def test_gemini_leaves_out_the_id_it_gave_a_call_without_one():
    made_up = gemini_function_response(call(result("4"), id="gemini-0"))
    assert made_up == {"function_response": {"name": "fetch", "response": {"output": "4"}}}


def test_gemini_function_response_inline_parts():
    p = gemini_function_response(call(result(parts=[PNG, JPEG, PDF])))
    parsed = sdk_dict(genai.Part, p)
    response = parsed.function_response
    assert response is not None and response.parts is not None
    blobs = [fp.inline_data for fp in response.parts]
    assert [(b.mime_type, b.data) for b in blobs if b] == [
        ("image/png", PNG.raw()),
        ("image/jpeg", JPEG.raw()),
        ("application/pdf", PDF.raw()),
    ]
    assert response.response == {"output": "found 9 attachments"}
    jpeg = {"inline_data": {"mime_type": "image/jpeg", "data": JPEG.raw()}}
    assert p["function_response"]["parts"][1] == jpeg
    # The REST API's JSON is the SDK's dump of the same part: camelCase keys, base64 text
    # (URL-safe, which the API reads as it reads the standard alphabet).
    rest = parsed.model_dump(mode="json", by_alias=True, exclude_none=True)
    blob = rest["functionResponse"]["parts"][1]["inlineData"]
    assert blob["mimeType"] == "image/jpeg" and base64.urlsafe_b64decode(blob["data"]) == JPEG.raw()
    no_metadata(p)


# -- MCP -----------------------------------------------------------------------------


def test_mcp_tools():
    declared = mcp_tools(SPECS)
    for d in declared:
        sdk_model(mcp_types.Tool, d)
    sdk_model(mcp_types.ListToolsResult, {"tools": declared})
    assert declared[0] == {
        "name": "search",
        "description": "Search the notes.",
        "inputSchema": search.input_schema,
    }


def test_mcp_call_tool_result_text_and_error():
    ok = mcp_call_tool_result(result("4"))
    assert ok == {"content": [{"type": "text", "text": "4"}]}
    bad = mcp_call_tool_result(result("boom", error=True))
    assert bad == {"content": [{"type": "text", "text": "boom"}], "isError": True}
    empty = mcp_call_tool_result(result(""))
    assert empty == {"content": [{"type": "text", "text": ""}]}
    for r in (ok, bad, empty):
        sdk_model(mcp_types.CallToolResult, r)
    no_metadata([ok, bad])


def test_mcp_call_tool_result_with_parts():
    out = mcp_call_tool_result(result("", parts=ALL_PARTS))
    parsed = sdk_model(mcp_types.CallToolResult, out)
    assert isinstance(parsed, mcp_types.CallToolResult)
    assert [c["type"] for c in out["content"]] == [
        "image",
        "image",
        "image",
        "resource",
        "resource",
        "resource",
        "audio",
        "audio",
        "resource",
    ]
    assert out["content"][0] == {"type": "image", "data": PNG.data, "mimeType": "image/png"}
    assert out["content"][3] == {
        "type": "resource",
        "resource": {
            "uri": "toolnexus://parts/3/report.pdf",
            "mimeType": "application/pdf",
            "blob": PDF.data,
        },
    }
    assert out["content"][5]["resource"]["uri"] == "toolnexus://parts/5"
    no_metadata(out)


def test_from_mcp_joins_text_and_keeps_media_and_error():
    sdk_result = mcp_types.CallToolResult(
        content=[
            mcp_types.TextContent(type="text", text="line one"),
            mcp_types.ImageContent(type="image", data=PNG.data, mime_type="image/png"),
            mcp_types.TextContent(type="text", text="line two"),
            mcp_types.AudioContent(type="audio", data=WAV.data, mime_type="audio/wav"),
            mcp_types.EmbeddedResource(
                type="resource",
                resource=mcp_types.BlobResourceContents(
                    uri="file:///tmp/My%20Report.pdf", mime_type="application/pdf", blob=PDF.data
                ),
            ),
            mcp_types.EmbeddedResource(
                type="resource",
                resource=mcp_types.TextResourceContents(
                    uri="memo://1", mime_type="text/plain", text="a memo"
                ),
            ),
            mcp_types.ResourceLink(type="resource_link", name="spec", uri="https://example.com/spec"),
        ],
        is_error=True,
        _meta={"trace": "t-1"},
    )
    wire = sdk_result.model_dump(mode="json", by_alias=True, exclude_none=True)
    r = from_mcp_call_tool_result(wire)
    assert r.output == "line one\nline two\na memo"
    assert r.is_error is True
    assert [(p.kind, p.mime_type, p.name, p.url) for p in r.parts] == [
        ("image", "image/png", "", ""),
        ("audio", "audio/wav", "", ""),
        ("file", "application/pdf", "My Report.pdf", ""),
        ("file", "", "spec", "https://example.com/spec"),
    ]
    assert r.parts[2].raw() == PDF.raw()
    assert r.metadata == {"_meta": {"trace": "t-1"}}


def test_from_mcp_structured_content_becomes_json_text_when_there_is_no_text():
    only = mcp_types.CallToolResult(content=[], structured_content={"temp": 21.5, "city": "Zürich"})
    r = from_mcp_call_tool_result(only.model_dump(mode="json", by_alias=True, exclude_none=True))
    assert r.output == '{"temp":21.5,"city":"Zürich"}'
    assert r.structured_content == {"temp": 21.5, "city": "Zürich"}
    assert r.is_error is False and r.metadata is None
    both = {"content": [{"type": "text", "text": "21.5 °C in Zürich"}], "structuredContent": {"temp": 21.5}}
    assert from_mcp_call_tool_result(both).output == "21.5 °C in Zürich"
    assert from_mcp_call_tool_result(both).structured_content == {"temp": 21.5}


def test_mcp_round_trip_keeps_what_the_model_sees():
    original = ToolResult(output="see attached", is_error=True, parts=[PNG, WAV, PDF, part(b"x", "text/csv")])
    back = from_mcp_call_tool_result(mcp_call_tool_result(original))
    assert back.output == original.output and back.is_error
    assert [(p.kind, p.mime_type, p.data) for p in back.parts] == [
        (p.kind, p.mime_type, p.data) for p in original.parts
    ]
    assert back.parts[2].name == "report.pdf"


@pytest.mark.parametrize(
    ("wire", "path"),
    [
        ([], "$"),
        ({"content": "text"}, "$.content"),
        ({"content": [7]}, "$.content[0]"),
        ({"content": [{"type": "text"}]}, "$.content[0].text"),
        (
            {"content": [{"type": "image", "mimeType": "image/png", "data": "not base64!"}]},
            "$.content[0].data",
        ),
        (
            {"content": [{"type": "resource", "resource": {"uri": "x:", "blob": 5}}]},
            "$.content[0].resource.blob",
        ),
        ({"content": [], "isError": "yes"}, "$.isError"),
        ({"content": [], "_meta": []}, "$._meta"),
    ],
)
def test_from_mcp_rejects_malformed_results_naming_the_path(wire, path):
    with pytest.raises(WireError) as info:
        from_mcp_call_tool_result(wire)
    assert info.value.path == path
    assert info.value.type_name == "CallToolResult"


def test_from_mcp_notes_unknown_block_types():
    r = from_mcp_call_tool_result({"content": [{"type": "hologram"}, {"type": "text", "text": "hi"}]})
    assert r.output == "[hologram content left out]\nhi"


# --- MCP input_required (protocol 2026-07-28): suspensions both ways --------------------------------


def test_a_suspension_is_an_mcp_input_required_result_the_sdk_accepts():
    approval = pending(Request(kind="approval", prompt="Delete 3 files?"))
    form = mcp_input_required(approval)
    parsed = sdk_model(mcp_types.InputRequiredResult, form)
    request_id = pending_of(approval).id
    elicit = parsed.input_requests[request_id]
    assert isinstance(elicit, mcp_types.ElicitRequest)
    assert elicit.params.mode == "form" and elicit.params.message == "Delete 3 files?"
    assert elicit.params.requested_schema == {"type": "object", "properties": {}}

    schema = {"type": "object", "properties": {"reason": {"type": "string"}}, "required": ["reason"]}
    asked = mcp_input_required(pending(Request(kind="input", prompt="Why?", data={"schema": schema})))
    assert (
        next(
            iter(sdk_model(mcp_types.InputRequiredResult, asked).input_requests.values())
        ).params.requested_schema
        == schema
    )

    login = mcp_input_required(auth_required("https://auth.example/login", "Sign in to Drive"))
    url_params = next(iter(sdk_model(mcp_types.InputRequiredResult, login).input_requests.values())).params
    assert url_params.mode == "url" and url_params.url == "https://auth.example/login"
    assert mcp_input_required(result("4")) is None
    assert mcp_input_required(result("boom", error=True)) is None


def test_an_approval_elicitation_shows_the_arguments():
    arguments = {"invoice": "INV-7", "amount": 250, "note": "für Jan"}
    approval = Request(
        "approval",
        "Allow void_invoice to run with these arguments?",
        data={"tool": "void_invoice", "arguments": arguments},
    )
    form = mcp_input_required(pending(approval))
    parsed = sdk_model(mcp_types.InputRequiredResult, form)
    [elicit] = parsed.input_requests.values()
    assert elicit.params.message == (
        "Allow void_invoice to run with these arguments?\n"
        '{\n  "invoice": "INV-7",\n  "amount": 250,\n  "note": "für Jan"\n}'
    )
    # A question whose data holds other things is asked as it is.
    question = Request("input", "Which invoice?", data={"arguments": {"x": 1}})
    [asked] = mcp_input_required(pending(question))["inputRequests"].values()
    assert asked["params"]["message"] == "Which invoice?"


@pytest.mark.parametrize(
    ("response", "ok", "data", "reason"),
    [
        (
            mcp_types.ElicitResult(action="accept", content={"reason": "cleanup", "n": 3}),
            True,
            {"reason": "cleanup", "n": 3},
            None,
        ),
        (mcp_types.ElicitResult(action="accept"), True, None, None),
        (mcp_types.ElicitResult(action="decline"), False, None, "declined"),
        (mcp_types.ElicitResult(action="cancel"), False, None, "cancelled"),
    ],
)
def test_a_server_reads_the_retry_as_an_answer(response, ok, data, reason):
    request = pending_of(pending(Request(kind="input", prompt="Why?")))
    wire = {request.id: response.model_dump(mode="json", by_alias=True, exclude_none=True)}
    answer = answer_from_mcp(request, wire)
    assert (answer.id, answer.ok, answer.data, answer.reason) == (request.id, ok, data, reason)


def test_a_server_refuses_a_retry_without_this_requests_response():
    request = pending_of(pending(Request(kind="input", prompt="Why?")))
    with pytest.raises(WireError) as missing:
        answer_from_mcp(request, {"other": {"action": "accept"}})
    assert missing.value.path == f'$.inputResponses["{request.id}"]'
    with pytest.raises(WireError) as bad:
        answer_from_mcp(request, {request.id: {"action": "maybe"}})
    assert bad.value.path == f'$.inputResponses["{request.id}"].action'


def _sdk_input_required(**requests):
    sdk = mcp_types.InputRequiredResult(input_requests=requests, request_state="opaque-state-1")
    return sdk.model_dump(mode="json", by_alias=True, exclude_none=True)


def _form(message, schema=None):
    params = mcp_types.ElicitRequestFormParams(message=message, requested_schema=schema or {"type": "object"})
    return mcp_types.ElicitRequest(params=params)


def test_a_client_gets_a_suspension_from_input_required_and_retries_with_the_answer():
    wire = _sdk_input_required(
        q1=_form("Which folder?", {"type": "object", "properties": {"path": {"type": "string"}}})
    )
    suspended = from_mcp_call_tool_result(wire)
    request = pending_of(suspended)
    assert suspended.is_error and suspended.output == "Which folder?"
    assert request.kind == "input" and request.prompt == "Which folder?" and request.id.startswith("pnd-")
    assert request.data["mcp"] == {"inputRequests": wire["inputRequests"], "requestState": "opaque-state-1"}

    params = mcp_input_responses(request, Answer(request.id, True, {"path": "/tmp"}))
    retry = mcp_types.CallToolRequestParams.model_validate({"name": "list_files", **params})
    assert retry.request_state == "opaque-state-1"
    assert retry.input_responses["q1"] == mcp_types.ElicitResult(action="accept", content={"path": "/tmp"})

    declined = mcp_input_responses(request, Answer(request.id, False, reason="declined"))
    assert declined["inputResponses"] == {"q1": {"action": "decline"}}
    expired = mcp_input_responses(request, Answer(request.id, False, reason="expired"))
    assert expired["inputResponses"] == {"q1": {"action": "cancel"}}
    with pytest.raises(ValueError, match="not for the request"):
        mcp_input_responses(request, Answer("pnd-other", True))


def test_a_client_maps_several_forms_and_a_url_elicitation():
    wire = _sdk_input_required(a=_form("Name?"), b=_form("Age?"))
    request = pending_of(from_mcp_call_tool_result(wire))
    assert request.prompt == "Name?\nAge?"
    params = mcp_input_responses(request, Answer(request.id, True, {"a": {"name": "Zoë"}, "b": {"age": 7}}))
    assert params["inputResponses"] == {
        "a": {"action": "accept", "content": {"name": "Zoë"}},
        "b": {"action": "accept", "content": {"age": 7}},
    }

    url = mcp_types.ElicitRequestURLParams(message="Sign in", url="https://auth.example/x")
    login = pending_of(from_mcp_call_tool_result(_sdk_input_required(k=mcp_types.ElicitRequest(params=url))))
    assert (login.kind, login.prompt, login.url) == ("authorization", "Sign in", "https://auth.example/x")
    accepted = mcp_input_responses(login, Answer(login.id, True))
    assert accepted["inputResponses"] == {"k": {"action": "accept"}}


def test_a_client_leaves_sampling_to_the_host_and_names_bad_places():
    sampling = mcp_types.CreateMessageRequest(
        params=mcp_types.CreateMessageRequestParams(messages=[], max_tokens=10)
    )
    request = pending_of(from_mcp_call_tool_result(_sdk_input_required(s=sampling)))
    assert "model completion" in request.prompt
    with pytest.raises(ValueError, match="host answers it itself"):
        mcp_input_responses(request, Answer(request.id, True))
    for bad, path in [
        ({"resultType": "input_required"}, "$"),
        ({"resultType": "input_required", "inputRequests": []}, "$.inputRequests"),
        (
            {"resultType": "input_required", "inputRequests": {"x": {"params": {}}}},
            '$.inputRequests["x"].method',
        ),
        (
            {
                "resultType": "input_required",
                "inputRequests": {"x": {"method": "elicitation/create", "params": {}}},
            },
            '$.inputRequests["x"].params.message',
        ),
        ({"resultType": "input_required", "requestState": 5}, "$.requestState"),
    ]:
        with pytest.raises(WireError) as info:
            from_mcp_call_tool_result(bad)
        assert info.value.path == path, bad


def test_input_required_round_trips_between_a_toolnexus_server_and_client():
    approval = pending(Request(kind="approval", prompt="Delete 3 files?"))
    server_request = pending_of(approval)
    client_request = pending_of(from_mcp_call_tool_result(mcp_input_required(approval)))
    assert client_request.prompt == "Delete 3 files?"
    params = mcp_input_responses(client_request, Answer(client_request.id, True))
    answer = answer_from_mcp(server_request, params["inputResponses"])
    assert answer.ok and answer.id == server_request.id


# -- parts that carry nothing (read from upstream): never sent, a note in their place ----------

#: What upstream writes for `ContentPart::text("")` and `from_bytes` of no bytes, read here.
UPSTREAM_EMPTY = ToolResult.from_json(
    '{"output":"two empty parts","isError":false,"parts":'
    '[{"type":"text"},{"type":"file","mimeType":"application/octet-stream"},{"type":"text","text":"kept"}]}'
)
EMPTY_TEXT_NOTE = "[text (no MIME type, no content) not included: {} does not accept it in a tool result]"
EMPTY_FILE_NOTE = (
    "[file (application/octet-stream, no content) not included: {} does not accept it in a tool result]"
)


def _texts(value: Any) -> list[str]:
    """Every string under a `text`/`content`/`output` key of an adapter's output, in order."""
    found: list[str] = []

    def walk(v: Any, key: str | None) -> None:
        if isinstance(v, dict):
            for k, item in v.items():
                walk(item, k)
        elif isinstance(v, list):
            for item in v:
                walk(item, key)
        elif isinstance(v, str) and key in ("text", "content", "output"):
            found.extend(v.splitlines() or [v])

    walk(value, None)
    return found


@pytest.mark.parametrize(
    ("target", "convert"),
    [
        ("OpenAI Chat", lambda c: openai_chat_messages(c)),
        ("OpenAI Responses", lambda c: openai_responses_output(c)),
        ("Anthropic", lambda c: anthropic_tool_result(c)),
        ("Gemini", lambda c: gemini_function_response(c)),
        ("MCP", lambda c: mcp_call_tool_result(c.result)),
    ],
)
def test_a_part_that_carries_nothing_is_never_sent_and_a_note_stands_in(target: str, convert: Any) -> None:
    out = convert(call(UPSTREAM_EMPTY))
    texts = _texts(out)
    assert EMPTY_TEXT_NOTE.format(target) in texts and EMPTY_FILE_NOTE.format(target) in texts, texts
    assert "kept" in texts and "" not in texts, "no empty text block is sent"
    assert "application/octet-stream" not in json.dumps([t for t in texts if "not included" not in t])
