"""A pending run's state, and the check of a run that comes back from outside the toolkit.

`Turn` is what every pending run of one turn shares (its call order, its id, the idempotency
keys, the seal's terms); `Track` is what the book keeps of one run it handed out. `verify`
reads any other run (parsed from storage, or built elsewhere) in full, once: its seal under
the toolkit's keys (version 3; versions 2 and 1 for runs stored before it), the order of its
lists, its sealed expiry and principal.
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field

from . import _seal
from ._errors import ResumeError
from ._result import Request, RunResult, ToolCall, ToolCallResult
from ._seal import NotJSON, SealKey

__all__ = [
    "Track",
    "Turn",
    "check_stamp",
    "idempotency_key",
    "index_of",
    "track_of",
    "turn_digest",
    "turn_of",
    "verify",
]


def turn_digest(order: Sequence[str], turn_id: str = "") -> bytes:
    """What identifies a turn: a digest of its id (`RunResult.turn`, when it has one) and its
    call ids, in call order."""
    h = hashlib.sha256(b"toolnexus.turn.v1\n")
    for call_id in [turn_id, *order] if turn_id else order:
        raw = call_id.encode("utf-8", "surrogatepass")
        h.update(len(raw).to_bytes(8, "big"))
        h.update(raw)
    return h.digest()


def idempotency_key(turn: bytes, call_id: str) -> str:
    """`ToolContext.idempotency_key` of the call `call_id` in the turn `turn` (`turn_digest`)."""
    h = hashlib.sha256(b"toolnexus.idempotency.v1\n" + turn)
    h.update(call_id.encode("utf-8", "surrogatepass"))
    return "idk-" + h.hexdigest()[:32]


@dataclass(slots=True, eq=False)
class Turn:
    """What every pending run of one turn shares: kept once, read by each of its resumes.

    `terms` and `digests` hold, by (call id, request id), the sealing term of a waiting call
    and the digest of its request (under `key`, the toolkit's active key); `asked` lists the
    call ids waiting on each request id. They only grow: a call asked afresh (after its
    approval) is a new pair, so the runs returned before it still read theirs.
    """

    order: list[str]
    positions: dict[str, int]
    digest: bytes
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

    def idempotency_key(self, call_id: str) -> str:
        """The `ToolContext.idempotency_key` of the call `call_id` of this turn."""
        return idempotency_key(self.digest, call_id)

    def wait(
        self,
        call: ToolCall,
        request: Request,
        digests: tuple[bytes, bytes] | None = None,
        term: int | None = None,
    ) -> None:
        """Note that `call` waits on `request` (their `digests`, and their keyed `term`, when known)."""
        if self.key is not None:
            call_digest, request_digest = digests or (_seal.digest(call), _seal.digest(request))
            pair = (call.id, request.id)
            if term is None:
                term = self.key.waiting_term(self.position(call.id), call_digest, request_digest)
            self.terms[pair] = term
            self.digests[pair] = request_digest
        self.asked.setdefault(request.id, []).append(call.id)


def turn_of(order: list[str], tid: str, key: SealKey | None) -> Turn:
    """A fresh `Turn` of the calls `order` with the id `tid`, sealed under `key`."""
    turn = Turn(order, {call_id: i for i, call_id in enumerate(order)}, turn_digest(order, tid), key, tid)
    if key is not None:
        turn.order_digest = _order_digest(tid, order)
    return turn


def _order_digest(turn_id: str, order: list[str]) -> bytes:
    """What the seal holds of a run's `order` and `turn`."""
    return hashlib.sha256(_seal.canonical([turn_id, order] if turn_id else order)).digest()


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


def index_of(run: RunResult, turn: Turn, call_id: str) -> int | None:
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


def check_stamp(
    key: SealKey, expires: int | None, tag: str, principal: str | None, now_ms: int, version: int = 4
) -> None:
    """`ResumeError("expired")` past the sealed expiry; `ResumeError("principal")` when the run is
    bound to a principal (`tag`, under `key`) and `principal` is not it."""
    if expires is not None and now_ms >= expires:
        raise ResumeError("expired", "the run has expired: its seal's time to resume has passed")
    if tag and (principal is None or not _seal.same(key.principal_tag(principal, version), tag)):
        who = "no principal was given" if principal is None else "the principal given is not it"
        raise ResumeError("principal", f"the run is bound to a principal, and {who}")


# -- reading a run from outside ---------------------------------------------------------------


@dataclass(slots=True, eq=False)
class _Checked:
    """What a seal that holds gives: the key it was made with, its expiry and principal tag,
    the digests of the run's results, calls and requests, and (version 3) its keyed sums and
    each waiting call's term, which hold as they are while that key is the active one."""

    version: int
    key: SealKey
    expires: int | None
    principal_tag: str
    result_digests: list[bytes]
    call_digests: list[bytes]
    request_digests: list[bytes]
    results_total: int = 0
    waiting_total: int = 0
    waiting_terms: list[int] | None = None


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
    `unlisted`: a run stored before `requests` existed (only its seal is checked). Without
    `stamp`, the sealed expiry and principal are not checked (the run is settled, not resumed:
    no tool runs) and the run keeps its binding."""
    turn = turn_of(run.order, run.turn, active)
    given = run.seal
    if active is None:
        if given is not None:
            raise ResumeError("seal", "the run is sealed, but this toolkit has no secret to check it")
        if not unlisted:
            for call, request in zip(run.calls, run.requests, strict=True):
                turn.wait(call, request)
        return track_of(run, turn)
    if given is None:
        raise ResumeError("seal", "the run has no seal; this toolkit only resumes runs it sealed")
    if unlisted and given.startswith((_seal.V3_PREFIX, _seal.V4_PREFIX)):  # they always list the requests
        raise ResumeError("seal", "the run's seal does not match: it was altered or not sealed here")
    try:
        checked = _check_seal(keys, run, given, turn)
    except NotJSON as exc:
        raise ResumeError(
            "seal", f"the run holds a value that is not JSON ({exc}); it was not sealed here"
        ) from None
    if unlisted:
        return track_of(run, turn)
    places = [turn.position(r.id) for r in run.results]
    waits = [turn.position(c.id) for c in run.calls]
    if any(a > b for a, b in itertools.pairwise(places)) or any(a >= b for a, b in itertools.pairwise(waits)):
        raise ResumeError("seal", "the run's results or calls are out of call order: it was altered")
    if waits and waits[-1] >= len(turn.positions):
        raise ResumeError("seal", "a waiting call is not in the run's order: it was altered")
    if stamp:
        check_stamp(checked.key, checked.expires, checked.principal_tag, principal, now_ms, checked.version)
    # From here on the run is sealed under the active key, as version 4: rotation moves it forward.
    turn.expires = checked.expires
    turn.principal_tag = _rebound(checked, active, principal, now_ms) if checked.principal_tag else ""
    if checked.version != 4:  # digested by an earlier version's canonical form: digested afresh
        try:
            checked.result_digests = [_seal.digest(item) for item in run.results]
            checked.call_digests = [_seal.digest(c) for c in run.calls]
            checked.request_digests = [_seal.digest(r) for r in run.requests]
        except NotJSON as exc:
            raise ResumeError("seal", f"the run holds a value that cannot be sealed again ({exc})") from None
    pairs = zip(run.calls, run.requests, checked.call_digests, checked.request_digests, strict=True)
    if checked.key is active and checked.waiting_terms is not None:  # the sums hold as they are
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


def _rebound(checked: _Checked, active: SealKey, principal: str | None, now_ms: int) -> str:
    """The principal tag of a bound run sealed afresh under the active key."""
    if checked.version == 4 and checked.key is active and principal is None:  # settled unasked
        return checked.principal_tag  # the binding stays as it is
    check_stamp(checked.key, None, checked.principal_tag, principal, now_ms, checked.version)
    return active.principal_tag(principal)


def _check_seal(keys: dict[str, SealKey], run: RunResult, given: str, turn: Turn) -> _Checked:
    """What `run`'s seal `given` holds, once it holds (see `_Checked`); `ResumeError` when
    it does not hold, `NotJSON` when the run holds a value without a canonical form."""
    stamp = _seal.parse_stamp(given)
    if stamp is None and given.startswith((_seal.V3_PREFIX, _seal.V4_PREFIX)):
        raise ResumeError("seal", "the run's seal is malformed: it was altered or not sealed here")
    if stamp is not None:
        key = keys.get(stamp.key_id)
        if key is None:
            raise ResumeError(
                "seal", f"the run is sealed under key {stamp.key_id!r}, which this toolkit does not have"
            )
        v4 = stamp.version == 4
        digest, canonical = (_seal.digest, _seal.canonical) if v4 else (_seal.digest_v3, _seal.canonical_v3)
        term, waiting_term, seal = (
            (key.term, key.waiting_term, key.seal_v4)
            if v4
            else (key.term_v3, key.waiting_term_v3, key.seal_v3)
        )
        results = [digest(item) for item in run.results]
        call_digests = [digest(c) for c in run.calls]
        request_digests = [digest(r) for r in run.requests]
        results_total = waiting_total = 0
        for item, d in zip(run.results, results, strict=True):
            results_total = _seal.add(results_total, term(turn.position(item.id), d))
        terms = [
            waiting_term(turn.position(call.id), c, r)
            for call, c, r in zip(run.calls, call_digests, request_digests, strict=True)
        ]
        for t in terms:
            waiting_total = _seal.add(waiting_total, t)
        order = hashlib.sha256(canonical([run.turn, run.order] if run.turn else run.order)).digest()
        expected = seal(
            expires=stamp.expires,
            principal_tag=stamp.principal_tag,
            pending=digest(run.pending) if run.pending is not None else _seal.NO_PENDING,
            order=order,
            n_results=len(results),
            results=results_total,
            n_waiting=len(call_digests),
            waiting=waiting_total,
        )
        if not _seal.same(given, expected):
            raise ResumeError("seal", "the run's seal does not match: it was altered or not sealed here")
        return _Checked(
            stamp.version, key, stamp.expires, stamp.principal_tag, results, call_digests, request_digests,
            results_total, waiting_total, terms if v4 else None,
        )  # fmt: skip
    # Versions 1 and 2 predate `RunResult.turn`: a legacy run holds none, and its idempotency
    # keys come from its call ids alone. One that holds a turn id was altered after sealing.
    if run.turn:
        raise ResumeError(
            "seal",
            "the run's seal (version 1 or 2) cannot hold a turn id, and the run has one: it was altered",
        )
    results = [_seal.digest_v3(item) for item in run.results]
    call_digests = [_seal.digest_v3(c) for c in run.calls]
    request_digests = [_seal.digest_v3(r) for r in run.requests]
    pending = _seal.digest_v3(run.pending) if run.pending is not None else _seal.NO_PENDING
    for key in keys.values():  # versions 1 and 2 name no key: try each
        if given.startswith(_seal.V1_PREFIX):
            version, expected = 1, key.seal_v1(run)
        else:
            version, expected = 2, seal_v2(key, run, turn, results, call_digests, request_digests, pending)
        if _seal.same(given, expected):
            return _Checked(version, key, None, "", results, call_digests, request_digests)
    raise ResumeError("seal", "the run's seal does not match: it was altered or not sealed here")


def seal_v2(
    key: SealKey,
    run: RunResult,
    turn: Turn,
    results: list[bytes],
    call_digests: list[bytes],
    request_digests: list[bytes],
    pending: bytes,
) -> str:
    """The version-2 seal `key` gives `run` (hash chains over its waiting calls and requests)."""
    total = 0
    for item, digest in zip(run.results, results, strict=True):
        total = _seal.add(total, key.term_v3(turn.position(item.id), digest))
    return key.seal_v2(
        "pending",
        pending,
        hashlib.sha256(_seal.canonical_v3(run.order)).digest(),
        total,
        _seal.chain(call_digests, _seal.CALLS_END),
        _seal.chain(request_digests, _seal.REQUESTS_END),
    )


def legacy_seal_v2(key: SealKey, run: RunResult) -> str:
    """The version-2 seal `key` gives `run`, as a run stored before version 3 carries it (for
    tests of those runs); `NotJSON` when it holds a value without a JSON form."""
    turn = turn_of(run.order, "", None)
    results = [_seal.digest_v3(item) for item in run.results]
    calls = [_seal.digest_v3(c) for c in run.calls]
    requests = [_seal.digest_v3(r) for r in run.requests]
    pending = _seal.digest_v3(run.pending) if run.pending is not None else _seal.NO_PENDING
    return seal_v2(key, run, turn, results, calls, requests, pending)


def legacy_seal_v3(key: SealKey, run: RunResult) -> str:
    """The version-3 seal `key` gives `run`, as a run stored before version 4 carries it (for
    tests of those runs; no expiry, no principal)."""
    turn = turn_of(run.order, run.turn, None)
    results = sum(key.term_v3(turn.position(r.id), _seal.digest_v3(r)) for r in run.results) % (1 << 256)
    waiting = sum(
        key.waiting_term_v3(turn.position(c.id), _seal.digest_v3(c), _seal.digest_v3(r))
        for c, r in zip(run.calls, run.requests, strict=True)
    ) % (1 << 256)
    assert run.pending is not None
    order = hashlib.sha256(_seal.canonical_v3([run.turn, run.order] if run.turn else run.order)).digest()
    return key.seal_v3(
        expires=None,
        principal_tag="",
        pending=_seal.digest_v3(run.pending),
        order=order,
        n_results=len(run.results),
        results=results,
        n_waiting=len(run.calls),
        waiting=waiting,
    )
