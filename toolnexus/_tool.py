"""Tools: a name, a description, an input schema and a handler, called through `Tool.call`;
`define_tool` makes one of a handler (`@tool`, of a function, is in `_function_tool`)."""

from __future__ import annotations

import inspect
import logging
import re
import secrets
from collections.abc import Callable
from typing import Any, TypeAlias

from pydantic import BaseModel, ValidationError
from toolnexus_wire import WireError, WireModel, dumps, json_path

from ._context import ToolContext
from ._errors import UsageError
from ._limit import Limit
from ._output import Output
from ._result import Request, ToolHints, ToolResult, ToolSpec
from ._strict import strict_problems

__all__ = [
    "ErrorText",
    "Tool",
    "ToolContext",
    "checked_arguments",
    "define_tool",
    "normalize_tool_name",
]

#: The `toolnexus` logger: a tool's exception is logged here, with its traceback, at ERROR.
logger = logging.getLogger("toolnexus")

_NAME_REJECTS = re.compile(r"[^a-zA-Z0-9_-]")


def normalize_tool_name(name: str) -> str:
    """`name` with every character outside `[a-zA-Z0-9_-]` replaced by `_`."""
    return _NAME_REJECTS.sub("_", name)


Handler: TypeAlias = Callable[[dict[str, Any], "ToolContext"], Any]
#: A compiled check of a call's arguments: the arguments the handler gets, and the problems
#: found (none: the arguments pass).
Check: TypeAlias = Callable[[dict[str, Any]], tuple[dict[str, Any], list[str]]]


#: `needs_approval`: always, never, or a function of the checked arguments.
NeedsApproval: TypeAlias = "bool | Callable[[dict[str, Any]], bool]"
#: `error_text`: the model-facing text of the error result for an exception a handler raised.
ErrorText: TypeAlias = Callable[[BaseException], str]


_DEFAULT_CONTEXT = ToolContext()
_ok = ToolResult.ok  # bound once: `call` builds one for every `str` a handler returns


def _exception_text(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:  # an exception whose __str__ itself fails
        text = ""
    return text or type(exc).__name__


def _crosses(exc: BaseException) -> bool:
    """Whether `exc` crosses `call`: cancellation and interpreter exits, alone or in a group."""
    import asyncio  # loaded already whenever a CancelledError exists

    kinds = (KeyboardInterrupt, SystemExit, asyncio.CancelledError)
    if isinstance(exc, BaseExceptionGroup):
        return exc.subgroup(kinds) is not None
    return isinstance(exc, kinds)


def _not_json(exc: BaseException) -> ToolResult:
    return ToolResult.error(f"the tool returned a value that is not JSON: {_exception_text(exc)}")


def _as_result(value: Any) -> ToolResult:
    """The rules of `call` for what a handler returns."""
    if isinstance(value, str):
        return ToolResult.ok(value)
    if value is None:  # nothing returned: done, with nothing to say (not the text `null`)
        return ToolResult.ok("")
    if isinstance(value, ToolResult):
        return value
    if isinstance(value, WireModel):  # a ToolCallResult, a RunResult...: their metadata is host-only
        return ToolResult.error(
            f"the tool returned a {type(value).__name__}, which is not a ToolResult; "
            "return a ToolResult (or JSON data) instead"
        )
    if isinstance(value, (bytes, bytearray, memoryview)):
        return ToolResult.error(
            "the tool returned bytes, which are not text; return a ToolResult with a ContentPart instead"
        )
    try:
        if isinstance(value, BaseModel):
            return ToolResult.ok(value.model_dump_json(by_alias=True))
        return ToolResult.ok(dumps(value))
    except Exception as exc:  # TypeError, ValueError, RecursionError (nested past the limit), or
        return _not_json(exc)  # whatever a dict or list subclass or a serializer raises


def _copied(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    return value


_PLAIN = frozenset({str, int, float, bool, type(None)})


def _copy_args(args: dict[str, Any]) -> dict[str, Any]:
    """A copy of the arguments' dicts and lists (other values are shared), so a handler that
    changes its arguments leaves the caller's, and a stored `ToolCall`'s, as they were."""
    if _PLAIN.issuperset(map(type, args.values())):  # flat arguments, checked in C
        return dict(args)
    out = dict(args)
    for key, value in args.items():
        if isinstance(value, (dict, list)):
            out[key] = _copied(value)
    return out


#: pydantic-core schema types whose validated value is never an object the caller holds.
_SCALARS = frozenset({"int", "float", "str", "bool", "none", "literal", "enum", "bytes", "decimal"})


def _may_share(schema: Any) -> bool:
    """Whether a field validated by `schema` may hand the handler a dict or list the caller holds."""
    while schema.get("type") in ("default", "nullable"):
        schema = schema["schema"]
    return schema.get("type") not in _SCALARS


def _schema_errors(exc: ValidationError) -> list[str]:
    return [f"{json_path(err['loc'])}: {err['msg']}" for err in exc.errors()]


class Tool:
    """A callable tool. Build one with `define_tool` or `@tool`; run it with `await tool.call(args)`."""

    __slots__ = (
        "__wrapped__",
        "_check",
        "_copy",
        "_handler",
        "_is_async",
        "_output",
        "_stream",
        "description",
        "error_text",
        "hints",
        "input_schema",
        "limit",
        "name",
        "needs_approval",
        "source",
        "strict",
    )

    def __init__(
        self,
        name: str,
        description: str,
        input_schema: dict[str, Any],
        handler: Handler,
        *,
        check: Callable[[dict[str, Any]], tuple[dict[str, Any], list[str]]] | None,
        source: str | None = None,
        is_async: bool | None = None,
        stream: bool | None = None,
        copy_args: bool = True,
        hints: ToolHints | None = None,
        needs_approval: NeedsApproval = False,
        output: Output | None = None,
        strict: bool = False,
        error_text: ErrorText | None = None,
        function: Callable[..., Any] | None = None,
        limit: Limit | None = None,
    ) -> None:
        if hints is not None and not isinstance(hints, ToolHints):
            raise TypeError(f"hints must be a ToolHints or None, got {type(hints).__name__}")
        if not isinstance(needs_approval, bool) and not callable(needs_approval):
            raise TypeError(
                "needs_approval must be a bool or a function of the arguments, "
                f"got {type(needs_approval).__name__}"
            )
        if error_text is not None and not callable(error_text):
            raise TypeError(
                f"error_text must be a function of the exception, got {type(error_text).__name__}"
            )
        self.needs_approval = needs_approval
        #: How much of the output the model reads (the toolkit's limit may be tighter).
        self.limit = Limit.of(limit)
        #: The input schema is in OpenAI's strict subset; the OpenAI and Anthropic adapters say `strict`.
        self.strict = strict
        #: The model-facing text for an exception the handler raised (default: its message).
        self.error_text = error_text
        if function is not None:
            self.__wrapped__ = function
        self.name = name
        self.hints = hints
        self.description = description
        self.input_schema = input_schema
        self.source = source
        self._handler = handler
        self._check = check
        self._output = output
        # `copy_args`: the handler may be given the caller's dicts and lists, so it gets a copy.
        self._copy = _copy_args if copy_args else None
        # `stream`: the handler is an async generator (each value a partial; the last the result).
        self._stream = inspect.isasyncgenfunction(handler) if stream is None else stream
        if self._stream:  # a result built now, not first while the handler holds its data: the
            _as_result("")  # models' first build then collects garbage across all of it (seconds)
        # `is_async`: the handler returns an awaitable, though it may be a plain function.
        self._is_async = (
            inspect.iscoroutinefunction(handler) if is_async is None else is_async
        ) and not self._stream

    def __repr__(self) -> str:
        return f"<Tool {self.name!r}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the decorated function itself, as if it were not a tool: its own arguments,
        no schema check, no result rules (`@tool` leaves the function callable). For a tool
        from `define_tool`, that is the handler, `(args, ctx)`."""
        function: Callable[..., Any] | None = getattr(self, "__wrapped__", None)
        if function is None:
            raise TypeError(
                f"tool {self.name!r} wraps no Python function; run it with `await tool.call(args)`"
            )
        return function(*args, **kwargs)

    @property
    def output_schema(self) -> dict[str, Any] | None:
        """The JSON Schema of the tool's structured output, when it declares one."""
        return None if self._output is None else self._output.schema

    def spec(self) -> ToolSpec:
        """The tool's declaration (its `hints` are for the host: adapters send them to MCP only)."""
        return ToolSpec(
            self.name, self.description, self.input_schema, self.source, self.hints, self.output_schema
        )

    async def call(self, args: dict[str, Any] | None, ctx: ToolContext | None = None) -> ToolResult:
        """Run the tool. A failure is an error result, never an exception; cancellation propagates."""
        if ctx is None:
            ctx = _DEFAULT_CONTEXT
        if args is None:
            args = {}
        elif not isinstance(args, dict):
            return ToolResult.error(
                f"invalid arguments for {self.name}: $: expected a JSON object, got {type(args).__name__}"
            )
        try:
            if ctx.timeout is None:
                checked = self._prepare(args)
                if isinstance(checked, ToolResult):  # the arguments are refused
                    return checked
                if self._is_async:  # the common case, one await deep
                    value = await self._handler(checked, ctx)
                else:
                    value = await self._run(checked, ctx)
            else:
                import asyncio  # here, not at the top: `import toolnexus` stays cheap

                scope = asyncio.timeout(ctx.timeout)
                try:
                    async with scope:  # the deadline covers checking the arguments too
                        checked = await self._prepare_off_loop(args)
                        if isinstance(checked, ToolResult):
                            return checked
                        value = await self._run(checked, ctx)
                except TimeoutError:
                    if not scope.expired():
                        raise  # the handler's own TimeoutError: an ordinary failure
                    return ToolResult.error(f"{self.name} timed out after {ctx.timeout:g} s")
            if self._output is not None:  # a tool with an output schema returns data
                return self._output.result(value)
            if type(value) is str:  # the common return, ahead of `_as_result`'s other rules
                return _ok(value)
            return _as_result(value)
        except Exception as exc:
            return self._failed(exc)
        except BaseException as exc:  # GeneratorExit, a library's own BaseException, a group...
            if _crosses(exc):
                raise
            return self._failed(exc)

    def _failed(self, exc: BaseException) -> ToolResult:
        """The error result for an exception raised in the call, logged with its traceback on
        the `toolnexus` logger; its text is `error_text(exc)` when the host set one."""
        logger.error("tool %s raised %s", self.name, type(exc).__name__, exc_info=exc)
        if self.error_text is None:
            return ToolResult.error(_exception_text(exc))
        try:
            text = self.error_text(exc)
            if not isinstance(text, str):
                raise TypeError(f"error_text returned {type(text).__name__}, not str")
        except Exception:
            logger.exception("error_text of tool %s failed; the exception's own text is used", self.name)
            return ToolResult.error(_exception_text(exc))
        return ToolResult.error(text)

    def _prepare(self, args: dict[str, Any]) -> dict[str, Any] | ToolResult:
        """The handler's arguments (checked, and a copy), or the error result saying why not."""
        try:
            if self._check is not None:
                args, problems = self._check(args)
                if problems:
                    return ToolResult.error(f"invalid arguments for {self.name}: " + "; ".join(problems))
            return args if self._copy is None else self._copy(args)
        except RecursionError:
            return ToolResult.error(
                f"invalid arguments for {self.name}: $: nested too deeply to check "
                f"(over the interpreter's recursion limit)"
            )

    async def _prepare_off_loop(self, args: dict[str, Any]) -> dict[str, Any] | ToolResult:
        """`_prepare` where a deadline can interrupt it: arguments the fast check accepts are
        ready at once; any other check runs in a worker thread, so the loop goes on."""
        quick: Callable[[dict[str, Any]], bool] | None = getattr(self._check, "quick", None)
        if quick is None or quick(args):
            return self._prepare(args)
        import asyncio

        return await asyncio.to_thread(self._prepare, args)

    async def _run(self, args: dict[str, Any], ctx: ToolContext) -> Any:
        if self._is_async:
            return await self._handler(args, ctx)
        if self._stream:
            return await self._drain(self._handler(args, ctx), ctx)
        import asyncio  # here, not at the top: `import toolnexus` stays cheap

        value = await asyncio.to_thread(_in_thread, self._handler, args, ctx)
        if type(value) is _Raised:  # raised here, not thrown in by asyncio: `call` catches it
            raise value.exc
        if inspect.isawaitable(value):  # a plain function that returned a coroutine
            value = await value
        return value

    async def _drain(self, values: Any, ctx: ToolContext) -> Any:
        """The last value of an async generator handler; each value is reported as it comes, as
        the result so far (`ctx.partial`, as `call` would make a result of it), and the last is
        the call's result too (nothing waits for the next value to know which is last).
        After each value the event loop gets a turn, so a generator that yields what it holds,
        awaiting nothing, still meets its timeout and `Toolkit.cancel`."""
        import asyncio

        last: Any = _NOTHING
        async for value in values:
            ctx.partial(value if isinstance(value, ToolResult) else _as_result(value))
            last = value
            await asyncio.sleep(0)
        return "" if last is _NOTHING else last


_NOTHING = object()


class _Raised:
    __slots__ = ("exc",)

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


def _in_thread(handler: Handler, args: dict[str, Any], ctx: ToolContext) -> Any:
    """A sync handler run in a worker thread. A `GeneratorExit` it raises comes back as a value:
    asyncio would throw it into the awaiting task, which closes every coroutine on the way."""
    try:
        return handler(args, ctx)
    except GeneratorExit as exc:
        return _Raised(exc)


def _json_schema_check(
    schema: dict[str, Any],
) -> Callable[[dict[str, Any]], tuple[dict[str, Any], list[str]]]:
    """A validator for `schema`, built once; it reports every violation with its path.

    Arguments the fast acceptor (`_schema.fast_acceptor`) takes are valid without asking
    `jsonschema`; the rest go to `jsonschema`, which decides and words the errors.
    """
    import jsonschema  # imported on first use: it is a heavy import and optional for typed tools

    from ._schema import fast_acceptor, validator_for

    cls = validator_for(schema)
    try:
        cls.check_schema(schema)
    except jsonschema.SchemaError as exc:
        raise UsageError(f"input_schema is not a valid JSON Schema: {exc.message}") from None
    validator = cls(schema)
    accept = fast_acceptor(schema)

    def quick(args: dict[str, Any]) -> bool:
        """Whether the fast check accepts `args` (it takes time linear in their size)."""
        if accept is None:
            return False
        try:
            accept(args)
            return True
        except ValidationError:
            return False  # refused, or beyond the fast check: the full validator decides, and says why

    def check(args: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        if accept is not None:  # `quick`, inlined: this is every call's path
            try:
                accept(args)
                return args, []
            except ValidationError:
                pass
        problems = [
            f"{err.json_path}: {err.message}"
            for err in sorted(validator.iter_errors(args), key=lambda e: list(map(str, e.absolute_path)))
        ]
        return args, problems

    setattr(check, "quick", quick)  # noqa: B010  (read by `Tool.call` under a deadline)
    return check


def define_tool(
    name: str,
    description: str,
    input_schema: dict[str, Any] | None,
    handler: Handler | None,
    *,
    hints: ToolHints | None = None,
    needs_approval: NeedsApproval = False,
    output_schema: dict[str, Any] | None = None,
    strict: bool = False,
    error_text: ErrorText | None = None,
    limit: Limit | None = None,
) -> Tool:
    """A tool from a handler `(args: dict, ctx: ToolContext) -> result`, sync or async.

    With `handler=None`, a person supplies the result: each call suspends on a request of kind
    `result` (id `res-…`, `data` `{"tool", "arguments"}`, and `"schema"`: the output schema,
    when the tool has one), and the answer's `data` is the result, as a `ToolResult`'s wire
    form (`{"output": ..., "isError"?, "parts"?, "structuredContent"?}`): checked as the wire
    checks it, and against the output schema. A refusal is `declined: …`, as for any question.

    `input_schema` is the JSON Schema of the arguments; None accepts any object.
    The schema is checked and compiled here, once. `hints` (read-only, destructive,
    open-world) are advisory, for the host; they reach MCP as tool annotations.
    `needs_approval` (True, or a function of the checked arguments returning a bool) makes
    `Toolkit` ask for an approval before the handler runs (see `Toolkit.run_calls`);
    `Tool.call` itself never asks.
    `output_schema` (a JSON Schema) declares structured output: the handler returns the data
    (or a `ToolResult` with `structured_content`), which is checked against it and becomes
    the result's `structured_content`, with the same value as JSON text in `output`; data
    that does not match is an error result naming the place.
    `strict=True` declares the schema to be in OpenAI's strict subset (every property
    required, `additionalProperties: false`, ...; see `toolnexus._strict`): it is checked
    here (`ValueError` listing what is outside it), and the OpenAI and Anthropic adapters
    send `strict: true`. `error_text(exc)` is the model-facing text of the error result for
    an exception the handler raises (by default the exception's message). `limit` (a `Limit`)
    bounds the output the model reads when the tool runs in a `Toolkit`: a longer one is cut
    (docs/guides/result-limits.md); a bad limit raises `UsageError` here.
    """
    if output_schema is not None and not isinstance(output_schema, dict):
        raise TypeError(f"output_schema must be a dict or None, got {type(output_schema).__name__}")
    schema, check = _input(name, input_schema, strict)
    if handler is None:
        handler = _supplied(name, output_schema)
    return Tool(
        name,
        description,
        schema,
        handler,
        check=check,
        source=_source_of(handler),
        hints=hints,
        needs_approval=needs_approval,
        output=None if output_schema is None else Output(output_schema),
        strict=strict,
        error_text=error_text,
        function=handler,
        limit=limit,
    )


def _input(
    name: str, input_schema: dict[str, Any] | None, strict: bool
) -> tuple[dict[str, Any], Check | None]:
    """The schema `define_tool` declares and its compiled check (None: any object)."""
    if input_schema is None:
        if strict:
            raise UsageError(
                f"define_tool {name!r}: strict=True needs an input_schema in OpenAI's strict subset"
            )
        return {"type": "object"}, None
    if not isinstance(input_schema, dict):
        raise TypeError(f"input_schema must be a dict or None, got {type(input_schema).__name__}")
    check = _json_schema_check(input_schema)
    problems = strict_problems(input_schema) if strict else []
    if problems:
        raise UsageError(
            f"define_tool {name!r}: strict=True, but the input schema is outside OpenAI's strict subset: "
            + "; ".join(problems)
        )
    return input_schema, check


def _supplied(name: str, output_schema: dict[str, Any] | None) -> Handler:
    """The handler of a tool whose results a person supplies (`define_tool(..., handler=None)`)."""
    from ._suspend import pending

    async def supplied(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        answer = ctx.answer
        if answer is None:
            data: dict[str, Any] = {"tool": name, "arguments": args}
            if output_schema is not None:
                data["schema"] = output_schema
            request = Request(
                kind="result", prompt=f"The result of {name}, called with these arguments", data=data
            )
            return pending(request.model_copy(update={"id": "res-" + secrets.token_hex(16)}))
        try:
            return ToolResult.from_wire(answer.data if answer.data is not None else {})
        except WireError as exc:
            return ToolResult.error(f"the result supplied for {name} is not a ToolResult: {exc}")

    supplied.__qualname__ = f"supplied_result[{name}]"
    return supplied


def _source_of(fn: Callable[..., Any]) -> str | None:
    module = getattr(fn, "__module__", None)
    qualname = getattr(fn, "__qualname__", None)
    return f"python:{module}.{qualname}" if module and qualname else None


def checked_arguments(tool: Tool, args: dict[str, Any]) -> dict[str, Any] | ToolResult:
    """The arguments `tool`'s handler would get for `args` (checked against its schema, a copy),
    or the error result saying why not: for the engine's approval rules, which read them."""
    return tool._prepare(args)
