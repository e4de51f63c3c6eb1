// codegen: package; requires ToolResult, ToolCall, ToolCallResult, ToolSpec, ContentPart, Annotations, ToolIcon

/**
 * `toolnexus-contract/adapters/mcp`: `tools/list` entries, `tools/call` requests and
 * `CallToolResult`s both ways, typed as the `@modelcontextprotocol/sdk` types (an optional peer
 * dependency, for its types only: nothing here loads it). A port of Python's
 * `toolnexus/adapters/mcp.py` (`mcp_tools`, `mcp_tool_calls`, `mcp_call_tool_result` and
 * `from_mcp_call_tool_result`), pinned by the same vectors (`idl/adapters/`). `metadata` never
 * appears in what is sent; a result read back keeps the server's `_meta` in it.
 *
 * @packageDocumentation
 */

import type { CallToolRequest, CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { parseAnnotations, parseContentPart, parseToolResult, toWireAnnotations, toWireToolIcon } from "../codec.js";
import { WireError } from "../errors.js";
import { describe, isPlainObject, writeJson, type JsonObject, type JsonValue } from "../json.js";
import { checkMimeType, checkUrl, displayable } from "../links.js";
import { fromUrl, kindFor } from "../media.js";
import type { Annotations, ContentPart, ParsedToolResult, ToolResult } from "../types.js";
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

// --- a CallToolResult read back into a ToolResult (Python's `from_mcp_call_tool_result`) ----------

/** The error at MCP's `path`: what was wanted there, and what was found. */
function problem(path: string, expected: string, got: string): WireError {
  return new WireError(path, expected, got);
}

function wantString(block: JsonObject, key: string, path: string): string {
  const value = block[key];
  if (typeof value !== "string") {
    throw problem(`${path}.${key}`, "a string", describe(value));
  }
  return value;
}

/** `mimeType`, unless it is blank or holds a control character (a line break would split the
 * header a host serves the part under): a `WireError` at `path`. */
function mimeAt(mimeType: string, path: string): string {
  try {
    return checkMimeType(mimeType);
  } catch (err) {
    throw problem(path, "a MIME type", (err as Error).message);
  }
}

/** A block's `annotations` (absent or `null`: none), checked, its errors at MCP's path
 * (`$.content[2].annotations.priority` for a priority above 1). */
function annotationsOf(block: JsonObject, path: string): Annotations | undefined {
  const value = block["annotations"];
  if (value === undefined || value === null) {
    return undefined;
  }
  if (!isPlainObject(value)) {
    throw problem(`${path}.annotations`, "an object", describe(value));
  }
  return parseAnnotations(value, `${path}.annotations`);
}

/** An inline part from a block at `path` whose base64 is under `dataKey`; errors name MCP's paths. */
function inlinePart(type: string, mimeType: string, data: string, name: string | undefined, path: string, dataKey: string): ContentPart {
  mimeAt(mimeType, `${path}.mimeType`);
  const wire: JsonObject = { type, mimeType, data };
  if (name) {
    wire["name"] = displayable(name);
  }
  try {
    return parseContentPart(wire);
  } catch (err) {
    if (!WireError.isWireError(err)) {
      throw err;
    }
    const at = err.path === "$.data" ? `${path}.${dataKey}` : err.path === "$.mimeType" ? `${path}.mimeType` : path;
    const got = err.message.indexOf(", got ");
    throw problem(at, err.expected, got < 0 ? err.message : err.message.slice(got + ", got ".length));
  }
}

/** A block's optional string `key` for a person to read (a title, a description), with control
 * and bidi formatting characters as U+FFFD (line breaks kept when `lines`). */
function optionalText(block: JsonObject, key: string, path: string, lines = false): string {
  const value = block[key];
  if (value === undefined || value === null) {
    return "";
  }
  if (typeof value !== "string") {
    throw problem(`${path}.${key}`, "a string", describe(value));
  }
  return displayable(value, { lines });
}

/** `text` with its `%XX` escapes decoded as UTF-8 (a malformed sequence as U+FFFD) and any other
 * `%` kept, as Python's `urllib.parse.unquote`. */
function unquote(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) {
      bytes[i] = parseInt(run.slice(3 * i + 1, 3 * i + 3), 16);
    }
    return new utf8.TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(bytes);
  });
}

/** The path of `uri`, as Python's `urllib.parse.urlsplit` finds it: after the scheme and the
 * authority, before the query and the fragment. A `WireError` at `path` for an authority whose
 * brackets do not pair (`http://[`), which urllib refuses. */
function uriPath(uri: string, path: string): string {
  // urlsplit strips leading C0 controls and spaces, and removes tabs and line breaks anywhere.
  let rest = uri.replace(/^[\x00-\x20]+/, "").replace(/[\t\r\n]/g, "");
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(rest);
  if (scheme !== null) {
    rest = rest.slice(scheme[0].length);
  }
  if (rest.startsWith("//")) {
    const end = rest.slice(2).search(/[/?#]/);
    const authority = end < 0 ? rest.slice(2) : rest.slice(2, 2 + end);
    if (authority.includes("[") !== authority.includes("]")) {
      throw problem(`${path}.uri`, "a valid URI", `${pyRepr(uri)}: Invalid IPv6 URL`);
    }
    rest = end < 0 ? "" : rest.slice(2 + end);
  }
  return rest.replace(/#.*$/s, "").replace(/\?.*$/s, "");
}

/** The file name a resource's uri ends with: its last path segment, decoded, and cut after any
 * separator the decoding revealed, so never a path (`..%2F..%2Fx` names `x`). */
function nameOf(uri: string, path: string): string | undefined {
  const name = lastSegment(unquote(uriPath(uri, path)));
  return name === "" || name === "." || name === ".." ? undefined : displayable(name);
}

/** What follows the last `/` or `\` of `text`, trailing separators aside. */
function lastSegment(text: string): string {
  return text.replaceAll("\\", "/").replace(/\/+$/, "").split("/").pop() ?? "";
}

/** A part from a `resource_link` block, or the note that stands in for a link left out. */
function linkOf(block: JsonObject, path: string): ContentPart | string {
  const uri = wantString(block, "uri", path);
  if (uri === "") {
    throw problem(`${path}.uri`, "a non-empty URI", '""');
  }
  const mimeType = block["mimeType"] || "";
  if (typeof mimeType !== "string") {
    throw problem(`${path}.mimeType`, "a string", describe(mimeType));
  }
  if (mimeType) {
    mimeAt(mimeType, `${path}.mimeType`);
  }
  const label = block["name"] || "";
  if (typeof label !== "string") {
    throw problem(`${path}.name`, "a string", describe(label));
  }
  const title = optionalText(block, "title", path);
  const description = optionalText(block, "description", path, true);
  const annotations = annotationsOf(block, path);
  // MCP requires a name; `mcpCallToolResult` writes the uri for a part without one.
  let name = label === uri ? "" : displayable(lastSegment(label));
  if (name === "." || name === "..") {
    name = "";
  }
  let part: ContentPart;
  if (uri.slice(0, 5).toLowerCase() === "data:") {
    try {
      part = fromUrl(uri, mimeType || undefined, name ? { name } : undefined);
    } catch (err) {
      throw problem(`${path}.uri`, "a valid data: URL", (err as Error).message);
    }
  } else {
    try {
      checkUrl(uri);
    } catch {
      return `[resource_link${name ? ` ${pyRepr(name)}` : ""} left out: its URL is not an http, https or data: URL]`;
    }
    part = { type: mimeType ? kindFor(mimeType) : "file", url: uri };
    if (mimeType) {
      part.mimeType = mimeType;
    }
    if (name) {
      part.name = name;
    }
  }
  if (title) {
    part.title = title;
  }
  if (description) {
    part.description = description;
  }
  if (annotations !== undefined) {
    part.annotations = annotations;
  }
  return part;
}

/** A text block's text: a line of the output, or, with annotations, a text part holding them, so
 * that they stay with the text they describe (an audience of the user alone keeps it from the model). */
function addText(text: string, annotations: Annotations | undefined, texts: string[], parts: ContentPart[]): void {
  if (annotations === undefined || text === "") {
    texts.push(text);
  } else {
    parts.push({ type: "text", text, annotations });
  }
}

/** An embedded resource: its text as a text block's, its blob as a part; true for text. */
function addResource(block: JsonObject, texts: string[], parts: ContentPart[], blockPath: string): boolean {
  const annotations = annotationsOf(block, blockPath);
  const resource = block["resource"];
  const path = `${blockPath}.resource`;
  if (!isPlainObject(resource)) {
    throw problem(path, "an object", describe(resource));
  }
  const uri = wantString(resource, "uri", path);
  if ("text" in resource) {
    addText(wantString(resource, "text", path), annotations, texts, parts);
    return true;
  }
  const mimeType = resource["mimeType"] || "application/octet-stream";
  if (typeof mimeType !== "string") {
    throw problem(`${path}.mimeType`, "a string", describe(mimeType));
  }
  mimeAt(mimeType, `${path}.mimeType`);
  const blob = wantString(resource, "blob", path);
  const part = inlinePart(kindFor(mimeType), mimeType, blob, nameOf(uri, path), path, "blob");
  if (annotations !== undefined) {
    part.annotations = annotations;
  }
  parts.push(part);
  return false;
}

/**
 * A `ToolResult` from an MCP `CallToolResult` (as the SDK's client parsed it, or any decoded JSON
 * object), as Python's `from_mcp_call_tool_result` reads it, pinned by the same vectors
 * (`idl/adapters/mcp.json`, `result_in`).
 *
 * Text blocks and embedded text resources are joined with newlines into `output`, except those
 * with `annotations`, which become text parts holding them; when there is no text at all,
 * `structuredContent` becomes the output as compact JSON text (`writeJson`: numbers and key order as
 * read). Image and audio blocks and embedded blobs become parts, with their block's `annotations`
 * (a blob named after its uri's last path segment); a `resource_link` becomes a part by URL when its
 * uri is `http` or `https`, a part holding the data of a `data:` uri (either with the link's
 * `title`, `description` and `annotations`), and a line saying it was left out for any other scheme
 * (`javascript:`, `file:`...). A block of an unknown type becomes a line saying it was left out.
 * `isError` is kept; the server's `_meta` is kept host-only in `metadata._meta`, never sent on.
 * Names, titles and descriptions have control and bidi formatting characters replaced with U+FFFD
 * (a description keeps its line breaks and tabs).
 *
 * MCP's `input_required` result (protocol 2026-07-28), which Python reads into a suspension, is not
 * read here: the SDK this package is typed with speaks protocols to 2025-11-25.
 *
 * @throws WireError naming MCP's path of the first malformed place (`$.content[1].data` for base64
 *   that is not valid, `$.content[0].mimeType` for a MIME type that is blank or holds a control
 *   character, `$.isError` for one that is not a boolean, `$.content` for content that is not an array).
 */
export function fromMcpCallToolResult(result: CallToolResult): ParsedToolResult {
  const obj = result as unknown;
  if (!isPlainObject(obj)) {
    throw problem("$", "an object", describe(obj));
  }
  const content = obj["content"] === undefined ? [] : obj["content"];
  if (!Array.isArray(content)) {
    throw problem("$.content", "an array", describe(content));
  }
  const texts: string[] = [];
  const parts: ContentPart[] = [];
  let hadText = false;
  content.forEach((item: unknown, i) => {
    const path = `$.content[${i}]`;
    if (!isPlainObject(item)) {
      throw problem(path, "an object", describe(item));
    }
    const block = item as JsonObject;
    const kind = block["type"];
    if (kind === "text") {
      hadText = true;
      addText(wantString(block, "text", path), annotationsOf(block, path), texts, parts);
    } else if (kind === "image" || kind === "audio") {
      const data = wantString(block, "data", path);
      const part = inlinePart(kind, wantString(block, "mimeType", path), data, undefined, path, "data");
      const annotations = annotationsOf(block, path);
      if (annotations !== undefined) {
        part.annotations = annotations;
      }
      parts.push(part);
    } else if (kind === "resource") {
      hadText = addResource(block, texts, parts, path) || hadText;
    } else if (kind === "resource_link") {
      const link = linkOf(block, path);
      if (typeof link === "string") {
        texts.push(link);
      } else {
        parts.push(link);
      }
    } else {
      texts.push(`[${String(kind)} content left out]`);
    }
  });
  const wire: JsonObject = { output: texts.join("\n") };
  const structured = obj["structuredContent"];
  if (structured !== undefined && structured !== null) {
    let asText: string;
    try {
      asText = writeJson(structured);
    } catch (err) {
      throw problem("$.structuredContent", "JSON", (err as Error).message);
    }
    wire["structuredContent"] = structured as JsonValue;
    if (texts.length === 0 && !hadText) {
      wire["output"] = asText;
    }
  }
  const isError = obj["isError"] === undefined ? false : obj["isError"];
  if (typeof isError !== "boolean") {
    throw problem("$.isError", "a boolean", describe(isError));
  }
  if (isError) {
    wire["isError"] = true;
  }
  if (parts.length > 0) {
    wire["parts"] = parts as unknown as JsonValue;
  }
  const meta = obj["_meta"];
  if (meta !== undefined && meta !== null) {
    if (!isPlainObject(meta)) {
      throw problem("$._meta", "an object", describe(meta));
    }
    wire["metadata"] = { _meta: meta as JsonObject };
  }
  return parseToolResult(wire);
}
