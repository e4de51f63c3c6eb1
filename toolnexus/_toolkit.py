"""The toolkit: routes a model's tool calls to tools, and hosts the loop in process.

One turn of tool calls goes through `Toolkit.run_calls`. What happens to each call (approval,
edited arguments, questions, retries, refusals, expiry) is the engine's (`_engine`); the
toolkit only supplies its effects: it runs handlers, asks `wait_for`, and tells the time. A
call that suspends is either answered on the spot through `wait_for`, or stops the run: the
returned `RunResult` is plain data that a host stores and later continues with
`Toolkit.resume`, possibly in another process. The book (`_book`) seals and tracks those runs.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import inspect
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, TypeAlias

from ._book import RunBook, answers_of
from ._engine import STOP, Ask, Run, Settle, Stop, answered, drive, gate, lapsed, start
from ._errors import ResumeError
from ._result import Answer, Request, RunResult, ToolCall, ToolCallResult, ToolResult
from ._seal import SealKey, key_set
from ._stored import Turn, legacy_seal_v2
from ._suspend import pending, pending_of
from ._tool import Tool, ToolContext, normalize_tool_name

__all__ = ["Clock", "ProgressHook", "ResultHook", "Toolkit", "WaitFor"]

#: Answers a request during `run_calls`; sync (run off the event loop) or async.
WaitFor: TypeAlias = Callable[[Request], "Answer | Awaitable[Answer]"]
#: Called with the tool name and the result of every tool run (see `Toolkit`).
ResultHook: TypeAlias = Callable[[str, ToolResult], None]
#: `on_progress(call_id, fraction, message)`: what a tool reports through `ToolContext.progress`.
ProgressHook: TypeAlias = Callable[[str, float, str], None]
#: The time, as an aware datetime (`Toolkit(clock=...)`; the wall clock by default).
Clock: TypeAlias = Callable[[], datetime]


def _wall_clock() -> datetime:
    return datetime.now(UTC)


class Toolkit:
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
    fraction, message)` receives what tools report through `ToolContext.progress`. `clock`
    tells the time (an aware datetime) for every expiry the loop reads; the wall clock by
    default.
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
    ) -> None:
        self._tools: dict[str, Tool] = {}
        self._on_result = on_result
        self._on_progress = on_progress
        self._clock = clock or _wall_clock
        self._errors = 0
        keys, active = key_set(secret, secrets, active_key)
        self._book = RunBook(keys, active, lambda: int(self._clock().timestamp() * 1000))
        for t in tools:
            self.register(t)

    def __repr__(self) -> str:
        return f"<Toolkit {list(self._tools)!r}>"

    # -- registry -----------------------------------------------------------------

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
            raise ValueError("a tool needs a non-empty name")
        if name in self._tools:
            was = f" (normalised from {tool.name!r})" if name != tool.name else ""
            raise ValueError(f"a tool named {name!r}{was} is already registered")
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
    def on_progress(self) -> ProgressHook | None:
        """The `on_progress` hook this toolkit was made with (read-only)."""
        return self._on_progress

    @property
    def error_count(self) -> int:
        """How many tool runs returned an error that was not a suspension."""
        return self._errors

    def now(self) -> datetime:
        """The time by this toolkit's clock."""
        return self._clock()

    # -- running --------------------------------------------------------------------

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
    ) -> ToolResult:
        """One run of `call`, as the loop asks a host for it: with `gate_first`, a first run
        that suspends on the tool's approval instead when the tool needs one (the handler does
        not run); else the handler, with `answer` to `request` on a retry. Hosts of the loop
        that run handlers elsewhere (a Temporal activity) call this."""
        if gate_first:
            asked = gate(self.get(call.name), call)
            if isinstance(asked, ToolResult):
                return asked
            if asked is not None:
                return pending(asked)
        if on_progress is None and self._on_progress is not None:
            on_progress = functools.partial(self._on_progress, call.id)
        ctx = ToolContext(
            timeout=timeout,
            answer=answer,
            request=request,
            call_id=call.id,
            idempotency_key=idempotency_key,
            on_progress=on_progress,
        )
        return await self.execute(call.name, call.arguments, ctx)

    async def run_calls(
        self,
        calls: Sequence[ToolCall],
        wait_for: WaitFor | None = None,
        *,
        expires_in: float | None = None,
        principal: str | None = None,
        turn_id: str | None = None,
        progress: ProgressHook | None = None,
    ) -> RunResult:
        """Run one turn's calls concurrently under the loop's rules (see `toolnexus._engine`).

        A call to a tool with `needs_approval` (True, or a function of the arguments that
        returns True) does not run: it suspends on a request of kind `approval` whose `data`
        is `{"tool": name, "arguments": args}` (its id begins `apr-`). An `ok` answer runs the
        handler once, as a first run (`ctx.answer` is None), with the arguments of the answer's
        `data["arguments"]` when it has them (an object, checked against the input schema: an
        error result naming the problem when it is not one or fails it, and the handler does
        not run). A refusal gives the error `declined: the call to <name> was not approved`,
        and the handler never runs. A handler that suspends after its approval is asked as
        any other suspension.

        With `wait_for`, each suspension is answered in call order (one question at a time):
        `ok` re-runs the call once with `ctx.answer` set, and a second suspension becomes the
        error `unresolved: <the original request's prompt>`; a refusal, or a request whose
        `expiresAt` has passed (before asking or by the time the answer comes), becomes the
        error `declined/expired: <prompt>`. The run is then `done`. Every refusal and expiry
        carries `metadata["declined"] = {"request": id, "reason": ...}` (reason `declined`,
        `cancelled` or `expired`): host-only, so a host tells a denial from a tool failure.

        Without `wait_for`, the run stops when any call suspends: the result is `pending` on
        the first suspension in call order, with every finished result in `results` (call
        order), the suspended calls in `calls` (call order) and their requests in `requests`
        (the same order). Continue it with `resume`, answering the requests in any order. A
        call whose arguments or request could not be stored settles as an error saying so, so
        the run always can be. With a key, `expires_in` (seconds) seals a time after which
        `resume` refuses the run (`ResumeError("expired")`), and `principal` (a user or tenant
        id) binds it: `resume` then needs the same `principal` (`ResumeError("principal")`).

        `turn_id` names the turn (a fresh random id when None): with the call ids it makes each
        call's `ToolContext.idempotency_key`, and a pending run keeps it (`RunResult.turn`), so
        calls of two turns that reuse an id such as `call_0` never share a key or an answer.
        `progress(call_id, fraction, message)` hears what this turn's tools report, besides
        the toolkit's own `on_progress`.
        """
        calls = list(calls)
        turn = self._book.begin(calls, turn_id, expires_in, principal)
        effects = _Effects(self, turn, progress=progress)
        outcomes = await _gather([drive(start(c), effects) for c in calls])
        if wait_for is None:
            return self._book.close(turn, outcomes)
        effects = _Effects(self, turn, wait_for, progress)
        settled = await _gather([drive(outcome, effects) for outcome in outcomes])
        return RunResult("done", [_item(s) for s in settled])

    async def resume(
        self,
        run: RunResult,
        answers: Answer | Iterable[Answer],
        *,
        principal: str | None = None,
        progress: ProgressHook | None = None,
    ) -> RunResult:
        """Continue a pending run with answers to any of the requests it waits on.

        `answers` is one `Answer` or several, in any order; each answers the waiting call whose
        request has its id (two calls asked under one fixed id take one answer each, in call
        order). Each answered call goes on under the loop's rules (see `run_calls`), the
        answered calls concurrently. Calls not answered keep waiting, without running again:
        the run returned is `pending` on the first of them in call order, or `done`. Results
        stay in call order throughout. (A run stored before `requests` existed takes only the
        answer to its `pending` request, and its other waiting calls run afresh.)

        Each answer costs the same however many calls wait, when the run given is the very
        object this toolkit returned: it is recognised as such and continued from what the
        toolkit kept of it, without reading it again (its lists are checked to be the very
        lists, of the same lengths, but edits to their elements in memory are not looked for;
        the seal guards runs that leave the process). Any other run, such as one parsed from
        storage, is read and checked in full, once.

        Raises `ResumeError` (see there) without running anything when an answer does not
        belong to the run or was already given to this toolkit, the seal does not hold, the
        run has expired, or `principal` is not the one the run is bound to. A replay is caught
        when it reaches the same `Toolkit` object (it remembers the last 10,000 answers, each
        by turn, call id and request id, from the moment it takes them: an answer whose resume
        then fails, as the tool may have run, is not taken again), or when the host passes the
        run that resuming returned (the answered call no longer waits in it). Two processes
        each resuming their own copy of the same stored run are not caught here: the host's
        store must hand a pending run out once (`toolnexus.store`), and a tool with side
        effects passes `ctx.idempotency_key` to the system it changes. `progress` is as in
        `run_calls`.
        """
        batch = answers_of(answers)
        if principal is not None and not isinstance(principal, str):
            raise TypeError(f"principal must be a str or None, got {type(principal).__name__}")
        opening = self._book.open(run, batch, principal)
        effects = _Effects(self, opening.turn, progress=progress)
        now = self.now()
        steps: list[Run | Settle] = [answered(Ask(p.call, p.request), p.answer, now) for p in opening.picks]
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
        None) settled
        as the loop settles an expiry (`declined/expired: <prompt>`, or `declined: the call to
        <tool> was not approved (expired)`, marked `metadata["declined"]` with reason
        `expired`): each call whose request's `expiresAt` has passed, and every call once the
        run's sealed expiry (`run_calls(expires_in=...)`) has. No tool runs. Returns `run`
        itself when nothing has expired (and a run stored before `requests` existed, with
        several waiting calls, whose others would have to run again).

        The seal must hold (`ResumeError("seal")`); the sealed expiry and principal do not stop
        it, and a bound run stays bound (`principal` is needed only to re-seal a bound run made
        under a key that is no longer the active one).
        """
        if principal is not None and not isinstance(principal, str):
            raise TypeError(f"principal must be a str or None, got {type(principal).__name__}")
        now = self.now() if now is None else now
        opening = self._book.open_lapsed(run, now, principal)
        if opening is None:
            return run
        return self._book.advance(opening, [lapsed(Ask(p.call, p.request), now) for p in opening.picks])

    # -- for tests of runs stored by earlier versions ----------------------------------------

    @property
    def _key(self) -> SealKey | None:
        """The active key (tests seal runs as earlier versions did with it)."""
        return self._book.active

    def _seal_of(self, run: RunResult) -> str:
        """The version-2 seal `run` gets from the active key, as a run stored before version 3
        carries it (`NotJSON` when it has a value without a JSON form)."""
        assert self._book.active is not None
        return legacy_seal_v2(self._book.active, run)


class _Effects:
    """The toolkit's effects for the engine's steps of one turn: handlers run in process, asks
    go to `wait_for` one at a time (or leave the call waiting), and the time is the toolkit's."""

    __slots__ = ("_kit", "_lock", "_progress", "_turn", "_wait_for")

    def __init__(
        self, kit: Toolkit, turn: Turn, wait_for: WaitFor | None = None, progress: ProgressHook | None = None
    ) -> None:
        self._kit = kit
        self._turn = turn
        self._wait_for = wait_for
        self._progress = progress
        self._lock = asyncio.Lock() if wait_for is not None else None

    async def run(self, step: Run) -> ToolResult:
        call = step.call
        key = self._turn.idempotency_key(call.id)
        report = None
        if self._progress is not None:
            report = functools.partial(_both, self._progress, self._kit.on_progress, call.id)
        return await self._kit.perform(
            call,
            answer=step.answer,
            request=step.request,
            gate_first=step.gate,
            idempotency_key=key,
            on_progress=report,
        )

    async def ask(self, step: Ask) -> Answer | Stop | None:
        if self._wait_for is None or self._lock is None:
            return STOP
        async with self._lock:  # one question at a time, in the order asked
            return await _ask(self._wait_for, step.request)

    def now(self) -> datetime:
        return self._kit.now()


async def _ask(wait_for: WaitFor, request: Request) -> Answer:
    if inspect.iscoroutinefunction(wait_for):
        answer: Any = await wait_for(request)
    else:
        answer = await asyncio.to_thread(wait_for, request)
        if inspect.isawaitable(answer):
            answer = await answer
    if not isinstance(answer, Answer):
        raise TypeError(f"wait_for must return an Answer, got {type(answer).__name__}")
    if answer.id != request.id:
        raise ResumeError("mismatch", f"wait_for answered {answer.id!r}, but the request is {request.id!r}")
    return answer


def _both(turn: ProgressHook, kit: ProgressHook | None, call_id: str, fraction: float, message: str) -> None:
    turn(call_id, fraction, message)
    if kit is not None:
        kit(call_id, fraction, message)


def _item(outcome: Ask | Settle) -> ToolCallResult:
    assert isinstance(outcome, Settle)  # with `wait_for` every call settles
    return ToolCallResult(outcome.call.id, outcome.call.name, outcome.result)


async def _gather(coros: Sequence[Awaitable[Any]]) -> list[Any]:
    """The values of `coros`, run concurrently; when one raises, the rest are cancelled."""
    tasks = [asyncio.ensure_future(c) for c in coros]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
