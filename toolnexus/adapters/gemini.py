"""Gemini: tool declarations and `function_response` parts, in the `google-genai` SDK's form.

Pure functions to plain dicts with the SDK's snake_case keys, typed as its own `TypedDict`s
(`ToolDict`, `PartDict`; imported for the type checker only: nothing here imports the SDK at
run time), so they pass to `client.models.generate_content()` as they are under mypy and
pyright. Inline data is bytes, as the SDK takes it. (For the REST API's JSON, let the SDK
write it: `types.Part.model_validate(part).model_dump(mode="json", by_alias=True,
exclude_none=True)`.) `metadata` never appears in what they return.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from toolnexus_wire import dumps

from .._result import ToolCallResult
from ._common import ToolLike, for_model, omitted, shape, specs_of, text_with
from ._limits import PartGate, PartLimit, Structured, part_limits_of, structured_of
from .calls import GEMINI_ID_PREFIX

if TYPE_CHECKING:
    from google.genai.types import (
        FunctionDeclarationDict,
        FunctionResponseDict,
        FunctionResponseFileDataDict,
        FunctionResponsePartDict,
        PartDict,
        ToolListUnionDict,
    )

__all__ = ["gemini_function_response", "gemini_tools"]


def gemini_tools(tools: Iterable[ToolLike]) -> ToolListUnionDict:
    """Gemini `tools`: one element whose `function_declarations` lists every tool (a `ToolDict`;
    typed as the list `GenerateContentConfigDict.tools` takes, whose elements may be other things).

    The input schema goes in `parameters_json_schema`, which takes JSON Schema as it is;
    `parameters` takes only Gemini's OpenAPI subset and refuses `$defs`, `$ref` and
    other keys that inferred schemas use. No tools give an empty list.
    """
    declarations: list[FunctionDeclarationDict] = [
        {"name": s.name, "description": s.description, "parameters_json_schema": s.input_schema}
        for s in specs_of(tools)
    ]
    return [{"function_declarations": declarations}] if declarations else []


def gemini_function_response(
    call: ToolCallResult,
    *,
    structured: Structured | None = None,
    part_limits: Mapping[str, PartLimit] | None = None,
) -> PartDict:
    """The `function_response` part for one result.

    `response` is `{"output": text}`, or `{"error": text}` for an error; text parts join
    that text, one per line. A part with data goes in `parts` as `inline_data` (MIME type
    and the bytes), and a part by URL as `file_data` (`file_uri`, `mime_type`); which types
    a model reads there depends on the model. A part by URL without a MIME type, or with
    no content, becomes a note in the text. `id` is the call's id when Gemini gave it one
    (not the `gemini-<n>` that `gemini_tool_calls` gives a call without one). A part whose
    `annotations` name the user as its only audience is left out.

    `structured`: for a result with `structured_content`, `response` holds that content as
    JSON (`{"output": {...}}`: `"structured"`, the default, `PROVIDER_LIMITS`), or the `output`
    text (`"text"`); with notes (text parts, parts left out) it holds the text, the notes after
    it. `part_limits`: the most Gemini takes of each kind of inline part (default:
    `PROVIDER_LIMITS["gemini"].parts`); a part over one is not sent, and a note naming it and
    the limit is (docs/guides/provider-limits.md).
    """
    result = call.result
    gate = PartGate("Gemini", part_limits_of("gemini", part_limits))
    as_json = structured_of("gemini", structured) == "structured" and result.structured_content is not None
    response: FunctionResponseDict = {"name": call.name}
    if call.id and not call.id.startswith(GEMINI_ID_PREFIX):
        response = {"id": call.id, **response}
    notes: list[str] = []
    parts: list[FunctionResponsePartDict] = []
    for part in result.parts:
        if not for_model(part):
            continue
        form = shape(part)
        if form == "text":
            notes.append(part.text)
        elif form == "inline" and (note := gate.note(part)):
            notes.append(note)
        elif form == "inline":
            parts.append({"inline_data": {"mime_type": part.mime_type, "data": part.raw()}})
        elif form == "url" and part.mime_type:
            file: FunctionResponseFileDataDict = {"file_uri": part.url, "mime_type": part.mime_type}
            if part.name:
                file["display_name"] = part.name
            parts.append({"file_data": file})
        else:
            notes.append(omitted(part, "Gemini"))
    key = "error" if result.is_error else "output"
    if as_json and not notes:
        response["response"] = {key: result.structured_content}
    else:
        output = dumps(result.structured_content) if as_json else result.output
        response["response"] = {key: text_with(output, notes) if notes else output}
    if parts:
        response["parts"] = parts
    return {"function_response": response}
