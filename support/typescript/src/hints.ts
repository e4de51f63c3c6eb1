// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

// The hints a tool declares (`defineTool`'s `hints`, Python's `Tool.hints`): advisory, for the
// host; checked when the tool is defined, with a `TypeError` naming the key that is wrong.

import { parseToolHints, toWireToolIcon } from "./codec.js";
import { WireError } from "./errors.js";
import { describe, isPlainObject, type JsonObject, type JsonValue } from "./json.js";
import type { ParsedToolHints, ToolHints } from "./types.js";

/**
 * The hints {@link defineTool} takes: `ToolHints` with every field optional. `readOnly` left out
 * is false, `destructive` and `openWorld` true (MCP's defaults, and Python's `ToolHints`).
 * `idempotent: true` lets a store run a call again under the same idempotency key (its calls are
 * never in doubt: docs/durable.md); an MCP server lists the hints as the tool's `annotations`,
 * `title` and `icons`; no model adapter sends them.
 */
export type ToolHintsInit = Partial<ToolHints>;

const HINT_FLAGS = ["readOnly", "destructive", "openWorld", "idempotent", "longRunning"] as const;
const HINT_KEYS: readonly string[] = [...HINT_FLAGS, "title", "icons"];

/** `given` as the hints a tool declares (the defaults filled in, as the wire's parser reads them);
 * a `TypeError` naming the key that is not a `ToolHints` field, or whose value is not its type. */
export function toolHints(name: string, given: unknown): ParsedToolHints | undefined {
  if (given === undefined) {
    return undefined;
  }
  const where = `defineTool ${JSON.stringify(name)}: hints`;
  if (!isPlainObject(given)) {
    throw new TypeError(`${where} must be an object of ToolHints fields or undefined, got ${describe(given)}`);
  }
  for (const key of Object.keys(given)) {
    if (!HINT_KEYS.includes(key)) {
      throw new TypeError(`${where}: ${JSON.stringify(key)} is not a hint (the hints: ${HINT_KEYS.join(", ")})`);
    }
  }
  for (const key of HINT_FLAGS) {
    if (given[key] !== undefined && typeof given[key] !== "boolean") {
      throw new TypeError(`${where}.${key} must be a boolean, got ${describe(given[key])}`);
    }
  }
  if (given["title"] !== undefined && typeof given["title"] !== "string") {
    throw new TypeError(`${where}.title must be a string, got ${describe(given["title"])}`);
  }
  const icons = given["icons"];
  if (icons !== undefined && !Array.isArray(icons)) {
    throw new TypeError(`${where}.icons must be an array of ToolIcon, got ${describe(icons)}`);
  }
  const wire: JsonObject = { readOnly: false, destructive: true, openWorld: true };
  for (const [key, value] of Object.entries(given)) {
    if (value !== undefined && key !== "icons") {
      wire[key] = value as JsonValue;
    }
  }
  if (icons !== undefined) {
    wire["icons"] = icons.map((icon: unknown, i) => {
      try {
        return toWireToolIcon(icon as Parameters<typeof toWireToolIcon>[0], `hints.icons[${i}]`);
      } catch (err) {
        throw new TypeError(`defineTool ${JSON.stringify(name)}: ${err instanceof WireError ? err.message : String(err)}`);
      }
    });
  }
  return Object.freeze(parseToolHints(wire, "hints"));
}
