# Generated from idl/ (toolnexus schema 3.0.0, sha256 7c02d43fec5c2c9bfa10d6191917dc130547ddb2023763bf62894f137966e7a2).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""Wire encoders, one per type, written out field by field from the IDL.

A field is written always, when present (not None), or when non-empty, as
the IDL says; unknown keys follow the known ones in the order they came.
"""

from __future__ import annotations

from typing import Any

from . import models
from ._base import install_encoders

__all__: list[str] = []


def _encode_Annotations(m: models.Annotations) -> dict[str, Any]:
    out: dict[str, Any] = {
    }
    if m.audience:
        out["audience"] = list(m.audience)
    if m.priority is not None:
        out["priority"] = m.priority
    if m.last_modified is not None:
        out["lastModified"] = m.last_modified
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


def _encode_ContentPart(m: models.ContentPart) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": m.kind,
    }
    if m.text:
        out["text"] = m.text
    if m.mime_type:
        out["mimeType"] = m.mime_type
    if m.data:
        out["data"] = m.data
    if m.url:
        out["url"] = m.url
    if m.name:
        out["name"] = m.name
    if m.title:
        out["title"] = m.title
    if m.description:
        out["description"] = m.description
    if m.annotations is not None:
        out["annotations"] = _encode_Annotations(m.annotations)
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


def _encode_Request(m: models.Request) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": m.id,
        "kind": m.kind,
        "prompt": m.prompt,
    }
    if m.url is not None:
        out["url"] = m.url
    if m.data is not None:
        out["data"] = m.data
    if m.expires_at is not None:
        out["expiresAt"] = m.expires_at
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


def _encode_Answer(m: models.Answer) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": m.id,
        "ok": m.ok,
    }
    if m.data is not None:
        out["data"] = m.data
    if m.reason is not None:
        out["reason"] = m.reason
    if m.message is not None:
        out["message"] = m.message
    if m.scope is not None:
        out["scope"] = m.scope
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


def _encode_ToolResult(m: models.ToolResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "output": m.output,
        "isError": m.is_error,
    }
    if m.parts:
        out["parts"] = [_encode_ContentPart(v0) for v0 in m.parts]
    if m.structured_content is not None:
        out["structuredContent"] = m.structured_content
    if m.metadata is not None:
        out["metadata"] = m.metadata
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


def _encode_ToolIcon(m: models.ToolIcon) -> dict[str, Any]:
    out: dict[str, Any] = {
        "src": m.src,
    }
    if m.mime_type is not None:
        out["mimeType"] = m.mime_type
    if m.sizes:
        out["sizes"] = list(m.sizes)
    if m.theme is not None:
        out["theme"] = m.theme
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


def _encode_ToolHints(m: models.ToolHints) -> dict[str, Any]:
    out: dict[str, Any] = {
        "readOnly": m.read_only,
        "destructive": m.destructive,
        "openWorld": m.open_world,
    }
    if m.idempotent is not None:
        out["idempotent"] = m.idempotent
    if m.title is not None:
        out["title"] = m.title
    if m.long_running is not None:
        out["longRunning"] = m.long_running
    if m.icons:
        out["icons"] = [_encode_ToolIcon(v0) for v0 in m.icons]
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


def _encode_ToolSpec(m: models.ToolSpec) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": m.name,
        "description": m.description,
        "inputSchema": m.input_schema,
    }
    if m.source is not None:
        out["source"] = m.source
    if m.hints is not None:
        out["hints"] = _encode_ToolHints(m.hints)
    if m.output_schema is not None:
        out["outputSchema"] = m.output_schema
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


def _encode_ToolCall(m: models.ToolCall) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": m.id,
        "name": m.name,
        "arguments": m.arguments,
    }
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


def _encode_ToolCallResult(m: models.ToolCallResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": m.id,
        "name": m.name,
        "result": _encode_ToolResult(m.result),
    }
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


def _encode_RunResult(m: models.RunResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "status": m.status,
        "results": [_encode_ToolCallResult(v0) for v0 in m.results],
    }
    if m.pending is not None:
        out["pending"] = _encode_Request(m.pending)
    if m.calls:
        out["calls"] = [_encode_ToolCall(v0) for v0 in m.calls]
    if m.requests:
        out["requests"] = [_encode_Request(v0) for v0 in m.requests]
    if m.order:
        out["order"] = list(m.order)
    if m.turn:
        out["turn"] = m.turn
    if m.seal is not None:
        out["seal"] = m.seal
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


def _encode_ToolEvent(m: models.ToolEvent) -> dict[str, Any]:
    out: dict[str, Any] = {
        "callId": m.call_id,
    }
    if m.percent is not None:
        out["percent"] = m.percent
    if m.message is not None:
        out["message"] = m.message
    if m.partial is not None:
        out["partial"] = _encode_ToolResult(m.partial)
    extra = m.__pydantic_extra__
    if extra:
        out.update(extra)
    return out


install_encoders(
    {
        models.Annotations: _encode_Annotations,
        models.ContentPart: _encode_ContentPart,
        models.Request: _encode_Request,
        models.Answer: _encode_Answer,
        models.ToolResult: _encode_ToolResult,
        models.ToolIcon: _encode_ToolIcon,
        models.ToolHints: _encode_ToolHints,
        models.ToolSpec: _encode_ToolSpec,
        models.ToolCall: _encode_ToolCall,
        models.ToolCallResult: _encode_ToolCallResult,
        models.RunResult: _encode_RunResult,
        models.ToolEvent: _encode_ToolEvent,
    }
)
