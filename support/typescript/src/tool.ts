// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

// Tools: a name, a description, an input schema and a handler, called through `Tool.call`, with
// the rules of Python's `Tool.call` (`toolnexus/_tool.py`): a failure is an error result, never a
// throw across `call`.

import { parseToolResult } from "./codec.js";
import { WireError } from "./errors.js";
import { describe, isPlainObject, keepOrder, orderedKeys, setKey, type JsonObject, type JsonValue } from "./json.js";
import { Limit, type LimitInit } from "./limit.js";
import { compileSchema, type ArgumentsCheck, type SchemaCheck } from "./schema.js";
import { pending, randomHex } from "./suspend.js";
import { checkLogLine, reportThrown, type ErrorListener, type LogLevel, type LogListener } from "./log.js";
import { isStandardSchema, jsonSchemaOf, type ArgsOf, type InputSchema, type OutputOf, type OutputSchema } from "./typed.js";
import { toolHints, type ToolHintsInit } from "./hints.js";
import { asOutput, asResult, error, textOf } from "./returned.js";
import type { Answer, ParsedToolHints, ParsedToolResult, Request, ToolResult, ToolSpec } from "./types.js";

declare global {
  /**
   * The part of the standard `AbortSignal` (Node.js, Deno, browsers) the runtime uses. Declared
   * so that the package compiles without the DOM library or `@types/node`; TypeScript merges it
   * with theirs, where the full interface is.
   */
  interface AbortSignal {
    readonly aborted: boolean;
    readonly reason: any;
    throwIfAborted(): void;
  }
}

/**
 * The listener methods of an `AbortSignal` the runtime calls, cast to at the call: declared in
 * the global interface they would have to match `EventTarget`'s, which is declared where the
 * DOM library or a newer `@types/node` is (which a provider SDK's types may bring in).
 */
interface AbortListeners {
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

interface Controller {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

interface Timers {
  AbortController: new () => Controller;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const timers = globalThis as unknown as Timers;

const NAME_REJECTS = /[^a-zA-Z0-9_-]/g;

/** `name` with every character outside `[a-zA-Z0-9_-]` replaced by `_`. */
export function normalizeToolName(name: string): string {
  return name.replace(NAME_REJECTS, "_");
}

/** `onProgress(fraction, message)`: what a tool reports through {@link ToolContext.progress}. */
export type ProgressListener = (fraction: number, message: string) => void;


/** @internal What `read_result` reads: the toolkit's kept results, for the turn's scope. */
export interface KeptResults {
  read(ref: string): Promise<string | undefined>;
}

/** What a {@link ToolContext} is made of; every field is optional. */
export interface ToolContextInit {
  /** Seconds the call may take (checking the arguments included); an overrun is an error result. */
  timeout?: number | undefined;
  /** Cancels the call: `call` then rejects with the signal's reason, as `fetch` does. */
  signal?: AbortSignal | undefined;
  answer?: Answer | undefined;
  request?: Request | undefined;
  callId?: string | undefined;
  idempotencyKey?: string | undefined;
  onProgress?: ProgressListener | undefined;
  /** Hears the lines the tool logs through {@link ToolContext.log}. */
  onLog?: LogListener | undefined;
  /** Hears what the handler throws (the error itself, with its stack); never sent to the model. */
  onError?: ErrorListener | undefined;
  /** @internal The toolkit's kept results (see {@link KeptResults}). */
  keptResults?: KeptResults | undefined;
}

/**
 * What a call knows besides its arguments.
 *
 * `timeout` (seconds) bounds the call: an overrun becomes an error result. `signal` aborts when
 * the call is cancelled or times out: a handler passes it on (to `fetch`, say) to stop its work.
 * `answer` is set only when the call is a retry after a suspension, and `request` then holds the
 * `Request` it answers (as stored in the run, so it is there in any process that resumes).
 * `callId` is the id of the `ToolCall` being run (empty when the tool is called directly).
 * `idempotencyKey` stays the same for one call across its suspension, its retry with an answer
 * and any process that resumes the run, in any language: a tool with side effects passes it to
 * the system it changes, so that a call run twice takes effect once (empty when the tool is
 * called directly).
 */
export class ToolContext {
  readonly timeout: number | undefined;
  readonly signal: AbortSignal | undefined;
  readonly answer: Answer | undefined;
  readonly request: Request | undefined;
  readonly callId: string;
  readonly idempotencyKey: string;
  readonly #onProgress: ProgressListener | undefined;
  readonly #onLog: LogListener | undefined;
  /** @internal Hears what the handler throws (see {@link ToolContextInit.onError}). */
  readonly onError: ErrorListener | undefined;
  /** @internal What `read_result` reads (see {@link KeptResults}). */
  readonly keptResults: KeptResults | undefined;

  constructor(init: ToolContextInit = {}) {
    const { timeout } = init;
    if (timeout !== undefined && (typeof timeout !== "number" || Number.isNaN(timeout))) {
      throw new TypeError(`timeout must be a number of seconds or undefined, got ${describe(timeout)}`);
    }
    this.timeout = timeout;
    this.signal = init.signal;
    this.answer = init.answer;
    this.request = init.request;
    this.callId = init.callId ?? "";
    this.idempotencyKey = init.idempotencyKey ?? "";
    this.#onProgress = init.onProgress;
    this.#onLog = init.onLog;
    this.onError = init.onError;
    this.keptResults = init.keptResults;
  }

  /**
   * Reports how far the call has got: `fraction` from 0 to 1, and a short message. Reaches the
   * toolkit's `onProgress` (and the turn's `progress`); does nothing when no one listens.
   *
   * @throws RangeError for a fraction outside 0..1, TypeError for a message that is not a string.
   */
  progress(fraction: number, message: string = ""): void {
    if (typeof fraction !== "number" || !(fraction >= 0 && fraction <= 1)) {
      throw new RangeError(`progress takes a fraction from 0 to 1, got ${describe(fraction)}`);
    }
    if (typeof message !== "string") {
      throw new TypeError(`progress takes a string message, got ${describe(message)}`);
    }
    this.#onProgress?.(fraction, message);
  }

  /**
   * Logs a line of the call, for the people who run it (never the model): `level` one of
   * {@link LOG_LEVELS} (`debug`, `info`, `notice`, `warning`, `error`, `critical`, `alert`,
   * `emergency`), `message` text, and `data` JSON values to go with it. It goes to the toolkit's
   * `onLog` (and the turn's `log`), and, when the toolkit is served over MCP, to the client as
   * `notifications/message` (at and above the level it set with `logging/setLevel`); does
   * nothing when no one listens.
   *
   * @throws RangeError for an unknown level, TypeError for a message that is not a string or
   * data that is not a plain object.
   */
  log(level: LogLevel, message: string, data: JsonObject = {}): void {
    checkLogLine(level, message, data);
    this.#onLog?.(level, message, data);
  }

  /** This context with `signal` in place of its own (what a handler gets). */
  withSignal(signal: AbortSignal): ToolContext {
    return new ToolContext({
      timeout: this.timeout,
      signal,
      answer: this.answer,
      request: this.request,
      callId: this.callId,
      idempotencyKey: this.idempotencyKey,
      onProgress: this.#onProgress,
      onLog: this.#onLog,
      onError: this.onError,
      keptResults: this.keptResults,
    });
  }
}

/**
 * A tool's handler: the checked arguments (a copy) and the context; sync or async. `Args` is what
 * the input schema accepts (inferred by {@link defineTool}); `Data`, for a tool with an output
 * schema, the data it returns (or a `ToolResult`).
 */
export type Handler<Args = JsonObject, Data = unknown> = (args: Args, ctx: ToolContext) => Data | ToolResult | PromiseLike<Data | ToolResult>;

/** `needsApproval`: always, never, or a rule over the checked arguments. */
export type NeedsApproval<Args = JsonObject> = boolean | ((args: Args) => boolean);

/** The options of {@link defineTool}. */
export interface ToolOptions<Args = JsonObject, Output extends OutputSchema | undefined = OutputSchema | undefined> {
  /**
   * `true`, or a rule over the checked arguments that returns `true`, makes a `Toolkit` ask for an
   * approval before the handler runs; `Tool.call` itself never asks.
   */
  needsApproval?: NeedsApproval<Args> | undefined;
  /**
   * The schema of the tool's structured output, a JSON Schema or a Standard Schema (its JSON
   * Schema conversion is declared, as for the input): the handler then returns the data it
   * describes, and the result carries it as `structuredContent` (and as JSON text in `output`),
   * checked against the JSON Schema. A `ToolResult` the handler builds is checked only when it has
   * `structuredContent`.
   */
  outputSchema?: Output | undefined;
  /** How much of the output the model reads when the tool runs in a `Toolkit` (the toolkit's own
   * limit may be tighter): a longer one is cut (docs/guides/result-limits.md). A bad limit throws
   * here. */
  limit?: Limit | LimitInit | undefined;
  /** How the tool behaves, for the host, not the model (Python's `hints=ToolHints(...)`; see
   * {@link ToolHintsInit}); bad hints throw here. */
  hints?: ToolHintsInit | undefined;
}

/** The arguments a handler gets, or the error result that refuses them. */
export type Prepared = { ok: true; args: JsonObject } | { ok: false; result: ParsedToolResult };

/** A copy of the arguments' objects and arrays (other values are shared), keeping key order, so a
 * handler that changes its arguments leaves the caller's, and a stored `ToolCall`'s, as they were. */
function copied(value: JsonValue): JsonValue {
  if (Array.isArray(value)) {
    return value.map(copied);
  }
  if (isPlainObject(value)) {
    const out: JsonObject = {};
    const keys = orderedKeys(value);
    for (const key of keys) {
      const item = value[key];
      if (item !== undefined) {
        setKey(out, key, copied(item));
      }
    }
    keepOrder(out, keys);
    return out;
  }
  return value;
}

/** `seconds` as Python's `format(seconds, "g")` writes it (6 significant digits). */
function formatG(seconds: number): string {
  if (!Number.isFinite(seconds)) {
    return Number.isNaN(seconds) ? "nan" : seconds > 0 ? "inf" : "-inf";
  }
  if (seconds === 0) {
    return Object.is(seconds, -0) ? "-0" : "0";
  }
  const [mantissa, exp] = seconds.toExponential(5).split("e") as [string, string];
  const e = Number(exp);
  const strip = (s: string): string => (s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s);
  if (e >= -4 && e < 6) {
    return strip(seconds.toFixed(5 - e));
  }
  return `${strip(mantissa)}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}

/** A callable tool. Build one with {@link defineTool}; run it with `await tool.call(args, ctx)`. */
export class Tool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  readonly needsApproval: NeedsApproval;
  /** The JSON Schema of the tool's structured output, when it declares one. */
  readonly outputSchema: JsonObject | undefined;
  /** How much of the output the model reads in a `Toolkit` (the toolkit's limit may be tighter). */
  readonly limit: Limit | undefined;
  /** The hints the tool declares ({@link ToolOptions.hints}), for the host; undefined when none. */
  readonly hints: ParsedToolHints | undefined;
  readonly #handler: Handler;
  readonly #check: ArgumentsCheck | undefined;
  readonly #output: SchemaCheck | undefined;

  /** @internal Use {@link defineTool}. */
  constructor(
    name: string,
    description: string,
    inputSchema: JsonObject,
    handler: Handler,
    check: ArgumentsCheck | undefined,
    needsApproval: NeedsApproval,
    output: { schema: JsonObject; check: SchemaCheck } | undefined = undefined,
    limit: Limit | undefined = undefined,
    hints: ParsedToolHints | undefined = undefined,
  ) {
    this.name = name;
    this.description = description;
    this.inputSchema = inputSchema;
    this.#handler = handler;
    this.#check = check;
    this.needsApproval = needsApproval;
    this.outputSchema = output?.schema;
    this.#output = output?.check;
    this.limit = limit;
    this.hints = hints;
  }

  /** The same tool under another name (a toolkit registers a normalised name so). */
  renamed(name: string): Tool {
    const output = this.outputSchema === undefined || this.#output === undefined ? undefined : { schema: this.outputSchema, check: this.#output };
    return new Tool(name, this.description, this.inputSchema, this.#handler, this.#check, this.needsApproval, output, this.limit, this.hints);
  }

  /** The tool's declaration, for a provider's tool list (its `hints` are for the host: adapters
   * send them to MCP only). */
  spec(): ToolSpec {
    const spec: ToolSpec = { name: this.name, description: this.description, inputSchema: this.inputSchema };
    if (this.hints !== undefined) {
      spec.hints = this.hints;
    }
    if (this.outputSchema !== undefined) {
      spec.outputSchema = this.outputSchema;
    }
    return spec;
  }

  /**
   * Runs the tool. Arguments that do not satisfy the input schema, a handler that throws (the
   * error, with its stack, goes to the logger of {@link setToolLogger} and to `ctx.onError`; the
   * model reads its message) and a timeout are error results (`invalid arguments for <name>: <path>: …`, the error's message,
   * `<name> timed out after N s`): `call` never throws for a tool failure. What the handler
   * returns becomes the result: a string is the output; a `ToolResult` (an object with a string
   * `output` and only `ToolResult`'s keys) passes through; any other JSON value is its JSON text.
   *
   * Cancellation crosses `call`, as it does `fetch`: when `ctx.signal` aborts, the promise
   * rejects with its reason (the handler sees its own `ctx.signal` abort).
   */
  async call(args?: JsonObject | null, ctx?: ToolContext | ToolContextInit): Promise<ParsedToolResult> {
    const context = ctx instanceof ToolContext ? ctx : new ToolContext(ctx);
    const given: unknown = args ?? {};
    if (!isPlainObject(given)) {
      return error(`invalid arguments for ${this.name}: $: expected a JSON object, got ${describe(given)}`);
    }
    const outer = context.signal;
    outer?.throwIfAborted();
    const controller = new timers.AbortController();
    const handlerContext = context.withSignal(controller.signal);
    const work = (async (): Promise<ParsedToolResult> => {
      const prepared = this.prepare(given as JsonObject);
      if (!prepared.ok) {
        return prepared.result;
      }
      const value: unknown = await this.#handler(prepared.args, handlerContext);
      return this.#output === undefined ? asResult(value) : asOutput(value, this.#output);
    })().catch((err: unknown) => this.#thrown(err, context, controller.signal));
    const timeout = context.timeout;
    if (timeout === undefined && outer === undefined) {
      return work;
    }
    let timer: unknown;
    let onAbort: (() => void) | undefined;
    const stops: Promise<ParsedToolResult>[] = [work];
    if (timeout !== undefined && timeout !== Infinity) {
      stops.push(
        new Promise<ParsedToolResult>((resolve) => {
          timer = timers.setTimeout(() => {
            const reason = Object.assign(new Error(`${this.name} timed out after ${formatG(timeout)} s`), { name: "TimeoutError" });
            controller.abort(reason);
            resolve(error(reason.message));
          }, Math.max(0, timeout * 1000));
        }),
      );
    }
    if (outer !== undefined) {
      stops.push(
        new Promise<ParsedToolResult>((_, reject) => {
          onAbort = () => {
            controller.abort(outer.reason);
            reject(outer.reason);
          };
          (outer as unknown as AbortListeners).addEventListener("abort", onAbort, { once: true });
        }),
      );
    }
    try {
      return await Promise.race(stops);
    } finally {
      if (timer !== undefined) {
        timers.clearTimeout(timer);
      }
      if (onAbort !== undefined) {
        (outer as unknown as AbortListeners | undefined)?.removeEventListener("abort", onAbort);
      }
    }
  }

  /** The error result for what the handler threw, which goes to the host too, unless the call is
   * already over (timed out or cancelled: `signal` aborted). */
  #thrown(err: unknown, ctx: ToolContext, signal: AbortSignal): ParsedToolResult {
    if (!signal.aborted) {
      reportThrown(err, this.name, ctx.callId, ctx.onError);
    }
    return error(textOf(err));
  }

  /** The handler's arguments (checked, and a copy), or the error result saying why not. */
  prepare(args: JsonObject): Prepared {
    try {
      if (this.#check !== undefined) {
        const problems = this.#check(args);
        if (problems.length > 0) {
          return { ok: false, result: error(`invalid arguments for ${this.name}: ${problems.join("; ")}`) };
        }
      }
      return { ok: true, args: copied(args) as JsonObject };
    } catch (err) {
      if (err instanceof RangeError) {
        return { ok: false, result: error(`invalid arguments for ${this.name}: $: nested too deeply to check (over the stack's limit)`) };
      }
      throw err;
    }
  }
}

/**
 * A tool from a handler `(args, ctx) => result`, sync or async: the seed's form.
 *
 * `inputSchema` is the JSON Schema of the arguments, or a Standard Schema (zod 4, arktype, valibot
 * through `toStandardJsonSchema`), whose own JSON Schema conversion the tool then declares; `null`
 * accepts any object. The handler's arguments are typed from it: a Standard Schema's input type,
 * or for a JSON Schema written inline or `as const`, {@link FromJsonSchema}. The JSON Schema is
 * checked and compiled here, once, with Ajv (a `TypeError` when it is not a valid JSON Schema),
 * and it alone decides what a call accepts (a Standard Schema's `validate` is not run: see
 * `typed.ts`).
 * `needsApproval` (true, or a rule over the checked arguments) makes a `Toolkit` ask for an
 * approval before the handler runs; `outputSchema` declares structured output; `limit` bounds the
 * output the model reads in a `Toolkit` (a bad limit throws here: {@link Limit}); `hints` declares
 * how the tool behaves, for the host (`idempotent`, MCP's annotations: {@link ToolOptions.hints}).
 *
 * With `handler` `null`, a person supplies the result: each call suspends on a request of kind
 * `result` (id `res-…`, `data` `{"tool", "arguments"}`, and `"schema"`: the output schema, when
 * the tool has one), and the answer's `data` is the result, as a `ToolResult`'s wire form
 * (`{"output": ..., "isError"?, "parts"?, "structuredContent"?}`): checked as the wire checks it,
 * and against the output schema. A refusal is `declined: …`, as for any question.
 */
export function defineTool<const S extends InputSchema, const O extends OutputSchema | undefined = undefined>(
  name: string,
  description: string,
  inputSchema: S,
  handler: Handler<ArgsOf<S>, OutputOf<O>> | null,
  options: ToolOptions<ArgsOf<S>, O> = {},
): Tool {
  if (typeof name !== "string" || typeof description !== "string") {
    throw new TypeError("defineTool takes a name and a description, both strings");
  }
  if (handler !== null && typeof handler !== "function") {
    throw new TypeError(`defineTool ${JSON.stringify(name)}: the handler must be a function or null, got ${describe(handler)}`);
  }
  const needsApproval = (options.needsApproval ?? false) as NeedsApproval;
  if (typeof needsApproval !== "boolean" && typeof needsApproval !== "function") {
    throw new TypeError(`defineTool ${JSON.stringify(name)}: needsApproval must be a boolean or a function of the arguments`);
  }
  const output = options.outputSchema === undefined ? undefined : compiled(name, options.outputSchema, "output schema");
  const limit = Limit.of(options.limit);
  const hints = toolHints(name, options.hints);
  const run = (handler as Handler | null) ?? supplied(name, output?.schema);
  if (inputSchema === null || inputSchema === undefined) {
    return new Tool(name, description, { type: "object" }, run, undefined, needsApproval, output, limit, hints);
  }
  const input = compiled(name, inputSchema, "input schema");
  return new Tool(name, description, input.schema, run, input.check, needsApproval, output, limit, hints);
}

/** A tool's schema as JSON Schema (a Standard Schema's own conversion), compiled. */
function compiled(name: string, schema: unknown, what: "input schema" | "output schema"): { schema: JsonObject; check: SchemaCheck } {
  try {
    if (isStandardSchema(schema)) {
      const converted = jsonSchemaOf(schema, what);
      return { schema: converted, check: compileSchema(converted, what) };
    }
    if (!isPlainObject(schema)) {
      const given = what === "input schema" ? "the input schema must be an object or null" : "outputSchema must be an object or undefined";
      throw new TypeError(`${given}, got ${describe(schema)}`);
    }
    return { schema: schema as JsonObject, check: compileSchema(schema as JsonObject, what) };
  } catch (err) {
    throw new TypeError(`defineTool ${JSON.stringify(name)}: ${(err as Error).message}`);
  }
}

/** The handler of a tool whose results a person supplies (`defineTool(..., null)`). */
function supplied(name: string, outputSchema: JsonObject | undefined): Handler {
  return (args, ctx) => {
    const answer = ctx.answer;
    if (answer === undefined) {
      const data: JsonObject = { tool: name, arguments: args };
      if (outputSchema !== undefined) {
        data["schema"] = outputSchema;
      }
      return pending({ id: "res-" + randomHex(16), kind: "result", prompt: `The result of ${name}, called with these arguments`, data });
    }
    try {
      return parseToolResult(answer.data ?? {});
    } catch (err) {
      if (err instanceof WireError) {
        return error(`the result supplied for ${name} is not a ToolResult: ${err.message}`);
      }
      throw err;
    }
  };
}
