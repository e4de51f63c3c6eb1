"""What each target takes at most: the size, sides and number of parts in one tool result, and
which of `output` and `structured_content` goes to it. The numbers are `idl/adapters/limits.json`'s
(with the page each comes from; docs/guides/provider-limits.md), which `tests/adapters/test_adapter_limits.py`
checks this table against; TypeScript's `providerLimits` holds the same.

A part over a limit is not sent, to be refused by the provider with the whole request: the
adapter sends a note in its place that names the part, its size and the limit (`over_limit`).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from toolnexus_wire import dumps

from .._errors import UsageError
from .._result import ContentPart, ToolResult
from ._common import decoded_size

__all__ = [
    "PROVIDER_LIMITS",
    "PartGate",
    "PartLimit",
    "ProviderLimits",
    "Structured",
    "image_size",
    "model_text",
    "over_limit",
    "part_limits_of",
    "structured_of",
]

#: Which of a result's texts a target gets when the result has `structured_content`: `"text"`,
#: its `output`; `"structured"`, the structured content (as a JSON value where the target takes
#: one, else as JSON text); `"both"` (MCP only: a text block and `structuredContent`).
Structured = Literal["text", "structured", "both"]
_CHOICES = ("text", "structured", "both")


@dataclass(frozen=True)
class PartLimit:
    """The most a target takes of one kind of part in a tool result; None: not limited (the
    provider publishes no number). `bytes` counts the base64 characters of the part's `data`
    (what the request carries: 4/3 of its bytes), `pixels` an image's longer side (read from a
    PNG, JPEG, GIF or WebP header; another format is not measured), `count` the parts of the
    kind in one result. A part by URL is not measured: the provider fetches it."""

    bytes: int | None = None
    pixels: int | None = None
    count: int | None = None

    def __post_init__(self) -> None:
        for name in ("bytes", "pixels", "count"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise UsageError(f"PartLimit.{name} must be a positive integer or None, got {value!r}")


@dataclass(frozen=True)
class ProviderLimits:
    """A target's defaults: which of `output` and `structured_content` it gets (`structured`),
    its `PartLimit` per kind (`image`, `audio`, `file`), and what it documents for the text of a
    result (`text`: `chars`, `tokens` or `bytes`; applying it is `toolnexus.Limit`'s work)."""

    structured: Structured
    parts: Mapping[str, PartLimit] = field(default_factory=dict)
    text: Mapping[str, int] = field(default_factory=dict)


_NONE = PartLimit()

#: Each target's defaults, by the name the adapter vectors use (`idl/adapters/limits.json`).
PROVIDER_LIMITS: Mapping[str, ProviderLimits] = {
    "openai_chat": ProviderLimits(
        "text", {"image": PartLimit(bytes=20_000_000, count=500), "audio": _NONE, "file": _NONE}
    ),
    "openai_responses": ProviderLimits(
        "text", {"image": PartLimit(bytes=20_000_000, count=500), "audio": _NONE, "file": _NONE}
    ),
    "anthropic": ProviderLimits(
        "text",
        {
            "image": PartLimit(bytes=5_242_880, pixels=8000, count=100),
            "audio": _NONE,
            "file": PartLimit(bytes=33_554_432),
        },
    ),
    "gemini": ProviderLimits(
        "structured",
        {
            "image": PartLimit(bytes=100_000_000),
            "audio": PartLimit(bytes=100_000_000),
            "file": PartLimit(bytes=50_000_000),
        },
    ),
    "mcp": ProviderLimits("both", {"image": _NONE, "audio": _NONE, "file": _NONE}, {"tokens": 25_000}),
}


def structured_of(target: str, structured: Structured | None) -> Structured:
    """The choice an adapter makes: the host's `structured`, else the target's default. `"both"`
    is MCP's alone (a model provider gets one text); anything else is a `UsageError`."""
    if structured is None:
        return PROVIDER_LIMITS[target].structured
    if structured not in _CHOICES or (structured == "both" and target != "mcp"):
        allowed = "'text', 'structured' or 'both'" if target == "mcp" else "'text' or 'structured'"
        raise UsageError(f"structured must be {allowed} for {target}, got {structured!r}")
    return structured


def part_limits_of(target: str, part_limits: Mapping[str, PartLimit] | None) -> Mapping[str, PartLimit]:
    """The host's `part_limits` (a kind it leaves out is not limited), else the target's defaults."""
    if part_limits is None:
        return PROVIDER_LIMITS[target].parts
    for kind, limit in part_limits.items():
        if kind not in ("image", "audio", "file") or not isinstance(limit, PartLimit):
            raise UsageError(
                f"part_limits maps 'image', 'audio' or 'file' to a PartLimit, got {kind!r}: {limit!r}"
            )
    return part_limits


def model_text(result: ToolResult, choice: Structured) -> str:
    """The text a model reads for `result` under `choice`: its `output`, or, for `"structured"`
    when it has structured content, that content as compact JSON text."""
    if choice != "structured" or result.structured_content is None:
        return result.output
    return dumps(result.structured_content)


class PartGate:
    """Checks a result's inline parts, in order, against a target's limits, counting the parts of
    each kind it lets through (a count limit is on the parts sent)."""

    def __init__(self, target: str, limits: Mapping[str, PartLimit]) -> None:
        self.target = target
        self.limits = limits
        self.sent: dict[str, int] = {}

    def note(self, part: ContentPart) -> str | None:
        """The note to send in place of `part` when it is over a limit; None (and counted) to send it."""
        limit = self.limits.get(part.kind)
        if limit is None:
            return None
        note = over_limit(part, limit, self.sent.get(part.kind, 0), self.target)
        if note is None:
            self.sent[part.kind] = self.sent.get(part.kind, 0) + 1
        return note


def image_size(data: str) -> tuple[int, int] | None:
    """The width and height in a PNG, GIF, WebP or JPEG header at the start of base64 `data`;
    None for another format or a header that does not say."""
    try:
        # 64 KiB of bytes: a JPEG's frame header may come after its EXIF segment.
        head = base64.b64decode(data[:87_384], validate=False)
    except (binascii.Error, ValueError):
        return None
    if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR" and len(head) >= 24:
        return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    if head[:6] in (b"GIF87a", b"GIF89a") and len(head) >= 10:
        return int.from_bytes(head[6:8], "little"), int.from_bytes(head[8:10], "little")
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP" and len(head) >= 30:
        return _webp_size(head)
    if head[:2] == b"\xff\xd8":
        return _jpeg_size(head)
    return None


def _webp_size(head: bytes) -> tuple[int, int] | None:
    chunk = head[12:16]
    if chunk == b"VP8X":
        return 1 + int.from_bytes(head[24:27], "little"), 1 + int.from_bytes(head[27:30], "little")
    if chunk == b"VP8L" and head[20] == 0x2F:
        bits = int.from_bytes(head[21:25], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if chunk == b"VP8 " and head[23:26] == b"\x9d\x01\x2a":
        return int.from_bytes(head[26:28], "little") & 0x3FFF, int.from_bytes(head[28:30], "little") & 0x3FFF
    return None


def _jpeg_size(head: bytes) -> tuple[int, int] | None:
    """The size in a JPEG's first start-of-frame segment (SOF0 to SOF15 but DHT, JPG and DAC)."""
    at = 2
    while at + 9 <= len(head) and head[at] == 0xFF:
        marker, length = head[at + 1], int.from_bytes(head[at + 2 : at + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return int.from_bytes(head[at + 7 : at + 9], "big"), int.from_bytes(head[at + 5 : at + 7], "big")
        at += 2 + length
    return None


def over_limit(part: ContentPart, limit: PartLimit, seen: int, target: str) -> str | None:
    """The note that stands in for inline `part` when it is over `limit` (`seen`: the parts of
    its kind this result already sent), else None: what the part is, and which limit it is over."""
    kind, label = part.kind, f" {part.name!r}" if part.name else ""
    what = f"[{kind}{label} ({part.mime_type or 'no MIME type'}, {decoded_size(part)} bytes) not included:"
    over = f"over {target}'s limit of"
    if limit.count is not None and seen >= limit.count:
        return f"{what} {over} {limit.count} per tool result for {kind} parts]"
    if limit.bytes is not None and len(part.data) > limit.bytes:
        return f"{what} {len(part.data)} bytes as base64, {over} {limit.bytes} bytes for {kind} parts]"
    size = image_size(part.data) if limit.pixels is not None and kind == "image" else None
    if size is not None and limit.pixels is not None and max(size) > limit.pixels:
        return f"{what} {size[0]}x{size[1]} pixels, {over} {limit.pixels} pixels a side]"
    return None
