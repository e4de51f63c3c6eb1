"""The toolkit: routes a model's tool calls to tools, and hosts the loop in process.

One turn of tool calls goes through `Toolkit.run_calls`. What happens to each call (approval,
edited arguments, questions, retries, refusals, expiry) is the engine's (`_engine`); the
toolkit only supplies its effects: it runs handlers, asks `wait_for`, and tells the time. A
call that suspends is either answered on the spot through `wait_for`, or stops the run: the
returned `RunResult` is plain data that a host stores and later continues with
`Toolkit.resume`, possibly in another process. The book (`_book`) seals and tracks those runs.
"""

from __future__ import annotations

import copy
import functools
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, TypeAlias

from ._book import RunBook, answers_of
from ._effects import (
    EventHook,
    Host,
    LogHook,
    ProgressHook,
    ResultHook,
    WaitFor,
    _Effects,
    _gather,
    _item,
    _Running,
    cancel_runs,
    log_hook,
)
from ._engine import (
    Ask,
    Policy,
    Run,
    Settle,
    answered,
    drive,
    lapsed,
    start,
)
from ._errors import UsageError
from ._limit import Limit, Tokenizer
from ._policies import DecisionLog, Decisions, PolicyStore
from ._result import Answer, Request, RunResult, ToolCall, ToolResult
from ._seal import key_set
from ._spill import ResultLimits, ResultSpill, Scope
from ._suspend import pending, pending_of
from ._tool import Tool, ToolContext, define_tool, normalize_tool_name

logger = logging.getLogger("toolnexus")

__all__ = [
    "Clock",
    "EventHook",
    "ProgressHook",
    "ResultHook",
    "Toolkit",
    "WaitFor",
    "cancel_grace",
    "forget_answers",
    "keep_decision",
    "rewrapped",
    "seals",
]

#: The time, as an aware datetime (`Toolkit(clock=...)`; the wall clock by default).
Clock: TypeAlias = Callable[[], datetime]


def _wall_clock() -> datetime:
    return datetime.now(UTC)


class _Tools:
    """A set of tools, addressed by name, and each run of one (`execute`): the part of a
    `Toolkit` that knows nothing of the loop."""

    def __init__(self, on_result: ResultHook | None, limits: ResultLimits | None = None) -> None:
        self._tools: dict[str, Tool] = {}
        self._on_result = on_result
        self._errors = 0
        self._limits = limits or ResultLimits(None, None, None)

    def __repr__(self) -> str:
        return f"<Toolkit {list(self._tools)!r}>"

    def register(self, tool: Tool) -> Tool:
        """Add `tool` and return it as registered.

        A name with characters outside `[a-zA-Z0-9_-]` is registered as a copy of the tool with
        those characters replaced by `_`. Raises `ValueError` when the name is empty or another
        tool already has the (normalised) name.
        """
        if not isinstance(tool, Tool):
            raise TypeError(f"expected a Tool, got {type(tool).__name__}")
        name = normalize_tool_name(tool.name)
        if not name:
            raise UsageError("a tool needs a non-empty name")
        if name in self._tools:
            was = f" (normalised from {tool.name!r})" if name != tool.name else ""
            raise UsageError(f"a tool named {name!r}{was} is already registered")
        if name != tool.name:
            tool = copy.copy(tool)
            tool.name = name
        self._tools[name] = tool
        return tool

    def tools(self) -> list[Tool]:
        """The registered tools, in registration order."""
        return list(self._tools.values())

    def get(self, name: str) -> Tool | None:
        """The tool registered under `name` (normalised first), or None."""
        found = self._tools.get(name)  # registered names are normalised: a hit needs no regex
        return found if found is not None else self._tools.get(normalize_tool_name(name))

    @property
    def error_count(self) -> int:
        """How many tool runs returned an error that was not a suspension."""
        return self._errors

    async def execute(
        self, name: str, args: dict[str, Any] | None, ctx: ToolContext | None = None
    ) -> ToolResult:
        """Run the tool `name`. An unknown name is the error result `Unknown tool: <name>`.

        This is the tool run itself: it asks for no approval (`needs_approval` is applied by
        `run_calls`, before this is called) and applies no loop rule."""
        tool = self.get(name)
        if tool is None:
            result = ToolResult.error(f"Unknown tool: {name}")  # the text of every upstream port
        else:
            result = await tool.call(args, ctx)
        if result.is_error and pending_of(result) is None:
            self._errors += 1
        if self._on_result is not None:
            self._on_result(name, result)
        return result

    async def _execute_fitted(self, call: ToolCall, ctx: ToolContext, scope: Scope) -> ToolResult:
        """`execute`, its result fitted to the call's limit (the whole output kept when cut)."""
        limits = self._limits
        if limits.spill is None:  # nothing for `read_result` to read
            result = await self.execute(call.name, call.arguments, ctx)
        else:
            with limits.running(scope):
                result = await self.execute(call.name, call.arguments, ctx)
        return limits.apply(self.get(call.name), result, ctx.idempotency_key, scope)


class Toolkit(_Tools):
    """A set of tools, addressed by name, and the loop that runs a model's calls to them.

    Sealing: with `secrets={key_id: key, ...}` (each key at least 16 bytes) and
    `active_key=key_id` (needed when there are several), every pending `RunResult` carries
    `seal`, an HMAC-SHA256 under the active key over its `results`, `pending`, `calls`,
    `requests`, `order` and `turn`, the id of that key, and the expiry and principal
    `run_calls` may bind it to; `resume` refuses a run whose seal does not match, or names a
    key the toolkit no longer has (`ResumeError("seal")`). To rotate, add a new key and make
    it active: runs sealed under the old one still resume (and come back sealed under the new
    one) until the old key is removed. `secret=key` is `secrets={"default": key}`. Without a
    key no seal is written.

    `on_result(name, result)` is called after every tool run (including the re-run with an
    answer, and an unknown tool's error). `error_count` counts the runs whose result is an
    error that is not a suspension. The errors the loop itself writes (`declined…`,
    `unresolved: …`) are not tool runs and are counted by neither. `on_progress(call_id,
    fraction, message)` receives what tools report through `ToolContext.progress`, and
    `on_log(call_id, level, message, data)` what they log through `ToolContext.log`. `clock`
    tells the time (an aware datetime) for every expiry the loop reads; the wall clock by
    default. `limit`, `spill` and `tokenizer`: results that fit the model (a `Limit`, the tighter
    of it and a tool's; where a cut output is kept; the token count), docs/guides/result-limits.md.
    """

    def __init__(
        self,
        tools: Iterable[Tool] = (),
        *,
        secret: bytes | None = None,
        secrets: Mapping[str, bytes] | None = None,
        active_key: str | None = None,
        on_result: ResultHook | None = None,
        on_progress: ProgressHook | None = None,
        clock: Clock | None = None,
        policy_store: PolicyStore | None = None,
        decision_log: DecisionLog | None = None,
        policy_lifetime: float = 8 * 3600,
        on_event: EventHook | None = None,
        cancel_grace: float = 5.0,
        on_log: LogHook | None = None,
        limit: Limit | None = None,
        spill: ResultSpill | None = None,
        tokenizer: Tokenizer | None = None,
    ) -> None:
        super().__init__(on_result, ResultLimits(limit, spill, tokenizer))
        self._on_log = on_log
        self._on_progress = on_progress
        self._clock = clock or _wall_clock
        self._decisions = Decisions(policy_store, decision_log, policy_lifetime)
        self._on_event = on_event
        self._cancel_grace = cancel_grace
        self._running: dict[str, list[_Running]] = {}  # by call id: the handler runs under way
        keys, active = key_set(secret, secrets, active_key)
        self._book = RunBook(keys, active, lambda: int(self._clock().timestamp() * 1000))
        if active is not None and (use_key := getattr(decision_log, "use_key", None)) is not None:
            use_key(active.key_id, active._secret)  # the log's head is MAC'd under the toolkit's key
        for t in tools:
            self.register(t)

    @property
    def _host(self) -> Host:
        """What the effects of a turn use of this toolkit (built for each turn: a copy of the
        toolkit with other tools, as a store's calls in doubt make, performs with its own)."""
        hooks = (self._on_progress, self._on_event)
        return Host(self.perform, self._running, self._cancel_grace, *hooks, self._decisions, self.now)

    @property
    def on_progress(self) -> ProgressHook | None:
        """The `on_progress` hook this toolkit was made with (read-only)."""
        return self._on_progress

    def now(self) -> datetime:
        """The time by this toolkit's clock."""
        return self._clock()

    def cancel(self, call_id: str, *, turn_id: str | None = None) -> bool:
        """Cancel the running handler of the call `call_id` (of the turn `turn_id`, when given):
        it gets `asyncio.CancelledError`, and the call settles as `declined: the call to <tool>
        was cancelled` (reason `cancelled`). A handler that ignores it is abandoned after
        `cancel_grace` seconds (a sync one always is: a thread cannot be stopped). False when no
        such call runs here."""
        return cancel_runs(self._running, call_id, turn_id)

    def policies(self, tool: str | None = None) -> list[Policy]:
        """The decisions kept beyond their turn (`Answer.scope`), of `tool` when given, expired
        ones too; each approves or refuses the later calls it covers without asking."""
        return self._decisions.store.policies(tool)

    def revoke_policy(self, policy_id: str) -> bool:
        """Revoke a policy by its id (`Policy.id`); False when there is none."""
        return self._decisions.store.revoke(policy_id)

    # -- running --------------------------------------------------------------------

    async def perform(
        self,
        call: ToolCall,
        *,
        answer: Answer | None = None,
        request: Request | None = None,
        gate_first: bool = False,
        idempotency_key: str = "",
        timeout: float | None = None,
        on_progress: Callable[[float, str], None] | None = None,
        on_partial: Callable[[ToolResult], None] | None = None,
        session: str | None = None,
        principal: str | None = None,
        on_log: Callable[[str, str, dict[str, Any]], None] | None = None,
    ) -> ToolResult:
        """One run of `call`, as the loop asks a host for it: with `gate_first`, a first run
        that suspends on the tool's approval instead when the tool needs one and no policy of
        the turn's `session` and `principal` decides it (the handler does not run); else the
        handler, with `answer` to `request` on a retry. Hosts of the loop that run handlers
        elsewhere (a Temporal activity) call this."""
        if gate_first:
            asked = self._decisions.gate(self.get(call.name), call, session, principal, self.now())
            if isinstance(asked, ToolResult):
                return asked
            if asked is not None:
                return pending(asked)
        if on_progress is None and self._on_progress is not None:
            on_progress = functools.partial(self._on_progress, call.id)
        ctx = ToolContext(
            on_log=log_hook(self._on_log, call.id, on_log),
            timeout=timeout,
            answer=answer,
            request=request,
            call_id=call.id,
            idempotency_key=idempotency_key,
            on_progress=on_progress,
            on_partial=on_partial,
        )
        return await self._execute_fitted(call, ctx, (principal, session))

    async def run_calls(
        self,
        calls: Sequence[ToolCall],
        wait_for: WaitFor | None = None,
        *,
        expires_in: float | None = None,
        principal: str | None = None,
        turn_id: str | None = None,
        progress: ProgressHook | None = None,
        session: str | None = None,
        log: LogHook | None = None,
    ) -> RunResult:
        """Run one turn's calls concurrently under the loop's rules (the table in the README's
        "Human in the loop"; the rules themselves in `toolnexus._engine`).

        With `wait_for`, each suspension is answered in call order (one question at a time) and
        the run is `done`. Without it, the run stops when any call suspends: `pending` on the
        first suspension in call order, with every finished result in `results`, the waiting
        calls in `calls` and their requests in `requests` (all in call order): plain data to
        store, and to continue with `resume`. With a key, `expires_in` (seconds) seals a time
        after which `resume` refuses the run (`ResumeError("expired")`), and `principal` binds
        it (`ResumeError("principal")` for another).

        `turn_id` names the turn (random when None): with the call ids it makes each call's
        `ToolContext.idempotency_key`, kept by a pending run (`RunResult.turn`). `progress(call_id,
        fraction, message)` hears this turn's progress too, and `log(call_id, level, message,
        data)` its tools' log lines (`ToolContext.log`). `session` names the host's session:
        policies made with the scope `session:<id>` decide its turns' approvals.
        """
        calls = list(calls)
        turn = self._book.begin(calls, turn_id, expires_in, principal)
        effects = _Effects(self._host, turn, progress=progress, session=session, principal=principal, log=log)
        outcomes = await _gather([drive(start(c), effects) for c in calls])
        if wait_for is None:
            return self._book.close(turn, outcomes)
        effects = _Effects(
            self._host, turn, wait_for, progress, session=session, principal=principal, log=log
        )
        settled = await _gather([drive(outcome, effects) for outcome in outcomes])
        return RunResult("done", [_item(s) for s in settled])

    async def resume(
        self,
        run: RunResult,
        answers: Answer | Iterable[Answer],
        *,
        principal: str | None = None,
        progress: ProgressHook | None = None,
        session: str | None = None,
        log: LogHook | None = None,
    ) -> RunResult:
        """Continue a pending run with answers to any of the requests it waits on.

        `answers` is one `Answer` or several, in any order, taken or refused whole; each answers
        the first waiting call, in call order, asked under its id. The answered calls go on
        under the loop's rules, concurrently; the others keep waiting, unrun. The run returned
        is `pending` on the first that waits, or `done`; results stay in call order.

        The run this toolkit returned, given back as the same object, is continued from what
        the toolkit kept of it, at the same cost whatever it holds; any other run (parsed from
        storage) is read and its seal checked in full, once. Raises `ResumeError` (see there),
        running nothing, for an answer that fits no waiting call or that this toolkit took
        before (it remembers 10,000), a seal that does not hold, a run past its sealed expiry,
        or another `principal`. Two processes each resuming a copy of one stored run are not
        caught here: a store hands a run out once (`toolnexus.store`).

        An approval's `Answer.scope` may reach beyond its call: `turn` decides the run's other
        approvals of the same tool alike; `session:<id>`, `principal` and `tool` also keep a
        policy (`policies()`) deciding later calls unasked, for `policy_lifetime` seconds.
        Every decision goes to the `decision_log`, with `principal` as who made it. `progress`
        and `log` hear the resumed calls as `run_calls`'s do.
        """
        batch = answers_of(answers)
        _check_principal(principal)
        opening = self._book.open(run, batch, principal)
        effects = _Effects(
            self._host, opening.turn, progress=progress, session=session, principal=principal, log=log
        )
        now = self.now()
        taken = []
        for pick in opening.picks:
            ask = Ask(pick.call, pick.request)
            taken.append((ask, pick.answer, answered(ask, pick.answer, now)))
        _decide_all(self, run, batch, taken, session, principal, now)
        steps: list[Run | Settle] = [step for _, _, step in taken]
        steps.extend(start(call) for call in opening.restart)
        if len(steps) == 1:  # the common case: no task to start
            outcomes = [await drive(steps[0], effects)]
        else:
            outcomes = await _gather([drive(step, effects) for step in steps])
        return self._book.advance(opening, outcomes)

    async def expire(
        self, run: RunResult, *, now: datetime | None = None, principal: str | None = None
    ) -> RunResult:
        """`run` with every waiting call whose time ran out by `now` (this toolkit's clock when
        None) settled as the loop settles an expiry (`declined/expired: <prompt>`, or `declined: the call to
        <tool> was not approved (expired)`, marked `metadata["declined"]` with reason
        `expired`): each call whose request's `expiresAt` has passed, and every call once the
        run's sealed expiry (`run_calls(expires_in=...)`) has. No tool runs. Returns `run`
        itself when nothing has expired (and a run stored before `requests` existed, with
        several waiting calls, whose others would have to run again).

        The seal must hold (`ResumeError("seal")`); the sealed expiry and principal do not stop
        it, and a bound run stays bound (`principal` is needed only to re-seal a bound run made
        under a key that is no longer the active one).
        """
        _check_principal(principal)
        now = self.now() if now is None else now
        opening = self._book.open_lapsed(run, now, principal)
        if opening is None:
            return run
        settled = [lapsed(Ask(p.call, p.request), now) for p in opening.picks]
        taken = [(Ask(p.call, p.request), None, step) for p, step in zip(opening.picks, settled, strict=True)]
        _decide_all(self, run, [], taken, None, None, now)
        return self._book.advance(opening, settled)


def _check_principal(principal: str | None) -> None:
    if principal is not None and not isinstance(principal, str):
        raise TypeError(f"principal must be a str or None, got {type(principal).__name__}")


# -- for hosts built on a toolkit (the store, the MCP bridge, the Temporal worker) --------------


def seals(toolkit: Toolkit) -> bool:
    """Whether `toolkit` seals its pending runs (it has a key), and so can keep an expiry and
    a principal in them."""
    return toolkit._book.active is not None


def forget_answers(toolkit: Toolkit, run: RunResult, answers: list[Answer]) -> None:
    """Take back the answers `run` took (`RunBook.forget`): a host whose storage did not keep
    the outcome hands the run back, and the same answers may then be given again."""
    toolkit._book.forget(run, answers)


def keep_decision(
    toolkit: Toolkit,
    ask: Ask,
    answer: Answer,
    session: str | None,
    principal: str | None,
    now: datetime,
    *,
    policy_id: str,
) -> Policy | None:
    """Keep, in `toolkit`'s policy store, the policy `answer` makes (`Decisions.keep`), under
    `policy_id`; None when it makes none."""
    return toolkit._decisions.keep(ask, answer, session, principal, now, policy_id=policy_id)


def cancel_grace(toolkit: Toolkit) -> float:
    """How long (seconds) a cancelled handler of `toolkit` has to stop before it is abandoned."""
    return toolkit._cancel_grace


def rewrapped(toolkit: Toolkit, run: Callable[[Tool, Any, ToolContext], Awaitable[Any]]) -> Toolkit:
    """A copy of `toolkit` (its keys, policies, log, answers taken and runs under way shared)
    whose every tool is `run(tool, args, ctx)`, with the tool's name, hints, approval rule and limit."""
    kit = copy.copy(toolkit)
    kit._tools = {}
    for name, tool in toolkit._tools.items():

        async def handler(args: Any, ctx: ToolContext, tool: Tool = tool) -> Any:
            return await run(tool, args, ctx)

        kit._tools[name] = define_tool(
            name, tool.description, None, handler, hints=tool.hints, needs_approval=tool.needs_approval,
            limit=tool.limit,
        )  # fmt: skip
    return kit


def _decide_all(
    kit: Toolkit,
    run: RunResult,
    batch: list[Answer],
    taken: Sequence[tuple[Ask, Answer | None, Run | Settle]],
    session: str | None,
    principal: str | None,
    now: datetime,
) -> None:
    """The decisions of one resume of `kit`, kept and logged as one unit (`Decisions.decide_all`);
    when that fails nothing was decided, so the answers are not remembered as taken."""
    try:
        kit._decisions.decide_all(taken, session, principal, now)
    except BaseException:
        kit._book.forget(run, batch)
        raise
