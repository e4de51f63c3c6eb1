"""The toolkit: routes a model's tool calls to tools and applies the loop rule to suspensions.

One turn of tool calls goes through `Toolkit.run_calls`. A call that suspends (its
result carries `metadata["pending"]`) is either answered on the spot through a
`wait_for` callback, or stops the run: the returned `RunResult` is plain data that a
host stores and later continues with `Toolkit.resume`, possibly in another process.
"""

from __future__ import annotations

import asyncio
import bisect
import copy
import functools
import hashlib
import inspect
import itertools
import math
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from . import _loop, _seal
from ._errors import ResumeError
from ._loop import approval_for, approved_arguments, expired, verdict
from ._result import Answer, Request, RunResult, ToolCall, ToolCallResult, ToolResult
from ._seal import NotJSON, SealKey
from ._suspend import pending, pending_of
from ._tool import Tool, ToolContext, normalize_tool_name

__all__ = ["ProgressHook", "ResultHook", "Toolkit", "WaitFor", "idempotency_key", "normalize_tool_name"]

#: Answers a request during `run_calls`; sync (run off the event loop) or async.
WaitFor: TypeAlias = Callable[[Request], "Answer | Awaitable[Answer]"]
#: Called with the tool name and the result of every tool run (see `Toolkit`).
ResultHook: TypeAlias = Callable[[str, ToolResult], None]
#: `on_progress(call_id, fraction, message)`: what a tool reports through `ToolContext.progress`.
ProgressHook: TypeAlias = Callable[[str, float, str], None]

_MIN_SECRET_BYTES = 16
_ANSWERED_MEMORY = 10_000
_FEW = 16  # answers in one `resume` up to which each is placed on its own, in C
_MAX_EXPIRES_IN = 100 * 365 * 24 * 3600  # seconds; the seal writes the expiry in at most 20 digits


async def _cancel(tasks: Sequence[asyncio.Future[Any]]) -> None:
    """Cancel the tasks still running and wait until they have all stopped."""
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def turn_digest(order: Sequence[str], turn_id: str = "") -> bytes:
    """What identifies a turn: a digest of its id (`RunResult.turn`, when it has one) and its
    call ids, in call order."""
    h = hashlib.sha256(b"toolnexus.turn.v1\n")
    for call_id in [turn_id, *order] if turn_id else order:
        raw = call_id.encode("utf-8", "surrogatepass")
        h.update(len(raw).to_bytes(8, "big"))
        h.update(raw)
    return h.digest()


def _order_digest(turn_id: str, order: list[str]) -> bytes:
    """What the seal holds of a run's `order` and `turn`."""
    return hashlib.sha256(_seal.canonical([turn_id, order] if turn_id else order)).digest()


def idempotency_key(turn: bytes, call_id: str) -> str:
    """`ToolContext.idempotency_key` of the call `call_id` in the turn `turn` (`turn_digest`)."""
    h = hashlib.sha256(b"toolnexus.idempotency.v1\n" + turn)
    h.update(call_id.encode("utf-8", "surrogatepass"))
    return "idk-" + h.hexdigest()[:32]


def _now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(slots=True, eq=False)
class _Turn:
    """What every pending run of one turn shares: kept once, read by each of its resumes.

    `terms` and `digests` hold, by (call id, request id), the sealing term of a waiting call
    and the digest of its request (under `key`, the toolkit's active key); `asked` lists the
    call ids waiting on each request id. They only grow: a call asked afresh (after its
    approval) is a new pair, so the runs returned before it still read theirs.
    """

    order: list[str]
    positions: dict[str, int]
    turn: bytes
    key: SealKey | None = None
    #: The run's `turn` on the wire (empty for a run stored before it existed).
    tid: str = ""
    order_digest: bytes = b""
    expires: int | None = None
    principal_tag: str = ""
    terms: dict[tuple[str, str], int] = field(default_factory=dict)
    digests: dict[tuple[str, str], bytes] = field(default_factory=dict)
    asked: dict[str, list[str]] = field(default_factory=dict)

    def position(self, call_id: str) -> int:
        return self.positions.get(call_id, len(self.positions))

    def wait(
        self,
        call: ToolCall,
        request: Request,
        digests: tuple[bytes, bytes] | None = None,
        term: int | None = None,
    ) -> None:
        """Note that `call` waits on `request` (their `digests`, and their keyed `term`, when
        known); `NotJSON` (nothing noted) when they cannot be sealed."""
        if self.key is not None:
            call_digest, request_digest = digests or (_seal.digest(call), _seal.digest(request))
            pair = (call.id, request.id)
            if term is None:
                term = self.key.waiting_term(self.position(call.id), call_digest, request_digest)
            self.terms[pair] = term
            self.digests[pair] = request_digest
        self.asked.setdefault(request.id, []).append(call.id)


@dataclass(slots=True, eq=False)
class _Checked:
    """What a seal that holds gives: the key it was made with, its expiry and principal tag,
    the digests of the run's results, calls and requests, and (version 3) its keyed sums and
    each waiting call's term, which hold as they are while that key is the active one."""

    key: SealKey
    expires: int | None
    principal_tag: str
    result_digests: list[bytes]
    call_digests: list[bytes]
    request_digests: list[bytes]
    results_total: int = 0
    waiting_total: int = 0
    waiting_terms: list[int] | None = None


@dataclass(slots=True, eq=False)
class _Track:
    """What the toolkit knows of a pending run it returned, to continue it without reading it.

    `run` is the run (a weak reference), with the objects it held when returned, so a run that
    comes back unchanged is recognised at once; `results_total` and `waiting_total` are the
    keyed sums its seal holds (0 without a key).
    """

    run: weakref.ref[RunResult] | None
    seal: str | None
    results: list[ToolCallResult]
    n_results: int
    calls: list[ToolCall]
    n_calls: int
    requests: list[Request]
    n_requests: int
    order: list[str]
    n_order: int
    pending: Request | None
    turn: _Turn
    results_total: int = 0
    waiting_total: int = 0

    def matches(self, run: RunResult) -> bool:
        """Whether `run` is the very run described, holding what it held when returned."""
        return (
            self.run is not None
            and self.run() is run
            and run.status == "pending"
            and run.seal == self.seal
            and run.pending is self.pending
            and run.results is self.results
            and len(run.results) == self.n_results
            and run.calls is self.calls
            and len(run.calls) == self.n_calls
            and run.requests is self.requests
            and len(run.requests) == self.n_requests
            and run.order is self.order
            and len(run.order) == self.n_order
        )


def _track_of(run: RunResult, turn: _Turn, results_total: int = 0, waiting_total: int = 0) -> _Track:
    return _Track(
        None,
        run.seal,
        run.results,
        len(run.results),
        run.calls,
        len(run.calls),
        run.requests,
        len(run.requests),
        run.order,
        len(run.order),
        run.pending,
        turn,
        results_total,
        waiting_total,
    )


def _not_sealable(item: ToolCallResult, problem: NotJSON) -> ToolCallResult:
    """The error result that stands in for a finished result that has no JSON form."""
    meta = item.result.metadata
    what = "result"
    if meta is not None:
        try:
            _seal.canonical(meta)
        except NotJSON:
            what = "metadata"
    message = f"the tool's {what} is not JSON, so the run cannot be sealed: {problem}"
    return ToolCallResult(item.id, item.name, ToolResult.error(message))


def _unsealable_call(call: ToolCall, problem: NotJSON) -> ToolCallResult:
    message = f"the call's arguments or request are not JSON, so the run cannot be sealed: {problem}"
    return ToolCallResult(call.id, call.name, ToolResult.error(message))


@dataclass(slots=True)
class _Pick:
    """One answer of a `resume`, and the waiting call (at `index` in the run) it answers."""

    index: int
    call: ToolCall
    request: Request
    answer: Answer


def _place(
    turn: _Turn, results: list[ToolCallResult], picks: list[_Pick], new: list[ToolCallResult]
) -> int | None:
    """Where the one new result of a one-answer `resume` goes among `results`, at once: every
    call before it in the turn either has a result or still waits, and those that wait are the
    waiting calls before its own (`pick.index` of them). None when there is more than one new
    result, or the run's lists do not bear that out (a run stored without a seal), to search."""
    if len(picks) != 1 or len(new) != 1:
        return None
    place = turn.position(new[0].id)
    at = place - picks[0].index
    if 0 <= at <= len(results) and (
        (at == 0 or turn.position(results[at - 1].id) < place)
        and (at == len(results) or turn.position(results[at].id) > place)
    ):
        return at
    return None


def _keys_of(
    secret: bytes | None, secrets_: Mapping[str, bytes] | None, active_key: str | None
) -> tuple[dict[str, SealKey], SealKey | None]:
    """The toolkit's keys by id and the active one, from `Toolkit`'s arguments; `ValueError`
    or `TypeError` for arguments that do not make a key set."""
    if secret is not None and secrets_ is not None:
        raise ValueError("give either secret= (one key) or secrets= (keys by id), not both")
    if secret is not None:
        if active_key is not None:
            raise ValueError("active_key names one of secrets=; with secret= there is one key")
        secrets_ = {"default": secret}
        active_key = "default"
    if secrets_ is None:
        if active_key is not None:
            raise ValueError("active_key names one of secrets=, and no secrets were given")
        return {}, None
    if not isinstance(secrets_, Mapping) or not secrets_:
        raise ValueError("secrets must be a non-empty dict of key id to key bytes")
    keys: dict[str, SealKey] = {}
    for key_id, key in secrets_.items():
        if not isinstance(key_id, str) or not _seal.KEY_ID.fullmatch(key_id):
            raise ValueError(f"a key id must be 1 to 64 of [A-Za-z0-9_-], got {key_id!r}")
        if not isinstance(key, bytes) or len(key) < _MIN_SECRET_BYTES:
            raise ValueError(f"secret must be bytes, at least {_MIN_SECRET_BYTES} of them (key {key_id!r})")
        keys[key_id] = SealKey(key, key_id)
    if active_key is None:
        if len(keys) > 1:
            raise ValueError(f"active_key must name the key that seals new runs, one of {sorted(keys)}")
        active_key = next(iter(keys))
    if active_key not in keys:
        raise ValueError(f"active_key {active_key!r} is not one of the secrets' ids {sorted(keys)}")
    return keys, keys[active_key]


class Toolkit:
    """A set of tools, addressed by name, and the loop that runs a model's calls to them.

    Sealing: with `secrets={key_id: key, ...}` (each key at least 16 bytes) and
    `active_key=key_id` (needed when there are several), every pending `RunResult` carries
    `seal`, an HMAC-SHA256 under the active key over its `results`, `pending`, `calls`,
    `requests`, `order` and `turn`, the id of that key, and the expiry and principal
    `run_calls` may bind it to; `resume` refuses a run whose seal does
    not match, or names a key the toolkit no longer has (`ResumeError("seal")`). To rotate,
    add a new key and make it active: runs sealed under the old one still resume (and come
    back sealed under the new one) until the old key is removed. `secret=key` is
    `secrets={"default": key}`. Without a key no seal is written.

    `on_result(name, result)` is called after every tool run (including the re-run
    with an answer, and an unknown tool's error). `error_count` counts the runs whose
    result is an error that is not a suspension: a suspension is a question, not a
    failure. The errors the loop itself writes (`declined/expired: …`, `declined: …`,
    `unresolved: …`) are not tool runs and are counted by neither.
    `on_progress(call_id, fraction, message)` receives what tools report through
    `ToolContext.progress`.
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
    ) -> None:
        self._tools: dict[str, Tool] = {}
        self._keys, self._key = _keys_of(secret, secrets, active_key)
        self._on_result = on_result
        self._on_progress = on_progress
        self._errors = 0
        # (call id, request id) of every answer taken: two calls may suspend with one fixed id.
        self._answered: OrderedDict[tuple[bytes, str, str], None] = OrderedDict()
        self._tracked: dict[int, _Track] = {}  # by id() of the pending runs returned and alive
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

    async def run_calls(
        self,
        calls: Sequence[ToolCall],
        wait_for: WaitFor | None = None,
        *,
        expires_in: float | None = None,
        principal: str | None = None,
        turn_id: str | None = None,
    ) -> RunResult:
        """Run one turn's calls concurrently and apply the loop rule to suspensions.

        A call to a tool with `needs_approval` (True, or a function of the arguments that
        returns True) does not run: it suspends on a request of kind `approval` whose `data`
        is `{"tool": name, "arguments": args}` (its id begins `apr-`). An `ok` answer runs
        the handler once, as a first run (`ctx.answer` is None), with the arguments of the
        answer's `data["arguments"]` when it has them (checked against the input schema: an
        error result naming the path when they fail it, and the handler does not run). A
        refusal gives the error `declined: the call to <name> was not approved`, and the
        handler never runs. A handler that suspends after its approval is asked as any
        other suspension.

        With `wait_for`, each suspension is answered in call order (one question at a
        time): `ok` re-runs the call once with `ctx.answer` set, and a second
        suspension becomes the error `unresolved: <the original request's prompt>`; a refusal, or a
        request whose `expiresAt` has passed (before asking or by the time the answer
        comes), becomes the error `declined/expired: <prompt>`. The run is then `done`.
        Every refusal and expiry carries `metadata["declined"] = {"request": id, "reason":
        ...}` (reason `declined`, `cancelled` or `expired`): host-only, so a host tells a
        denial from a tool failure; no adapter sends it to a model.

        Without `wait_for`, the run stops when any call suspends: the result is `pending`
        on the first suspension in call order, with every finished result in `results`
        (call order), the suspended calls in `calls` (call order) and their requests in
        `requests` (the same order). Continue it with `resume`, answering the requests in
        any order. With a key, `expires_in` (seconds) seals a time after which `resume`
        refuses the run (`ResumeError("expired")`), and `principal` (a user or tenant id)
        binds it: `resume` then needs the same `principal` (`ResumeError("principal")`).

        `turn_id` names the turn (a fresh random id when None): with the call ids it makes each
        call's `ToolContext.idempotency_key`, and a pending run keeps it (`RunResult.turn`), so
        calls of two turns that reuse an id such as `call_0` never share a key or an answer.
        """
        if turn_id is None:
            turn_id = secrets.token_hex(8)
        elif not isinstance(turn_id, str) or not turn_id:
            raise ValueError(f"turn_id must be a non-empty str or None, got {turn_id!r}")
        calls = list(calls)
        ids = [c.id for c in calls]
        if len(set(ids)) != len(ids):
            raise ValueError(f"the calls of one turn need distinct ids, got {ids}")
        expires = self._expiry(expires_in, principal)
        turn = turn_digest(ids, turn_id)
        first = await self._run_all(calls, turn, ask=True)
        if wait_for is None:
            return self._collect(calls, first, ids, turn, expires, principal, tid=turn_id)
        settled = await self._settle_all(calls, first, wait_for, turn)
        pairs = zip(calls, settled, strict=True)
        return RunResult("done", [ToolCallResult(c.id, c.name, r) for c, r in pairs])

    async def resume(
        self, run: RunResult, answers: Answer | Iterable[Answer], *, principal: str | None = None
    ) -> RunResult:
        """Continue a pending run with answers to any of the requests it waits on.

        `answers` is one `Answer` or several, in any order; each answers the waiting call
        whose request has its id (two calls asked under one fixed id take one answer each,
        in call order). Each answered call is settled by the loop rule (`ok` re-runs it once
        with `ctx.answer`; a refusal or a passed `expiresAt` gives `declined/expired: …`;
        a second suspension gives `unresolved: …`; an approval runs the handler, see
        `run_calls`), the answered calls concurrently. Calls not answered keep waiting,
        without running again: the run returned is `pending` on the first of them in call
        order, or `done`. Results stay in call order throughout. (A run stored without
        `requests` takes only the answer to its `pending` request, and runs its other
        waiting calls again.)

        Each answer costs the same however many calls wait, when the run given is the very
        object this toolkit returned: it is recognised as such and continued from what the
        toolkit kept of it, without reading it again (its lists are checked to be the very
        lists, of the same lengths, but edits to their elements in memory are not looked for;
        the seal guards runs that leave the process). Any other run,
        such as one parsed from storage, is read and checked in full, once.

        Raises `ResumeError` (see there) without running anything when an answer does not
        belong to the run or was already given to this toolkit, the seal does not hold, the
        run has expired, or `principal` is not the one the run is bound to. A replay is
        caught when it reaches the same `Toolkit` object (it remembers the last 10,000
        answers, each by turn, call id and request id, from the moment it takes them: an
        answer whose resume then fails, as the tool may have run, is not taken again), or
        when the host passes the run that
        resuming returned (the answered call no longer waits in it). Two processes each
        resuming their own copy of the same stored run are not caught here: the host's
        store must hand a pending run out once (see `examples/durable_host.py`), and a tool
        with side effects passes `ctx.idempotency_key` to the system it changes.
        """
        batch = [answers] if isinstance(answers, Answer) else list(answers)
        if not batch:
            raise ValueError("resume needs at least one Answer")
        for answer in batch:
            if not isinstance(answer, Answer):
                raise TypeError(f"resume takes Answers, got {type(answer).__name__}")
        if principal is not None and not isinstance(principal, str):
            raise TypeError(f"principal must be a str or None, got {type(principal).__name__}")
        request = run.pending
        if run.status != "pending" or request is None or not run.calls:
            head = run.calls[0] if run.calls else None
            if (
                head is not None
                and (turn_digest(run.order, run.turn), head.id, batch[0].id) in self._answered
            ):
                raise ResumeError("replayed", f"request {batch[0].id!r} was already answered")
            raise ResumeError(
                "not_pending", f"the run waits on no request, so answer {batch[0].id!r} has no use"
            )
        if not run.requests:  # a run stored before `requests` existed
            return await self._resume_unlisted(run, batch, principal)
        if len(run.requests) != len(run.calls) or run.requests[0].id != request.id:
            if self._key is not None:  # a sealed run never comes out so: it was altered
                raise ResumeError("seal", "the run's requests do not match its waiting calls: it was altered")
            raise ResumeError("not_pending", "the run's requests do not match its waiting calls")
        track = self._trusted(run, principal) or self._verify(run, principal)
        picks = self._pick(run, track, batch)
        turn = track.turn.turn
        for pick in picks:
            self._remember((turn, pick.call.id, pick.request.id))
        if len(picks) == 1:  # the common case: no task to start
            pick = picks[0]
            outcomes = [await self._answer(pick.call, pick.request, pick.answer, turn)]
        else:
            outcomes = await _gather([self._answer(p.call, p.request, p.answer, turn) for p in picks])
        return self._advance(run, track, picks, outcomes)

    # -- internals --------------------------------------------------------------------

    def _expiry(self, expires_in: float | None, principal: str | None) -> int | None:
        if principal is not None and not isinstance(principal, str):
            raise TypeError(f"principal must be a str or None, got {type(principal).__name__}")
        if expires_in is not None and (
            not isinstance(expires_in, (int, float))
            or isinstance(expires_in, bool)
            or not math.isfinite(expires_in)
            or not 0 < expires_in <= _MAX_EXPIRES_IN
        ):
            raise ValueError(
                f"expires_in must be a positive number of seconds, at most 100 years, got {expires_in!r}"
            )
        if (expires_in is not None or principal is not None) and self._key is None:
            raise ValueError(
                "expires_in and principal are written into the seal, so they need a toolkit "
                "with a key (secret= or secrets=)"
            )
        return None if expires_in is None else _now_ms() + math.ceil(expires_in * 1000)

    def _context(
        self, call: ToolCall, turn: bytes, answer: Answer | None = None, request: Request | None = None
    ) -> ToolContext:
        hook = self._on_progress
        report = None if hook is None else functools.partial(hook, call.id)
        key = idempotency_key(turn, call.id)
        return ToolContext(
            answer=answer, request=request, call_id=call.id, idempotency_key=key, on_progress=report
        )

    def _gate(self, call: ToolCall) -> Request | None:
        """The approval `call` needs before it runs, or None."""
        return approval_for(self.get(call.name), call.arguments)

    async def _first(self, call: ToolCall, turn: bytes, ask: bool) -> ToolResult:
        gate = self._gate(call) if ask else None
        if gate is not None:
            return pending(gate)
        return await self.execute(call.name, call.arguments, self._context(call, turn))

    async def _run_all(self, calls: list[ToolCall], turn: bytes, ask: bool) -> list[ToolResult]:
        return await _gather([self._first(c, turn, ask) for c in calls])

    async def _settle_all(
        self, calls: list[ToolCall], results: list[ToolResult], wait_for: WaitFor, turn: bytes
    ) -> list[ToolResult]:
        """Ask about each suspension in call order; each answered call re-runs while the next is asked."""
        settled: list[ToolResult | asyncio.Task[ToolResult]] = list(results)
        tasks: list[asyncio.Task[ToolResult]] = []
        one_at_a_time = asyncio.Lock()

        async def ask(request: Request) -> Answer | None:
            if expired(request):
                return None
            async with one_at_a_time:
                return await self._ask(wait_for, request)

        async def settle(call: ToolCall, request: Request, answer: Answer | None) -> ToolResult:
            if not _loop.is_approval(call.name, request):
                return await self._settle(call, request, answer, turn)
            call, result = await self._approved(call, request, answer, turn)
            again = pending_of(result)
            if again is None:
                return result
            return await self._settle(call, again, await ask(again), turn)

        try:
            for i, (call, result) in enumerate(zip(calls, results, strict=True)):
                request = pending_of(result)
                if request is None:
                    continue
                answer = await ask(request)
                task = asyncio.ensure_future(settle(call, request, answer))
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

    async def _settle(
        self, call: ToolCall, request: Request, answer: Answer | None, turn: bytes
    ) -> ToolResult:
        """The loop rule for one suspended question; `answer` None means expired before asking."""
        ended = verdict(call.name, request, answer)
        if ended is not None:
            return ended
        assert answer is not None  # `verdict` ends every call without one
        retry = await self.execute(call.name, call.arguments, self._context(call, turn, answer, request))
        return _loop.after_retry(request, retry)

    async def _approved(
        self, call: ToolCall, request: Request, answer: Answer | None, turn: bytes
    ) -> tuple[ToolCall, ToolResult]:
        """An approval answered: the handler's first run (with the answer's edited arguments,
        when it has them), or the refusal. Returns the call as run, and its result."""
        ended = verdict(call.name, request, answer)
        if ended is not None:
            return call, ended
        assert answer is not None  # `verdict` ends every call without one
        args = approved_arguments(call.arguments, answer)
        result = await self.execute(call.name, args, self._context(call, turn))
        if args is not call.arguments and pending_of(result) is not None:
            call = ToolCall(call.id, call.name, args)  # a suspension: it waits with these arguments
        return call, result

    async def _answer(
        self, call: ToolCall, request: Request, answer: Answer, turn: bytes
    ) -> tuple[ToolCall, ToolResult]:
        """One answer of `resume`: the call as it now stands, and its result (a suspension when
        the call waits again: only after an approval, whose handler may ask in turn)."""
        if _loop.is_approval(call.name, request):
            return await self._approved(call, request, answer, turn)
        return call, await self._settle(call, request, answer, turn)

    def _collect(
        self,
        calls: list[ToolCall],
        results: list[ToolResult],
        order: list[str],
        turn_id: bytes,
        expires: int | None = None,
        principal: str | None = None,
        done: Sequence[ToolCallResult] = (),
        tid: str = "",
    ) -> RunResult:
        """`done` plus the finished `results`, or a pending run on the suspensions among them.

        `order` is the turn's call ids in call order: the results are sorted by it, and a
        pending run keeps it for the next `resume`. With a key, every element of a pending
        run must have a JSON form to be sealed: a finished result without one becomes an error
        result saying so, and so does a waiting call whose arguments or request have none.
        """
        key = self._key
        turn = _Turn(
            order, {call_id: i for i, call_id in enumerate(order)}, turn_id, key, tid, expires=expires
        )
        finished = list(done)
        waiting: list[ToolCall] = []
        requests: list[Request] = []
        for call, result in zip(calls, results, strict=True):
            suspended = pending_of(result)
            if suspended is None:
                finished.append(ToolCallResult(call.id, call.name, result))
                continue
            try:
                turn.wait(call, suspended)
            except NotJSON as exc:
                finished.append(_unsealable_call(call, exc))
                continue
            waiting.append(call)
            requests.append(suspended)
        results_total = 0
        if key is not None and waiting:
            for i, item in enumerate(finished):
                try:
                    term = key.term(turn.position(item.id), _seal.digest(item))
                except NotJSON as exc:
                    finished[i] = item = _not_sealable(item, exc)
                    term = key.term(turn.position(item.id), _seal.digest(item))
                results_total = _seal.add(results_total, term)
        finished.sort(key=lambda item: turn.position(item.id))
        if not waiting:
            return RunResult("done", finished)
        waiting_total = 0
        if key is not None:
            turn.order_digest = _order_digest(tid, order)
            turn.principal_tag = key.principal_tag(principal)
            for call, request in zip(waiting, requests, strict=True):
                waiting_total = _seal.add(waiting_total, turn.terms[(call.id, request.id)])
        run = RunResult.model_construct(
            status="pending",
            results=finished,
            pending=requests[0],
            calls=waiting,
            requests=requests,
            order=order,
            turn=tid,
            seal=self._seal_with(turn, finished, waiting, requests, results_total, waiting_total),
        )
        self._track(_track_of(run, turn, results_total, waiting_total), run)
        return run

    def _seal_with(
        self,
        turn: _Turn,
        results: list[ToolCallResult],
        calls: list[ToolCall],
        requests: list[Request],
        results_total: int,
        waiting_total: int,
    ) -> str | None:
        key = turn.key
        if key is None:
            return None
        return key.seal_v3(
            expires=turn.expires,
            principal_tag=turn.principal_tag,
            pending=turn.digests[(calls[0].id, requests[0].id)],
            order=turn.order_digest,
            n_results=len(results),
            results=results_total,
            n_waiting=len(calls),
            waiting=waiting_total,
        )

    def _pick(self, run: RunResult, track: _Track, batch: list[Answer]) -> list[_Pick]:
        """The waiting call each answer answers; `ResumeError` when one answers none."""
        turn = track.turn
        waited = run.pending.id if run.pending is not None else ""
        taken: set[str] = set()
        seen: set[str] = set()
        picks: list[_Pick] = []
        # Many answers: one pass over the waiting calls beats a binary search for each.
        slots = {call.id: i for i, call in enumerate(run.calls)} if len(batch) > _FEW else None
        for answer in batch:
            replayed = answer.id in seen
            seen.add(answer.id)
            found = None
            for call_id in turn.asked.get(answer.id, ()):
                index = slots.get(call_id) if slots is not None else _index(run, turn, call_id)
                if index is None or run.requests[index].id != answer.id or call_id in taken:
                    continue
                if (turn.turn, call_id, answer.id) in self._answered:
                    replayed = True
                    continue
                found = index
                break
            if found is None:
                if replayed:
                    raise ResumeError("replayed", f"request {answer.id!r} was already answered")
                raise ResumeError(
                    "mismatch",
                    f"answer {answer.id!r} does not answer the pending request {waited!r}"
                    " nor any other request the run waits on",
                )
            call = run.calls[found]
            taken.add(call.id)
            picks.append(_Pick(found, call, run.requests[found], answer))
        return picks

    def _advance(
        self,
        run: RunResult,
        track: _Track,
        picks: list[_Pick],
        outcomes: list[tuple[ToolCall, ToolResult]],
    ) -> RunResult:
        """`run` with the picked calls settled: in time proportional to the answers, not the run
        (but for the copy of its lists)."""
        turn = track.turn
        key = turn.key
        results_total, waiting_total = track.results_total, track.waiting_total
        new_items: list[ToolCallResult] = []
        stays: dict[int, tuple[ToolCall, Request] | None] = {}
        for pick, (call, result) in zip(picks, outcomes, strict=True):
            if key is not None:
                waiting_total = _seal.sub(waiting_total, turn.terms[(pick.call.id, pick.request.id)])
            again = pending_of(result)
            if again is not None:  # asked afresh after its approval: it waits on
                try:
                    turn.wait(call, again)
                except NotJSON as exc:
                    new_items.append(_unsealable_call(call, exc))
                    stays[pick.index] = None
                    continue
                if key is not None:
                    waiting_total = _seal.add(waiting_total, turn.terms[(call.id, again.id)])
                stays[pick.index] = (call, again)
                continue
            stays[pick.index] = None
            new_items.append(ToolCallResult(call.id, call.name, result))
        if key is not None:
            for i, item in enumerate(new_items):
                try:
                    digest = _seal.digest(item)
                except NotJSON as exc:
                    new_items[i] = item = _not_sealable(item, exc)
                    digest = _seal.digest(item)
                results_total = _seal.add(results_total, key.term(turn.position(item.id), digest))
        results = list(run.results)
        at = _place(turn, results, picks, new_items)
        if at is not None:
            results.insert(at, new_items[0])
        elif len(new_items) <= _FEW:  # a binary search each: no Python work per result of the run
            for item in new_items:
                bisect.insort(results, item, key=lambda r: turn.position(r.id))
        else:
            results.extend(new_items)
            results.sort(key=lambda r: turn.position(r.id))
        if len(stays) <= _FEW:
            calls, requests = run.calls.copy(), run.requests.copy()  # one copy each, in C
            for index in sorted(stays, reverse=True):
                stay = stays[index]
                if stay is None:
                    del calls[index], requests[index]
                else:
                    calls[index], requests[index] = stay
        else:
            calls, requests = [], []
            for index, (call, request) in enumerate(zip(run.calls, run.requests, strict=True)):
                if index in stays:
                    stay = stays[index]
                    if stay is None:
                        continue
                    call, request = stay
                calls.append(call)
                requests.append(request)
        if not calls:
            return RunResult("done", results)
        new = RunResult.model_construct(
            status="pending",
            results=results,
            pending=requests[0],
            calls=calls,
            requests=requests,
            order=run.order,
            turn=run.turn,
            seal=self._seal_with(turn, results, calls, requests, results_total, waiting_total),
        )
        self._track(_track_of(new, turn, results_total, waiting_total), new)
        return new

    def _track(self, track: _Track, run: RunResult) -> None:
        """Keep `track` for `run` while `run` lives."""
        track.run = weakref.ref(run)
        ident = id(run)
        self._tracked[ident] = track
        weakref.finalize(run, self._tracked.pop, ident, None)

    def _trusted(self, run: RunResult, principal: str | None) -> _Track | None:
        """What this toolkit kept of `run`, when `run` is a pending run it returned, unchanged
        (after the checks of its expiry and principal)."""
        track = self._tracked.get(id(run))
        if track is None or not track.matches(run):
            return None
        turn = track.turn
        if turn.key is not None:
            _check_stamp(turn.key, turn.expires, turn.principal_tag, principal)
        return track

    def _verify(self, run: RunResult, principal: str | None) -> _Track:
        """Check `run` in full (its seal, when the toolkit has keys) and say what continues it."""
        order = run.order
        turn = _Turn(
            order,
            {call_id: i for i, call_id in enumerate(order)},
            turn_digest(order, run.turn),
            self._key,
            run.turn,
        )
        given = run.seal
        if self._key is None:
            if given is not None:
                raise ResumeError("seal", "the run is sealed, but this toolkit has no secret to check it")
            for call, request in zip(run.calls, run.requests, strict=True):
                turn.wait(call, request)
            return _track_of(run, turn)
        if given is None:
            raise ResumeError("seal", "the run has no seal; this toolkit only resumes runs it sealed")
        try:
            checked = self._check_seal(run, given, turn)
        except NotJSON as exc:
            raise ResumeError(
                "seal", f"the run holds a value that is not JSON ({exc}); it was not sealed here"
            ) from None
        places = [turn.position(r.id) for r in run.results]
        waits = [turn.position(c.id) for c in run.calls]
        if any(a > b for a, b in itertools.pairwise(places)) or any(
            a >= b for a, b in itertools.pairwise(waits)
        ):
            raise ResumeError("seal", "the run's results or calls are out of call order: it was altered")
        if waits and waits[-1] >= len(turn.positions):
            raise ResumeError("seal", "a waiting call is not in the run's order: it was altered")
        _check_stamp(checked.key, checked.expires, checked.principal_tag, principal)
        # From here on the run is sealed under the active key: rotation moves it forward.
        active = self._key
        turn.expires = checked.expires
        turn.principal_tag = active.principal_tag(principal) if checked.principal_tag else ""
        turn.order_digest = _order_digest(run.turn, order)
        pairs = zip(run.calls, run.requests, checked.call_digests, checked.request_digests, strict=True)
        if checked.key is active and checked.waiting_terms is not None:  # the sums hold as they are
            for (call, request, c, r), term in zip(pairs, checked.waiting_terms, strict=True):
                turn.wait(call, request, (c, r), term)
            return _track_of(run, turn, checked.results_total, checked.waiting_total)
        results_total = waiting_total = 0
        for item, digest in zip(run.results, checked.result_digests, strict=True):
            results_total = _seal.add(results_total, active.term(turn.position(item.id), digest))
        for call, request, c, r in pairs:
            turn.wait(call, request, (c, r))
            waiting_total = _seal.add(waiting_total, turn.terms[(call.id, request.id)])
        return _track_of(run, turn, results_total, waiting_total)

    def _check_seal(self, run: RunResult, given: str, turn: _Turn) -> _Checked:
        """What `run`'s seal `given` holds, once it holds (see `_Checked`); `ResumeError` when
        it does not hold, `NotJSON` when the run holds a value without a JSON form."""
        results = [_seal.digest(item) for item in run.results]
        call_digests = [_seal.digest(c) for c in run.calls]
        request_digests = [_seal.digest(r) for r in run.requests]
        pending = _seal.digest(run.pending) if run.pending is not None else _seal.NO_PENDING
        order_digest = _order_digest(run.turn, run.order)
        if given.startswith(_seal.V3_PREFIX):
            stamp = _seal.parse_v3(given)
            if stamp is None:
                raise ResumeError("seal", "the run's seal is malformed: it was altered or not sealed here")
            key = self._keys.get(stamp.key_id)
            if key is None:
                raise ResumeError(
                    "seal", f"the run is sealed under key {stamp.key_id!r}, which this toolkit does not have"
                )
            results_total = waiting_total = 0
            for item, digest in zip(run.results, results, strict=True):
                results_total = _seal.add(results_total, key.term(turn.position(item.id), digest))
            terms = [
                key.waiting_term(turn.position(call.id), c, r)
                for call, c, r in zip(run.calls, call_digests, request_digests, strict=True)
            ]
            for term in terms:
                waiting_total = _seal.add(waiting_total, term)
            expected = key.seal_v3(
                expires=stamp.expires,
                principal_tag=stamp.principal_tag,
                pending=pending,
                order=order_digest,
                n_results=len(results),
                results=results_total,
                n_waiting=len(call_digests),
                waiting=waiting_total,
            )
            if not _seal.same(given, expected):
                raise ResumeError("seal", "the run's seal does not match: it was altered or not sealed here")
            return _Checked(
                key,
                stamp.expires,
                stamp.principal_tag,
                results,
                call_digests,
                request_digests,
                results_total,
                waiting_total,
                terms,
            )
        for key in self._keys.values():  # versions 1 and 2 name no key: try each
            if given.startswith(_seal.V1_PREFIX):
                expected = key.seal_v1(run)
            else:
                expected = self._seal_v2(key, run, turn, results, call_digests, request_digests, pending)
            if _seal.same(given, expected):
                return _Checked(key, None, "", results, call_digests, request_digests)
        raise ResumeError("seal", "the run's seal does not match: it was altered or not sealed here")

    @staticmethod
    def _seal_v2(
        key: SealKey,
        run: RunResult,
        turn: _Turn,
        results: list[bytes],
        call_digests: list[bytes],
        request_digests: list[bytes],
        pending: bytes,
    ) -> str:
        """The version-2 seal `key` gives `run` (hash chains over its waiting calls and requests)."""
        total = 0
        for item, digest in zip(run.results, results, strict=True):
            total = _seal.add(total, key.term(turn.position(item.id), digest))
        return key.seal(
            "pending",
            pending,
            hashlib.sha256(_seal.canonical(run.order)).digest(),
            total,
            _seal.chain(call_digests, _seal.CALLS_END),
            _seal.chain(request_digests, _seal.REQUESTS_END),
        )

    async def _resume_unlisted(self, run: RunResult, batch: list[Answer], principal: str | None) -> RunResult:
        """`resume` of a run stored before `requests` existed: only its pending request is
        known, so it takes that one answer, and its other waiting calls run again."""
        request, head = run.pending, run.calls[0]
        assert request is not None
        order = run.order
        turn = _Turn(
            order,
            {call_id: i for i, call_id in enumerate(order)},
            turn_digest(order, run.turn),
            self._key,
            run.turn,
        )
        if (turn.turn, head.id, batch[0].id) in self._answered:
            raise ResumeError("replayed", f"request {batch[0].id!r} was already answered")
        if self._key is not None:
            if run.seal is None:
                raise ResumeError("seal", "the run has no seal; this toolkit only resumes runs it sealed")
            if run.seal.startswith(_seal.V3_PREFIX):  # version 3 always lists the requests
                raise ResumeError("seal", "the run's seal does not match: it was altered or not sealed here")
            try:
                self._check_seal(run, run.seal, turn)
            except NotJSON as exc:
                raise ResumeError("seal", f"the run holds a value that is not JSON ({exc})") from None
        elif run.seal is not None:
            raise ResumeError("seal", "the run is sealed, but this toolkit has no secret to check it")
        if len(batch) != 1 or batch[0].id != request.id:
            wrong = next((a.id for a in batch if a.id != request.id), batch[-1].id)
            raise ResumeError(
                "mismatch", f"answer {wrong!r} does not answer the pending request {request.id!r}"
            )
        self._remember((turn.turn, head.id, request.id))
        call, result = await self._answer(head, request, batch[0], turn.turn)
        rest = list(run.calls[1:])
        waiting = await self._run_all(rest, turn.turn, ask=False)
        return self._collect(
            [call, *rest], [result, *waiting], order, turn.turn, done=run.results, tid=run.turn
        )

    def _remember(self, answered: tuple[bytes, str, str]) -> None:
        self._answered[answered] = None
        while len(self._answered) > _ANSWERED_MEMORY:
            self._answered.popitem(last=False)

    def _seal_of(self, run: RunResult) -> str:
        """The version-2 seal `run` gets from the active key, as a run stored before version 3
        carries it (`NotJSON` when it has a value without a JSON form)."""
        assert self._key is not None
        turn = _Turn(run.order, {call_id: i for i, call_id in enumerate(run.order)}, b"")
        results = [_seal.digest(item) for item in run.results]
        calls = [_seal.digest(c) for c in run.calls]
        requests = [_seal.digest(r) for r in run.requests]
        pending = _seal.digest(run.pending) if run.pending is not None else _seal.NO_PENDING
        return self._seal_v2(self._key, run, turn, results, calls, requests, pending)


def _check_stamp(key: SealKey, expires: int | None, tag: str, principal: str | None) -> None:
    """`ResumeError("expired")` past the sealed expiry; `ResumeError("principal")` when the run is
    bound to a principal (`tag`, under `key`) and `principal` is not it."""
    if expires is not None and _now_ms() >= expires:
        raise ResumeError("expired", "the run has expired: its seal's time to resume has passed")
    if tag and (principal is None or not _seal.same(key.principal_tag(principal), tag)):
        who = "no principal was given" if principal is None else "the principal given is not it"
        raise ResumeError("principal", f"the run is bound to a principal, and {who}")


def _index(run: RunResult, turn: _Turn, call_id: str) -> int | None:
    """Where `call_id` waits in `run.calls` (which are in call order), or None."""
    calls = run.calls
    place = turn.position(call_id)
    i = bisect.bisect_left(calls, place, key=lambda c: turn.position(c.id))
    if i < len(calls) and calls[i].id == call_id:
        return i
    for j, call in enumerate(calls):  # calls not in call order (a run from an older version)
        if call.id == call_id:
            return j
    return None


async def _gather(coros: Sequence[Awaitable[Any]]) -> list[Any]:
    """The values of `coros`, run concurrently; when one raises, the rest are cancelled."""
    tasks = [asyncio.ensure_future(c) for c in coros]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        await _cancel(tasks)
        raise
