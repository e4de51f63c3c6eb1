"""A tool's exception is an error result, logged with its traceback on the `toolnexus`
logger; `error_text` sets the text the model reads (by default the exception's message)."""

from __future__ import annotations

import logging

import pytest

from toolnexus import ToolCall, Toolkit, define_tool, tool


@tool
def divide(a: int, b: int) -> str:
    """Divide."""
    return str(a // b)


@tool(error_text=lambda exc: f"internal error ({type(exc).__name__}); the team was told")
def hidden(a: int) -> str:
    """Fails with a message the model should not read."""
    raise RuntimeError("password=hunter2 in the connection string")


async def test_an_exception_is_logged_with_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="toolnexus"):
        result = await divide.call({"a": 1, "b": 0})
    assert result.is_error and result.output == "integer division or modulo by zero"  # unchanged
    [record] = caplog.records
    assert record.name == "toolnexus" and record.levelno == logging.ERROR
    assert record.getMessage() == "tool divide raised ZeroDivisionError"
    assert record.exc_info is not None and record.exc_info[0] is ZeroDivisionError
    assert "in divide" in caplog.text and "return str(a // b)" in caplog.text  # the traceback


async def test_no_log_for_a_result_or_for_refused_arguments(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="toolnexus"):
        assert (await divide.call({"a": 4, "b": 2})).output == "2"
        assert (await divide.call({"a": "x"})).is_error
    assert caplog.records == []


async def test_error_text_sets_the_model_facing_text(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="toolnexus"):
        result = await hidden.call({"a": 1})
    assert result.output == "internal error (RuntimeError); the team was told"
    assert "hunter2" not in result.output
    assert "hunter2" in caplog.text  # the host's log keeps the detail


async def test_error_text_through_the_toolkit_and_define_tool() -> None:
    def boom(args: dict[str, object], ctx: object) -> str:
        raise ValueError("detail")

    kit = Toolkit([hidden, define_tool("boom", "Boom", None, boom, error_text=lambda exc: "boom failed")])
    run = await kit.run_calls([ToolCall("1", "hidden", {"a": 1}), ToolCall("2", "boom", {})])
    assert [r.result.output for r in run.results] == [
        "internal error (RuntimeError); the team was told",
        "boom failed",
    ]


async def test_a_failing_error_text_falls_back_to_the_message(caplog: pytest.LogCaptureFixture) -> None:
    @tool(error_text=lambda exc: 1 / 0)
    def fails() -> str:
        raise KeyError("k")

    with caplog.at_level(logging.ERROR, logger="toolnexus"):
        result = await fails.call({})
    assert result.is_error and result.output == "'k'"
    assert [r.getMessage() for r in caplog.records] == [
        "tool fails raised KeyError",
        "error_text of tool fails failed; the exception's own text is used",
    ]


def test_error_text_must_be_callable() -> None:
    with pytest.raises(TypeError, match="error_text must be a function of the exception, got str"):
        define_tool("x", "x", None, lambda args, ctx: "", error_text="oops")  # type: ignore[arg-type]
