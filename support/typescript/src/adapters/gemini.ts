// codegen: package; requires ToolResult, ToolCall, ToolCallResult, ToolSpec, ContentPart

/**
 * `toolnexus-contract/adapters/gemini`: tool declarations, function calls and `functionResponse`
 * parts for Gemini, typed as the `@google/genai` SDK's types (an optional peer dependency, for
 * its types only: nothing here loads it), in its camelCase form with base64 data (Python's
 * adapter writes the Python SDK's snake_case with bytes: the same content). A port of
 * `toolnexus/adapters/gemini.py`, pinned by the same vectors (`idl/adapters/`). `metadata` never
 * appears in what they return.
 *
 * @packageDocumentation
 */

import type { Content, FunctionDeclaration, FunctionResponse, FunctionResponseFileData, FunctionResponsePart, GenerateContentResponse, Part, Tool } from "@google/genai";
import { writeJson, type JsonValue } from "../json.js";
import type { ToolCallResult } from "../types.js";
import { addCall, field, itemsOf, type ParsedCalls } from "./calls.js";
import { forModel, omitted, shape, specsOf, textWith, type ToolLike } from "./common.js";
import { PartGate, structuredOf, type ResultOptions } from "./limits.js";

export type { ParsedCalls } from "./calls.js";
export type { ToolLike } from "./common.js";
export { providerLimits, type PartLimit, type PartLimits, type ProviderLimits, type ResultOptions, type Structured } from "./limits.js";

/** The id prefix of a Gemini call that came without an id (`gemini-0`, `gemini-1`, ...). */
export const GEMINI_ID_PREFIX = "gemini-";

/**
 * Gemini `tools`: one element whose `functionDeclarations` lists every tool, each schema in
 * `parametersJsonSchema` (which takes JSON Schema as it is; `parameters` takes only Gemini's
 * OpenAPI subset). No tools give an empty list.
 */
export function geminiTools(tools: Iterable<ToolLike>): Tool[] {
  const declarations: FunctionDeclaration[] = specsOf(tools).map((s) => ({ name: s.name, description: s.description, parametersJsonSchema: s.inputSchema }));
  return declarations.length > 0 ? [{ functionDeclarations: declarations }] : [];
}

/** The function calls of a `GenerateContentResponse` (its first candidate), a `Content`, or a
 * list of parts; a call without an id gets `gemini-<n>`, its place among the calls. */
export function geminiToolCalls(response: GenerateContentResponse | Content | Part[]): ParsedCalls {
  let source: unknown = response;
  const candidates = field(source, "candidates");
  if (Array.isArray(candidates) && candidates.length > 0) {
    source = field(candidates[0], "content");
  }
  const parts = Array.isArray(source) ? source : field(source, "parts");
  const out: ParsedCalls = { calls: [], refused: [] };
  let index = 0;
  for (const part of itemsOf(parts, "parts")) {
    const call = field(part, "function_call", "functionCall");
    if (call === undefined || call === null) {
      continue;
    }
    addCall(out, field(call, "id") || `${GEMINI_ID_PREFIX}${index}`, field(call, "name"), field(call, "args"));
    index += 1;
  }
  return out;
}

/**
 * The `functionResponse` part for one result: `response` is `{output: text}`, or `{error: text}`
 * for an error, text parts joining that text, one per line; a part with data goes in `parts` as
 * `inlineData`, one by URL as `fileData`; one by URL without a MIME type, or with no content,
 * becomes a note. `id` is the call's id when Gemini gave it one (not a `gemini-<n>`).
 *
 * `options.structured`: for a result with `structuredContent`, `response` holds that content as
 * JSON (`"structured"`, the default: `providerLimits`), or the `output` text (`"text"`); with notes
 * it holds the content's JSON text, the notes after it. `options.partLimits`: the most Gemini takes
 * of each kind of inline part (default: `providerLimits.gemini.parts`); a part over one is not
 * sent, and a note naming it and the limit is (docs/guides/provider-limits.md).
 */
export function geminiFunctionResponse(call: ToolCallResult, options: ResultOptions = {}): Part {
  const result = call.result;
  const gate = new PartGate("Gemini", "gemini", options.partLimits);
  const structured = structuredOf("gemini", options.structured) === "structured" ? result.structuredContent : undefined;
  const response: FunctionResponse = {};
  if (call.id && !call.id.startsWith(GEMINI_ID_PREFIX)) {
    response.id = call.id;
  }
  response.name = call.name;
  const notes: string[] = [];
  const parts: FunctionResponsePart[] = [];
  for (const part of result.parts ?? []) {
    if (!forModel(part)) {
      continue;
    }
    const form = shape(part);
    const note = form === "inline" ? gate.note(part) : undefined;
    if (form === "text") {
      notes.push(part.text ?? "");
    } else if (note !== undefined) {
      notes.push(note);
    } else if (form === "inline") {
      parts.push({ inlineData: { mimeType: part.mimeType ?? "", data: part.data ?? "" } });
    } else if (form === "url" && part.mimeType) {
      const file: FunctionResponseFileData = { fileUri: part.url ?? "", mimeType: part.mimeType };
      if (part.name) {
        file.displayName = part.name;
      }
      parts.push({ fileData: file });
    } else {
      notes.push(omitted(part, "Gemini"));
    }
  }
  const key = result.isError === true ? "error" : "output";
  if (structured !== undefined && notes.length === 0) {
    response.response = { [key]: structured };
  } else {
    const output = structured !== undefined ? writeJson(structured satisfies JsonValue) : result.output;
    response.response = { [key]: notes.length > 0 ? textWith(output, notes) : output };
  }
  if (parts.length > 0) {
    response.parts = parts;
  }
  return { functionResponse: response };
}
