"""The tasks of a served toolkit kept as Temporal turns (`toolnexus.temporal`): the Temporal
backend of `toolnexus/mcp/_tasks.py`.

A task is a turn of one call, its workflow id `task-<task id>`, started by `TurnClient.start`
(bound to the caller's principal, expiring after the task's TTL), so it is durable once it is
returned, and any process on the same namespace answers for it; the turn's state is
Temporal's, and this backend keeps nothing. The loop is the workflow's (the engine's):

- `tasks/get` reads the workflow (`describe`: its status and times, and the tool activity's
  last heartbeat `ToolEvent`, whose message is the task's status message) and the turn's
  `state` query (what it waits on, its results, expiry and principal);
- `tasks/update` is `TurnClient.answer`; `tasks/cancel` is `TurnClient.cancel`.

A worker (`worker_for`) on the `TurnClient`'s task queue runs the tools, in this process or
another.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime
from typing import Any

from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS
from temporalio.client import (
    WorkflowExecutionDescription,
    WorkflowExecutionStatus,
    WorkflowQueryFailedError,
    WorkflowQueryRejectedError,
)
from temporalio.service import RPCError, RPCStatusCode

from toolnexus._engine import parse_time
from toolnexus._errors import ResumeError, WireError
from toolnexus._result import Answer, RunResult, ToolCall, ToolEvent
from toolnexus.adapters.mcp import mcp_call_tool_result
from toolnexus.temporal import WORKFLOW, TurnClient
from toolnexus.temporal._client import state_document, workflow_client
from toolnexus.temporal._protocol import RUN_TOOL, principal_digest

from ._tasks import CANCELLED_MESSAGE, TaskView, settled_status, waiting_requests

__all__ = ["TemporalTasks"]

logger = logging.getLogger("toolnexus.mcp")

#: The prefix of a task's turn id: the workflow id is `task-<task id>`.
TURN_PREFIX = "task-"
_UNREADABLE = (RPCError, WorkflowQueryFailedError, WorkflowQueryRejectedError)


class TemporalTasks:
    """A `TaskBackend`: tasks as turns started, read, answered and cancelled through `turns`."""

    def __init__(self, turns: TurnClient, *, ttl: float | None, poll_ms: int) -> None:
        self.turns = turns
        self.ttl = ttl
        self.poll_ms = poll_ms

    async def create(self, call: ToolCall, principal: str | None) -> TaskView:
        """Start the task's turn; `TurnClient.start` returns once Temporal has recorded it."""
        task_id = str(uuid.uuid4())
        turn = TURN_PREFIX + task_id
        await self.turns.start(turn, [call], expires_in=self.ttl, principal=principal)
        started = (
            await workflow_client(self.turns).get_workflow_handle(turn).describe()
        ).start_time.timestamp()
        ttl_ms = None if self.ttl is None else round(self.ttl * 1000)
        return TaskView(task_id, "working", started, started, ttl_ms, self.poll_ms)

    async def find(self, task_id: str, principal: str | None) -> TaskView | None:
        turn = TURN_PREFIX + task_id
        try:
            described = await workflow_client(self.turns).get_workflow_handle(turn).describe()
        except RPCError as exc:
            if exc.status == RPCStatusCode.NOT_FOUND:
                return None
            raise MCPError(INTERNAL_ERROR, f"the task's turn could not be read: {exc.message}") from None
        if described.workflow_type != WORKFLOW:
            return None
        running = described.status == WorkflowExecutionStatus.RUNNING
        try:
            doc = await state_document(self.turns, turn)
        except _UNREADABLE as exc:
            if not running:  # its state (and so its owner) cannot be told: not there for anyone
                logger.info("task %s: the state of its closed turn could not be read", task_id, exc_info=True)
                return None
            raise MCPError(INTERNAL_ERROR, f"the task's turn could not be read: {exc}") from None
        if doc.get("principal", "") != principal_digest(principal):
            return None
        return await self._view(task_id, described, doc, running)

    async def _view(
        self, task_id: str, described: WorkflowExecutionDescription, doc: dict[str, Any], running: bool
    ) -> TaskView:
        """The task that the turn's description and `state` document say."""
        created = described.start_time.timestamp()
        updated = created if doc.get("updatedAt") is None else _unix(doc["updatedAt"])
        if described.close_time is not None:
            updated = described.close_time.timestamp()
        expires = None if doc.get("expiresAt") is None else _unix(doc["expiresAt"])

        def view(ttl_at: float | None = expires, **fields: Any) -> TaskView:
            ttl_ms = None if ttl_at is None else max(0, round((ttl_at - created) * 1000))
            return TaskView(
                task_id,
                created_at=created,
                updated_at=max(updated, created),
                ttl_ms=ttl_ms,
                poll_ms=self.poll_ms,
                **fields,
            )

        run = RunResult.from_wire(doc["run"])
        if run.status == "done" and run.results:
            result = run.results[0].result
            status = settled_status(result)
            message = CANCELLED_MESSAGE if status == "cancelled" else None
            return view(status=status, result=mcp_call_tool_result(result), message=message)
        if not running:  # the turn ended without a result: terminated, timed out, cancelled in Temporal
            name = described.status.name.lower() if described.status is not None else "unknown"
            why = f"the task's turn ended without a result (its workflow is {name})"
            if described.status == WorkflowExecutionStatus.CANCELED:
                return view(status="cancelled", message=why)
            return view(status="failed", message=why, error={"code": INTERNAL_ERROR, "message": why})
        requests = tuple(waiting_requests(run))
        if requests:
            times = [expires] if expires is not None else []
            for request in requests:
                if request.expires_at:
                    try:
                        times.append(parse_time(request.expires_at).timestamp())
                    except ValueError:
                        continue
            return view(
                min(times, default=None),
                status="input_required",
                message=requests[0].prompt,
                requests=requests,
            )
        message, beat = await self._last_event(described)
        if beat is not None:
            updated = max(updated, beat)
        return view(status="working", message=message)

    async def _last_event(self, described: WorkflowExecutionDescription) -> tuple[str | None, float | None]:
        """The message of the tool activity's last heartbeat `ToolEvent`, and when it was sent."""
        for activity in described.raw_description.pending_activities:
            if activity.activity_type.name != RUN_TOOL or not activity.heartbeat_details.payloads:
                continue
            try:
                [detail] = await workflow_client(self.turns).data_converter.decode(
                    activity.heartbeat_details.payloads
                )
                event = ToolEvent.from_wire(detail)
            except (ValueError, TypeError, WireError):
                continue
            return event.message, activity.last_heartbeat_time.ToSeconds() or None
        return None, None

    async def answer(self, task: TaskView, answers: list[Answer], principal: str | None) -> None:
        """`TurnClient.answer`: the turn takes the answers, or refuses them and is as it was."""
        try:
            await self.turns.answer(TURN_PREFIX + task.id, answers, principal=principal)
        except ResumeError as exc:  # another answer came first, or the request expired: the task is its turn
            logger.info("task %s: the turn refused the answers (%s): %s", task.id, exc.reason, exc)
        except ValueError as exc:  # too large to carry to the tool's retry: the request still waits
            raise MCPError(INVALID_PARAMS, f"tasks/update: {exc}") from None

    async def cancel(self, task: TaskView, principal: str | None) -> None:
        """`TurnClient.cancel`: the running call's handler is cancelled through its activity,
        a waiting request refused with reason `cancelled`."""
        try:
            await self.turns.cancel(TURN_PREFIX + task.id, principal=principal)
        except ResumeError as exc:
            logger.info("task %s: the turn refused the cancellation: %s", task.id, exc)


def _unix(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()
