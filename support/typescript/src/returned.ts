// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

// The rules of `Tool.call` for what a handler returns (Python's `_as_result` and `Output.result`):
// a string is the output, a `ToolResult` passes through, other JSON data is its JSON text (and,
// for a tool with an output schema, its `structuredContent`, checked); and the text of a throw.

import { parseToolResult } from "./codec.js";
import { WireError } from "./errors.js";
import { isPlainObject, readJson, writeJson } from "./json.js";
import type { SchemaCheck } from "./schema.js";
import type { ParsedToolResult } from "./types.js";

/** A result that is not an error, with `output`. */
function ok(output: string): ParsedToolResult {
  return { output, isError: false, parts: [] };
}

/** An error result, with `output` as its text. */
export function error(output: string): ParsedToolResult {
  return { output, isError: true, parts: [] };
}

const TOOL_RESULT_KEYS = new Set(["output", "isError", "parts", "structuredContent", "metadata"]);

/** Whether `value` is a `ToolResult` a handler returned: an object with a string `output` and a
 * boolean `isError` (as every parsed one has, unknown keys kept), or with a string `output` and no
 * key a `ToolResult` does not have. Anything else is data, returned as its JSON text. */
function looksLikeResult(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value) || typeof value["output"] !== "string") {
    return false;
  }
  return typeof value["isError"] === "boolean" || Object.keys(value).every((k) => TOOL_RESULT_KEYS.has(k));
}

/** The wire type a value that carries a `ToolResult` looks like (a `ToolCallResult`, a
 * `RunResult`), whose host-only metadata its JSON text would hand to the model; or undefined. */
function carrierOf(value: Record<string, unknown>): string | undefined {
  if (typeof value["id"] === "string" && typeof value["name"] === "string" && looksLikeResult(value["result"])) {
    return "ToolCallResult";
  }
  if ((value["status"] === "done" || value["status"] === "pending") && Array.isArray(value["results"])) {
    return "RunResult";
  }
  return undefined;
}

const MISMATCH = "the tool's output does not match its output schema: ";

/** The rules of `call` for what the handler of a tool with an output schema returns (Python's
 * `Output.result`): data becomes `structuredContent` and its JSON text, checked against the schema;
 * a `ToolResult` is kept, and checked only when it has `structuredContent`. */
export function asOutput(value: unknown, check: SchemaCheck): ParsedToolResult {
  if (looksLikeResult(value)) {
    const result = asResult(value);
    if (result.structuredContent === undefined) {
      return result;
    }
    const problems = check(result.structuredContent);
    return problems.length > 0 ? error(MISMATCH + problems.join("; ")) : result;
  }
  if (value === undefined || value === null) {
    return error(`the tool returned ${String(value)}, but it declares an output schema: return the data it describes`);
  }
  let text: string;
  try {
    text = writeJson(value);
  } catch (err) {
    return error(`the tool returned a value that is not JSON: ${textOf(err)}`);
  }
  const data = readJson(text); // the data as JSON, sharing nothing with the handler's value
  const problems = check(data);
  if (problems.length > 0) {
    return error(MISMATCH + problems.join("; "));
  }
  return { output: text, isError: false, parts: [], structuredContent: data };
}

/** The rules of `call` for what a handler returns. */
export function asResult(value: unknown): ParsedToolResult {
  if (typeof value === "string") {
    return ok(value);
  }
  if (value === undefined || value === null) {
    return ok(""); // nothing returned: done, with nothing to say (Python's `None` gives the same)
  }
  if (value instanceof Uint8Array || value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    return error("the tool returned bytes, which are not text; return a ToolResult with a ContentPart instead");
  }
  if (isPlainObject(value) && !looksLikeResult(value)) {
    const carrier = carrierOf(value);
    if (carrier !== undefined) {
      return error(`the tool returned a ${carrier}, which is not a ToolResult; return a ToolResult (or JSON data) instead`);
    }
  }
  if (looksLikeResult(value)) {
    try {
      return parseToolResult(value);
    } catch (err) {
      if (err instanceof WireError) {
        return error(`the tool returned a ToolResult that is not valid: ${err.message}`);
      }
      throw err;
    }
  }
  try {
    return ok(writeJson(value));
  } catch (err) {
    return error(`the tool returned a value that is not JSON: ${textOf(err)}`);
  }
}

/** The text of what a handler threw: its message, or its name when the message is empty. */
export function textOf(err: unknown): string {
  if (err instanceof Error) {
    return err.message || err.name || "Error";
  }
  if (typeof err === "string") {
    return err || "Error";
  }
  try {
    return String(err) || "Error";
  } catch {
    return "Error";
  }
}
