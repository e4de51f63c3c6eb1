"""The book itself (`RunBook`): a turn from its calls to its run, and a run from its answers to
its next run; see the package's docstring."""

from __future__ import annotations

import bisect
import math
import secrets
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from toolnexus_wire import loop_data as texts

from .. import _seal
from .._engine import Ask, Settle, expired, reach
from .._errors import ResumeError, UsageError
from .._result import Answer, Request, RunResult, ToolCall, ToolCallResult, ToolResult
from .._seal import NotJSON, SealKey, Turn, turn_of
from ._refusals import check_answer, matched, refuse_idle, refuse_replayed
from ._track import Track, check_stamp, track_of, verify

_ANSWERED_MEMORY = 10_000
_FEW = 16  # answers in one `resume` up to which each is placed on its own, in C
_MAX_EXPIRES_IN = 100 * 365 * 24 * 3600  # seconds; the seal writes the expiry in at most 20 digits


@dataclass(slots=True)
class Pick:
    """One answer of a `resume`, and the waiting call (at `index` in the run) it answers."""

    index: int
    call: ToolCall
    request: Request
    answer: Answer | None  # None: settled by the time (`RunBook.open_lapsed`)


@dataclass(slots=True, eq=False)
class Opening:
    """A pending run opened for answers: its state, and the waiting call each answer answers.
    `restart` lists the calls of a run stored before `requests` existed that run afresh."""

    run: RunResult
    track: Track
    picks: list[Pick]
    restart: list[ToolCall]

    @property
    def turn(self) -> Turn:
        return self.track.turn


class RunBook:
    """The pending runs of one toolkit; see the module's documentation."""

    def __init__(self, keys: dict[str, SealKey], active: SealKey | None, clock_ms: Callable[[], int]) -> None:
        self.keys = keys
        self.active = active
        self._clock_ms = clock_ms
        # (turn, call id, request id) of every answer taken: two calls may ask under one fixed id.
        self._answered: OrderedDict[tuple[bytes, str, str], None] = OrderedDict()
        self._tracked: dict[int, Track] = {}  # by id() of the pending runs returned and alive

    # -- a turn, from its calls to its run --------------------------------------------------

    def begin(
        self,
        calls: Sequence[ToolCall],
        turn_id: str | None,
        expires_in: float | None,
        principal: str | None,
    ) -> Turn:
        """A new turn of `calls` (distinct ids), to be sealed with `expires_in` and `principal`."""
        if turn_id is None:
            turn_id = secrets.token_hex(8)
        elif not isinstance(turn_id, str) or not turn_id:
            raise UsageError(f"turn_id must be a non-empty str or None, got {turn_id!r}")
        ids = [c.id for c in calls]
        if len(set(ids)) != len(ids):
            raise UsageError(f"the calls of one turn need distinct ids, got {ids}")
        expires = self._expiry(expires_in, principal)
        turn = turn_of(ids, turn_id, self.active)
        turn.expires = expires
        if self.active is not None:
            turn.principal_tag = self.active.principal_tag(principal)
        return turn

    def close(
        self, turn: Turn, outcomes: Sequence[Ask | Settle], done: Sequence[ToolCallResult] = ()
    ) -> RunResult:
        """The run of `turn` after its calls' `outcomes` (and the results `done` before): `done`,
        or `pending` on its waiting calls, sealed and tracked. In a pending run, a finished result
        that cannot be stored becomes an error result saying so: the run always can be."""
        finished = list(done)
        waiting: list[ToolCall] = []
        requests: list[Request] = []
        for outcome in outcomes:
            if isinstance(outcome, Ask) and (unsealable := _wait(turn, outcome)) is not None:
                outcome = unsealable
            if isinstance(outcome, Settle):
                finished.append(ToolCallResult(outcome.call.id, outcome.call.name, outcome.result))
                continue
            waiting.append(outcome.call)
            requests.append(outcome.request)
        finished.sort(key=lambda item: turn.position(item.id))
        if not waiting:
            return RunResult("done", finished)
        key = turn.key
        results_total = waiting_total = 0
        for i, item in enumerate(finished):
            finished[i], term = _storable(item, turn)
            results_total = _seal.add(results_total, term)
        if key is not None:
            for call, request in zip(waiting, requests, strict=True):
                waiting_total = _seal.add(waiting_total, turn.terms[(call.id, request.id)])
        return self._pending(turn, finished, waiting, requests, results_total, waiting_total)

    # -- a run, from its answers to its next run ----------------------------------------------

    def open(self, run: RunResult, batch: list[Answer], principal: str | None) -> Opening:
        """`run` checked and opened for `batch`: each answer matched to the call it answers and
        remembered as taken. `ResumeError` (nothing taken) when the run cannot take them."""
        request = run.pending
        if run.status != "pending" or request is None or not run.calls:
            head = run.calls[0] if run.calls else None
            if (
                head is not None
                and (turn_of(run.order, run.turn, None).digest, head.id, batch[0].id) in self._answered
            ):
                raise refuse_replayed(batch[0].id)
            raise refuse_idle(batch[0].id)
        if not run.requests:  # a run stored before `requests` existed
            return self._open_unlisted(run, batch, principal)
        if len(run.requests) != len(run.calls) or run.requests[0].id != request.id:
            if self.active is not None:  # a sealed run never comes out so: it was altered
                raise ResumeError("seal", "the run's requests do not match its waiting calls: it was altered")
            raise ResumeError("not_pending", "the run's requests do not match its waiting calls")
        track = self._trusted(run, principal) or verify(
            self.keys, self.active, run, principal, self._clock_ms()
        )
        taken, digest = self._answered, track.turn.digest
        picks = _pick(run, track.turn, batch, lambda call, request: (digest, call, request) in taken)
        for pick in picks:
            self._remember((track.turn.digest, pick.call.id, pick.request.id))
        return Opening(run, track, picks, [])

    def open_lapsed(self, run: RunResult, now: datetime, principal: str | None) -> Opening | None:
        """`run` opened to settle its waiting calls whose time ran out by `now`: those whose
        request expired, or all of them past the run's sealed expiry. None when none has.
        The seal must hold; the sealed expiry and principal do not stop it (no tool runs)."""
        if run.status != "pending" or run.pending is None or not run.calls:
            raise ResumeError("not_pending", "the run waits on no request, so nothing of it can expire")
        if not run.requests:  # a run stored before `requests` existed: its pending request only,
            track = verify(
                self.keys, self.active, run, principal, self._clock_ms(), unlisted=True, stamp=False
            )
            if len(run.calls) > 1 or not expired(run.pending, now):  # (its others would run again)
                return None
            self._remember((track.turn.digest, run.calls[0].id, run.pending.id))
            return Opening(run, track, [Pick(0, run.calls[0], run.pending, None)], [])
        kept = self._tracked.get(id(run))
        if kept is not None and kept.matches(run):
            track = kept
        else:
            track = verify(self.keys, self.active, run, principal, self._clock_ms(), stamp=False)
        whole = track.turn.expires is not None and now.timestamp() * 1000 >= track.turn.expires
        picks = [
            Pick(i, call, request, None)
            for i, (call, request) in enumerate(zip(run.calls, run.requests, strict=True))
            if whole or expired(request, now)
        ]
        if not picks:
            return None
        for pick in picks:
            self._remember((track.turn.digest, pick.call.id, pick.request.id))
        return Opening(run, track, picks, [])

    def advance(self, opening: Opening, outcomes: Sequence[Ask | Settle]) -> RunResult:
        """The opened run with each pick's outcome (in pick order, then `restart`'s) in place:
        in time proportional to the answers, not the run (but for the copy of its lists)."""
        run, track, picks = opening.run, opening.track, opening.picks
        turn = track.turn
        if not run.requests:  # a run stored before `requests` existed: every call is in `outcomes`
            done = list(run.results)
            return self.close(turn_of(run.order, run.turn, self.active), outcomes, done)
        key = turn.key
        results_total, waiting_total = track.results_total, track.waiting_total
        new_items: list[ToolCallResult] = []
        stays: dict[int, tuple[ToolCall, Request] | None] = {}
        for pick, outcome in zip(picks, outcomes, strict=True):
            if key is not None:
                waiting_total = _seal.sub(waiting_total, turn.terms[(pick.call.id, pick.request.id)])
            if isinstance(outcome, Ask) and (unsealable := _wait(turn, outcome)) is not None:
                outcome = unsealable
            if isinstance(outcome, Ask):  # asked afresh after its approval: it waits on
                if key is not None:
                    waiting_total = _seal.add(
                        waiting_total, turn.terms[(outcome.call.id, outcome.request.id)]
                    )
                stays[pick.index] = (outcome.call, outcome.request)
                continue
            stays[pick.index] = None
            item, term = _storable(ToolCallResult(outcome.call.id, outcome.call.name, outcome.result), turn)
            new_items.append(item)
            results_total = _seal.add(results_total, term)
        results = _merged(turn, list(run.results), picks, new_items)
        calls, requests = _remaining(run, stays)
        if not calls:
            return RunResult("done", results)
        return self._pending(turn, results, calls, requests, results_total, waiting_total)

    # -- the parts -------------------------------------------------------------------------

    def _pending(
        self,
        turn: Turn,
        results: list[ToolCallResult],
        calls: list[ToolCall],
        requests: list[Request],
        results_total: int,
        waiting_total: int,
    ) -> RunResult:
        """A pending run of these lists, sealed (under the turn's key) and tracked."""
        new = _sealed(turn, results, calls, requests, results_total, waiting_total)
        track = track_of(new, turn, results_total, waiting_total)
        track.run = weakref.ref(new)
        ident = id(new)
        self._tracked[ident] = track
        weakref.finalize(new, self._tracked.pop, ident, None)
        return new

    def _trusted(self, run: RunResult, principal: str | None) -> Track | None:
        """What this book kept of `run`, when it is a pending run returned here, unchanged
        (after the checks of its expiry and principal)."""
        track = self._tracked.get(id(run))
        if track is None or not track.matches(run):
            return None
        turn = track.turn
        if turn.key is not None:
            check_stamp(turn.key, turn.expires, turn.principal_tag, principal, self._clock_ms())
        return track

    def _open_unlisted(self, run: RunResult, batch: list[Answer], principal: str | None) -> Opening:
        """A run stored before `requests` existed: only its pending request is known, so it
        takes that one answer, and its other waiting calls run afresh (gated as new calls)."""
        request, head = run.pending, run.calls[0]
        assert request is not None
        track = verify(self.keys, self.active, run, principal, self._clock_ms(), unlisted=True)
        if (track.turn.digest, head.id, batch[0].id) in self._answered:
            raise refuse_replayed(batch[0].id)
        if len(batch) != 1 or batch[0].id != request.id:
            wrong = next((a.id for a in batch if a.id != request.id), batch[-1].id)
            raise ResumeError(
                "mismatch", f"answer {wrong!r} does not answer the pending request {request.id!r}"
            )
        check_answer(Ask(head, request), batch[0])
        self._remember((track.turn.digest, head.id, request.id))
        return Opening(run, track, [Pick(0, head, request, batch[0])], list(run.calls[1:]))

    def forget(self, run: RunResult, batch: list[Answer]) -> None:
        """Take back every answer taken when `run` (as it was before resuming) took `batch`:
        a host whose storage did not keep the outcome hands the run back, and the same answers
        may then be given again here, as in any other process."""
        digest = turn_of(run.order, run.turn, None).digest
        ids = {a.id for a in batch} | {r.id for r in run.requests}
        for key in [k for k in self._answered if k[0] == digest and k[2] in ids]:
            del self._answered[key]

    def _remember(self, answered: tuple[bytes, str, str]) -> None:
        self._answered[answered] = None
        while len(self._answered) > _ANSWERED_MEMORY:
            self._answered.popitem(last=False)

    def _expiry(self, expires_in: float | None, principal: str | None) -> int | None:
        if principal is not None and not isinstance(principal, str):
            raise TypeError(f"principal must be a str or None, got {type(principal).__name__}")
        if expires_in is not None and (
            not isinstance(expires_in, (int, float))
            or isinstance(expires_in, bool)
            or not math.isfinite(expires_in)
            or not 0 < expires_in <= _MAX_EXPIRES_IN
        ):
            raise UsageError(
                f"expires_in must be a positive number of seconds, at most 100 years, got {expires_in!r}"
            )
        if (expires_in is not None or principal is not None) and self.active is None:
            raise UsageError(
                "expires_in and principal are written into the seal, so they need a toolkit "
                "with a key (secret= or secrets=)"
            )
        return None if expires_in is None else self._clock_ms() + math.ceil(expires_in * 1000)


def _wait(turn: Turn, ask: Ask) -> Settle | None:
    """Note that `ask`'s call waits (`Turn.wait`); or, when its arguments or request cannot be
    sealed (an integer beyond ±2**53, which RFC 8785 cannot write exactly), the error result
    that settles it instead, so the run stays sealable."""
    try:
        turn.wait(ask.call, ask.request)
    except NotJSON as exc:
        message = texts.cannot_wait(f"its arguments or request cannot be sealed ({exc})")
        return Settle(ask.call, ToolResult.error(message))
    return None


def _storable(item: ToolCallResult, turn: Turn) -> tuple[ToolCallResult, int]:
    """`item` and its seal term (0 without a key), or the error result that stands in for it
    when it cannot be written (a value with no JSON form, nesting past the wire's limit) or
    sealed (an integer beyond ±2**53)."""
    key = turn.key
    try:
        RunResult.model_construct(status="done", results=[item]).to_json()
        if key is None:
            return item, 0
        return item, key.term(turn.position(item.id), _seal.digest(item))
    except (TypeError, ValueError, RecursionError) as exc:
        what = "result"
        meta = item.result.metadata
        if meta is not None:
            try:
                _seal.canonical(meta)
            except NotJSON:
                what = "metadata"
        message = f"the tool's {what} cannot be stored, so it is not kept: {exc or type(exc).__name__}"
        stand_in = ToolCallResult(item.id, item.name, ToolResult.error(message))
        return stand_in, 0 if key is None else key.term(turn.position(item.id), _seal.digest(stand_in))


def _merged(
    turn: Turn, results: list[ToolCallResult], picks: list[Pick], new: list[ToolCallResult]
) -> list[ToolCallResult]:
    """`results` with the `new` ones in call order."""
    at = _place(turn, results, picks, new)
    if at is not None:
        results.insert(at, new[0])
    elif len(new) <= _FEW:  # a binary search each: no Python work per result of the run
        for item in new:
            bisect.insort(results, item, key=lambda r: turn.position(r.id))
    else:
        results.extend(new)
        results.sort(key=lambda r: turn.position(r.id))
    return results


def _place(
    turn: Turn, results: list[ToolCallResult], picks: list[Pick], new: list[ToolCallResult]
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


def _remaining(
    run: RunResult, stays: dict[int, tuple[ToolCall, Request] | None]
) -> tuple[list[ToolCall], list[Request]]:
    """The run's waiting calls and requests, less those settled (None in `stays`) and with those
    asked afresh replaced."""
    if len(stays) <= _FEW:
        calls, requests = run.calls.copy(), run.requests.copy()  # one copy each, in C
        for index in sorted(stays, reverse=True):
            stay = stays[index]
            if stay is None:
                del calls[index], requests[index]
            else:
                calls[index], requests[index] = stay
        return calls, requests
    calls, requests = [], []
    for index, (call, request) in enumerate(zip(run.calls, run.requests, strict=True)):
        if index in stays:
            stay = stays[index]
            if stay is None:
                continue
            call, request = stay
        calls.append(call)
        requests.append(request)
    return calls, requests


def _sealed(
    turn: Turn,
    results: list[ToolCallResult],
    calls: list[ToolCall],
    requests: list[Request],
    results_total: int,
    waiting_total: int,
) -> RunResult:
    """A pending run of these lists, sealed under the turn's key (when it has one)."""
    seal = None
    if turn.key is not None:
        seal = turn.key.seal_v4(
            expires=turn.expires,
            principal_tag=turn.principal_tag,
            pending=turn.digests[(calls[0].id, requests[0].id)],
            order=turn.order_digest,
            n_results=len(results),
            results=results_total,
            n_waiting=len(calls),
            waiting=waiting_total,
        )
    return RunResult.model_construct(
        status="pending",
        results=results,
        pending=requests[0],
        calls=calls,
        requests=requests,
        order=turn.order,
        turn=turn.tid,
        seal=seal,
    )


def _pick(
    run: RunResult, turn: Turn, batch: list[Answer], answered: Callable[[str, str], bool]
) -> list[Pick]:
    """The waiting call each answer answers (`_engine.match`); `ResumeError` when one answers none.
    `answered`: whether the book took an answer to a call and request already."""
    # Many answers: one pass over the waiting calls beats a binary search for each.
    slots = {call.id: i for i, call in enumerate(run.calls)} if len(batch) > _FEW else None

    def candidates(request_id: str) -> Iterable[tuple[int, str]]:
        for call_id in turn.asked.get(request_id, ()):
            index = slots.get(call_id) if slots is not None else turn.index_of(run, call_id)
            if index is not None and run.requests[index].id == request_id:
                yield index, call_id

    first = run.pending.id if run.pending is not None else ""
    indices = matched(batch, candidates, answered, first)
    picks = [Pick(i, run.calls[i], run.requests[i], a) for i, a in zip(indices, batch, strict=True)]
    for pick in picks:
        assert pick.answer is not None
        check_answer(Ask(pick.call, pick.request), pick.answer)
    if all(not a.scope or a.scope == "once" for a in batch):
        return picks
    # A decision that reaches beyond its call settles the run's other approvals of its tool.
    asks = [Ask(c, r) for c, r in zip(run.calls, run.requests, strict=True)]
    taken = set(indices)
    for pick in list(picks):
        assert pick.answer is not None
        for index, answer in reach(asks, pick.index, pick.answer):
            if index not in taken and not answered(run.calls[index].id, answer.id):
                taken.add(index)
                picks.append(Pick(index, run.calls[index], run.requests[index], answer))
    return picks
