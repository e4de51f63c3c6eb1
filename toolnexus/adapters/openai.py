"""OpenAI: tool declarations and tool results for Chat Completions and for Responses.

Pure functions to plain dicts, typed as the `openai` SDK's own request types (`TypedDict`s,
imported for the type checker only: nothing here imports the SDK at run time), so they pass
to `client.chat.completions.create()` and `client.responses.create()` as they are under
mypy and pyright. `metadata` never appears in what they return.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Literal

from .._result import ContentPart, ToolCallResult
from ._common import ToolLike, data_url, declared, file_name, for_model, omitted, shape, text_with
from ._limits import PartGate, PartLimit, Structured, model_text, part_limits_of, structured_of

if TYPE_CHECKING:
    from openai.types.chat import (
        ChatCompletionContentPartParam,
        ChatCompletionFunctionToolParam,
        ChatCompletionMessageParam,
    )
    from openai.types.responses import FunctionToolParam
    from openai.types.responses.response_input_file_content_param import ResponseInputFileContentParam
    from openai.types.responses.response_input_image_content_param import ResponseInputImageContentParam
    from openai.types.responses.response_input_item_param import FunctionCallOutput
    from openai.types.responses.response_input_text_content_param import ResponseInputTextContentParam

    #: What a `function_call_output`'s `output` list holds.
    ResponseInputContentParam = (
        ResponseInputTextContentParam | ResponseInputImageContentParam | ResponseInputFileContentParam
    )
    from openai.types.shared_params import FunctionDefinition

__all__ = [
    "openai_chat_messages",
    "openai_chat_tools",
    "openai_responses_output",
    "openai_responses_tools",
]

#: Image types the OpenAI models read.
_IMAGES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
#: Audio types a Chat `input_audio` part takes, with its `format`.
_CHAT_AUDIO: dict[str, Literal["wav", "mp3"]] = {
    "audio/wav": "wav",
    "audio/x-wav": "wav",
    "audio/wave": "wav",
    "audio/mpeg": "mp3",
    "audio/mp3": "mp3",
}


def openai_chat_tools(tools: Iterable[ToolLike]) -> list[ChatCompletionFunctionToolParam]:
    """Chat Completions `tools`: `{"type": "function", "function": {name, description, parameters}}`,
    with `"strict": true` in `function` for a tool made with `strict=True`."""
    out: list[ChatCompletionFunctionToolParam] = []
    for s, strict in declared(tools):
        function: FunctionDefinition = {
            "name": s.name,
            "description": s.description,
            "parameters": s.input_schema,
        }
        if strict:
            function["strict"] = True
        out.append({"type": "function", "function": function})
    return out


def openai_responses_tools(tools: Iterable[ToolLike]) -> list[FunctionToolParam]:
    """Responses `tools`: `{"type": "function", name, description, parameters, strict}`.

    `strict` is required by the SDK and defaults to true on the Responses API, which
    demands a schema in OpenAI's strict subset: it is `True` for a tool made with
    `strict=True` (whose schema is in it), and `False` for any other.
    """
    return [
        {
            "type": "function",
            "name": s.name,
            "description": s.description,
            "parameters": s.input_schema,
            "strict": strict,
        }
        for s, strict in declared(tools)
    ]


def _image_ok(part: ContentPart) -> bool:
    """An image OpenAI reads: a listed type, or by URL with no type given (the URL's own type decides)."""
    return part.kind == "image" and (part.mime_type in _IMAGES or (not part.mime_type and part.url != ""))


def openai_chat_messages(
    call: ToolCallResult,
    *,
    structured: Structured | None = None,
    part_limits: Mapping[str, PartLimit] | None = None,
) -> list[ChatCompletionMessageParam]:
    """The Chat Completions messages for one result: a `tool` message, then maybe a `user` one.

    A Chat `tool` message holds text only. Text parts join its text, one per line. Images
    (PNG, JPEG, GIF, WebP; inline as a data URL, or by URL), WAV and MP3 audio and files
    with data travel in a `user` message right after it, which the tool message announces.
    Parts Chat cannot take (audio or a file by URL, other image or audio types, parts with
    no content) become a note in the tool message that names them and their URL. The error
    flag has no Chat field: an error's output is its message. A part whose `annotations`
    name the user as its only audience is left out: it is for the person, not the model.

    `structured`: the text of a result with `structured_content`, its `output` (`"text"`, the
    default: `PROVIDER_LIMITS`) or that content as JSON text (`"structured"`). `part_limits`: the
    most the model takes of each kind of part (default: `PROVIDER_LIMITS["openai_chat"].parts`);
    a part over one is not sent, and a note naming it and the limit is (docs/guides/provider-limits.md).
    """
    result = call.result
    gate = PartGate("OpenAI Chat", part_limits_of("openai_chat", part_limits))
    text = model_text(result, structured_of("openai_chat", structured))
    attachments: list[ChatCompletionContentPartParam] = []
    notes: list[str] = []
    for i, part in enumerate(result.parts):
        if not for_model(part):
            continue
        form = shape(part)
        if form == "text":
            notes.append(part.text)
        elif form == "inline" and _chat_native(part) and (note := gate.note(part)):
            notes.append(note)
        elif form in ("inline", "url") and _image_ok(part):
            url = data_url(part) if form == "inline" else part.url
            attachments.append({"type": "image_url", "image_url": {"url": url}})
        elif form == "inline" and part.kind == "audio" and part.mime_type in _CHAT_AUDIO:
            audio_format = _CHAT_AUDIO[part.mime_type]
            attachments.append(
                {"type": "input_audio", "input_audio": {"data": part.data, "format": audio_format}}
            )
        elif form == "inline" and part.kind == "file":
            file_data, filename = data_url(part), file_name(part, i)
            attachments.append({"type": "file", "file": {"file_data": file_data, "filename": filename}})
        else:
            notes.append(omitted(part, "OpenAI Chat"))
    if attachments:
        notes.append(f"[{len(attachments)} attachment(s) follow in the next message]")
    messages: list[ChatCompletionMessageParam] = [
        {"role": "tool", "tool_call_id": call.id, "content": text_with(text, notes)}
    ]
    if attachments:
        intro: ChatCompletionContentPartParam = {
            "type": "text",
            "text": f"Attachments returned by tool call {call.id} ({call.name}):",
        }
        messages.append({"role": "user", "content": [intro, *attachments]})
    return messages


def _chat_native(part: ContentPart) -> bool:
    """Whether Chat takes inline `part` in its `user` message (else it is a note in any case)."""
    return _image_ok(part) or part.kind == "file" or (part.kind == "audio" and part.mime_type in _CHAT_AUDIO)


def openai_responses_output(
    call: ToolCallResult,
    *,
    structured: Structured | None = None,
    part_limits: Mapping[str, PartLimit] | None = None,
) -> FunctionCallOutput:
    """The Responses `function_call_output` input item for one result.

    Without parts, `output` is the text. With parts it is a list: `input_text` for the
    text and for text parts, `input_image` for PNG, JPEG, GIF and WebP images (a data URL,
    or the part's URL), `input_file` for files (`file_data` as a data URL with a file name,
    or `file_url`), and an `input_text` note naming anything else (audio, other image
    types, parts with no content). A part whose `annotations` name the user as its only
    audience is left out. `structured` and `part_limits` are as for `openai_chat_messages`
    (defaults: `PROVIDER_LIMITS["openai_responses"]`).
    """
    result = call.result
    gate = PartGate("OpenAI Responses", part_limits_of("openai_responses", part_limits))
    text = model_text(result, structured_of("openai_responses", structured))
    output: str | list[ResponseInputContentParam]
    if not any(for_model(part) for part in result.parts):
        output = text
    else:
        items: list[ResponseInputContentParam] = []
        if text:
            items.append({"type": "input_text", "text": text})
        for i, part in enumerate(result.parts):
            if not for_model(part):
                continue
            form = shape(part)
            if form == "text":
                items.append({"type": "input_text", "text": part.text})
            elif form == "inline" and (_image_ok(part) or part.kind == "file") and (note := gate.note(part)):
                items.append({"type": "input_text", "text": note})
            elif form in ("inline", "url") and _image_ok(part):
                url = data_url(part) if form == "inline" else part.url
                items.append({"type": "input_image", "image_url": url})
            elif form == "inline" and part.kind == "file":
                name = file_name(part, i)
                items.append({"type": "input_file", "file_data": data_url(part), "filename": name})
            elif form == "url" and part.kind == "file":
                file: ResponseInputFileContentParam = {"type": "input_file", "file_url": part.url}
                if part.name:
                    file["filename"] = part.name
                items.append(file)
            else:
                items.append({"type": "input_text", "text": omitted(part, "OpenAI Responses")})
        output = items
    return {"type": "function_call_output", "call_id": call.id, "output": output}
