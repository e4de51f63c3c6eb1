"""Inbound: each provider's tool calls as `ToolCall`s, from its SDK objects or plain dicts.

| target | function | reads (SDK objects or dicts) |
|---|---|---|
| OpenAI Chat | `openai_chat_tool_calls` | a `ChatCompletion`, its `message`, or `message.tool_calls` |
| OpenAI Responses | `openai_responses_tool_calls` | a `Response`, or its `output` items |
| Anthropic Messages | `anthropic_tool_calls` | a `Message`, or its `content` blocks |
| Gemini | `gemini_tool_calls` | a `GenerateContentResponse`, a `Content`, or its `parts` |
| MCP | `mcp_tool_calls` | a `tools/call` request (JSON-RPC, or its `params`) |

A call is, in turn: `{id, type: "function", function: {name, arguments}}` (`arguments` JSON
text); a `function_call` item `{call_id, name, arguments}` (JSON text); a `tool_use` block
`{id, name, input}`; a part's `function_call` (`functionCall` in REST JSON) `{id?, name,
args}`; and `{name, arguments?}`.

Each function returns `ParsedCalls(calls, refused)`: the calls to run, and a ready error
result for each call whose arguments are not a JSON object (text that is not JSON, an
array, a number...). A bad call never raises for the turn: its error result goes back to
the model with the others, under the call's id, so the model can correct itself; the
message names the call's tool and what was wrong, as `Tool.call` words a refusal
(`invalid arguments for <name>: $: ...`).

Why a separate list rather than a `ToolCall` the toolkit refuses later: a `ToolCall`'s
`arguments` is a JSON object on the wire, so the raw text has no place in it, and a marker
inside the arguments would reach tools that take any object (and be shown in an approval)
before anything refused it. The refusals are results already, in the same type `run_calls`
returns, so a host sends `[*run.results, *refused]` through the same result adapter.

Anything else in a response (text, reasoning, server-side tool use) is not a call and is
skipped. Empty `arguments` text (which OpenAI sends for a tool without parameters) reads as
`{}`. A Gemini call without an id gets `gemini-<n>` (its place among the response's calls),
so a turn's ids stay unique; `gemini_function_response` leaves such an id out again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from toolnexus_wire import MAX_DEPTH, dumps

from .._errors import UsageError
from .._result import ToolCall, ToolCallResult, ToolResult

__all__ = [
    "GEMINI_ID_PREFIX",
    "ParsedCalls",
    "anthropic_tool_calls",
    "gemini_tool_calls",
    "mcp_tool_calls",
    "openai_chat_tool_calls",
    "openai_responses_tool_calls",
]

#: The id prefix of a Gemini call that came without an id (`gemini-0`, `gemini-1`, ...).
GEMINI_ID_PREFIX = "gemini-"
_PREVIEW = 200


class ParsedCalls(NamedTuple):
    """A response's tool calls: those to run, and an error result for each refused one."""

    calls: list[ToolCall]
    """The calls to run (`Toolkit.run_calls(calls)`), in the response's order."""
    refused: list[ToolCallResult]
    """Error results for the calls whose arguments are not a JSON object; send them back
    with the run's results."""


def _get(obj: Any, *names: str) -> Any:
    """`obj`'s field under the first of `names` it has: a key of a mapping, or an attribute."""
    for name in names:
        if isinstance(obj, Mapping):
            if name in obj:
                return obj[name]
        elif getattr(obj, name, None) is not None:
            return getattr(obj, name)
    return None


def _items(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise TypeError(f"{where}: expected a list, got {type(value).__name__}")
    return list(value)


_JSON_KINDS = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}


def _kind(value: Any) -> str:
    return _JSON_KINDS.get(
        type(value), "a number" if isinstance(value, (int, float)) else type(value).__name__
    )


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"an object repeats the key {json.dumps(key, ensure_ascii=False)}")
        out[key] = value
    return out


def _arguments(raw: Any, text: bool) -> dict[str, Any] | str:
    """The arguments as a dict, or why they are not a JSON object (after `$: `). `text`: the
    provider sends them as JSON text (OpenAI), rather than as an object (the others)."""
    if isinstance(raw, Mapping):
        value: Any = dict(raw)
    elif raw is None or (text and isinstance(raw, str) and not raw.strip()):
        return {}
    elif not text:
        value = raw
    elif isinstance(raw, str):
        try:
            value = json.loads(raw, parse_constant=_refuse_constant, object_pairs_hook=_no_repeats)
        except (ValueError, RecursionError) as exc:
            preview = raw if len(raw) <= _PREVIEW else raw[:_PREVIEW] + "..."
            return f"not valid JSON ({exc}): {preview!r}"
    else:
        return f"expected JSON text or an object, got {type(raw).__name__}"
    if not isinstance(value, dict):
        return f"expected a JSON object, got {_kind(value)}"
    try:
        dumps(value, max_depth=MAX_DEPTH - 2)  # a ToolCall's arguments sit two levels down
    except (ValueError, TypeError, RecursionError) as exc:
        return f"not JSON: {exc}"
    return value


def _add(out: ParsedCalls, call_id: Any, name: Any, raw: Any, *, text: bool = False) -> None:
    call_id = call_id if isinstance(call_id, str) else "" if call_id is None else str(call_id)
    if not isinstance(name, str) or not name:
        result = ToolResult.error(f"the tool call {call_id!r} names no tool")
        out.refused.append(ToolCallResult(call_id, "" if not isinstance(name, str) else name, result))
        return
    arguments = _arguments(raw, text)
    if isinstance(arguments, str):
        result = ToolResult.error(f"invalid arguments for {name}: $: {arguments}")
        out.refused.append(ToolCallResult(call_id, name, result))
    else:
        out.calls.append(ToolCall(call_id, name, arguments))


def openai_chat_tool_calls(message: Any) -> ParsedCalls:
    """The calls in a Chat Completions response: a `ChatCompletion` (its first choice), the
    assistant `message`, or its `tool_calls` list; SDK objects or dicts. A call of another
    type than `function` (a custom tool's free text) is refused."""
    choices = _get(message, "choices")
    if choices:
        message = _get(choices[0], "message")
    items = message if isinstance(message, list) else _get(message, "tool_calls")
    out = ParsedCalls([], [])
    for item in _items(items, "tool_calls"):
        kind = _get(item, "type") or "function"
        function = _get(item, "function")
        if kind != "function" or function is None:
            name = _get(_get(item, kind) or {}, "name")
            result = ToolResult.error(
                f"the tool call is of type {kind!r}; toolnexus tools take function calls"
            )
            out.refused.append(ToolCallResult(_get(item, "id") or "", name or "", result))
            continue
        _add(out, _get(item, "id"), _get(function, "name"), _get(function, "arguments"), text=True)
    return out


def openai_responses_tool_calls(response: Any) -> ParsedCalls:
    """The `function_call` items of a Responses `Response` (or of its `output` list); SDK
    objects or dicts. A call's id is its `call_id`, which `openai_responses_output` answers."""
    items = response if isinstance(response, list) else _get(response, "output")
    out = ParsedCalls([], [])
    for item in _items(items, "output"):
        if _get(item, "type") == "function_call":
            _add(out, _get(item, "call_id"), _get(item, "name"), _get(item, "arguments"), text=True)
    return out


def anthropic_tool_calls(message: Any) -> ParsedCalls:
    """The `tool_use` blocks of an Anthropic `Message` (or of its `content` list); SDK objects
    or dicts. Server tools (`server_tool_use`) run at Anthropic and are skipped."""
    blocks = message if isinstance(message, list) else _get(message, "content")
    out = ParsedCalls([], [])
    for block in _items(blocks, "content"):
        if _get(block, "type") == "tool_use":
            _add(out, _get(block, "id"), _get(block, "name"), _get(block, "input"))
    return out


def gemini_tool_calls(response: Any) -> ParsedCalls:
    """The function calls of a Gemini `GenerateContentResponse` (its first candidate), a
    `Content`, or a list of parts; SDK objects, or dicts in the SDK's snake_case or the REST
    API's camelCase. A call without an id gets `gemini-<n>`."""
    candidates = _get(response, "candidates")
    if candidates:
        response = _get(candidates[0], "content")
    parts = response if isinstance(response, list) else _get(response, "parts")
    out = ParsedCalls([], [])
    index = 0
    for part in _items(parts, "parts"):
        call = _get(part, "function_call", "functionCall")
        if call is None:
            continue
        call_id = _get(call, "id") or f"{GEMINI_ID_PREFIX}{index}"
        _add(out, call_id, _get(call, "name"), _get(call, "args"))
        index += 1
    return out


def mcp_tool_calls(request: Any) -> ParsedCalls:
    """The call in an MCP `tools/call` request: the JSON-RPC request (its `id` is the call's)
    or its `params` (the call's id is then empty); SDK objects or dicts. Absent `arguments`
    are `{}`."""
    if _get(request, "method") not in (None, "tools/call"):
        raise UsageError(f"expected a tools/call request, got {_get(request, 'method')!r}")
    params = _get(request, "params")
    call_id = _get(request, "id") if params is not None else None
    params = request if params is None else params
    out = ParsedCalls([], [])
    _add(out, call_id, _get(params, "name"), _get(params, "arguments"))
    return out
