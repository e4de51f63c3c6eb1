"""The tools' side of a worker: the activities that run a call, read each tool's policy and read
and keep the decisions a turn makes beyond itself (`toolnexus.run_tool`, `toolnexus.tool_policies`,
`toolnexus.read_policies`, `toolnexus.keep_policy`)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from temporalio import activity

from .._engine import Ask, gate, parse_time
from .._result import Answer, Request, ToolCall, ToolEvent, ToolResult
from .._suspend import pending
from .._tool import normalize_tool_name
from .._toolkit import Toolkit, cancel_grace, keep_decision
from ._protocol import (
    KEEP_POLICY,
    READ_POLICIES,
    RUN_TOOL,
    TOOL_POLICIES,
    ToolPolicy,
    plan_of,
    principal_digest,
)

__all__ = ["ToolActivities"]

#: is not sent (the last progress event is), since Temporal refuses a large heartbeat.
_HEARTBEAT_PARTIAL_LIMIT = 64 * 1024


class ToolActivities:
    """The tools' side of a worker: the toolkit, and the policy of each tool."""

    def __init__(self, toolkit: Toolkit, policies: Mapping[str, ToolPolicy], default: ToolPolicy) -> None:
        self._toolkit = toolkit
        self._policies = dict(policies)
        self._default = default

    @activity.defn(name=TOOL_POLICIES)
    async def tool_policies(self, names: list[str]) -> str:
        """The policy of each tool named (the workflow asks once per turn, and its history keeps it)."""
        policies = self._policies
        plans = {
            name: plan_of(policies.get(name, policies.get(normalize_tool_name(name), self._default)))
            for name in names
        }
        return json.dumps(plans)

    @activity.defn(name=READ_POLICIES)
    async def read_policies(self, payload: str) -> str:
        """The policies of the worker's toolkit (its `policy_store`) that cover a turn's calls
        to the tools named, at the workflow's time (`Policy.covers`), as a JSON array of
        `Policy.to_wire`: `payload` is `{"tools": [...], "session", "principal", "now"}`, the
        principal being the digest the turn keeps, so a principal's policy is read with the
        digest of its key (the turn's history holds no user id). The workflow decides with them
        (`_engine.policed`)."""
        job = json.loads(payload)
        session, principal, now = job["session"], job["principal"] or None, parse_time(job["now"])
        found = []
        for name in job["tools"]:
            for policy in self._toolkit.policies(name):
                if policy.scope == "principal":
                    policy = replace(policy, key=principal_digest(policy.key))
                if policy.covers(name, session, principal, now):
                    found.append(policy.to_wire())
        return json.dumps(found)

    @activity.defn(name=KEEP_POLICY)
    async def keep_policy(self, payload: str) -> str:
        """Keep, in the worker's toolkit's `policy_store`, the policy an answer of a turn makes
        (`Decisions.keep`, the engine's `policy_of` with the toolkit's `policy_lifetime`), under
        the id the workflow chose, so a retry keeps it once; returns it (`Policy.to_wire`), or
        null when the answer makes none. `payload` holds the waiting call, its request, the
        answer, the turn's session, the principal who answered and the workflow's time."""
        job = json.loads(payload)
        ask = Ask(ToolCall.from_wire(job["call"]), Request.from_wire(job["request"]))
        policy = keep_decision(
            self._toolkit,
            ask,
            Answer.from_wire(job["answer"]),
            job["session"],
            job["principal"],
            parse_time(job["now"]),
            policy_id=job["id"],
        )
        return "null" if policy is None else json.dumps(policy.to_wire())

    @activity.defn(name=RUN_TOOL)
    async def run_tool(self, payload: str) -> str:
        """One run of a call, as the engine asked it (`Toolkit.perform`): `payload` holds the
        call, whether its tool's approval gates it, its key, timeout, and the answer and request
        of a retry, as wire JSON. A gated run asks the tool's approval (`_engine.gate`) without
        the worker's policies: the workflow decides with those (`read_policies`)."""
        job = json.loads(payload)
        call = ToolCall.from_wire(job["call"])
        if job["gate"]:
            asked = gate(self._toolkit.get(call.name), call)
            if isinstance(asked, ToolResult):
                return asked.to_json()
            if asked is not None:
                return pending(asked).to_json()
        answer = None if job["answer"] is None else Answer.from_wire(job["answer"])
        request = None if job["request"] is None else Request.from_wire(job["request"])
        latest: list[dict[str, Any]] = []  # the last event, as wire JSON: the next heartbeat's details
        hook = self._toolkit.on_progress

        def report(fraction: float, message: str) -> None:
            event = ToolEvent(call_id=call.id, percent=round(fraction * 100))
            latest[:] = [(event.model_copy(update={"message": message}) if message else event).to_wire()]
            if hook is not None:  # and heard by the worker's own Toolkit(on_progress=...)
                hook(call.id, fraction, message)

        def partial(result: ToolResult) -> None:
            event = ToolEvent(call_id=call.id, partial=result).to_wire()
            if len(json.dumps(event)) <= _HEARTBEAT_PARTIAL_LIMIT:  # a large one would fail the heartbeat
                latest[:] = [event]

        beat = activity.info().heartbeat_timeout
        interval = beat.total_seconds() / 3 if beat else 1.0
        task = asyncio.ensure_future(
            self._toolkit.perform(
                call,
                answer=answer,
                request=request,
                idempotency_key=job["key"],
                timeout=job["timeout"],
                on_progress=report,
                on_partial=partial,
            )
        )
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=interval)
                if done:
                    break
                activity.heartbeat(*latest[-1:])
        except (
            asyncio.CancelledError
        ):  # the workflow cancelled the call (`TurnClient.cancel`), or the worker stops
            task.cancel()
            # The handler's time to stop, as `Toolkit.cancel` gives it; one that ignores it is abandoned.
            await asyncio.wait({task}, timeout=cancel_grace(self._toolkit))
            raise
        except BaseException:
            task.cancel()
            raise
        result = task.result()
        try:
            return result.to_json()
        except (TypeError, ValueError, RecursionError) as exc:  # a value with no JSON form: a set, NaN...
            return ToolResult.error(f"the tool's result is not JSON, so it cannot be stored: {exc}").to_json()
