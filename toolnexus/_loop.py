"""The loop rule, once: what the answer to a suspended call leads to.

Every host of the toolkit applies it: `Toolkit` (`run_calls` with `wait_for`, and `resume`),
the Temporal workflow (`toolnexus.temporal`) and the MCP server (`toolnexus.mcp`). They differ
in how they wait, run a call and tell the time; what follows an answer is decided here.

A call suspends with a `Request`. When its answer comes (or its time runs out):

- an approval the toolkit asked before the handler ran (`is_approval`): refused or expired, the
  call is `refused` and never runs; approved, the handler runs for the first time, with the
  arguments the person may have edited (`approved_arguments`), and may then ask in turn;
- any other question: refused or expired, the result is `declined`; answered, the call runs
  once more with the answer, and a second suspension is `unresolved` (naming the first
  request's prompt, as the upstream ports do).

`verdict` says which: a result that ends the call, or None to run it.
"""

from __future__ import annotations

import copy
import re
import secrets
from datetime import UTC, datetime
from typing import Any

from ._result import Answer, Request, ToolResult
from ._suspend import pending_of
from ._tool import Tool, normalize_tool_name

__all__ = [
    "APPROVAL_PREFIX",
    "after_retry",
    "approval_for",
    "approved_arguments",
    "expired",
    "is_approval",
    "parse_time",
    "verdict",
]

#: Ids of the approval requests the toolkit asks before a tool runs (`needs_approval`).
APPROVAL_PREFIX = "apr-"

#: RFC 3339's date-time: what `expiresAt` holds when a tool means an expiry the loop can read.
_RFC3339 = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})"
)
_FRACTION = re.compile(r"(\.\d{6})\d+")


def parse_time(text: str) -> datetime:
    """An RFC 3339 date-time as an aware datetime; `ValueError` for anything else."""
    if not _RFC3339.fullmatch(text):
        raise ValueError(f"not an RFC 3339 date-time: {text!r}")
    text = _FRACTION.sub(r"\1", text.upper().replace("Z", "+00:00"))
    when = datetime.fromisoformat(text)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def expired(request: Request, now: datetime | None = None) -> bool:
    """Whether `request.expiresAt` has passed by `now` (the wall clock when None); an
    unreadable time counts as passed, and an empty one as no expiry (as the upstream ports
    read it)."""
    if not request.expires_at:
        return False
    try:
        return parse_time(request.expires_at) <= (datetime.now(UTC) if now is None else now)
    except ValueError:
        return True


def approval_for(tool: Tool | None, arguments: Any) -> Request | None:
    """The approval a call of `tool` with `arguments` needs before its handler runs, or None.

    `needs_approval` may be a rule over the checked arguments: arguments that fail the input
    schema are not asked about (the call is an error result anyway), and a rule that raises
    asks (an approval too many is the safe side).
    """
    if tool is None or tool.needs_approval is False:
        return None
    rule = tool.needs_approval
    if rule is not True:
        try:
            checked = tool._prepare(arguments) if isinstance(arguments, dict) else None
        except Exception:  # the run fails the same way, before its handler: nothing to approve
            return None
        if checked is None or isinstance(checked, ToolResult):
            return None
        try:
            if not rule(checked):
                return None
        except Exception:
            pass
    return Request(
        kind="approval",
        prompt=f"Allow {tool.name} to run with these arguments?",
        id=APPROVAL_PREFIX + secrets.token_hex(16),
        data={"tool": tool.name, "arguments": copy.deepcopy(arguments)},
    )


def is_approval(tool_name: str, request: Request) -> bool:
    """Whether `request` is the toolkit's own approval of a call of `tool_name`, asked before
    the handler ran (`approval_for`)."""
    data = request.data
    return (
        request.kind == "approval"
        and request.id.startswith(APPROVAL_PREFIX)
        and isinstance(data, dict)
        and data.keys() == {"tool", "arguments"}
        and data["tool"] == normalize_tool_name(tool_name)
    )


def verdict(
    tool_name: str, request: Request, answer: Answer | None, now: datetime | None = None
) -> ToolResult | None:
    """The result that ends a call suspended on `request`, given its `answer` (None: the time
    ran out before one came), or None when the call runs: an approval's first run, or a
    question's re-run with the answer."""
    if answer is not None and answer.ok and not expired(request, now):
        return None
    reason = "expired" if answer is None or answer.ok else answer.reason or "declined"
    marker = {"declined": {"request": request.id, "reason": reason}}
    if is_approval(tool_name, request):
        tail = "" if reason == "declined" else f" ({reason})"
        output = f"declined: the call to {tool_name} was not approved{tail}"
        return ToolResult.error(output).with_metadata(marker)
    return ToolResult.error(f"declined/expired: {request.prompt}").with_metadata(marker)


def approved_arguments(arguments: Any, answer: Answer) -> Any:
    """The arguments an approved call runs with: the answer's `data["arguments"]` when the
    person edited them (the tool checks them against its input schema), else `arguments`."""
    if isinstance(answer.data, dict) and "arguments" in answer.data:
        return answer.data["arguments"]
    return arguments


def after_retry(request: Request, result: ToolResult) -> ToolResult:
    """The result of a call re-run with the answer to `request`: as it is, unless it suspends
    again, which the loop does not follow (one re-run per question)."""
    if pending_of(result) is not None:
        return ToolResult.error(f"unresolved: {request.prompt}")
    return result
