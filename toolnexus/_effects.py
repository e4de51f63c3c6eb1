"""The toolkit's effects for the engine's steps (`_Effects`): handlers run in process (and
cancelled by `Toolkit.cancel`), questions go to `wait_for` one at a time, and the time is the
toolkit's; and the hooks a host hears a turn's calls through."""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeAlias

from ._book import check_answer, refuse_wait_for
from ._engine import STOP, Ask, Run, Settle, Stop, cancelled, reached
from ._policies import Decisions
from ._result import Answer, Request, ToolCallResult, ToolEvent, ToolResult
from ._seal import Turn

logger = logging.getLogger("toolnexus")

#: Answers a request during `run_calls`; sync (run off the event loop) or async.
WaitFor: TypeAlias = Callable[[Request], "Answer | Awaitable[Answer]"]
#: Called with the tool name and the result of every tool run (see `Toolkit`).
ResultHook: TypeAlias = Callable[[str, ToolResult], None]
#: `on_progress(call_id, fraction, message)`: what a tool reports through `ToolContext.progress`.
ProgressHook: TypeAlias = Callable[[str, float, str], None]
#: `on_log(call_id, level, message, data)`: a line a tool logs through `ToolContext.log`.
LogHook: TypeAlias = Callable[[str, str, str, dict[str, Any]], None]
#: `on_event(event)`: what a running call reports (progress, a partial result), as a `ToolEvent`.
EventHook: TypeAlias = Callable[[ToolEvent], None]


#: `Toolkit.perform`: one run of a call, as the loop asks a host for it (its keywords are that
#: method's; spelled once, there).
Perform: TypeAlias = Callable[..., Awaitable[ToolResult]]


@dataclass(frozen=True, slots=True)
class Host:
    """What the effects of a toolkit's turns use of it: its `perform`, the handler runs under way
    (by call id, which `Toolkit.cancel` reads), how long a cancelled one has to stop, its hooks,
    its decisions and its clock."""

    perform: Perform
    running: dict[str, list[_Running]]
    cancel_grace: float
    on_progress: ProgressHook | None
    on_event: EventHook | None
    decisions: Decisions
    now: Callable[[], datetime]


def cancel_runs(running: dict[str, list[_Running]], call_id: str, turn_id: str | None) -> bool:
    """Cancels the handler runs under way of the call `call_id` (of the turn `turn_id`, when
    given); False when there is none."""
    found = [r for r in running.get(call_id, ()) if turn_id is None or r.turn == turn_id]
    for run in found:
        if not run.asked.done():
            run.asked.set_result(None)
    return bool(found)


def log_hook(
    kit: LogHook | None, call_id: str, turn: Callable[[str, str, dict[str, Any]], None] | None
) -> Callable[[str, str, dict[str, Any]], None] | None:
    """`ToolContext.on_log` of one run of the call `call_id`: the turn's hook
    (`run_calls(log=...)`), then the toolkit's `on_log`."""
    if kit is None:
        return turn

    def told(level: str, message: str, data: dict[str, Any]) -> None:
        if turn is not None:
            turn(level, message, data)
        kit(call_id, level, message, data)

    return told


class _Effects:
    """The toolkit's effects for the engine's steps of one turn: handlers run in process, asks
    go to `wait_for` one at a time (or leave the call waiting), and the time is the toolkit's."""

    __slots__ = (
        "_decisions", "_host", "_lock", "_log", "_principal", "_progress", "_session", "_turn", "_wait_for",
    )  # fmt: skip

    def __init__(
        self,
        host: Host,
        turn: Turn,
        wait_for: WaitFor | None = None,
        progress: ProgressHook | None = None,
        *,
        session: str | None = None,
        principal: str | None = None,
        log: LogHook | None = None,
    ) -> None:
        self._host = host
        self._turn = turn
        self._log = log
        self._wait_for = wait_for
        self._progress = progress
        self._session = session
        self._principal = principal
        self._lock = asyncio.Lock() if wait_for is not None else None
        self._decisions: list[tuple[Ask, Answer]] = []  # the turn's decisions, for `reached`

    async def run(self, step: Run) -> ToolResult:
        host, call = self._host, step.call
        on_progress, on_partial = self._reports(call.id)
        task = asyncio.ensure_future(
            host.perform(
                call,
                answer=step.answer,
                request=step.request,
                gate_first=step.gate,
                idempotency_key=self._turn.idempotency_key(call.id),
                on_progress=on_progress,
                on_partial=on_partial,
                session=self._session,
                principal=self._principal,
                on_log=None if self._log is None else functools.partial(self._log, call.id),
            )
        )
        running = _Running(self._turn.tid, task)
        host.running.setdefault(call.id, []).append(running)
        # One future wakes this step: the run's end sets it, or `Toolkit.cancel` does (cheaper
        # than `asyncio.wait` on both, which builds a waiter and callbacks on each every call).
        task.add_done_callback(running.ended)
        try:
            await running.asked
            if task.done():
                return task.result()
            task.cancel()  # the host cancelled it (`Toolkit.cancel`)
            await asyncio.wait({task}, timeout=host.cancel_grace)
            if not task.done():
                logger.warning(
                    "the handler of %s (%s) ignored its cancellation: abandoned", call.id, call.name
                )
            return cancelled(call)
        except BaseException:
            task.cancel()
            raise
        finally:
            running.asked.cancel()
            runs = host.running.get(call.id, [])
            if running in runs:
                runs.remove(running)
            if not runs:
                host.running.pop(call.id, None)

    def _reports(
        self, call_id: str
    ) -> tuple[Callable[[float, str], None] | None, Callable[[ToolResult], None] | None]:
        """The progress and partial-result hooks of one call: the turn's `progress`, the
        toolkit's `on_progress`, and `on_event`."""
        turn_hook, kit_hook, events = self._progress, self._host.on_progress, self._host.on_event
        if turn_hook is None and kit_hook is None and events is None:
            return None, None

        def progress(fraction: float, message: str) -> None:
            if turn_hook is not None:
                turn_hook(call_id, fraction, message)
            if kit_hook is not None:
                kit_hook(call_id, fraction, message)
            if events is not None:
                event = ToolEvent(call_id=call_id, percent=round(fraction * 100))
                events(event.model_copy(update={"message": message}) if message else event)

        def partial(result: ToolResult) -> None:
            if events is not None:
                events(ToolEvent(call_id=call_id, partial=result))

        return progress, partial

    async def ask(self, step: Ask) -> Answer | Stop | None:
        if self._wait_for is None or self._lock is None:
            return STOP
        async with self._lock:  # one question at a time, in the order asked
            earlier = reached(self._decisions, step)  # decided already, with a scope beyond once
            return earlier if earlier is not None else await _ask(self._wait_for, step)

    def decide(self, step: Ask, answer: Answer | None, after: Run | Settle) -> None:
        if answer is not None:
            self._decisions.append((step, answer))
        self._host.decisions.decide(step, answer, after, self._session, self._principal, self._host.now())

    def now(self) -> datetime:
        return self._host.now()


async def _ask(wait_for: WaitFor, step: Ask) -> Answer:
    request = step.request
    if inspect.iscoroutinefunction(wait_for):
        answer: Any = await wait_for(request)
    else:
        answer = await asyncio.to_thread(wait_for, request)
        if inspect.isawaitable(answer):
            answer = await answer
    if not isinstance(answer, Answer):
        raise TypeError(f"wait_for must return an Answer, got {type(answer).__name__}")
    if answer.id != request.id:
        raise refuse_wait_for(answer.id, request.id)
    check_answer(step, answer)
    return answer


class _Running:
    """One handler run under way: its turn's id, its task, and the future `Toolkit.cancel` sets
    (the task's end sets it too)."""

    __slots__ = ("asked", "task", "turn")

    def __init__(self, turn: str, task: asyncio.Future[ToolResult]) -> None:
        self.turn = turn
        self.task = task
        self.asked: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def ended(self, _task: asyncio.Future[ToolResult]) -> None:
        """The task's done callback: wakes the step that waits on `asked`."""
        if not self.asked.done():
            self.asked.set_result(None)


def _item(outcome: Ask | Settle) -> ToolCallResult:
    assert isinstance(outcome, Settle)  # with `wait_for` every call settles
    return ToolCallResult(outcome.call.id, outcome.call.name, outcome.result)


async def _gather(coros: Sequence[Awaitable[Any]]) -> list[Any]:
    """The values of `coros`, run concurrently; when one raises, the rest are cancelled."""
    if len(coros) == 1:  # nothing to run beside it: awaited here, without a task of its own
        return [await coros[0]]
    tasks = [asyncio.ensure_future(c) for c in coros]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
