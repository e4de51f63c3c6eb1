"""Gemini: tool declarations and `functionResponse` parts, in the REST API's JSON form.

Pure functions to plain dicts with the API's camelCase keys (which the `google-genai`
SDK also accepts); nothing here imports the SDK. `metadata` never appears in what
they return.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .._result import ToolCallResult
from ._common import ToolLike, omitted, shape, specs_of, text_with

__all__ = ["gemini_function_response", "gemini_tools"]


def gemini_tools(tools: Iterable[ToolLike]) -> list[dict[str, Any]]:
    """Gemini `tools`: one element whose `functionDeclarations` lists every tool.

    The input schema goes in `parametersJsonSchema`, which takes JSON Schema as it is;
    `parameters` takes only Gemini's OpenAPI subset and refuses `$defs`, `$ref` and
    other keys that inferred schemas use. No tools give an empty list.
    """
    declarations = [
        {"name": s.name, "description": s.description, "parametersJsonSchema": s.input_schema}
        for s in specs_of(tools)
    ]
    return [{"functionDeclarations": declarations}] if declarations else []


def gemini_function_response(call: ToolCallResult) -> dict[str, Any]:
    """The `functionResponse` part for one result.

    `response` is `{"output": text}`, or `{"error": text}` for an error; text parts join
    that text, one per line. A part with data goes in `parts` as `inlineData` (MIME type
    and base64 data), and a part by URL as `fileData` (`fileUri`, `mimeType`); which types
    a model reads there depends on the model. A part by URL without a MIME type, or with
    no content, becomes a note in the text. `id` is the call's id when it has one.
    """
    result = call.result
    response: dict[str, Any] = {"name": call.name}
    if call.id:
        response = {"id": call.id, **response}
    notes: list[str] = []
    parts: list[dict[str, Any]] = []
    for part in result.parts:
        form = shape(part)
        if form == "text":
            notes.append(part.text)
        elif form == "inline":
            parts.append({"inlineData": {"mimeType": part.mime_type, "data": part.data}})
        elif form == "url" and part.mime_type:
            file: dict[str, Any] = {"fileUri": part.url, "mimeType": part.mime_type}
            if part.name:
                file["displayName"] = part.name
            parts.append({"fileData": file})
        else:
            notes.append(omitted(part, "Gemini"))
    text = text_with(result.output, notes) if notes else result.output
    response["response"] = {"error" if result.is_error else "output": text}
    if parts:
        response["parts"] = parts
    return {"functionResponse": response}
