"""The seal of a pending `RunResult`, built so that resuming a run costs the same at every step.

A seal (version 4, written by every language's package; `docs/seal.md` specifies it byte for
byte, and the vectors in `idl/seal/` pin it) is

    v4.hmac-sha256.<key id>.<expiry>.<principal tag>.<mac>

`<key id>` names the toolkit key it was made with (`Toolkit(secrets=..., active_key=...)`),
`<expiry>` is the time after which `resume` refuses the run, in milliseconds since the epoch
(empty: none), `<principal tag>` is a keyed digest of the principal the run is bound to
(empty: none; the principal itself is not written), and `<mac>` is the unpadded base64url
HMAC-SHA256, under that key, of those three and a fixed layout of digests: the run's
pending request, its `order` with its `turn`, and two keyed sums. Each element is digested once,
as SHA-256 of its canonical JSON: RFC 8785 (the JSON Canonicalization Scheme), so every
language computes the same bytes with a standard library; a number has its double's form
there, and an integer beyond ±2**53, which no double holds exactly, cannot be sealed.

- `results` are summed (mod 2**256) as keyed terms (HMAC-SHA256 under a subkey) of each result
  with its position in `order`: the result a resume adds is one more term, wherever it lands
  in call order.
- the waiting calls are summed the same way, one term per (position, call, request), under
  another subkey: answering any one of them, in any order, takes one term away.

The terms are keyed (subkeys of the key), so no one without the key can compute one; the
counts of both sets are sealed too, and the order of the lists, which a sum does not see, is
checked on its own (results and waiting calls must be in call order).

A run the toolkit itself returned and that comes back as the same object is continued from
the terms kept for it (`Turn`); any other run (parsed from storage, or an object not returned
here) is checked in full (`check`), which raises `SealBroken` saying why it does not hold; the
book (`_book`) turns that into `ResumeError("seal")`. Versions 1 to 3 were written only by
unreleased versions of this project (no package that wrote them was published), so they are
refused, as in TypeScript and Rust.

Here too: what identifies a turn (`turn_digest`) and its calls' idempotency keys
(`idempotency_key`), and `Turn`, what every pending run of one turn shares.
"""

from __future__ import annotations

import base64
import bisect
import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
import rfc8785

from ._errors import UsageError
from ._result import Request, RunResult, ToolCall, ToolCallResult

__all__ = [
    "KEY_ID",
    "NO_PENDING",
    "V4_PREFIX",
    "Checked",
    "NotJSON",
    "SealBroken",
    "SealKey",
    "Stamp",
    "Turn",
    "add",
    "canonical",
    "check",
    "digest",
    "idempotency_key",
    "key_set",
    "parse_stamp",
    "same",
    "sub",
    "turn_digest",
    "turn_of",
]

V4_PREFIX = "v4.hmac-sha256."
#: The prefixes of the seal versions before 4: refused (see the module's documentation).
_RETIRED = {"v1.hmac-sha256.": 1, "v2.hmac-sha256.": 2, "v3.hmac-sha256.": 3}
_V4_DOMAIN = b"toolnexus.RunResult.seal.v4\n"
_SAFE = (1 << 53) - 1  # the largest integer a double holds exactly, and RFC 8785 writes
_MOD = 1 << 256
_sha256 = hashlib.sha256
#: The digest a run without a pending request seals in its place (its label dates from version 2).
NO_PENDING = _sha256(b"toolnexus.RunResult.seal.v2.no-pending").digest()
#: What a key id may hold: it is written into the seal between dots.
KEY_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_STAMPED = re.compile(
    r"v4\.hmac-sha256\.([A-Za-z0-9_-]{1,64})\.([0-9]{0,20})\.([A-Za-z0-9_-]{0,43})\.([A-Za-z0-9_-]{43})"
)


class NotJSON(ValueError):
    """A value that has no canonical JSON form (NaN, a set, a key that is not a string,
    a lone surrogate...), so it cannot be sealed or stored."""


def canonical(value: Any) -> bytes:
    """The canonical JSON of `value` by RFC 8785 (keys sorted by UTF-16 code units, compact,
    numbers as ECMAScript writes a double, UTF-8); `NotJSON` when it has none (NaN, a lone
    surrogate, a key that is not a string, an integer beyond ±2**53)."""
    if _plain(value):  # no float and no key beyond the BMP: orjson writes RFC 8785 exactly
        try:
            return orjson.dumps(value, option=_SORTED_STRICT)
        except orjson.JSONEncodeError as exc:
            raise NotJSON(_why(exc)) from None
    try:
        return rfc8785.dumps(_doubles(value))
    except (rfc8785.CanonicalizationError, TypeError, ValueError, RecursionError) as exc:
        raise NotJSON(_why(exc)) from None


_SORTED_STRICT = orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER


def _plain(value: Any) -> bool:
    """Whether `value` holds no float and no object key beyond the Basic Multilingual Plane, so
    that orjson's sorted output (by UTF-8 bytes, equal to UTF-16 order within the BMP) is RFC
    8785's."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            for key in item:
                if type(key) is str and key > "\uffff" and any(ord(c) > 0xFFFF for c in key):
                    return False
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif kind is float or isinstance(item, float):
            return False
    return True


def _doubles(value: Any) -> Any:
    """`value` with every number as RFC 8785 reads it: a double (an integer beyond ±2**53, which
    none holds exactly, is refused)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        if not -_SAFE <= value <= _SAFE:
            raise ValueError(f"the integer {value} has no exact form in RFC 8785 (beyond ±2**53)")
        return value
    if isinstance(value, float):  # a `JsonNumber` too: RFC 8785 takes the double its text spells
        return float(value)
    if isinstance(value, dict):
        return {k: _doubles(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_doubles(v) for v in value]
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _why(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if "Integer exceeds" in text or "53-bit" in text:
        return "an integer beyond ±2**53 has no exact form in RFC 8785 (JSON numbers are doubles there)"
    return text


def digest(model: ToolCall | Request | ToolCallResult) -> bytes:
    """SHA-256 of the canonical JSON (RFC 8785) of a wire element; `NotJSON` when it has none."""
    return _sha256(canonical(model.to_wire())).digest()


def _b64(mac: bytes) -> str:
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode("ascii")


@dataclass(frozen=True, slots=True)
class Stamp:
    """What a seal says in the clear: its key id, expiry (ms) and principal tag."""

    key_id: str
    expires: int | None
    principal_tag: str


def parse_stamp(seal: str) -> Stamp | None:
    """The clear parts of a seal, or None when `seal` is not one of version 4."""
    match = _STAMPED.fullmatch(seal)
    if match is None:
        return None
    kid, expires, tag, _ = match.groups()  # the mac is checked whole, by `same`
    return Stamp(kid, int(expires) if expires else None, tag)


class SealKey:
    """One toolkit key, with its id and the subkeys of the terms derived from it."""

    __slots__ = ("_principal_key", "_results_key", "_secret", "_waiting_key", "key_id")

    def __init__(self, secret: bytes, key_id: str = "default") -> None:
        self._secret = secret
        self.key_id = key_id
        self._results_key = hmac.new(secret, b"toolnexus.RunResult.seal.v4.results", "sha256").digest()
        self._waiting_key = hmac.new(secret, b"toolnexus.RunResult.seal.v4.waiting", "sha256").digest()
        self._principal_key = hmac.new(secret, b"toolnexus.RunResult.seal.v4.principal", "sha256").digest()

    def term(self, position: int, element: bytes) -> int:
        """The summand of a finished result at `position` in call order, digest `element`."""
        mac = hmac.new(self._results_key, position.to_bytes(8, "big") + element, "sha256").digest()
        return int.from_bytes(mac, "big")

    def waiting_term(self, position: int, call: bytes, request: bytes) -> int:
        """The summand of a waiting call at `position`, digest `call`, asked `request` (digest)."""
        mac = hmac.new(self._waiting_key, position.to_bytes(8, "big") + call + request, "sha256").digest()
        return int.from_bytes(mac, "big")

    def principal_tag(self, principal: str | None) -> str:
        """The keyed digest of `principal` written into a seal; empty for None."""
        if principal is None:
            return ""
        raw = principal.encode("utf-8", "surrogatepass")
        return _b64(hmac.new(self._principal_key, raw, "sha256").digest()[:18])

    def seal_v4(
        self,
        *,
        expires: int | None,
        principal_tag: str,
        pending: bytes,
        order: bytes,
        n_results: int,
        results: int,
        n_waiting: int,
        waiting: int,
    ) -> str:
        """The seal: the clear part, then an HMAC-SHA256 over the domain, the clear part and the
        run's terms (docs/seal.md)."""
        clear = f"{self.key_id}.{'' if expires is None else expires}.{principal_tag}"
        body = b"".join(
            (
                _V4_DOMAIN,
                clear.encode("ascii"),
                b"\npending\n",
                pending,
                order,
                n_results.to_bytes(8, "big"),
                results.to_bytes(32, "big"),
                n_waiting.to_bytes(8, "big"),
                waiting.to_bytes(32, "big"),
            )
        )
        return f"{V4_PREFIX}{clear}.{_b64(hmac.new(self._secret, body, 'sha256').digest())}"


#: The fewest bytes a toolkit key may have.
MIN_SECRET_BYTES = 16


def key_set(
    secret: bytes | None, secrets_: Mapping[str, bytes] | None, active_key: str | None
) -> tuple[dict[str, SealKey], SealKey | None]:
    """The toolkit's keys by id and the active one, from `Toolkit`'s arguments; `ValueError`
    or `TypeError` for arguments that do not make a key set."""
    if secret is not None and secrets_ is not None:
        raise UsageError("give either secret= (one key) or secrets= (keys by id), not both")
    if secret is not None:
        if active_key is not None:
            raise UsageError("active_key names one of secrets=; with secret= there is one key")
        secrets_ = {"default": secret}
        active_key = "default"
    if secrets_ is None:
        if active_key is not None:
            raise UsageError("active_key names one of secrets=, and no secrets were given")
        return {}, None
    if not isinstance(secrets_, Mapping) or not secrets_:
        raise UsageError("secrets must be a non-empty dict of key id to key bytes")
    keys: dict[str, SealKey] = {}
    for key_id, key in secrets_.items():
        if not isinstance(key_id, str) or not KEY_ID.fullmatch(key_id):
            raise UsageError(f"a key id must be 1 to 64 of [A-Za-z0-9_-], got {key_id!r}")
        if not isinstance(key, bytes) or len(key) < MIN_SECRET_BYTES:
            raise UsageError(f"secret must be bytes, at least {MIN_SECRET_BYTES} of them (key {key_id!r})")
        keys[key_id] = SealKey(key, key_id)
    if active_key is None:
        if len(keys) > 1:
            raise UsageError(f"active_key must name the key that seals new runs, one of {sorted(keys)}")
        active_key = next(iter(keys))
    if active_key not in keys:
        raise UsageError(f"active_key {active_key!r} is not one of the secrets' ids {sorted(keys)}")
    return keys, keys[active_key]


def add(total: int, term: int) -> int:
    return (total + term) % _MOD


def sub(total: int, term: int) -> int:
    return (total - term) % _MOD


def same(given: str, expected: str) -> bool:
    """A constant-time comparison of two seals; False for one that is not ASCII."""
    try:
        return hmac.compare_digest(given.encode("ascii"), expected.encode("ascii"))
    except UnicodeEncodeError:
        return False


# -- a turn: what identifies it, and the terms its pending runs are sealed with -----------------


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
            call_digest, request_digest = digests or (digest(call), digest(request))
            pair = (call.id, request.id)
            if term is None:
                term = self.key.waiting_term(self.position(call.id), call_digest, request_digest)
            self.terms[pair] = term
            self.digests[pair] = request_digest
        self.asked.setdefault(request.id, []).append(call.id)

    def index_of(self, run: RunResult, call_id: str) -> int | None:
        """Where `call_id` waits in `run.calls` (which are in call order), or None."""
        calls = run.calls
        place = self.position(call_id)
        i = bisect.bisect_left(calls, place, key=lambda c: self.position(c.id))
        if i < len(calls) and calls[i].id == call_id:
            return i
        for j, call in enumerate(calls):  # calls not in call order (a run from an older version)
            if call.id == call_id:
                return j
        return None


def turn_of(order: list[str], tid: str, key: SealKey | None) -> Turn:
    """A fresh `Turn` of the calls `order` with the id `tid`, sealed under `key`."""
    turn = Turn(order, {call_id: i for i, call_id in enumerate(order)}, turn_digest(order, tid), key, tid)
    if key is not None:
        turn.order_digest = _order_digest(tid, order)
    return turn


def _order_digest(turn_id: str, order: list[str]) -> bytes:
    """What the seal holds of a run's `order` and `turn`."""
    return _sha256(canonical([turn_id, order] if turn_id else order)).digest()


# -- checking the seal of a run from outside ---------------------------------------------------


class SealBroken(ValueError):
    """A run's seal does not hold (missing, altered, forged, of a retired version, or under a
    key the toolkit does not have); the message says which. `_book` refuses the run with it."""


@dataclass(slots=True, eq=False)
class Checked:
    """What a seal that holds gives: the key it was made with, its expiry and principal tag,
    the digests of the run's results, calls and requests, its keyed sums and each waiting
    call's term (which hold as they are while that key is the active one)."""

    key: SealKey
    expires: int | None
    principal_tag: str
    result_digests: list[bytes]
    call_digests: list[bytes]
    request_digests: list[bytes]
    results_total: int
    waiting_total: int
    waiting_terms: list[int]


def check(keys: Mapping[str, SealKey], run: RunResult, turn: Turn) -> Checked:
    """What `run`'s seal holds, once it holds (positions by `turn`); `SealBroken` when it does
    not, `NotJSON` when the run holds a value without a canonical form."""
    given = run.seal
    if given is None:
        raise SealBroken("the run has no seal; this toolkit only resumes runs it sealed")
    stamp = parse_stamp(given)
    if stamp is None:
        version = next((v for prefix, v in _RETIRED.items() if given.startswith(prefix)), None)
        if version is not None:
            raise SealBroken(
                f"the run is sealed by seal version {version}, which no released package wrote and "
                "this version no longer reads: run the turn again"
            )
        if given.startswith(V4_PREFIX):
            raise SealBroken("the run's seal is malformed: it was altered or not sealed here")
        raise SealBroken("the run's seal does not match: it was altered or not sealed here")
    if len(run.requests) != len(run.calls):  # (a run stored before `requests`: never version 4)
        raise SealBroken("the run's seal does not match: it was altered or not sealed here")
    key = keys.get(stamp.key_id)
    if key is None:
        raise SealBroken(f"the run is sealed under key {stamp.key_id!r}, which this toolkit does not have")
    results = [digest(item) for item in run.results]
    call_digests = [digest(c) for c in run.calls]
    request_digests = [digest(r) for r in run.requests]
    results_total = waiting_total = 0
    for item, d in zip(run.results, results, strict=True):
        results_total = add(results_total, key.term(turn.position(item.id), d))
    terms = [
        key.waiting_term(turn.position(call.id), c, r)
        for call, c, r in zip(run.calls, call_digests, request_digests, strict=True)
    ]
    for term in terms:
        waiting_total = add(waiting_total, term)
    expected = key.seal_v4(
        expires=stamp.expires,
        principal_tag=stamp.principal_tag,
        pending=digest(run.pending) if run.pending is not None else NO_PENDING,
        order=_order_digest(run.turn, run.order),
        n_results=len(results),
        results=results_total,
        n_waiting=len(call_digests),
        waiting=waiting_total,
    )
    if not same(given, expected):
        raise SealBroken("the run's seal does not match: it was altered or not sealed here")
    return Checked(
        key, stamp.expires, stamp.principal_tag, results, call_digests, request_digests,
        results_total, waiting_total, terms,
    )  # fmt: skip
