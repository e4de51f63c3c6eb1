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
from ._toolkit import ResumeError, Toolkit

__all__ = [
    "Answer",
    "ContentPart",
    "Request",
    "ResumeError",
    "RunResult",
    "Tool",
    "ToolCall",
    "ToolCallResult",
    "ToolContext",
    "ToolResult",
    "ToolSpec",
    "Toolkit",
    "WireError",
    "auth_required",
    "define_tool",
    "pending",
    "pending_of",
    "tool",
]
