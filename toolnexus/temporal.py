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
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
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
from temporalio.exceptions import ActivityError, ApplicationError, FailureError
from temporalio.service import RPCError, RPCStatusCode
from temporalio.worker import Worker

with workflow.unsafe.imports_passed_through():
    from ._errors import ResumeError, WireError
    from ._loop import after_retry, approval_for, approved_arguments, is_approval, parse_time, verdict
    from ._result import Answer, Request, RunResult, ToolCall, ToolCallResult, ToolResult
    from ._suspend import pending, pending_of
    from ._tool import ToolContext, normalize_tool_name
    from ._toolkit import Toolkit, idempotency_key, turn_digest

__all__ = ["WORKFLOW", "ToolPolicy", "TurnClient", "worker_for"]

#: The workflow's type name; its activities are `toolnexus.run_tool` and `toolnexus.tool_policies`.
WORKFLOW = "toolnexus.Turn"
_RUN_TOOL = "toolnexus.run_tool"
_POLICIES = "toolnexus.tool_policies"
_ANSWER = "answer"
_PENDING = "pending"
_ANSWERED = "answered"
_REFUSED = "ResumeError"
_REASONS = ("mismatch", "replayed", "not_pending", "seal", "expired", "principal")
#: How long past its own timeout a tool's activity may run before Temporal gives up on it.
_GRACE = 60.0
#: The cap on one attempt of a tool that has no timeout (its heartbeats keep it alive until then).
_NO_TIMEOUT_CAP = timedelta(days=1)
_NOW = timedelta(0)


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

    @activity.defn(name=_RUN_TOOL)
    async def run_tool(self, payload: str) -> str:
        """Run one call: `payload` holds the call, its arguments, key, timeout and answer, and
        whether to ask first for the approval its tool needs (`needs_approval`), as wire JSON."""
        job = json.loads(payload)
        call = ToolCall.from_wire(job["call"])
        if job["ask"]:
            gate = approval_for(self._toolkit.get(call.name), call.arguments)
            if gate is not None:  # the call waits for its approval, and its handler does not run
                return pending(gate).to_json()
        answer = None if job["answer"] is None else Answer.from_wire(job["answer"])
        request = None if job.get("request") is None else Request.from_wire(job["request"])
        progress: list[tuple[float, str]] = []
        hook = self._toolkit.on_progress

        def report(fraction: float, message: str) -> None:
            progress[:] = [(fraction, message)]  # sent with the next heartbeat
            if hook is not None:  # and heard by the worker's own Toolkit(on_progress=...)
                hook(call.id, fraction, message)

        ctx = ToolContext(
            timeout=job["timeout"],
            answer=answer,
            request=request,
            call_id=call.id,
            idempotency_key=job["key"],
            on_progress=report,
        )
        beat = activity.info().heartbeat_timeout
        interval = beat.total_seconds() / 3 if beat else 1.0
        activity.heartbeat()
        task = asyncio.ensure_future(self._toolkit.execute(call.name, job["arguments"], ctx))
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=interval)
                if done:
                    break
                activity.heartbeat(*progress[-1:])
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
    expired: bool = False


@workflow.defn(name=WORKFLOW, sandboxed=False)
class TurnWorkflow:
    """One turn of tool calls; see the module's documentation.

    It runs outside temporalio's sandbox: its code reads no clock but `workflow.now()`, does
    no I/O and draws no random numbers, and the sandbox's fresh import of this module for
    every turn cost more than the turn (on two cores, 200 sandboxed turns started at once
    timed out their workflow tasks again and again).
    """

    def __init__(self) -> None:
        self._waiting: list[_Waiting] = []

    @workflow.run
    async def run(self, calls_json: str) -> str:
        calls = [ToolCall.from_wire(c) for c in json.loads(calls_json)]
        order = [c.id for c in calls]
        turn = turn_digest([workflow.info().workflow_id, *order])
        names = sorted({c.name for c in calls})
        plans = json.loads(
            await workflow.execute_local_activity(
                _POLICIES, names, start_to_close_timeout=timedelta(seconds=30)
            )
        )

        async def run_call(
            call: ToolCall,
            answer: Answer | None,
            *,
            request: Request | None = None,
            ask: bool = False,
            arguments: Any = None,
        ) -> ToolResult:
            plan = plans[call.name]
            timeout = plan["timeout"]
            job = {
                "call": call.to_wire(),
                "arguments": call.arguments if arguments is None else arguments,
                "ask": ask,
                "key": idempotency_key(turn, call.id),
                "timeout": timeout,
                "answer": None if answer is None else answer.to_wire(),
                "request": None if request is None else request.to_wire(),
            }
            limit = _NO_TIMEOUT_CAP if timeout is None else timedelta(seconds=timeout + _GRACE)
            try:
                text = await workflow.execute_activity(
                    _RUN_TOOL,
                    json.dumps(job),
                    start_to_close_timeout=limit,
                    heartbeat_timeout=timedelta(seconds=plan["heartbeat"]),
                    retry_policy=_retry_policy(plan),
                )
            except ActivityError as exc:
                why = exc.cause.message if isinstance(exc.cause, FailureError) else str(exc)
                return ToolResult.error(f"{call.name} did not finish: {why}")
            return ToolResult.from_json(text)

        async def wait(position: int, call: ToolCall, request: Request) -> Answer | None:
            """The answer to `request`, durably awaited; None when it expired first (or
            an `ok` came after `expiresAt`, by the workflow's clock)."""
            waiting = _Waiting(position, call, request)
            self._waiting.append(waiting)
            self._waiting.sort(key=lambda w: w.position)
            left = self._time_left(request)
            if left is not None and left <= _NOW:
                waiting.expired = True
                return None
            try:
                await workflow.wait_condition(lambda: waiting.answer is not None, timeout=left)
            except TimeoutError:
                waiting.expired = True
                return None
            answer = waiting.answer
            assert answer is not None
            left = self._time_left(request)
            return None if answer.ok and left is not None and left <= _NOW else answer

        async def settle(position: int, call: ToolCall, first: ToolResult) -> ToolResult:
            """The loop rule for one call (as `Toolkit.run_calls` with a `wait_for`)."""
            request = pending_of(first)
            if request is None:
                return first
            arguments: Any = call.arguments
            if is_approval(call.name, request):  # asked before the handler ran (`needs_approval`)
                answer = await wait(position, call, request)
                ended = verdict(call.name, request, answer, workflow.now())
                if ended is not None:
                    return ended
                assert answer is not None  # `verdict` ends every call without one
                arguments = approved_arguments(arguments, answer)
                result = await run_call(call, None, arguments=arguments)
                again = pending_of(result)
                if again is None:
                    return result
                request = again  # the handler asks in turn: settled as any other question
            answer = await wait(position, call, request)
            ended = verdict(call.name, request, answer, workflow.now())
            if ended is not None:
                return ended
            retry = await run_call(call, answer, request=request, arguments=arguments)
            return after_retry(request, retry)

        async def one(position: int, call: ToolCall) -> ToolResult:
            return await settle(position, call, await run_call(call, None, ask=True))

        results = await asyncio.gather(*(one(i, c) for i, c in enumerate(calls)))
        await workflow.wait_condition(workflow.all_handlers_finished)
        run = RunResult(
            "done", [ToolCallResult(c.id, c.name, r) for c, r in zip(calls, results, strict=True)]
        )
        return run.to_json()

    def _time_left(self, request: Request) -> timedelta | None:
        """Until `expiresAt`, by the workflow's clock; None for no expiry, zero when unreadable."""
        if not request.expires_at:
            return None
        try:
            return parse_time(request.expires_at) - workflow.now()
        except ValueError:
            return timedelta(0)

    @workflow.query(name=_PENDING)
    def pending(self) -> str:
        """The requests waiting for an answer, in call order, as a JSON array of wire requests."""
        waiting = [w for w in self._waiting if w.answer is None and not w.expired]
        return "[" + ",".join(w.request.to_json() for w in waiting) + "]"

    @workflow.query(name=_ANSWERED)
    def answered(self) -> list[str]:
        """The ids of the requests answered so far."""
        return [w.request.id for w in self._waiting if w.answer is not None]

    @workflow.update(name=_ANSWER)
    async def answer(self, answer_json: str) -> None:
        """Take an answer that `check_answer` let through."""
        answer = Answer.from_json(answer_json)
        self._match(answer).answer = answer

    @answer.validator
    def check_answer(self, answer_json: str) -> None:
        """Refuse an answer as `Toolkit.resume` does, so the update is rejected and nothing changes."""
        try:
            answer = Answer.from_json(answer_json)
        except WireError as exc:
            raise _refuse(ResumeError("mismatch", f"not an Answer: {exc}")) from None
        try:
            self._match(answer)
        except ResumeError as exc:
            raise _refuse(exc) from None

    def _match(self, answer: Answer) -> _Waiting:
        """The waiting call `answer` answers: the first, in call order, whose request has its id."""
        waiting = [w for w in self._waiting if w.answer is None and not w.expired]
        for w in waiting:
            if w.request.id == answer.id:
                return w
        if any(w.request.id == answer.id and w.answer is not None for w in self._waiting):
            raise ResumeError("replayed", f"request {answer.id!r} was already answered")
        if any(w.request.id == answer.id for w in self._waiting):
            raise ResumeError("not_pending", f"request {answer.id!r} expired before it was answered")
        if not waiting:
            raise ResumeError(
                "not_pending", f"the turn waits on no request, so answer {answer.id!r} has no use"
            )
        ids = ", ".join(repr(w.request.id) for w in waiting)
        raise ResumeError("mismatch", f"answer {answer.id!r} does not answer a pending request ({ids})")


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
        activities=[acts.run_tool, acts.tool_policies],
        **worker_options,
    )


class TurnClient:
    """Starts turns on Temporal, lists what they wait for, answers them and reads their results.

    Any process connected to the same Temporal namespace can make each call; the turn id
    is the workflow id, and a turn id is used once (a finished turn is not started again).
    """

    def __init__(self, client: Client, *, task_queue: str) -> None:
        self._client = client
        self._task_queue = task_queue

    async def start(self, turn_id: str, calls: Sequence[ToolCall]) -> None:
        """Start the turn `turn_id` on `calls`; `ValueError` for repeated call ids, and
        temporalio's `WorkflowAlreadyStartedError` when the turn id was used before."""
        ids = [c.id for c in calls]
        if len(set(ids)) != len(ids):
            raise ValueError(f"the calls of one turn need distinct ids, got {ids}")
        await self._client.start_workflow(
            WORKFLOW,
            "[" + ",".join(c.to_json() for c in calls) + "]",
            id=turn_id,
            task_queue=self._task_queue,
            id_reuse_policy=WorkflowIDReusePolicy.REJECT_DUPLICATE,
        )

    async def pending(self, turn_id: str) -> list[Request]:
        """The requests the turn waits on now, in call order."""
        text = await self._client.get_workflow_handle(turn_id).query(_PENDING, result_type=str)
        return [Request.from_wire(r) for r in json.loads(text)]

    async def answer(self, turn_id: str, answer: Answer) -> None:
        """Answer one of the turn's pending requests; returns once the turn has taken it.

        Raises `ResumeError` when the turn refuses it, with the reasons of `Toolkit.resume`:
        `mismatch` (no pending request has that id), `replayed` (that request was answered
        already, also after the turn finished), `not_pending` (the turn waits on nothing,
        the request expired first, or there is no such turn).
        """
        handle = self._client.get_workflow_handle(turn_id)
        try:
            await handle.execute_update(_ANSWER, answer.to_json())
        except WorkflowUpdateFailedError as exc:
            cause = exc.cause
            if isinstance(cause, ApplicationError) and cause.type == _REFUSED and cause.details:
                reason = cause.details[0]
                if reason in _REASONS:
                    raise ResumeError(reason, cause.message) from None
            raise
        except RPCError as exc:
            if exc.status != RPCStatusCode.NOT_FOUND:
                raise
            try:  # the turn has finished (or never was): was this request answered in it?
                answered = await handle.query(_ANSWERED, result_type=list[str])
            except RPCError:
                raise ResumeError("not_pending", f"there is no turn {turn_id!r} to answer") from None
            if answer.id in answered:
                raise ResumeError("replayed", f"request {answer.id!r} was already answered") from None
            raise ResumeError(
                "not_pending", f"turn {turn_id!r} has finished, so answer {answer.id!r} has no use"
            ) from None

    async def result(self, turn_id: str) -> RunResult:
        """The turn's `RunResult` (`done`), once every call has settled."""
        text = await self._client.get_workflow_handle(turn_id, result_type=str).result()
        return RunResult.from_json(text)
