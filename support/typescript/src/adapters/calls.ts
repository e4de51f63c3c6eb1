// codegen: package; requires ToolResult, ToolCall, ToolCallResult, ToolSpec, ContentPart

// Inbound, the part every provider shares (a port of Python's `toolnexus/adapters/calls.py`): a
// call's arguments as a JSON object, or a ready error result for the model when they are not
// one. Each provider's module reads its own response shape and calls `addCall`.

import { MAX_DEPTH, isPlainObject, readJson, writeJson, type JsonObject, type JsonValue } from "../json.js";
import type { ToolCall, ToolCallResult } from "../types.js";
import { pyRepr } from "./common.js";

/**
 * A response's tool calls: `calls` to run (`toolkit.runCalls(calls)`), in the response's order, and
 * `refused`, an error result for each call whose arguments are not a JSON object (or that names no
 * tool), to send back with the run's results under the call's id, so the model can correct itself.
 */
export interface ParsedCalls {
  calls: ToolCall[];
  refused: ToolCallResult[];
}

const PREVIEW = 200;

/** `obj`'s field under the first of `names` it has (an own key). */
export function field(obj: unknown, ...names: string[]): unknown {
  if (typeof obj !== "object" || obj === null) {
    return undefined;
  }
  for (const name of names) {
    if (Object.hasOwn(obj, name)) {
      return (obj as Record<string, unknown>)[name];
    }
  }
  return undefined;
}

/** `value` as a list of items (nothing for `undefined` or `null`). @throws TypeError for a non-list. */
export function itemsOf(value: unknown, where: string): unknown[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (!Array.isArray(value)) {
    throw new TypeError(`${where}: expected a list, got ${pythonType(value)}`);
  }
  return value;
}

/** The name Python gives the type of a JSON-ish value (the adapters' texts are Python's). */
function pythonType(value: unknown): string {
  if (typeof value === "number") {
    return Number.isInteger(value) ? "int" : "float";
  }
  if (typeof value === "boolean") {
    return "bool";
  }
  if (Array.isArray(value)) {
    return "list";
  }
  return value === null ? "NoneType" : typeof value === "string" ? "str" : typeof value === "object" ? "dict" : typeof value;
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) {
    return "an array";
  }
  if (value === null) {
    return "null";
  }
  const kinds: { [type: string]: string } = { object: "an object", string: "a string", boolean: "a boolean", number: "a number" };
  return kinds[typeof value] ?? typeof value;
}

function depthOf(value: unknown): number {
  if (Array.isArray(value)) {
    return 1 + value.reduce((deepest: number, item) => Math.max(deepest, depthOf(item)), 0);
  }
  if (isPlainObject(value)) {
    return 1 + Object.values(value).reduce((deepest: number, item) => Math.max(deepest, depthOf(item)), 0);
  }
  return 0;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The arguments as a JSON object, or why they are not one (the text after `$: `). `text`: the
 * provider sends them as JSON text (OpenAI), rather than as an object (the others). */
function argumentsOf(raw: unknown, text: boolean): JsonObject | string {
  let value: unknown;
  if (raw === undefined || raw === null || (text && typeof raw === "string" && raw.trim() === "")) {
    return {};
  } else if (typeof raw === "object" && !Array.isArray(raw)) {
    value = raw;
  } else if (!text) {
    value = raw;
  } else if (typeof raw === "string") {
    try {
      value = readJson(raw);
    } catch (err) {
      const preview = raw.length <= PREVIEW ? raw : raw.slice(0, PREVIEW) + "...";
      return `not valid JSON (${message(err)}): ${pyRepr(preview)}`;
    }
  } else {
    return `expected JSON text or an object, got ${pythonType(raw)}`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `expected a JSON object, got ${kindOf(value)}`;
  }
  try {
    const copy = readJson(writeJson(value as JsonValue)); // plain JSON, sharing nothing with the response
    if (depthOf(copy) > MAX_DEPTH - 2) {
      throw new Error(`nested deeper than ${MAX_DEPTH - 2} levels`); // a ToolCall's arguments sit two levels down
    }
    return copy as JsonObject;
  } catch (err) {
    return `not JSON: ${message(err)}`;
  }
}

function refusal(id: string, name: string, output: string): ToolCallResult {
  return { id, name, result: { output, isError: true, parts: [] } };
}

/** Adds one call to `out`: to `calls`, or, when it names no tool or its arguments are not a JSON
 * object, its error result to `refused`. */
export function addCall(out: ParsedCalls, callId: unknown, name: unknown, raw: unknown, text: boolean = false): void {
  const id = typeof callId === "string" ? callId : callId === undefined || callId === null ? "" : String(callId);
  if (typeof name !== "string" || name === "") {
    out.refused.push(refusal(id, typeof name === "string" ? name : "", `the tool call ${pyRepr(id)} names no tool`));
    return;
  }
  const args = argumentsOf(raw, text);
  if (typeof args === "string") {
    out.refused.push(refusal(id, name, `invalid arguments for ${name}: $: ${args}`));
  } else {
    out.calls.push({ id, name, arguments: args });
  }
}

/** An error result for a call `out` cannot run at all (a custom tool's free text, say). */
export function refuseCall(out: ParsedCalls, callId: unknown, name: unknown, output: string): void {
  out.refused.push(refusal(typeof callId === "string" ? callId : "", typeof name === "string" ? name : "", output));
}
