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
the terms kept for it; any other run (parsed from storage, or an object not returned here)
is digested in full. Version 3 (the same layout over Python's own canonical JSON, with keyed
BLAKE2b terms), version 2 (hash chains over the waiting calls: only the first could be
answered in constant time) and version 1 (one HMAC over the whole canonical run) are still
verified, in Python, and a run resumed from one is sealed as version 4. Versions 1 and 2 name
no key: they are checked against each of the toolkit's keys in turn.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
import rfc8785
from toolnexus_wire import dumps

from ._result import Request, RunResult, ToolCall, ToolCallResult

__all__ = [
    "CALLS_END",
    "KEY_ID",
    "NO_PENDING",
    "REQUESTS_END",
    "V1_PREFIX",
    "V2_PREFIX",
    "V3_PREFIX",
    "V4_PREFIX",
    "NotJSON",
    "SealKey",
    "Stamp",
    "add",
    "canonical",
    "canonical_v3",
    "chain",
    "digest",
    "digest_v3",
    "key_set",
    "parse_stamp",
    "same",
    "sub",
]

V1_PREFIX = "v1.hmac-sha256."
V2_PREFIX = "v2.hmac-sha256."
V3_PREFIX = "v3.hmac-sha256."
V4_PREFIX = "v4.hmac-sha256."
_V1_DOMAIN = b"toolnexus.RunResult.seal.v1\n"
_V2_DOMAIN = b"toolnexus.RunResult.seal.v2\n"
_V3_DOMAIN = b"toolnexus.RunResult.seal.v3\n"
_V4_DOMAIN = b"toolnexus.RunResult.seal.v4\n"
_SAFE = (1 << 53) - 1  # the largest integer a double holds exactly, and RFC 8785 writes
_V1_KEYS = ("status", "results", "pending", "calls", "order")
_MOD = 1 << 256
_sha256 = hashlib.sha256
CALLS_END = _sha256(b"toolnexus.RunResult.seal.v2.calls.end").digest()
REQUESTS_END = _sha256(b"toolnexus.RunResult.seal.v2.requests.end").digest()
NO_PENDING = _sha256(b"toolnexus.RunResult.seal.v2.no-pending").digest()
#: What a key id may hold: it is written into the seal between dots.
KEY_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_STAMPED = re.compile(
    r"v([34])\.hmac-sha256\.([A-Za-z0-9_-]{1,64})\.([0-9]{0,20})\.([A-Za-z0-9_-]{0,43})\.([A-Za-z0-9_-]{43})"
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


def canonical_v3(value: Any) -> bytes:
    """The canonical JSON of seal version 3 (Python's: keys sorted, compact, UTF-8)."""
    try:
        return dumps(value, sort_keys=True).encode("utf-8")
    except (ValueError, TypeError, RecursionError, UnicodeEncodeError) as exc:
        raise NotJSON(str(exc) or type(exc).__name__) from None


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


def digest_v3(model: ToolCall | Request | ToolCallResult) -> bytes:
    """SHA-256 of the canonical JSON of seal version 3 of a wire element."""
    return _sha256(canonical_v3(model.to_wire())).digest()


def chain(digests: Sequence[bytes], end: bytes) -> bytes:
    """The head of the hash chain of version 2: `c[i] = H(digests[i] + c[i+1])`, `c[len] = end`."""
    value = end
    for d in reversed(digests):
        value = _sha256(d + value).digest()
    return value


def _b64(mac: bytes) -> str:
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode("ascii")


@dataclass(frozen=True, slots=True)
class Stamp:
    """What a seal of version 3 or 4 says in the clear: its version, key id, expiry (ms) and
    principal tag."""

    version: int
    key_id: str
    expires: int | None
    principal_tag: str


def parse_stamp(seal: str) -> Stamp | None:
    """The clear parts of a seal of version 3 or 4, or None when `seal` is neither."""
    match = _STAMPED.fullmatch(seal)
    if match is None:
        return None
    version, kid, expires, tag, _ = match.groups()  # the mac is checked whole, by `same`
    return Stamp(int(version), kid, int(expires) if expires else None, tag)


class SealKey:
    """One toolkit key, with its id and the subkeys of the terms derived from it (version 4's,
    and version 3's to verify runs sealed by it)."""

    __slots__ = (
        "_principal_key",
        "_principal_key_v3",
        "_results_key",
        "_results_key_v3",
        "_secret",
        "_waiting_key",
        "_waiting_key_v3",
        "key_id",
    )

    def __init__(self, secret: bytes, key_id: str = "default") -> None:
        self._secret = secret
        self.key_id = key_id
        self._results_key = hmac.new(secret, b"toolnexus.RunResult.seal.v4.results", "sha256").digest()
        self._waiting_key = hmac.new(secret, b"toolnexus.RunResult.seal.v4.waiting", "sha256").digest()
        self._principal_key = hmac.new(secret, b"toolnexus.RunResult.seal.v4.principal", "sha256").digest()
        self._results_key_v3 = hmac.new(secret, b"toolnexus.RunResult.seal.v2.results", "sha256").digest()
        self._waiting_key_v3 = hmac.new(secret, b"toolnexus.RunResult.seal.v3.waiting", "sha256").digest()
        self._principal_key_v3 = hmac.new(secret, b"toolnexus.RunResult.seal.v3.principal", "sha256").digest()

    def term(self, position: int, element: bytes) -> int:
        """The summand of a finished result at `position` in call order, digest `element`."""
        mac = hmac.new(self._results_key, position.to_bytes(8, "big") + element, "sha256").digest()
        return int.from_bytes(mac, "big")

    def waiting_term(self, position: int, call: bytes, request: bytes) -> int:
        """The summand of a waiting call at `position`, digest `call`, asked `request` (digest)."""
        mac = hmac.new(self._waiting_key, position.to_bytes(8, "big") + call + request, "sha256").digest()
        return int.from_bytes(mac, "big")

    def principal_tag(self, principal: str | None, version: int = 4) -> str:
        """The keyed digest of `principal` written into a seal; empty for None."""
        if principal is None:
            return ""
        raw = principal.encode("utf-8", "surrogatepass")
        key = self._principal_key if version == 4 else self._principal_key_v3
        return _b64(hmac.new(key, raw, "sha256").digest()[:18])

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
        terms = (pending, order, n_results, results, n_waiting, waiting)
        return self._sealed(_V4_DOMAIN, V4_PREFIX, expires, principal_tag, *terms)

    def term_v3(self, position: int, element: bytes) -> int:
        """Version 3's summand of a finished result (keyed BLAKE2b)."""
        mac = hashlib.blake2b(
            position.to_bytes(8, "big") + element, key=self._results_key_v3, digest_size=32
        ).digest()
        return int.from_bytes(mac, "big")

    def waiting_term_v3(self, position: int, call: bytes, request: bytes) -> int:
        """Version 3's summand of a waiting call (keyed BLAKE2b)."""
        mac = hashlib.blake2b(
            position.to_bytes(8, "big") + call + request, key=self._waiting_key_v3, digest_size=32
        ).digest()
        return int.from_bytes(mac, "big")

    def seal_v3(
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
        """The version-3 seal, to verify runs sealed before version 4."""
        terms = (pending, order, n_results, results, n_waiting, waiting)
        return self._sealed(_V3_DOMAIN, V3_PREFIX, expires, principal_tag, *terms)

    def _sealed(
        self,
        domain: bytes,
        prefix: str,
        expires: int | None,
        principal_tag: str,
        pending: bytes,
        order: bytes,
        n_results: int,
        results: int,
        n_waiting: int,
        waiting: int,
    ) -> str:
        """The layout versions 3 and 4 share: the clear part, then an HMAC-SHA256 over the
        domain, the clear part and the run's terms (docs/seal.md)."""
        clear = f"{self.key_id}.{'' if expires is None else expires}.{principal_tag}"
        body = b"".join(
            (
                domain,
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
        return f"{prefix}{clear}.{_b64(hmac.new(self._secret, body, 'sha256').digest())}"

    def seal_v2(
        self, status: str, pending: bytes, order: bytes, results: int, calls: bytes, requests: bytes
    ) -> str:
        """The version-2 seal, for runs stored before version 3."""
        body = b"".join(
            (
                _V2_DOMAIN,
                status.encode("ascii"),
                b"\n",
                pending,
                order,
                results.to_bytes(32, "big"),
                calls,
                requests,
            )
        )
        return V2_PREFIX + _b64(hmac.new(self._secret, body, "sha256").digest())

    def seal_v1(self, run: RunResult) -> str:
        """The version-1 seal of `run`, for runs stored before version 2; `NotJSON` as `canonical`."""
        wire = run.to_wire()
        sealed = {key: wire.get(key) for key in _V1_KEYS}
        if "requests" in wire:  # only when present, so runs sealed before it existed still verify
            sealed["requests"] = wire["requests"]
        body = canonical_v3(sealed)
        return V1_PREFIX + _b64(hmac.new(self._secret, _V1_DOMAIN + body, "sha256").digest())


#: The fewest bytes a toolkit key may have.
MIN_SECRET_BYTES = 16


def key_set(
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
        if not isinstance(key_id, str) or not KEY_ID.fullmatch(key_id):
            raise ValueError(f"a key id must be 1 to 64 of [A-Za-z0-9_-], got {key_id!r}")
        if not isinstance(key, bytes) or len(key) < MIN_SECRET_BYTES:
            raise ValueError(f"secret must be bytes, at least {MIN_SECRET_BYTES} of them (key {key_id!r})")
        keys[key_id] = SealKey(key, key_id)
    if active_key is None:
        if len(keys) > 1:
            raise ValueError(f"active_key must name the key that seals new runs, one of {sorted(keys)}")
        active_key = next(iter(keys))
    if active_key not in keys:
        raise ValueError(f"active_key {active_key!r} is not one of the secrets' ids {sorted(keys)}")
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
