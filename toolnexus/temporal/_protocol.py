"""What the client, the workflow and the activities of a turn say to each other: the names of
the workflow, its activities, updates and queries, each tool's `ToolPolicy` as a turn carries
it, and the JSON of a turn's input, its answers and its cancellations.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from temporalio.client import WorkflowUpdateFailedError
from temporalio.common import RetryPolicy
from temporalio.exceptions import ApplicationError

from .._book import refusal
from .._errors import ResumeError, UsageError
from .._result import Answer, ToolCall

__all__ = [
    "ANSWER",
    "ANSWERED",
    "CANCEL",
    "CLOSED",
    "DECISIONS",
    "KEEP_POLICY",
    "PAYLOAD_LIMIT",
    "PENDING",
    "READ_POLICIES",
    "REFUSED",
    "RUN_TOOL",
    "STATE",
    "TOOL_POLICIES",
    "TOO_LARGE",
    "UNKEPT",
    "WORKFLOW",
    "ToolPolicy",
    "TurnInput",
    "cancel_of",
    "plan_of",
    "principal_digest",
    "refusal_of",
    "refuse",
    "retry_policy",
    "update_of",
]

#: The workflow's type name; its activities are `toolnexus.run_tool` and `toolnexus.tool_policies`,
#: and, for the decisions kept beyond a turn, `toolnexus.read_policies` and `toolnexus.keep_policy`.
WORKFLOW = "toolnexus.Turn"
RUN_TOOL = "toolnexus.run_tool"
TOOL_POLICIES = "toolnexus.tool_policies"
READ_POLICIES = "toolnexus.read_policies"
KEEP_POLICY = "toolnexus.keep_policy"
ANSWER = "answer"
PENDING = "pending"
ANSWERED = "answered"
STATE = "state"
REFUSED = "ResumeError"
TOO_LARGE = "PayloadTooLarge"
UNKEPT = "ScopeNotKept"  # what workers before policies refused a wider scope with
DECISIONS = "decisions"
CLOSED = "closed"
CANCEL = "cancel"
#: Temporal's limit on one payload (its default `limit.blobSize.error`, 2 MiB): a turn's input, an
#: answer, or a tool run's input (its call, request and answer) larger than it is refused.
PAYLOAD_LIMIT = 2 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class ToolPolicy:
    """How the workflow runs one tool's activity.

    `timeout` (seconds) is the tool's `ToolContext.timeout`: an overrun is an error result,
    as with `Toolkit`. `heartbeat` (seconds) is how long a silent activity is trusted: a
    worker that dies mid-tool is noticed that long after its last heartbeat, and the call
    runs again elsewhere (the activity heartbeats at a third of it). `retry` is Temporal's
    retry policy for that: the default retries every second at first, then every 10 s at
    most, without a limit. A tool failure is an error result and is never retried; only an
    attempt that did not finish is. When the attempts run out, the call's result is the
    error `<tool> did not finish: <why>`.
    """

    timeout: float | None = None
    heartbeat: float = 10.0
    retry: RetryPolicy = field(
        default_factory=lambda: RetryPolicy(
            initial_interval=timedelta(seconds=1), maximum_interval=timedelta(seconds=10)
        )
    )

    def __post_init__(self) -> None:
        if self.timeout is not None and not self.timeout > 0:
            raise UsageError(f"timeout must be a positive number of seconds or None, got {self.timeout!r}")
        if not self.heartbeat > 0:
            raise UsageError(f"heartbeat must be a positive number of seconds, got {self.heartbeat!r}")


def plan_of(policy: ToolPolicy) -> dict[str, Any]:
    """`policy` as the JSON a turn's input and its history carry (`retry_policy` reads it back)."""
    retry = policy.retry
    return {
        "timeout": policy.timeout,
        "heartbeat": policy.heartbeat,
        "initial": retry.initial_interval.total_seconds(),
        "backoff": retry.backoff_coefficient,
        "maximum": None if retry.maximum_interval is None else retry.maximum_interval.total_seconds(),
        "attempts": retry.maximum_attempts,
    }


def _seconds(value: float | None) -> timedelta | None:
    return None if value is None else timedelta(seconds=value)


def retry_policy(plan: Mapping[str, Any]) -> RetryPolicy:
    return RetryPolicy(
        initial_interval=timedelta(seconds=plan["initial"]),
        backoff_coefficient=plan["backoff"],
        maximum_interval=_seconds(plan["maximum"]),
        maximum_attempts=plan["attempts"],
    )


def refuse(error: ResumeError) -> ApplicationError:
    """The update's rejection that `TurnClient.answer` turns back into `error`."""
    return ApplicationError(str(error), error.reason, type=REFUSED, non_retryable=True)


def refusal_of(exc: WorkflowUpdateFailedError) -> ResumeError | None:
    """The `ResumeError` an update failed with when the workflow refused it (`REFUSED`, its
    reason the first detail), or None for any other failure."""
    cause = exc.cause
    if not (isinstance(cause, ApplicationError) and cause.type == REFUSED and cause.details):
        return None
    reason = cause.details[0]
    return refusal(reason, cause.message)


def update_of(text: str) -> tuple[list[Answer], str | None]:
    """An update's answers and principal: `{"answers": [...], "principal": ...}`, or (as clients
    before it sent) one answer object or an array of them."""
    doc = json.loads(text)
    principal = None
    if isinstance(doc, dict) and "answers" in doc:
        principal = doc.get("principal")
        if principal is not None and not isinstance(principal, str):
            raise TypeError("principal must be a string")
        doc = doc["answers"]
    items = doc if isinstance(doc, list) else [doc]
    if not items:
        raise ValueError("expected at least one answer")
    return [Answer.from_wire(item) for item in items], principal


def cancel_of(text: str) -> tuple[set[str] | None, str | None]:
    """A cancellation's call ids (None: every call) and principal: `{"calls": [...] | null,
    "principal": ...}`."""
    doc = json.loads(text)
    if not isinstance(doc, dict):
        raise TypeError("expected an object")
    calls, principal = doc.get("calls"), doc.get("principal")
    if calls is not None and not (isinstance(calls, list) and all(isinstance(c, str) for c in calls)):
        raise TypeError("calls must be a list of call ids or null")
    if principal is not None and not isinstance(principal, str):
        raise TypeError("principal must be a string")
    return (None if calls is None else set(calls)), principal


def principal_digest(principal: str | None) -> str:
    """What the turn keeps of the principal it is bound to (its history holds no user id)."""
    if principal is None:
        return ""
    raw = principal.encode("utf-8", "surrogatepass")
    return hashlib.sha256(b"toolnexus.temporal.principal.v1\n" + raw).hexdigest()


@dataclass(frozen=True, slots=True)
class TurnInput:
    """The workflow's input: its calls, and (from `TurnClient`) the tools' policies, the turn's
    expiry, the digest of its principal and its session. A bare array of calls is the input of
    clients before them."""

    calls: list[ToolCall]
    plans: dict[str, Any] | None = None
    expires_in: float | None = None
    principal: str = ""
    session: str | None = None

    @classmethod
    def read(cls, text: str) -> TurnInput:
        doc = json.loads(text)
        if isinstance(doc, list):
            return cls([ToolCall.from_wire(c) for c in doc])
        return cls(
            [ToolCall.from_wire(c) for c in doc["calls"]],
            doc.get("plans"),
            doc.get("expiresIn"),
            doc.get("principal", ""),
            doc.get("session"),
        )
