// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * Decisions: what a person decided about a waiting call (`Decision`, what a host logs), and the
 * decisions that reach beyond one call (an answer's scope, `Policy`): rules 9 and 10 of the loop
 * (see `engine.ts`). A port of Python's `toolnexus/_engine/_decisions.py`.
 *
 * @packageDocumentation
 */

import { Ask, Run, Settle, cut, errorResult, gate, parseTime } from "./engine.js";
import { isPlainObject, type JsonObject } from "./json.js";
import * as texts from "./loop.js";
import { randomHex } from "./suspend.js";
import type { Tool } from "./tool.js";
import type { Answer, Request, ToolCall, ToolResult } from "./types.js";

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
  let output = texts.notAllowedByPolicy(call.name, policy.id);
  if (policy.message) {
    const message = cut(policy.message); // kept whole in the policy, cut for the model
    marker["message"] = message;
    output = texts.declinedWithMessage(message);
  }
  return { ...errorResult(output), metadata: { declined: marker } };
}
