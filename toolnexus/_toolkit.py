"""The toolkit: routes a model's tool calls to tools and applies the loop rule to suspensions.

One turn of tool calls goes through `Toolkit.run_calls`. A call that suspends (its
result carries `metadata["pending"]`) is either answered on the spot through a
`wait_for` callback, or stops the run: the returned `RunResult` is plain data that a
host stores and later continues with `Toolkit.resume`, possibly in another process.
"""

from __future__ import annotations

import asyncio
import base64
import copy
import hashlib
import hmac
import inspect
import json
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeAlias

from ._errors import ResumeError
from ._result import Answer, Request, RunResult, ToolCall, ToolCallResult, ToolResult
from ._suspend import pending, pending_of
from ._tool import Tool, ToolContext

__all__ = ["ResultHook", "Toolkit", "WaitFor", "normalize_tool_name"]

#: Answers a request during `run_calls`; sync (run off the event loop) or async.
WaitFor: TypeAlias = Callable[[Request], "Answer | Awaitable[Answer]"]
#: Called with the tool name and the result of every tool run (see `Toolkit`).
ResultHook: TypeAlias = Callable[[str, ToolResult], None]

_NAME_REJECTS = re.compile(r"[^a-zA-Z0-9_-]")
_SEAL_PREFIX = "v1.hmac-sha256."
_SEAL_DOMAIN = b"toolnexus.RunResult.seal.v1\n"
_SEALED_KEYS = ("status", "results", "pending", "calls", "order")
_MIN_SECRET_BYTES = 16
_ANSWERED_MEMORY = 10_000
_FRACTION = re.compile(r"(\.\d{6})\d+")
_canonical = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False
).encode


def normalize_tool_name(name: str) -> str:
    """`name` with every character outside `[a-zA-Z0-9_-]` replaced by `_`."""
    return _NAME_REJECTS.sub("_", name)


def _parse_time(text: str) -> datetime:
    """An RFC 3339 date-time (the `expiresAt` pattern) as an aware datetime."""
    text = _FRACTION.sub(r"\1", text.upper().replace("Z", "+00:00"))
    when = datetime.fromisoformat(text)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _expired(request: Request) -> bool:
    """Whether `request.expiresAt` has passed; an unreadable time counts as passed."""
    if request.expires_at is None:
        return False
    try:
        return _parse_time(request.expires_at) <= datetime.now(UTC)
    except ValueError:
        return True


async def _cancel(tasks: Sequence[asyncio.Future[Any]]) -> None:
    """Cancel the tasks still running and wait until they have all stopped."""
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _declined(request: Request) -> ToolResult:
    return ToolResult.error(f"declined/expired: {request.prompt}")


class Toolkit:
    """A set of tools, addressed by name, and the loop that runs a model's calls to them.

    `secret` (at least 16 bytes) turns on sealing: every pending `RunResult` carries
    `seal`, an HMAC-SHA256 over its `status`, `results`, `pending` and `calls`, and
    `resume` refuses a run whose seal does not match. Without a secret no seal is
    written.

    `on_result(name, result)` is called after every tool run (including the re-run
    with an answer, and an unknown tool's error). `error_count` counts the runs whose
    result is an error that is not a suspension: a suspension is a question, not a
    failure. The errors the loop itself writes (`declined/expired: …`,
    `unresolved: …`) are not tool runs and are counted by neither.
    """

    def __init__(
        self,
        tools: Iterable[Tool] = (),
        *,
        secret: bytes | None = None,
        on_result: ResultHook | None = None,
    ) -> None:
        if secret is not None and (not isinstance(secret, bytes) or len(secret) < _MIN_SECRET_BYTES):
            raise ValueError(f"secret must be bytes, at least {_MIN_SECRET_BYTES} of them")
        self._tools: dict[str, Tool] = {}
        self._secret = secret
        self._on_result = on_result
        self._errors = 0
        self._answered: OrderedDict[str, None] = OrderedDict()
        for t in tools:
            self.register(t)

    def __repr__(self) -> str:
        return f"<Toolkit {list(self._tools)!r}>"

    # -- registry -----------------------------------------------------------------

    def register(self, tool: Tool) -> Tool:
        """Add `tool` and return it as registered.

        A name with characters outside `[a-zA-Z0-9_-]` is registered as a copy of
        the tool with those characters replaced by `_`. Raises `ValueError` when the
        name is empty or another tool already has the (normalised) name.
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
        return self._tools.get(normalize_tool_name(name))

    @property
    def error_count(self) -> int:
        """How many tool runs returned an error that was not a suspension."""
        return self._errors

    # -- running --------------------------------------------------------------------

    async def execute(
        self, name: str, args: dict[str, Any] | None, ctx: ToolContext | None = None
    ) -> ToolResult:
        """Run the tool `name`. An unknown name is an error result naming the tools there are."""
        tool = self.get(name)
        if tool is None:
            available = ", ".join(self._tools) or "(none)"
            result = ToolResult.error(f"unknown tool {name!r}; available tools: {available}")
        else:
            result = await tool.call(args, ctx)
        if result.is_error and pending_of(result) is None:
            self._errors += 1
        if self._on_result is not None:
            self._on_result(name, result)
        return result

    async def run_calls(self, calls: Sequence[ToolCall], wait_for: WaitFor | None = None) -> RunResult:
        """Run one turn's calls concurrently and apply the loop rule to suspensions.

        With `wait_for`, each suspension is answered in call order (one question at a
        time): `ok` re-runs the call once with `ctx.answer` set, and a second
        suspension becomes the error `unresolved: <its prompt>`; a refusal, or a
        request whose `expiresAt` has passed (before asking or by the time the answer
        comes), becomes the error `declined/expired: <prompt>`. The run is then `done`.

        Without `wait_for`, the first suspension in call order stops the run: the
        result is `pending` on its request, with every finished result in `results`
        (call order), the suspended calls in `calls` (call order, the pending one
        first) and their requests in `requests` (the same order). Continue it with `resume`.
        """
        calls = list(calls)
        ids = [c.id for c in calls]
        if len(set(ids)) != len(ids):
            raise ValueError(f"the calls of one turn need distinct ids, got {ids}")
        first = await self._run_all(calls)
        if wait_for is None:
            return self._collect([], calls, first, ids)
        settled = await self._settle_all(calls, first, wait_for)
        pairs = zip(calls, settled, strict=True)
        return RunResult("done", [ToolCallResult(c.id, c.name, r) for c, r in pairs])

    async def resume(self, run: RunResult, answer: Answer) -> RunResult:
        """Continue a pending run with the answer to its pending request.

        The suspended call is settled by the loop rule (`ok` re-runs it once with
        `ctx.answer`; a refusal or a passed `expiresAt` gives `declined/expired: …`;
        a second suspension gives `unresolved: …`). The run then stops on the next
        waiting call's own request (`requests`), without running that call again, so
        several suspensions surface one `pending` run at a time and each suspended call
        runs twice at most: once to suspend, once with its answer. (A run stored
        without `requests` runs its other waiting calls again instead.) The run's
        `order` keeps the results in call order throughout.

        Raises `ResumeError` (see there) without running anything when the answer
        does not belong to the run, was already given to this toolkit, or the seal
        does not hold. A replay is caught when it reaches the same `Toolkit` object
        (it remembers the last 10,000 answered ids), or when the host passes the
        run that resuming returned (its pending id has changed, or it is done). Two
        processes each resuming their own copy of the same stored run are not
        caught here: the host's store must hand a pending run out once (see
        `examples/durable_host.py`).
        """
        if answer.id in self._answered:
            raise ResumeError("replayed", f"request {answer.id!r} was already answered")
        request = run.pending
        if run.status != "pending" or request is None or not run.calls:
            raise ResumeError(
                "not_pending", f"the run waits on no request, so answer {answer.id!r} has no use"
            )
        self._check_seal(run)
        if answer.id != request.id:
            raise ResumeError(
                "mismatch", f"answer {answer.id!r} does not answer the pending request {request.id!r}"
            )
        stored = list(run.requests)
        if stored and (len(stored) != len(run.calls) or stored[0].id != request.id):
            raise ResumeError("not_pending", "the run's requests do not match its waiting calls")
        self._remember(request.id)
        head, rest = run.calls[0], list(run.calls[1:])
        result = await self._settle(head, request, answer)
        done = [*run.results, ToolCallResult(head.id, head.name, result)]
        if stored:  # the other calls' own suspensions: asked next, without running them again
            waiting = [pending(r) for r in stored[1:]]
        else:  # a run stored before `requests` existed: the other calls run again
            waiting = await self._run_all(rest)
        return self._collect(done, rest, waiting, run.order)

    # -- internals --------------------------------------------------------------------

    async def _run_all(self, calls: list[ToolCall]) -> list[ToolResult]:
        tasks = [asyncio.ensure_future(self.execute(c.name, c.arguments)) for c in calls]
        try:
            return list(await asyncio.gather(*tasks))
        except BaseException:
            await _cancel(tasks)
            raise

    async def _settle_all(
        self, calls: list[ToolCall], results: list[ToolResult], wait_for: WaitFor
    ) -> list[ToolResult]:
        """Ask about each suspension in call order; each answered call re-runs while the next is asked."""
        settled: list[ToolResult | asyncio.Task[ToolResult]] = list(results)
        tasks: list[asyncio.Task[ToolResult]] = []
        try:
            for i, (call, result) in enumerate(zip(calls, results, strict=True)):
                request = pending_of(result)
                if request is None:
                    continue
                answer = None if _expired(request) else await self._ask(wait_for, request)
                task = asyncio.ensure_future(self._settle(call, request, answer))
                tasks.append(task)
                settled[i] = task
            await asyncio.gather(*tasks)
        except BaseException:
            await _cancel(tasks)
            raise
        return [s.result() if isinstance(s, asyncio.Task) else s for s in settled]

    async def _ask(self, wait_for: WaitFor, request: Request) -> Answer:
        if inspect.iscoroutinefunction(wait_for):
            answer: Any = await wait_for(request)
        else:
            answer = await asyncio.to_thread(wait_for, request)
            if inspect.isawaitable(answer):
                answer = await answer
        if not isinstance(answer, Answer):
            raise TypeError(f"wait_for must return an Answer, got {type(answer).__name__}")
        if answer.id != request.id:
            raise ResumeError(
                "mismatch", f"wait_for answered {answer.id!r}, but the request is {request.id!r}"
            )
        return answer

    async def _settle(self, call: ToolCall, request: Request, answer: Answer | None) -> ToolResult:
        """The loop rule for one suspended call; `answer` None means expired before asking."""
        if answer is None or not answer.ok or _expired(request):
            return _declined(request)
        retry = await self.execute(call.name, call.arguments, ToolContext(answer=answer))
        again = pending_of(retry)
        if again is not None:
            return ToolResult.error(f"unresolved: {again.prompt}")
        return retry

    def _collect(
        self,
        done: list[ToolCallResult],
        calls: list[ToolCall],
        results: list[ToolResult],
        order: list[str],
    ) -> RunResult:
        """`done` plus the finished `results`, or a stop on the first suspension among them.

        `order` is the turn's call ids in call order: the results are sorted by it, and a
        pending run keeps it for the next `resume`.
        """
        finished = list(done)
        waiting: list[ToolCall] = []
        requests: list[Request] = []
        for call, result in zip(calls, results, strict=True):
            suspended = pending_of(result)
            if suspended is None:
                finished.append(ToolCallResult(call.id, call.name, result))
                continue
            waiting.append(call)
            requests.append(suspended)
        position = {call_id: i for i, call_id in enumerate(order)}
        finished.sort(key=lambda r: position.get(r.id, len(position)))
        if not requests:
            return RunResult("done", finished)
        run = RunResult("pending", finished, requests[0], calls=waiting, requests=requests, order=order)
        if self._secret is not None:
            run.seal = self._seal_of(run)  # the seal covers every key but itself
        return run

    def _remember(self, request_id: str) -> None:
        self._answered[request_id] = None
        while len(self._answered) > _ANSWERED_MEMORY:
            self._answered.popitem(last=False)

    def _seal_of(self, run: RunResult) -> str:
        assert self._secret is not None
        wire = run.to_wire()
        sealed = {key: wire.get(key) for key in _SEALED_KEYS}
        if "requests" in wire:  # only when present, so runs sealed before it existed still verify
            sealed["requests"] = wire["requests"]
        body = _canonical(sealed).encode("utf-8")
        mac = hmac.new(self._secret, _SEAL_DOMAIN + body, hashlib.sha256).digest()
        return _SEAL_PREFIX + base64.urlsafe_b64encode(mac).rstrip(b"=").decode("ascii")

    def _check_seal(self, run: RunResult) -> None:
        given = run.seal
        if self._secret is None:
            if given is not None:
                raise ResumeError("seal", "the run is sealed, but this toolkit has no secret to check it")
            return
        if given is None:
            raise ResumeError("seal", "the run has no seal; this toolkit only resumes runs it sealed")
        if not hmac.compare_digest(self._seal_of(run).encode("utf-8"), given.encode("utf-8")):
            raise ResumeError("seal", "the run's seal does not match: it was altered or not sealed here")
