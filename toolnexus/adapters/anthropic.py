"""Anthropic Messages: tool declarations and `tool_result` blocks.

Pure functions to plain dicts, typed as the `anthropic` SDK's own request types
(`TypedDict`s, imported for the type checker only: nothing here imports the SDK at run
time), so they pass to `client.messages.create()` as they are under mypy and pyright.
`metadata` never appears in what they return.
"""

from __future__ import annotations

import binascii
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Literal

from .._result import ContentPart, ToolCallResult
from ._common import ToolLike, declared, for_model, omitted, shape
from ._limits import PartGate, PartLimit, Structured, model_text, part_limits_of, structured_of

if TYPE_CHECKING:
    from anthropic.types import (
        DocumentBlockParam,
        ImageBlockParam,
        TextBlockParam,
        ToolParam,
        ToolResultBlockParam,
    )
    from anthropic.types.document_block_param import Source as DocumentSource

    #: A block of a `tool_result`'s content, as this adapter writes them.
    ContentBlock = TextBlockParam | ImageBlockParam | DocumentBlockParam

__all__ = ["anthropic_tool_result", "anthropic_tools"]

#: The image types an Anthropic image block takes.
_IMAGES: dict[str, Literal["image/jpeg", "image/png", "image/gif", "image/webp"]] = {
    "image/jpeg": "image/jpeg",
    "image/png": "image/png",
    "image/gif": "image/gif",
    "image/webp": "image/webp",
}


def anthropic_tools(tools: Iterable[ToolLike]) -> list[ToolParam]:
    """Messages `tools`: `{name, description, input_schema}`, and `"strict": true` for a
    tool made with `strict=True`."""
    out: list[ToolParam] = []
    for s, strict in declared(tools):
        declaration: ToolParam = {
            "name": s.name,
            "description": s.description,
            "input_schema": s.input_schema,
        }
        if strict:
            declaration["strict"] = True
        out.append(declaration)
    return out


def _plain_text(part: ContentPart) -> str | None:
    try:
        return part.raw().decode("utf-8")
    except (UnicodeDecodeError, binascii.Error):
        return None


def _native(part: ContentPart) -> bool:
    """Whether inline `part` has a block of its own (an image, a PDF, UTF-8 text), else a note."""
    return (part.kind == "image" and part.mime_type in _IMAGES) or part.mime_type in (
        "application/pdf",
        "text/plain",
    )


def _block(part: ContentPart, gate: PartGate) -> ContentBlock:
    form = shape(part)
    if form == "text":
        return {"type": "text", "text": part.text}
    if form == "inline" and _native(part) and (note := gate.note(part)):
        return {"type": "text", "text": note}
    if form == "inline" and part.kind == "image" and part.mime_type in _IMAGES:
        media_type = _IMAGES[part.mime_type]
        return {"type": "image", "source": {"type": "base64", "media_type": media_type, "data": part.data}}
    if form == "url" and part.kind == "image" and (part.mime_type in _IMAGES or not part.mime_type):
        return {"type": "image", "source": {"type": "url", "url": part.url}}
    if form == "inline" and part.mime_type == "application/pdf":
        return _document({"type": "base64", "media_type": "application/pdf", "data": part.data}, part)
    if form == "url" and part.mime_type == "application/pdf":
        return _document({"type": "url", "url": part.url}, part)
    if form == "inline" and part.mime_type == "text/plain" and (text := _plain_text(part)) is not None:
        return _document({"type": "text", "media_type": "text/plain", "data": text}, part)
    return {"type": "text", "text": omitted(part, "Anthropic")}


def _document(source: DocumentSource, part: ContentPart) -> DocumentBlockParam:
    block: DocumentBlockParam = {"type": "document", "source": source}
    if part.title or part.name:
        block["title"] = part.title or part.name
    if part.description:
        block["context"] = part.description
    return block


def anthropic_tool_result(
    call: ToolCallResult,
    *,
    structured: Structured | None = None,
    part_limits: Mapping[str, PartLimit] | None = None,
) -> ToolResultBlockParam:
    """The `tool_result` content block for one result, with `is_error` when it failed.

    Without parts, `content` is the text (left out when empty). With parts it is a
    list: a text block, then per part a text block for a text part, an image block for
    JPEG, PNG, GIF and WebP (base64, or by URL), a document block for PDF (base64, or by
    URL) and for UTF-8 `text/plain` files (titled with the part's `title`, else its `name`,
    and with its `description` as the document's `context`), and a text note naming
    anything else (audio, other files, parts with no content). A part whose `annotations`
    name the user as its only audience is left out.

    `structured`: the text of a result with `structured_content`, its `output` (`"text"`, the
    default: `PROVIDER_LIMITS`) or that content as JSON text (`"structured"`). `part_limits`: the
    most Claude takes of each kind of part (default: `PROVIDER_LIMITS["anthropic"].parts`: 5 MB
    and 8000 pixels a side an image, 100 images, 32 MB a document); a part over one is not sent,
    and a note naming it and the limit is (docs/guides/provider-limits.md).
    """
    result = call.result
    gate = PartGate("Anthropic", part_limits_of("anthropic", part_limits))
    text = model_text(result, structured_of("anthropic", structured))
    block: ToolResultBlockParam = {"type": "tool_result", "tool_use_id": call.id}
    parts = [part for part in result.parts if for_model(part)]
    if parts:
        content: list[ContentBlock] = [{"type": "text", "text": text}] if text else []
        content.extend(_block(part, gate) for part in parts)
        block["content"] = content
    elif text:
        block["content"] = text
    if result.is_error:
        block["is_error"] = True
    return block
