"""The peers `bench.py` measures toolnexus against, and the payloads they all carry.

- `msgspec` Structs with camelCase keys and omitted defaults: the speed ceiling.
- The MCP SDK's `CallToolResult` (package `mcp-types`): what users pick instead.
- A hand-written dataclass with `to_wire` and the standard `json` module: how
  the contract's existing Python port does it.
- A hand-written pydantic model with the same fields and orjson: what a pydantic user
  writes by hand (`model_dump(by_alias=True, exclude_none=True)` and `orjson.dumps`;
  `orjson.loads` and `model_validate`), without the wire's rules.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec
import orjson
from mcp_types import CallToolResult, ImageContent, TextContent
from pydantic import BaseModel, ConfigDict, Field

import toolnexus

__all__ = ["PAYLOADS", "WORST_CASES", "RoundTrips", "mcp_form", "payload"]


# --- msgspec -------------------------------------------------------------------------------------


class MsContentPart(msgspec.Struct, rename="camel", omit_defaults=True):
    kind: Literal["text", "image", "audio", "file"] = msgspec.field(name="type")  # wire 2.0
    mime_type: str
    data: str
    name: str | None = None


class MsToolResult(msgspec.Struct, rename="camel", omit_defaults=True):
    output: str
    is_error: bool = msgspec.field(default=False)
    parts: list[MsContentPart] = msgspec.field(default_factory=list)
    metadata: dict[str, Any] | None = None


# --- the hand-written dataclass port -------------------------------------------------------------


@dataclass
class DcContentPart:
    kind: str
    mime_type: str
    data: str
    name: str | None = None

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind, "mimeType": self.mime_type, "data": self.data}
        if self.name is not None:
            out["name"] = self.name
        return out

    @classmethod
    def from_wire(cls, obj: dict[str, Any]) -> DcContentPart:
        return cls(obj["type"], obj["mimeType"], obj["data"], obj.get("name"))


@dataclass
class DcToolResult:
    output: str
    is_error: bool = False
    parts: list[DcContentPart] = field(default_factory=list)
    metadata: dict[str, Any] | None = None

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"output": self.output, "isError": self.is_error}
        if self.parts:
            out["parts"] = [p.to_wire() for p in self.parts]
        if self.metadata is not None:
            out["metadata"] = self.metadata
        return out

    def to_json(self) -> bytes:
        return json.dumps(self.to_wire(), ensure_ascii=False, separators=(",", ":")).encode()

    @classmethod
    def from_wire(cls, obj: dict[str, Any]) -> DcToolResult:
        return cls(
            obj["output"],
            obj.get("isError", False),
            [DcContentPart.from_wire(p) for p in obj.get("parts", ())],
            obj.get("metadata"),
        )

    @classmethod
    def from_json(cls, data: bytes) -> DcToolResult:
        return cls.from_wire(json.loads(data))


# --- the hand-written pydantic model ------------------------------------------------------------


class PdContentPart(BaseModel):
    model_config = ConfigDict(validate_by_name=True, validate_by_alias=True, serialize_by_alias=True)

    kind: Literal["text", "image", "audio", "file"] = Field(alias="type")
    mime_type: str = Field(alias="mimeType")
    data: str
    name: str | None = None


class PdToolResult(BaseModel):
    model_config = ConfigDict(validate_by_name=True, validate_by_alias=True, serialize_by_alias=True)

    output: str
    is_error: bool = Field(default=False, alias="isError")
    parts: list[PdContentPart] = Field(default_factory=list)
    metadata: dict[str, Any] | None = None

    def to_json(self) -> bytes:
        return orjson.dumps(self.model_dump(by_alias=True, exclude_none=True))

    @classmethod
    def from_json(cls, data: bytes | str) -> PdToolResult:
        return cls.model_validate(orjson.loads(data))


# --- payloads ------------------------------------------------------------------------------------


def _text(n: int) -> str:
    """`n` characters of plain ASCII prose."""
    line = "The quick brown fox jumps over the lazy dog; 0123456789.\n"
    return (line * (n // len(line) + 1))[:n]


def payload(
    output_bytes: int = 1, parts: int = 0, part_bytes: int = 0, metadata: bool = False
) -> dict[str, Any]:
    """A wire document: `output_bytes` of output, `parts` image parts of `part_bytes` each,
    and (with `metadata`) five metadata keys, one of them a pending `Request`."""
    doc: dict[str, Any] = {"output": "4" if output_bytes == 1 else _text(output_bytes), "isError": False}
    if parts:
        data = base64.b64encode(bytes(range(256)) * (part_bytes // 256 + 1))[: (part_bytes + 2) // 3 * 4]
        doc["parts"] = [
            {"type": "image", "mimeType": "image/png", "data": data.decode(), "name": f"p{i}.png"}
            for i in range(parts)
        ]
    if metadata:
        doc["isError"] = True
        doc["metadata"] = {
            "exitCode": 2,
            "elapsedMs": 1234.5,
            "cwd": "/home/user/project",
            "tags": ["build", "ci", "retry"],
            "pending": {
                "id": "pnd-0123456789abcdef0123456789abcdef",
                "kind": "approval",
                "prompt": "Delete 3 files?",
                "expiresAt": "2030-01-01T00:00:00Z",
            },
        }
    return doc


#: The three payloads of the wire round trip rows.
PAYLOADS = {
    "small": payload(),
    "medium": payload(output_bytes=2048, metadata=True),
    "image": payload(parts=1, part_bytes=1024 * 1024),
}


class RoundTrips:
    """One round trip per implementation (encode to JSON, decode to the typed object) for a wire doc."""

    def __init__(self, doc: dict[str, Any]) -> None:
        wire_bytes = json.dumps(doc, separators=(",", ":")).encode()
        self.ours = toolnexus.ToolResult.from_json(wire_bytes)
        self.ms = msgspec.json.decode(wire_bytes, type=MsToolResult)
        self.dc = DcToolResult.from_json(wire_bytes)
        self.pd = PdToolResult.from_json(wire_bytes)
        self.mcp = CallToolResult(
            content=[TextContent(type="text", text=doc["output"])]
            + [
                ImageContent(type="image", data=p["data"], mime_type=p["mimeType"])
                for p in doc.get("parts", ())
            ],
            is_error=doc["isError"],
            _meta=doc.get("metadata"),
        )
        self._ms_enc = msgspec.json.Encoder()
        self._ms_dec = msgspec.json.Decoder(MsToolResult)
        for name in ("ours", "ms", "dc", "pd", "mcp"):  # each must give back what it was given
            assert getattr(self, name) == getattr(self, "rt_" + name)(), name
        assert self.ours.to_json().encode() == wire_bytes

    def rt_ours(self) -> Any:
        return toolnexus.ToolResult.from_json(self.ours.to_json())

    def rt_ms(self) -> Any:
        return self._ms_dec.decode(self._ms_enc.encode(self.ms))

    def rt_dc(self) -> Any:
        return DcToolResult.from_json(self.dc.to_json())

    def rt_pd(self) -> Any:
        return PdToolResult.from_json(self.pd.to_json())

    def rt_mcp(self) -> Any:
        return CallToolResult.model_validate_json(self.mcp.model_dump_json(by_alias=True, exclude_none=True))


def mcp_form(doc: dict[str, Any]) -> dict[str, Any]:
    """The content of the wire document `doc` as an MCP `CallToolResult` (its JSON form): the
    output as a text block, each part as an image block, metadata as `_meta`."""
    out: dict[str, Any] = {
        "content": [{"type": "text", "text": doc["output"]}]
        + [{"type": "image", "data": p["data"], "mimeType": p["mimeType"]} for p in doc.get("parts", ())],
        "isError": doc["isError"],
    }
    if "metadata" in doc:
        out["_meta"] = doc["metadata"]
    return out


# --- worst-case shapes ---------------------------------------------------------------------------


def _filled(head: str, item: str, size: int, tail: str, sep: str = ",") -> bytes:
    """`head`, then `item` repeated (separated by `sep`) until the text is about `size` bytes, then `tail`."""
    count = max(1, (size - len(head) - len(tail)) // (len(item) + len(sep)))
    return (head + sep.join([item] * count) + tail).encode()


def _floats(size: int) -> bytes:
    # Floats whose text Python's `repr` would write otherwise (`1.50` is `1.5`): each one is
    # kept with its own text (rule R6).
    items = ",".join(f"{i % 1000}.50" for i in range(size // 7))
    return f'{{"output":"x","metadata":{{"v":[{items}]}}}}'.encode()


def _deep(size: int) -> bytes:
    # Arrays nested as deep as the wire allows (level 1 is the document, 2 metadata, 3 "v"),
    # side by side.
    levels = 100 - 3
    return _filled('{"output":"x","metadata":{"v":[', "[" * levels + "]" * levels, size, "]}}")


def _empty_objects(size: int) -> bytes:
    return _filled('{"output":"x","metadata":{"v":[', "{}", size, "]}}")


def _pretty_keys(size: int) -> bytes:
    count = size // 24
    doc = {"output": "x", "metadata": {f"key{i:07d}": i for i in range(count)}}
    return json.dumps(doc, indent=2).encode()


def _escapes(size: int) -> bytes:
    item = json.dumps('"quoted"\n\ttabbed \\ back \u00e9\u4e2d\U0001f600 ctrl\x01', ensure_ascii=True)
    return _filled('{"output":"x","metadata":{"v":[', item, size, "]}}")


#: Documents of about `size` bytes that are hard on a reader of the wire rules, as the tool
#: result a model or an MCP server could send.
WORST_CASES = {
    "many floats written `1.50`": _floats,
    "100-deep arrays side by side": _deep,
    "many empty objects": _empty_objects,
    "pretty-printed keys": _pretty_keys,
    "escapes": _escapes,
}
