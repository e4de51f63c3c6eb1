# Generated from idl/ (toolnexus schema 3.0.0, sha256 7c02d43fec5c2c9bfa10d6191917dc130547ddb2023763bf62894f137966e7a2).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

from __future__ import annotations

from typing import Annotated, Any, Literal
from pydantic import BaseModel, ConfigDict, Field
from toolnexus_wire._base import given, wire_init
from toolnexus_wire._bases import (
    AnnotationsBase,
    AnswerBase,
    ContentPartBase,
    RequestBase,
    RunResultBase,
    ToolCallBase,
    ToolCallResultBase,
    ToolEventBase,
    ToolHintsBase,
    ToolIconBase,
    ToolResultBase,
    ToolSpecBase,
)


class Annotations(AnnotationsBase):
    """
    Hints about a content part for the host that shows it (MCP's `Annotations` of a content block): who it is for, how much it matters, and when it last changed. Advisory: a part is valid without them, and they never change what the part holds.

    Fields (wire key in brackets where it differs):
        audience: Who the part is meant for: `user` (the person using the host), `assistant` (the model), or both. Absent means both. Empty is omitted (and reads as absent). A provider adapter leaves a part whose audience is `user` alone out of the model's message.
        priority: How much the part matters, from 0 (entirely optional) to 1 (required), as MCP has it. The number keeps its text, as every JSON number here does: `1` is written back `1`, `1.0` as `1.0`.
        last_modified [lastModified]: When the content last changed, as an ISO 8601 date-time; kept as sent, not checked (MCP does not check it either).

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self,
        audience: list[Literal["user", "assistant"]] | None = None,
        priority: float | None = None,
        last_modified: str | None = None,
    ) -> None:
        """A `Annotations` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(
            self,
            **given(audience=audience, priority=priority, last_modified=last_modified),
        )

    audience: list[Literal["user", "assistant"]] = []
    """
    Who the part is meant for: `user` (the person using the host), `assistant` (the model), or both. Absent means both. Empty is omitted (and reads as absent). A provider adapter leaves a part whose audience is `user` alone out of the model's message.
    """
    priority: Annotated[float | None, Field(ge=0.0, le=1.0)] = None
    """
    How much the part matters, from 0 (entirely optional) to 1 (required), as MCP has it. The number keeps its text, as every JSON number here does: `1` is written back `1`, `1.0` as `1.0`.
    """
    last_modified: Annotated[str | None, Field(alias="lastModified")] = None
    """
    When the content last changed, as an ISO 8601 date-time; kept as sent, not checked (MCP does not check it either).
    """


class ContentPart(ContentPartBase):
    """
    One part of a tool result beyond its `output`, as every upstream toolnexus port writes it: text, an image, audio or any other file, carried inline as base64 `data` or by reference as a `url`. A part is built to carry something: a `text` part its `text`, any other part its `data`, its `url` or both (then `data` is the content and `url` where it came from; adapters send `data`). A part that carries nothing (upstream's `ContentPart::text("")` writes `{"type":"text"}`) is read and kept through a round trip, but never built here, and adapters send a note in its place. An empty string field is omitted from the wire, and an absent one reads as empty. `title`, `description` and `annotations` describe the part for the host and change nothing it carries.

    Fields (wire key in brackets where it differs):
        kind [type]: What the part holds: `text` (in `text`), `image`, `audio`, or `file` for anything else, video included. The APIs name this field `kind`.
        text: The text of a `text` part.
        mime_type [mimeType]: The IANA media type of the content, such as `image/png` or `application/pdf`; a part with `data` needs one, and so does a part by `url` in the helpers.
        data: The content's bytes, standard base64 (RFC 4648 section 4) with padding.
        url: Where the content is, when it is carried by reference instead of as `data` (an MCP resource link).
        name: A file name for the content, when it has one; never a path.
        title: A name for people to read, which a host shows in place of `name` (MCP's `title` of a resource link); a provider adapter sends it only where the provider has a title field (an Anthropic document's).
        description: What the content is, in a sentence (MCP's `description` of a resource link), for the host to show with the part; a provider adapter sends it only where the provider has a field for it (an Anthropic document's `context`).
        annotations: Hints for the host about this part: who it is for, how much it matters, when it last changed (MCP's content `annotations`).

    Helpers (from ContentPartHelpers): kind_for, from_text, from_bytes, from_url, from_path, raw.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self,
        kind: Literal["text", "image", "audio", "file"],
        text: str = "",
        mime_type: str = "",
        data: str = "",
        url: str = "",
        name: str = "",
        title: str = "",
        description: str = "",
        annotations: Annotations | None = None,
    ) -> None:
        """A `ContentPart` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(
            self,
            kind=kind,
            text=text,
            mime_type=mime_type,
            data=data,
            url=url,
            name=name,
            title=title,
            description=description,
            **given(annotations=annotations),
        )

    kind: Annotated[Literal["text", "image", "audio", "file"], Field(alias="type")]
    """
    What the part holds: `text` (in `text`), `image`, `audio`, or `file` for anything else, video included. The APIs name this field `kind`.
    """
    text: str = ""
    """
    The text of a `text` part.
    """
    mime_type: Annotated[str, Field(alias="mimeType")] = ""
    """
    The IANA media type of the content, such as `image/png` or `application/pdf`; a part with `data` needs one, and so does a part by `url` in the helpers.
    """
    data: Annotated[
        str,
        Field(
            pattern="^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"
        ),
    ] = ""
    """
    The content's bytes, standard base64 (RFC 4648 section 4) with padding.
    """
    url: str = ""
    """
    Where the content is, when it is carried by reference instead of as `data` (an MCP resource link).
    """
    name: str = ""
    """
    A file name for the content, when it has one; never a path.
    """
    title: str = ""
    """
    A name for people to read, which a host shows in place of `name` (MCP's `title` of a resource link); a provider adapter sends it only where the provider has a title field (an Anthropic document's).
    """
    description: str = ""
    """
    What the content is, in a sentence (MCP's `description` of a resource link), for the host to show with the part; a provider adapter sends it only where the provider has a field for it (an Anthropic document's `context`).
    """
    annotations: Annotations | None = None
    """
    Hints for the host about this part: who it is for, how much it matters, when it last changed (MCP's content `annotations`).
    """


class Request(RequestBase):
    """
    What a suspended tool asks of the host before it can finish: an approval, an authorization, input or an answer to a question. It travels in `ToolResult.metadata["pending"]`.

    Fields (wire key in brackets where it differs):
        id: Identifies the request; the `Answer` carries the same id. Generated as `pnd-` followed by random hex when a tool leaves it empty.
        kind: What is asked: `approval`, `authorization` (with a `url`; the only kind through which secrets may travel), `input` or `question`.
        prompt: The text shown to the person who answers.
        url: Where the person goes to answer, such as a login page for an `authorization` request.
        data: Structured detail for the host, such as a JSON Schema for the input asked for.
        expires_at [expiresAt]: When the request stops being answerable, as an RFC 3339 date-time; an answer after it counts as `expired`. Any other string is kept as sent (upstream ports do not check it): the loop counts an unreadable time as already passed, and an empty string as no expiry.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self,
        kind: str,
        prompt: str,
        id: str = "",
        url: str | None = None,
        data: dict[str, Any] | None = None,
        expires_at: str | None = None,
    ) -> None:
        """A `Request` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(
            self,
            id=id,
            kind=kind,
            prompt=prompt,
            **given(url=url, data=data, expires_at=expires_at),
        )

    id: str
    """
    Identifies the request; the `Answer` carries the same id. Generated as `pnd-` followed by random hex when a tool leaves it empty.
    """
    kind: Annotated[str, Field(min_length=1)]
    """
    What is asked: `approval`, `authorization` (with a `url`; the only kind through which secrets may travel), `input` or `question`.
    """
    prompt: str
    """
    The text shown to the person who answers.
    """
    url: str | None = None
    """
    Where the person goes to answer, such as a login page for an `authorization` request.
    """
    data: dict[str, Any] | None = None
    """
    Structured detail for the host, such as a JSON Schema for the input asked for.
    """
    expires_at: Annotated[str | None, Field(alias="expiresAt")] = None
    """
    When the request stops being answerable, as an RFC 3339 date-time; an answer after it counts as `expired`. Any other string is kept as sent (upstream ports do not check it): the loop counts an unreadable time as already passed, and an empty string as no expiry.
    """


class Answer(AnswerBase):
    """
    The host's reply to a `Request`: the tool is run once more with it in its context.

    Fields (wire key in brackets where it differs):
        id: The id of the `Request` this answers.
        ok: True when the request was granted or answered; false when it was declined, cancelled or expired.
        data: What the person supplied, such as the input asked for.
        reason: Why the answer is not ok: `declined`, `cancelled` or `expired`. The upstream ports take any text here; this contract refuses any other value (send `declined`, and the text in `data`).
        message: Why the answer refuses, in words for the model: the call's result then reads `declined: <message>` (its first 1,000 characters, then `…`, when it is longer). Ignored on an answer that is `ok`.
        scope: How far the decision reaches: `once` (this call; the default), `turn` (every call to the same tool that waits on an approval in this turn), `session:<id>` (every call to the same tool in the host's session `<id>`), `principal` (every call to the same tool made for the same principal), `tool` (every call to the same tool). A decision beyond the turn is kept by the host as a policy, which expires, and which the host can list and revoke.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self,
        id: str,
        ok: bool,
        data: dict[str, Any] | None = None,
        reason: Literal["declined", "cancelled", "expired"] | None = None,
        message: str | None = None,
        scope: str | None = None,
    ) -> None:
        """A `Answer` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(
            self,
            id=id,
            ok=ok,
            **given(data=data, reason=reason, message=message, scope=scope),
        )

    id: str
    """
    The id of the `Request` this answers.
    """
    ok: bool
    """
    True when the request was granted or answered; false when it was declined, cancelled or expired.
    """
    data: dict[str, Any] | None = None
    """
    What the person supplied, such as the input asked for.
    """
    reason: Literal["declined", "cancelled", "expired"] | None = None
    """
    Why the answer is not ok: `declined`, `cancelled` or `expired`. The upstream ports take any text here; this contract refuses any other value (send `declined`, and the text in `data`).
    """
    message: Annotated[str | None, Field(min_length=1)] = None
    """
    Why the answer refuses, in words for the model: the call's result then reads `declined: <message>` (its first 1,000 characters, then `…`, when it is longer). Ignored on an answer that is `ok`.
    """
    scope: Annotated[
        str | None, Field(pattern="^(once|turn|tool|principal|session:\\S.*)$")
    ] = None
    """
    How far the decision reaches: `once` (this call; the default), `turn` (every call to the same tool that waits on an approval in this turn), `session:<id>` (every call to the same tool in the host's session `<id>`), `principal` (every call to the same tool made for the same principal), `tool` (every call to the same tool). A decision beyond the turn is kept by the host as a policy, which expires, and which the host can list and revoke.
    """


class ToolResult(ToolResultBase):
    """
    The envelope every tool returns: text for the model, an error flag, non-text parts, and host-only metadata that never reaches the model.

    Fields (wire key in brackets where it differs):
        output: The text the model reads; structured data goes in as JSON text.
        is_error [isError]: True when the tool failed; the failure is a result the model can read, never an exception crossing the tool boundary.
        parts: Output beyond `output`, such as images, files, text and links, in order; omitted from the wire when empty.
        structured_content [structuredContent]: The result as structured data (an object, array, string, number or boolean), matching the tool's `outputSchema` when it declares one; `output` then carries the same value as JSON text, for models that read only text. Named as MCP's `CallToolResult` names it.
        metadata: Free-form JSON for the host only (exit codes, diffs, timings); never sent to a model. The key `pending` is reserved: it holds a `Request` when the result is a suspension. The key `declined` is reserved too: on the error result the loop writes for a request that was refused or expired (an approval asked before a tool runs, or a tool's own question), it holds `{"request": <that request's id>, "reason": "declined" | "cancelled" | "expired"}`, so a host tells a denial from a tool failure; such a result's `output` starts with `declined`.

    Helpers (from ToolResultHelpers): ok, error, with_metadata.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self,
        output: str,
        is_error: bool = False,
        parts: list[ContentPart] | None = None,
        structured_content: Any | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> None:
        """A `ToolResult` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(
            self,
            output=output,
            is_error=is_error,
            **given(
                parts=parts, structured_content=structured_content, metadata=metadata
            ),
        )

    output: str
    """
    The text the model reads; structured data goes in as JSON text.
    """
    is_error: Annotated[bool, Field(alias="isError")] = False
    """
    True when the tool failed; the failure is a result the model can read, never an exception crossing the tool boundary.
    """
    parts: Annotated[list[ContentPart], Field(validate_default=True)] = []
    """
    Output beyond `output`, such as images, files, text and links, in order; omitted from the wire when empty.
    """
    structured_content: Annotated[Any | None, Field(alias="structuredContent")] = None
    """
    The result as structured data (an object, array, string, number or boolean), matching the tool's `outputSchema` when it declares one; `output` then carries the same value as JSON text, for models that read only text. Named as MCP's `CallToolResult` names it.
    """
    metadata: dict[str, Any] | None = None
    """
    Free-form JSON for the host only (exit codes, diffs, timings); never sent to a model. The key `pending` is reserved: it holds a `Request` when the result is a suspension. The key `declined` is reserved too: on the error result the loop writes for a request that was refused or expired (an approval asked before a tool runs, or a tool's own question), it holds `{"request": <that request's id>, "reason": "declined" | "cancelled" | "expired"}`, so a host tells a denial from a tool failure; such a result's `output` starts with `declined`.
    """


class ToolIcon(ToolIconBase):
    """
    An icon a host may show for a tool (MCP's `Icon`); never sent to a model.

    Fields (wire key in brackets where it differs):
        src: Where the icon is: an `https` URL or a `data:` URI.
        mime_type [mimeType]: The icon's media type, when the URL does not say it.
        sizes: The sizes it comes in, as HTML writes them (`48x48`, `any`). Empty is omitted.
        theme: The background it is drawn for.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self,
        src: str,
        mime_type: str | None = None,
        sizes: list[str] | None = None,
        theme: Literal["light", "dark"] | None = None,
    ) -> None:
        """A `ToolIcon` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(
            self, src=src, **given(mime_type=mime_type, sizes=sizes, theme=theme)
        )

    src: Annotated[str, Field(min_length=1)]
    """
    Where the icon is: an `https` URL or a `data:` URI.
    """
    mime_type: Annotated[str | None, Field(alias="mimeType")] = None
    """
    The icon's media type, when the URL does not say it.
    """
    sizes: list[str] = []
    """
    The sizes it comes in, as HTML writes them (`48x48`, `any`). Empty is omitted.
    """
    theme: Literal["light", "dark"] | None = None
    """
    The background it is drawn for.
    """


class ToolHints(ToolHintsBase):
    """
    Advisory hints about how a tool behaves, for the host (an approval policy, MCP tool annotations, whether an MCP server runs its calls as tasks); never sent to a model. Upstream toolnexus 0.22 writes the first three.

    Fields (wire key in brackets where it differs):
        read_only [readOnly]: The tool does not change its environment.
        destructive: The tool may delete or overwrite; meaningful only when it is not read-only.
        open_world [openWorld]: The tool reaches entities outside a closed domain, such as the web.
        idempotent: Calling the tool again with the same arguments has no further effect; meaningful only when it is not read-only (MCP's `idempotentHint`).
        title: A name for people to read (MCP's `title` of a tool); the model still sees the tool's `name`.
        long_running [longRunning]: A call may take long (minutes, or a person's answer): an MCP server runs it as a task (the `io.modelcontextprotocol/tasks` extension) for a client that supports tasks.
        icons: Icons a host may show for the tool (MCP's `icons`). Empty is omitted.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self,
        read_only: bool = False,
        destructive: bool = True,
        open_world: bool = True,
        idempotent: bool | None = None,
        title: str | None = None,
        long_running: bool | None = None,
        icons: list[ToolIcon] | None = None,
    ) -> None:
        """A `ToolHints` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(
            self,
            read_only=read_only,
            destructive=destructive,
            open_world=open_world,
            **given(
                idempotent=idempotent,
                title=title,
                long_running=long_running,
                icons=icons,
            ),
        )

    read_only: Annotated[bool, Field(alias="readOnly")]
    """
    The tool does not change its environment.
    """
    destructive: bool
    """
    The tool may delete or overwrite; meaningful only when it is not read-only.
    """
    open_world: Annotated[bool, Field(alias="openWorld")]
    """
    The tool reaches entities outside a closed domain, such as the web.
    """
    idempotent: bool | None = None
    """
    Calling the tool again with the same arguments has no further effect; meaningful only when it is not read-only (MCP's `idempotentHint`).
    """
    title: str | None = None
    """
    A name for people to read (MCP's `title` of a tool); the model still sees the tool's `name`.
    """
    long_running: Annotated[bool | None, Field(alias="longRunning")] = None
    """
    A call may take long (minutes, or a person's answer): an MCP server runs it as a task (the `io.modelcontextprotocol/tasks` extension) for a client that supports tasks.
    """
    icons: Annotated[list[ToolIcon], Field(validate_default=True)] = []
    """
    Icons a host may show for the tool (MCP's `icons`). Empty is omitted.
    """


class ToolSpec(ToolSpecBase):
    """
    How a tool is declared to a model: its name, what it does, and the JSON Schemas of its arguments and, when it has one, of its structured output.

    Fields (wire key in brackets where it differs):
        name: The tool's name, made of ASCII letters, digits, `_` and `-`.
        description: What the tool does, written for the model.
        input_schema [inputSchema]: The JSON Schema that the tool's arguments satisfy; an object schema.
        source: Where the tool comes from, such as `python:package.module.function` or `mcp:server-name`.
        hints: Advisory hints about how the tool behaves, when it declares them; host-only: an adapter sends them to MCP as tool annotations and to no model.
        output_schema [outputSchema]: The JSON Schema that the tool's `structuredContent` satisfies, when the tool returns structured data; an object schema. Named as MCP names it.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self,
        name: str,
        description: str,
        input_schema: dict[str, Any],
        source: str | None = None,
        hints: ToolHints | None = None,
        output_schema: dict[str, Any] | None = None,
    ) -> None:
        """A `ToolSpec` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(
            self,
            name=name,
            description=description,
            input_schema=input_schema,
            **given(source=source, hints=hints, output_schema=output_schema),
        )

    name: Annotated[str, Field(pattern="^[A-Za-z0-9_-]+$")]
    """
    The tool's name, made of ASCII letters, digits, `_` and `-`.
    """
    description: str
    """
    What the tool does, written for the model.
    """
    input_schema: Annotated[dict[str, Any], Field(alias="inputSchema")]
    """
    The JSON Schema that the tool's arguments satisfy; an object schema.
    """
    source: str | None = None
    """
    Where the tool comes from, such as `python:package.module.function` or `mcp:server-name`.
    """
    hints: ToolHints | None = None
    """
    Advisory hints about how the tool behaves, when it declares them; host-only: an adapter sends them to MCP as tool annotations and to no model.
    """
    output_schema: Annotated[dict[str, Any] | None, Field(alias="outputSchema")] = None
    """
    The JSON Schema that the tool's `structuredContent` satisfies, when the tool returns structured data; an object schema. Named as MCP names it.
    """


class ToolCall(ToolCallBase):
    """
    One tool call that a model asked for in a turn.

    Fields (wire key in brackets where it differs):
        id: The provider's id for the call; the result goes back under the same id.
        name: The name of the tool to call.
        arguments: The arguments, already parsed from the model's JSON text.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(self, id: str, name: str, arguments: dict[str, Any]) -> None:
        """A `ToolCall` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(self, id=id, name=name, arguments=arguments)

    id: str
    """
    The provider's id for the call; the result goes back under the same id.
    """
    name: str
    """
    The name of the tool to call.
    """
    arguments: dict[str, Any]
    """
    The arguments, already parsed from the model's JSON text.
    """


class ToolCallResult(ToolCallResultBase):
    """
    The result of one `ToolCall`, under the call's id and tool name.

    Fields (wire key in brackets where it differs):
        id: The id of the `ToolCall` this answers.
        name: The name of the tool that ran.
        result: What the tool returned.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(self, id: str, name: str, result: ToolResult) -> None:
        """A `ToolCallResult` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(self, id=id, name=name, result=result)

    id: str
    """
    The id of the `ToolCall` this answers.
    """
    name: str
    """
    The name of the tool that ran.
    """
    result: ToolResult
    """
    What the tool returned.
    """


class RunResult(RunResultBase):
    """
    The outcome of running one turn of tool calls: every result, or a stop on a suspension that a host can store and resume from later, in another process.

    Fields (wire key in brackets where it differs):
        status: `done` when every call has its result; `pending` when the run stopped on a suspension and waits for an `Answer`.
        results: The finished results, in call order.
        pending: The request the run waits on; present exactly when `status` is `pending`.
        calls: The calls that have no result yet, in call order; the first is the one whose suspension is `pending`. Omitted when empty.
        requests: The suspensions of the calls in `calls`: one `Request` per call, in the same order, the first being `pending`. `resume` asks each waiting call's own request in turn rather than running the call again. Omitted when empty.
        order: The ids of the turn's calls, in call order, kept by a `pending` run so that the results come back in call order after a `resume`. Omitted when empty.
        turn: Identifies the turn, together with `order`: a random id `run_calls` writes on a pending run (or the host's own `turn_id`), so that calls of two turns that reuse an id (`call_0`) get different idempotency keys and answers. Omitted when empty.
        seal: A tamper-evident seal over `results`, `pending`, `calls`, `requests`, `order` and `turn`, present when the host runs with a secret; `resume` rejects a run whose seal does not match.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self,
        status: Literal["done", "pending"],
        results: list[ToolCallResult],
        pending: Request | None = None,
        calls: list[ToolCall] | None = None,
        requests: list[Request] | None = None,
        order: list[str] | None = None,
        turn: str = "",
        seal: str | None = None,
    ) -> None:
        """A `RunResult` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(
            self,
            status=status,
            results=results,
            turn=turn,
            **given(
                pending=pending, calls=calls, requests=requests, order=order, seal=seal
            ),
        )

    status: Literal["done", "pending"]
    """
    `done` when every call has its result; `pending` when the run stopped on a suspension and waits for an `Answer`.
    """
    results: list[ToolCallResult]
    """
    The finished results, in call order.
    """
    pending: Request | None = None
    """
    The request the run waits on; present exactly when `status` is `pending`.
    """
    calls: Annotated[list[ToolCall], Field(validate_default=True)] = []
    """
    The calls that have no result yet, in call order; the first is the one whose suspension is `pending`. Omitted when empty.
    """
    requests: Annotated[list[Request], Field(validate_default=True)] = []
    """
    The suspensions of the calls in `calls`: one `Request` per call, in the same order, the first being `pending`. `resume` asks each waiting call's own request in turn rather than running the call again. Omitted when empty.
    """
    order: list[str] = []
    """
    The ids of the turn's calls, in call order, kept by a `pending` run so that the results come back in call order after a `resume`. Omitted when empty.
    """
    turn: str = ""
    """
    Identifies the turn, together with `order`: a random id `run_calls` writes on a pending run (or the host's own `turn_id`), so that calls of two turns that reuse an id (`call_0`) get different idempotency keys and answers. Omitted when empty.
    """
    seal: str | None = None
    """
    A tamper-evident seal over `results`, `pending`, `calls`, `requests`, `order` and `turn`, present when the host runs with a secret; `resume` rejects a run whose seal does not match.
    """


class ToolEvent(ToolEventBase):
    """
    What a running call reports before its result: how far it has got, in words, and a partial result. A host relays it (to a UI, as MCP progress, as Temporal heartbeat details); it never reaches the model, and the call's result replaces every partial.

    Fields (wire key in brackets where it differs):
        call_id [callId]: The id of the `ToolCall` that is running.
        percent: How far the call has got, in whole percent (0 to 100; a tool reports a fraction, which is rounded).
        message: What the call is doing, in a few words.
        partial: The result so far, as the tool yields it; the call's last value is its result.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self,
        call_id: str,
        percent: int | None = None,
        message: str | None = None,
        partial: ToolResult | None = None,
    ) -> None:
        """A `ToolEvent` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(
            self,
            call_id=call_id,
            **given(percent=percent, message=message, partial=partial),
        )

    call_id: Annotated[str, Field(alias="callId")]
    """
    The id of the `ToolCall` that is running.
    """
    percent: int | None = None
    """
    How far the call has got, in whole percent (0 to 100; a tool reports a fraction, which is rounded).
    """
    message: str | None = None
    """
    What the call is doing, in a few words.
    """
    partial: ToolResult | None = None
    """
    The result so far, as the tool yields it; the call's last value is its result.
    """
