"""What a tool call knows besides its arguments (`ToolContext`), and the hooks a host gives it
to hear the call's progress, partial results and log lines."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

from ._errors import UsageError
from ._result import Answer, Request, ToolResult

__all__ = ["LOG_LEVELS", "LogHook", "ProgressHook", "ToolContext", "tool_logger"]

#: `ToolContext.on_progress(fraction, message)`: how far the call has got (`ToolContext.progress`).
ProgressHook: TypeAlias = Callable[[float, str], None]
#: `ToolContext.on_log(level, message, data)`: a log line of the call (`ToolContext.log`).
LogHook: TypeAlias = Callable[[str, str, dict[str, Any]], None]
#: The levels of `ToolContext.log`, lowest first: MCP's, which are RFC 5424's syslog severities.
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
_PYTHON_LEVELS = {
    "debug": logging.DEBUG, "info": logging.INFO, "notice": logging.INFO, "warning": logging.WARNING,
    "error": logging.ERROR, "critical": logging.CRITICAL, "alert": logging.CRITICAL,
    "emergency": logging.CRITICAL,
}  # fmt: skip
#: Where `ToolContext.log` writes, besides its listeners.
tool_logger = logging.getLogger("toolnexus.tools")


@dataclass(frozen=True, slots=True)
class ToolContext:
    """What a call knows besides its arguments.

    `timeout` (seconds) bounds the call: an overrun becomes an error result.
    `answer` is set only when the call is a retry after a suspension, and `request` then holds
    the `Request` it answers (as stored in the run, so it is there in any process that resumes).
    `call_id` is the id of the `ToolCall` being run (empty when the tool is called directly).
    `idempotency_key` stays the same for one call across its suspension, its retry with
    an answer and any process that resumes the run: a tool with side effects passes it to
    the system it changes, so that a call run twice takes effect once. The toolkit derives
    it from the turn's call ids and the call's id; it is empty when the tool is called directly.
    `on_progress` receives what the tool reports through `progress`, `on_partial` the
    partial results it reports through `partial` (or yields, as an async generator), and
    `on_log` the lines it logs through `log`.
    """

    timeout: float | None = None
    answer: Answer | None = None
    request: Request | None = None
    call_id: str = ""
    idempotency_key: str = ""
    on_progress: ProgressHook | None = None
    on_partial: Callable[[ToolResult], None] | None = None
    on_log: LogHook | None = None

    def __post_init__(self) -> None:
        if self.timeout is not None and (
            not isinstance(self.timeout, (int, float))
            or isinstance(self.timeout, bool)
            or math.isnan(self.timeout)
        ):
            raise UsageError(f"timeout must be a number of seconds or None, got {self.timeout!r}")

    def progress(self, fraction: float, message: str = "") -> None:
        """Report how far the call has got: `fraction` from 0 to 1, and a short message.

        Reaches `Toolkit(on_progress=...)` (and an MCP client's progress notifications
        when the toolkit is served over MCP); does nothing when no one listens. A
        `fraction` outside 0..1, or not a number, raises `ValueError`.
        """
        if not isinstance(fraction, (int, float)) or isinstance(fraction, bool) or not 0.0 <= fraction <= 1.0:
            raise UsageError(f"progress takes a fraction from 0 to 1, got {fraction!r}")
        if not isinstance(message, str):
            raise TypeError(f"progress takes a str message, got {type(message).__name__}")
        if self.on_progress is not None:
            self.on_progress(float(fraction), message)

    def log(self, level: str, message: str, **data: Any) -> None:
        """Log a line of the call, for the people who run it (never the model): `level` one of
        `LOG_LEVELS` (`debug`, `info`, `notice`, `warning`, `error`, `critical`, `alert`,
        `emergency`), `message` text, and `data` JSON values to go with it.

        It goes to Python's `logging` (the logger `toolnexus.tools`; `notice` as INFO, `alert`
        and `emergency` as CRITICAL; the call id and the data in the record's `toolnexus_call`
        and `toolnexus_data`), to `Toolkit(on_log=...)`, and, when the toolkit is served over
        MCP, to the client as `notifications/message` (at the level it asked for with
        `logging/setLevel`, or on the 2026-07-28 protocol with the request's log level). An
        unknown level raises `ValueError`, a message that is not text `TypeError`."""
        python_level = _PYTHON_LEVELS.get(level) if isinstance(level, str) else None
        if python_level is None:
            raise ValueError(f"log takes a level of {', '.join(LOG_LEVELS)}; got {level!r}")
        if not isinstance(message, str):
            raise TypeError(f"log takes a str message, got {type(message).__name__}")
        tool_logger.log(
            python_level,
            "%s%s",
            f"call {self.call_id}: " if self.call_id else "",
            message,
            extra={"toolnexus_call": self.call_id, "toolnexus_data": data},
        )
        if self.on_log is not None:
            self.on_log(level, message, data)

    def partial(self, result: ToolResult | str) -> None:
        """Report the result so far (a `ToolResult`, or text): it reaches `Toolkit(on_event=...)`
        and a served MCP client's progress notifications, never the model; the call's result
        replaces it. A handler that is an async generator reports each value it yields this
        way, as it yields it; its last value is also its result."""
        if isinstance(result, str):
            result = ToolResult.ok(result)
        if not isinstance(result, ToolResult):
            raise TypeError(f"partial takes a ToolResult or a str, got {type(result).__name__}")
        if self.on_partial is not None:
            self.on_partial(result)
