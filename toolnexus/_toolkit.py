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
import re
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeAlias

from . import _seal
from ._errors import ResumeError
from ._result import Answer, Request, RunResult, ToolCall, ToolCallResult, ToolResult
from ._seal import NotJSON, SealKey
from ._suspend import pending_of
from ._tool import Tool, ToolContext

__all__ = ["ProgressHook", "ResultHook", "Toolkit", "WaitFor", "idempotency_key", "normalize_tool_name"]

#: Answers a request during `run_calls`; sync (run off the event loop) or async.
WaitFor: TypeAlias = Callable[[Request], "Answer | Awaitable[Answer]"]
#: Called with the tool name and the result of every tool run (see `Toolkit`).
ResultHook: TypeAlias = Callable[[str, ToolResult], None]
#: `on_progress(call_id, fraction, message)`: what a tool reports through `ToolContext.progress`.
ProgressHook: TypeAlias = Callable[[str, float, str], None]

_NAME_REJECTS = re.compile(r"[^a-zA-Z0-9_-]")
_MIN_SECRET_BYTES = 16
_ANSWERED_MEMORY = 10_000
_FRACTION = re.compile(r"(\.\d{6})\d+")


def normalize_tool_name(name: str) -> str:
    """`name` with every character outside `[a-zA-Z0-9_-]` replaced by `_`."""
    return _NAME_REJECTS.sub("_", name)


#: RFC 3339's date-time: what `expiresAt` holds when a tool means an expiry the loop can read.
_RFC3339 = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})"
)


def _parse_time(text: str) -> datetime:
    """An RFC 3339 date-time as an aware datetime; `ValueError` for anything else."""
    if not _RFC3339.fullmatch(text):
        raise ValueError(f"not an RFC 3339 date-time: {text!r}")
    text = _FRACTION.sub(r"\1", text.upper().replace("Z", "+00:00"))
    when = datetime.fromisoformat(text)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _expired(request: Request) -> bool:
    """Whether `request.expiresAt` has passed; an unreadable time counts as passed, and an
    empty one as no expiry (as the upstream ports read it)."""
    if not request.expires_at:
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


def turn_digest(order: Sequence[str]) -> bytes:
    """What identifies a turn: a digest of its call ids, in call order."""
    h = hashlib.sha256(b"toolnexus.turn.v1\n")
    for call_id in order:
        raw = call_id.encode("utf-8", "surrogatepass")
        h.update(len(raw).to_bytes(8, "big"))
        h.update(raw)
    return h.digest()


def idempotency_key(turn: bytes, call_id: str) -> str:
    """`ToolContext.idempotency_key` of the call `call_id` in the turn `turn` (`turn_digest`)."""
    h = hashlib.sha256(b"toolnexus.idempotency.v1\n" + turn)
    h.update(call_id.encode("utf-8", "surrogatepass"))
    return "idk-" + h.hexdigest()[:32]


def _declined(request: Request) -> ToolResult:
    return ToolResult.error(f"declined/expired: {request.prompt}")


@dataclass(slots=True, eq=False)
class _Track:
    """What the toolkit knows of a pending run: enough to continue it without reading it all.

    `run` is the run it describes when the toolkit returned it (a weak reference), with the
    objects it held then, so a run that comes back unchanged is recognised at once. The
    sealing fields are None without a secret: `call_chain` and `request_chain` are the chain
    values over the turn's waiting calls and requests (`_seal.chain`), of which the run's
    `calls` are the suffix from `offset`; `total` is the sum of its results' terms.
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
    positions: dict[str, int]
    turn: bytes = b""
    offset: int = 0
    total: int = 0
    order_digest: bytes = b""
    call_chain: list[bytes] | None = None
    request_digests: list[bytes] | None = None
    request_chain: list[bytes] | None = None

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


def _track_of(run: RunResult, positions: dict[str, int], **sealing: Any) -> _Track:
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
        positions,
        **sealing,
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
        on_progress: ProgressHook | None = None,
    ) -> None:
        if secret is not None and (not isinstance(secret, bytes) or len(secret) < _MIN_SECRET_BYTES):
            raise ValueError(f"secret must be bytes, at least {_MIN_SECRET_BYTES} of them")
        self._tools: dict[str, Tool] = {}
        self._secret = secret
        self._key = SealKey(secret) if secret is not None else None
        self._on_result = on_result
        self._on_progress = on_progress
        self._errors = 0
        # (call id, request id) of every answer taken: two calls may suspend with one fixed id.
        self._answered: OrderedDict[tuple[str, str], None] = OrderedDict()
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
        return self._tools.get(normalize_tool_name(name))

    @property
    def error_count(self) -> int:
        """How many tool runs returned an error that was not a suspension."""
        return self._errors

    # -- running --------------------------------------------------------------------

    async def execute(
        self, name: str, args: dict[str, Any] | None, ctx: ToolContext | None = None
    ) -> ToolResult:
        """Run the tool `name`. An unknown name is the error result `Unknown tool: <name>`."""
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

    async def run_calls(self, calls: Sequence[ToolCall], wait_for: WaitFor | None = None) -> RunResult:
        """Run one turn's calls concurrently and apply the loop rule to suspensions.

        With `wait_for`, each suspension is answered in call order (one question at a
        time): `ok` re-runs the call once with `ctx.answer` set, and a second
        suspension becomes the error `unresolved: <the original request's prompt>`; a refusal, or a
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
        turn = turn_digest(ids)
        first = await self._run_all(calls, turn)
        if wait_for is None:
            return self._collect([], calls, first, ids, turn)
        settled = await self._settle_all(calls, first, wait_for, turn)
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

        Each step costs the same however many calls wait, when the run given is the very
        object this toolkit returned: it is recognised as such and continued from what the
        toolkit kept of it, without reading it again (changes made to that object in memory
        are not looked for; the seal guards runs that leave the process). Any other run,
        such as one parsed from storage, is read and checked in full.

        Raises `ResumeError` (see there) without running anything when the answer
        does not belong to the run, was already given to this toolkit, or the seal
        does not hold. A replay is caught when it reaches the same `Toolkit` object
        (it remembers the last 10,000 answers, each by call id and request id, so two
        calls that suspend with the same fixed request id are each answered once), or
        when the host passes the run that resuming returned (its pending id has changed, or it is done). Two
        processes each resuming their own copy of the same stored run are not
        caught here: the host's store must hand a pending run out once (see
        `examples/durable_host.py`).
        """
        request = run.pending
        head = run.calls[0] if run.calls else None
        if head is not None and (head.id, answer.id) in self._answered:
            raise ResumeError("replayed", f"request {answer.id!r} was already answered")
        if run.status != "pending" or request is None or head is None:
            raise ResumeError(
                "not_pending", f"the run waits on no request, so answer {answer.id!r} has no use"
            )
        track = self._trusted(run) or self._verify(run)
        if answer.id != request.id:
            raise ResumeError(
                "mismatch", f"answer {answer.id!r} does not answer the pending request {request.id!r}"
            )
        stored = run.requests
        if stored and (len(stored) != len(run.calls) or stored[0].id != request.id):
            raise ResumeError("not_pending", "the run's requests do not match its waiting calls")
        self._remember((head.id, request.id))
        result = await self._settle(head, request, answer, track.turn)
        item = ToolCallResult(head.id, head.name, result)
        if not stored:  # a run stored before `requests` existed: the other calls run again
            rest = list(run.calls[1:])
            waiting = await self._run_all(rest, track.turn)
            return self._collect([*run.results, item], rest, waiting, run.order, track.turn)
        return self._advance(run, track, item)

    # -- internals --------------------------------------------------------------------

    def _context(self, call: ToolCall, turn: bytes, answer: Answer | None = None) -> ToolContext:
        hook = self._on_progress
        report = None if hook is None else functools.partial(hook, call.id)
        key = idempotency_key(turn, call.id)
        return ToolContext(answer=answer, call_id=call.id, idempotency_key=key, on_progress=report)

    async def _run_all(self, calls: list[ToolCall], turn: bytes) -> list[ToolResult]:
        tasks = [
            asyncio.ensure_future(self.execute(c.name, c.arguments, self._context(c, turn))) for c in calls
        ]
        try:
            return list(await asyncio.gather(*tasks))
        except BaseException:
            await _cancel(tasks)
            raise

    async def _settle_all(
        self, calls: list[ToolCall], results: list[ToolResult], wait_for: WaitFor, turn: bytes
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
                task = asyncio.ensure_future(self._settle(call, request, answer, turn))
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
        """The loop rule for one suspended call; `answer` None means expired before asking."""
        if answer is None or not answer.ok or _expired(request):
            return _declined(request)
        retry = await self.execute(call.name, call.arguments, self._context(call, turn, answer))
        again = pending_of(retry)
        if again is not None:  # upstream ports name the original request, not the new one
            return ToolResult.error(f"unresolved: {request.prompt}")
        return retry

    def _collect(
        self,
        done: list[ToolCallResult],
        calls: list[ToolCall],
        results: list[ToolResult],
        order: list[str],
        turn: bytes,
    ) -> RunResult:
        """`done` plus the finished `results`, or a stop on the first suspension among them.

        `order` is the turn's call ids in call order: the results are sorted by it, and a
        pending run keeps it for the next `resume`. With a secret, every element of a pending
        run must have a JSON form to be sealed: a finished result without one becomes an error
        result saying so, and so does a waiting call whose arguments or request have none.
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
        positions = {call_id: i for i, call_id in enumerate(order)}
        last = len(positions)

        def position(item: ToolCallResult) -> int:
            return positions.get(item.id, last)

        key = self._key
        if not requests or key is None:
            finished.sort(key=position)
            if not requests:
                return RunResult("done", finished)
            run = RunResult("pending", finished, requests[0], calls=waiting, requests=requests, order=order)
            self._track(_track_of(run, positions, turn=turn), run)
            return run
        digests: dict[int, bytes] = {}
        kept_calls: list[ToolCall] = []
        kept_requests: list[Request] = []
        call_digests: list[bytes] = []
        request_digests: list[bytes] = []
        for call, request in zip(waiting, requests, strict=True):
            try:
                pair = _seal.digest(call), _seal.digest(request)
            except NotJSON as exc:
                message = f"the call's arguments or request are not JSON, so the run cannot be sealed: {exc}"
                finished.append(ToolCallResult(call.id, call.name, ToolResult.error(message)))
                continue
            kept_calls.append(call)
            kept_requests.append(request)
            call_digests.append(pair[0])
            request_digests.append(pair[1])
        for i, item in enumerate(finished):
            try:
                digests[id(item)] = _seal.digest(item)
            except NotJSON as exc:
                finished[i] = item = _not_sealable(item, exc)
                digests[id(item)] = _seal.digest(item)
        finished.sort(key=position)
        if not kept_calls:
            return RunResult("done", finished)
        total = 0
        for item in finished:
            total = _seal.add(total, key.term(position(item), digests[id(item)]))
        track = _Track(
            None,
            None,
            finished,
            0,
            kept_calls,
            0,
            kept_requests,
            0,
            order,
            0,
            kept_requests[0],
            positions,
            turn=turn,
            offset=0,
            total=total,
            order_digest=hashlib.sha256(_seal.canonical(order)).digest(),
            call_chain=_seal.chain(call_digests, _seal.CALLS_END),
            request_digests=request_digests,
            request_chain=_seal.chain(request_digests, _seal.REQUESTS_END),
        )
        run = RunResult(
            "pending",
            finished,
            kept_requests[0],
            calls=kept_calls,
            requests=kept_requests,
            order=order,
            seal=self._seal_from(track, 0, total),
        )
        self._track(_track_of(run, positions, **_sealing(track)), run)
        return run

    def _advance(self, run: RunResult, track: _Track, item: ToolCallResult) -> RunResult:
        """`run` with its first waiting call settled as `item`: one step, whatever the run's size."""
        positions = track.positions
        last = len(positions)
        key = self._key
        digest = b""
        if key is not None:
            try:
                digest = _seal.digest(item)
            except NotJSON as exc:
                item = _not_sealable(item, exc)
                digest = _seal.digest(item)
        results = list(run.results)
        bisect.insort(results, item, key=lambda r: positions.get(r.id, last))
        calls = run.calls[1:]
        requests = run.requests[1:]
        if not calls:
            return RunResult("done", results)
        offset = track.offset + 1
        total = track.total
        seal = None
        if key is not None:
            total = _seal.add(total, key.term(positions.get(item.id, last), digest))
            seal = self._seal_from(track, offset, total)
        new = RunResult.model_construct(
            status="pending",
            results=results,
            pending=requests[0],
            calls=calls,
            requests=requests,
            order=run.order,
            seal=seal,
        )
        sealing = _sealing(track) | {"offset": offset, "total": total}
        self._track(_track_of(new, positions, **sealing), new)
        return new

    def _seal_from(self, track: _Track, offset: int, total: int) -> str:
        """The seal of the run that waits on the calls from `offset` of `track`'s chains."""
        assert self._key is not None
        assert track.call_chain is not None and track.request_chain is not None
        assert track.request_digests is not None
        return self._key.seal(
            "pending",
            track.request_digests[offset],
            track.order_digest,
            total,
            track.call_chain[offset],
            track.request_chain[offset],
        )

    def _track(self, track: _Track, run: RunResult) -> None:
        """Keep `track` for `run` while `run` lives."""
        track.run = weakref.ref(run)
        ident = id(run)
        self._tracked[ident] = track
        weakref.finalize(run, self._tracked.pop, ident, None)

    def _trusted(self, run: RunResult) -> _Track | None:
        """What this toolkit kept of `run`, when `run` is a pending run it returned, unchanged."""
        track = self._tracked.get(id(run))
        if track is None or not track.matches(run):
            return None
        return track

    def _verify(self, run: RunResult) -> _Track:
        """Check `run` in full (its seal, when there is a secret) and say what continues it."""
        positions = {call_id: i for i, call_id in enumerate(run.order)}
        key = self._key
        given = run.seal
        if key is None:
            if given is not None:
                raise ResumeError("seal", "the run is sealed, but this toolkit has no secret to check it")
            return _track_of(run, positions, turn=turn_digest(run.order))
        if given is None:
            raise ResumeError("seal", "the run has no seal; this toolkit only resumes runs it sealed")
        try:
            track = self._digested(run, positions)
            if given.startswith(_seal.V1_PREFIX):
                expected = key.seal_v1(run)
            else:
                expected = self._seal_from(track, 0, track.total)
        except Exception as exc:  # NotJSON, or a model edited past its types
            raise ResumeError(
                "seal", f"the run holds a value that is not JSON ({exc}); it was not sealed here"
            ) from None
        if not _seal.same(given, expected):
            raise ResumeError("seal", "the run's seal does not match: it was altered or not sealed here")
        last = len(positions)
        places = [positions.get(r.id, last) for r in run.results]
        if any(a > b for a, b in itertools.pairwise(places)):
            raise ResumeError("seal", "the run's results are out of call order: it was altered")
        return track

    def _digested(self, run: RunResult, positions: dict[str, int]) -> _Track:
        """The digests that seal `run` (version 2), computed from all of it; `NotJSON`."""
        key = self._key
        assert key is not None
        last = len(positions)
        total = 0
        for item in run.results:
            total = _seal.add(total, key.term(positions.get(item.id, last), _seal.digest(item)))
        call_digests = [_seal.digest(c) for c in run.calls]
        # A run stored before `requests` existed has none: its pending request is all.
        request_digests = [_seal.digest(r) for r in run.requests]
        pending_digest = _seal.digest(run.pending) if run.pending is not None else _seal.NO_PENDING
        request_chain = _seal.chain(request_digests, _seal.REQUESTS_END)
        # The pending request's digest is read at `request_digests[offset]`.
        return _track_of(
            run,
            positions,
            turn=turn_digest(run.order),
            offset=0,
            total=total,
            order_digest=hashlib.sha256(_seal.canonical(run.order)).digest(),
            call_chain=_seal.chain(call_digests, _seal.CALLS_END),
            request_digests=[pending_digest, *request_digests[1:]],
            request_chain=request_chain,
        )

    def _remember(self, answered: tuple[str, str]) -> None:
        self._answered[answered] = None
        while len(self._answered) > _ANSWERED_MEMORY:
            self._answered.popitem(last=False)

    def _seal_of(self, run: RunResult) -> str:
        """The seal `run` gets from this toolkit, computed from all of it (`NotJSON` when it has
        a value without a JSON form)."""
        positions = {call_id: i for i, call_id in enumerate(run.order)}
        track = self._digested(run, positions)
        return self._seal_from(track, 0, track.total)


def _sealing(track: _Track) -> dict[str, Any]:
    return {
        "turn": track.turn,
        "offset": track.offset,
        "total": track.total,
        "order_digest": track.order_digest,
        "call_chain": track.call_chain,
        "request_digests": track.request_digests,
        "request_chain": track.request_chain,
    }
