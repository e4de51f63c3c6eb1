"""What the book keeps of a run it handed out (`Track`), and the check of a run from outside
(`verify`: its seal, the order of its lists, its sealed expiry and principal)."""

from __future__ import annotations

import itertools
import weakref
from dataclasses import dataclass

from .. import _seal
from .._errors import ResumeError
from .._result import Request, RunResult, ToolCall, ToolCallResult
from .._seal import Checked, NotJSON, SealBroken, SealKey, Turn, turn_of
from ._refusals import refuse_expired, refuse_principal


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
