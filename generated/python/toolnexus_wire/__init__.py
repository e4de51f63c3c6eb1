# Generated from idl/ (toolnexus schema 3.0.0, sha256 7c02d43fec5c2c9bfa10d6191917dc130547ddb2023763bf62894f137966e7a2).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""The toolnexus wire types (schema 3.0.0) as pydantic v2 models.

Every model has `to_wire`, `to_json`, `from_wire` and `from_json`. Most users
want the `toolnexus` package, which builds on these.
"""

from . import _fast, _schemas, _serde  # noqa: F401  (they install the fast paths, schemas, encoders)
from ._base import MAX_DEPTH, JsonNumber, WireModel, dumps
from ._errors import ToolnexusError, WireError, json_path
from ._links import check_mime_type, check_url, displayable
from .models import (
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

SCHEMA_VERSION = "3.0.0"

__all__ = [
    "Annotations",
    "Answer",
    "ContentPart",
    "JsonNumber",
    "MAX_DEPTH",
    "Request",
    "RunResult",
    "SCHEMA_VERSION",
    "ToolCall",
    "ToolCallResult",
    "ToolEvent",
    "ToolHints",
    "ToolIcon",
    "ToolResult",
    "ToolSpec",
    "ToolnexusError",
    "WireError",
    "WireModel",
    "check_mime_type",
    "check_url",
    "displayable",
    "dumps",
    "json_path",
]
