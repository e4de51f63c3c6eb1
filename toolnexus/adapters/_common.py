"""What the adapters share: reading declarations, and describing parts a target cannot take."""

from __future__ import annotations

from collections.abc import Iterable

from .._result import ContentPart, ToolSpec
from .._tool import Tool

__all__ = [
    "ToolLike",
    "data_url",
    "declared",
    "decoded_size",
    "file_name",
    "for_model",
    "omitted",
    "shape",
    "specs_of",
    "text_with",
]

#: What a declaration adapter accepts: runtime tools, or their wire declarations.
ToolLike = Tool | ToolSpec

_EXTENSIONS = {
    "application/pdf": ".pdf",
    "text/plain": ".txt",
    "text/csv": ".csv",
    "text/markdown": ".md",
    "application/json": ".json",
}


def specs_of(tools: Iterable[ToolLike]) -> list[ToolSpec]:
    """The declarations of `tools`, in order."""
    specs: list[ToolSpec] = []
    for t in tools:
        if isinstance(t, Tool):
            specs.append(t.spec())
        elif isinstance(t, ToolSpec):
            specs.append(t)
        else:
            raise TypeError(f"expected a Tool or a ToolSpec, got {type(t).__name__}")
    return specs


def declared(tools: Iterable[ToolLike]) -> list[tuple[ToolSpec, bool]]:
    """The declarations of `tools`, in order, each with whether its schema is strict
    (`Tool.strict`; a `ToolSpec` carries no such flag, so it is not)."""
    tools = list(tools)
    return list(zip(specs_of(tools), [isinstance(t, Tool) and t.strict for t in tools], strict=True))


def for_model(part: ContentPart) -> bool:
    """Whether a provider adapter sends `part` to the model: not when its annotations name
    the user as its only audience (MCP's `audience: ["user"]`: shown to the person, kept from
    the model). No audience, or one that names the assistant, sends it."""
    audience = part.annotations.audience if part.annotations is not None else None
    return not audience or "assistant" in audience


def shape(part: ContentPart) -> str:
    """How `part` carries its content: `text` (a text part with text), `inline` (base64
    `data`), `url` (by reference), or `empty` (none of these: a part read from upstream that
    carries nothing, such as `{"type":"text"}` or a file of no bytes). No adapter sends an
    empty part: each sends its note (`omitted`) in its place."""
    if part.kind == "text":
        return "text" if part.text else "empty"
    if part.data:
        return "inline"
    if part.url:
        return "url"
    return "empty"


def data_url(part: ContentPart) -> str:
    """The part as a `data:` URL."""
    return f"data:{part.mime_type};base64,{part.data}"


def decoded_size(part: ContentPart) -> int:
    """The size of the part's bytes, from the length of its (padded) base64 text."""
    return len(part.data) // 4 * 3 - part.data[-2:].count("=")


def file_name(part: ContentPart, index: int) -> str:
    """The part's name, or `attachment-<index>` with an extension for common types."""
    return part.name or f"attachment-{index}{_EXTENSIONS.get(part.mime_type, '')}"


def omitted(part: ContentPart, target: str) -> str:
    """The note that stands in for a part `target` cannot take in a tool result: what the part
    is, and its URL when it has one, so the model can still name or fetch it."""
    label = f" {part.name!r}" if part.name else ""
    mime = part.mime_type or "no MIME type"
    form = shape(part)
    if form == "url":
        what = f"({mime}) at {part.url}"
    elif form == "inline":
        what = f"({mime}, {decoded_size(part)} bytes)"
    else:
        what = f"({mime}, no content)"
    return f"[{part.kind}{label} {what} not included: {target} does not accept it in a tool result]"


def text_with(output: str, notes: list[str]) -> str:
    """`output` followed by `notes`, one per line."""
    return "\n".join([output, *notes]) if output else "\n".join(notes)
