// The engine's steps on their own (toolnexus-contract/runtime), as tests/test_engine.py has them
// for Python: expiry read as RFC 3339, the gate, and `drive` with scripted effects. The loop's
// rules through a host are the loop vectors' (loop_vectors.test.ts).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { pending, type Answer, type Request, type ToolCall, type ToolResult } from "toolnexus-contract";
import { Ask, Run, STOP, Settle, defineTool, drive, expired, gate, isApproval, parseTime, start, timed, type Effects } from "toolnexus-contract/runtime";

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
    assert.deepEqual(effects.log, [["run", { n: 1 }, undefined]]);
  });
});
