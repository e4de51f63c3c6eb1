"""The seal of a pending `RunResult`, built so that resuming a run costs the same at every step.

A seal is `v2.hmac-sha256.` and the unpadded base64url HMAC-SHA256, under the toolkit's
secret, of a fixed layout of digests: the run's status, its pending request, its `order`, its
finished `results`, and its waiting `calls` and `requests`. Each element is digested once, as
its canonical JSON (keys sorted, compact, UTF-8): SHA-256.

- `calls` and `requests` are hash chains from the tail (`c[i] = H(d(calls[i]) + c[i+1])`):
  the run after a resume waits on a suffix of the same calls, whose chain value is known.
- `results` are summed (mod 2**256) as keyed BLAKE2b terms of each result with its position in
  `order`: the result a resume adds is one more term, wherever it lands in call order. The
  terms are keyed (a subkey of the secret), so no one without the secret can compute one, and
  the order of the list, which the sum does not see, is checked on its own.

A run the toolkit itself returned and that comes back as the same object is continued from
the digests kept for it; any other run (parsed from storage, or an object not returned here)
is digested in full. Seals of version 1 (one HMAC over the whole canonical run; resuming costs
time in proportion to the run each step) are still verified.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Sequence
from typing import Any

from toolnexus_wire import dumps

from ._result import Request, RunResult, ToolCall, ToolCallResult

__all__ = ["NotJSON", "SealKey", "chain", "digest", "seal_v1"]

V1_PREFIX = "v1.hmac-sha256."
V2_PREFIX = "v2.hmac-sha256."
_V1_DOMAIN = b"toolnexus.RunResult.seal.v1\n"
_V2_DOMAIN = b"toolnexus.RunResult.seal.v2\n"
_V1_KEYS = ("status", "results", "pending", "calls", "order")
_MOD = 1 << 256
_sha256 = hashlib.sha256
CALLS_END = _sha256(b"toolnexus.RunResult.seal.v2.calls.end").digest()
REQUESTS_END = _sha256(b"toolnexus.RunResult.seal.v2.requests.end").digest()
NO_PENDING = _sha256(b"toolnexus.RunResult.seal.v2.no-pending").digest()


class NotJSON(ValueError):
    """A value that has no canonical JSON form (NaN, a set, a key that is not a string,
    a lone surrogate...), so it cannot be sealed or stored."""


def canonical(value: Any) -> bytes:
    """The canonical JSON of `value` (keys sorted, compact, UTF-8); `NotJSON` when it has none."""
    try:
        return dumps(value, sort_keys=True).encode("utf-8")
    except (ValueError, TypeError, RecursionError, UnicodeEncodeError) as exc:
        raise NotJSON(str(exc) or type(exc).__name__) from None


def digest(model: ToolCall | Request | ToolCallResult) -> bytes:
    """SHA-256 of the canonical JSON of a wire element; `NotJSON` when it has none."""
    return _sha256(canonical(model.to_wire())).digest()


def chain(digests: Sequence[bytes], end: bytes) -> list[bytes]:
    """`out[i]` = H(digests[i] + out[i+1]), `out[len]` = `end`: the value of every suffix."""
    out = [end] * (len(digests) + 1)
    for i in range(len(digests) - 1, -1, -1):
        out[i] = _sha256(digests[i] + out[i + 1]).digest()
    return out


def _b64(mac: bytes) -> str:
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode("ascii")


class SealKey:
    """The toolkit's secret, and the subkey of the result terms derived from it."""

    __slots__ = ("_results_key", "_secret")

    def __init__(self, secret: bytes) -> None:
        self._secret = secret
        self._results_key = hmac.new(secret, b"toolnexus.RunResult.seal.v2.results", "sha256").digest()

    def term(self, position: int, element: bytes) -> int:
        """The summand of a finished result at `position` in call order, digest `element`."""
        mac = hashlib.blake2b(
            position.to_bytes(8, "big") + element, key=self._results_key, digest_size=32
        ).digest()
        return int.from_bytes(mac, "big")

    def seal(
        self, status: str, pending: bytes, order: bytes, results: int, calls: bytes, requests: bytes
    ) -> str:
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
        body = canonical(sealed)
        return V1_PREFIX + _b64(hmac.new(self._secret, _V1_DOMAIN + body, "sha256").digest())


def add(total: int, term: int) -> int:
    return (total + term) % _MOD


def same(given: str, expected: str) -> bool:
    """A constant-time comparison of two seals; False for one that is not ASCII."""
    try:
        return hmac.compare_digest(given.encode("ascii"), expected.encode("ascii"))
    except UnicodeEncodeError:
        return False


def seal_v1(key: SealKey, run: RunResult) -> str:
    return key.seal_v1(run)
