// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * The shapes the MCP bridge reads and writes besides the adapter's (`adapters/mcp.ts`, which also
 * reads a `CallToolResult` back into a `ToolResult`: `fromMcpCallToolResult`): a
 * suspension asked as an elicitation (as `mcp_input_required`, whose params are an
 * `elicitation/create`'s), an elicitation's result as an `Answer` (`answer_from_mcp`), and an
 * `Answer` as an elicitation's result, with the form's defaults for the fields it leaves out
 * (`mcp_input_responses`, SEP-1034). Nothing here loads the SDK.
 *
 * @packageDocumentation
 */

import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { approvalForm, isApproval } from "../engine.js";
import { WireError } from "../errors.js";
import { isPlainObject, type JsonObject, type JsonValue } from "../json.js";
import { checkUrl, displayable } from "../links.js";
import { randomHex } from "../suspend.js";
import type { Answer, Request } from "../types.js";

/** The params of an `elicitation/create` request, either mode. */
export type ElicitParams = ElicitRequest["params"];

const ACTIONS: { readonly [reason: string]: "decline" | "cancel" } = { declined: "decline", cancelled: "cancel", expired: "cancel" };

/** The key under which a relayed elicitation sits in a request's `data.mcp.inputRequests`, as in Python. */
export const ELICITATION_KEY = "elicitation";

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
