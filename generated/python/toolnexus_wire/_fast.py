# Generated from idl/ (toolnexus schema 1.0.0, sha256 d106c0605c0b7741ba15055557e7193c5afe8392ed0e5add12ef0e6abed99f3f).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""Fast paths for `to_json` and `from_json`, written out field by field from the IDL.

`from_json` first parses with orjson and checks each field here with the same rules as
the pydantic model (strict types, enums, lengths and pydantic-core's own pattern
validators); on anything it is unsure of it returns None and the model's validator
decides, so errors and edge cases (big integers, deep nesting, `null`) are the model's.
`to_json` writes with orjson when every value is one it writes byte for byte as the
standard `json` module does, and with `json` otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

import orjson
from pydantic_core import SchemaValidator, core_schema

__all__ = ["DECODERS", "JSON_ENCODERS", "MISS", "decoder_for", "json_encoder_for", "register"]

Decoder = Callable[[Any], Any]
#: What `loads_sound` returns when the model's own parser must read the document.
MISS: Any = object()
_new = object.__new__
_set = object.__setattr__

#: The deepest a free-form value (metadata, unknown keys) may nest on the fast path;
#: deeper documents go to the model's validator, which owns the nesting limit.
FREE_DEPTH = 64
#: Floats the fast path passes through: 0 and |x| >= 1e-4 print the same in orjson and
#: `repr`; below 2**63 a float cannot be an integer orjson parsed as a float.
_FLOAT_MIN = 1e-4
_FLOAT_MAX = 9.2e18
_INT_MIN = -(2**63)
_INT_MAX = 2**64 - 1
_INF = float("inf")


def _plain(value: Any, depth: int) -> bool:
    """True when a dict or list `value` is JSON that orjson writes exactly as `json` does,
    no deeper than `depth`.

    Scalars are checked in the loop, and only containers recurse: most values are scalars.
    """
    if depth <= 0:
        return False
    if type(value) is dict:
        for k in value:
            if type(k) is not str:
                return False
        items = value.values()
    else:
        items = value
    for v in items:
        t = type(v)
        if t is str or t is bool or v is None:
            continue
        if t is int:
            if not _INT_MIN <= v <= _INT_MAX:
                return False
        elif t is float:
            if not (v == 0.0 or _FLOAT_MIN <= abs(v) < _INF):
                return False
        elif t is dict or t is list:
            if not _plain(v, depth - 1):
                return False
        else:
            return False
    return True


def _sound(value: Any, depth: int) -> bool:
    """True when a parsed dict or list `value` is what the model's JSON parser would give
    (no float that may have been a big integer), and no deeper than `depth`."""
    if depth <= 0:
        return False
    for v in value.values() if type(value) is dict else value:
        t = type(v)
        if t is float:
            if not abs(v) < _FLOAT_MAX:  # a bigger one may be an integer orjson made a float
                return False
        elif (t is dict or t is list) and not _sound(v, depth - 1):
            return False
    return True


def _pattern(pattern: str) -> Callable[[Any], bool]:
    """pydantic-core's check of `pattern`, the very one the model's field uses."""
    return SchemaValidator(core_schema.str_schema(pattern=pattern, strict=True)).isinstance_python


_BASE64_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _base64(value: str) -> bool:
    """The standard padded base64 pattern, checked without a regex: for a large part the
    regex costs more than parsing the JSON. A test pins it to pydantic-core's regex."""
    if len(value) % 4 or not value.isascii():
        return False
    rest = value.encode("ascii").translate(None, _BASE64_ALPHABET)  # what is not in the alphabet
    return not rest or (rest in (b"=", b"==") and value.endswith(rest.decode("ascii")))


_ContentPart_data = _base64
_Request_expires_at = _pattern(
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})$"
)
_ToolSpec_name = _pattern("^[A-Za-z0-9_-]+$")


def _make_ContentPart(cls: type[Any], nested: Callable[[str], Decoder | None]) -> Decoder | None:

    def decode(d: Any) -> Any:
        if type(d) is not dict:
            return None
        fields_set: set[str] = set()
        v = d.get("kind", MISS)
        if v is MISS:
            return None
        if type(v) is not str or v not in (
            "image",
            "audio",
            "video",
            "file",
        ):
            return None
        kind = v
        fields_set.add("kind")
        v = d.get("mimeType", MISS)
        if v is MISS:
            return None
        if type(v) is not str or len(v) < 1:
            return None
        mime_type = v
        fields_set.add("mime_type")
        v = d.get("data", MISS)
        if v is MISS:
            return None
        if type(v) is not str or not _ContentPart_data(v):
            return None
        data = v
        fields_set.add("data")
        v = d.get("name", MISS)
        if v is MISS:
            name: Any = None
        else:
            if type(v) is not str:
                return None
            name = v
            fields_set.add("name")
        values = {
            "kind": kind,
            "mime_type": mime_type,
            "data": data,
            "name": name,
        }
        if len(d) > len(fields_set):
            extra = {k: v for k, v in d.items() if k not in _KNOWN_ContentPart}
            if not _sound(extra, FREE_DEPTH):
                return None
            fields_set.update(extra)  # pydantic counts unknown keys as set fields too
        else:
            extra = {}
        obj = _new(cls)  # the four slots `model_construct` sets, without its overhead
        _set(obj, "__dict__", values)
        _set(obj, "__pydantic_fields_set__", fields_set)
        _set(obj, "__pydantic_extra__", extra)
        _set(obj, "__pydantic_private__", None)
        return obj

    return decode


_KNOWN_ContentPart = frozenset({"kind", "mimeType", "data", "name"})


def _make_Request(cls: type[Any], nested: Callable[[str], Decoder | None]) -> Decoder | None:

    def decode(d: Any) -> Any:
        if type(d) is not dict:
            return None
        fields_set: set[str] = set()
        v = d.get("id", MISS)
        if v is MISS:
            return None
        if type(v) is not str:
            return None
        id = v
        fields_set.add("id")
        v = d.get("kind", MISS)
        if v is MISS:
            return None
        if type(v) is not str or len(v) < 1:
            return None
        kind = v
        fields_set.add("kind")
        v = d.get("prompt", MISS)
        if v is MISS:
            return None
        if type(v) is not str:
            return None
        prompt = v
        fields_set.add("prompt")
        v = d.get("url", MISS)
        if v is MISS:
            url: Any = None
        else:
            if type(v) is not str:
                return None
            url = v
            fields_set.add("url")
        v = d.get("data", MISS)
        if v is MISS:
            data: Any = None
        else:
            if type(v) is not dict or not _sound(v, FREE_DEPTH):
                return None
            data = v
            fields_set.add("data")
        v = d.get("expiresAt", MISS)
        if v is MISS:
            expires_at: Any = None
        else:
            if type(v) is not str or not _Request_expires_at(v):
                return None
            expires_at = v
            fields_set.add("expires_at")
        values = {
            "id": id,
            "kind": kind,
            "prompt": prompt,
            "url": url,
            "data": data,
            "expires_at": expires_at,
        }
        if len(d) > len(fields_set):
            extra = {k: v for k, v in d.items() if k not in _KNOWN_Request}
            if not _sound(extra, FREE_DEPTH):
                return None
            fields_set.update(extra)  # pydantic counts unknown keys as set fields too
        else:
            extra = {}
        obj = _new(cls)  # the four slots `model_construct` sets, without its overhead
        _set(obj, "__dict__", values)
        _set(obj, "__pydantic_fields_set__", fields_set)
        _set(obj, "__pydantic_extra__", extra)
        _set(obj, "__pydantic_private__", None)
        return obj

    return decode


_KNOWN_Request = frozenset({"id", "kind", "prompt", "url", "data", "expiresAt"})


def _make_Answer(cls: type[Any], nested: Callable[[str], Decoder | None]) -> Decoder | None:

    def decode(d: Any) -> Any:
        if type(d) is not dict:
            return None
        fields_set: set[str] = set()
        v = d.get("id", MISS)
        if v is MISS:
            return None
        if type(v) is not str:
            return None
        id = v
        fields_set.add("id")
        v = d.get("ok", MISS)
        if v is MISS:
            return None
        if type(v) is not bool:
            return None
        ok = v
        fields_set.add("ok")
        v = d.get("data", MISS)
        if v is MISS:
            data: Any = None
        else:
            if type(v) is not dict or not _sound(v, FREE_DEPTH):
                return None
            data = v
            fields_set.add("data")
        v = d.get("reason", MISS)
        if v is MISS:
            reason: Any = None
        else:
            if type(v) is not str or v not in (
                "declined",
                "cancelled",
                "expired",
            ):
                return None
            reason = v
            fields_set.add("reason")
        values = {
            "id": id,
            "ok": ok,
            "data": data,
            "reason": reason,
        }
        if len(d) > len(fields_set):
            extra = {k: v for k, v in d.items() if k not in _KNOWN_Answer}
            if not _sound(extra, FREE_DEPTH):
                return None
            fields_set.update(extra)  # pydantic counts unknown keys as set fields too
        else:
            extra = {}
        obj = _new(cls)  # the four slots `model_construct` sets, without its overhead
        _set(obj, "__dict__", values)
        _set(obj, "__pydantic_fields_set__", fields_set)
        _set(obj, "__pydantic_extra__", extra)
        _set(obj, "__pydantic_private__", None)
        return obj

    return decode


_KNOWN_Answer = frozenset({"id", "ok", "data", "reason"})


def _make_ToolResult(cls: type[Any], nested: Callable[[str], Decoder | None]) -> Decoder | None:
    decode_parts = nested("parts")
    if decode_parts is None:
        return None

    def decode(d: Any) -> Any:
        if type(d) is not dict:
            return None
        fields_set: set[str] = set()
        v = d.get("output", MISS)
        if v is MISS:
            return None
        if type(v) is not str:
            return None
        output = v
        fields_set.add("output")
        v = d.get("isError", MISS)
        if v is MISS:
            is_error: Any = False
        else:
            if type(v) is not bool:
                return None
            is_error = v
            fields_set.add("is_error")
        v = d.get("parts", MISS)
        if v is MISS:
            parts: Any = []
        else:
            if type(v) is not list:
                return None
            parts = []
            for item in v:
                item = decode_parts(item)
                if item is None:
                    return None
                parts.append(item)
            fields_set.add("parts")
        v = d.get("metadata", MISS)
        if v is MISS:
            metadata: Any = None
        else:
            if type(v) is not dict or not _sound(v, FREE_DEPTH):
                return None
            metadata = v
            fields_set.add("metadata")
        values = {
            "output": output,
            "is_error": is_error,
            "parts": parts,
            "metadata": metadata,
        }
        if len(d) > len(fields_set):
            extra = {k: v for k, v in d.items() if k not in _KNOWN_ToolResult}
            if not _sound(extra, FREE_DEPTH):
                return None
            fields_set.update(extra)  # pydantic counts unknown keys as set fields too
        else:
            extra = {}
        obj = _new(cls)  # the four slots `model_construct` sets, without its overhead
        _set(obj, "__dict__", values)
        _set(obj, "__pydantic_fields_set__", fields_set)
        _set(obj, "__pydantic_extra__", extra)
        _set(obj, "__pydantic_private__", None)
        return obj

    return decode


_KNOWN_ToolResult = frozenset({"output", "isError", "parts", "metadata"})


def _make_ToolSpec(cls: type[Any], nested: Callable[[str], Decoder | None]) -> Decoder | None:

    def decode(d: Any) -> Any:
        if type(d) is not dict:
            return None
        fields_set: set[str] = set()
        v = d.get("name", MISS)
        if v is MISS:
            return None
        if type(v) is not str or not _ToolSpec_name(v):
            return None
        name = v
        fields_set.add("name")
        v = d.get("description", MISS)
        if v is MISS:
            return None
        if type(v) is not str:
            return None
        description = v
        fields_set.add("description")
        v = d.get("inputSchema", MISS)
        if v is MISS:
            return None
        if type(v) is not dict or not _sound(v, FREE_DEPTH):
            return None
        input_schema = v
        fields_set.add("input_schema")
        v = d.get("source", MISS)
        if v is MISS:
            source: Any = None
        else:
            if type(v) is not str:
                return None
            source = v
            fields_set.add("source")
        values = {
            "name": name,
            "description": description,
            "input_schema": input_schema,
            "source": source,
        }
        if len(d) > len(fields_set):
            extra = {k: v for k, v in d.items() if k not in _KNOWN_ToolSpec}
            if not _sound(extra, FREE_DEPTH):
                return None
            fields_set.update(extra)  # pydantic counts unknown keys as set fields too
        else:
            extra = {}
        obj = _new(cls)  # the four slots `model_construct` sets, without its overhead
        _set(obj, "__dict__", values)
        _set(obj, "__pydantic_fields_set__", fields_set)
        _set(obj, "__pydantic_extra__", extra)
        _set(obj, "__pydantic_private__", None)
        return obj

    return decode


_KNOWN_ToolSpec = frozenset({"name", "description", "inputSchema", "source"})


def _make_ToolCall(cls: type[Any], nested: Callable[[str], Decoder | None]) -> Decoder | None:

    def decode(d: Any) -> Any:
        if type(d) is not dict:
            return None
        fields_set: set[str] = set()
        v = d.get("id", MISS)
        if v is MISS:
            return None
        if type(v) is not str:
            return None
        id = v
        fields_set.add("id")
        v = d.get("name", MISS)
        if v is MISS:
            return None
        if type(v) is not str:
            return None
        name = v
        fields_set.add("name")
        v = d.get("arguments", MISS)
        if v is MISS:
            return None
        if type(v) is not dict or not _sound(v, FREE_DEPTH):
            return None
        arguments = v
        fields_set.add("arguments")
        values = {
            "id": id,
            "name": name,
            "arguments": arguments,
        }
        if len(d) > len(fields_set):
            extra = {k: v for k, v in d.items() if k not in _KNOWN_ToolCall}
            if not _sound(extra, FREE_DEPTH):
                return None
            fields_set.update(extra)  # pydantic counts unknown keys as set fields too
        else:
            extra = {}
        obj = _new(cls)  # the four slots `model_construct` sets, without its overhead
        _set(obj, "__dict__", values)
        _set(obj, "__pydantic_fields_set__", fields_set)
        _set(obj, "__pydantic_extra__", extra)
        _set(obj, "__pydantic_private__", None)
        return obj

    return decode


_KNOWN_ToolCall = frozenset({"id", "name", "arguments"})


def _make_ToolCallResult(cls: type[Any], nested: Callable[[str], Decoder | None]) -> Decoder | None:
    decode_result = nested("result")
    if decode_result is None:
        return None

    def decode(d: Any) -> Any:
        if type(d) is not dict:
            return None
        fields_set: set[str] = set()
        v = d.get("id", MISS)
        if v is MISS:
            return None
        if type(v) is not str:
            return None
        id = v
        fields_set.add("id")
        v = d.get("name", MISS)
        if v is MISS:
            return None
        if type(v) is not str:
            return None
        name = v
        fields_set.add("name")
        v = d.get("result", MISS)
        if v is MISS:
            return None
        result = decode_result(v)
        if result is None:
            return None
        fields_set.add("result")
        values = {
            "id": id,
            "name": name,
            "result": result,
        }
        if len(d) > len(fields_set):
            extra = {k: v for k, v in d.items() if k not in _KNOWN_ToolCallResult}
            if not _sound(extra, FREE_DEPTH):
                return None
            fields_set.update(extra)  # pydantic counts unknown keys as set fields too
        else:
            extra = {}
        obj = _new(cls)  # the four slots `model_construct` sets, without its overhead
        _set(obj, "__dict__", values)
        _set(obj, "__pydantic_fields_set__", fields_set)
        _set(obj, "__pydantic_extra__", extra)
        _set(obj, "__pydantic_private__", None)
        return obj

    return decode


_KNOWN_ToolCallResult = frozenset({"id", "name", "result"})


def _make_RunResult(cls: type[Any], nested: Callable[[str], Decoder | None]) -> Decoder | None:
    decode_results = nested("results")
    if decode_results is None:
        return None
    decode_pending = nested("pending")
    if decode_pending is None:
        return None
    decode_calls = nested("calls")
    if decode_calls is None:
        return None
    decode_requests = nested("requests")
    if decode_requests is None:
        return None

    def decode(d: Any) -> Any:
        if type(d) is not dict:
            return None
        fields_set: set[str] = set()
        v = d.get("status", MISS)
        if v is MISS:
            return None
        if type(v) is not str or v not in (
            "done",
            "pending",
        ):
            return None
        status = v
        fields_set.add("status")
        v = d.get("results", MISS)
        if v is MISS:
            return None
        if type(v) is not list:
            return None
        results = []
        for item in v:
            item = decode_results(item)
            if item is None:
                return None
            results.append(item)
        fields_set.add("results")
        v = d.get("pending", MISS)
        if v is MISS:
            pending: Any = None
        else:
            pending = decode_pending(v)
            if pending is None:
                return None
            fields_set.add("pending")
        v = d.get("calls", MISS)
        if v is MISS:
            calls: Any = []
        else:
            if type(v) is not list:
                return None
            calls = []
            for item in v:
                item = decode_calls(item)
                if item is None:
                    return None
                calls.append(item)
            fields_set.add("calls")
        v = d.get("requests", MISS)
        if v is MISS:
            requests: Any = []
        else:
            if type(v) is not list:
                return None
            requests = []
            for item in v:
                item = decode_requests(item)
                if item is None:
                    return None
                requests.append(item)
            fields_set.add("requests")
        v = d.get("order", MISS)
        if v is MISS:
            order: Any = []
        else:
            if type(v) is not list:
                return None
            for item in v:
                if type(item) is not str:
                    return None
            order = v
            fields_set.add("order")
        v = d.get("seal", MISS)
        if v is MISS:
            seal: Any = None
        else:
            if type(v) is not str:
                return None
            seal = v
            fields_set.add("seal")
        values = {
            "status": status,
            "results": results,
            "pending": pending,
            "calls": calls,
            "requests": requests,
            "order": order,
            "seal": seal,
        }
        if len(d) > len(fields_set):
            extra = {k: v for k, v in d.items() if k not in _KNOWN_RunResult}
            if not _sound(extra, FREE_DEPTH):
                return None
            fields_set.update(extra)  # pydantic counts unknown keys as set fields too
        else:
            extra = {}
        obj = _new(cls)  # the four slots `model_construct` sets, without its overhead
        _set(obj, "__dict__", values)
        _set(obj, "__pydantic_fields_set__", fields_set)
        _set(obj, "__pydantic_extra__", extra)
        _set(obj, "__pydantic_private__", None)
        return obj

    return decode


_KNOWN_RunResult = frozenset({"status", "results", "pending", "calls", "requests", "order", "seal"})


def _json_ContentPart(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    v = m.kind
    if type(v) is not str:
        return None
    out["kind"] = v
    v = m.mime_type
    if type(v) is not str:
        return None
    out["mimeType"] = v
    v = m.data
    if type(v) is not str:
        return None
    out["data"] = v
    if m.name is not None:
        v = m.name
        if type(v) is not str:
            return None
        out["name"] = v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_Request(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    v = m.id
    if type(v) is not str:
        return None
    out["id"] = v
    v = m.kind
    if type(v) is not str:
        return None
    out["kind"] = v
    v = m.prompt
    if type(v) is not str:
        return None
    out["prompt"] = v
    if m.url is not None:
        v = m.url
        if type(v) is not str:
            return None
        out["url"] = v
    if m.data is not None:
        v = m.data
        if type(v) is not dict or not _plain(v, FREE_DEPTH):
            return None
        out["data"] = v
    if m.expires_at is not None:
        v = m.expires_at
        if type(v) is not str:
            return None
        out["expiresAt"] = v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_Answer(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    v = m.id
    if type(v) is not str:
        return None
    out["id"] = v
    v = m.ok
    if type(v) is not bool:
        return None
    out["ok"] = v
    if m.data is not None:
        v = m.data
        if type(v) is not dict or not _plain(v, FREE_DEPTH):
            return None
        out["data"] = v
    if m.reason is not None:
        v = m.reason
        if type(v) is not str:
            return None
        out["reason"] = v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_ToolResult(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    v = m.output
    if type(v) is not str:
        return None
    out["output"] = v
    v = m.is_error
    if type(v) is not bool:
        return None
    out["isError"] = v
    if m.parts:
        v = []
        for item in m.parts:
            item = _json_ContentPart(item)
            if item is None:
                return None
            v.append(item)
        out["parts"] = v
    if m.metadata is not None:
        v = m.metadata
        if type(v) is not dict or not _plain(v, FREE_DEPTH):
            return None
        out["metadata"] = v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_ToolSpec(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    v = m.name
    if type(v) is not str:
        return None
    out["name"] = v
    v = m.description
    if type(v) is not str:
        return None
    out["description"] = v
    v = m.input_schema
    if type(v) is not dict or not _plain(v, FREE_DEPTH):
        return None
    out["inputSchema"] = v
    if m.source is not None:
        v = m.source
        if type(v) is not str:
            return None
        out["source"] = v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_ToolCall(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    v = m.id
    if type(v) is not str:
        return None
    out["id"] = v
    v = m.name
    if type(v) is not str:
        return None
    out["name"] = v
    v = m.arguments
    if type(v) is not dict or not _plain(v, FREE_DEPTH):
        return None
    out["arguments"] = v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_ToolCallResult(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    v = m.id
    if type(v) is not str:
        return None
    out["id"] = v
    v = m.name
    if type(v) is not str:
        return None
    out["name"] = v
    v = _json_ToolResult(m.result)
    if v is None:
        return None
    out["result"] = v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_RunResult(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    v = m.status
    if type(v) is not str:
        return None
    out["status"] = v
    v = []
    for item in m.results:
        item = _json_ToolCallResult(item)
        if item is None:
            return None
        v.append(item)
    out["results"] = v
    if m.pending is not None:
        v = _json_Request(m.pending)
        if v is None:
            return None
        out["pending"] = v
    if m.calls:
        v = []
        for item in m.calls:
            item = _json_ToolCall(item)
            if item is None:
                return None
            v.append(item)
        out["calls"] = v
    if m.requests:
        v = []
        for item in m.requests:
            item = _json_Request(item)
            if item is None:
                return None
            v.append(item)
        out["requests"] = v
    if m.order:
        v = list(m.order)
        for item in v:
            if type(item) is not str:
                return None
        out["order"] = v
    if m.seal is not None:
        v = m.seal
        if type(v) is not str:
            return None
        out["seal"] = v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, FREE_DEPTH):
            return None
        out.update(extra)
    return out


#: Per generated model, its JSON-ready encoder (see `_json_ToolResult`).
_JSON: dict[str, Callable[[Any], dict[str, Any] | None]] = {
    "ContentPart": _json_ContentPart,
    "Request": _json_Request,
    "Answer": _json_Answer,
    "ToolResult": _json_ToolResult,
    "ToolSpec": _json_ToolSpec,
    "ToolCall": _json_ToolCall,
    "ToolCallResult": _json_ToolCallResult,
    "RunResult": _json_RunResult,
}


#: Per generated model, the factory of its fast decoder: `(cls, nested) -> decoder`, where
#: `nested(field)` gives the decoder of the class `cls` declares for that field.
FACTORIES: dict[str, Callable[[type[Any], Callable[[str], Decoder | None]], Decoder | None]] = {
    "ContentPart": _make_ContentPart,
    "Request": _make_Request,
    "Answer": _make_Answer,
    "ToolResult": _make_ToolResult,
    "ToolSpec": _make_ToolSpec,
    "ToolCall": _make_ToolCall,
    "ToolCallResult": _make_ToolCallResult,
    "RunResult": _make_RunResult,
}


#: The classes with a fast decoder, each with the generated type it has the fields of:
#: the generated models and the runtime classes that register themselves. A subclass
#: of either is not listed, as it may add validators, and takes the validator's path.
_TYPES: dict[type[Any], str] = {}
#: The decoder of each class asked for so far (None: it has none); see `decoder_for`.
DECODERS: dict[type[Any], Decoder | None] = {}


#: The JSON-ready encoder of each class asked for so far; see `json_encoder_for`.
JSON_ENCODERS: dict[type[Any], Callable[[Any], dict[str, Any] | None]] = {}


def register(cls: type[Any], type_name: str) -> None:
    """Give `cls`, whose fields are exactly those of the wire type `type_name`, a fast decoder."""
    _TYPES[cls] = type_name
    DECODERS.clear()
    JSON_ENCODERS.clear()


def _none(m: Any) -> None:
    return None


def json_encoder_for(cls: type[Any]) -> Callable[[Any], dict[str, Any] | None]:
    """The JSON-ready encoder of `cls`: that of the nearest wire type it derives from, as
    for `to_wire` (a subclass's own fields are not on the wire)."""
    encoder = next((_JSON[_TYPES[base]] for base in cls.__mro__ if base in _TYPES), _none)
    JSON_ENCODERS[cls] = encoder
    return encoder


def _field_class(cls: type[Any], field: str) -> type[Any] | None:
    """The model class a field of `cls` holds (`X`, `X | None` or `list[X]`), or None."""
    annotation = cls.model_fields[field].annotation
    candidates = [a for a in (annotation, *get_args(annotation)) if isinstance(a, type) and a in _TYPES]
    return candidates[0] if len(candidates) == 1 else None


def decoder_for(cls: type[Any]) -> Decoder | None:
    """The fast decoder of `cls`, or None when it has none."""
    try:
        return DECODERS[cls]
    except KeyError:
        pass
    decoder = None
    if cls in _TYPES:

        def nested(field: str) -> Decoder | None:
            inner = _field_class(cls, field)
            return None if inner is None else decoder_for(inner)

        decoder = FACTORIES[_TYPES[cls]](cls, nested)
    DECODERS[cls] = decoder
    return decoder
