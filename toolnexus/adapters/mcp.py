"""MCP: `tools/list` entries and `CallToolResult`, both ways.

Pure functions over plain dicts with MCP's camelCase keys, shaped after the MCP
schema and its Python SDK's types; nothing here imports the SDK. `metadata` never
appears in what they return.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from toolnexus_wire import MAX_DEPTH, WireError, check_mime_type, check_url, displayable, dumps

from .._engine import approval_form, is_approval
from .._errors import UsageError
from .._result import Annotations, Answer, ContentPart, Request, ToolResult
from .._suspend import pending, pending_of
from ._common import ToolLike, omitted, shape, specs_of
from ._limits import PartGate, PartLimit, Structured, part_limits_of, structured_of

__all__ = [
    "answer_from_mcp",
    "from_mcp_call_tool_result",
    "mcp_call_tool_result",
    "mcp_input_required",
    "mcp_input_responses",
    "mcp_tools",
]

_TYPE = "CallToolResult"
_PART_URI = "toolnexus://parts/"


def mcp_tools(tools: Iterable[ToolLike]) -> list[dict[str, Any]]:
    """The `tools` of a `tools/list` result: `{name, description, inputSchema}`, then
    `outputSchema` for a tool that declares one, and for a tool with hints its `title` and
    `icons` (`{src, mimeType?, sizes?, theme?}`) when it has them, and `annotations`
    (`readOnlyHint`, `destructiveHint`, `idempotentHint` when set, `openWorldHint`)."""
    out = []
    for s in specs_of(tools):
        declared: dict[str, Any] = {
            "name": s.name,
            "description": s.description,
            "inputSchema": s.input_schema,
        }
        if s.output_schema is not None:
            declared["outputSchema"] = s.output_schema
        hints = s.hints
        if hints is not None:
            if hints.title:
                declared["title"] = hints.title
            if hints.icons:
                declared["icons"] = [icon.to_wire() for icon in hints.icons]
            annotations: dict[str, Any] = {
                "readOnlyHint": hints.read_only,
                "destructiveHint": hints.destructive,
            }
            if hints.idempotent is not None:
                annotations["idempotentHint"] = hints.idempotent
            annotations["openWorldHint"] = hints.open_world
            declared["annotations"] = annotations
        out.append(declared)
    return out


def mcp_call_tool_result(
    result: ToolResult,
    *,
    structured: Structured | None = None,
    part_limits: Mapping[str, PartLimit] | None = None,
) -> dict[str, Any]:
    """A `CallToolResult`: a text block for the output, then per part a text block (text
    parts), an image or audio block (with data), an embedded resource (other files with
    data: `blob`, with a `toolnexus://parts/<index>[/<name>]` uri), or a `resource_link`
    (parts by URL, with the part's `title` and `description`); `structuredContent` when the
    result has it, and `isError` when it failed. The output's text block is left out only
    when the output is empty and there are parts. A part with no content becomes a text
    block saying so. A part's `annotations` are its block's (`audience`, `priority`,
    `lastModified`, and keys a newer peer added); an embedded resource has no place for a
    title or a description (MCP's resource contents carry neither), so it goes without them.

    `structured`, for a result with `structured_content`: `"both"` (the default,
    `PROVIDER_LIMITS`: MCP asks a server to repeat the structure as text for clients that do not
    read it, and requires `structuredContent` of a tool with an output schema), `"structured"`
    (`structuredContent`, without the output's text block: for clients that read it, the
    payload once) or `"text"` (the text block alone: only for a tool without an output schema).
    `part_limits`: the most the client takes of each kind of inline part (MCP publishes none, so
    none by default); a part over one is a text block naming it and the limit.
    """
    choice = structured_of("mcp", structured)
    choice = choice if result.structured_content is not None else "text"
    gate = PartGate("MCP", part_limits_of("mcp", part_limits))
    content: list[dict[str, Any]] = []
    if (result.output or not result.parts) and choice != "structured":
        content.append({"type": "text", "text": result.output})
    for i, part in enumerate(result.parts):
        form = shape(part)
        block: dict[str, Any]
        if form == "text":
            block = {"type": "text", "text": part.text}
        elif form == "inline" and (note := gate.note(part)):
            block = {"type": "text", "text": note}
        elif form == "inline" and part.kind in ("image", "audio") and part.mime_type:
            block = {"type": part.kind, "data": part.data, "mimeType": part.mime_type}
        elif form == "inline":
            name = f"/{quote(part.name, safe='', errors='replace')}" if part.name else ""
            uri = f"{_PART_URI}{i}{name}"
            mime_type = part.mime_type or "application/octet-stream"
            resource = {"uri": uri, "mimeType": mime_type, "blob": part.data}
            block = {"type": "resource", "resource": resource}
        elif form == "url":
            block = {"type": "resource_link", "uri": part.url, "name": part.name or part.url}
            if part.title:
                block["title"] = part.title
            if part.description:
                block["description"] = part.description
            if part.mime_type:
                block["mimeType"] = part.mime_type
        else:
            content.append({"type": "text", "text": omitted(part, "MCP")})
            continue
        if part.annotations is not None:
            block["annotations"] = part.annotations.to_wire()
        content.append(block)
    out: dict[str, Any] = {"content": content}
    if result.structured_content is not None and choice != "text":
        out["structuredContent"] = result.structured_content
    if result.is_error:
        out["isError"] = True
    return out


def _problem(path: str, message: str) -> WireError:
    return WireError(_TYPE, [(path, message)])


def _string(block: Mapping[str, Any], key: str, path: str) -> str:
    value = block.get(key)
    if not isinstance(value, str):
        raise _problem(f"{path}.{key}", "expected a string")
    return value


def _mime_type(mime_type: str, path: str) -> str:
    """`mime_type`, unless it is blank or holds a control character (a line break would split
    the header a host serves the part under): `WireError` at `path`."""
    try:
        return check_mime_type(mime_type)
    except ValueError as exc:
        raise _problem(path, str(exc)) from None


def _part(kind: str, mime_type: str, data: str, name: str | None, path: str, data_key: str) -> ContentPart:
    """A part from a block at `path` whose base64 is under `data_key`; errors name MCP's paths."""
    _mime_type(mime_type, f"{path}.mimeType")
    wire: dict[str, Any] = {"type": kind, "mimeType": mime_type, "data": data}
    if name:
        wire["name"] = displayable(name)
    try:
        return ContentPart.from_wire(wire)
    except WireError as exc:
        keys = {"$.data": f"{path}.{data_key}", "$.mimeType": f"{path}.mimeType"}
        raise WireError(_TYPE, [(keys.get(p, path), m) for p, m in exc.errors]) from None


def _annotations(block: Mapping[str, Any], path: str) -> Annotations | None:
    """A block's `annotations` (absent or `null`: None); `WireError` at MCP's path of the
    malformed place (`$.content[2].annotations.priority` for a priority above 1)."""
    value = block.get("annotations")
    if value is None:
        return None
    where = f"{path}.annotations"
    if not isinstance(value, Mapping):
        raise _problem(where, "expected an object")
    try:
        return Annotations.from_wire(dict(value))
    except WireError as exc:
        raise WireError(_TYPE, [(where + p[1:], m) for p, m in exc.errors]) from None


def _optional_text(block: Mapping[str, Any], key: str, path: str, *, lines: bool = False) -> str:
    """A block's optional string `key` for a person to read (a title, a description), with
    control and bidi formatting characters as U+FFFD (line breaks kept when `lines`)."""
    value = block.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise _problem(f"{path}.{key}", "expected a string")
    return displayable(value, lines=lines)


def _name_of(uri: str, path: str) -> str | None:
    """The file name a resource's uri ends with: its last path segment, decoded, and cut after
    any separator the decoding revealed, so never a path (`..%2F..%2Fx` names `x`)."""
    try:
        tail = urlsplit(uri).path
    except ValueError as exc:  # `http://[`: urllib refuses the host
        raise _problem(f"{path}.uri", f"not a valid URI: {exc}") from None
    name = unquote(tail).replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    return None if name in ("", ".", "..") else displayable(name)


def _link(block: Mapping[str, Any], path: str) -> ContentPart | str:
    """A part from a `resource_link` block: by URL for an `http` or `https` uri, with the data
    of a `data:` uri (decoded, as `ContentPart.from_url` does), else a note saying it was left
    out (a `javascript:` or `file:` link is not shown to a person, nor sent to a model or a
    provider, and the note does not repeat it). Its name, cut to a file name, is the part's."""
    uri = _string(block, "uri", path)
    if not uri:
        raise _problem(f"{path}.uri", "expected a non-empty URI")
    mime_type = block.get("mimeType") or ""
    if not isinstance(mime_type, str):
        raise _problem(f"{path}.mimeType", "expected a string")
    if mime_type:
        _mime_type(mime_type, f"{path}.mimeType")
    label = block.get("name") or ""
    if not isinstance(label, str):
        raise _problem(f"{path}.name", "expected a string")
    title = _optional_text(block, "title", path)
    description = _optional_text(block, "description", path, lines=True)
    annotations = _annotations(block, path)
    # MCP requires a name; `mcp_call_tool_result` writes the uri for a part without one.
    name = "" if label == uri else displayable(label.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1])
    if name in (".", ".."):
        name = ""
    if uri[:5].lower() == "data:":
        try:
            part = ContentPart.from_url(uri, mime_type or None, name=name or None)
        except ValueError as exc:
            raise _problem(f"{path}.uri", str(exc)) from None
        part.title, part.description = title, description
        if annotations is not None:
            part.annotations = annotations
        return part
    try:
        check_url(uri)
    except ValueError:
        shown = f" {name!r}" if name else ""
        return f"[resource_link{shown} left out: its URL is not an http, https or data: URL]"
    kind = ContentPart.kind_for(mime_type) if mime_type else "file"
    return ContentPart(
        kind,
        mime_type=mime_type,
        url=uri,
        name=name,
        title=title,
        description=description,
        annotations=annotations,
    )


def _text(text: str, annotations: Annotations | None, texts: list[str], parts: list[ContentPart]) -> None:
    """A text block's text: a line of the output, or, when the block has annotations, a text
    part holding them, so that they stay with the text they describe (an audience of the
    user alone keeps it from the model)."""
    if annotations is None or not text:
        texts.append(text)
    else:
        parts.append(ContentPart("text", text=text, annotations=annotations))


def _resource(block: Mapping[str, Any], texts: list[str], parts: list[ContentPart], block_path: str) -> bool:
    """An embedded resource: its text as a text block's, its blob as a part; True for text."""
    annotations = _annotations(block, block_path)
    resource, path = block.get("resource"), f"{block_path}.resource"
    if not isinstance(resource, Mapping):
        raise _problem(path, "expected an object")
    uri = _string(resource, "uri", path)
    if "text" in resource:
        _text(_string(resource, "text", path), annotations, texts, parts)
        return True
    mime_type = resource.get("mimeType") or "application/octet-stream"
    if not isinstance(mime_type, str):
        raise _problem(f"{path}.mimeType", "expected a string")
    _mime_type(mime_type, f"{path}.mimeType")
    blob = _string(resource, "blob", path)
    part = _part(ContentPart.kind_for(mime_type), mime_type, blob, _name_of(uri, path), path, "blob")
    if annotations is not None:
        part.annotations = annotations
    parts.append(part)
    return False


def from_mcp_call_tool_result(obj: Mapping[str, Any]) -> ToolResult:
    """A `ToolResult` from an MCP `CallToolResult` (as a decoded JSON object).

    Text blocks and embedded text resources are joined with newlines into `output`,
    except those with `annotations`, which become text parts holding them; when there is
    no text at all, `structuredContent` becomes the output as JSON text (a server that
    sends both is asked by MCP to repeat the structure as text). Image and audio blocks
    and embedded blobs become parts, with their block's `annotations`; a resource link
    becomes a part by URL when its uri is `http` or `https`, a part holding the data of a
    `data:` uri (either with the link's `title`, `description` and `annotations`), and a
    line saying it was left out for any other scheme (`javascript:`, `file:`...);
    `isError` is kept; `_meta` is kept host-only in `metadata["_meta"]`. A block of an
    unknown type becomes a line saying it was left out. Names have control and bidi
    formatting characters replaced with U+FFFD. Raises `WireError` naming the path of
    the first malformed place, a MIME type that is blank or holds a control character
    included.

    MCP's `input_required` result (`resultType: "input_required"`) becomes a suspension:
    its elicitations' messages are the prompt (a single URL-mode one is an
    `authorization` with its url, anything else `input`), and the MCP requests and
    `requestState` are kept in the request's `data["mcp"]`, for `mcp_input_responses`.
    The prompt is shown to a person, so control and bidi formatting characters in it
    (a NUL, a terminal's escape sequences) become U+FFFD; line breaks and tabs stay. A
    URL-mode elicitation whose url is not `http` or `https` is a `WireError` at its
    `url`: it is not asked.
    """
    if not isinstance(obj, Mapping):
        raise _problem("$", "expected an object")
    if obj.get("resultType") == _INPUT_REQUIRED:
        return _from_input_required(obj)
    content = obj.get("content", [])
    if not isinstance(content, list):
        raise _problem("$.content", "expected an array")
    texts, parts, had_text = _blocks(content)
    output = "\n".join(texts)
    structured = obj.get("structuredContent")
    if structured is not None:
        try:
            as_text = dumps(structured, max_depth=MAX_DEPTH)
        except (ValueError, TypeError, RecursionError) as exc:  # NaN or Infinity, which `json.loads` reads
            raise _problem("$.structuredContent", f"not JSON: {exc}") from None
        if not texts and not had_text:
            output = as_text
    is_error = obj.get("isError", False)
    if not isinstance(is_error, bool):
        raise _problem("$.isError", "expected a boolean")
    result = ToolResult(output=output, is_error=is_error, parts=parts, structured_content=structured)
    meta = obj.get("_meta")
    if meta is not None:
        if not isinstance(meta, Mapping):
            raise _problem("$._meta", "expected an object")
        result = result.with_metadata({"_meta": dict(meta)})
    return result


def _blocks(content: list[Any]) -> tuple[list[str], list[ContentPart], bool]:
    """A `CallToolResult`'s content blocks: the texts of `output`, the parts, and whether any
    block was text (a text block or an embedded text resource, annotated or not)."""
    texts: list[str] = []
    parts: list[ContentPart] = []
    had_text = False
    for i, block in enumerate(content):
        path = f"$.content[{i}]"
        if not isinstance(block, Mapping):
            raise _problem(path, "expected an object")
        kind = block.get("type")
        if kind == "text":
            had_text = True
            _text(_string(block, "text", path), _annotations(block, path), texts, parts)
        elif kind in ("image", "audio"):
            data, mime_type = _string(block, "data", path), _string(block, "mimeType", path)
            part = _part(str(kind), mime_type, data, None, path, "data")
            annotations = _annotations(block, path)
            if annotations is not None:
                part.annotations = annotations
            parts.append(part)
        elif kind == "resource":
            had_text = _resource(block, texts, parts, path) or had_text
        elif kind == "resource_link":
            link = _link(block, path)
            if isinstance(link, str):
                texts.append(link)
            else:
                parts.append(link)
        else:
            texts.append(f"[{kind} content left out]")
    return texts, parts, had_text


# --- MCP's `input_required` result (protocol 2026-07-28): a suspension, both ways ------------------
#
# A server that needs input before a tool call can finish returns, instead of a
# `CallToolResult`, `{"resultType": "input_required", "inputRequests": {key: request},
# "requestState": "..."}`; the client fulfils the requests and calls the tool again with
# `inputResponses` (keyed the same) and the `requestState` echoed. Elicitation requests ask a
# person: form mode for input, URL mode for an authorization out of band.

_INPUT_REQUIRED = "input_required"
_ELICIT = "elicitation/create"
_ACTIONS = {"declined": "decline", "cancelled": "cancel", "expired": "cancel"}


def mcp_input_required(result: ToolResult) -> dict[str, Any] | None:
    """For a suspension, MCP's `input_required` result asking its request as one
    elicitation under the request's id; None for any other result.

    An `authorization` request with a url becomes a URL-mode elicitation; any other a
    form, whose `requestedSchema` is the request's `data["schema"]` when it has one (else
    an empty form: a confirmation). The toolkit's own approval of a call is the engine's
    `approval_form`: one text field, `arguments`, holding the call's arguments as JSON (the
    asked ones its default), so a generic client shows them to edit; its prompt shows them
    too, as indented JSON. A server answers with `answer_from_mcp` on the retry.
    """
    request = pending_of(result)
    if request is None:
        return None
    params: dict[str, Any]
    if request.kind == "authorization" and request.url:
        params = {"mode": "url", "message": request.prompt, "url": request.url}
    else:
        schema = approval_form(request) or (request.data or {}).get("schema")
        if not isinstance(schema, Mapping):
            schema = {"type": "object", "properties": {}}
        params = {"mode": "form", "message": _message(request), "requestedSchema": dict(schema)}
    return {
        "resultType": _INPUT_REQUIRED,
        "inputRequests": {request.id: {"method": _ELICIT, "params": params}},
    }


def _message(request: Request) -> str:
    """A form's message: the prompt, and for an approval of a call the arguments it runs with."""
    arguments = (request.data or {}).get("arguments")
    if request.kind != "approval" or not isinstance(arguments, Mapping):
        return request.prompt
    return f"{request.prompt}\n{json.dumps(arguments, ensure_ascii=False, indent=2)}"


def answer_from_mcp(request: Request, input_responses: Mapping[str, Any]) -> Answer:
    """The `Answer` to `request` in the `inputResponses` of a retried call (the client's
    `ElicitResult` under the request's id). Raises `WireError` when it is missing or malformed.

    MCP form content holds only strings, numbers and booleans, so the edited arguments of the
    toolkit's own approval (`needs_approval`) travel as JSON text in `content["arguments"]`:
    for such a request that text is read back into the value it spells (text that is not JSON
    stays a string, which the loop refuses as arguments that are not an object)."""
    where = f"$.inputResponses[{dumps(request.id)}]"
    response = input_responses.get(request.id) if isinstance(input_responses, Mapping) else None
    if not isinstance(response, Mapping):
        raise WireError("InputResponses", [(where, "expected the elicitation result for this request")])
    action = response.get("action")
    if action == "accept":
        content = response.get("content")
        if content is not None and not isinstance(content, Mapping):
            raise WireError("InputResponses", [(f"{where}.content", "expected an object")])
        data = dict(content) if content is not None else None
        if (
            data is not None
            and isinstance(data.get("arguments"), str)
            and is_approval(_tool_of(request), request)
        ):
            with contextlib.suppress(ValueError):
                data["arguments"] = json.loads(data["arguments"])
        return Answer(request.id, True, data)
    if action in ("decline", "cancel"):
        return Answer(request.id, False, reason="declined" if action == "decline" else "cancelled")
    raise WireError("InputResponses", [(f"{where}.action", "expected accept, decline or cancel")])


def _defaults(schema: Any) -> dict[str, Any]:
    """The `default` of each field of a form's JSON Schema that declares one, by field name."""
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(properties, Mapping):
        return {}
    return {
        name: field["default"]
        for name, field in properties.items()
        if isinstance(field, Mapping) and "default" in field
    }


def form_defaults(request: Request) -> dict[str, Any]:
    """What an answer to `request` holds before a person types anything (an inbox pre-fills
    its form with it): the `default` of each field of its form, as `mcp_input_responses`
    fills in the fields an answer leaves out. A request from an MCP server's elicitation
    (`data["mcp"]`) has the `requestedSchema` of its form (of each, keyed by input request,
    when it has several); any other, its `data["schema"]`."""
    data = request.data if isinstance(request.data, Mapping) else {}
    mcp = data.get("mcp")
    requests = mcp.get("inputRequests") if isinstance(mcp, Mapping) else None
    if not isinstance(requests, Mapping):
        return _defaults(data.get("schema"))
    forms = {
        key: item["params"].get("requestedSchema")
        for key, item in requests.items()
        if isinstance(item, Mapping)
        and item.get("method") == _ELICIT
        and isinstance(item.get("params"), Mapping)
        and item["params"].get("mode") != "url"
    }
    if len(forms) == 1:
        return _defaults(next(iter(forms.values())))
    return {key: found for key, schema in forms.items() if (found := _defaults(schema))}


def _tool_of(request: Request) -> str:
    tool = (request.data or {}).get("tool")
    return tool if isinstance(tool, str) else ""


def _from_input_required(obj: Mapping[str, Any]) -> ToolResult:
    requests = obj.get("inputRequests")
    state = obj.get("requestState")
    if requests is not None and not isinstance(requests, Mapping):
        raise _problem("$.inputRequests", "expected an object")
    if state is not None and not isinstance(state, str):
        raise _problem("$.requestState", "expected a string")
    if not requests and state is None:
        raise _problem("$", "an input_required result needs inputRequests or requestState")
    prompts: list[str] = []
    urls: list[str] = []
    for key, item in (requests or {}).items():
        path = f"$.inputRequests[{dumps(key)}]"
        if not isinstance(item, Mapping):
            raise _problem(path, "expected an object")
        method = item.get("method")
        params = item.get("params")
        if not isinstance(method, str):
            raise _problem(f"{path}.method", "expected a string")
        if not isinstance(params, Mapping):
            raise _problem(f"{path}.params", "expected an object")
        if method == _ELICIT:
            prompts.append(displayable(_string(params, "message", f"{path}.params"), lines=True))
            if params.get("mode") == "url":
                url = _string(params, "url", f"{path}.params")
                try:
                    urls.append(check_url(url))
                except ValueError as exc:
                    raise _problem(
                        f"{path}.params.url", f"a person is sent only to an http or https URL: {exc}"
                    ) from None
        elif method == "sampling/createMessage":
            prompts.append("[the server asks the client for a model completion]")
        elif method == "roots/list":
            prompts.append("[the server asks for the client's roots]")
        else:
            prompts.append(f"[the server asks for {displayable(method)}]")
    mcp: dict[str, Any] = {}
    if requests is not None:
        mcp["inputRequests"] = dict(requests)
    if state is not None:
        mcp["requestState"] = state
    if len(prompts) == 1 and len(urls) == 1:
        request = Request("authorization", prompts[0], url=urls[0], data={"mcp": mcp})
    else:
        request = Request(
            "input", "\n".join(prompts) or "The server needs input to continue", data={"mcp": mcp}
        )
    result = pending(request)
    meta = obj.get("_meta")
    if meta is not None:
        if not isinstance(meta, Mapping):
            raise _problem("$._meta", "expected an object")
        result = result.with_metadata({"_meta": dict(meta)})
    return result


def mcp_input_responses(request: Request, answer: Answer) -> dict[str, Any]:
    """The params to add to the retried `tools/call` for a suspension that came from an
    `input_required` result: `inputResponses` (one `ElicitResult` per elicitation) and the
    `requestState` echoed. With one form, `answer.data` is its content; with several,
    `answer.data` maps each input request's key to its content. A form's content holds the
    `default` of every field of its `requestedSchema` the answer leaves out (SEP-1034), so a
    person who accepts a form as offered sends what it offered. Raises `ValueError` when
    the answer is for another request, or when the server asked for something other
    than an elicitation (sampling, roots), which the host answers itself.
    """
    if answer.id != request.id:
        raise UsageError(f"the answer is for {answer.id!r}, not for the request {request.id!r}")
    mcp = (request.data or {}).get("mcp")
    if not isinstance(mcp, Mapping):
        raise UsageError("the request did not come from an MCP input_required result")
    requests = mcp.get("inputRequests") or {}
    if not isinstance(requests, Mapping) or not all(
        isinstance(r, Mapping) and isinstance(r.get("params"), Mapping) for r in requests.values()
    ):
        raise UsageError("the request's data['mcp']['inputRequests'] is not a map of MCP requests")
    for key, item in requests.items():
        if item.get("method") != _ELICIT:
            raise UsageError(f"inputRequests[{key!r}] is {item.get('method')!r}: the host answers it itself")
    forms = [key for key, item in requests.items() if item["params"].get("mode") != "url"]
    responses: dict[str, Any] = {}
    for key in requests:
        if not answer.ok:
            responses[key] = {"action": _ACTIONS.get(answer.reason or "cancelled", "cancel")}
            continue
        response: dict[str, Any] = {"action": "accept"}
        if key in forms:
            content = answer.data if len(forms) == 1 else (answer.data or {}).get(key)
            given = dict(content) if isinstance(content, Mapping) else {}
            response["content"] = {**_defaults(requests[key]["params"].get("requestedSchema")), **given}
        responses[key] = response
    out: dict[str, Any] = {"inputResponses": responses}
    if "requestState" in mcp:
        out["requestState"] = mcp["requestState"]
    return out
