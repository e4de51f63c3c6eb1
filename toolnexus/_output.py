"""Structured output: a tool's `output_schema`, and the results that must match it.

A tool with an output schema returns data. `Output.result` makes the data a `ToolResult`
whose `structured_content` is the data as JSON and whose `output` is the same value as JSON
text (for models that read only text), after checking it against the schema: data that does
not match is an error result naming the place. A `ToolResult` the handler builds itself is
kept as it is, and checked only when it has `structured_content`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError
from toolnexus_wire import MAX_DEPTH, dumps, json_path

from ._errors import UsageError
from ._result import ToolResult

__all__ = ["Output", "inferred_output"]

_MISMATCH = "the tool's output does not match its output schema: "


class Output:
    """How one tool's structured output is checked: by pydantic for a return annotation it
    inferred the schema from, or by `jsonschema` for a schema given as a dict."""

    __slots__ = ("_adapter", "_validator", "schema")

    def __init__(self, schema: dict[str, Any], adapter: TypeAdapter[Any] | None = None) -> None:
        self.schema = schema
        self._adapter = adapter
        self._validator: Any = None
        if adapter is None:
            import jsonschema

            from ._schema import validator_for

            cls = validator_for(schema)
            try:
                cls.check_schema(schema)
            except jsonschema.SchemaError as exc:
                raise UsageError(f"output_schema is not a valid JSON Schema: {exc.message}") from None
            self._validator = cls(schema)

    def result(self, value: Any) -> ToolResult:
        """The result for what a handler returned (see the module's docstring)."""
        if isinstance(value, ToolResult):
            if value.structured_content is None:
                return value
            problems = self._problems(value.structured_content)
            return ToolResult.error(_MISMATCH + "; ".join(problems)) if problems else value
        if value is None:
            return ToolResult.error(
                "the tool returned None, but it declares an output schema: return the data it describes"
            )
        if self._adapter is not None:
            try:
                data = self._adapter.dump_python(
                    self._adapter.validate_python(value), mode="json", by_alias=True
                )
            except ValidationError as exc:
                return ToolResult.error(_MISMATCH + "; ".join(_pydantic_problems(exc)))
        else:
            data = value.model_dump(mode="json", by_alias=True) if isinstance(value, BaseModel) else value
        try:
            text = dumps(data, max_depth=MAX_DEPTH)
        except (TypeError, ValueError, RecursionError) as exc:
            return ToolResult.error(f"the tool returned a value that is not JSON: {exc}")
        if self._adapter is None and (problems := self._problems(data)):
            return ToolResult.error(_MISMATCH + "; ".join(problems))
        return ToolResult(output=text, structured_content=data)

    def _problems(self, data: Any) -> list[str]:
        if self._adapter is not None:
            try:
                self._adapter.validate_python(data)
            except ValidationError as exc:
                return _pydantic_problems(exc)
            return []
        errors = sorted(self._validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
        return [f"{err.json_path}: {err.message}" for err in errors]


def _pydantic_problems(exc: ValidationError) -> list[str]:
    return [f"{json_path(err['loc'])}: {err['msg']}" for err in exc.errors()]


def _is_typeddict(cls: type) -> bool:
    """A TypedDict class, from `typing` or `typing_extensions` (`typing.is_typeddict` on 3.11
    does not know the latter's, which pydantic asks for there)."""
    return issubclass(cls, dict) and hasattr(cls, "__required_keys__") and hasattr(cls, "__total__")


def inferred_output(annotation: Any) -> Output | None:
    """The `Output` of a return annotation that is a pydantic model, a dataclass or a
    TypedDict; None for any other annotation (a tool returning text, for example), and for
    `ToolResult` itself: a tool that builds its own envelope declares no output schema."""
    if isinstance(annotation, type) and issubclass(annotation, ToolResult):
        return None
    structured = isinstance(annotation, type) and (
        issubclass(annotation, BaseModel) or dataclasses.is_dataclass(annotation) or _is_typeddict(annotation)
    )
    if not structured:
        return None
    adapter: TypeAdapter[Any] = TypeAdapter(annotation)
    schema = adapter.json_schema(mode="serialization", by_alias=True)
    return Output(schema, adapter)
