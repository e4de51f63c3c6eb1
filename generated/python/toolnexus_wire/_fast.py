# Generated from idl/ (toolnexus schema 3.0.0, sha256 7c02d43fec5c2c9bfa10d6191917dc130547ddb2023763bf62894f137966e7a2).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
"""The fast paths of `to_json` and `from_json`, written out field by field from the IDL.

The rules they follow, and when they decline, are in `_speed`'s docstring.
"""

from __future__ import annotations

from typing import Any

from . import models
from ._speed import FLOAT_MAX as _FLOAT_MAX
from ._speed import FREE_DEPTH as _FREE_DEPTH
from ._speed import INT_MAX as _INT_MAX
from ._speed import INT_MIN as _INT_MIN
from ._speed import MISS as _MISS
from ._speed import check_for, install
from ._speed import number_json as _number_json
from ._number import int_number as _int_number
from ._speed import float_ok as _float_ok
from ._speed import new as _new
from ._speed import set_dict as _set_dict
from ._speed import set_extra as _set_extra
from ._speed import set_fields_set as _set_fields_set
from ._speed import set_private as _set_private
from ._speed import plain as _plain
from ._speed import plain_float as _plain_float
from ._speed import sound as _sound

__all__: list[str] = []

_PATTERN_0 = check_for("^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$")
_PATTERN_1 = check_for("^(once|turn|tool|principal|session:\\S.*)$")
_PATTERN_2 = check_for("^[A-Za-z0-9_-]+$")


def _decode_Annotations(d: Any, floats: bool | None) -> Any:
    """A `Annotations` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("audience", _MISS)
    if v is _MISS:
        audience: Any = []
    else:
        if type(v) is not list:
            return None
        for audience_i0 in v:
            if type(audience_i0) is not str or audience_i0 not in (
                "user",
                "assistant",
            ):
                return None
        audience = v
        fields_set.add("audience")
    v = d.get("priority", _MISS)
    if v is _MISS:
        priority: Any = None
    else:
        if not (type(v) is not int or v < 0 or v > 1):
            priority = _int_number(v)
        elif type(v) is not float or not (floats and _float_ok(v)) or v < 0 or v > 1:
            return None
        else:
            priority = v
        fields_set.add("priority")
    v = d.get("lastModified", _MISS)
    if v is _MISS:
        last_modified: Any = None
    else:
        if type(v) is not str:
            return None
        last_modified = v
        fields_set.add("last_modified")
    values = {"audience": audience, "priority": priority, "last_modified": last_modified}
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_Annotations}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.Annotations)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_Annotations = frozenset({"audience", "priority", "lastModified"})


def _decode_ContentPart(d: Any, floats: bool | None) -> Any:
    """A `ContentPart` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("type", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str or v not in (
        "text",
        "image",
        "audio",
        "file",
    ):
        return None
    kind = v
    fields_set.add("kind")
    v = d.get("text", _MISS)
    if v is _MISS:
        text: Any = ""
    else:
        if type(v) is not str:
            return None
        text = v
        fields_set.add("text")
    v = d.get("mimeType", _MISS)
    if v is _MISS:
        mime_type: Any = ""
    else:
        if type(v) is not str:
            return None
        mime_type = v
        fields_set.add("mime_type")
    v = d.get("data", _MISS)
    if v is _MISS:
        data: Any = ""
    else:
        if type(v) is not str or not _PATTERN_0(v):
            return None
        data = v
        fields_set.add("data")
    v = d.get("url", _MISS)
    if v is _MISS:
        url: Any = ""
    else:
        if type(v) is not str:
            return None
        url = v
        fields_set.add("url")
    v = d.get("name", _MISS)
    if v is _MISS:
        name: Any = ""
    else:
        if type(v) is not str:
            return None
        name = v
        fields_set.add("name")
    v = d.get("title", _MISS)
    if v is _MISS:
        title: Any = ""
    else:
        if type(v) is not str:
            return None
        title = v
        fields_set.add("title")
    v = d.get("description", _MISS)
    if v is _MISS:
        description: Any = ""
    else:
        if type(v) is not str:
            return None
        description = v
        fields_set.add("description")
    v = d.get("annotations", _MISS)
    if v is _MISS:
        annotations: Any = None
    else:
        annotations = _decode_Annotations(v, floats)
        if annotations is None:
            return None
        fields_set.add("annotations")
    values = {
        "kind": kind,
        "text": text,
        "mime_type": mime_type,
        "data": data,
        "url": url,
        "name": name,
        "title": title,
        "description": description,
        "annotations": annotations,
    }
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_ContentPart}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.ContentPart)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_ContentPart = frozenset(
    {"type", "text", "mimeType", "data", "url", "name", "title", "description", "annotations"}
)


def _decode_Request(d: Any, floats: bool | None) -> Any:
    """A `Request` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("id", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str:
        return None
    id = v
    fields_set.add("id")
    v = d.get("kind", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str or len(v) < 1:
        return None
    kind = v
    fields_set.add("kind")
    v = d.get("prompt", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str:
        return None
    prompt = v
    fields_set.add("prompt")
    v = d.get("url", _MISS)
    if v is _MISS:
        url: Any = None
    else:
        if type(v) is not str:
            return None
        url = v
        fields_set.add("url")
    v = d.get("data", _MISS)
    if v is _MISS:
        data: Any = None
    else:
        if type(v) is not dict or not _sound(v, _FREE_DEPTH, floats):
            return None
        data = v
        fields_set.add("data")
    v = d.get("expiresAt", _MISS)
    if v is _MISS:
        expires_at: Any = None
    else:
        if type(v) is not str:
            return None
        expires_at = v
        fields_set.add("expires_at")
    values = {"id": id, "kind": kind, "prompt": prompt, "url": url, "data": data, "expires_at": expires_at}
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_Request}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.Request)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_Request = frozenset({"id", "kind", "prompt", "url", "data", "expiresAt"})


def _decode_Answer(d: Any, floats: bool | None) -> Any:
    """A `Answer` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("id", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str:
        return None
    id = v
    fields_set.add("id")
    v = d.get("ok", _MISS)
    if v is _MISS:
        return None
    if type(v) is not bool:
        return None
    ok = v
    fields_set.add("ok")
    v = d.get("data", _MISS)
    if v is _MISS:
        data: Any = None
    else:
        if type(v) is not dict or not _sound(v, _FREE_DEPTH, floats):
            return None
        data = v
        fields_set.add("data")
    v = d.get("reason", _MISS)
    if v is _MISS:
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
    v = d.get("message", _MISS)
    if v is _MISS:
        message: Any = None
    else:
        if type(v) is not str or len(v) < 1:
            return None
        message = v
        fields_set.add("message")
    v = d.get("scope", _MISS)
    if v is _MISS:
        scope: Any = None
    else:
        if type(v) is not str or not _PATTERN_1(v):
            return None
        scope = v
        fields_set.add("scope")
    values = {"id": id, "ok": ok, "data": data, "reason": reason, "message": message, "scope": scope}
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_Answer}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.Answer)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_Answer = frozenset({"id", "ok", "data", "reason", "message", "scope"})


def _decode_ToolResult(d: Any, floats: bool | None) -> Any:
    """A `ToolResult` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("output", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str:
        return None
    output = v
    fields_set.add("output")
    v = d.get("isError", _MISS)
    if v is _MISS:
        is_error: Any = False
    else:
        if type(v) is not bool:
            return None
        is_error = v
        fields_set.add("is_error")
    v = d.get("parts", _MISS)
    if v is _MISS:
        parts: Any = []
    else:
        if type(v) is not list:
            return None
        parts_a0: list[Any] = []
        for parts_i0 in v:
            parts_x0 = _decode_ContentPart(parts_i0, floats)
            if parts_x0 is None:
                return None
            parts_a0.append(parts_x0)
        parts = parts_a0
        fields_set.add("parts")
    v = d.get("structuredContent", _MISS)
    if v is _MISS:
        structured_content: Any = None
    else:
        if (
            v is None
            or (type(v) is float and not (floats and _float_ok(v)))
            or (type(v) in (dict, list) and not _sound(v, _FREE_DEPTH, floats))
        ):
            return None
        structured_content = v
        fields_set.add("structured_content")
    v = d.get("metadata", _MISS)
    if v is _MISS:
        metadata: Any = None
    else:
        if type(v) is not dict or not _sound(v, _FREE_DEPTH, floats):
            return None
        metadata = v
        fields_set.add("metadata")
    values = {
        "output": output,
        "is_error": is_error,
        "parts": parts,
        "structured_content": structured_content,
        "metadata": metadata,
    }
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_ToolResult}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.ToolResult)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_ToolResult = frozenset({"output", "isError", "parts", "structuredContent", "metadata"})


def _decode_ToolIcon(d: Any, floats: bool | None) -> Any:
    """A `ToolIcon` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("src", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str or len(v) < 1:
        return None
    src = v
    fields_set.add("src")
    v = d.get("mimeType", _MISS)
    if v is _MISS:
        mime_type: Any = None
    else:
        if type(v) is not str:
            return None
        mime_type = v
        fields_set.add("mime_type")
    v = d.get("sizes", _MISS)
    if v is _MISS:
        sizes: Any = []
    else:
        if type(v) is not list:
            return None
        for sizes_i0 in v:
            if type(sizes_i0) is not str:
                return None
        sizes = v
        fields_set.add("sizes")
    v = d.get("theme", _MISS)
    if v is _MISS:
        theme: Any = None
    else:
        if type(v) is not str or v not in (
            "light",
            "dark",
        ):
            return None
        theme = v
        fields_set.add("theme")
    values = {"src": src, "mime_type": mime_type, "sizes": sizes, "theme": theme}
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_ToolIcon}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.ToolIcon)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_ToolIcon = frozenset({"src", "mimeType", "sizes", "theme"})


def _decode_ToolHints(d: Any, floats: bool | None) -> Any:
    """A `ToolHints` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("readOnly", _MISS)
    if v is _MISS:
        return None
    if type(v) is not bool:
        return None
    read_only = v
    fields_set.add("read_only")
    v = d.get("destructive", _MISS)
    if v is _MISS:
        return None
    if type(v) is not bool:
        return None
    destructive = v
    fields_set.add("destructive")
    v = d.get("openWorld", _MISS)
    if v is _MISS:
        return None
    if type(v) is not bool:
        return None
    open_world = v
    fields_set.add("open_world")
    v = d.get("idempotent", _MISS)
    if v is _MISS:
        idempotent: Any = None
    else:
        if type(v) is not bool:
            return None
        idempotent = v
        fields_set.add("idempotent")
    v = d.get("title", _MISS)
    if v is _MISS:
        title: Any = None
    else:
        if type(v) is not str:
            return None
        title = v
        fields_set.add("title")
    v = d.get("longRunning", _MISS)
    if v is _MISS:
        long_running: Any = None
    else:
        if type(v) is not bool:
            return None
        long_running = v
        fields_set.add("long_running")
    v = d.get("icons", _MISS)
    if v is _MISS:
        icons: Any = []
    else:
        if type(v) is not list:
            return None
        icons_a0: list[Any] = []
        for icons_i0 in v:
            icons_x0 = _decode_ToolIcon(icons_i0, floats)
            if icons_x0 is None:
                return None
            icons_a0.append(icons_x0)
        icons = icons_a0
        fields_set.add("icons")
    values = {
        "read_only": read_only,
        "destructive": destructive,
        "open_world": open_world,
        "idempotent": idempotent,
        "title": title,
        "long_running": long_running,
        "icons": icons,
    }
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_ToolHints}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.ToolHints)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_ToolHints = frozenset(
    {"readOnly", "destructive", "openWorld", "idempotent", "title", "longRunning", "icons"}
)


def _decode_ToolSpec(d: Any, floats: bool | None) -> Any:
    """A `ToolSpec` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("name", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str or not _PATTERN_2(v):
        return None
    name = v
    fields_set.add("name")
    v = d.get("description", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str:
        return None
    description = v
    fields_set.add("description")
    v = d.get("inputSchema", _MISS)
    if v is _MISS:
        return None
    if type(v) is not dict or not _sound(v, _FREE_DEPTH, floats):
        return None
    input_schema = v
    fields_set.add("input_schema")
    v = d.get("source", _MISS)
    if v is _MISS:
        source: Any = None
    else:
        if type(v) is not str:
            return None
        source = v
        fields_set.add("source")
    v = d.get("hints", _MISS)
    if v is _MISS:
        hints: Any = None
    else:
        hints = _decode_ToolHints(v, floats)
        if hints is None:
            return None
        fields_set.add("hints")
    v = d.get("outputSchema", _MISS)
    if v is _MISS:
        output_schema: Any = None
    else:
        if type(v) is not dict or not _sound(v, _FREE_DEPTH, floats):
            return None
        output_schema = v
        fields_set.add("output_schema")
    values = {
        "name": name,
        "description": description,
        "input_schema": input_schema,
        "source": source,
        "hints": hints,
        "output_schema": output_schema,
    }
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_ToolSpec}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.ToolSpec)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_ToolSpec = frozenset({"name", "description", "inputSchema", "source", "hints", "outputSchema"})


def _decode_ToolCall(d: Any, floats: bool | None) -> Any:
    """A `ToolCall` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("id", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str:
        return None
    id = v
    fields_set.add("id")
    v = d.get("name", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str:
        return None
    name = v
    fields_set.add("name")
    v = d.get("arguments", _MISS)
    if v is _MISS:
        return None
    if type(v) is not dict or not _sound(v, _FREE_DEPTH, floats):
        return None
    arguments = v
    fields_set.add("arguments")
    values = {"id": id, "name": name, "arguments": arguments}
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_ToolCall}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.ToolCall)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_ToolCall = frozenset({"id", "name", "arguments"})


def _decode_ToolCallResult(d: Any, floats: bool | None) -> Any:
    """A `ToolCallResult` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("id", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str:
        return None
    id = v
    fields_set.add("id")
    v = d.get("name", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str:
        return None
    name = v
    fields_set.add("name")
    v = d.get("result", _MISS)
    if v is _MISS:
        return None
    result = _decode_ToolResult(v, floats)
    if result is None:
        return None
    fields_set.add("result")
    values = {"id": id, "name": name, "result": result}
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_ToolCallResult}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.ToolCallResult)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_ToolCallResult = frozenset({"id", "name", "result"})


def _decode_RunResult(d: Any, floats: bool | None) -> Any:
    """A `RunResult` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("status", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str or v not in (
        "done",
        "pending",
    ):
        return None
    status = v
    fields_set.add("status")
    v = d.get("results", _MISS)
    if v is _MISS:
        return None
    if type(v) is not list:
        return None
    results_a0: list[Any] = []
    for results_i0 in v:
        results_x0 = _decode_ToolCallResult(results_i0, floats)
        if results_x0 is None:
            return None
        results_a0.append(results_x0)
    results = results_a0
    fields_set.add("results")
    v = d.get("pending", _MISS)
    if v is _MISS:
        pending: Any = None
    else:
        pending = _decode_Request(v, floats)
        if pending is None:
            return None
        fields_set.add("pending")
    v = d.get("calls", _MISS)
    if v is _MISS:
        calls: Any = []
    else:
        if type(v) is not list:
            return None
        calls_a0: list[Any] = []
        for calls_i0 in v:
            calls_x0 = _decode_ToolCall(calls_i0, floats)
            if calls_x0 is None:
                return None
            calls_a0.append(calls_x0)
        calls = calls_a0
        fields_set.add("calls")
    v = d.get("requests", _MISS)
    if v is _MISS:
        requests: Any = []
    else:
        if type(v) is not list:
            return None
        requests_a0: list[Any] = []
        for requests_i0 in v:
            requests_x0 = _decode_Request(requests_i0, floats)
            if requests_x0 is None:
                return None
            requests_a0.append(requests_x0)
        requests = requests_a0
        fields_set.add("requests")
    v = d.get("order", _MISS)
    if v is _MISS:
        order: Any = []
    else:
        if type(v) is not list:
            return None
        for order_i0 in v:
            if type(order_i0) is not str:
                return None
        order = v
        fields_set.add("order")
    v = d.get("turn", _MISS)
    if v is _MISS:
        turn: Any = ""
    else:
        if type(v) is not str:
            return None
        turn = v
        fields_set.add("turn")
    v = d.get("seal", _MISS)
    if v is _MISS:
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
        "turn": turn,
        "seal": seal,
    }
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_RunResult}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.RunResult)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_RunResult = frozenset({"status", "results", "pending", "calls", "requests", "order", "turn", "seal"})


def _decode_ToolEvent(d: Any, floats: bool | None) -> Any:
    """A `ToolEvent` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("callId", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str:
        return None
    call_id = v
    fields_set.add("call_id")
    v = d.get("percent", _MISS)
    if v is _MISS:
        percent: Any = None
    else:
        if type(v) is not int:
            return None
        percent = v
        fields_set.add("percent")
    v = d.get("message", _MISS)
    if v is _MISS:
        message: Any = None
    else:
        if type(v) is not str:
            return None
        message = v
        fields_set.add("message")
    v = d.get("partial", _MISS)
    if v is _MISS:
        partial: Any = None
    else:
        partial = _decode_ToolResult(v, floats)
        if partial is None:
            return None
        fields_set.add("partial")
    values = {"call_id": call_id, "percent": percent, "message": message, "partial": partial}
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_ToolEvent}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.ToolEvent)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_ToolEvent = frozenset({"callId", "percent", "message", "partial"})


def _json_Annotations(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    if m.audience:
        audience_v = list(m.audience)
        for audience_v_i0 in audience_v:
            if type(audience_v_i0) is not str:
                return None
        out["audience"] = audience_v
    if m.priority is not None:
        priority_v = _number_json(m.priority)
        if priority_v is None:
            return None
        out["priority"] = priority_v
    if m.last_modified is not None:
        last_modified_v = m.last_modified
        if type(last_modified_v) is not str:
            return None
        out["lastModified"] = last_modified_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_ContentPart(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    kind_v = m.kind
    if type(kind_v) is not str:
        return None
    out["type"] = kind_v
    if m.text:
        text_v = m.text
        if type(text_v) is not str:
            return None
        out["text"] = text_v
    if m.mime_type:
        mime_type_v = m.mime_type
        if type(mime_type_v) is not str:
            return None
        out["mimeType"] = mime_type_v
    if m.data:
        data_v = m.data
        if type(data_v) is not str:
            return None
        out["data"] = data_v
    if m.url:
        url_v = m.url
        if type(url_v) is not str:
            return None
        out["url"] = url_v
    if m.name:
        name_v = m.name
        if type(name_v) is not str:
            return None
        out["name"] = name_v
    if m.title:
        title_v = m.title
        if type(title_v) is not str:
            return None
        out["title"] = title_v
    if m.description:
        description_v = m.description
        if type(description_v) is not str:
            return None
        out["description"] = description_v
    if m.annotations is not None:
        annotations_v = _json_Annotations(m.annotations)
        if annotations_v is None:
            return None
        out["annotations"] = annotations_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_Request(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    id_v = m.id
    if type(id_v) is not str:
        return None
    out["id"] = id_v
    kind_v = m.kind
    if type(kind_v) is not str:
        return None
    out["kind"] = kind_v
    prompt_v = m.prompt
    if type(prompt_v) is not str:
        return None
    out["prompt"] = prompt_v
    if m.url is not None:
        url_v = m.url
        if type(url_v) is not str:
            return None
        out["url"] = url_v
    if m.data is not None:
        data_v = m.data
        if type(data_v) is not dict or not _plain(data_v, _FREE_DEPTH):
            return None
        out["data"] = data_v
    if m.expires_at is not None:
        expires_at_v = m.expires_at
        if type(expires_at_v) is not str:
            return None
        out["expiresAt"] = expires_at_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_Answer(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    id_v = m.id
    if type(id_v) is not str:
        return None
    out["id"] = id_v
    ok_v = m.ok
    if type(ok_v) is not bool:
        return None
    out["ok"] = ok_v
    if m.data is not None:
        data_v = m.data
        if type(data_v) is not dict or not _plain(data_v, _FREE_DEPTH):
            return None
        out["data"] = data_v
    if m.reason is not None:
        reason_v = m.reason
        if type(reason_v) is not str:
            return None
        out["reason"] = reason_v
    if m.message is not None:
        message_v = m.message
        if type(message_v) is not str:
            return None
        out["message"] = message_v
    if m.scope is not None:
        scope_v = m.scope
        if type(scope_v) is not str:
            return None
        out["scope"] = scope_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_ToolResult(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    output_v = m.output
    if type(output_v) is not str:
        return None
    out["output"] = output_v
    is_error_v = m.is_error
    if type(is_error_v) is not bool:
        return None
    out["isError"] = is_error_v
    if m.parts:
        parts_v_a0: list[Any] = []
        for parts_v_i0 in m.parts:
            parts_v_x0 = _json_ContentPart(parts_v_i0)
            if parts_v_x0 is None:
                return None
            parts_v_a0.append(parts_v_x0)
        parts_v = parts_v_a0
        out["parts"] = parts_v
    if m.structured_content is not None:
        structured_content_v = m.structured_content
        if structured_content_v is None or not _plain([structured_content_v], _FREE_DEPTH + 1):
            return None
        out["structuredContent"] = structured_content_v
    if m.metadata is not None:
        metadata_v = m.metadata
        if type(metadata_v) is not dict or not _plain(metadata_v, _FREE_DEPTH):
            return None
        out["metadata"] = metadata_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_ToolIcon(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    src_v = m.src
    if type(src_v) is not str:
        return None
    out["src"] = src_v
    if m.mime_type is not None:
        mime_type_v = m.mime_type
        if type(mime_type_v) is not str:
            return None
        out["mimeType"] = mime_type_v
    if m.sizes:
        sizes_v = list(m.sizes)
        for sizes_v_i0 in sizes_v:
            if type(sizes_v_i0) is not str:
                return None
        out["sizes"] = sizes_v
    if m.theme is not None:
        theme_v = m.theme
        if type(theme_v) is not str:
            return None
        out["theme"] = theme_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_ToolHints(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    read_only_v = m.read_only
    if type(read_only_v) is not bool:
        return None
    out["readOnly"] = read_only_v
    destructive_v = m.destructive
    if type(destructive_v) is not bool:
        return None
    out["destructive"] = destructive_v
    open_world_v = m.open_world
    if type(open_world_v) is not bool:
        return None
    out["openWorld"] = open_world_v
    if m.idempotent is not None:
        idempotent_v = m.idempotent
        if type(idempotent_v) is not bool:
            return None
        out["idempotent"] = idempotent_v
    if m.title is not None:
        title_v = m.title
        if type(title_v) is not str:
            return None
        out["title"] = title_v
    if m.long_running is not None:
        long_running_v = m.long_running
        if type(long_running_v) is not bool:
            return None
        out["longRunning"] = long_running_v
    if m.icons:
        icons_v_a0: list[Any] = []
        for icons_v_i0 in m.icons:
            icons_v_x0 = _json_ToolIcon(icons_v_i0)
            if icons_v_x0 is None:
                return None
            icons_v_a0.append(icons_v_x0)
        icons_v = icons_v_a0
        out["icons"] = icons_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_ToolSpec(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    name_v = m.name
    if type(name_v) is not str:
        return None
    out["name"] = name_v
    description_v = m.description
    if type(description_v) is not str:
        return None
    out["description"] = description_v
    input_schema_v = m.input_schema
    if type(input_schema_v) is not dict or not _plain(input_schema_v, _FREE_DEPTH):
        return None
    out["inputSchema"] = input_schema_v
    if m.source is not None:
        source_v = m.source
        if type(source_v) is not str:
            return None
        out["source"] = source_v
    if m.hints is not None:
        hints_v = _json_ToolHints(m.hints)
        if hints_v is None:
            return None
        out["hints"] = hints_v
    if m.output_schema is not None:
        output_schema_v = m.output_schema
        if type(output_schema_v) is not dict or not _plain(output_schema_v, _FREE_DEPTH):
            return None
        out["outputSchema"] = output_schema_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_ToolCall(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    id_v = m.id
    if type(id_v) is not str:
        return None
    out["id"] = id_v
    name_v = m.name
    if type(name_v) is not str:
        return None
    out["name"] = name_v
    arguments_v = m.arguments
    if type(arguments_v) is not dict or not _plain(arguments_v, _FREE_DEPTH):
        return None
    out["arguments"] = arguments_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_ToolCallResult(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    id_v = m.id
    if type(id_v) is not str:
        return None
    out["id"] = id_v
    name_v = m.name
    if type(name_v) is not str:
        return None
    out["name"] = name_v
    result_v = _json_ToolResult(m.result)
    if result_v is None:
        return None
    out["result"] = result_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_RunResult(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    status_v = m.status
    if type(status_v) is not str:
        return None
    out["status"] = status_v
    results_v_a0: list[Any] = []
    for results_v_i0 in m.results:
        results_v_x0 = _json_ToolCallResult(results_v_i0)
        if results_v_x0 is None:
            return None
        results_v_a0.append(results_v_x0)
    results_v = results_v_a0
    out["results"] = results_v
    if m.pending is not None:
        pending_v = _json_Request(m.pending)
        if pending_v is None:
            return None
        out["pending"] = pending_v
    if m.calls:
        calls_v_a0: list[Any] = []
        for calls_v_i0 in m.calls:
            calls_v_x0 = _json_ToolCall(calls_v_i0)
            if calls_v_x0 is None:
                return None
            calls_v_a0.append(calls_v_x0)
        calls_v = calls_v_a0
        out["calls"] = calls_v
    if m.requests:
        requests_v_a0: list[Any] = []
        for requests_v_i0 in m.requests:
            requests_v_x0 = _json_Request(requests_v_i0)
            if requests_v_x0 is None:
                return None
            requests_v_a0.append(requests_v_x0)
        requests_v = requests_v_a0
        out["requests"] = requests_v
    if m.order:
        order_v = list(m.order)
        for order_v_i0 in order_v:
            if type(order_v_i0) is not str:
                return None
        out["order"] = order_v
    if m.turn:
        turn_v = m.turn
        if type(turn_v) is not str:
            return None
        out["turn"] = turn_v
    if m.seal is not None:
        seal_v = m.seal
        if type(seal_v) is not str:
            return None
        out["seal"] = seal_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_ToolEvent(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    call_id_v = m.call_id
    if type(call_id_v) is not str:
        return None
    out["callId"] = call_id_v
    if m.percent is not None:
        percent_v = m.percent
        if type(percent_v) is not int or not _INT_MIN <= percent_v <= _INT_MAX:
            return None
        out["percent"] = percent_v
    if m.message is not None:
        message_v = m.message
        if type(message_v) is not str:
            return None
        out["message"] = message_v
    if m.partial is not None:
        partial_v = _json_ToolResult(m.partial)
        if partial_v is None:
            return None
        out["partial"] = partial_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


install(
    {
        models.Annotations: _decode_Annotations,
        models.ContentPart: _decode_ContentPart,
        models.Request: _decode_Request,
        models.Answer: _decode_Answer,
        models.ToolResult: _decode_ToolResult,
        models.ToolIcon: _decode_ToolIcon,
        models.ToolHints: _decode_ToolHints,
        models.ToolSpec: _decode_ToolSpec,
        models.ToolCall: _decode_ToolCall,
        models.ToolCallResult: _decode_ToolCallResult,
        models.RunResult: _decode_RunResult,
        models.ToolEvent: _decode_ToolEvent,
    },
    {
        models.Annotations: _json_Annotations,
        models.ContentPart: _json_ContentPart,
        models.Request: _json_Request,
        models.Answer: _json_Answer,
        models.ToolResult: _json_ToolResult,
        models.ToolIcon: _json_ToolIcon,
        models.ToolHints: _json_ToolHints,
        models.ToolSpec: _json_ToolSpec,
        models.ToolCall: _json_ToolCall,
        models.ToolCallResult: _json_ToolCallResult,
        models.RunResult: _json_RunResult,
        models.ToolEvent: _json_ToolEvent,
    },
)
