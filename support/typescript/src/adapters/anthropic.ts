// codegen: package; requires ToolResult, ToolCall, ToolCallResult, ToolSpec, ContentPart

/**
 * `toolnexus-contract/adapters/anthropic`: tool declarations, `tool_use` calls and `tool_result`
 * blocks for Anthropic Messages, typed as the `@anthropic-ai/sdk` types (an optional peer
 * dependency, for its types only: nothing here loads it). A port of Python's
 * `toolnexus/adapters/anthropic.py`, pinned by the same vectors (`idl/adapters/`). `metadata`
 * never appears in what they return.
 *
 * @packageDocumentation
 */

import type { ContentBlock, DocumentBlockParam, ImageBlockParam, Message, TextBlockParam, Tool, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import type { ContentPart, ToolCallResult } from "../types.js";
import { addCall, field, itemsOf, type ParsedCalls } from "./calls.js";
import { decodeBase64, forModel, omitted, shape, specsOf, utf8, type ToolLike } from "./common.js";
import { modelText, PartGate, structuredOf, type ResultOptions } from "./limits.js";

export type { ParsedCalls } from "./calls.js";
export type { ToolLike } from "./common.js";
export { providerLimits, type PartLimit, type PartLimits, type ProviderLimits, type ResultOptions, type Structured } from "./limits.js";

type ImageType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";
const IMAGES: ReadonlySet<string> = new Set<ImageType>(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/** A block of a `tool_result`'s content, as this adapter writes them. */
export type ResultBlock = TextBlockParam | ImageBlockParam | DocumentBlockParam;

/** Messages `tools`: `{name, description, input_schema}`. */
export function anthropicTools(tools: Iterable<ToolLike>): Tool[] {
  return specsOf(tools).map((s) => ({ name: s.name, description: s.description, input_schema: s.inputSchema as Tool.InputSchema }));
}

/** The `tool_use` blocks of a `Message` (or of its `content`); server tools are skipped. */
export function anthropicToolCalls(message: Message | ContentBlock[]): ParsedCalls {
  const blocks = Array.isArray(message) ? message : field(message, "content");
  const out: ParsedCalls = { calls: [], refused: [] };
  for (const block of itemsOf(blocks, "content")) {
    if (field(block, "type") === "tool_use") {
      addCall(out, field(block, "id"), field(block, "name"), field(block, "input"));
    }
  }
  return out;
}

/** The part's bytes as UTF-8 text, or undefined when they are not UTF-8. */
function plainText(part: ContentPart): string | undefined {
  try {
    return new utf8.TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(decodeBase64(part.data ?? ""));
  } catch {
    return undefined;
  }
}

function documentOf(source: DocumentBlockParam["source"], part: ContentPart): DocumentBlockParam {
  const block: DocumentBlockParam = { type: "document", source };
  if (part.title || part.name) {
    block.title = part.title || part.name || "";
  }
  if (part.description) {
    block.context = part.description;
  }
  return block;
}

function blockOf(part: ContentPart, gate: PartGate): ResultBlock {
  const form = shape(part);
  const mime = part.mimeType ?? "";
  if (form === "text") {
    return { type: "text", text: part.text ?? "" };
  }
  // Inline parts with a block of their own (an image, a PDF, UTF-8 text) are checked against the limits.
  const native = (part.type === "image" && IMAGES.has(mime)) || mime === "application/pdf" || mime === "text/plain";
  const note = form === "inline" && native ? gate.note(part) : undefined;
  if (note !== undefined) {
    return { type: "text", text: note };
  }
  if (form === "inline" && part.type === "image" && IMAGES.has(mime)) {
    return { type: "image", source: { type: "base64", media_type: mime as ImageType, data: part.data ?? "" } };
  }
  if (form === "url" && part.type === "image" && (IMAGES.has(mime) || !mime)) {
    return { type: "image", source: { type: "url", url: part.url ?? "" } };
  }
  if (form === "inline" && mime === "application/pdf") {
    return documentOf({ type: "base64", media_type: "application/pdf", data: part.data ?? "" }, part);
  }
  if (form === "url" && mime === "application/pdf") {
    return documentOf({ type: "url", url: part.url ?? "" }, part);
  }
  const text = form === "inline" && mime === "text/plain" ? plainText(part) : undefined;
  if (text !== undefined) {
    return documentOf({ type: "text", media_type: "text/plain", data: text }, part);
  }
  return { type: "text", text: omitted(part, "Anthropic") };
}

/**
 * The `tool_result` block for one result, with `is_error` when it failed: `content` is the text
 * (left out when empty), or, with parts for the model, a list of a text block and a block per
 * part (text, image, a PDF or UTF-8 text document, or a note naming what Anthropic cannot take).
 *
 * `options.structured`: the text of a result with `structuredContent`, its `output` (`"text"`, the
 * default: `providerLimits`) or that content as JSON text (`"structured"`). `options.partLimits`:
 * the most Claude takes of each kind of part (default: `providerLimits.anthropic.parts`: 5 MB and
 * 8000 pixels a side an image, 100 images, 32 MB a document); a part over one is not sent, and a
 * note naming it and the limit is (docs/guides/provider-limits.md).
 */
export function anthropicToolResult(call: ToolCallResult, options: ResultOptions = {}): ToolResultBlockParam {
  const result = call.result;
  const gate = new PartGate("Anthropic", "anthropic", options.partLimits);
  const text = modelText(result, structuredOf("anthropic", options.structured));
  const block: ToolResultBlockParam = { type: "tool_result", tool_use_id: call.id };
  const parts = (result.parts ?? []).filter(forModel);
  if (parts.length > 0) {
    const content: ResultBlock[] = text ? [{ type: "text", text }] : [];
    content.push(...parts.map((part) => blockOf(part, gate)));
    block.content = content;
  } else if (text) {
    block.content = text;
  }
  if (result.isError === true) {
    block.is_error = true;
  }
  return block;
}
