# Generated from idl/ (toolnexus schema 2.1.0, sha256 ea2cc0613ce8cb1bef2565cc4a05c35d37a551c7722b86c2a8af2c22510d9b17).
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
    "ToolHintsBase",
    "ToolSpecBase",
    "ToolCallBase",
    "ToolCallResultBase",
    "RunResultBase",
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


class ToolHintsBase(WireModel):
    pass


class ToolSpecBase(WireModel):
    _no_null = field_validator("source", "hints", "output_schema", mode="before", check_fields=False)(_refuse_null)


class ToolCallBase(WireModel):
    pass


class ToolCallResultBase(WireModel):
    pass


class RunResultBase(WireModel):
    _no_null = field_validator("pending", "seal", mode="before", check_fields=False)(_refuse_null)
