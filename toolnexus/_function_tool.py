"""`@tool`: a tool made of a Python function, its input schema inferred from the type hints by
pydantic, its description and the parameters' from the docstring."""

from __future__ import annotations

import inspect
import types
import warnings
from collections.abc import Callable
from typing import Any, Union, get_args, get_origin, overload

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError, create_model
from pydantic.json_schema import GenerateJsonSchema
from pydantic_core import SchemaValidator, core_schema

from ._context import ToolContext
from ._limit import Limit
from ._output import inferred_output
from ._result import ToolHints
from ._strict import StrictSchemaError, drop_added_nulls, strict_schema
from ._tool import ErrorText, NeedsApproval, Tool, _may_share, _schema_errors, _source_of

__all__ = ["tool"]


def _fields_check(model: type[BaseModel]) -> Callable[[dict[str, Any]], tuple[dict[str, Any], list[str]]]:
    """A check of arguments against `model`'s fields that returns the validated field dict.

    For a model of plain fields without nested definitions, a typed dict of the same field
    validators gives the same values and errors as the model, without building an instance.
    """
    schema = model.__pydantic_core_schema__
    if schema["type"] == "model" and schema["schema"]["type"] == "model-fields":
        fields = schema["schema"]["fields"]
        if all(field.keys() <= {"type", "schema", "metadata"} for field in fields.values()):
            # The same field validators in a typed dict: its result is the plain dict of values.
            typed_dict = core_schema.typed_dict_schema(
                {
                    name: core_schema.typed_dict_field(
                        field["schema"], required=field["schema"]["type"] != "default"
                    )
                    for name, field in fields.items()
                },
                extra_behavior="forbid",
            )
            validate_fields = SchemaValidator(typed_dict, schema.get("config")).validate_python

            def check(args: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
                try:
                    return validate_fields(args), []
                except ValidationError as exc:
                    return args, _schema_errors(exc)

            return check

    validate = model.__pydantic_validator__.validate_python

    def check_model(args: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        try:
            parsed = validate(args)
        except ValidationError as exc:
            return args, _schema_errors(exc)
        # The fresh model's own field dict (extra keys are forbidden, so it holds the fields only).
        return parsed.__dict__, []

    return check_model


class _ToolSchema(GenerateJsonSchema):
    """pydantic's JSON Schema without the `title` it derives from each field's name."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def _is_context(annotation: Any) -> bool:
    """Whether a parameter annotated `annotation` takes the call's context: `ToolContext`,
    `ToolContext | None` or `Optional[ToolContext]`."""
    if annotation is ToolContext:
        return True
    if get_origin(annotation) in (Union, types.UnionType):
        members = [a for a in get_args(annotation) if a is not type(None)]
        return members == [ToolContext]
    return False


def _docstring(fn: Callable[..., Any]) -> tuple[str, dict[str, str]]:
    """The description and the parameters' descriptions in `fn`'s docstring (Google, NumPy or
    Sphinx style, read by `docstring_parser`). A docstring with no sections is the description
    whole; with sections, the description is the text before them."""
    doc = inspect.cleandoc(fn.__doc__) if fn.__doc__ else ""
    if not doc:
        return "", {}
    import docstring_parser  # here, not at the top: only `@tool` reads docstrings

    try:
        parsed = docstring_parser.parse(doc)
    except docstring_parser.ParseError:
        return doc, {}
    if not parsed.meta:
        return doc, {}
    params = {p.arg_name: p.description.strip() for p in parsed.params if p.description}
    return (parsed.description or "").strip(), params


def _type_name(annotation: Any) -> str:
    return annotation.__qualname__ if isinstance(annotation, type) else repr(annotation)


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _signature_error(tool_name: str, fields: dict[str, Any], exc: Exception) -> TypeError:
    """The one error for a signature that cannot become a schema, naming the parameter."""
    for param, (annotation, _) in fields.items():
        try:
            TypeAdapter(annotation).json_schema(schema_generator=_ToolSchema)
        except Exception as own:
            return TypeError(
                f"@tool {tool_name!r}: parameter {param!r} ({_type_name(annotation)}) "
                f"cannot become a JSON Schema: {_first_line(own)}"
            )
    return TypeError(f"@tool {tool_name!r}: the signature cannot become a JSON Schema: {_first_line(exc)}")


def _strict_error(tool_name: str, exc: StrictSchemaError) -> TypeError:
    parts = exc.where.split(".")
    where = f"parameter {parts[1]!r}" if parts[0] == "$" and len(parts) > 1 else exc.where
    at = f" (at {exc.where})" if where != exc.where and len(parts) > 2 else ""
    return TypeError(f"@tool {tool_name!r}: strict=True, but {where}{at}: {exc.message}")


def _warn_undescribed(fn: Callable[..., Any], tool_name: str, nameless: bool, untyped: list[str]) -> None:
    """A `UserWarning`, at the function's definition, for what the model will not be told: a
    tool with no description (no docstring and no `description=`), parameters with no type hint
    (they take any JSON value). `description=""` and a hint of `Any` say it is meant."""
    if not nameless and not untyped:
        return
    gaps = []
    if nameless:
        gaps.append("no description (give the function a docstring, or description=...)")
    if untyped:
        names = ", ".join(repr(n) for n in untyped)
        gaps.append(f"no type hint for {names}, which so take any JSON value (annotate them; `Any` if meant)")
    told = "the model is told nothing of what it does: " if nameless else ""
    message = f"@tool {tool_name!r}: {told}{'; '.join(gaps)}"
    code = getattr(inspect.unwrap(fn), "__code__", None)
    if code is None:
        warnings.warn(message, UserWarning, stacklevel=4)
        return
    warnings.warn_explicit(
        message, UserWarning, code.co_filename, code.co_firstlineno, module=getattr(fn, "__module__", None)
    )


def _from_function(
    fn: Callable[..., Any],
    name: str | None,
    description: str | None,
    tool_hints: ToolHints | None = None,
    needs_approval: NeedsApproval = False,
    strict: bool = False,
    error_text: ErrorText | None = None,
    limit: Limit | None = None,
) -> Tool:
    tool_name = name or getattr(fn, "__name__", "") or repr(fn)
    try:
        hints = inspect.get_annotations(fn, eval_str=True)
    except Exception as exc:  # a name the annotations use that the module does not define
        raise TypeError(f"@tool {tool_name!r}: its type hints cannot be read: {_first_line(exc)}") from None
    fields, ctx_param, untyped = _parameters(fn, tool_name, hints)
    doc, param_docs = _docstring(fn)
    _warn_undescribed(fn, tool_name, description is None and not doc.strip(), untyped)
    model, schema = _arguments_model(tool_name, fields, param_docs)
    check = _fields_check(model)
    sent = schema
    if strict:
        try:
            sent = strict_schema(schema)
        except StrictSchemaError as exc:
            raise _strict_error(tool_name, exc) from None
        check = _strict_check(check, schema)
    return Tool(
        tool_name,
        description if description is not None else doc,
        sent,
        _handler(fn, ctx_param),
        check=check,
        source=_source_of(fn),
        is_async=inspect.iscoroutinefunction(fn),
        stream=inspect.isasyncgenfunction(fn),
        copy_args=_copies_arguments(model),
        hints=tool_hints,
        needs_approval=needs_approval,
        output=inferred_output(hints.get("return")),
        strict=strict,
        error_text=error_text,
        function=fn,
        limit=limit,
    )


def _parameters(
    fn: Callable[..., Any], tool_name: str, hints: dict[str, Any]
) -> tuple[dict[str, Any], str | None, list[str]]:
    """`fn`'s parameters as the fields of its arguments' model (`name: (annotation, default)`),
    the parameter that takes the call's context (if any), and the parameters with no type hint."""
    fields: dict[str, Any] = {}
    ctx_param: str | None = None
    untyped: list[str] = []
    for param in inspect.signature(fn).parameters.values():
        if param.name not in hints and param.kind not in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            untyped.append(param.name)
        annotation = hints.get(param.name, Any)
        if _is_context(annotation):
            if ctx_param is not None:
                raise TypeError(
                    f"@tool {tool_name!r}: parameters {ctx_param!r} and {param.name!r} both take the context"
                )
            ctx_param = param.name
            continue
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD, param.POSITIONAL_ONLY):
            raise TypeError(
                f"@tool {tool_name!r}: parameter {param.name!r} must be a plain or keyword parameter"
            )
        default = ... if param.default is param.empty else param.default
        fields[param.name] = (annotation, default)
    return fields, ctx_param, untyped


def _arguments_model(
    tool_name: str, fields: dict[str, Any], param_docs: dict[str, str]
) -> tuple[type[BaseModel], dict[str, Any]]:
    """The pydantic model of the arguments, and its JSON Schema (no titles; each property's
    description from the docstring unless an `Annotated` one is there)."""
    try:
        model = create_model(f"{tool_name}_arguments", __config__=ConfigDict(extra="forbid"), **fields)
        schema = model.model_json_schema(schema_generator=_ToolSchema)
    except Exception as exc:  # pydantic's schema errors, named for the tool and the parameter
        raise _signature_error(tool_name, fields, exc) from None
    schema.pop("title", None)
    for param_name, text in param_docs.items():
        prop = schema.get("properties", {}).get(param_name)
        if prop is not None and "description" not in prop:  # an `Annotated` description wins
            prop["description"] = text
    return model, schema


def _copies_arguments(model: type[BaseModel]) -> bool:
    """Whether the handler's arguments must be copied: its keyword arguments are a fresh dict
    either way, so only a value the caller's arguments could share needs it."""
    core = model.__pydantic_core_schema__
    plain = core["type"] == "model" and core["schema"]["type"] == "model-fields"
    return not plain or any(_may_share(f["schema"]) for f in core["schema"]["fields"].values())


def _handler(fn: Callable[..., Any], ctx_param: str | None) -> Callable[[dict[str, Any], ToolContext], Any]:
    """The handler calling `fn` with the checked arguments (and the context, if it takes it)."""

    def handler(args: dict[str, Any], ctx: ToolContext) -> Any:
        # For an async `fn` this returns its coroutine, which `call` awaits directly.
        if ctx_param is not None:
            return fn(**args, **{ctx_param: ctx})
        return fn(**args)

    return handler


def _strict_check(
    check: Callable[[dict[str, Any]], tuple[dict[str, Any], list[str]]], schema: dict[str, Any]
) -> Callable[[dict[str, Any]], tuple[dict[str, Any], list[str]]]:
    """`check` for the arguments of a strict call: a `null` the strict schema added for an
    optional parameter means it was not given (`drop_added_nulls`)."""

    def strict_check(args: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        return check(drop_added_nulls(args, schema))

    return strict_check


@overload
def tool(
    fn: Callable[..., Any],
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    hints: ToolHints | None = None,
    needs_approval: NeedsApproval = False,
    strict: bool = False,
    error_text: ErrorText | None = None,
    limit: Limit | None = None,
) -> Tool: ...
@overload
def tool(
    *,
    name: str | None = None,
    description: str | None = None,
    hints: ToolHints | None = None,
    needs_approval: NeedsApproval = False,
    strict: bool = False,
    error_text: ErrorText | None = None,
    limit: Limit | None = None,
) -> Callable[[Callable[..., Any]], Tool]: ...
def tool(
    fn: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    hints: ToolHints | None = None,
    needs_approval: NeedsApproval = False,
    strict: bool = False,
    error_text: ErrorText | None = None,
    limit: Limit | None = None,
) -> Tool | Callable[[Callable[..., Any]], Tool]:
    """Make a tool of a function; its input schema is inferred from the type hints by pydantic.

    Use it bare (`@tool`), with a name and a description (`@tool(name=..., description=...)`),
    or as a call (`tool(fn, needs_approval=True)`, the same as `tool(needs_approval=True)(fn)`).
    The docstring is the default description; when it documents the parameters (Google,
    NumPy or Sphinx style), their texts become the properties' `description`s and the
    description is the text before the sections. The schema has no generated titles.
    A parameter annotated `ToolContext` (or `ToolContext | None`, with or without a default)
    receives the call's context and is not part of the schema. The tool stays callable as the
    function (`add(2, 3)`). A parameter whose type cannot become a JSON Schema is a
    `TypeError` naming the tool and the parameter.

    `hints` are advisory, for the host, as in `define_tool`, and so is `needs_approval`.
    `strict=True` writes the schema in OpenAI's strict subset (every property required, an
    optional one nullable, `additionalProperties: false`; see `toolnexus._strict`): a
    `null` the model sends for an optional parameter means its default. `error_text` is as in
    `define_tool`. A return annotation that is a pydantic model, a dataclass or a TypedDict
    declares structured output: its JSON Schema is the tool's `output_schema`, and what the
    function returns becomes the result's `structured_content`, with the same value as JSON
    text in `output` (as `define_tool`'s `output_schema` does). `limit` is as in `define_tool`.
    """

    def decorate(f: Callable[..., Any]) -> Tool:
        return _from_function(f, name, description, hints, needs_approval, strict, error_text, limit)

    # `tool(fn, needs_approval=True)` is `tool(needs_approval=True)(fn)`: no keyword is dropped.
    return decorate if fn is None else decorate(fn)
