// codegen: package; requires ToolResult, ToolCall, ToolCallResult, ToolSpec, ContentPart

/**
 * `toolnexus-contract/adapters/openai`: tool declarations, tool calls and tool results for OpenAI
 * Chat Completions and Responses, typed as the `openai` SDK's own request and response types (an
 * optional peer dependency, imported for its types only: nothing here loads it). A port of Python's
 * `toolnexus/adapters/openai.py` and `calls.py`, pinned by the same vectors (`idl/adapters/`).
 * `metadata` never appears in what they return.
 *
 * @packageDocumentation
 */

import type {
  ChatCompletion,
  ChatCompletionContentPart,
  ChatCompletionFunctionTool,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from "openai/resources/chat/completions";
import type { FunctionTool, Response, ResponseFunctionCallOutputItem, ResponseInputFileContent, ResponseInputItem, ResponseOutputItem } from "openai/resources/responses/responses";
import type { ContentPart, ToolCallResult } from "../types.js";
import { addCall, field, itemsOf, refuseCall, type ParsedCalls } from "./calls.js";
import { dataUrl, fileName, forModel, omitted, pyRepr, shape, specsOf, textWith, type ToolLike } from "./common.js";
import { modelText, PartGate, structuredOf, type ResultOptions } from "./limits.js";

export type { ParsedCalls } from "./calls.js";
export type { ToolLike } from "./common.js";
export { providerLimits, type PartLimit, type PartLimits, type ProviderLimits, type ResultOptions, type Structured } from "./limits.js";

const IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const CHAT_AUDIO: { readonly [mime: string]: "wav" | "mp3" } = {
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
};

type Parameters = { [key: string]: unknown };

/** Chat Completions `tools`: `{type: "function", function: {name, description, parameters}}`. */
export function openaiChatTools(tools: Iterable<ToolLike>): ChatCompletionFunctionTool[] {
  return specsOf(tools).map((s) => ({
    type: "function",
    function: { name: s.name, description: s.description, parameters: s.inputSchema as Parameters },
  }));
}

/** Responses `tools`: `{type: "function", name, description, parameters, strict: false}` (the
 * Responses API defaults `strict` to true, which demands OpenAI's strict schema subset). */
export function openaiResponsesTools(tools: Iterable<ToolLike>): FunctionTool[] {
  return specsOf(tools).map((s) => ({ type: "function", name: s.name, description: s.description, parameters: s.inputSchema as Parameters, strict: false }));
}

/** An image OpenAI reads: a listed type, or by URL with no type given. */
function imageOk(part: ContentPart): boolean {
  return part.type === "image" && (IMAGES.has(part.mimeType ?? "") || (!part.mimeType && !!part.url));
}

/** The calls in a Chat Completions response: a `ChatCompletion` (its first choice), the assistant
 * `message`, or its `tool_calls`. A call of another type than `function` is refused. */
export function openaiChatToolCalls(message: ChatCompletion | ChatCompletionMessage | ChatCompletionMessageToolCall[]): ParsedCalls {
  let source: unknown = message;
  const choices = field(source, "choices");
  if (Array.isArray(choices) && choices.length > 0) {
    source = field(choices[0], "message");
  }
  const items = Array.isArray(source) ? source : field(source, "tool_calls");
  const out: ParsedCalls = { calls: [], refused: [] };
  for (const item of itemsOf(items, "tool_calls")) {
    const kind = field(item, "type") || "function";
    const fn = field(item, "function");
    if (kind !== "function" || fn === undefined || fn === null) {
      const name = field(field(item, String(kind)) ?? {}, "name");
      refuseCall(out, field(item, "id") || "", name || "", `the tool call is of type ${pyRepr(String(kind))}; toolnexus tools take function calls`);
      continue;
    }
    addCall(out, field(item, "id"), field(fn, "name"), field(fn, "arguments"), true);
  }
  return out;
}

/** The `function_call` items of a Responses `Response` (or of its `output` list); a call's id is its `call_id`. */
export function openaiResponsesToolCalls(response: Response | ResponseOutputItem[]): ParsedCalls {
  const items = Array.isArray(response) ? response : field(response, "output");
  const out: ParsedCalls = { calls: [], refused: [] };
  for (const item of itemsOf(items, "output")) {
    if (field(item, "type") === "function_call") {
      addCall(out, field(item, "call_id"), field(item, "name"), field(item, "arguments"), true);
    }
  }
  return out;
}

/** A part as a Chat attachment (in the `user` message after the tool message), or undefined. */
function chatAttachment(part: ContentPart, index: number): ChatCompletionContentPart | undefined {
  const form = shape(part);
  if ((form === "inline" || form === "url") && imageOk(part)) {
    return { type: "image_url", image_url: { url: form === "inline" ? dataUrl(part) : (part.url ?? "") } };
  }
  const audio = CHAT_AUDIO[part.mimeType ?? ""];
  if (form === "inline" && part.type === "audio" && audio !== undefined) {
    return { type: "input_audio", input_audio: { data: part.data ?? "", format: audio } };
  }
  if (form === "inline" && part.type === "file") {
    return { type: "file", file: { file_data: dataUrl(part), filename: fileName(part, index) } };
  }
  return undefined;
}

/**
 * The Chat Completions messages for one result: a `tool` message (text only: the output, text
 * parts and notes, one per line), then, when it has images, audio or files, a `user` message with
 * them, which the tool message announces. What Chat cannot take becomes a note. A part whose
 * annotations name the user as its only audience is left out.
 *
 * `options.structured`: the text of a result with `structuredContent`, its `output` (`"text"`, the
 * default: `providerLimits`) or that content as JSON text (`"structured"`). `options.partLimits`:
 * the most the model takes of each kind of part (default: `providerLimits.openai_chat.parts`); a
 * part over one is not sent, and a note naming it and the limit is (docs/guides/provider-limits.md).
 */
export function openaiChatMessages(call: ToolCallResult, options: ResultOptions = {}): ChatCompletionMessageParam[] {
  const result = call.result;
  const gate = new PartGate("OpenAI Chat", "openai_chat", options.partLimits);
  const text = modelText(result, structuredOf("openai_chat", options.structured));
  const attachments: ChatCompletionContentPart[] = [];
  const notes: string[] = [];
  (result.parts ?? []).forEach((part, i) => {
    if (!forModel(part)) {
      return;
    }
    const attachment = shape(part) === "text" ? undefined : chatAttachment(part, i);
    const note = attachment !== undefined && shape(part) === "inline" ? gate.note(part) : undefined;
    if (shape(part) === "text") {
      notes.push(part.text ?? "");
    } else if (note !== undefined) {
      notes.push(note);
    } else if (attachment !== undefined) {
      attachments.push(attachment);
    } else {
      notes.push(omitted(part, "OpenAI Chat"));
    }
  });
  if (attachments.length > 0) {
    notes.push(`[${attachments.length} attachment(s) follow in the next message]`);
  }
  const messages: ChatCompletionMessageParam[] = [{ role: "tool", tool_call_id: call.id, content: textWith(text, notes) }];
  if (attachments.length > 0) {
    const intro: ChatCompletionContentPart = { type: "text", text: `Attachments returned by tool call ${call.id} (${call.name}):` };
    messages.push({ role: "user", content: [intro, ...attachments] });
  }
  return messages;
}

/** A part as a Responses `function_call_output` item. */
function responsesItem(part: ContentPart, index: number, gate: PartGate): ResponseFunctionCallOutputItem {
  const form = shape(part);
  if (form === "text") {
    return { type: "input_text", text: part.text ?? "" };
  }
  const note = form === "inline" && (imageOk(part) || part.type === "file") ? gate.note(part) : undefined;
  if (note !== undefined) {
    return { type: "input_text", text: note };
  }
  if ((form === "inline" || form === "url") && imageOk(part)) {
    return { type: "input_image", image_url: form === "inline" ? dataUrl(part) : (part.url ?? "") };
  }
  if (form === "inline" && part.type === "file") {
    return { type: "input_file", file_data: dataUrl(part), filename: fileName(part, index) };
  }
  if (form === "url" && part.type === "file") {
    const file: ResponseInputFileContent = { type: "input_file", file_url: part.url ?? "" };
    if (part.name) {
      file.filename = part.name;
    }
    return file;
  }
  return { type: "input_text", text: omitted(part, "OpenAI Responses") };
}

/**
 * The Responses `function_call_output` input item for one result: `output` is the text, or, with
 * parts for the model, a list (`input_text` for the text and text parts, `input_image`,
 * `input_file`, and an `input_text` note for anything else). `options` are as for
 * `openaiChatMessages` (defaults: `providerLimits.openai_responses`).
 */
export function openaiResponsesOutput(call: ToolCallResult, options: ResultOptions = {}): ResponseInputItem.FunctionCallOutput {
  const result = call.result;
  const gate = new PartGate("OpenAI Responses", "openai_responses", options.partLimits);
  const text = modelText(result, structuredOf("openai_responses", options.structured));
  const parts = result.parts ?? [];
  if (!parts.some(forModel)) {
    return { type: "function_call_output", call_id: call.id, output: text };
  }
  const items: ResponseFunctionCallOutputItem[] = text ? [{ type: "input_text", text }] : [];
  parts.forEach((part, i) => {
    if (forModel(part)) {
      items.push(responsesItem(part, i, gate));
    }
  });
  return { type: "function_call_output", call_id: call.id, output: items };
}
