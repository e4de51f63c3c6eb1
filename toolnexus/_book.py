"""The pending-run book: what a toolkit keeps of its turns and of the runs it hands out.

The engine (`_engine`) decides what happens to each call; the book turns a turn's outcomes
into the plain data a host stores, and back. It owns, behind four calls:

    turn = book.begin(calls, turn_id, expires_in, principal)   # ids checked, keys derived
    run = book.close(turn, outcomes)                           # done, or pending and sealed
    opening = book.open(run, answers, principal)               # checked, answers picked
    run = book.advance(opening, outcomes)                      # the answered calls settled

- **turn state**: the turn's call order, its id (`RunResult.turn`) and each call's
  `ToolContext.idempotency_key` (`Turn.idempotency_key`);
- **seal assembly**: version 4 (`_seal`): keyed sums over the results and the waiting calls,
  kept per turn (`_seal.Turn.terms`), so settling any one waiting call is one term less;
- **tracking**: a pending run it returned and that comes back as the same object is
  continued from what it kept (`Track`), without reading it again; any other run is read
  and checked in full once (`verify`: its seal by `_seal.check`, the order of its lists, its
  sealed expiry and principal);
- **replay memory**: the last 10,000 answers taken, by turn, call and request.
"""

from __future__ import annotations

import bisect
import itertools
import math
import secrets
import weakref
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import get_args

from toolnexus_wire import loop_data as texts

from . import _seal
from ._engine import Ask, Settle, Unmatched, expired, match, reach, unfit_answer
from ._errors import ResumeError, ResumeReason, UsageError
from ._result import Answer, Request, RunResult, ToolCall, ToolCallResult, ToolResult
from ._seal import Checked, NotJSON, SealBroken, SealKey, Turn, turn_of

__all__ = ["Opening", "Pick", "RunBook", "Track", "verify"]

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
        picks = self._pick(run, track, batch)
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
        new = RunResult.model_construct(
            status="pending",
            results=results,
            pending=requests[0],
            calls=calls,
            requests=requests,
            order=turn.order,
            turn=turn.tid,
            seal=seal,
        )
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

    def _pick(self, run: RunResult, track: Track, batch: list[Answer]) -> list[Pick]:
        """The waiting call each answer answers (`_engine.match`); `ResumeError` when one answers none."""
        turn = track.turn
        # Many answers: one pass over the waiting calls beats a binary search for each.
        slots = {call.id: i for i, call in enumerate(run.calls)} if len(batch) > _FEW else None

        def candidates(request_id: str) -> Iterable[tuple[int, str]]:
            for call_id in turn.asked.get(request_id, ()):
                index = slots.get(call_id) if slots is not None else turn.index_of(run, call_id)
                if index is not None and run.requests[index].id == request_id:
                    yield index, call_id

        def answered(call_id: str, request_id: str) -> bool:
            return (turn.digest, call_id, request_id) in self._answered

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


# -- what the book keeps of a run, and the check of a run from outside -------------------------


@dataclass(slots=True, eq=False)
class Track:
    """What the book knows of a pending run it returned, to continue it without reading it.

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
    turn: Turn
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


def track_of(run: RunResult, turn: Turn, results_total: int = 0, waiting_total: int = 0) -> Track:
    return Track(
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


def check_stamp(key: SealKey, expires: int | None, tag: str, principal: str | None, now_ms: int) -> None:
    """`ResumeError("expired")` past the sealed expiry; `ResumeError("principal")` when the run is
    bound to a principal (`tag`, under `key`) and `principal` is not it."""
    if expires is not None and now_ms >= expires:
        raise refuse_expired()
    if tag and (principal is None or not _seal.same(key.principal_tag(principal), tag)):
        raise refuse_principal(principal)


def verify(
    keys: dict[str, SealKey],
    active: SealKey | None,
    run: RunResult,
    principal: str | None,
    now_ms: int,
    *,
    unlisted: bool = False,
    stamp: bool = True,
) -> Track:
    """Check `run` in full (its seal, when there are keys) and say what continues it.
    `unlisted`: a run stored before `requests` existed (it can only be unsealed). Without
    `stamp`, the sealed expiry and principal are not checked (the run is settled, not resumed:
    no tool runs) and the run keeps its binding."""
    turn = turn_of(run.order, run.turn, active)
    if active is None:
        if run.seal is not None:
            raise ResumeError("seal", "the run is sealed, but this toolkit has no secret to check it")
        if not unlisted:
            for call, request in zip(run.calls, run.requests, strict=True):
                turn.wait(call, request)
        return track_of(run, turn)
    try:
        checked = _seal.check(keys, run, turn)
    except SealBroken as exc:
        raise ResumeError("seal", str(exc)) from None
    except NotJSON as exc:
        raise ResumeError(
            "seal", f"the run holds a value that is not JSON ({exc}); it was not sealed here"
        ) from None
    places = [turn.position(r.id) for r in run.results]
    waits = [turn.position(c.id) for c in run.calls]
    if any(a > b for a, b in itertools.pairwise(places)) or any(a >= b for a, b in itertools.pairwise(waits)):
        raise ResumeError("seal", "the run's results or calls are out of call order: it was altered")
    if waits and waits[-1] >= len(turn.positions):
        raise ResumeError("seal", "a waiting call is not in the run's order: it was altered")
    if stamp:
        check_stamp(checked.key, checked.expires, checked.principal_tag, principal, now_ms)
    # From here on the run is sealed under the active key: rotation moves it forward.
    turn.expires = checked.expires
    turn.principal_tag = _rebound(checked, active, principal, now_ms) if checked.principal_tag else ""
    pairs = zip(run.calls, run.requests, checked.call_digests, checked.request_digests, strict=True)
    if checked.key is active:  # the sums hold as they are
        for (call, request, c, r), term in zip(pairs, checked.waiting_terms, strict=True):
            turn.wait(call, request, (c, r), term)
        return track_of(run, turn, checked.results_total, checked.waiting_total)
    results_total = waiting_total = 0
    for item, digest in zip(run.results, checked.result_digests, strict=True):
        results_total = _seal.add(results_total, active.term(turn.position(item.id), digest))
    for call, request, c, r in pairs:
        turn.wait(call, request, (c, r))
        waiting_total = _seal.add(waiting_total, turn.terms[(call.id, request.id)])
    return track_of(run, turn, results_total, waiting_total)


def _rebound(checked: Checked, active: SealKey, principal: str | None, now_ms: int) -> str:
    """The principal tag of a bound run sealed afresh under the active key."""
    if checked.key is active and principal is None:  # settled unasked
        return checked.principal_tag  # the binding stays as it is
    check_stamp(checked.key, None, checked.principal_tag, principal, now_ms)
    return active.principal_tag(principal)


# -- refusals: every `ResumeError` a host raises is made here -----------------------------------
#
# The Toolkit, the store, the MCP bridge and the Temporal host check what they keep (a run, a
# row, a workflow's state) and refuse with these, so a refusal reads the same from every host.
# `what` names the thing refused ("the run", "the turn", "run 7"): the only word that differs.


def refuse_replayed(request_id: str) -> ResumeError:
    """`replayed`: an answer to `request_id` was taken already."""
    return ResumeError("replayed", f"request {request_id!r} was already answered")


def refuse_answering(request_id: str) -> ResumeError:
    """`replayed`: another process is taking an answer to `request_id` now."""
    return ResumeError("replayed", f"request {request_id!r} is being answered by another process")


def refuse_idle(answer_id: str, what: str = "the run") -> ResumeError:
    """`not_pending`: nothing waits, so the answer `answer_id` has no use."""
    return ResumeError("not_pending", f"{what} waits on no request, so answer {answer_id!r} has no use")


def refuse_lapsed(request_id: str) -> ResumeError:
    """`not_pending`: the request expired (and settled its call) before it was answered."""
    return ResumeError("not_pending", f"request {request_id!r} expired before it was answered")


def refuse_over(what: str, answer_ids: Sequence[str]) -> ResumeError:
    """`not_pending`: `what` ("turn 't1' has finished", "run 7 is done") takes no answers."""
    if len(answer_ids) == 1:
        return ResumeError("not_pending", f"{what}, so answer {answer_ids[0]!r} has no use")
    return ResumeError("not_pending", f"{what}, so the answers {list(answer_ids)} have no use")


def refuse_missing(what: str) -> ResumeError:
    """`not_pending`: there is no such run or turn (`what`: "run 7", "turn 't1' to answer")."""
    return ResumeError("not_pending", f"there is no {what}")


def refuse_expired(what: str = "the run") -> ResumeError:
    """`expired`: the time the run (or turn) allowed for answers has passed."""
    if what == "the run":
        return ResumeError("expired", "the run has expired: its seal's time to resume has passed")
    return ResumeError("expired", f"{what} has expired: its time to answer has passed")


def refuse_principal(principal: str | None, what: str = "the run") -> ResumeError:
    """`principal`: `what` is bound to a principal, and `principal` is not it (or None)."""
    who = "no principal was given" if principal is None else "the principal given is not it"
    return ResumeError("principal", f"{what} is bound to a principal, and {who}")


def refuse_unreadable(what: str, why: object) -> ResumeError:
    """`mismatch`: the answers (or a cancellation) given are not what `what` names ("an Answer")."""
    return ResumeError("mismatch", f"not {what}: {why}")


def refuse_wait_for(answer_id: str, request_id: str) -> ResumeError:
    """`mismatch`: a host's `wait_for` answered another request than the one it was given."""
    return ResumeError("mismatch", f"wait_for answered {answer_id!r}, but the request is {request_id!r}")


def check_answer(step: Ask, answer: Answer) -> None:
    """`mismatch`: `answer` does not fit the request of `step` (`_engine.unfit_answer`: an
    approval's data holding a key other than `arguments`); nothing is taken."""
    why = unfit_answer(step, answer)
    if why is not None:
        raise ResumeError("mismatch", why)


def refuse_seal(why: str) -> ResumeError:
    """`seal`: the run is not one this toolkit sealed, or was altered since (`why`)."""
    return ResumeError("seal", why)


def refusal(reason: str, message: str) -> ResumeError | None:
    """A refusal carried across a process boundary (its reason and message), read back; None
    for a reason that is not one (`RESUME_REASONS`)."""
    for known in get_args(ResumeReason):
        if reason == known:
            return ResumeError(known, message)
    return None


def pick_waiting(
    answers: Sequence[Answer],
    waiting: Sequence[tuple[str, str]],
    answered: Collection[tuple[str, str]],
    lapsed: Callable[[str], bool],
    what: str = "the run",
) -> list[int]:
    """Which of the `waiting` (call id, request id) pairs, in call order, each answer answers
    (`_engine.match`), for a host that keeps its waiting calls itself (the Temporal workflow);
    refused whole: `replayed` for an answer already taken (its pair, or its request id, among
    the pairs `answered`), `not_pending` for one whose request `lapsed` first or when nothing
    waits, `mismatch` otherwise."""
    asked = {request_id for _, request_id in waiting}
    for answer in answers:  # a request that waits no more: answered, or settled by its expiry
        if answer.id in asked:
            continue
        if any(request_id == answer.id for _, request_id in answered):
            raise refuse_replayed(answer.id)
        if lapsed(answer.id):
            raise refuse_lapsed(answer.id)
    if not waiting:
        raise refuse_idle(answers[0].id, what)
    return matched(
        answers,
        lambda request_id: [(i, call_id) for i, (call_id, r) in enumerate(waiting) if r == request_id],
        lambda call_id, request_id: (call_id, request_id) in answered,
        waiting[0][1],
    )


def matched(
    answers: Sequence[Answer],
    candidates: Callable[[str], Iterable[tuple[int, str]]],
    answered: Callable[[str, str], bool],
    first: str,
) -> list[int]:
    """`_engine.match`'s picks, or its refusal raised: `replayed`, or `mismatch` naming `first`."""
    picks = match(answers, candidates, answered)
    if isinstance(picks, Unmatched):
        if picks.replayed:
            raise refuse_replayed(picks.answer_id)
        raise ResumeError(
            "mismatch",
            f"answer {picks.answer_id!r} does not answer the pending request {first!r}"
            " nor any other request the run waits on",
        )
    return picks


def answers_of(answers: Answer | Iterable[Answer]) -> list[Answer]:
    """`answers` as a non-empty list of `Answer`s; `ValueError`/`TypeError` otherwise."""
    batch = [answers] if isinstance(answers, Answer) else list(answers)
    if not batch:
        raise UsageError("resume needs at least one Answer")
    for answer in batch:
        if not isinstance(answer, Answer):
            raise TypeError(f"resume takes Answers, got {type(answer).__name__}")
    return batch
