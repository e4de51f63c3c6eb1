"""The wire types as users meet them: the generated models, whose helpers come from their
hand-written bases in `toolnexus_wire` (one class per wire type)."""

from __future__ import annotations

from toolnexus_wire import (
    Annotations,
    Answer,
    ContentPart,
    Request,
    RunResult,
    ToolCall,
    ToolCallResult,
    ToolEvent,
    ToolHints,
    ToolIcon,
    ToolResult,
    ToolSpec,
)

__all__ = [
    "Annotations",
    "Answer",
    "ContentPart",
    "Request",
    "RunResult",
    "ToolCall",
    "ToolCallResult",
    "ToolEvent",
    "ToolHints",
    "ToolIcon",
    "ToolResult",
    "ToolSpec",
]
