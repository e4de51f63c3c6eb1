// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * The shapes the MCP bridge reads and writes besides the adapter's (`adapters/mcp.ts`): a
 * `CallToolResult` read back into a `ToolResult` (as Python's `from_mcp_call_tool_result`), a
 * suspension asked as an elicitation (as `mcp_input_required`, whose params are an
 * `elicitation/create`'s), an elicitation's result as an `Answer` (`answer_from_mcp`), and an
 * `Answer` as an elicitation's result, with the form's defaults for the fields it leaves out
 * (`mcp_input_responses`, SEP-1034). Nothing here loads the SDK.
 *
 * @packageDocumentation
 */

import type { CallToolResult, ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { parseToolResult } from "../codec.js";
import { approvalForm, isApproval } from "../engine.js";
import { WireError } from "../errors.js";
import { isPlainObject, type JsonObject, type JsonValue } from "../json.js";
import { checkMimeType, checkUrl, displayable } from "../links.js";
import { fromUrl, kindFor } from "../media.js";
import { randomHex } from "../suspend.js";
import type { Answer, ContentPart, ParsedToolResult, Request } from "../types.js";

/** The params of an `elicitation/create` request, either mode. */
export type ElicitParams = ElicitRequest["params"];

const ACTIONS: { readonly [reason: string]: "decline" | "cancel" } = { declined: "decline", cancelled: "cancel", expired: "cancel" };

/** The key under which a relayed elicitation sits in a request's `data.mcp.inputRequests`, as in Python. */
export const ELICITATION_KEY = "elicitation";

function mime(value: unknown, path: string): string {
  try {
    return checkMimeType(value);
  } catch (err) {
    throw new WireError(path, "a MIME type", (err as Error).message);
  }
}

/** The file name a resource's uri ends with, never a path (`..%2F..%2Fx` names `x`). */
function nameOf(uri: string): string | undefined {
  let tail = uri.replace(/[?#].*$/, "");
  try {
    tail = decodeURIComponent(tail);
  } catch {
    // kept as written: a `%` that is not an escape
  }
  const name = tail.replaceAll("\\", "/").replace(/\/+$/, "").split("/").pop() ?? "";
  return name === "" || name === "." || name === ".." || name.includes(":") ? undefined : displayable(name);
}

function link(block: JsonObject, path: string): ContentPart | string {
  const uri = String(block["uri"] ?? "");
  const mimeType = typeof block["mimeType"] === "string" && block["mimeType"] !== "" ? mime(block["mimeType"], `${path}.mimeType`) : "";
  const label = typeof block["name"] === "string" ? block["name"] : "";
  const name = label === uri ? "" : displayable(label.replaceAll("\\", "/").replace(/\/+$/, "").split("/").pop() ?? "");
  let part: ContentPart;
  if (uri.slice(0, 5).toLowerCase() === "data:") {
    part = fromUrl(uri, mimeType || undefined, name && name !== "." && name !== ".." ? { name } : undefined);
  } else {
    try {
      checkUrl(uri);
    } catch {
      return `[resource_link${name ? ` '${name}'` : ""} left out: its URL is not an http, https or data: URL]`;
    }
    part = { type: mimeType ? kindFor(mimeType) : "file", url: uri };
    if (mimeType) {
      part.mimeType = mimeType;
    }
    if (name && name !== "." && name !== "..") {
      part.name = name;
    }
  }
  for (const key of ["title", "description"] as const) {
    if (typeof block[key] === "string" && block[key] !== "") {
      part[key] = displayable(block[key]);
    }
  }
  return part;
}

/** One content block: a line of the output (a string) or a part; `text` says it was text. */
function blockOf(block: JsonObject, path: string): { line?: string; part?: ContentPart; text: boolean } {
  const annotated = (part: ContentPart): ContentPart => (isPlainObject(block["annotations"]) ? { ...part, annotations: block["annotations"] as never } : part);
  switch (block["type"]) {
    case "text": {
      const text = String(block["text"] ?? "");
      return isPlainObject(block["annotations"]) && text !== "" ? { part: annotated({ type: "text", text }), text: true } : { line: text, text: true };
    }
    case "image":
    case "audio":
      return { part: annotated({ type: block["type"], mimeType: mime(block["mimeType"], `${path}.mimeType`), data: String(block["data"] ?? "") }), text: false };
    case "resource": {
      const resource = isPlainObject(block["resource"]) ? block["resource"] : {};
      if (typeof resource["text"] === "string") {
        return isPlainObject(block["annotations"]) && resource["text"] !== "" ? { part: annotated({ type: "text", text: resource["text"] }), text: true } : { line: resource["text"], text: true };
      }
      const mimeType = mime(resource["mimeType"] || "application/octet-stream", `${path}.resource.mimeType`);
      const part: ContentPart = { type: kindFor(mimeType), mimeType, data: String(resource["blob"] ?? "") };
      const name = nameOf(String(resource["uri"] ?? ""));
      if (name !== undefined) {
        part.name = name;
      }
      return { part: annotated(part), text: false };
    }
    case "resource_link": {
      const made = link(block, path);
      return typeof made === "string" ? { line: made, text: false } : { part: annotated(made), text: false };
    }
    default:
      return { line: `[${String(block["type"])} content left out]`, text: false };
  }
}

/**
 * A `ToolResult` from a `CallToolResult` (as the SDK's client parsed it): text blocks joined into
 * `output` (an annotated one is a text part holding its annotations), image, audio and embedded
 * files as parts, a `resource_link` as a part by URL (`http`, `https`; `data:` as its data; any
 * other scheme left out with a note), `structuredContent` kept (and as the output when there is no
 * text), `isError` kept, the server's `_meta` in `metadata._meta`, never sent on.
 *
 * @throws WireError for a MIME type that is blank or holds a control character, or base64 that is not valid.
 */
export function fromMcpCallToolResult(result: CallToolResult): ParsedToolResult {
  const texts: string[] = [];
  const parts: ContentPart[] = [];
  let hadText = false;
  (result.content ?? []).forEach((block, i) => {
    const read = blockOf(block as unknown as JsonObject, `$.content[${i}]`);
    hadText ||= read.text;
    if (read.line !== undefined) {
      texts.push(read.line);
    }
    if (read.part !== undefined) {
      parts.push(read.part);
    }
  });
  const wire: JsonObject = { output: texts.join("\n") };
  const structured = result.structuredContent as JsonValue | undefined;
  if (structured !== undefined && structured !== null) {
    wire["structuredContent"] = structured;
    if (texts.length === 0 && !hadText) {
      wire["output"] = JSON.stringify(structured);
    }
  }
  if (result.isError === true) {
    wire["isError"] = true;
  }
  if (parts.length > 0) {
    wire["parts"] = parts as unknown as JsonValue;
  }
  if (isPlainObject(result._meta)) {
    wire["metadata"] = { _meta: result._meta as JsonObject };
  }
  return parseToolResult(wire);
}

/** A form's message: the prompt, and for an approval of a call the arguments it runs with. */
function message(request: Request): string {
  const data = request.data;
  const args = isPlainObject(data) ? data["arguments"] : undefined;
  return request.kind === "approval" && isPlainObject(args) ? `${request.prompt}\n${JSON.stringify(args, null, 2)}` : request.prompt;
}

/**
 * The elicitation that asks `request`: URL mode for an `authorization` with a url, else a form
 * whose `requestedSchema` is the toolkit's approval form (one text field, `arguments`), the
 * request's `data.schema`, or an empty form (a confirmation).
 */
export function elicitationOf(request: Request): ElicitParams {
  if (request.kind === "authorization" && request.url) {
    return { mode: "url", message: request.prompt, url: request.url, elicitationId: request.id };
  }
  const data = request.data;
  let schema = approvalForm(request) ?? (isPlainObject(data) ? data["schema"] : undefined);
  if (!isPlainObject(schema)) {
    schema = { type: "object", properties: {} };
  }
  return { mode: "form", message: message(request), requestedSchema: schema as never };
}

/** The `Answer` to `request` in an elicitation's result; an approval's edited `arguments` (JSON
 * text, since form content holds only strings, numbers and booleans) read back into a value. */
export function answerOf(request: Request, result: ElicitResult): Answer {
  if (result.action === "decline" || result.action === "cancel") {
    return { id: request.id, ok: false, reason: result.action === "decline" ? "declined" : "cancelled" };
  }
  const data: JsonObject | undefined = result.content === undefined ? undefined : { ...(result.content as JsonObject) };
  const tool = isPlainObject(request.data) && typeof request.data["tool"] === "string" ? request.data["tool"] : "";
  if (data !== undefined && typeof data["arguments"] === "string" && isApproval(tool, request)) {
    try {
      data["arguments"] = JSON.parse(data["arguments"]) as JsonValue;
    } catch {
      // not JSON: stays a string, which the loop refuses as arguments that are not an object
    }
  }
  return data === undefined ? { id: request.id, ok: true } : { id: request.id, ok: true, data };
}

/** The `default` of each field of a form's schema that declares one. */
function defaults(schema: unknown): JsonObject {
  const properties = isPlainObject(schema) ? schema["properties"] : undefined;
  const out: JsonObject = {};
  if (isPlainObject(properties)) {
    for (const [name, field] of Object.entries(properties)) {
      if (isPlainObject(field) && field["default"] !== undefined) {
        out[name] = field["default"] as JsonValue;
      }
    }
  }
  return out;
}

/** A server's elicitation as a suspension (its message the prompt, control and bidi formatting
 * characters as U+FFFD, line breaks and tabs kept): `authorization` with the url for URL mode (only an
 * `http` or `https` one: a `WireError` at `url` otherwise, and it is not asked), else `input`;
 * the elicitation kept in `data.mcp`. */
export function requestOf(params: ElicitParams): Request {
  const prompt = params.message.split(/(\r\n|\n|\t)/).map((piece, i) => (i % 2 === 1 ? piece : displayable(piece))).join("");
  const mcp: JsonObject = { inputRequests: { [ELICITATION_KEY]: { method: "elicitation/create", params: params as unknown as JsonValue } }, heldOpen: true };
  if (params.mode === "url") {
    try {
      checkUrl(params.url);
    } catch (err) {
      throw new WireError("$.params.url", "an http or https URL (a person is sent only there)", (err as Error).message);
    }
    return { id: pendingId(), kind: "authorization", prompt, url: params.url, data: { mcp } };
  }
  return { id: pendingId(), kind: "input", prompt, data: { mcp } };
}

function pendingId(): string {
  return "pnd-" + randomHex(16);
}

/** The elicitation's result for `answer`: an accepted form holds the `default` of every field
 * of its `requestedSchema` that the answer leaves out (SEP-1034). */
export function elicitResultOf(params: ElicitParams, answer: Answer): ElicitResult {
  if (!answer.ok) {
    return { action: ACTIONS[answer.reason ?? "cancelled"] ?? "cancel" };
  }
  if (params.mode === "url") {
    return { action: "accept" };
  }
  const given = isPlainObject(answer.data) ? answer.data : {};
  return { action: "accept", content: { ...defaults(params.requestedSchema), ...given } as ElicitResult["content"] };
}
