// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

// Where a handler's thrown error goes, for the host: the logger `setToolLogger` sets (the console
// by default, as Python logs to its `toolnexus` logger) and the call's `onError` listener. The
// model reads only the error's message, in the error result `Tool.call` returns. And the lines a
// tool logs through `ToolContext.log`: their levels, and the check of each line.

import { describe, isPlainObject, type JsonObject } from "./json.js";

/** The levels of `ToolContext.log`, lowest first: MCP's, which are RFC 5424's syslog severities. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];
/** `onLog(level, message, data)`: a line a tool logs through `ToolContext.log`. */
export type LogListener = (level: LogLevel, message: string, data: JsonObject) => void;

/**
 * Checks a line for `ToolContext.log`, as Python's `ctx.log` does: a RangeError for a level not
 * in {@link LOG_LEVELS}, a TypeError for a message that is not a string or data that is not a
 * plain object.
 */
export function checkLogLine(level: unknown, message: unknown, data: unknown): void {
  if (typeof level !== "string" || !(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new RangeError(`log takes a level of ${LOG_LEVELS.join(", ")}; got ${describe(level)}`);
  }
  if (typeof message !== "string") {
    throw new TypeError(`log takes a string message, got ${describe(message)}`);
  }
  if (!isPlainObject(data)) {
    throw new TypeError(`log takes its data as a plain object, got ${describe(data)}`);
  }
}

/** `onError(error, where)`: what a tool's handler threw (with its stack), for the host only. */
export type ErrorListener = (error: unknown, where: { readonly tool: string; readonly callId: string }) => void;

/** Where a handler's thrown error is logged (`error(message, error)`; the `console` by default). */
export interface ToolLogger {
  error(message: string, error: unknown): void;
}

interface Console {
  error(...data: unknown[]): void;
}

const CONSOLE: ToolLogger = {
  error: (message, err) => (globalThis as unknown as { console?: Console }).console?.error(message, err),
};

let toolLogger: ToolLogger | undefined = CONSOLE;

/**
 * Sets where a handler's thrown error is logged, with its stack: `logger.error("tool <name>
 * raised <Error name>", error)` (Python logs the same to its `toolnexus` logger). The `console`
 * by default; `undefined` logs nothing. The model reads only the error's message, in the error
 * result. Returns the logger it replaces.
 */
export function setToolLogger(logger: ToolLogger | undefined): ToolLogger | undefined {
  if (logger !== undefined && typeof logger.error !== "function") {
    throw new TypeError("setToolLogger takes an object with an error(message, error) method, or undefined");
  }
  const previous = toolLogger;
  toolLogger = logger;
  return previous;
}

/** Logs what a handler of `tool` threw, and hands it to `listener`; a failing logger or listener is ignored. */
export function reportThrown(err: unknown, tool: string, callId: string, listener: ErrorListener | undefined): void {
  const kind = err instanceof Error ? err.name || "Error" : typeof err;
  try {
    toolLogger?.error(`tool ${tool} raised ${kind}`, err);
  } catch {
    // the log is the host's; the call's result stands
  }
  try {
    listener?.(err, { tool, callId });
  } catch {
    // as above
  }
}

