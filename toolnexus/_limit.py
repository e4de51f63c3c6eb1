"""`Limit`: how much of a call's output the model reads, in code points, tokens and bytes; the
marker a cut output holds, and the smallest limit that leaves room for it. The cut itself is the
engine's (`_engine._limits`); the rule and its vectors are in idl/loop/README.md, "Result limits".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from toolnexus_wire import loop_data as texts

from ._errors import UsageError

__all__ = ["CUT_FLOOR", "REF_PREFIX", "Limit", "Tokenizer", "estimate_tokens", "marker", "utf8_length"]

#: A host's token counter: the tokens a text takes (for example tiktoken's `len(enc.encode(s))`).
Tokenizer = Callable[[str], int]

#: The prefix of a kept result's reference; the rest is 16 hex digits of the call's idempotency key.
REF_PREFIX = "result-"
_UNITS = ("chars", "tokens", "bytes")


def estimate_tokens(text: str) -> int:
    """The documented token estimate: the UTF-8 bytes of `text` over four, rounded up."""
    return -(-utf8_length(text) // 4)


def utf8_length(text: str) -> int:
    """The UTF-8 bytes of `text` (a lone surrogate counts 3)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def marker(cut: int, ref: str | None) -> str:
    """The marker put where `cut` code points were cut, on a line of its own (naming `ref`, the
    reference the whole output is kept under, when there is one)."""
    text = texts.cut_kept(cut=str(cut), reference=ref) if ref is not None else texts.cut(cut=str(cut))
    return "\n" + text + "\n"


def _floor() -> dict[str, int]:
    """The most a marker may take, in each unit: written with a 20-digit count and a reference."""
    widest = marker(10**20 - 1, REF_PREFIX + "0" * 16)
    raw = utf8_length(widest)
    return {"chars": len(widest), "bytes": raw, "tokens": -(-raw // 4)}


#: The smallest limit in each unit: one below it would leave no room for the marker.
CUT_FLOOR: dict[str, int] = _floor()


@dataclass(frozen=True, slots=True)
class Limit:
    """How much of a call's output the model reads: at most `chars` code points, `tokens`
    tokens and `bytes` UTF-8 bytes (each optional; at least one). A bad limit (not a whole
    number above zero, or below the cut marker's own length, `CUT_FLOOR`) raises `UsageError`
    with the reason."""

    chars: int | None = None
    tokens: int | None = None
    bytes: int | None = None
    #: How many code points surely fit (four UTF-8 bytes at most each; by the token estimate).
    sure: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        given = [(unit, getattr(self, unit)) for unit in _UNITS if getattr(self, unit) is not None]
        if not given:
            raise UsageError(texts.limit_empty())
        for unit, value in given:
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise UsageError(texts.limit_not_positive(unit=unit, value=str(value)))
            if value < CUT_FLOOR[unit]:
                raise UsageError(
                    texts.limit_below_marker(unit=unit, value=str(value), floor=str(CUT_FLOOR[unit]))
                )
        bounds = [self.chars, None if self.bytes is None else self.bytes // 4, self.tokens]
        object.__setattr__(self, "sure", min(b for b in bounds if b is not None))

    def tighter(self, other: Limit | None) -> Limit:
        """The tighter of the two limits, unit by unit."""
        if other is None:
            return self
        picked = {}
        for unit in _UNITS:
            mine, theirs = getattr(self, unit), getattr(other, unit)
            picked[unit] = theirs if mine is None else mine if theirs is None else min(mine, theirs)
        return Limit(**picked)

    def to_wire(self) -> dict[str, int]:
        """The limit as JSON: the units it sets."""
        return {unit: getattr(self, unit) for unit in _UNITS if getattr(self, unit) is not None}

    @classmethod
    def of(cls, value: Limit | dict[str, Any] | None) -> Limit | None:
        """`value` as a `Limit` (a mapping of units is read as one); None stays None."""
        if value is None or isinstance(value, Limit):
            return value
        if isinstance(value, dict):
            unknown = set(value) - set(_UNITS)
            if unknown:
                raise UsageError(f"a result limit counts chars, tokens and bytes, not {sorted(unknown)}")
            return cls(**value)
        raise UsageError(f"limit must be a toolnexus.Limit, got {type(value).__name__}")
