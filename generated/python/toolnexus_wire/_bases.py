# Generated from idl/ (toolnexus schema 3.0.0, sha256 7c02d43fec5c2c9bfa10d6191917dc130547ddb2023763bf62894f137966e7a2).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""Per-type bases of the generated models: the type's hand-written helpers, when it has any
(`_helpers/`), the refusal of `null` for an optional field: None in Python, absent on
the wire, at the cost of a check only when the key is present, the text of a `number`
field's value kept as it came (`_number.keep_number_text`), and the type's conditional
requirements (`allOf` in the IDL), checked once the fields are."""

from __future__ import annotations

from typing import Any

from pydantic import field_validator

from ._base import WireModel
from ._number import keep_number_text
from ._helpers.content_part import ContentPartHelpers
from ._helpers.tool_result import ToolResultHelpers

__all__ = [
    "AnnotationsBase",
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


class AnnotationsBase(WireModel):
    _no_null = field_validator("priority", "last_modified", mode="before", check_fields=False)(_refuse_null)
    _number_text = field_validator("priority", mode="wrap", check_fields=False)(keep_number_text)


class ContentPartBase(ContentPartHelpers):
    _no_null = field_validator("annotations", mode="before", check_fields=False)(_refuse_null)


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
