"""What `Tool.call` does with hostile arguments and handlers: nesting past the recursion
limit, values that cannot become a result, what crosses `call`, a wire model returned, a handler
that changes its arguments, and a deadline that covers checking the arguments."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re
import time
import warnings
from typing import Any

import pytest
import toolnexus_wire
from pydantic import BaseModel, ConfigDict

from tests.conftest import SECRET
from toolnexus import (
    Answer,
    Request,
    RunResult,
    ToolCall,
    ToolCallResult,
    ToolContext,
    ToolResult,
    define_tool,
    pending,
)
from toolnexus._toolkit import Toolkit
from toolnexus.adapters import (
    anthropic_tool_result,
    openai_chat_messages,
)


async def _ok(args: dict[str, Any], ctx: ToolContext) -> str:
    return "ok"


def _nested(depth: int) -> dict[str, Any]:
    """What a model could send against a recursive schema: {"child": {"child": ... {"oops": 1}}}."""
    value: dict[str, Any] = {"oops": 1}
    for _ in range(depth):
        value = {"child": value}
    return value


# -- a recursive schema and arguments nested past the recursion limit -----------------------------

RECURSIVE = {"type": "object", "properties": {"child": {"$ref": "#"}}, "additionalProperties": False}


@pytest.mark.parametrize("depth", [300, 5000])
async def test_arguments_nested_past_the_recursion_limit_are_an_error_result(depth: int) -> None:
    tree = define_tool("tree", "walks a tree", RECURSIVE, _ok)
    result = await tree.call(_nested(depth))
    assert result.is_error
    assert result.output.startswith("invalid arguments for tree: ")
    assert "nested too deeply" in result.output
    run = await Toolkit([tree]).run_calls([ToolCall("c1", "tree", _nested(depth))])
    assert run.status == "done" and run.results[0].result == result


async def test_arguments_nested_past_the_limit_without_a_schema_are_an_error_result() -> None:
    value: Any = {}
    for _ in range(5000):
        value = {"a": value}
    result = await define_tool("t", "", None, _ok).call(value)
    assert result.is_error and "nested too deeply" in result.output


# -- what crosses `call`: cancellation and interpreter exits, nothing else ---------------------------


class _Handle:
    pass


class _Report(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)
    handle: _Handle


class _LazyDict(dict[str, Any]):
    def items(self) -> Any:
        raise KeyError("backing store gone")


class _LazyList(list[Any]):
    def __iter__(self) -> Any:
        raise LookupError("backing store gone")


class _ToolAbort(BaseException):  # a library's own BaseException, not an interpreter exit
    pass


def _edited_result() -> Any:
    r = toolnexus_wire.ToolResult(output="x")  # the generated model, as another package returns it
    r.output = 42  # type: ignore[assignment]
    return r


ESCAPED = [
    (
        "a pydantic model that cannot serialize",
        lambda: _Report(handle=_Handle()),
        "the tool returned a value that is not JSON: Unable to serialize unknown type: ",
    ),
    (
        "a dict subclass whose items() raises KeyError",
        lambda: _LazyDict(a=1),
        "the tool returned a value that is not JSON: 'backing store gone'",
    ),
    (
        "a list subclass whose iteration raises LookupError",
        lambda: _LazyList([1]),
        "the tool returned a value that is not JSON: backing store gone",
    ),
    (
        "a generated ToolResult given an invalid value",
        _edited_result,
        "1 validation error for ToolResult\noutput",
    ),
]
RAISED: list[tuple[str, BaseException]] = [
    ("a custom BaseException subclass", _ToolAbort("stop")),
    ("GeneratorExit", GeneratorExit()),
    ("a BaseExceptionGroup", BaseExceptionGroup("two stopped", [_ToolAbort("a"), GeneratorExit()])),
    ("an ExceptionGroup", ExceptionGroup("two failed", [ValueError("a"), KeyError("b")])),
]


def _both(body: Any) -> list[Any]:
    async def async_handler(args: dict[str, Any], ctx: ToolContext) -> Any:
        return body()

    def sync_handler(args: dict[str, Any], ctx: ToolContext) -> Any:
        return body()

    return [async_handler, sync_handler]


def _raising(exc: BaseException) -> Any:
    def body() -> Any:
        raise exc

    return body


@pytest.mark.parametrize("sync", [False, True], ids=["async", "sync"])
@pytest.mark.parametrize(("case", "body", "says"), ESCAPED, ids=[c for c, _, _ in ESCAPED])
async def test_a_value_that_fails_to_become_a_result_is_an_error_result(
    case: str, body: Any, says: str, sync: bool
) -> None:
    result = await define_tool("t", "", None, _both(body)[sync]).call({})
    assert isinstance(result, ToolResult) and result.is_error and result.output.startswith(says)


@pytest.mark.parametrize("sync", [False, True], ids=["async", "sync"])
@pytest.mark.parametrize(("case", "exc"), RAISED, ids=[c for c, _ in RAISED])
async def test_every_other_exception_becomes_an_error_result(
    case: str, exc: BaseException, sync: bool
) -> None:
    result = await define_tool("t", "", None, _both(_raising(exc))[sync]).call({})
    assert isinstance(result, ToolResult) and result.is_error
    assert result.output == (str(exc) or type(exc).__name__)


CROSSING: list[tuple[str, BaseException]] = [
    ("CancelledError", asyncio.CancelledError()),
    ("KeyboardInterrupt", KeyboardInterrupt()),
    ("SystemExit", SystemExit(3)),
    ("a group holding KeyboardInterrupt", BaseExceptionGroup("g", [ValueError("a"), KeyboardInterrupt()])),
    ("a group holding CancelledError", BaseExceptionGroup("g", [asyncio.CancelledError()])),
]


@pytest.mark.parametrize(("case", "exc"), CROSSING, ids=[c for c, _ in CROSSING])
async def test_cancellation_and_interpreter_exits_cross_call(case: str, exc: BaseException) -> None:
    with pytest.raises(type(exc)):
        await define_tool("t", "", None, _both(_raising(exc))[0]).call({})


# -- a wire model other than ToolResult never leaks metadata -------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda inner: ToolCallResult("inner-1", "query", inner),
        lambda inner: RunResult("done", [ToolCallResult("inner-1", "query", inner)]),
    ],
    ids=["ToolCallResult", "RunResult"],
)
async def test_a_returned_wire_model_never_sends_its_metadata_to_the_model(make: Any) -> None:
    secret = "internal-db-password-123"
    inner = ToolResult.ok("42 rows").with_metadata({"dsn": f"postgres://admin:{secret}@db"})

    async def delegate(args: dict[str, Any], ctx: ToolContext) -> Any:
        return make(inner)

    result = await define_tool("delegate", "", None, delegate).call({})
    assert result.is_error and "not a ToolResult" in result.output
    call = ToolCallResult("c1", "delegate", result)
    assert secret not in result.to_json()
    assert secret not in json.dumps(anthropic_tool_result(call))
    assert secret not in json.dumps(openai_chat_messages(call))


# -- handlers get a copy of the arguments --------------------------------------------------------


async def test_a_handler_that_changes_its_arguments_changes_no_one_elses() -> None:
    seen: list[Any] = []

    async def transfer(args: dict[str, Any], ctx: ToolContext) -> Any:
        amount = args.pop("amount", None)
        args["to"].append("mallory")
        seen.append((amount, list(args["to"])))
        if ctx.answer is None:
            return pending(Request("approval", f"Transfer {amount}?"))
        return f"transferred {amount}"

    kit = Toolkit([define_tool("transfer", "", None, transfer)], secret=SECRET)
    call = ToolCall("c1", "transfer", {"amount": 100, "to": ["bob"]})
    run = await kit.run_calls([call])
    assert call.arguments == {"amount": 100, "to": ["bob"]}
    assert run.calls[0].arguments == {"amount": 100, "to": ["bob"]}
    assert run.pending is not None
    done = await kit.resume(RunResult.from_json(run.to_json()), Answer(run.pending.id, True))
    assert done.results[0].result.output == "transferred 100"
    assert seen == [(100, ["bob", "mallory"]), (100, ["bob", "mallory"])]

    mine = {"amount": 5, "to": ["eve"]}
    await define_tool("transfer", "", None, transfer).call(mine)
    assert mine == {"amount": 5, "to": ["eve"]}


# -- the deadline covers checking the arguments ----------------------------------------------------


async def _stalls(coro: Any) -> tuple[Any, float, float]:
    """The coroutine's value, its duration, and the longest the event loop went without a tick."""
    stamps: list[float] = []

    async def ticker() -> None:
        while True:
            stamps.append(time.monotonic())
            await asyncio.sleep(0.01)

    tick = asyncio.ensure_future(ticker())
    await asyncio.sleep(0.03)
    t0 = time.monotonic()
    value = await coro
    took = time.monotonic() - t0
    await asyncio.sleep(0.03)
    tick.cancel()
    return value, took, max(b - a for a, b in itertools.pairwise(stamps))


async def test_a_backtracking_pattern_neither_stalls_the_loop_nor_outlives_the_timeout() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "^(a+)+$"}}}
    t = define_tool("p", "", schema, _ok)
    result, took, stall = await _stalls(t.call({"a": "a" * 28 + "!"}, ToolContext(timeout=0.1)))
    assert result.is_error
    assert took < 1 and stall < 0.5


async def test_a_slow_argument_check_ends_at_the_timeout() -> None:
    schema = {"type": "object", "properties": {"xs": {"type": "array", "uniqueItems": True}}}
    t = define_tool("u", "", schema, _ok)
    xs = [{"k": i} for i in range(900)]  # jsonschema compares these pairwise: seconds
    result, took, _ = await _stalls(t.call({"xs": xs}, ToolContext(timeout=0.1)))
    assert result == ToolResult.error("u timed out after 0.1 s")
    assert took < 1


_TOKENS = [
    *("a", "b", "0", ".", "\\d", "\\w", "\\s", "\\D", "\\W", "\\S", "\\b", "\\B", "[ab]", "[^a]"),
    *("[\\d]", "[a-c]", "[\\w-]", "(a|b)", "(?:ab)", "*", "+", "?", "{2}", "{1,3}", "{2,}", "*?"),
    *("^", "$", "\\.", "\\-", "é", "\\x41", "[$]", "|", "(", ")", "\\n", "[\\s]", "[.]", "(?=a)"),
    *("[[:alpha:]]", "[a&&b]", "\\1", "a{,2}", "{", "\\<"),
]
_TEXT = [*"ab01 _-\n!é٣\t\x0b\x0c\rA\u2028", "a", "a", "a"]


def test_patterns_read_by_the_rust_engine_mean_what_they_mean_to_re() -> None:
    from toolnexus._schema import _rust_pattern, ecma_matcher, ecma_pattern

    rng = random.Random(12)
    compared = 0
    for _ in range(3000):
        pattern = "".join(rng.choice(_TOKENS) for _ in range(rng.randint(1, 6)))
        try:
            with warnings.catch_warnings():  # `re` warns of `[[` and `&&`, which Rust reads otherwise
                warnings.simplefilter("ignore", FutureWarning)
                reference = ecma_pattern(pattern)
        except re.error:
            continue
        match = ecma_matcher(pattern)
        compared += _rust_pattern(pattern) is not None
        for _ in range(20):
            text = "".join(rng.choice(_TEXT) for _ in range(rng.randint(0, 8)))
            assert match(text) == (reference.search(text) is not None), (pattern, text)
    assert compared > 500
