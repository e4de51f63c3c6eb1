"""Starting turns, answering them and reading them, from any process (`TurnClient`)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from temporalio.client import Client, WorkflowUpdateFailedError
from temporalio.common import WorkflowIDReusePolicy
from temporalio.exceptions import ApplicationError
from temporalio.service import RPCError, RPCStatusCode
from toolnexus_wire import dumps

from .._book import refuse_expired, refuse_missing, refuse_over, refuse_replayed
from .._errors import UsageError
from .._result import Answer, Request, RunResult, ToolCall
from .._tool import normalize_tool_name
from ._protocol import (
    ANSWER,
    ANSWERED,
    CANCEL,
    CLOSED,
    DECISIONS,
    PAYLOAD_LIMIT,
    PENDING,
    STATE,
    TOO_LARGE,
    UNKEPT,
    WORKFLOW,
    ToolPolicy,
    plan_of,
    principal_digest,
    refusal_of,
)

__all__ = ["TurnClient", "state_document", "workflow_client"]


class TurnClient:
    """Starts turns on Temporal, lists what they wait for, answers them and reads their results.

    Any process connected to the same Temporal namespace can make each call; the turn id is the
    workflow id, and a turn id is used once (a finished turn is not started again). With
    `policies` (a tool name to its `ToolPolicy`; the others get `default`), every turn started
    here carries its tools' policies in its input; without, the workflow asks its worker for the
    policies `worker_for` was given, with a local activity per turn.
    """

    def __init__(
        self,
        client: Client,
        *,
        task_queue: str,
        policies: Mapping[str, ToolPolicy] | None = None,
        default: ToolPolicy | None = None,
    ) -> None:
        self._client = client
        self._task_queue = task_queue
        self._policies = None if policies is None and default is None else dict(policies or {})
        self._default = default or ToolPolicy()

    async def start(
        self,
        turn_id: str,
        calls: Sequence[ToolCall],
        *,
        expires_in: float | None = None,
        principal: str | None = None,
        session: str | None = None,
    ) -> None:
        """Start the turn `turn_id` on `calls`. `expires_in` (seconds) is the time the turn may
        wait for answers: past it, every call still waiting settles as expired and `answer`
        refuses (`ResumeError("expired")`); `principal` binds the turn: `answer` then needs it
        (`ResumeError("principal")`). The same guarantees, and reasons, as `Toolkit.run_calls`'s.
        `session` names the host's session, as `Toolkit.run_calls(session=...)` does: the
        worker's policies of the scope `session:<id>` decide the turn's approvals, with those of
        its `principal` and of the tool (see `answer`).

        `ValueError` for repeated call ids, an `expires_in` that is not a positive number of
        seconds, or calls too large for Temporal's payload limit (`PAYLOAD_LIMIT`); temporalio's
        `WorkflowAlreadyStartedError` when the turn id was used before.
        """
        ids = [c.id for c in calls]
        if len(set(ids)) != len(ids):
            raise UsageError(f"the calls of one turn need distinct ids, got {ids}")
        if expires_in is not None and (
            isinstance(expires_in, bool)
            or not isinstance(expires_in, (int, float))
            or not 0 < expires_in < 10**9
        ):
            raise UsageError(f"expires_in must be a positive number of seconds, got {expires_in!r}")
        if principal is not None and not isinstance(principal, str):
            raise TypeError(f"principal must be a str or None, got {type(principal).__name__}")
        if session is not None and not isinstance(session, str):
            raise TypeError(f"session must be a str or None, got {type(session).__name__}")
        wires = [c.to_wire() for c in calls]
        body = dumps(wires)
        if self._policies is not None or (expires_in, principal, session) != (None, None, None):
            head: dict[str, Any] = {"expiresIn": expires_in, "principal": principal_digest(principal)}
            if session is not None:
                head["session"] = session
            if self._policies is not None:
                policies = self._policies
                head["plans"] = {
                    name: plan_of(policies.get(name, policies.get(normalize_tool_name(name), self._default)))
                    for name in sorted({c.name for c in calls})
                }
            body = dumps({**head, "calls": wires})
        if (size := len(body.encode("utf-8", "surrogatepass"))) > PAYLOAD_LIMIT:
            raise UsageError(
                f"the turn's calls are {size:,} bytes, over Temporal's payload limit of "
                f"{PAYLOAD_LIMIT:,}: carry large values by reference (a URL)"
            )
        await self._client.start_workflow(
            WORKFLOW,
            body,
            id=turn_id,
            task_queue=self._task_queue,
            id_reuse_policy=WorkflowIDReusePolicy.REJECT_DUPLICATE,
        )

    async def pending(self, turn_id: str) -> list[Request]:
        """The requests the turn waits on now, in call order."""
        text = await self._client.get_workflow_handle(turn_id).query(PENDING, result_type=str)
        return [Request.from_wire(r) for r in json.loads(text)]

    async def state(self, turn_id: str) -> tuple[RunResult, int]:
        """The turn as it stands (see `TurnWorkflow.state`) and how many tool runs are under way."""
        doc = await self._state(turn_id)
        return RunResult.from_wire(doc["run"]), int(doc["running"])

    async def _state(self, turn_id: str) -> dict[str, Any]:
        """`TurnWorkflow.state`'s document (with the turn's expiry, principal and last change)."""
        text = await self._client.get_workflow_handle(turn_id).query(STATE, result_type=str)
        doc: dict[str, Any] = json.loads(text)
        return doc

    async def answer(
        self, turn_id: str, answers: Answer | Sequence[Answer], *, principal: str | None = None
    ) -> None:
        """Answer the turn's pending requests: one `Answer`, or several taken whole (as
        `Toolkit.resume` takes a list); returns once the turn has taken them.

        Raises `ResumeError` when the turn refuses them, with the reasons of `Toolkit.resume`:
        `mismatch` (no pending request has that id), `replayed` (that request was answered
        already, also after the turn finished), `not_pending` (the turn waits on nothing,
        the request expired first, or there is no such turn), `expired` (the turn's own expiry
        has passed), `principal` (the turn is bound to another principal, or to one and none
        was given). Raises `ValueError` for answers too large to carry to the tool (see
        `PAYLOAD_LIMIT`): the request still waits.

        An approval's `Answer.scope` reaches as far as with `Toolkit.resume`: `turn` decides the
        turn's other approvals of the tool alike; `session:<id>`, `principal` (`principal`, the
        one answering) and `tool` also keep a policy in the worker's toolkit's `policy_store`
        (for its `policy_lifetime`), which decides the approvals of later turns unasked. It is
        kept before this returns. Policies kept in a worker's `PolicyMemory` stay in that
        process: workers that share them share a store (`SqliteRunStore.policies`, one machine).
        """
        batch = [answers] if isinstance(answers, Answer) else list(answers)
        if not batch:
            raise UsageError("answer needs at least one Answer")
        doc: dict[str, Any] = {"answers": [a.to_wire() for a in batch]}
        if principal is not None:
            doc["principal"] = principal
        update = dumps(doc)
        if (size := len(update.encode("utf-8", "surrogatepass"))) > PAYLOAD_LIMIT:
            raise UsageError(
                f"the answers are {size:,} bytes, over Temporal's payload limit of {PAYLOAD_LIMIT:,}; "
                "the request still waits"
            )
        handle = self._client.get_workflow_handle(turn_id)
        try:
            await handle.execute_update(ANSWER, update)
        except WorkflowUpdateFailedError as exc:
            cause = exc.cause
            # `UNKEPT`: an older worker, which refuses a scope beyond the turn
            if isinstance(cause, ApplicationError) and cause.type in (TOO_LARGE, UNKEPT):
                raise UsageError(cause.message) from None
            if refusal := refusal_of(exc):
                raise refusal from None
            raise
        except RPCError as exc:
            if exc.status != RPCStatusCode.NOT_FOUND:
                raise
            try:  # the turn has finished (or never was): was this request answered in it?
                answered = await handle.query(ANSWERED, result_type=list[str])
                closed = await handle.query(CLOSED, result_type=str)
            except RPCError:
                raise refuse_missing(f"turn {turn_id!r} to answer") from None
            if again := next((a.id for a in batch if a.id in answered), None):
                raise refuse_replayed(again) from None
            if closed == "expired":
                raise refuse_expired(f"turn {turn_id!r}") from None
            raise refuse_over(f"turn {turn_id!r} has finished", [batch[0].id]) from None

    async def cancel(self, turn_id: str, call_id: str | None = None, *, principal: str | None = None) -> bool:
        """Cancel the call `call_id` of the turn, or every call of it not settled yet, as
        `Toolkit.cancel` cancels a running call: its handler gets `asyncio.CancelledError` (on
        its worker, at the activity's next heartbeat, so within `ToolPolicy.heartbeat` seconds),
        is abandoned if it ignores it for the worker's `Toolkit(cancel_grace=...)`, and the call
        settles as `declined: the call to <tool> was cancelled` (reason `cancelled`; its
        idempotency key is kept). Unlike `Toolkit.cancel`, a call waiting on a person is
        cancelled too: its request is refused with reason `cancelled`. Returns once the turn has
        taken the cancellation (the call settles soon after: read it with `state` or `result`);
        False when it reached no call (none unsettled by that id, the turn has finished, or
        there is no such turn). `ResumeError("principal")` when the turn is bound to another
        principal, as `answer`."""
        update = dumps({"calls": None if call_id is None else [call_id], "principal": principal})
        handle = self._client.get_workflow_handle(turn_id)
        try:
            reached: int = await handle.execute_update(CANCEL, update, result_type=int)
        except WorkflowUpdateFailedError as exc:
            if refusal := refusal_of(exc):
                raise refusal from None
            raise
        except RPCError as exc:
            if exc.status != RPCStatusCode.NOT_FOUND:
                raise
            return False
        return reached > 0

    async def decisions(self, turn_id: str) -> list[dict[str, Any]]:
        """Every decision of the turn (see `TurnWorkflow.decisions`)."""
        found: list[dict[str, Any]] = await self._client.get_workflow_handle(turn_id).query(
            DECISIONS, result_type=list[dict[str, Any]]
        )
        return found

    async def result(self, turn_id: str) -> RunResult:
        """The turn's `RunResult` (`done`), once every call has settled."""
        text = await self._client.get_workflow_handle(turn_id, result_type=str).result()
        return RunResult.from_json(text)


def workflow_client(turns: TurnClient) -> Client:
    """The temporalio `Client` `turns` was made with (for the MCP bridge's tasks)."""
    return turns._client


async def state_document(turns: TurnClient, turn_id: str) -> dict[str, Any]:
    """`TurnWorkflow.state`'s document (with the turn's expiry, principal and last change)."""
    return await turns._state(turn_id)
