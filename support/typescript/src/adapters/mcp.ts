// codegen: package; requires ToolResult, ToolCall, ToolCallResult, ToolSpec, ContentPart, Annotations, ToolIcon

/**
 * `toolnexus-contract/adapters/mcp`: `tools/list` entries, `tools/call` requests and
 * `CallToolResult`s, typed as the `@modelcontextprotocol/sdk` types (an optional peer dependency,
 * for its types only: nothing here loads it). A port of Python's `toolnexus/adapters/mcp.py`
 * (`mcp_tools`, `mcp_call_tool_result`) and `mcp_tool_calls`, pinned by the same vectors
 * (`idl/adapters/`). `metadata` never appears in what they return.
 *
 * @packageDocumentation
 */

import type { CallToolRequest, CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { toWireAnnotations, toWireToolIcon } from "../codec.js";
import type { JsonObject } from "../json.js";
import type { ContentPart, ToolResult } from "../types.js";
import { addCall, field, type ParsedCalls } from "./calls.js";
import { omitted, pyRepr, shape, specsOf, utf8, type ToolLike } from "./common.js";
import { PartGate, structuredOf, type ResultOptions } from "./limits.js";

export type { ParsedCalls } from "./calls.js";
export type { ToolLike } from "./common.js";
export { providerLimits, type PartLimit, type PartLimits, type ProviderLimits, type ResultOptions, type Structured } from "./limits.js";

const PART_URI = "toolnexus://parts/";

/** The `tools` of a `tools/list` result: `{name, description, inputSchema}`, then `outputSchema`,
 * and for a tool with hints its `title`, `icons` and `annotations` (`readOnlyHint`,
 * `destructiveHint`, `idempotentHint` when set, `openWorldHint`). */
export function mcpTools(tools: Iterable<ToolLike>): Tool[] {
  return specsOf(tools).map((s) => {
    const declared: JsonObject = { name: s.name, description: s.description, inputSchema: s.inputSchema };
    if (s.outputSchema !== undefined) {
      declared["outputSchema"] = s.outputSchema;
    }
    const hints = s.hints;
    if (hints !== undefined) {
      if (hints.title) {
        declared["title"] = hints.title;
      }
      if (hints.icons !== undefined && hints.icons.length > 0) {
        declared["icons"] = hints.icons.map((icon) => toWireToolIcon(icon));
      }
      const annotations: JsonObject = { readOnlyHint: hints.readOnly ?? false, destructiveHint: hints.destructive ?? false };
      if (hints.idempotent !== undefined) {
        annotations["idempotentHint"] = hints.idempotent;
      }
      annotations["openWorldHint"] = hints.openWorld ?? false;
      declared["annotations"] = annotations;
    }
    return declared as Tool;
  });
}

/** The call in a `tools/call` request (JSON-RPC, whose `id` is the call's, or its `params`).
 * @throws TypeError for a request of another method. */
export function mcpToolCalls(request: CallToolRequest | CallToolRequest["params"] | { jsonrpc?: "2.0"; id?: string | number; method: "tools/call"; params: CallToolRequest["params"] }): ParsedCalls {
  const method = field(request, "method");
  if (method !== undefined && method !== null && method !== "tools/call") {
    throw new TypeError(`expected a tools/call request, got ${typeof method === "string" ? pyRepr(method) : String(method)}`);
  }
  const params = field(request, "params");
  const callId = params !== undefined && params !== null ? field(request, "id") : undefined;
  const source = params === undefined || params === null ? request : params;
  const out: ParsedCalls = { calls: [], refused: [] };
  addCall(out, callId, field(source, "name"), field(source, "arguments"));
  return out;
}

/** `text` as Python's `urllib.parse.quote(text, safe="", errors="replace")` writes it. */
function quote(text: string): string {
  const bytes = new utf8.TextEncoder().encode(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "?"));
  let out = "";
  for (const byte of bytes) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.~-]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function blockOf(part: ContentPart, index: number): JsonObject | undefined {
  const form = shape(part);
  if (form === "text") {
    return { type: "text", text: part.text ?? "" };
  }
  if (form === "inline" && (part.type === "image" || part.type === "audio") && part.mimeType) {
    return { type: part.type, data: part.data ?? "", mimeType: part.mimeType };
  }
  if (form === "inline") {
    const uri = `${PART_URI}${index}${part.name ? `/${quote(part.name)}` : ""}`;
    return { type: "resource", resource: { uri, mimeType: part.mimeType || "application/octet-stream", blob: part.data ?? "" } };
  }
  if (form === "url") {
    const block: JsonObject = { type: "resource_link", uri: part.url ?? "", name: part.name || part.url || "" };
    if (part.title) {
      block["title"] = part.title;
    }
    if (part.description) {
      block["description"] = part.description;
    }
    if (part.mimeType) {
      block["mimeType"] = part.mimeType;
    }
    return block;
  }
  return undefined;
}

/**
 * A `CallToolResult`: a text block for the output (left out only when it is empty and there are
 * parts), then per part a text block, an image or audio block, an embedded resource (other files
 * with data, uri `toolnexus://parts/<index>[/<name>]`), or a `resource_link` (parts by URL), each
 * with the part's annotations; a part with no content is a text block saying so.
 * `structuredContent` when the result has it, and `isError` when it failed.
 *
 * `options.structured`, for a result with `structuredContent`: `"both"` (the default,
 * `providerLimits`: MCP asks a server to repeat the structure as text for clients that do not read
 * it, and requires `structuredContent` of a tool with an output schema), `"structured"` (without the
 * output's text block: the payload once, for clients that read it) or `"text"` (the text block
 * alone: only for a tool without an output schema). `options.partLimits`: the most the client takes
 * of each kind of inline part (MCP publishes none, so none by default); a part over one is a text
 * block naming it and the limit.
 */
export function mcpCallToolResult(result: ToolResult, options: ResultOptions = {}): CallToolResult {
  const asked = structuredOf("mcp", options.structured);
  const choice = result.structuredContent !== undefined ? asked : "text";
  const gate = new PartGate("MCP", "mcp", options.partLimits);
  const parts = result.parts ?? [];
  const content: JsonObject[] = [];
  if ((result.output || parts.length === 0) && choice !== "structured") {
    content.push({ type: "text", text: result.output });
  }
  parts.forEach((part, i) => {
    const note = shape(part) === "inline" ? gate.note(part) : undefined;
    const block = note !== undefined ? { type: "text", text: note } : blockOf(part, i);
    if (block === undefined) {
      content.push({ type: "text", text: omitted(part, "MCP") });
      return;
    }
    if (part.annotations !== undefined) {
      block["annotations"] = toWireAnnotations(part.annotations);
    }
    content.push(block);
  });
  const out: JsonObject = { content };
  if (result.structuredContent !== undefined && choice !== "text") {
    out["structuredContent"] = result.structuredContent;
  }
  if (result.isError === true) {
    out["isError"] = true;
  }
  return out as unknown as CallToolResult;
}
