"""The workflow of one turn (`toolnexus.Turn`): the loop's engine hosted on Temporal, each run an
activity, each ask a durable wait for an Update."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from temporalio import workflow
from temporalio.exceptions import ActivityError, ApplicationError, CancelledError, FailureError

with workflow.unsafe.imports_passed_through():
    from toolnexus_wire import dumps

    from .._book import check_answer, pick_waiting, refuse_expired, refuse_principal, refuse_unreadable
    from .._engine import (
        Ask,
        Policy,
        Run,
        Settle,
        cancelled,
        decided,
        drive,
        is_approval,
        parse_time,
        policed,
        reach,
        reached,
        scope_of,
        start,
    )
    from .._errors import ResumeError, WireError
    from .._result import Answer, Request, RunResult, ToolCall, ToolCallResult, ToolResult
    from .._seal import idempotency_key, turn_digest
    from .._suspend import pending_of
    from ._protocol import (
        ANSWER,
        ANSWERED,
        CANCEL,
        CLOSED,
        DECISIONS,
        KEEP_POLICY,
        PAYLOAD_LIMIT,
        PENDING,
        READ_POLICIES,
        RUN_TOOL,
        STATE,
        TOO_LARGE,
        TOOL_POLICIES,
        WORKFLOW,
        TurnInput,
        cancel_of,
        principal_digest,
        refuse,
        retry_policy,
        update_of,
    )

__all__ = ["TurnWorkflow"]

#: The patch that marks a turn whose workflow decides approvals by the worker's policies (turns
#: started before it replay without reading them).
_POLICIES_PATCH = "toolnexus.policies.v1"
#: How long a read or a write of the worker's policy store may take (a local activity, retried).
_STORE_TIMEOUT = timedelta(seconds=30)
#: How long past its own timeout a tool's activity may run before Temporal gives up on it.
_GRACE = 60.0
#: The cap on one attempt of a tool that has no timeout (its heartbeats keep it alive until then).
_NO_TIMEOUT_CAP = timedelta(days=1)
_NOW = timedelta(0)
#: The largest partial result (its event's JSON, in characters) a heartbeat carries; a larger one


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
            RUN_TOOL,
            json.dumps(job),
            start_to_close_timeout=limit,
            heartbeat_timeout=timedelta(seconds=plan["heartbeat"]),
            retry_policy=retry_policy(plan),
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
        self._parsed = _LastUpdate()  # the update the validator read
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
        turn = TurnInput.read(input_json)
        calls = self._calls = turn.calls
        order = [c.id for c in calls]
        plans = turn.plans
        if plans is None:  # a client without policies: the worker's, asked once and kept in the history
            names = sorted({c.name for c in calls})
            plans = json.loads(
                await workflow.execute_local_activity(
                    TOOL_POLICIES, names, start_to_close_timeout=timedelta(seconds=30)
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
                READ_POLICIES, json.dumps(job), start_to_close_timeout=_STORE_TIMEOUT
            )
        return [Policy.from_wire(doc) for doc in json.loads(await self._policies)]

    @workflow.query(name=PENDING)
    def pending(self) -> str:
        """The requests waiting for an answer, in call order, as a JSON array of wire requests."""
        waiting = [w for w in self._waiting if w.answer is None]
        return dumps([w.request.to_wire() for w in waiting])

    @workflow.query(name=ANSWERED)
    def answered(self) -> list[str]:
        """The ids of the requests answered so far."""
        return [request_id for _, request_id in self._answered]

    @workflow.query(name=CLOSED)
    def closed(self) -> str:
        """`expired` once the turn's own expiry has passed, else empty."""
        return "expired" if self._expires is not None and workflow.now() >= self._expires else ""

    @workflow.query(name=STATE)
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
        return dumps({"run": run.to_wire(), **rest})

    @workflow.update(name=ANSWER)
    async def answer(self, update_json: str) -> None:
        """Take the answers that `check_answer` let through (one, or a list taken whole); an
        approval decided for the turn (`Answer.scope`) decides the turn's other approvals of
        its tool with it (`reach`)."""
        answers, principal = self._parsed.read(update_json)
        waiting = [w for w in self._waiting if w.answer is None]
        asks = [Ask(w.call, w.request) for w in waiting]
        picks = _match(answers, waiting, self._answered, self._settled.values())
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
            KEEP_POLICY, json.dumps(job), start_to_close_timeout=_STORE_TIMEOUT
        )

    @workflow.update(name=CANCEL)
    async def cancel(self, update_json: str) -> int:
        """Cancel the turn's unsettled calls (those named in `{"calls": [...]}`, or all of them
        for `null`), once `check_cancel` let the update through: a running call's activity is
        cancelled, and its handler gets the language's cancellation through its next heartbeat
        (the engine's `cancelled`: `declined: the call to <tool> was cancelled`); a waiting
        request is refused with reason `cancelled` (the engine's `answered`: `declined/expired:
        <prompt>`); a call between two runs runs no more. Returns how many calls it reached."""
        names, principal = cancel_of(update_json)
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
            _, principal = cancel_of(update_json)
        except (ValueError, TypeError) as exc:
            raise refuse(refuse_unreadable("a cancellation", exc)) from None
        try:
            self._check_principal(principal)
        except ResumeError as exc:
            raise refuse(exc) from None

    def _check_principal(self, principal: str | None) -> None:
        """`ResumeError("principal")` unless `principal` is the one the turn is bound to (any,
        for a turn bound to none)."""
        if self._principal and principal_digest(principal) != self._principal:
            raise refuse_principal(principal, "the turn")

    @workflow.query(name=DECISIONS)
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
            answers, principal = self._parsed.read(update_json)
        except (WireError, ValueError, TypeError) as exc:
            raise refuse(refuse_unreadable("an Answer", exc)) from None
        try:
            if self._expires is not None and workflow.now() >= self._expires:
                raise refuse_expired("the turn")
            self._check_principal(principal)
            waiting = [w for w in self._waiting if w.answer is None]
            picks = _match(answers, waiting, self._answered, self._settled.values())
        except ResumeError as exc:
            raise refuse(exc) from None
        for index, answer in zip(picks, answers, strict=True):
            call, request = waiting[index].call, waiting[index].request
            size = sum(len(m.to_json().encode("utf-8", "surrogatepass")) for m in (call, request, answer))
            if size > PAYLOAD_LIMIT:
                raise ApplicationError(
                    f"answer {answer.id!r} would make the retry of {call.id} carry {size:,} bytes (its call, "
                    f"request and answer), over Temporal's payload limit of {PAYLOAD_LIMIT:,}; the request "
                    "still waits: answer it with less, or carry large values by reference (a URL)",
                    type=TOO_LARGE,
                    non_retryable=True,
                )


class _LastUpdate:
    """An update's answers and principal, read once: the validator's reading is kept for the
    handler (a replayed update, whose validator does not run, is read there)."""

    __slots__ = ("_read",)

    def __init__(self) -> None:
        self._read: tuple[str, list[Answer], str | None] | None = None

    def read(self, update_json: str) -> tuple[list[Answer], str | None]:
        read = self._read
        if read is not None and read[0] == update_json:
            return read[1], read[2]
        answers, principal = update_of(update_json)
        self._read = (update_json, answers, principal)
        return answers, principal


def _match(
    answers: list[Answer],
    waiting: list[_Waiting],
    answered: Collection[tuple[str, str]],
    settled: Iterable[ToolResult],
) -> list[int]:
    """The waiting call each answer answers, by index into `waiting` (the book's
    `pick_waiting`: the same refusals as `Toolkit.resume`), given the (call, request) pairs
    `answered` already and the results `settled` so far."""
    done = list(settled)
    picks = pick_waiting(
        answers,
        [(w.call.id, w.request.id) for w in waiting],
        answered,
        lambda request_id: any(_declined_request(r) == request_id for r in done),
        "the turn",
    )
    for index, answer in zip(picks, answers, strict=True):
        check_answer(Ask(waiting[index].call, waiting[index].request), answer)
    return picks


def _declined_request(result: ToolResult) -> str | None:
    """The id of the request whose refusal or expiry settled `result`, if one did."""
    marker = (result.metadata or {}).get("declined")
    return marker.get("request") if isinstance(marker, dict) else None
