# Generated from idl/ (toolnexus schema 2.1.0, sha256 db64425673cd82c556d605dbe7d548eed4db91c24ce2e1942f11a5f5644e7f8f).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""Per-type bases of the generated models: the type's hand-written helpers, when it has any
(`_helpers/`), and the refusal of `null` for an optional field: None in Python, absent on
the wire, at the cost of a check only when the key is present."""

from __future__ import annotations

from typing import Any

from pydantic import field_validator

from ._base import WireModel
from ._helpers.content_part import ContentPartHelpers
from ._helpers.tool_result import ToolResultHelpers

__all__ = [
    "ContentPartBase",
    "RequestBase",
    "AnswerBase",
    "ToolResultBase",
    "ToolIconBase",
    "ToolHintsBase",
    "ToolSpecBase",
    "ToolCallBase",
    "ToolCallResultBase",
    "RunResultBase",
    "ToolEventBase",
]


def _refuse_null(value: Any) -> Any:
    if value is None:
        raise ValueError("null is not allowed: leave the key out instead")
    return value


class ContentPartBase(ContentPartHelpers):
    pass


class RequestBase(WireModel):
    _no_null = field_validator("url", "data", "expires_at", mode="before", check_fields=False)(_refuse_null)


class AnswerBase(WireModel):
    _no_null = field_validator("data", "reason", "message", "scope", mode="before", check_fields=False)(_refuse_null)


class ToolResultBase(ToolResultHelpers):
    _no_null = field_validator("structured_content", "metadata", mode="before", check_fields=False)(_refuse_null)


class ToolIconBase(WireModel):
    _no_null = field_validator("mime_type", "theme", mode="before", check_fields=False)(_refuse_null)


class ToolHintsBase(WireModel):
    _no_null = field_validator("idempotent", "title", "long_running", mode="before", check_fields=False)(_refuse_null)


class ToolSpecBase(WireModel):
    _no_null = field_validator("source", "hints", "output_schema", mode="before", check_fields=False)(_refuse_null)


class ToolCallBase(WireModel):
    pass


class ToolCallResultBase(WireModel):
    pass


class RunResultBase(WireModel):
    _no_null = field_validator("pending", "seal", mode="before", check_fields=False)(_refuse_null)


class ToolEventBase(WireModel):
    _no_null = field_validator("percent", "message", "partial", mode="before", check_fields=False)(_refuse_null)
