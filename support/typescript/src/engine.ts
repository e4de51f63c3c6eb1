// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * The loop, once: what happens to one tool call, from its first run to its last result. A port
 * of Python's `toolnexus/_engine/`, step for step and text for text; the loop vectors in
 * `idl/loop/` pin both.
 *
 * A sans-IO engine. It runs nothing, waits for nothing and reads no clock: each function below
 * takes a call's state and an event (a run's result, an answer, the time) and returns the next
 * step, and the host performs it. The steps are data:
 *
 *     Run(call, answer, request, gate)   run the handler (gate: ask the tool's approval first)
 *     Ask(call, request)                 wait for an answer to `request`
 *     Settle(call, result)               the call is over; `result` is its result
 *
 * The rules, in the order a call meets them:
 *
 * 1. Approval before the run. A first run is gated (`start`): a tool with `needsApproval` (true,
 *    or a rule over the checked arguments) does not run; it asks the toolkit's own approval
 *    (`gate`: kind `approval`, id `apr-…`, data `{"tool", "arguments"}`). Arguments that fail the
 *    tool's input schema are never put to a person: the call runs ungated, and its run refuses
 *    them. The form a person answers an approval with (`approvalForm`) holds the arguments.
 * 2. The answer to an approval (`answered`): refused or expired, the call settles as
 *    `declined: the call to <tool> was not approved` and never runs; approved, the handler runs
 *    for the first time, with the person's edited arguments when the answer's
 *    `data.arguments` holds them (the same arguments as asked are no edit). Edited arguments
 *    must be an object: anything else settles the call as invalid arguments, unrun. An
 *    approving answer's data holds nothing else (`APPROVAL_DATA`): any other key refuses the
 *    answer (`checkAnswer`: `ResumeError("mismatch")` naming it, nothing taken). A question's
 *    answer never changes the arguments.
 * 3. A question from the tool (`ran`): a first run that suspends waits on its request. A call
 *    whose arguments or request cannot be stored settles instead as an error saying so.
 * 4. The answer to a question: refused or expired, the call settles as
 *    `declined/expired: <prompt>`; answered, the call runs once more with `ctx.answer`.
 * 5. One retry per question: a retry that suspends again settles as
 *    `unresolved: <the first request's prompt>`.
 * 6. Expiry: a request whose `expiresAt` has passed (by the host's clock) settles as if refused,
 *    with reason `expired` (`timed`); so does an `ok` that comes after it.
 * 7. Which call an answer answers (`match`): the first waiting call, in call order, asked under
 *    its id; a list of answers is taken or refused whole.
 * 8. A refusal's words: an answer that refuses may carry `message`; the call then settles as
 *    `declined: <message>` (cut at `MESSAGE_LIMIT` code points, `…` added).
 * 9. Decisions that reach further (`scopeOf`, `reached`, `reach`, `policyOf`, `applicable`,
 *    `gated`): an approval's `scope` beyond `once` decides the turn's other approvals of the same
 *    tool alike; `session:<id>`, `principal` and `tool` also make a `Policy`, which decides later
 *    approvals unasked; a refusal that covers a call beats every approval that does (deny
 *    overrides).
 * 10. What the host logs (`decided`): every decision, as a `Decision`.
 *
 * Rules 9 and 10 live in `decisions.ts`; the others, and `drive`, here.
 *
 * Every refusal and expiry carries `metadata.declined = {"request": id, "reason": ...}` (a
 * policy's refusal: `{"policy": id, "reason": ...}`), host-only, so a host tells a denial from a
 * tool failure.
 *
 * @packageDocumentation
 */

import { toJsonRunResult } from "./codec.js";
import { isPlainObject, readJson, writeJson, type JsonObject, type JsonValue } from "./json.js";
import { ResumeError, type ResumeReason } from "./errors.js";
import * as texts from "./loop.js";
import { MESSAGE_LIMIT, RESUME_REASONS } from "./loop.js";
import { pendingOf, randomHex } from "./suspend.js";
import { normalizeToolName, type Tool } from "./tool.js";
import type { Answer, Request, ToolCall, ToolResult } from "./types.js";

/** Ids of the approval requests the toolkit asks before a tool runs (`needsApproval`). */
export const APPROVAL_PREFIX = "apr-";
/** The keys an approving answer to the toolkit's approval may hold in its `data`: the edited
 * arguments. Any other refuses the answer (`checkAnswer`). */
export const APPROVAL_DATA: readonly string[] = ["arguments"];

// ResumeReason (errors.ts, where the wire-only package has it too) names exactly the reasons of
// idl/loop.json: this line fails to compile otherwise.
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Exactly<ResumeReason, (typeof RESUME_REASONS)[number]>;

// -- the steps --------------------------------------------------------------------------------------

/** Run `call`'s handler: a first run (no `answer`), gated by the tool's approval when `gate`, or a
 * retry with `answer` to `request`. */
export class Run {
  constructor(
    readonly call: ToolCall,
    readonly answer: Answer | undefined = undefined,
    readonly request: Request | undefined = undefined,
    readonly gate: boolean = false,
  ) {}
}

/** `call` waits for an answer to `request`. */
export class Ask {
  constructor(
    readonly call: ToolCall,
    readonly request: Request,
  ) {}

  /** Whether `request` is the toolkit's own approval, asked before the handler ran. */
  get approval(): boolean {
    return isApproval(this.call.name, this.request);
  }
}

/** `call` is over, with `result`. */
export class Settle {
  constructor(
    readonly call: ToolCall,
    readonly result: ToolResult,
  ) {}
}

export function errorResult(output: string): ToolResult {
  return { output, isError: true, parts: [] };
}

// -- the transitions ----------------------------------------------------------------------------------

/** A call's first step: its first run, gated by the tool's approval. */
export function start(call: ToolCall): Run {
  return new Run(call, undefined, undefined, true);
}

/** What follows `step`'s `result`: its settling, or (a first run that suspended) a wait. */
export function ran(step: Run, result: ToolResult): Ask | Settle {
  const request = pendingOf(result);
  if (step.answer !== undefined) {
    // a retry: one per question
    if (request !== undefined) {
      return new Settle(step.call, errorResult(texts.unresolved(step.request?.prompt ?? "")));
    }
    return new Settle(step.call, result);
  }
  if (request === undefined) {
    return new Settle(step.call, result);
  }
  const problem = unstorable(step.call, request);
  if (problem !== undefined) {
    return new Settle(step.call, errorResult(texts.cannotWait(problem)));
  }
  return new Ask(step.call, request);
}

/** What follows `answer` to `step`'s request (undefined: the time ran out before one came);
 * `now` in milliseconds since the epoch. */
export function answered(step: Ask, answer: Answer | undefined, now: number): Run | Settle {
  const { call, request } = step;
  const ended = verdict(call.name, request, answer, now);
  if (ended !== undefined) {
    return new Settle(call, ended);
  }
  const given = answer as Answer; // `verdict` ends every call without one
  if (!step.approval) {
    return new Run(call, given, request);
  }
  const data = given.data;
  if (!isPlainObject(data) || !Object.hasOwn(data, "arguments")) {
    return new Run(call); // approved as asked
  }
  const edited = data["arguments"];
  if (sameJson(edited, call.arguments)) {
    return new Run(call); // the arguments asked, sent back (a form's default): approved as asked
  }
  if (!isPlainObject(edited)) {
    const what = edited === null ? "null" : `a ${jsonKind(edited)}`;
    return new Settle(call, errorResult(`invalid arguments for ${call.name}: $: the approval's edited arguments are ${what}, not an object`));
  }
  // the handler checks them against its schema
  return new Run({ id: call.id, name: call.name, arguments: edited as JsonObject });
}

/** The settling of `step` when its request has expired by `now`, else undefined. */
export function timed(step: Ask, now: number): Settle | undefined {
  return expired(step.request, now) ? lapsed(step, now) : undefined;
}

/** The settling of `step` whose time ran out (its request's, or its whole run's sealed expiry)
 * before an answer came: as a refusal, with reason `expired`. */
export function lapsed(step: Ask, now: number): Settle {
  return new Settle(step.call, verdict(step.call.name, step.request, undefined, now) as ToolResult);
}

/**
 * The approval `call` needs before its handler runs (a `Request`), undefined when it needs none,
 * or the error result that settles it when its arguments cannot be asked about or stored.
 *
 * Arguments that fail the input schema are not asked about: the call runs ungated and its run
 * refuses them, before its handler (a person never approves what cannot run). `needsApproval`
 * may be a rule over the checked arguments; a rule that throws asks (an approval too many is the
 * safe side).
 */
export function gate(tool: Tool | undefined, call: ToolCall): { request: Request } | { result: ToolResult } | undefined {
  if (tool === undefined || tool.needsApproval === false) {
    return undefined;
  }
  const args: unknown = call.arguments;
  const rule = tool.needsApproval;
  let checked: JsonObject;
  try {
    const prepared = isPlainObject(args) ? tool.prepare(args as JsonObject) : undefined;
    if (prepared === undefined || !prepared.ok) {
      return undefined; // the run refuses them the same way, before its handler: nothing to approve
    }
    checked = prepared.args;
  } catch {
    return undefined;
  }
  if (rule !== true) {
    let asks = true;
    try {
      asks = Boolean(rule(checked));
    } catch {
      // a rule that throws asks
    }
    if (!asks) {
      return undefined;
    }
  }
  let copied: JsonValue;
  try {
    // A copy that shares nothing with the call: a later edit of one leaves the other.
    copied = readJson(writeJson(args));
  } catch (err) {
    return { result: errorResult(texts.cannotWaitForApproval(messageOf(err))) };
  }
  const request: Request = {
    id: APPROVAL_PREFIX + randomHex(16),
    kind: "approval",
    prompt: texts.approvalPrompt(tool.name),
    data: { tool: tool.name, arguments: copied },
  };
  const problem = unstorable(call, request);
  if (problem !== undefined) {
    return { result: errorResult(texts.cannotWaitForApproval(problem)) };
  }
  return { request };
}

/**
 * Which waiting call each answer answers (their indices), or `ResumeError` for the whole list: an
 * answer goes to the first call, in call order, that waits on its request id and has not taken an
 * answer (two calls may ask under one fixed id: each takes one answer).
 *
 * `candidates(requestId)` lists `[index, callId]` of the calls waiting on that id, in call order;
 * `answered(callId, requestId)` says whether that call took an answer to it before. An answer that
 * finds no call is `replayed` when it, or another in the list with its id, already took the call
 * it would answer, and `mismatch` otherwise (`first` is the id of the first request waited on,
 * for the message).
 */
export function match(
  answers: readonly Answer[],
  candidates: (requestId: string) => Iterable<readonly [number, string]>,
  answeredBefore: (callId: string, requestId: string) => boolean,
  first: string,
): number[] {
  const taken = new Set<string>();
  const seen = new Set<string>();
  const picks: number[] = [];
  for (const answer of answers) {
    let replayed = seen.has(answer.id);
    seen.add(answer.id);
    let found: number | undefined;
    for (const [index, callId] of candidates(answer.id)) {
      if (taken.has(callId)) {
        continue;
      }
      if (answeredBefore(callId, answer.id)) {
        replayed = true;
        continue;
      }
      found = index;
      taken.add(callId);
      break;
    }
    if (found === undefined) {
      if (replayed) {
        throw new ResumeError("replayed", `request ${quote(answer.id)} was already answered`);
      }
      throw new ResumeError("mismatch", `answer ${quote(answer.id)} does not answer the pending request ${quote(first)} nor any other request the run waits on`);
    }
    picks.push(found);
  }
  return picks;
}

/**
 * Refuse `answer` to `step` when its data holds what the request does not take: an approving
 * answer to the toolkit's approval holds only `APPROVAL_DATA` (`arguments`), so a misspelled key
 * (`args`) is not silently ignored while the call runs as first asked. Throws
 * `ResumeError("mismatch")` naming the key; a host calls it with `match`, before it takes any
 * answer of the list, so nothing is taken and the call still waits.
 */
export function checkAnswer(step: Ask, answer: Answer): void {
  const data: unknown = answer.data;
  if (!answer.ok || !isPlainObject(data) || !step.approval) {
    return;
  }
  const extra = Object.keys(data).filter((key) => !APPROVAL_DATA.includes(key));
  if (extra.length > 0) {
    throw new ResumeError(
      "mismatch",
      `answer ${quote(answer.id)} approves the call to ${step.call.name} with data holding ${extra.map(quote).join(", ")}: ` +
        "an approval's data holds only 'arguments' (the edited arguments); nothing was taken, the call still waits",
    );
  }
}

/**
 * The form a person answers the toolkit's approval `request` with, as the JSON Schema of an MCP
 * elicitation's `requestedSchema` (an object of text, number and boolean fields), or undefined for
 * any other request. Its one field, `arguments`, is the arguments the call runs with, as JSON
 * text, the asked ones its default: a person edits them there, and an answer that leaves them as
 * they are approves the call as asked.
 */
export function approvalForm(request: Request): JsonObject | undefined {
  const data: unknown = request.data;
  if (!isPlainObject(data) || typeof data["tool"] !== "string" || !isApproval(data["tool"], request)) {
    return undefined;
  }
  const tool = data["tool"];
  const field: JsonObject = {
    type: "string",
    title: "Arguments",
    description: `The arguments ${tool} runs with, as JSON: edit them to run it with others.`,
    default: writeJson(data["arguments"]),
  };
  return { type: "object", properties: { arguments: field } };
}

// -- driving one call -----------------------------------------------------------------------------------

/** What `Effects.ask` returns to leave the call waiting (the host stores the run). */
export const STOP: unique symbol = Symbol("STOP");

/** What a host supplies: running a handler, waiting for an answer, the time (ms), and hearing
 * each decision. */
export interface Effects {
  run(step: Run): Promise<ToolResult>;
  /** The answer (undefined: the request expired first), or `STOP` to leave the call waiting. */
  ask(step: Ask): Promise<Answer | typeof STOP | undefined>;
  now(): number;
  /** Told each decision made in the call (`decided`): a host logs it and keeps policies (awaited:
   * a decision whose write fails fails the call's drive). */
  decide(step: Ask, answer: Answer | undefined, after: Run | Settle): void | Promise<void>;
}

/** Performs `step` and the steps after it until the call settles, or waits on an `Ask` for which
 * `effects.ask` returns `STOP`. */
export async function drive(first: Run | Ask | Settle, effects: Effects): Promise<Ask | Settle> {
  let step = first;
  for (;;) {
    if (step instanceof Settle) {
      return step;
    }
    if (step instanceof Run) {
      step = ran(step, await effects.run(step));
      continue;
    }
    const ended = timed(step, effects.now());
    if (ended !== undefined) {
      await effects.decide(step, undefined, ended);
      return ended;
    }
    const answer = await effects.ask(step);
    if (answer === STOP) {
      return step;
    }
    const after = answered(step, answer, effects.now());
    await effects.decide(step, answer, after);
    step = after;
  }
}

// -- the rules' parts ------------------------------------------------------------------------------------

/** Whether `request` is the toolkit's own approval of a call of `toolName` (`gate`). */
export function isApproval(toolName: string, request: Request): boolean {
  const data = request.data;
  if (request.kind !== "approval" || !request.id.startsWith(APPROVAL_PREFIX) || !isPlainObject(data)) {
    return false;
  }
  const keys = Object.keys(data);
  return keys.length === 2 && keys.includes("tool") && keys.includes("arguments") && data["tool"] === normalizeToolName(toolName);
}

/** Whether two JSON values write the same JSON, keys in any order (a number as written: `1` and
 * `1.0` differ, as they do in Python's and Rust's JSON). */
function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  if (isPlainObject(a) || isPlainObject(b)) {
    if (!isPlainObject(a) || !isPlainObject(b)) {
      return false;
    }
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
  }
  try {
    return writeJson(a) === writeJson(b);
  } catch {
    return false;
  }
}

// MESSAGE_LIMIT (idl/loop.json): the most of a refusal's message the model reads (code points); a
// longer one is cut, and `…` added.
export { MESSAGE_LIMIT };

/** `message`, cut at `MESSAGE_LIMIT` code points (as Python counts a string's length), `…` added. */
export function cut(message: string): string {
  if (message.length <= MESSAGE_LIMIT) {
    return message; // no more code points than UTF-16 units
  }
  const points = Array.from(message);
  return points.length <= MESSAGE_LIMIT ? message : `${points.slice(0, MESSAGE_LIMIT).join("")}…`;
}

/** The result that ends a call suspended on `request`, given `answer` (undefined: none came in
 * time), or undefined when the call runs on. */
function verdict(toolName: string, request: Request, answer: Answer | undefined, now: number): ToolResult | undefined {
  if (answer !== undefined && answer.ok && !expired(request, now)) {
    return undefined;
  }
  const reason = answer === undefined || answer.ok ? "expired" : answer.reason || "declined";
  const marker = { declined: { request: request.id, reason } };
  const message = answer !== undefined && !answer.ok ? answer.message : undefined;
  if (message) {
    // the person's words, for the model
    const words = cut(message);
    return { ...errorResult(texts.declinedWithMessage(words)), metadata: { declined: { request: request.id, reason, message: words } } };
  }
  if (isApproval(toolName, request)) {
    const tail = reason === "declined" ? "" : ` (${reason})`;
    return { ...errorResult(texts.notApproved(toolName, tail)), metadata: marker };
  }
  return { ...errorResult(texts.declinedOrExpired(request.prompt)), metadata: marker };
}

/** RFC 3339's date-time: what `expiresAt` holds when a tool means an expiry the loop can read. */
const RFC3339 = /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))$/;

function daysIn(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/**
 * An RFC 3339 date-time as milliseconds since the epoch (a fraction of a millisecond kept, to the
 * microsecond); a `RangeError` for anything else, also a date or time that does not exist (as
 * Python's `datetime` refuses them: month 13, February 30, second 60, year 0).
 */
export function parseTime(text: string): number {
  const m = RFC3339.exec(text);
  if (m === null) {
    throw new RangeError(`not an RFC 3339 date-time: ${JSON.stringify(text)}`);
  }
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const offset = m[8] === undefined ? 0 : (m[8] === "-" ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10]));
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59 || Number(m[9] ?? 0) > 23 || Number(m[10] ?? 0) > 59) {
    throw new RangeError(`not an existing date and time: ${JSON.stringify(text)}`);
  }
  const micros = Number(`${(m[7] ?? ".").slice(1)}000000`.slice(0, 6)); // to the microsecond, as Python reads it
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime() - offset * 60_000 + micros / 1000;
}

/** Whether `request.expiresAt` has passed by `now` (ms); an unreadable time counts as passed, and
 * an empty one as no expiry (as the upstream ports read it). */
export function expired(request: Request, now: number): boolean {
  if (!request.expiresAt) {
    return false;
  }
  try {
    return parseTime(request.expiresAt) <= now;
  } catch {
    return true;
  }
}

/** Why a pending run holding `call`, waiting on `request`, could not be written (nesting past the
 * wire's limit, a value with no JSON form), or undefined when it can. */
export function unstorable(call: ToolCall, request: Request): string | undefined {
  try {
    toJsonRunResult({ status: "pending", results: [], pending: request, calls: [call], requests: [request], order: [call.id] });
  } catch (err) {
    return messageOf(err);
  }
  return undefined;
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) {
    return "list";
  }
  if (typeof value === "object" && value !== null) {
    return "number"; // a JsonNumber: no other object gets here
  }
  return typeof value;
}

export function messageOf(err: unknown): string {
  if (err instanceof Error) {
    return err.message || err.name;
  }
  return String(err);
}

export function quote(text: string): string {
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}
