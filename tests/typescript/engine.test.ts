// The engine's steps on their own (toolnexus-contract/engine), as tests/runtime/test_engine.py has them
// for Python: expiry read as RFC 3339, the gate, `drive` with scripted effects, and the decisions'
// steps (scopes, the log's decisions, policies and which one decides). The loop's rules through a
// host are the loop vectors' (loop_vectors.test.ts).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { pending, type Answer, type Request, type ToolCall, type ToolResult } from "toolnexus-contract";
import {
  Ask,
  MESSAGE_LIMIT,
  Run,
  STOP,
  Settle,
  answered,
  applicable,
  byPolicy,
  decided,
  drive,
  expired,
  gate,
  gated,
  isApproval,
  parseTime,
  policyOf,
  reach,
  reached,
  scopeOf,
  start,
  timed,
  type Effects,
} from "toolnexus-contract/engine";
import { Policy, defineTool, type PolicyScope } from "toolnexus-contract/runtime";

const CALL: ToolCall = { id: "c1", name: "pick", arguments: { n: 1 } };
const NOW = Date.UTC(2026, 0, 1);

function question(expiresAt?: string): Request {
  const request: Request = { id: "pnd-1", kind: "input", prompt: "Which one?" };
  if (expiresAt !== undefined) request.expiresAt = expiresAt;
  return request;
}

describe("expiry", () => {
  it("reads RFC 3339 date-times to the microsecond, and nothing else", () => {
    assert.equal(parseTime("2030-01-01T00:00:00.1234567+01:00"), Date.UTC(2029, 11, 31, 23, 0, 0, 123) + 0.456);
    assert.equal(parseTime("2030-01-01t00:00:00z"), Date.UTC(2030, 0, 1));
    assert.equal(new Date(parseTime("0099-03-01T00:00:00Z")).getUTCFullYear(), 99, "not 1999");
    for (const text of ["2030-01-01", "2030-02-30T00:00:00Z", "2030-13-01T00:00:00Z", "2030-01-01T24:00:00Z", "2030-01-01T00:00:60Z", "0000-01-01T00:00:00Z", "2030-01-01T00:00:00+24:00", "tomorrow"]) {
      assert.throws(() => parseTime(text), RangeError, text);
    }
  });

  it("an expiresAt that has passed, or cannot be read, has expired; an empty one never does", () => {
    const later = question(new Date(NOW + 1000).toISOString());
    assert.equal(expired(later, NOW), false);
    assert.equal(expired(later, NOW + 1000), true);
    assert.equal(expired(question("tomorrow"), NOW), true);
    assert.equal(expired(question(""), NOW), false);
    assert.equal(expired(question(), NOW), false);
    assert.equal(timed(new Ask(CALL, later), NOW), undefined);
    assert.ok(timed(new Ask(CALL, later), NOW + 1000) instanceof Settle);
  });
});

describe("gate", () => {
  it("asks as the rule says, over checked arguments only; a rule that throws asks", () => {
    const schema = { type: "object", properties: { amount: { type: "integer" } }, required: ["amount"] };
    const refund = defineTool("refund", "", schema, () => "", { needsApproval: (args) => Number(args["amount"]) > 100 });
    const asked = gate(refund, { id: "c1", name: "refund", arguments: { amount: 250 } });
    assert.ok(asked !== undefined && "request" in asked);
    assert.equal(asked.request.kind, "approval");
    assert.match(asked.request.id, /^apr-[0-9a-f]{32}$/);
    assert.deepEqual(asked.request.data, { tool: "refund", arguments: { amount: 250 } });
    assert.ok(isApproval("refund", asked.request));
    assert.equal(gate(refund, { id: "c1", name: "refund", arguments: { amount: 50 } }), undefined);
    assert.equal(gate(refund, { id: "c1", name: "refund", arguments: { amount: "lots" } }), undefined);
    const throws = defineTool("t", "", null, () => "", {
      needsApproval: () => {
        throw new Error("no");
      },
    });
    assert.ok(gate(throws, { id: "c1", name: "t", arguments: {} }) !== undefined);
    assert.equal(gate(undefined, CALL), undefined);
  });

  it("a question that looks like an approval is not one", () => {
    const data = { tool: "wipe", arguments: {} };
    assert.equal(isApproval("wipe", { id: "pnd-1", kind: "approval", prompt: "?", data }), false);
    assert.equal(isApproval("wipe", { id: "apr-1", kind: "approval", prompt: "?", data: { ...data, x: 1 } }), false);
    assert.equal(isApproval("wipe", { id: "apr-1", kind: "approval", prompt: "?", data }), true);
  });
});

/** Effects that record what the engine asked of them. */
class Script implements Effects {
  readonly log: unknown[] = [];

  constructor(
    private readonly results: ToolResult[],
    private readonly answers: (Answer | typeof STOP)[],
  ) {}

  async run(step: Run): Promise<ToolResult> {
    this.log.push(["run", step.call.arguments, step.answer]);
    return this.results.shift() as ToolResult;
  }

  async ask(step: Ask): Promise<Answer | typeof STOP | undefined> {
    this.log.push(["ask", step.request.id]);
    return this.answers.shift();
  }

  now(): number {
    return NOW;
  }

  decide(step: Ask, answer: Answer | undefined, after: Run | Settle): void {
    this.log.push(["decide", decided(step, answer, after).kind]);
  }
}

describe("drive", () => {
  it("performs the steps until the call settles", async () => {
    const answer: Answer = { id: "pnd-1", ok: true };
    const done: ToolResult = { output: "done", isError: false, parts: [] };
    const effects = new Script([pending(question()), done], [answer]);
    const outcome = await drive(start(CALL), effects);
    assert.ok(outcome instanceof Settle);
    assert.deepEqual(outcome.result, done);
    assert.deepEqual(effects.log, [
      ["run", { n: 1 }, undefined],
      ["ask", "pnd-1"],
      ["decide", "respond"],
      ["run", { n: 1 }, answer],
    ]);
  });

  it("stops on an ask the host does not wait for, and never asks a request that has expired", async () => {
    const stopped = await drive(start(CALL), new Script([pending(question())], [STOP]));
    assert.ok(stopped instanceof Ask);
    assert.deepEqual(stopped.request, pending(question()).metadata?.["pending"]);
    const effects = new Script([pending(question("2000-01-01T00:00:00Z"))], []);
    const outcome = await drive(start(CALL), effects);
    assert.ok(outcome instanceof Settle);
    assert.equal(outcome.result.output, "declined/expired: Which one?");
    assert.deepEqual(effects.log, [["run", { n: 1 }, undefined], ["decide", "expire"]], "never asked");
  });
});

const WIPE = defineTool("wipe", "", null, () => "wiped", { needsApproval: true });

/** A call to `wipe` waiting on its approval. */
function approval(id: string, args: ToolCall["arguments"] = { path: id }): Ask {
  const call: ToolCall = { id, name: "wipe", arguments: args };
  const asked = gate(WIPE, call);
  assert.ok(asked !== undefined && "request" in asked);
  return new Ask(call, asked.request);
}

function policy(approve: boolean, scope: PolicyScope, key: string, extra: Partial<ConstructorParameters<typeof Policy>[0]> = {}): Policy {
  return new Policy({ id: `pol-${scope}-${String(approve)}`, tool: "wipe", approve, scope, key, madeAt: NOW, expiresAt: NOW + 60_000, ...extra });
}

describe("a refusal's message", () => {
  it("is what the model reads, cut at MESSAGE_LIMIT code points", () => {
    const ask = new Ask(CALL, question());
    const said = answered(ask, { id: "pnd-1", ok: false, message: "not that one" }, NOW);
    assert.ok(said instanceof Settle);
    assert.equal(said.result.output, "declined: not that one");
    assert.deepEqual(said.result.metadata, { declined: { request: "pnd-1", reason: "declined", message: "not that one" } });
    const long = "😀".repeat(MESSAGE_LIMIT + 1); // 2,002 UTF-16 units, 1,001 code points
    const cut = answered(ask, { id: "pnd-1", ok: false, message: long }, NOW);
    assert.ok(cut instanceof Settle);
    assert.equal(cut.result.output, `declined: ${"😀".repeat(MESSAGE_LIMIT)}…`);
    const fits = answered(ask, { id: "pnd-1", ok: false, message: "😀".repeat(MESSAGE_LIMIT) }, NOW);
    assert.ok(fits instanceof Settle && !fits.result.output.endsWith("…"), "1,000 code points in 2,000 units are not cut");
  });

  it("is ignored on an answer that is ok", () => {
    const ran = answered(new Ask(CALL, question()), { id: "pnd-1", ok: true, message: "fine" }, NOW);
    assert.ok(ran instanceof Run);
  });
});

describe("decisions", () => {
  it("scopeOf reads the scope and a session's id; once when there is none", () => {
    assert.deepEqual(scopeOf({ id: "a", ok: true }), ["once", ""]);
    assert.deepEqual(scopeOf({ id: "a", ok: true, scope: "turn" }), ["turn", ""]);
    assert.deepEqual(scopeOf({ id: "a", ok: true, scope: "session:s-1" }), ["session", "s-1"]);
    assert.throws(() => scopeOf({ id: "a", ok: true, scope: "forever" }), RangeError);
  });

  it("decided tells an approval, an edit, a refusal, an answer and an expiry apart", () => {
    const ask = approval("c1");
    const id = ask.request.id;
    const kind = (answer: Answer | undefined): string => decided(ask, answer, answered(ask, answer, NOW)).kind;
    assert.equal(kind({ id, ok: true }), "approve");
    assert.equal(kind({ id, ok: true, data: { arguments: { path: "b" } } }), "edit");
    assert.equal(kind({ id, ok: false }), "decline");
    assert.equal(kind(undefined), "expire");
    const question_ = new Ask(CALL, question());
    assert.equal(decided(question_, { id: "pnd-1", ok: true }, answered(question_, { id: "pnd-1", ok: true }, NOW)).kind, "respond");
    const late = new Ask(CALL, question("2000-01-01T00:00:00Z"));
    assert.equal(decided(late, { id: "pnd-1", ok: true }, answered(late, { id: "pnd-1", ok: true }, NOW)).kind, "expire", "an ok after the expiry");
  });

  it("a decision's JSON has every field, null when it has none", () => {
    const ask = approval("c1");
    const refusal: Answer = { id: ask.request.id, ok: false, reason: "cancelled", message: "no", scope: "tool" };
    assert.deepEqual(decided(ask, refusal, answered(ask, refusal, NOW)).toWire(), {
      kind: "decline",
      tool: "wipe",
      call: "c1",
      request: ask.request.id,
      arguments: { path: "c1" },
      approved: null,
      scope: "tool",
      reason: "cancelled",
      message: "no",
      policy: null,
    });
    const edit: Answer = { id: ask.request.id, ok: true, data: { arguments: { path: "b" } } };
    assert.deepEqual(decided(ask, edit, answered(ask, edit, NOW)).approved, { path: "b" });
  });

  it("reached: a decision beyond once decides the turn's later approvals of the tool, without the edit", () => {
    const first = approval("c1");
    const later = approval("c2");
    const once: Answer = { id: first.request.id, ok: true };
    assert.equal(reached([[first, once]], later), undefined);
    const turn: Answer = { id: first.request.id, ok: false, message: "not today", scope: "session:s1", data: { arguments: { path: "x" } } };
    assert.deepEqual(reached([[first, turn]], later), { id: later.request.id, ok: false, message: "not today", scope: "turn" });
    assert.equal(reached([[first, turn]], new Ask(CALL, question())), undefined, "a question is not an approval");
    const other = new Ask({ id: "c3", name: "other", arguments: {} }, { ...later.request, data: { tool: "other", arguments: {} } });
    assert.equal(reached([[first, turn]], other), undefined, "another tool");
    assert.deepEqual(
      reach([first, new Ask(CALL, question()), later], 0, turn).map(([i]) => i),
      [2],
    );
  });

  it("policyOf: session, principal and tool scopes make a policy; once and turn, or no principal, do not", () => {
    const ask = approval("c1");
    const at = { session: undefined, principal: "u1", now: NOW, lifetime: 60_000 };
    const made = policyOf(ask, { id: ask.request.id, ok: false, message: "never", scope: "principal" }, at);
    assert.ok(made !== undefined);
    assert.match(made.id, /^pol-[0-9a-f]{16}$/);
    assert.deepEqual([made.scope, made.key, made.approve, made.reason, made.message, made.madeBy], ["principal", "u1", false, "declined", "never", "u1"]);
    assert.equal(made.expiresAt, NOW + 60_000);
    assert.equal(policyOf(ask, { id: ask.request.id, ok: true, scope: "session:s9" }, at)?.key, "s9");
    assert.equal(policyOf(ask, { id: ask.request.id, ok: true, scope: "tool" }, at)?.key, "");
    assert.equal(policyOf(ask, { id: ask.request.id, ok: true, scope: "turn" }, at), undefined);
    assert.equal(policyOf(ask, { id: ask.request.id, ok: true }, at), undefined);
    assert.equal(policyOf(ask, { id: ask.request.id, ok: true, scope: "principal" }, { ...at, principal: undefined }), undefined);
    assert.equal(policyOf(new Ask(CALL, question()), { id: "pnd-1", ok: true, scope: "tool" }, at), undefined, "a question's answer");
  });

  it("applicable: a refusal beats every approval that covers the call; expired and other keys cover nothing", () => {
    const always = policy(true, "tool", "");
    const refusal = policy(false, "session", "s1");
    assert.equal(applicable([always, refusal], "wipe", "s1", undefined, NOW), refusal);
    assert.equal(applicable([refusal, always], "wipe", "s2", undefined, NOW), always);
    assert.equal(applicable([refusal], "wipe", "s1", undefined, NOW + 60_000), undefined, "expired");
    assert.equal(applicable([always], "other", undefined, undefined, NOW), undefined);
    assert.equal(applicable([policy(true, "principal", "u1")], "wipe", undefined, "u2", NOW), undefined);
  });

  it("gated: a policy decides without asking, and says so in its decision", () => {
    const call: ToolCall = { id: "c1", name: "wipe", arguments: { path: "a" } };
    const at = { session: "s1", principal: "u1", now: NOW };
    const approvedBy = gated(WIPE, call, [policy(true, "session", "s1")], at);
    assert.equal(approvedBy.asked, undefined);
    assert.deepEqual(approvedBy.decision?.toWire(), {
      kind: "approve",
      tool: "wipe",
      call: "c1",
      request: null,
      arguments: { path: "a" },
      approved: null,
      scope: "session:s1",
      reason: null,
      message: null,
      policy: "pol-session-true",
    });
    const refusedBy = gated(WIPE, call, [policy(false, "principal", "u1", { reason: "cancelled", message: "ask Ann" })], at);
    assert.ok(refusedBy.asked !== undefined && "result" in refusedBy.asked);
    assert.equal(refusedBy.asked.result.output, "declined: ask Ann");
    assert.deepEqual(refusedBy.asked.result.metadata, { declined: { policy: "pol-principal-false", reason: "cancelled", message: "ask Ann" } });
    assert.deepEqual([refusedBy.decision?.kind, refusedBy.decision?.reason, refusedBy.decision?.scope], ["decline", "cancelled", "principal"]);
    const asked = gated(WIPE, call, [], at);
    assert.ok(asked.asked !== undefined && "request" in asked.asked && asked.decision === undefined);
    const free = defineTool("free", "", null, () => "");
    assert.deepEqual(gated(free, { ...call, name: "free" }, [policy(false, "tool", "")], at), { asked: undefined, decision: undefined });
  });

  it("byPolicy: a refusal without words names the policy", () => {
    const call: ToolCall = { id: "c1", name: "wipe", arguments: {} };
    assert.equal(byPolicy(call, policy(true, "tool", "")), undefined);
    const result = byPolicy(call, policy(false, "tool", ""));
    assert.equal(result?.output, "declined: the call to wipe is not allowed (policy pol-tool-false)");
    assert.deepEqual(result?.metadata, { declined: { policy: "pol-tool-false", reason: "declined" } });
  });

  it("a policy's JSON is Python's, and reads back", () => {
    const kept = policy(false, "session", "s1", { madeBy: "u1", message: "no" });
    const wire = kept.toWire();
    assert.deepEqual(wire, {
      id: "pol-session-false",
      tool: "wipe",
      approve: false,
      scope: "session",
      key: "s1",
      madeAt: "2026-01-01T00:00:00.000Z",
      expiresAt: "2026-01-01T00:01:00.000Z",
      madeBy: "u1",
      reason: null,
      message: "no",
    });
    assert.deepEqual(Policy.fromWire(wire), kept);
    const python = { ...wire, madeAt: "2026-01-01T00:00:00+00:00", expiresAt: "2026-01-01T00:01:00.500000+00:00" };
    assert.equal(Policy.fromWire(python).expiresAt, NOW + 60_500);
  });
});
