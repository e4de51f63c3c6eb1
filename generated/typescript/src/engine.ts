// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/typescript/src/engine.ts (hand-written, copied verbatim).
// codegen: copy; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * The loop, once: what happens to one tool call, from its first run to its last result. A port
 * of Python's `toolnexus/_engine.py`, step for step and text for text; the loop vectors in
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
 *    (`gate`: kind `approval`, id `apr-…`, data `{"tool", "arguments"}`).
 * 2. The answer to an approval (`answered`): refused or expired, the call settles as
 *    `declined: the call to <tool> was not approved` and never runs; approved, the handler runs
 *    for the first time, with the person's edited arguments when the answer's
 *    `data.arguments` holds them. Edited arguments must be an object: anything else settles the
 *    call as invalid arguments, unrun. A question's answer never changes the arguments.
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
 * Every refusal and expiry carries `metadata.declined = {"request": id, "reason": ...}` (a
 * policy's refusal: `{"policy": id, "reason": ...}`), host-only, so a host tells a denial from a
 * tool failure.
 *
 * @packageDocumentation
 */

import { toJsonRunResult } from "./codec.js";
import { isPlainObject, readJson, writeJson, type JsonObject, type JsonValue } from "./json.js";
import { pendingOf } from "./suspend.js";
import type { Tool } from "./tool.js";
import { normalizeToolName } from "./tool.js";
import type { Answer, Request, ToolCall, ToolResult } from "./types.js";

/** Ids of the approval requests the toolkit asks before a tool runs (`needsApproval`). */
export const APPROVAL_PREFIX = "apr-";

// -- errors ---------------------------------------------------------------------------------------

/** Why `resume` refused a run (`ResumeError.reason`). */
export type ResumeReason = "mismatch" | "replayed" | "not_pending" | "seal" | "expired" | "principal";

/**
 * Thrown when an `Answer` cannot continue a run; the run is left as it was, and nothing ran.
 *
 * You get it from `Toolkit.resume` (and from `Toolkit.runCalls` when `waitFor` answers a request
 * other than the one it was given). `reason` names the check that failed:
 *
 * - `"mismatch"`: the answer's id is not the id of a request the run waits on;
 * - `"replayed"`: this toolkit already took an answer to that request (the same answer given
 *   twice, or an old copy of the run resumed again);
 * - `"not_pending"`: the run waits on nothing;
 * - `"seal"`: the toolkit has keys and the run's seal is missing, altered or forged, or names a key
 *   the toolkit does not have, or the run is sealed and the toolkit has no key to check it;
 * - `"expired"`: the seal holds, and the time it allows for resuming has passed (unlike a
 *   request's own `expiresAt`, which expires one question and leaves the run resumable);
 * - `"principal"`: the seal holds, and the run is bound to a principal other than the one given.
 *
 * It differs from `WireError`, thrown while *parsing* a document that is not valid wire data: a
 * run that parses cleanly can still be refused here. Neither is thrown for a tool failure, which
 * is always an error result.
 */
export class ResumeError extends Error {
  readonly reason: ResumeReason;

  constructor(reason: ResumeReason, message: string) {
    super(message);
    this.name = "ResumeError";
    this.reason = reason;
  }
}

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
      return new Settle(step.call, errorResult(`unresolved: ${step.request?.prompt ?? ""}`));
    }
    return new Settle(step.call, result);
  }
  if (request === undefined) {
    return new Settle(step.call, result);
  }
  const problem = unstorable(step.call, request);
  if (problem !== undefined) {
    return new Settle(step.call, errorResult(`the call cannot wait for an answer: ${problem}`));
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
 * `needsApproval` may be a rule over the checked arguments: arguments that fail the input schema
 * are not asked about (the run refuses them anyway), and a rule that throws asks (an approval too
 * many is the safe side).
 */
export function gate(tool: Tool | undefined, call: ToolCall): { request: Request } | { result: ToolResult } | undefined {
  if (tool === undefined || tool.needsApproval === false) {
    return undefined;
  }
  const args: unknown = call.arguments;
  const rule = tool.needsApproval;
  if (rule !== true) {
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
    return { result: errorResult(`the call cannot wait for its approval: ${messageOf(err)}`) };
  }
  const request: Request = {
    id: APPROVAL_PREFIX + randomHex(16),
    kind: "approval",
    prompt: `Allow ${tool.name} to run with these arguments?`,
    data: { tool: tool.name, arguments: copied },
  };
  const problem = unstorable(call, request);
  if (problem !== undefined) {
    return { result: errorResult(`the call cannot wait for its approval: ${problem}`) };
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

// -- decisions: what a person decided, and decisions that reach beyond one call ----------------------

/** How far an answer's decision reaches (`Answer.scope`); `session` carries the host's id. */
export type ScopeKind = "once" | "turn" | "session" | "principal" | "tool";
/** What a person (or a policy) decided about a waiting call. */
export type DecisionKind = "approve" | "edit" | "decline" | "respond" | "expire";
/** The scopes a kept decision (a {@link Policy}) has. */
export type PolicyScope = "session" | "principal" | "tool";

const SCOPES: ReadonlySet<string> = new Set(["once", "turn", "principal", "tool"]);

/** The scope an answer gives its decision, and the session id of a `session:<id>` scope. A
 * `RangeError` for a scope the wire refuses (a parsed `Answer` never has one). */
export function scopeOf(answer: Answer): [ScopeKind, string] {
  const scope = answer.scope || "once";
  if (scope.startsWith("session:")) {
    return ["session", scope.slice("session:".length)];
  }
  if (!SCOPES.has(scope)) {
    throw new RangeError(`not a scope an Answer can have: ${JSON.stringify(scope)}`); // the wire's pattern
  }
  return [scope as ScopeKind, ""];
}

/** What a {@link Decision} is made of. */
export interface DecisionInit {
  kind: DecisionKind;
  tool: string;
  call: string;
  request: string | null;
  arguments: JsonObject;
  approved?: JsonObject | null;
  scope?: string;
  reason?: string | null;
  message?: string | null;
  policy?: string | null;
}

/**
 * A decision about one waiting call, as a host logs it: what was decided (`approve`, `edit`:
 * approved with other arguments, `decline`, `respond`: a question answered, `expire`), for which
 * tool, call and request, the arguments asked and (an edit) approved, the scope, a refusal's reason
 * and message, and the policy that decided it, when one did (`request` is then null: nothing was
 * asked).
 */
export class Decision {
  readonly kind: DecisionKind;
  readonly tool: string;
  readonly call: string;
  readonly request: string | null;
  readonly arguments: JsonObject;
  readonly approved: JsonObject | null;
  readonly scope: string;
  readonly reason: string | null;
  readonly message: string | null;
  readonly policy: string | null;

  constructor(init: DecisionInit) {
    this.kind = init.kind;
    this.tool = init.tool;
    this.call = init.call;
    this.request = init.request;
    this.arguments = init.arguments;
    this.approved = init.approved ?? null;
    this.scope = init.scope ?? "once";
    this.reason = init.reason ?? null;
    this.message = init.message ?? null;
    this.policy = init.policy ?? null;
  }

  /** The decision as JSON: every field, by its camelCase name (null when it has none), as
   * Python's `Decision.to_wire` writes it. */
  toWire(): JsonObject {
    return {
      kind: this.kind,
      tool: this.tool,
      call: this.call,
      request: this.request,
      arguments: this.arguments,
      approved: this.approved,
      scope: this.scope,
      reason: this.reason,
      message: this.message,
      policy: this.policy,
    };
  }
}

/** The decision `answer` (undefined: none came in time) made about `step`, which led to `after`. */
export function decided(step: Ask, answer: Answer | undefined, after: Run | Settle): Decision {
  const { call, request } = step;
  const scope = answer === undefined ? "once" : answer.scope || "once";
  const about = { tool: call.name, call: call.id, request: request.id, arguments: call.arguments, scope };
  if (answer === undefined || (answer.ok && after instanceof Settle && isPlainObject(after.result.metadata?.["declined"]))) {
    return new Decision({ kind: "expire", ...about, reason: "expired" });
  }
  if (!answer.ok) {
    return new Decision({ kind: "decline", ...about, reason: answer.reason || "declined", message: answer.message ?? null });
  }
  if (!step.approval) {
    return new Decision({ kind: "respond", ...about });
  }
  if (after instanceof Run && after.call.arguments !== call.arguments) {
    return new Decision({ kind: "edit", ...about, approved: after.call.arguments });
  }
  return new Decision({ kind: "approve", ...about });
}

/**
 * The answer an earlier decision of the same turn gives `step`, or undefined: an approval decided
 * with a scope beyond `once` decides every later approval of the same tool in its turn alike, each
 * by an answer of its own, for the turn (no edited arguments: an edit is one call's; and no policy
 * again: the first answer made it).
 */
export function reached(earlier: Iterable<readonly [Ask, Answer]>, step: Ask): Answer | undefined {
  if (!step.approval) {
    return undefined;
  }
  for (const [ask, answer] of earlier) {
    if (ask.approval && ask.call.name === step.call.name && scopeOf(answer)[0] !== "once") {
      const derived: Answer = { id: step.request.id, ok: answer.ok };
      if (answer.reason !== undefined) derived.reason = answer.reason;
      if (answer.message !== undefined) derived.message = answer.message;
      derived.scope = "turn";
      return derived;
    }
  }
  return undefined;
}

/** The other waiting calls of a run that `answer` to `asks[index]` decides with it (`reached`),
 * each with its answer. */
export function reach(asks: readonly Ask[], index: number, answer: Answer): [number, Answer][] {
  const decidedHere: [Ask, Answer][] = [[asks[index] as Ask, answer]];
  const found: [number, Answer][] = [];
  asks.forEach((other, i) => {
    if (i !== index) {
      const derived = reached(decidedHere, other);
      if (derived !== undefined) {
        found.push([i, derived]);
      }
    }
  });
  return found;
}

/** What a {@link Policy} is made of; times in milliseconds since the epoch. */
export interface PolicyInit {
  id: string;
  tool: string;
  approve: boolean;
  scope: PolicyScope;
  key: string;
  madeAt: number;
  expiresAt: number;
  madeBy?: string | null;
  reason?: string | null;
  message?: string | null;
}

/**
 * A decision kept beyond its turn (`Answer.scope` `session:<id>`, `principal` or `tool`): every
 * later call to `tool` that it covers is approved, or refused, without asking.
 *
 * `key` is the session id (`session`), the principal (`principal`), or empty (`tool`). It holds
 * until `expiresAt` (ms since the epoch), and the host can revoke it (by `id`). Which one decides
 * when several cover a call is {@link applicable}'s rule.
 */
export class Policy {
  readonly id: string;
  readonly tool: string;
  readonly approve: boolean;
  readonly scope: PolicyScope;
  readonly key: string;
  readonly madeAt: number;
  readonly expiresAt: number;
  readonly madeBy: string | null;
  readonly reason: string | null;
  readonly message: string | null;

  constructor(init: PolicyInit) {
    this.id = init.id;
    this.tool = init.tool;
    this.approve = init.approve;
    this.scope = init.scope;
    this.key = init.key;
    this.madeAt = init.madeAt;
    this.expiresAt = init.expiresAt;
    this.madeBy = init.madeBy ?? null;
    this.reason = init.reason ?? null;
    this.message = init.message ?? null;
  }

  /** Whether the policy decides a call to `tool` in `session`, for `principal`, at `now` (ms). */
  covers(tool: string, session: string | undefined, principal: string | undefined, now: number): boolean {
    if (this.tool !== tool || now >= this.expiresAt) {
      return false;
    }
    if (this.scope === "session") {
      return session === this.key;
    }
    if (this.scope === "principal") {
      return principal === this.key;
    }
    return true;
  }

  /** The policy as JSON, as Python's `Policy.to_wire` writes it (times as RFC 3339, in UTC). */
  toWire(): JsonObject {
    return {
      id: this.id,
      tool: this.tool,
      approve: this.approve,
      scope: this.scope,
      key: this.key,
      madeAt: new Date(this.madeAt).toISOString(),
      expiresAt: new Date(this.expiresAt).toISOString(),
      madeBy: this.madeBy,
      reason: this.reason,
      message: this.message,
    };
  }

  /** A policy from its JSON (`toWire`, or Python's `Policy.to_wire`). */
  static fromWire(doc: JsonObject): Policy {
    const text = (key: string): string | null => {
      const value = doc[key];
      return typeof value === "string" ? value : null;
    };
    const scope = doc["scope"];
    if (scope !== "session" && scope !== "principal" && scope !== "tool") {
      throw new RangeError(`not a policy's scope: ${JSON.stringify(scope)}`);
    }
    return new Policy({
      id: String(doc["id"]),
      tool: String(doc["tool"]),
      approve: Boolean(doc["approve"]),
      scope,
      key: String(doc["key"]),
      madeAt: parseTime(String(doc["madeAt"])),
      expiresAt: parseTime(String(doc["expiresAt"])),
      madeBy: text("madeBy"),
      reason: text("reason"),
      message: text("message"),
    });
  }
}

/** The turn a decision is made in, and its time: what {@link policyOf} and {@link gated} read. */
export interface Circumstances {
  /** The host's session id (`session:<id>` policies decide its turns). */
  session: string | undefined;
  /** Who the turn is for (and who decides, for a policy an answer makes). */
  principal: string | undefined;
  /** The time, in milliseconds since the epoch. */
  now: number;
}

/**
 * The policy an approval's answer makes, when its scope reaches beyond the turn, lasting
 * `lifetime` milliseconds. A `session` or `principal` scope needs the turn's session or principal:
 * without one, the decision reaches no further than the turn. (The session of a `session:<id>`
 * scope is the one the answer names.)
 */
export function policyOf(step: Ask, answer: Answer, { principal, now, lifetime }: Circumstances & { lifetime: number }): Policy | undefined {
  const [kind, sessionId] = scopeOf(answer);
  if (!step.approval || kind === "once" || kind === "turn") {
    return undefined;
  }
  const key = kind === "session" ? sessionId : kind === "principal" ? principal : "";
  if (key === undefined || (kind === "session" && key === "")) {
    return undefined;
  }
  return new Policy({
    id: "pol-" + randomHex(8),
    tool: step.call.name,
    approve: answer.ok,
    scope: kind,
    key,
    madeAt: now,
    expiresAt: now + lifetime,
    madeBy: principal ?? null,
    reason: answer.ok ? null : answer.reason || "declined",
    message: answer.ok ? null : (answer.message ?? null),
  });
}

/**
 * The policy that decides a call to `tool`, or undefined (the call is asked about).
 *
 * A refusal beats every approval (deny overrides): a call covered by any refusal is refused,
 * however broad or narrow that refusal and the approvals that also cover it, and whichever came
 * later; a call covered only by approvals is approved. So a later refusal is never lost to an
 * earlier `always` approval, and an approval never lifts a refusal: revoke it instead.
 */
export function applicable(policies: Iterable<Policy>, tool: string, session: string | undefined, principal: string | undefined, now: number): Policy | undefined {
  let approval: Policy | undefined;
  for (const policy of policies) {
    if (!policy.covers(tool, session, principal, now)) {
      continue;
    }
    if (!policy.approve) {
      return policy;
    }
    approval ??= policy;
  }
  return approval;
}

/** What {@link gate} gives a call (undefined: it runs), and the policy's decision when one decided. */
export interface Gated {
  asked: { request: Request } | { result: ToolResult } | undefined;
  decision: Decision | undefined;
}

/** `gate`, with the host's policies: an approval a policy decides is not asked. */
export function gated(tool: Tool | undefined, call: ToolCall, policies: Iterable<Policy>, { session, principal, now }: Circumstances): Gated {
  const asked = gate(tool, call);
  if (asked === undefined || !("request" in asked)) {
    return { asked, decision: undefined };
  }
  const policy = applicable(policies, call.name, session, principal, now);
  if (policy === undefined) {
    return { asked, decision: undefined };
  }
  const refused = byPolicy(call, policy);
  const decision = new Decision({
    kind: refused === undefined ? "approve" : "decline",
    tool: call.name,
    call: call.id,
    request: null,
    arguments: call.arguments,
    scope: policy.scope === "session" ? `session:${policy.key}` : policy.scope,
    reason: refused === undefined ? null : policy.reason || "declined",
    message: refused === undefined ? null : policy.message,
    policy: policy.id,
  });
  return { asked: refused === undefined ? undefined : { result: refused }, decision };
}

/** What a policy makes of a call that needs an approval: undefined (approved: it runs), or the
 * result of its refusal. */
export function byPolicy(call: ToolCall, policy: Policy): ToolResult | undefined {
  if (policy.approve) {
    return undefined;
  }
  const marker: JsonObject = { policy: policy.id, reason: policy.reason || "declined" };
  let output = `declined: the call to ${call.name} is not allowed (policy ${policy.id})`;
  if (policy.message) {
    const message = cut(policy.message); // kept whole in the policy, cut for the model
    marker["message"] = message;
    output = `declined: ${message}`;
  }
  return { ...errorResult(output), metadata: { declined: marker } };
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
  /** Told each decision made in the call (`decided`): a host logs it and keeps policies. */
  decide(step: Ask, answer: Answer | undefined, after: Run | Settle): void;
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
      effects.decide(step, undefined, ended);
      return ended;
    }
    const answer = await effects.ask(step);
    if (answer === STOP) {
      return step;
    }
    const after = answered(step, answer, effects.now());
    effects.decide(step, answer, after);
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

/** The most of a refusal's message the model reads (code points); a longer one is cut, and `…` added. */
export const MESSAGE_LIMIT = 1000;

/** `message`, cut at `MESSAGE_LIMIT` code points (as Python counts a string's length), `…` added. */
function cut(message: string): string {
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
    return { ...errorResult(`declined: ${words}`), metadata: { declined: { request: request.id, reason, message: words } } };
  }
  if (isApproval(toolName, request)) {
    const tail = reason === "declined" ? "" : ` (${reason})`;
    return { ...errorResult(`declined: the call to ${toolName} was not approved${tail}`), metadata: marker };
  }
  return { ...errorResult(`declined/expired: ${request.prompt}`), metadata: marker };
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

interface RandomSource {
  getRandomValues(array: Uint8Array): Uint8Array;
}

/** `n` random bytes (Web Crypto) as lowercase hex. */
export function randomHex(n: number): string {
  const { crypto } = globalThis as unknown as { crypto: RandomSource };
  let out = "";
  for (const b of crypto.getRandomValues(new Uint8Array(n))) {
    out += b.toString(16).padStart(2, "0");
  }
  return out;
}
