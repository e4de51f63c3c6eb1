"""Tool turns on Temporal: each call an activity, each suspension a durable wait (`toolnexus[temporal]`).

A turn is one Temporal workflow, its id the host's turn id. The workflow runs the turn's
calls concurrently as activities and applies the loop rule of `Toolkit.run_calls`: a call
that suspends waits, durably, for an `Answer` sent with a Temporal Update (`answer`);
`ok` runs the call once more with `ctx.answer` set, a second suspension becomes
`unresolved: <prompt>`, and a refusal or an `expiresAt` that passes (a workflow timer)
becomes `declined/expired: <prompt>`. Every suspended call waits at once, so its requests
can be answered in any order, from any process, hours later. The workflow's result is
the turn's `RunResult` (`done`).

    worker = worker_for(client, toolkit, task_queue="tools")   # runs the workflow and the tools
    turns = TurnClient(client, task_queue="tools")             # any process
    await turns.start("turn-1", calls)
    [request] = await turns.pending("turn-1")
    await turns.answer("turn-1", Answer(request.id, True))     # ResumeError when refused
    run = await turns.result("turn-1")

A tool's activity heartbeats while it runs, so when its worker dies the call is run again
on another worker once `ToolPolicy.heartbeat` seconds have passed without one (10 by
default). `ToolContext.idempotency_key` is derived from the turn id and the turn's call
ids, so it is the same on every attempt. Values cross the boundary as wire JSON text,
byte for byte what `to_json` writes.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

try:
    import temporalio as _sdk  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised by tests/test_extras.py
    raise ImportError(
        "toolnexus.temporal needs temporalio: install the extra, pip install 'toolnexus-contract[temporal]'"
    ) from exc

from temporalio import activity, workflow
from temporalio.client import Client, WorkflowUpdateFailedError
from temporalio.common import RetryPolicy, WorkflowIDReusePolicy
from temporalio.exceptions import ActivityError, ApplicationError, CancelledError, FailureError
from temporalio.service import RPCError, RPCStatusCode
from temporalio.worker import Worker

with workflow.unsafe.imports_passed_through():
    from ._engine import (
        Ask,
        Policy,
        Run,
        Settle,
        cancelled,
        check_answer,
        decided,
        drive,
        gate,
        is_approval,
        match,
        parse_time,
        policed,
        reach,
        reached,
        scope_of,
        start,
    )
    from ._errors import RESUME_REASONS, ResumeError, WireError
    from ._result import Answer, Request, RunResult, ToolCall, ToolCallResult, ToolEvent, ToolResult
    from ._stored import idempotency_key, turn_digest
    from ._suspend import pending, pending_of
    from ._tool import normalize_tool_name
    from ._toolkit import Toolkit

__all__ = ["PAYLOAD_LIMIT", "WORKFLOW", "ToolPolicy", "TurnClient", "worker_for"]

#: The workflow's type name; its activities are `toolnexus.run_tool` and `toolnexus.tool_policies`,
#: and, for the decisions kept beyond a turn, `toolnexus.read_policies` and `toolnexus.keep_policy`.
WORKFLOW = "toolnexus.Turn"
_RUN_TOOL = "toolnexus.run_tool"
_POLICIES = "toolnexus.tool_policies"
_READ_POLICIES = "toolnexus.read_policies"
_KEEP_POLICY = "toolnexus.keep_policy"
#: The patch that marks a turn whose workflow decides approvals by the worker's policies (turns
#: started before it replay without reading them).
_POLICIES_PATCH = "toolnexus.policies.v1"
#: How long a read or a write of the worker's policy store may take (a local activity, retried).
_STORE_TIMEOUT = timedelta(seconds=30)
_ANSWER = "answer"
_PENDING = "pending"
_ANSWERED = "answered"
_STATE = "state"
_REFUSED = "ResumeError"
_TOO_LARGE = "PayloadTooLarge"
_UNKEPT = "ScopeNotKept"  # what workers before policies refused a wider scope with
_DECISIONS = "decisions"
_CLOSED = "closed"
_CANCEL = "cancel"
#: Temporal's limit on one payload (its default `limit.blobSize.error`, 2 MiB): a turn's input, an
#: answer, or a tool run's input (its call, request and answer) larger than it is refused.
PAYLOAD_LIMIT = 2 * 1024 * 1024
#: How long past its own timeout a tool's activity may run before Temporal gives up on it.
_GRACE = 60.0
#: The cap on one attempt of a tool that has no timeout (its heartbeats keep it alive until then).
_NO_TIMEOUT_CAP = timedelta(days=1)
_NOW = timedelta(0)
#: The largest partial result (its event's JSON, in characters) a heartbeat carries; a larger one
#: is not sent (the last progress event is), since Temporal refuses a large heartbeat.
_HEARTBEAT_PARTIAL_LIMIT = 64 * 1024


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
            raise ValueError(f"timeout must be a positive number of seconds or None, got {self.timeout!r}")
        if not self.heartbeat > 0:
            raise ValueError(f"heartbeat must be a positive number of seconds, got {self.heartbeat!r}")

    def _to_json(self) -> dict[str, Any]:
        retry = self.retry
        return {
            "timeout": self.timeout,
            "heartbeat": self.heartbeat,
            "initial": retry.initial_interval.total_seconds(),
            "backoff": retry.backoff_coefficient,
            "maximum": None if retry.maximum_interval is None else retry.maximum_interval.total_seconds(),
            "attempts": retry.maximum_attempts,
        }


def _seconds(value: float | None) -> timedelta | None:
    return None if value is None else timedelta(seconds=value)


def _retry_policy(plan: Mapping[str, Any]) -> RetryPolicy:
    return RetryPolicy(
        initial_interval=timedelta(seconds=plan["initial"]),
        backoff_coefficient=plan["backoff"],
        maximum_interval=_seconds(plan["maximum"]),
        maximum_attempts=plan["attempts"],
    )


def _refuse(error: ResumeError) -> ApplicationError:
    """The update's rejection that `TurnClient.answer` turns back into `error`."""
    return ApplicationError(str(error), error.reason, type=_REFUSED, non_retryable=True)


# -- the activities ---------------------------------------------------------------------


class _Activities:
    """The tools' side of a worker: the toolkit, and the policy of each tool."""

    def __init__(self, toolkit: Toolkit, policies: Mapping[str, ToolPolicy], default: ToolPolicy) -> None:
        self._toolkit = toolkit
        self._policies = dict(policies)
        self._default = default

    @activity.defn(name=_POLICIES)
    async def tool_policies(self, names: list[str]) -> str:
        """The policy of each tool named (the workflow asks once per turn, and its history keeps it)."""
        policies = self._policies
        plans = {
            name: policies.get(name, policies.get(normalize_tool_name(name), self._default))._to_json()
            for name in names
        }
        return json.dumps(plans)

    @activity.defn(name=_READ_POLICIES)
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
                    policy = replace(policy, key=_principal_digest(policy.key))
                if policy.covers(name, session, principal, now):
                    found.append(policy.to_wire())
        return json.dumps(found)

    @activity.defn(name=_KEEP_POLICY)
    async def keep_policy(self, payload: str) -> str:
        """Keep, in the worker's toolkit's `policy_store`, the policy an answer of a turn makes
        (`Decisions.keep`, the engine's `policy_of` with the toolkit's `policy_lifetime`), under
        the id the workflow chose, so a retry keeps it once; returns it (`Policy.to_wire`), or
        null when the answer makes none. `payload` holds the waiting call, its request, the
        answer, the turn's session, the principal who answered and the workflow's time."""
        job = json.loads(payload)
        ask = Ask(ToolCall.from_wire(job["call"]), Request.from_wire(job["request"]))
        policy = self._toolkit._decisions.keep(
            ask,
            Answer.from_wire(job["answer"]),
            job["session"],
            job["principal"],
            parse_time(job["now"]),
            policy_id=job["id"],
        )
        return "null" if policy is None else json.dumps(policy.to_wire())

    @activity.defn(name=_RUN_TOOL)
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
            await asyncio.wait({task}, timeout=self._toolkit._cancel_grace)
            raise
        except BaseException:
            task.cancel()
            raise
        result = task.result()
        try:
            return result.to_json()
        except (TypeError, ValueError, RecursionError) as exc:  # a value with no JSON form: a set, NaN...
            return ToolResult.error(f"the tool's result is not JSON, so it cannot be stored: {exc}").to_json()


# -- the workflow -----------------------------------------------------------------------


@dataclass(slots=True)
class _Waiting:
    position: int
    call: ToolCall
    request: Request
    answer: Answer | None = None


class _Durable:
    """The workflow's effects for the engine's steps: each run an activity, each ask a durable
    wait for an Update (with a timer until the request's `expiresAt`), the workflow's clock."""

    def __init__(
        self, turn: TurnWorkflow, plans: Mapping[str, Any], digest: bytes, positions: dict[str, int]
    ) -> None:
        self._turn = turn
        self._plans = plans
        self._digest = digest
        self._positions = positions

    async def run(self, step: Run) -> ToolResult:
        """A run of the call, as an activity. A gated first run whose tool asks its approval is
        decided by the worker's policies first, as `Toolkit.perform` decides it (`_engine.policed`,
        the policies read once per turn by an activity): approved, the call runs; refused, its
        result is the refusal; else the approval is asked."""
        result = await self._activity(step)
        if not step.gate:
            return result
        call = step.call
        asked = pending_of(result)
        if asked is None or not is_approval(call.name, asked) or not workflow.patched(_POLICIES_PATCH):
            return result
        turn = self._turn
        verdict, decision = policed(
            call,
            asked,
            await turn._kept_policies(),
            session=turn._session,
            principal=turn._principal or None,
            now=workflow.now(),
        )
        if decision is None:
            return result
        entry = decision.to_wire()
        entry["at"] = workflow.now().isoformat()
        entry["by"] = None  # a policy decided: no one answered
        turn._log.append(entry)
        if verdict is None:  # approved: the handler's first run
            return await self._activity(Run(call))
        assert isinstance(verdict, ToolResult)
        return verdict

    async def _activity(self, step: Run) -> ToolResult:
        call = step.call
        plan = self._plans[call.name]
        timeout = plan["timeout"]
        job = {
            "call": call.to_wire(),
            "gate": step.gate,
            "key": idempotency_key(self._digest, call.id),
            "timeout": timeout,
            "answer": None if step.answer is None else step.answer.to_wire(),
            "request": None if step.request is None else step.request.to_wire(),
        }
        limit = _NO_TIMEOUT_CAP if timeout is None else timedelta(seconds=timeout + _GRACE)
        turn = self._turn
        if call.id in turn._cancelled:  # cancelled between two runs: it runs no more
            return cancelled(call)
        # A cancellation (`TurnClient.cancel`) reaches the handler through the activity's next
        # heartbeat; the call settles once the activity has stopped.
        run = workflow.start_activity(
            _RUN_TOOL,
            json.dumps(job),
            start_to_close_timeout=limit,
            heartbeat_timeout=timedelta(seconds=plan["heartbeat"]),
            retry_policy=_retry_policy(plan),
            cancellation_type=workflow.ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
        )
        turn._runs[call.id] = run
        turn._running += 1
        try:
            text = await run
        except ActivityError as exc:
            if call.id in turn._cancelled and isinstance(exc.cause, CancelledError):
                return cancelled(call)
            why = exc.cause.message if isinstance(exc.cause, FailureError) else str(exc)
            return ToolResult.error(f"{call.name} did not finish: {why}")
        finally:
            turn._running -= 1
            del turn._runs[call.id]
            turn._touch()
        return ToolResult.from_json(text)

    async def ask(self, step: Ask) -> Answer | None:
        """The answer to the request, durably awaited; None when its time (the request's, or the
        turn's own expiry) ran out first. An approval that an earlier decision of the turn
        reaches (`reached`) is answered by it at once."""
        if step.call.id in self._turn._cancelled:  # cancelled before it asked: refused so
            return Answer(step.request.id, False, reason="cancelled")
        earlier = reached(self._turn._decided, step)
        if earlier is not None:
            return earlier
        waiting = _Waiting(self._positions[step.call.id], step.call, step.request)
        self._turn._waiting.append(waiting)
        self._turn._waiting.sort(key=lambda w: w.position)
        self._turn._touch()
        left = _time_left(step.request)
        if self._turn._expires is not None:  # the turn's own expiry bounds every wait
            until_turn = max(self._turn._expires - workflow.now(), _NOW)
            left = until_turn if left is None else min(left, until_turn)
        try:
            await workflow.wait_condition(lambda: waiting.answer is not None, timeout=left)
        except TimeoutError:
            return None
        finally:
            self._turn._waiting.remove(waiting)
            self._turn._touch()
        return waiting.answer

    def decide(self, step: Ask, answer: Answer | None, after: Run | Settle) -> None:
        """Keep the decision in the workflow's state (its history holds every answer)."""
        if answer is not None:
            self._turn._decided.append((step, answer))
        entry = decided(step, answer, after).to_wire()
        entry["at"] = workflow.now().isoformat()
        entry["by"] = self._turn._answered_by.get(step.request.id)
        self._turn._log.append(entry)

    def now(self) -> datetime:
        return workflow.now()


def _time_left(request: Request) -> timedelta | None:
    """Until `expiresAt`, by the workflow's clock; None for no expiry, zero when unreadable."""
    if not request.expires_at:
        return None
    try:
        return max(parse_time(request.expires_at) - workflow.now(), _NOW)
    except ValueError:
        return _NOW


@workflow.defn(name=WORKFLOW, sandboxed=False)
class TurnWorkflow:
    """One turn of tool calls, hosting the loop's engine (`toolnexus._engine`); see the module's
    documentation.

    It runs outside temporalio's sandbox: its code reads no clock but `workflow.now()`, does
    no I/O and draws no random numbers, and the sandbox's fresh import of this module for
    every turn cost more than the turn (on two cores, 200 sandboxed turns started at once
    timed out their workflow tasks again and again).
    """

    def __init__(self) -> None:
        self._calls: list[ToolCall] = []
        self._waiting: list[_Waiting] = []  # the asks in progress, in call order
        self._answered: list[tuple[str, str]] = []  # (call id, request id) of each answer taken
        self._settled: dict[str, ToolResult] = {}  # by call id
        self._running = 0  # tool runs under way
        self._expires: datetime | None = None  # the turn's own expiry (`start(expires_in=...)`)
        self._principal = ""  # the digest of the principal the turn is bound to
        self._session: str | None = None  # the host's session (`start(session=...)`), for policies
        self._policies: workflow.ActivityHandle[Any] | None = None  # the read of the worker's policies
        self._parsed: tuple[str, list[Answer], str | None] | None = None  # the update the validator read
        self._decided: list[tuple[Ask, Answer]] = []  # the turn's decisions, for `reached`
        self._answered_by: dict[str, str | None] = {}  # request id -> the principal who answered
        self._log: list[dict[str, Any]] = []  # every decision, as `decisions` lists it
        self._runs: dict[str, workflow.ActivityHandle[Any]] = {}  # call id -> its tool run under way
        self._cancelled: set[str] = set()  # the calls a cancellation reached (`cancel`)
        self._changed: datetime | None = None  # when the turn last changed: a call asked, ran or settled

    def _touch(self) -> None:
        # Not when the worker evicts the workflow from its cache: it closes the coroutines, their
        # `finally` blocks run outside the workflow's event loop, and there is no clock to read.
        if workflow.in_workflow():
            self._changed = workflow.now()

    @workflow.run
    async def run(self, input_json: str) -> str:
        turn = _TurnInput.read(input_json)
        calls = self._calls = turn.calls
        order = [c.id for c in calls]
        plans = turn.plans
        if plans is None:  # a client without policies: the worker's, asked once and kept in the history
            names = sorted({c.name for c in calls})
            plans = json.loads(
                await workflow.execute_local_activity(
                    _POLICIES, names, start_to_close_timeout=timedelta(seconds=30)
                )
            )
        if turn.expires_in is not None:
            self._expires = workflow.now() + timedelta(seconds=turn.expires_in)
        self._principal = turn.principal
        self._session = turn.session
        positions = {call_id: i for i, call_id in enumerate(order)}
        effects = _Durable(self, plans, turn_digest(order, workflow.info().workflow_id), positions)

        self._touch()

        async def one(call: ToolCall) -> ToolCallResult:
            outcome = await drive(start(call), effects)
            assert isinstance(outcome, Settle)  # every ask is waited for
            self._settled[call.id] = outcome.result
            self._touch()
            return ToolCallResult(call.id, call.name, outcome.result)

        results = await asyncio.gather(*(one(c) for c in calls))
        await workflow.wait_condition(workflow.all_handlers_finished)
        return RunResult("done", list(results)).to_json()

    async def _kept_policies(self) -> list[Policy]:
        """The worker's policies that cover this turn's calls (`read_policies`): read once, when
        the first approval is asked, and kept in the history; a turn that asks none reads none."""
        if self._policies is None:
            job = {
                "tools": sorted({c.name for c in self._calls}),
                "session": self._session,
                "principal": self._principal,
                "now": workflow.now().isoformat(),
            }
            self._policies = workflow.start_local_activity(
                _READ_POLICIES, json.dumps(job), start_to_close_timeout=_STORE_TIMEOUT
            )
        return [Policy.from_wire(doc) for doc in json.loads(await self._policies)]

    @workflow.query(name=_PENDING)
    def pending(self) -> str:
        """The requests waiting for an answer, in call order, as a JSON array of wire requests."""
        waiting = [w for w in self._waiting if w.answer is None]
        return "[" + ",".join(w.request.to_json() for w in waiting) + "]"

    @workflow.query(name=_ANSWERED)
    def answered(self) -> list[str]:
        """The ids of the requests answered so far."""
        return [request_id for _, request_id in self._answered]

    @workflow.query(name=_CLOSED)
    def closed(self) -> str:
        """`expired` once the turn's own expiry has passed, else empty."""
        return "expired" if self._expires is not None and workflow.now() >= self._expires else ""

    @workflow.query(name=_STATE)
    def state(self) -> str:
        """The turn as it stands, as a `RunResult` (unsealed: Temporal keeps it) whose results are
        the calls settled so far and whose `calls` and `requests` are those that wait, in call
        order; how many tool runs are under way; the turn's own expiry (RFC 3339, or null), the
        digest of the principal it is bound to (empty for none), and when it last changed:
        `{"run": ..., "running": n, "expiresAt": ..., "principal": ..., "updatedAt": ...}`."""
        results = [
            ToolCallResult(c.id, c.name, self._settled[c.id]) for c in self._calls if c.id in self._settled
        ]
        waiting = [w for w in self._waiting if w.answer is None]
        if waiting:
            run = RunResult.model_construct(
                status="pending",
                results=results,
                pending=waiting[0].request,
                calls=[w.call for w in waiting],
                requests=[w.request for w in waiting],
                order=[c.id for c in self._calls],
                turn=workflow.info().workflow_id,
            )
        else:
            run = RunResult("done" if len(results) == len(self._calls) else "pending", results)
        rest = {
            "running": self._running,
            "expiresAt": None if self._expires is None else self._expires.isoformat(),
            "principal": self._principal,
            "updatedAt": None if self._changed is None else self._changed.isoformat(),
        }
        return '{"run":' + run.to_json() + "," + json.dumps(rest)[1:]

    @workflow.update(name=_ANSWER)
    async def answer(self, update_json: str) -> None:
        """Take the answers that `check_answer` let through (one, or a list taken whole); an
        approval decided for the turn (`Answer.scope`) decides the turn's other approvals of
        its tool with it (`reach`)."""
        answers, principal = self._read(update_json)
        waiting = [w for w in self._waiting if w.answer is None]
        asks = [Ask(w.call, w.request) for w in waiting]
        picks = self._match(answers, waiting)
        for index, answer in zip(picks, answers, strict=True):
            for i, given in [(index, answer), *reach(asks, index, answer)]:
                if waiting[i].answer is None:
                    waiting[i].answer = given
                    self._answered.append((waiting[i].call.id, given.id))
                    self._answered_by[given.id] = principal
        for index, answer in zip(picks, answers, strict=True):
            if scope_of(answer)[0] not in ("once", "turn"):
                await self._keep(asks[index], answer, principal)

    async def _keep(self, ask: Ask, answer: Answer, principal: str | None) -> None:
        """Keep the policy `answer` makes in the worker's policy store (`keep_policy`, as
        `Toolkit.resume` keeps it), before the update returns (and so before the turn ends)."""
        job = {
            "call": ask.call.to_wire(),
            "request": ask.request.to_wire(),
            "answer": answer.to_wire(),
            "session": self._session,
            "principal": principal,
            "now": workflow.now().isoformat(),
            "id": "pol-" + workflow.uuid4().hex[:16],
        }
        await workflow.execute_local_activity(
            _KEEP_POLICY, json.dumps(job), start_to_close_timeout=_STORE_TIMEOUT
        )

    @workflow.update(name=_CANCEL)
    async def cancel(self, update_json: str) -> int:
        """Cancel the turn's unsettled calls (those named in `{"calls": [...]}`, or all of them
        for `null`), once `check_cancel` let the update through: a running call's activity is
        cancelled, and its handler gets the language's cancellation through its next heartbeat
        (the engine's `cancelled`: `declined: the call to <tool> was cancelled`); a waiting
        request is refused with reason `cancelled` (the engine's `answered`: `declined/expired:
        <prompt>`); a call between two runs runs no more. Returns how many calls it reached."""
        names, principal = _cancel_of(update_json)
        reached = 0
        for call in self._calls:
            if (
                call.id in self._settled
                or call.id in self._cancelled
                or (names is not None and call.id not in names)
            ):
                continue
            self._cancelled.add(call.id)
            reached += 1
            for waiting in self._waiting:
                if waiting.call.id == call.id and waiting.answer is None:
                    waiting.answer = Answer(waiting.request.id, False, reason="cancelled")
                    self._answered.append((call.id, waiting.request.id))
                    self._answered_by[waiting.request.id] = principal
            run = self._runs.get(call.id)
            if run is not None:
                run.cancel()
        return reached

    @cancel.validator
    def check_cancel(self, update_json: str) -> None:
        """Refuse a cancellation from another principal than the turn's (`principal`), as an
        answer is refused."""
        try:
            _, principal = _cancel_of(update_json)
        except (ValueError, TypeError) as exc:
            raise _refuse(ResumeError("mismatch", f"not a cancellation: {exc}")) from None
        try:
            self._check_principal(principal)
        except ResumeError as exc:
            raise _refuse(exc) from None

    def _check_principal(self, principal: str | None) -> None:
        """`ResumeError("principal")` unless `principal` is the one the turn is bound to (any,
        for a turn bound to none)."""
        if self._principal and _principal_digest(principal) != self._principal:
            who = "no principal was given" if principal is None else "the principal given is not it"
            raise ResumeError("principal", f"the turn is bound to a principal, and {who}")

    @workflow.query(name=_DECISIONS)
    def decisions(self) -> list[dict[str, Any]]:
        """Every decision of the turn, in order: what `_engine.Decision` records, when (`at`, by
        the workflow's clock) and by whom (`by`: the principal given with the answer)."""
        return list(self._log)

    @answer.validator
    def check_answer(self, update_json: str) -> None:
        """Refuse answers as `Toolkit.resume` does, so the update is rejected and nothing changes:
        past the turn's expiry (`expired`), from another principal (`principal`), or not
        matching what waits (`mismatch`, `replayed`, `not_pending`); and answers too large to
        carry to the tool's retry or to the worker's policy store (`toolnexus.PayloadTooLarge`:
        each carries the call, its request and the answer)."""
        try:
            answers, principal = self._read(update_json)
        except (WireError, ValueError, TypeError) as exc:
            raise _refuse(ResumeError("mismatch", f"not an Answer: {exc}")) from None
        try:
            if self._expires is not None and workflow.now() >= self._expires:
                raise ResumeError("expired", "the turn has expired: its time to answer has passed")
            self._check_principal(principal)
            waiting = [w for w in self._waiting if w.answer is None]
            picks = self._match(answers, waiting)
        except ResumeError as exc:
            raise _refuse(exc) from None
        for index, answer in zip(picks, answers, strict=True):
            call, request = waiting[index].call, waiting[index].request
            size = sum(len(m.to_json().encode("utf-8", "surrogatepass")) for m in (call, request, answer))
            if size > PAYLOAD_LIMIT:
                raise ApplicationError(
                    f"answer {answer.id!r} would make the retry of {call.id} carry {size:,} bytes (its call, "
                    f"request and answer), over Temporal's payload limit of {PAYLOAD_LIMIT:,}; the request "
                    "still waits: answer it with less, or carry large values by reference (a URL)",
                    type=_TOO_LARGE,
                    non_retryable=True,
                )

    def _read(self, update_json: str) -> tuple[list[Answer], str | None]:
        """The update's answers and principal, read once: the validator's reading is kept for the
        handler (a replayed update, whose validator does not run, is read here)."""
        parsed = self._parsed
        if parsed is not None and parsed[0] == update_json:
            return parsed[1], parsed[2]
        answers, principal = _update_of(update_json)
        self._parsed = (update_json, answers, principal)
        return answers, principal

    def _match(self, answers: list[Answer], waiting: list[_Waiting]) -> list[int]:
        """The waiting call each answer answers (`_engine.match`), by index into `waiting`."""
        if not waiting:
            for answer in answers:
                if any(request_id == answer.id for _, request_id in self._answered):
                    raise ResumeError("replayed", f"request {answer.id!r} was already answered")
                if any(_declined_request(r) == answer.id for r in self._settled.values()):
                    raise ResumeError("not_pending", f"request {answer.id!r} expired before it was answered")
            raise ResumeError(
                "not_pending", f"the turn waits on no request, so answer {answers[0].id!r} has no use"
            )
        asked = [w.request.id for w in waiting]
        for answer in answers:  # a request that waits no more: answered, or settled by its expiry
            if answer.id in asked:
                continue
            if any(request_id == answer.id for _, request_id in self._answered):
                raise ResumeError("replayed", f"request {answer.id!r} was already answered")
            if any(_declined_request(r) == answer.id for r in self._settled.values()):
                raise ResumeError("not_pending", f"request {answer.id!r} expired before it was answered")
        picks = match(
            answers,
            lambda request_id: [(i, w.call.id) for i, w in enumerate(waiting) if w.request.id == request_id],
            lambda call_id, request_id: (call_id, request_id) in self._answered,
            asked[0],
        )
        for index, answer in zip(picks, answers, strict=True):
            check_answer(Ask(waiting[index].call, waiting[index].request), answer)
        return picks


def _update_of(text: str) -> tuple[list[Answer], str | None]:
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


def _cancel_of(text: str) -> tuple[set[str] | None, str | None]:
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


def _principal_digest(principal: str | None) -> str:
    """What the turn keeps of the principal it is bound to (its history holds no user id)."""
    if principal is None:
        return ""
    raw = principal.encode("utf-8", "surrogatepass")
    return hashlib.sha256(b"toolnexus.temporal.principal.v1\n" + raw).hexdigest()


@dataclass(frozen=True, slots=True)
class _TurnInput:
    """The workflow's input: its calls, and (from `TurnClient`) the tools' policies, the turn's
    expiry, the digest of its principal and its session. A bare array of calls is the input of
    clients before them."""

    calls: list[ToolCall]
    plans: dict[str, Any] | None = None
    expires_in: float | None = None
    principal: str = ""
    session: str | None = None

    @classmethod
    def read(cls, text: str) -> _TurnInput:
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


def _declined_request(result: ToolResult) -> str | None:
    """The id of the request whose refusal or expiry settled `result`, if one did."""
    marker = (result.metadata or {}).get("declined")
    return marker.get("request") if isinstance(marker, dict) else None


# -- the surface ------------------------------------------------------------------------


def worker_for(
    client: Client,
    toolkit: Toolkit,
    *,
    task_queue: str,
    policies: Mapping[str, ToolPolicy] | None = None,
    default: ToolPolicy | None = None,
    **worker_options: Any,
) -> Worker:
    """A Temporal `Worker` on `task_queue` that runs turns and `toolkit`'s tools.

    `policies` maps a tool name to its `ToolPolicy`; the others get `default`. Run it with
    `async with worker:` or `await worker.run()`. `worker_options` go to `Worker` as they are.
    """
    acts = _Activities(toolkit, policies or {}, default or ToolPolicy())
    return Worker(
        client,
        task_queue=task_queue,
        workflows=[TurnWorkflow],
        activities=[acts.run_tool, acts.tool_policies, acts.read_policies, acts.keep_policy],
        **worker_options,
    )


def _refusal(exc: WorkflowUpdateFailedError) -> ResumeError | None:
    """The `ResumeError` an update failed with when the workflow refused it (`_REFUSED`, its
    reason the first detail), or None for any other failure."""
    cause = exc.cause
    if not (isinstance(cause, ApplicationError) and cause.type == _REFUSED and cause.details):
        return None
    reason = cause.details[0]
    return ResumeError(reason, cause.message) if reason in RESUME_REASONS else None


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
            raise ValueError(f"the calls of one turn need distinct ids, got {ids}")
        if expires_in is not None and (
            isinstance(expires_in, bool)
            or not isinstance(expires_in, (int, float))
            or not 0 < expires_in < 10**9
        ):
            raise ValueError(f"expires_in must be a positive number of seconds, got {expires_in!r}")
        if principal is not None and not isinstance(principal, str):
            raise TypeError(f"principal must be a str or None, got {type(principal).__name__}")
        if session is not None and not isinstance(session, str):
            raise TypeError(f"session must be a str or None, got {type(session).__name__}")
        body = "[" + ",".join(c.to_json() for c in calls) + "]"
        if self._policies is not None or (expires_in, principal, session) != (None, None, None):
            head: dict[str, Any] = {"expiresIn": expires_in, "principal": _principal_digest(principal)}
            if session is not None:
                head["session"] = session
            if self._policies is not None:
                policies = self._policies
                head["plans"] = {
                    name: policies.get(
                        name, policies.get(normalize_tool_name(name), self._default)
                    )._to_json()
                    for name in sorted({c.name for c in calls})
                }
            body = json.dumps(head)[:-1] + ',"calls":' + body + "}"
        if (size := len(body.encode("utf-8", "surrogatepass"))) > PAYLOAD_LIMIT:
            raise ValueError(
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
        text = await self._client.get_workflow_handle(turn_id).query(_PENDING, result_type=str)
        return [Request.from_wire(r) for r in json.loads(text)]

    async def state(self, turn_id: str) -> tuple[RunResult, int]:
        """The turn as it stands (see `TurnWorkflow.state`) and how many tool runs are under way."""
        doc = await self._state(turn_id)
        return RunResult.from_wire(doc["run"]), int(doc["running"])

    async def _state(self, turn_id: str) -> dict[str, Any]:
        """`TurnWorkflow.state`'s document (with the turn's expiry, principal and last change)."""
        text = await self._client.get_workflow_handle(turn_id).query(_STATE, result_type=str)
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
            raise ValueError("answer needs at least one Answer")
        items = "[" + ",".join(a.to_json() for a in batch) + "]"
        update = (
            '{"answers":'
            + items
            + (f',"principal":{json.dumps(principal)}' if principal is not None else "")
            + "}"
        )
        if (size := len(update.encode("utf-8", "surrogatepass"))) > PAYLOAD_LIMIT:
            raise ValueError(
                f"the answers are {size:,} bytes, over Temporal's payload limit of {PAYLOAD_LIMIT:,}; "
                "the request still waits"
            )
        handle = self._client.get_workflow_handle(turn_id)
        try:
            await handle.execute_update(_ANSWER, update)
        except WorkflowUpdateFailedError as exc:
            cause = exc.cause
            # `_UNKEPT`: an older worker, which refuses a scope beyond the turn
            if isinstance(cause, ApplicationError) and cause.type in (_TOO_LARGE, _UNKEPT):
                raise ValueError(cause.message) from None
            if refusal := _refusal(exc):
                raise refusal from None
            raise
        except RPCError as exc:
            if exc.status != RPCStatusCode.NOT_FOUND:
                raise
            try:  # the turn has finished (or never was): was this request answered in it?
                answered = await handle.query(_ANSWERED, result_type=list[str])
                closed = await handle.query(_CLOSED, result_type=str)
            except RPCError:
                raise ResumeError("not_pending", f"there is no turn {turn_id!r} to answer") from None
            if again := next((a.id for a in batch if a.id in answered), None):
                raise ResumeError("replayed", f"request {again!r} was already answered") from None
            if closed == "expired":
                raise ResumeError(
                    "expired", f"turn {turn_id!r} has expired: its time to answer has passed"
                ) from None
            raise ResumeError(
                "not_pending", f"turn {turn_id!r} has finished, so answer {batch[0].id!r} has no use"
            ) from None

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
        update = json.dumps({"calls": None if call_id is None else [call_id], "principal": principal})
        handle = self._client.get_workflow_handle(turn_id)
        try:
            reached: int = await handle.execute_update(_CANCEL, update, result_type=int)
        except WorkflowUpdateFailedError as exc:
            if refusal := _refusal(exc):
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
            _DECISIONS, result_type=list[dict[str, Any]]
        )
        return found

    async def result(self, turn_id: str) -> RunResult:
        """The turn's `RunResult` (`done`), once every call has settled."""
        text = await self._client.get_workflow_handle(turn_id, result_type=str).result()
        return RunResult.from_json(text)
