# Generated from idl/ (toolnexus schema 1.0.0, sha256 8ac1f99c23bfce603cb079a85f872167e40493e6bb42e9a241b9ef0d7559ee40).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""The toolnexus wire types (schema 1.0.0) as pydantic v2 models.

Every model has `to_wire`, `to_json`, `from_wire` and `from_json`. Most users
want the `toolnexus` package, which builds on these.
"""

from . import _fast, _schemas, _serde  # noqa: F401  (they install the fast paths, schemas, encoders)
from ._base import MAX_DEPTH, WireModel, dumps
from ._errors import WireError, json_path
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
    "Answer",
    "ContentPart",
    "MAX_DEPTH",
    "Request",
    "RunResult",
    "SCHEMA_VERSION",
    "ToolCall",
    "ToolCallResult",
    "ToolResult",
    "ToolSpec",
    "WireError",
    "WireModel",
    "dumps",
    "json_path",
]
