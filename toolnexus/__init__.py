"""toolnexus: the envelope an LLM tool returns, and the suspend-and-resume protocol built on it."""

from ._result import (
    Answer,
    ContentPart,
    Request,
    RunResult,
    ToolCall,
    ToolCallResult,
    ToolResult,
    ToolSpec,
    WireError,
)
from ._suspend import auth_required, pending, pending_of
from ._tool import Tool, ToolContext, define_tool, tool

__all__ = [
    "Answer",
    "ContentPart",
    "Request",
    "RunResult",
    "Tool",
    "ToolCall",
    "ToolCallResult",
    "ToolContext",
    "ToolResult",
    "ToolSpec",
    "WireError",
    "auth_required",
    "define_tool",
    "pending",
    "pending_of",
    "tool",
]
