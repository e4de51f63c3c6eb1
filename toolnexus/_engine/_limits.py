"""Results that fit the model (rule 12 of the package's docstring): the cut of a call's output to
its `Limit` (`toolnexus._limit`) that keeps its head and tail, with the marker the model reads in
the gap, and the reference the whole output is kept under. Pure: the host keeps the whole output
(`toolnexus.ResultSpill`, applied by `toolnexus._spill.ResultLimits`).

The rule, pinned by the loop vectors covering `result limits` (`idl/loop/`, the format in its README):

- A limit counts **chars** (code points), **bytes** (UTF-8) and **tokens** (by default the
  estimate `ceil(utf8 bytes / 4)`, so a token limit `n` is a byte limit `4n`; a host may pass a
  tokenizer). The limit of a call is the tighter, unit by unit, of its tool's and its toolkit's.
- An output within every unit of the limit is left as it is. A longer one becomes
  `head + marker + tail`, where the marker is `"\\n[… N characters cut …]\\n"` (with a kept
  reference: `"\\n[… N characters cut; the whole result is kept as \\"REF\\" …]\\n"`), N the
  code points cut. The budget is the limit less the marker written with N = the output's whole
  length; the head takes at most half of it (rounded down, in each unit), the tail the rest.
- The head is the longest prefix within its budget; when the part of it that ends with its last
  line break is at least half of it (in code points), the head ends there instead. The tail is
  the longest suffix within its budget; when the part of it that starts at a line start is at
  least half of it, the tail starts there instead. Both are whole code points: never inside a
  UTF-8 sequence.
- `structured_content` is never cut; when its JSON text is over the limit, the result's
  `metadata["truncated"]["structuredContent"]` gives its sizes.
- A suspension (a result holding `metadata["pending"]`) is never cut: its prompt is the question.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolnexus_wire import dumps

from .._limit import REF_PREFIX, Limit, Tokenizer, marker, utf8_length
from .._result import ToolResult

__all__ = ["fit", "result_ref", "sizes"]


def result_ref(idempotency_key: str) -> str:
    """The reference a call's whole output is kept under: `result-` and 16 hex digits of its
    idempotency key (`idk-` and 32 hex digits), so every language names it alike."""
    return REF_PREFIX + idempotency_key.removeprefix("idk-")[:16]


class _Text:
    """A text and its UTF-8 form, made once (None for ASCII, a byte a code point)."""

    __slots__ = ("encoded", "n", "raw", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.encoded = None if text.isascii() else text.encode("utf-8", "surrogatepass")
        self.raw = self.n if self.encoded is None else len(self.encoded)


def sizes(text: str | _Text, tokenizer: Tokenizer | None = None) -> dict[str, int]:
    """`text`'s size in every unit."""
    t = text if isinstance(text, _Text) else _Text(text)
    tokens = tokenizer(t.text) if tokenizer is not None else -(-t.raw // 4)
    return {"chars": t.n, "bytes": t.raw, "tokens": tokens}


def _within(t: _Text, limit: Limit, tokenizer: Tokenizer | None) -> bool:
    if limit.chars is not None and t.n > limit.chars:
        return False
    cap = _byte_cap(limit, tokenizer)
    if cap is not None and t.raw > cap:
        return False
    return tokenizer is None or limit.tokens is None or tokenizer(t.text) <= limit.tokens


def _sure(text: str, limit: Limit, tokenizer: Tokenizer | None) -> bool:
    """Whether `text` fits `limit` by its length alone (four bytes at most a code point)."""
    return len(text) <= limit.sure and (tokenizer is None or limit.tokens is None)


def _byte_cap(limit: Limit, tokenizer: Tokenizer | None, budget: int | None = None) -> int | None:
    """The bytes a cut may keep: the byte limit, four per token under the estimate (no
    `tokenizer`), and `budget`."""
    caps = [c for c in (limit.bytes, budget) if c is not None]
    if limit.tokens is not None and tokenizer is None:
        caps.append(4 * limit.tokens)
    return min(caps) if caps else None


@dataclass(frozen=True, slots=True)
class _Cut:
    output: str
    kept: list[list[int]]


def _cut(t: _Text, chars: int | None, byte_cap: int | None, ref: str | None) -> _Cut:
    """`t` cut to `chars` code points and `byte_cap` bytes (None: no bound), marker included."""
    text, n = t.text, t.n
    widest = marker(n, ref)
    room_c = None if chars is None else max(chars - len(widest), 0)
    room_b = None if byte_cap is None else max(byte_cap - utf8_length(widest), 0)
    encoded = t.encoded if byte_cap is not None else None
    head = _head(text, encoded, _half(room_c), _half(room_b))
    head_bytes = utf8_length(head) if room_b is not None else 0
    tail = _tail(
        text,
        encoded,
        None if room_c is None else room_c - len(head),
        None if room_b is None else room_b - head_bytes,
        len(head),
    )
    cut = n - len(head) - len(tail)
    return _Cut(head + marker(cut, ref) + tail, [[0, len(head)], [n - len(tail), n]])


def _half(room: int | None) -> int | None:
    return None if room is None else room // 2


def _head(text: str, encoded: bytes | None, chars: int | None, byte_cap: int | None) -> str:
    """The longest prefix within both bounds, ended at its last line break when that keeps at
    least half of it."""
    end = len(text) if chars is None else min(chars, len(text))
    if byte_cap is not None:
        end = min(end, _chars_within(text, encoded, byte_cap, from_end=False))
    line = text.rfind("\n", 0, end) + 1
    return text[: line if 2 * line >= end else end]


def _tail(text: str, encoded: bytes | None, chars: int | None, byte_cap: int | None, floor: int) -> str:
    """The longest suffix within both bounds (and after the head, which ends at `floor`), started
    at a line start when that keeps at least half of it."""
    n = len(text)
    start = floor if chars is None else max(n - chars, floor)
    if byte_cap is not None:
        start = max(start, n - _chars_within(text, encoded, byte_cap, from_end=True))
    length = n - start
    if start > 0 and text[start - 1] != "\n":
        found = text.find("\n", start)
        if found != -1 and 2 * (n - found - 1) >= length:
            start = found + 1
    return text[start:]


def _chars_within(text: str, encoded: bytes | None, byte_cap: int, *, from_end: bool) -> int:
    """How many code points of `text`'s head (or tail) fit in `byte_cap` UTF-8 bytes."""
    if encoded is None:  # ASCII: a byte a code point
        return min(byte_cap, len(text))
    if byte_cap >= len(encoded):
        return len(text)
    if not from_end:
        end = byte_cap
        while end > 0 and encoded[end] & 0xC0 == 0x80:  # back off a continuation byte
            end -= 1
        return len(encoded[:end].decode("utf-8", "surrogatepass"))
    start = len(encoded) - byte_cap
    while start < len(encoded) and encoded[start] & 0xC0 == 0x80:
        start += 1
    return len(encoded[start:].decode("utf-8", "surrogatepass"))


def _cut_to_tokens(t: _Text, limit: Limit, ref: str | None, tokenizer: Tokenizer) -> _Cut:
    """The cut under a host's tokenizer: a byte budget from the text's own bytes per token,
    narrowed until the tokenizer counts the result within the limit."""
    assert limit.tokens is not None
    whole = max(tokenizer(t.text), 1)
    budget = max(limit.tokens * t.raw // whole, 1)
    for _ in range(16):
        done = _cut(t, limit.chars, _byte_cap(limit, tokenizer, budget), ref)
        counted = tokenizer(done.output)
        if counted <= limit.tokens or budget <= 1:
            return done
        budget = max(budget * limit.tokens // counted - 1, 1)
    return done


def fit(
    result: ToolResult, limit: Limit | None, ref: str | None = None, tokenizer: Tokenizer | None = None
) -> tuple[ToolResult, bool]:
    """`result` fitted to `limit`, and whether its output was cut (the host then keeps the whole
    output under `ref`; None: nothing is kept, and the marker names no reference). A result
    within the limit is returned as it is."""
    if limit is None or (result.metadata and "pending" in result.metadata):
        return result, False
    output, structured = result.output, result.structured_content
    if structured is None and _sure(output, limit, tokenizer):  # the common case: nothing to count
        return result, False
    whole = _Text(output)
    over_output = not _sure(output, limit, tokenizer) and not _within(whole, limit, tokenizer)
    shown = None if structured is None else _Text(dumps(structured))
    over_structured = shown is not None and not _within(shown, limit, tokenizer)
    if not over_output and not over_structured:
        return result, False
    marker: dict[str, Any] = {"limit": limit.to_wire()}
    fitted = result
    if over_output:
        if tokenizer is not None and limit.tokens is not None:
            done = _cut_to_tokens(whole, limit, ref, tokenizer)
        else:
            done = _cut(whole, limit.chars, _byte_cap(limit, None), ref)
        marker["size"] = sizes(whole, tokenizer)
        marker["kept"] = done.kept
        if ref is not None:
            marker["ref"] = ref
        fitted = result.model_copy(update={"output": done.output})
    if shown is not None and over_structured:
        marker["structuredContent"] = sizes(shown, tokenizer)
    return fitted.with_metadata({**(result.metadata or {}), "truncated": marker}), over_output
