# Generated from idl/ (toolnexus schema 1.0.0, sha256 d106c0605c0b7741ba15055557e7193c5afe8392ed0e5add12ef0e6abed99f3f).
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
    _no_null = field_validator("name", mode="before", check_fields=False)(_refuse_null)


class RequestBase(WireModel):
    _no_null = field_validator("url", "data", "expires_at", mode="before", check_fields=False)(_refuse_null)


class AnswerBase(WireModel):
    _no_null = field_validator("data", "reason", mode="before", check_fields=False)(_refuse_null)


class ToolResultBase(ToolResultHelpers):
    _no_null = field_validator("metadata", mode="before", check_fields=False)(_refuse_null)


class ToolSpecBase(WireModel):
    _no_null = field_validator("source", mode="before", check_fields=False)(_refuse_null)


class ToolCallBase(WireModel):
    pass


class ToolCallResultBase(WireModel):
    pass


class RunResultBase(WireModel):
    _no_null = field_validator("pending", "seal", mode="before", check_fields=False)(_refuse_null)
