"""MCP: `tools/list` entries and `CallToolResult`, both ways.

Pure functions over plain dicts with MCP's camelCase keys, shaped after the MCP
schema and its Python SDK's types; nothing here imports the SDK. `metadata` never
appears in what they return.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from toolnexus_wire import WireError
from toolnexus_wire._base import dumps

from .._media import kind_of
from .._result import ContentPart, ToolResult
from ._common import ToolLike, specs_of

__all__ = ["from_mcp_call_tool_result", "mcp_call_tool_result", "mcp_tools"]

_TYPE = "CallToolResult"
_PART_URI = "toolnexus://parts/"


def mcp_tools(tools: Iterable[ToolLike]) -> list[dict[str, Any]]:
    """The `tools` of a `tools/list` result: `{name, description, inputSchema}`."""
    return [
        {"name": s.name, "description": s.description, "inputSchema": s.input_schema} for s in specs_of(tools)
    ]


def mcp_call_tool_result(result: ToolResult) -> dict[str, Any]:
    """A `CallToolResult`: a text block, image and audio blocks, other files as embedded
    resources (`blob`, with a `toolnexus://parts/<index>[/<name>]` uri), and `isError`
    when the result failed. The text block is left out only when the output is empty
    and there are parts.
    """
    content: list[dict[str, Any]] = []
    if result.output or not result.parts:
        content.append({"type": "text", "text": result.output})
    for i, part in enumerate(result.parts):
        if part.kind in ("image", "audio"):
            content.append({"type": part.kind, "data": part.data, "mimeType": part.mime_type})
        else:
            uri = _PART_URI + str(i) + (f"/{quote(part.name)}" if part.name else "")
            resource = {"uri": uri, "mimeType": part.mime_type, "blob": part.data}
            content.append({"type": "resource", "resource": resource})
    out: dict[str, Any] = {"content": content}
    if result.is_error:
        out["isError"] = True
    return out


def _problem(path: str, message: str) -> WireError:
    return WireError(_TYPE, [(path, message)])


def _string(block: Mapping[str, Any], key: str, path: str) -> str:
    value = block.get(key)
    if not isinstance(value, str):
        raise _problem(f"{path}.{key}", "expected a string")
    return value


def _part(kind: str, mime_type: str, data: str, name: str | None, path: str, data_key: str) -> ContentPart:
    """A part from a block at `path` whose base64 is under `data_key`; errors name MCP's paths."""
    wire: dict[str, Any] = {"kind": kind, "mimeType": mime_type, "data": data}
    if name:
        wire["name"] = name
    try:
        return ContentPart.from_wire(wire)
    except WireError as exc:
        keys = {"$.data": f"{path}.{data_key}", "$.mimeType": f"{path}.mimeType"}
        raise WireError(_TYPE, [(keys.get(p, path), m) for p, m in exc.errors]) from None


def _name_of(uri: str) -> str | None:
    tail = urlsplit(uri).path.rstrip("/").rsplit("/", 1)[-1]
    return unquote(tail) or None


def _resource(resource: Any, texts: list[str], parts: list[ContentPart], path: str) -> None:
    if not isinstance(resource, Mapping):
        raise _problem(path, "expected an object")
    uri = _string(resource, "uri", path)
    if "text" in resource:
        texts.append(_string(resource, "text", path))
        return
    mime_type = resource.get("mimeType") or "application/octet-stream"
    if not isinstance(mime_type, str):
        raise _problem(f"{path}.mimeType", "expected a string")
    blob = _string(resource, "blob", path)
    parts.append(_part(kind_of(mime_type), mime_type, blob, _name_of(uri), path, "blob"))


def from_mcp_call_tool_result(obj: Mapping[str, Any]) -> ToolResult:
    """A `ToolResult` from an MCP `CallToolResult` (as a decoded JSON object).

    Text blocks and embedded text resources are joined with newlines into `output`;
    when there is no text, `structuredContent` becomes the output as JSON text (a
    server that sends both is asked by MCP to repeat the structure as text). Image
    and audio blocks and embedded blobs become parts; a resource link becomes a line
    naming its uri; `isError` is kept; `_meta` is kept host-only in
    `metadata["_meta"]`. A block of an unknown type becomes a line saying it was
    left out. Raises `WireError` naming the path of the first malformed place.
    """
    if not isinstance(obj, Mapping):
        raise _problem("$", "expected an object")
    content = obj.get("content", [])
    if not isinstance(content, list):
        raise _problem("$.content", "expected an array")
    texts: list[str] = []
    parts: list[ContentPart] = []
    for i, block in enumerate(content):
        path = f"$.content[{i}]"
        if not isinstance(block, Mapping):
            raise _problem(path, "expected an object")
        kind = block.get("type")
        if kind == "text":
            texts.append(_string(block, "text", path))
        elif kind in ("image", "audio"):
            data, mime_type = _string(block, "data", path), _string(block, "mimeType", path)
            parts.append(_part(str(kind), mime_type, data, None, path, "data"))
        elif kind == "resource":
            _resource(block.get("resource"), texts, parts, f"{path}.resource")
        elif kind == "resource_link":
            label = block.get("name") or "resource"
            texts.append(f"[{label}: {_string(block, 'uri', path)}]")
        else:
            texts.append(f"[{kind} content left out]")
    output = "\n".join(texts)
    structured = obj.get("structuredContent")
    if not texts and structured is not None:
        output = dumps(structured)
    is_error = obj.get("isError", False)
    if not isinstance(is_error, bool):
        raise _problem("$.isError", "expected a boolean")
    result = ToolResult(output=output, is_error=is_error, parts=parts)
    meta = obj.get("_meta")
    if meta is not None:
        if not isinstance(meta, Mapping):
            raise _problem("$._meta", "expected an object")
        result = result.with_metadata({"_meta": dict(meta)})
    return result
