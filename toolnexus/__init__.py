"""toolnexus: the envelope an LLM tool returns, and the suspend-and-resume protocol built on it."""

from typing import TYPE_CHECKING, Any

# The package's version: every package (PyPI, npm, crates.io) carries the schema's version.
from toolnexus_wire import SCHEMA_VERSION as __version__  # noqa: F401  (re-exported)

from ._errors import ResumeError, ToolnexusError, UsageError, WireError
from ._function_tool import tool
from ._limit import Limit
from ._result import (
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
from ._suspend import auth_required, pending, pending_of
from ._tool import Tool, ToolContext, define_tool

if TYPE_CHECKING:
    from ._spill import DirectorySpill, ResultSpill, read_result
    from ._toolkit import Toolkit

__all__ = [
    "Annotations",
    "Answer",
    "ContentPart",
    "DirectorySpill",
    "Limit",
    "Request",
    "ResultSpill",
    "ResumeError",
    "RunResult",
    "Tool",
    "ToolCall",
    "ToolCallResult",
    "ToolContext",
    "ToolEvent",
    "ToolHints",
    "ToolIcon",
    "ToolResult",
    "ToolSpec",
    "Toolkit",
    "ToolnexusError",
    "UsageError",
    "WireError",
    "auth_required",
    "define_tool",
    "pending",
    "pending_of",
    "read_result",
    "tool",
]


def __getattr__(name: str) -> Any:
    # The toolkit (and asyncio under it) loads on first use, so `import toolnexus` stays cheap.
    if name == "Toolkit":
        from ._toolkit import Toolkit

        return Toolkit
    if name in ("DirectorySpill", "ResultSpill", "read_result"):
        from . import _spill

        return getattr(_spill, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
