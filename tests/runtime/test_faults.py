"""The handler fault matrix of `Tool.call` (the table is in docs/limits.md).

Every way a handler can misbehave has one behaviour: an error result with a useful message,
or propagation where swallowing would be wrong (cancellation, interpreter exits). Nothing
else crosses `call`.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from toolnexus import ToolContext, ToolResult, define_tool


def _tool(handler: Any) -> Any:
    return define_tool("faulty", "", None, handler)


class _BadStr(Exception):
    def __str__(self) -> str:
        raise RuntimeError("__str__ failed too")


class _Opaque:
    def __repr__(self) -> str:
        return "<opaque>"


def _sync_and_async(body: Any) -> list[Any]:
    """The same body as a sync and as an async handler."""

    async def async_handler(args: dict[str, Any], ctx: ToolContext) -> Any:
        return body()

    def sync_handler(args: dict[str, Any], ctx: ToolContext) -> Any:
        return body()

    return [async_handler, sync_handler]


def _raise(exc: BaseException) -> Any:
    def body() -> Any:
        raise exc

    return body


def _return(value: Any) -> Any:
    return lambda: value


# (case, body, expected result): each row of the matrix that ends in a result.
RESULT_CASES = [
    ("exception", _raise(ValueError("bad n")), ToolResult.error("bad n")),
    ("exception, empty message", _raise(ValueError()), ToolResult.error("ValueError")),
    ("exception, __str__ raises", _raise(_BadStr("x")), ToolResult.error("_BadStr")),
    ("exception group", _raise(ExceptionGroup("two failed", [ValueError("a")])), None),
    ("returns None", _return(None), ToolResult.ok("")),  # nothing returned: nothing to say
    ("returns int", _return(7), ToolResult.ok("7")),
    ("returns dict", _return({"b": 1, "a": [True, None]}), ToolResult.ok('{"b":1,"a":[true,null]}')),
    (
        "returns bytes",
        _return(b"\x89PNG"),
        ToolResult.error(
            "the tool returned bytes, which are not text; return a ToolResult with a ContentPart instead"
        ),
    ),
    ("returns a non-JSON object", _return(_Opaque()), None),
    ("returns NaN", _return(float("nan")), None),
    ("returns a dict with a non-str key", _return({(1, 2): "x"}), None),
]


@pytest.mark.parametrize("sync", [False, True], ids=["async", "sync"])
@pytest.mark.parametrize(("case", "body", "expected"), RESULT_CASES, ids=[c[0] for c in RESULT_CASES])
async def test_each_fault_becomes_one_defined_result(case: str, body: Any, expected: Any, sync: bool) -> None:
    handler = _sync_and_async(body)[int(sync)]
    result = await _tool(handler).call({})
    assert isinstance(result, ToolResult)
    if expected is not None:
        assert result == expected
    else:
        assert result.is_error
        assert result.output
    if case == "exception group":
        assert result.output.startswith("two failed")
    if case == "returns a non-JSON object":
        assert result.output.startswith("the tool returned a value that is not JSON: ")
        assert "_Opaque" in result.output
    if case in ("returns NaN", "returns a dict with a non-str key"):
        assert result.output.startswith("the tool returned a value that is not JSON: ")


async def test_a_sync_function_returning_a_coroutine_is_awaited() -> None:
    async def later() -> str:
        return "awaited"

    result = await _tool(lambda args, ctx: later()).call({})
    assert result == ToolResult.ok("awaited")


async def test_an_async_handler_returning_a_coroutine_is_an_error_and_the_coroutine_is_closed() -> None:
    """`return other()` instead of `return await other()`: the coroutine is not run a second
    level deep; it is reported as a value that is not JSON."""
    ran = []

    async def inner() -> str:
        ran.append(True)
        return "never"

    async def handler(args: dict[str, Any], ctx: ToolContext) -> Any:
        return inner()

    with pytest.warns(RuntimeWarning, match="never awaited"):
        result = await _tool(handler).call({})
        import gc

        gc.collect()
    assert result.is_error
    assert "not JSON" in result.output
    assert ran == []


async def test_sleeping_past_the_timeout_is_an_error_result() -> None:
    async def slow(args: dict[str, Any], ctx: ToolContext) -> str:
        await asyncio.Event().wait()  # forever
        return "never"

    assert await _tool(slow).call({}, ToolContext(timeout=0.01)) == ToolResult.error(
        "faulty timed out after 0.01 s"
    )


async def test_a_blocking_sync_handler_times_out_but_its_thread_runs_on() -> None:
    """A thread cannot be stopped: the call returns the timeout error, the handler keeps
    running in its worker thread until it returns, and its return value is dropped."""
    release = threading.Event()
    finished = threading.Event()

    def blocking(args: dict[str, Any], ctx: ToolContext) -> str:
        release.wait()
        finished.set()
        return "late"

    result = await _tool(blocking).call({}, ToolContext(timeout=0.01))
    assert result == ToolResult.error("faulty timed out after 0.01 s")
    assert not finished.is_set()  # still blocked: nothing stopped it
    release.set()
    await asyncio.to_thread(finished.wait)
    assert finished.is_set()


async def test_cancellation_propagates_from_sync_and_async_handlers() -> None:
    started = threading.Event()
    release = threading.Event()

    async def slow(args: dict[str, Any], ctx: ToolContext) -> str:
        started.set()
        await asyncio.Event().wait()
        return "never"

    def blocking(args: dict[str, Any], ctx: ToolContext) -> str:
        started.set()
        release.wait()
        return "never"

    for handler in (slow, blocking):
        started.clear()
        task = asyncio.ensure_future(_tool(handler).call({}, ToolContext(timeout=60)))
        await asyncio.to_thread(started.wait)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    release.set()


async def test_a_handler_raising_cancelled_error_itself_propagates() -> None:
    async def handler(args: dict[str, Any], ctx: ToolContext) -> str:
        raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        await _tool(handler).call({})


@pytest.mark.parametrize("exc", [KeyboardInterrupt, SystemExit], ids=["KeyboardInterrupt", "SystemExit"])
@pytest.mark.parametrize("sync", [False, True], ids=["async", "sync"])
async def test_interpreter_exits_propagate(exc: type[BaseException], sync: bool) -> None:
    handler = _sync_and_async(_raise(exc()))[int(sync)]
    with pytest.raises(exc):
        await _tool(handler).call({})


async def test_a_deeply_nested_return_value_is_an_error_result() -> None:
    """json's encoder raises RecursionError past the interpreter's recursion limit; `call`
    turns it into an error result instead of letting it cross (see docs/limits.md)."""
    value: Any = []
    for _ in range(100_000):
        value = [value]
    result = await _tool(lambda args, ctx: value).call({})
    assert result.is_error
    assert result.output.startswith("the tool returned a value that is not JSON: ")


async def test_arguments_that_are_not_an_object_are_an_error_result() -> None:
    called = []
    t = _tool(lambda args, ctx: called.append(args))
    for bad in ([1], "x", 3):
        result = await t.call(bad)
        assert result.is_error and "expected a JSON object" in result.output
    assert called == []
