// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * What a store hands out and keeps, the same for both databases: a stored run, a claim, a waiting
 * request, a call in doubt, the row a run is written as, and the host's context (a port of
 * Python's `toolnexus/store/_types.py`).
 *
 * @packageDocumentation
 */

import { fromJsonRequest, toJsonRequest, toJsonRunResult } from "../codec.js";
import { parseTime } from "../engine.js";
import { ToolnexusError } from "../errors.js";
import { parseStamp, utf8 } from "../seal.js";
import type { Answer, ParsedRunResult, Request, RunResult, ToolCall } from "../types.js";

/** What a stored run is: waiting for an answer, held by one resumer, finished, refused for good
 * (its seal did not hold), or quarantined (not a valid run at all). */
export type Status = "pending" | "claimed" | "done" | "refused" | "quarantined";

/** The most a run's context may be: its JSON text, in UTF-8 bytes (1 MiB). */
export const CONTEXT_LIMIT = 1 << 20;

/** `context` left out: the context kept with the run stays as it is. */
export const UNCHANGED: unique symbol = Symbol.for("toolnexus.store.unchanged");

/** A run as stored: its id, its status and the run itself (undefined for a quarantined row, whose
 * `reason` says why; `reason` also says why a run was refused), and the host's context. */
export interface StoredRun {
  id: number;
  status: Status;
  run: ParsedRunResult | undefined;
  reason: string | undefined;
  context: unknown;
  /** Whose run it is and in which session, as saved (`save(run, { principal, session })`), or null. */
  principal: string | null;
  session: string | null;
}

/** A run taken by `claim`, the token of its lease (for `finish`), and the host's context. */
export interface Claim {
  run: ParsedRunResult;
  lease: string;
  context: unknown;
}

/** A call in doubt: the run it is of, the call, the idempotency key it ran under, when it started
 * (a Unix time, in seconds) and the token of the lease that held it. */
export interface InDoubt {
  runId: number;
  call: ToolCall;
  tool: string;
  arguments: ToolCall["arguments"];
  idempotencyKey: string;
  startedAt: number;
  lease: string;
}

/** A request a stored run waits on; `request` is parsed on first use, so a long list costs
 * little more than its query. `position` is its place among the run's requests (for `after`). */
export class PendingRequest {
  readonly runId: number;
  readonly position: number;
  #text: string | undefined;
  #request: Request | undefined;

  constructor(runId: number, request: Request | string, position = 0) {
    this.runId = runId;
    this.position = position;
    if (typeof request === "string") {
      this.#text = request;
    } else {
      this.#request = request;
    }
  }

  get request(): Request {
    this.#request ??= fromJsonRequest(this.#text ?? "");
    return this.#request;
  }
}

/** A store refused bad input or could not be opened: the message names what and where (a path, a
 * database without its password, a run, a schema version). */
export class StoreError extends ToolnexusError {
  static override readonly brand: string = "StoreError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreError";
  }
}

/**
 * `resume` ran the answered calls, but could not store what came of it. Nothing is lost: `run` is
 * the resumed run, `answers` the answers it took and `lease` the claim it holds; store it with
 * `finish(runId, answers, run, { lease })` once the database takes writes again.
 */
export class OutcomeNotStored extends ToolnexusError {
  static override readonly brand: string = "OutcomeNotStored";
  readonly runId: number;
  readonly run: RunResult;
  readonly answers: Answer[];
  readonly lease: string;

  constructor(runId: number, run: RunResult, answers: Answer[], lease: string, cause: unknown) {
    super(`run ${runId} was resumed and its tools ran, but the outcome was not stored: ${messageOf(cause)}`, { cause });
    this.name = "OutcomeNotStored";
    this.runId = runId;
    this.run = run;
    this.answers = answers;
    this.lease = lease;
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A waiting request as stored: its id, its JSON, the tool of its call, and its kind. */
export type Waiting = [requestId: string, request: string, tool: string, kind: string];
/** A run as stored: its status, its JSON, when something of it expires first (seconds), and its
 * waiting requests, in call order. */
export interface Row {
  status: "pending" | "done";
  body: string;
  expires: number | null;
  waiting: Waiting[];
}

/** What `run` is stored as (Python's `row_of`, the same columns). */
export function rowOf(run: RunResult): Row {
  const body = toJsonRunResult(run); // checks it against the schema as it writes it
  const parsed = run;
  if (parsed.status !== "pending" || parsed.pending === undefined) {
    return { status: "done", body, expires: null, waiting: [] };
  }
  const requests = parsed.requests !== undefined && parsed.requests.length > 0 ? parsed.requests : [parsed.pending];
  const times = requests.map(expiryOf).filter((t): t is number => t !== null);
  const stamp = parsed.seal ? parseStamp(parsed.seal) : undefined;
  if (stamp !== undefined && stamp.expires !== null) {
    times.push(stamp.expires / 1000);
  }
  const calls = parsed.calls ?? [];
  const waiting = requests.map((r, i): Waiting => [r.id, toJsonRequest(r), calls[i]?.name ?? "", r.kind]);
  return { status: "pending", body, expires: times.length === 0 ? null : Math.min(...times), waiting };
}

/** `expiresAt` in seconds; null for none, 0 when unreadable (it counts as passed). */
function expiryOf(request: Request): number | null {
  if (!request.expiresAt) {
    return null;
  }
  try {
    return parseTime(request.expiresAt) / 1000;
  } catch {
    return 0;
  }
}

/** `context` as the store keeps it (its JSON text), undefined for `UNCHANGED`; a `StoreError`
 * naming `where` when it is not JSON or larger than `CONTEXT_LIMIT`. */
export function contextText(context: unknown, where: string): string | undefined {
  if (context === UNCHANGED) {
    return undefined;
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(context, (_key, value: unknown) => {
      if (typeof value === "number" && !Number.isFinite(value)) {
        throw new TypeError(`${String(value)} is not a JSON number`);
      }
      if (typeof value === "bigint" || typeof value === "function" || typeof value === "symbol") {
        throw new TypeError(`a ${typeof value} is not JSON`);
      }
      return value;
    });
  } catch (error) {
    throw new StoreError(`the context of ${where} is not JSON: ${messageOf(error)}`);
  }
  if (text === undefined) {
    throw new StoreError(`the context of ${where} is not JSON: ${typeof context}`);
  }
  const size = utf8(text).length;
  if (size > CONTEXT_LIMIT) {
    throw new StoreError(`the context of ${where} is ${size} bytes of JSON, over the limit of ${CONTEXT_LIMIT}`);
  }
  return text;
}

export function contextOf(text: string | null | undefined): unknown {
  return text === null || text === undefined ? null : (JSON.parse(text) as unknown);
}
