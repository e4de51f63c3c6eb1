"""`from_mcp_call_tool_result` against hostile payloads: wire errors naming the path, and
part names that are never a path."""

from __future__ import annotations

import json

import pytest

from toolnexus import (
    WireError,
)
from toolnexus.adapters import (
    from_mcp_call_tool_result,
)

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
