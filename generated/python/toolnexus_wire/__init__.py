# Generated from idl/ (toolnexus schema 1.0.0, sha256 4a6569549a94e034df05ad17e92d1b01627b3bf6d81b4bc204044f6ba71d9333).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""The toolnexus wire types (schema 1.0.0) as pydantic v2 models.

Every model has `to_wire`, `to_json`, `from_wire` and `from_json`. Most users
want the `toolnexus` package, which builds on these.
"""

from . import _serde  # noqa: F401  (fills in the encoders)
from ._base import WireError, WireModel
from .models import (
    Answer,
    ContentPart,
    Request,
    RunResult,
    ToolCall,
    ToolCallResult,
    ToolResult,
    ToolSpec,
)

SCHEMA_VERSION = "1.0.0"

__all__ = [
    "SCHEMA_VERSION",
    "ContentPart",
    "Request",
    "Answer",
    "ToolResult",
    "ToolSpec",
    "ToolCall",
    "ToolCallResult",
    "RunResult",
    "WireError",
    "WireModel",
]
