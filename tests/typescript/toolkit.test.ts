// The Toolkit (toolnexus-contract/runtime) beyond what the loop vectors pin: `waitFor` (answers in
// place), its options and their errors, registration, progress, runs that are not valid data, and
// decisions (a turn's scope under waitFor, the policy store and its API, the decision log). The
// loop's rules themselves are the vectors' (loop_vectors.test.ts).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { WireError, pending, type Answer, type Request, type RunResult } from "toolnexus-contract";
import { Policy, PolicyMemory, ResumeError, Toolkit, defineTool, type Decision, type DecisionMade, type PolicyStore, ToolContext } from "toolnexus-contract/runtime";

const KEY = new TextEncoder().encode("a key of at least sixteen bytes");

function askTool(name: string, prompt: string) {
  return defineTool(name, "", null, (args, ctx: ToolContext) => {
    if (ctx.answer === undefined) {
      return pending({ id: "", kind: "input", prompt });
    }
    return `${name}: ${JSON.stringify(ctx.answer.data ?? null)} ${JSON.stringify(args)}`;
  });
}

describe("runCalls with waitFor", () => {
  it("answers an approval and questions in place, one at a time, in call order", async () => {
    const asked: Request[] = [];
    let open = 0;
    const wipe = defineTool("wipe", "", null, (args) => `wiped ${String(args["path"])}`, { needsApproval: true });
    const kit = new Toolkit([wipe, askTool("ask", "Which colour?")]);
    const run = await kit.runCalls(
      [
        { id: "c1", name: "ask", arguments: { q: 1 } },
        { id: "c2", name: "wipe", arguments: { path: "old" } },
        { id: "c3", name: "ask", arguments: { q: 3 } },
      ],
      {
        waitFor: async (request) => {
          assert.equal(open++, 0, "one question at a time");
          asked.push(request);
          await new Promise((resolve) => setTimeout(resolve, 5));
          open--;
          return request.kind === "approval" ? { id: request.id, ok: true, data: { arguments: { path: "older" } } } : { id: request.id, ok: true, data: { text: String(asked.length) } };
        },
      },
    );
    assert.deepEqual(
      asked.map((r) => r.kind),
      ["input", "approval", "input"],
    );
    assert.deepEqual(run, {
      status: "done",
      results: [
        { id: "c1", name: "ask", result: { output: 'ask: {"text":"1"} {"q":1}', isError: false, parts: [] } },
        { id: "c2", name: "wipe", result: { output: "wiped older", isError: false, parts: [] } },
        { id: "c3", name: "ask", result: { output: 'ask: {"text":"3"} {"q":3}', isError: false, parts: [] } },
      ],
    });
  });

  it("a second suspension is unresolved, a refusal is declined, and an answer to another request is a mismatch", async () => {
    const twice = defineTool("twice", "", null, () => pending({ id: "", kind: "input", prompt: "Which file?" }));
    const kit = new Toolkit([twice, askTool("ask", "Sure?")]);
    const calls = [
      { id: "c1", name: "twice", arguments: {} },
      { id: "c2", name: "ask", arguments: {} },
    ];
    const run = await kit.runCalls(calls, { waitFor: (r) => ({ id: r.id, ok: r.prompt === "Which file?", reason: "cancelled" }) });
    assert.deepEqual(
      run.results.map((r) => [r.result.output, r.result.metadata]),
      [
        ["unresolved: Which file?", undefined],
        ["declined/expired: Sure?", { declined: { request: (run.results[1]?.result.metadata?.["declined"] as { request: string }).request, reason: "cancelled" } }],
      ],
    );
    let asked = 0;
    await assert.rejects(
      kit.runCalls(calls, {
        waitFor: () => {
          asked++;
          return { id: "pnd-other", ok: true };
        },
      }),
      (err: unknown) => err instanceof ResumeError && err.reason === "mismatch",
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(asked, 1, "once waitFor fails, the turn asks nothing more");
  });
});

describe("Toolkit options", () => {
  it("refuses keys it cannot seal with, and binding a run without a key", async () => {
    assert.throws(() => new Toolkit([], { secret: new Uint8Array(8) }), /at least 16 bytes/);
    assert.throws(() => new Toolkit([], { secrets: { a: KEY, b: KEY } }), /activeKey must name/);
    assert.throws(() => new Toolkit([], { secrets: { "a.b": KEY } }), /key id/);
    assert.throws(() => new Toolkit([], { secret: KEY, secrets: { a: KEY } }), /not both/);
    assert.throws(() => new Toolkit([], { secrets: { a: KEY }, activeKey: "b" }), /not one of/);
    const kit = new Toolkit([askTool("ask", "?")]);
    const calls = [{ id: "c1", name: "ask", arguments: {} }];
    await assert.rejects(kit.runCalls(calls, { principal: "user-1" }), /need a toolkit with a key/);
    await assert.rejects(kit.runCalls(calls, { expiresIn: 60 }), /need a toolkit with a key/);
    await assert.rejects(new Toolkit([], { secret: KEY }).runCalls(calls, { expiresIn: -1 }), RangeError);
    await assert.rejects(kit.runCalls([...calls, ...calls]), /distinct ids/);
    await assert.rejects(kit.runCalls([{ id: "c1", name: "ask" }] as never), /is not a ToolCall/);
  });

  it("registers a name outside [a-zA-Z0-9_-] normalised, and refuses a second tool of that name", async () => {
    const kit = new Toolkit([defineTool("get weather", "", null, () => "sunny")]);
    assert.deepEqual(
      kit.tools().map((t) => t.name),
      ["get_weather"],
    );
    assert.equal(kit.get("get weather")?.name, "get_weather");
    assert.throws(() => kit.register(defineTool("get_weather", "", null, () => "")), /already registered/);
    assert.equal((await kit.execute("nope", {})).output, "Unknown tool: nope");
  });

  it("hears a turn's progress and the toolkit's, by call id", async () => {
    const heard: string[] = [];
    const t = defineTool("t", "", null, (_a, ctx) => {
      ctx.progress(0.25, "a quarter");
      return "";
    });
    const kit = new Toolkit([t], { onProgress: (id, f, m) => heard.push(`kit ${id} ${f} ${m}`) });
    await kit.runCalls([{ id: "c1", name: "t", arguments: {} }], { progress: (id, f, m) => heard.push(`turn ${id} ${f} ${m}`) });
    await kit.runCalls([{ id: "c2", name: "t", arguments: {} }]);
    assert.deepEqual(heard, ["turn c1 0.25 a quarter", "kit c1 0.25 a quarter", "kit c2 0.25 a quarter"]);
  });

  it("hears a tool's log lines, the turn's and the toolkit's, by call id, and refuses an unknown level", async () => {
    const heard: string[] = [];
    const t = defineTool("t", "", null, (_a, ctx) => {
      ctx.log("debug", "counting rows");
      ctx.log("warning", "one row skipped", { row: 2 });
      return "";
    });
    const kit = new Toolkit([t], { onLog: (id, level, m, data) => heard.push(`kit ${id} ${level} ${m} ${JSON.stringify(data)}`) });
    await kit.runCalls([{ id: "c1", name: "t", arguments: {} }], { log: (id, level, m) => heard.push(`turn ${id} ${level} ${m}`) });
    await kit.runCalls([{ id: "c2", name: "t", arguments: {} }]);
    assert.deepEqual(heard, [
      "turn c1 debug counting rows",
      "kit c1 debug counting rows {}",
      "turn c1 warning one row skipped",
      'kit c1 warning one row skipped {"row":2}',
      "kit c2 debug counting rows {}",
      'kit c2 warning one row skipped {"row":2}',
    ]);
    const ctx = new ToolContext();
    assert.throws(() => ctx.log("verbose" as never, "x"), { name: "RangeError", message: /^log takes a level of debug, info, notice, warning, error, critical, alert, emergency; got / });
    assert.throws(() => ctx.log("info", 3 as never), { name: "TypeError", message: /log takes a string message/ });
    assert.throws(() => ctx.log("info", "x", [] as never), { name: "TypeError", message: /log takes its data as a plain object/ });
    assert.throws(() => new Toolkit([], { onLog: "nope" as never }), /onLog must be a function/);
    // A line logged from an unknown level is the handler's error: the call's result says so.
    const bad = defineTool("bad", "", null, (_a, c) => {
      c.log("verbose" as never, "x");
      return "";
    });
    const run = await new Toolkit([bad]).runCalls([{ id: "c3", name: "bad", arguments: {} }]);
    assert.equal(run.status === "done" && run.results[0]?.result.isError, true);
  });
});

describe("resume", () => {
  it("gives the same idempotency key to a call in its first run and its retry, and another to every other call", async () => {
    const keys: string[] = [];
    const t = defineTool("t", "", null, (_a, ctx) => {
      keys.push(`${ctx.callId}:${ctx.idempotencyKey}`);
      return ctx.answer === undefined ? pending({ id: "", kind: "input", prompt: "?" }) : "done";
    });
    const kit = new Toolkit([t], { secret: KEY });
    const run = await kit.runCalls([{ id: "call_0", name: "t", arguments: {} }], { turnId: "turn-1" });
    await kit.resume(run, { id: run.pending?.id ?? "", ok: true });
    const other = await kit.runCalls([{ id: "call_0", name: "t", arguments: {} }]);
    assert.match(other.turn ?? "", /^[0-9a-f]{16}$/);
    assert.equal(keys.length, 3);
    assert.equal(keys[0], keys[1]);
    assert.notEqual(keys[0], keys[2]);
    assert.match(keys[0] ?? "", /^call_0:idk-[0-9a-f]{32}$/);
  });

  it("refuses a run or an answer that is not valid wire data, and an empty list of answers", async () => {
    const kit = new Toolkit([]);
    const run: RunResult = { status: "pending", results: [], pending: { id: "p", kind: "input", prompt: "?" }, calls: [{ id: "c", name: "t", arguments: {} }], requests: [{ id: "p", kind: "input", prompt: "?" }], order: ["c"] };
    await assert.rejects(kit.resume({ ...run, status: "paused" } as never, { id: "p", ok: true }), WireError);
    await assert.rejects(kit.resume(run, { id: "p", ok: "yes" } as never), WireError);
    await assert.rejects(kit.resume(run, []), RangeError);
    await assert.rejects(kit.resume({ status: "done", results: [] }, { id: "p", ok: true }), (err: unknown) => err instanceof ResumeError && err.reason === "not_pending");
  });
});

describe("decisions", () => {
  const NOW = Date.UTC(2026, 0, 1);
  const wipe = (): ReturnType<typeof defineTool> => defineTool("wipe", "", null, (args) => `wiped ${String(args["path"])}`, { needsApproval: true });
  const calls = [
    { id: "c1", name: "wipe", arguments: { path: "a" } },
    { id: "c2", name: "wipe", arguments: { path: "b" } },
  ];

  /** A decision log in memory. */
  class Log {
    readonly entries: [Decision, DecisionMade][] = [];
    record(decision: Decision, made: DecisionMade): void {
      this.entries.push([decision, made]);
    }
  }

  it("under waitFor, a decision for the turn answers the turn's other approvals of the tool unasked", async () => {
    const asked: Request[] = [];
    const log = new Log();
    const kit = new Toolkit([wipe()], { decisionLog: log, clock: () => NOW });
    const run = await kit.runCalls(calls, {
      principal: undefined,
      waitFor: (request) => {
        asked.push(request);
        return { id: request.id, ok: false, message: "not on Fridays", scope: "turn" };
      },
    });
    assert.equal(asked.length, 1, "asked once");
    assert.deepEqual(
      run.results.map((r) => r.result.output),
      ["declined: not on Fridays", "declined: not on Fridays"],
    );
    assert.deepEqual(
      log.entries.map(([d]) => [d.call, d.kind, d.scope, d.message]),
      [
        ["c1", "decline", "turn", "not on Fridays"],
        ["c2", "decline", "turn", "not on Fridays"],
      ],
    );
    assert.deepEqual(await kit.policies(), [], "a turn's decision keeps no policy");
  });

  it("policies(), revokePolicy() and policyLifetime: an approval for the tool decides later turns until it expires or is revoked", async () => {
    let now = NOW;
    const log = new Log();
    const kit = new Toolkit([wipe()], { secret: KEY, clock: () => now, decisionLog: log, policyLifetime: 60 });
    const first = await kit.runCalls(calls.slice(0, 1), { principal: "u1" });
    const request = first.pending as Request;
    await kit.resume(first, { id: request.id, ok: true, scope: "tool" }, { principal: "u1" });
    const [kept] = await kit.policies();
    assert.ok(kept instanceof Policy);
    assert.deepEqual([kept.tool, kept.approve, kept.scope, kept.key, kept.madeBy, kept.madeAt, kept.expiresAt], ["wipe", true, "tool", "", "u1", NOW, NOW + 60_000]);
    assert.deepEqual(await kit.policies("wipe"), [kept]);
    assert.deepEqual(await kit.policies("other"), []);
    assert.deepEqual(log.entries.at(-1)?.[1], { principal: "u1", at: NOW });

    const decided = await kit.runCalls(calls, { principal: "u2" });
    assert.equal(decided.status, "done");
    const byPolicy = log.entries.slice(-2).map(([d, made]) => [d.call, d.kind, d.request, d.policy, made.principal]);
    assert.deepEqual(byPolicy, [
      ["c1", "approve", null, kept.id, "u2"],
      ["c2", "approve", null, kept.id, "u2"],
    ]);

    now = NOW + 60_000; // the policy has expired: asked again, and still listed
    assert.equal((await kit.runCalls(calls.slice(0, 1))).status, "pending");
    assert.deepEqual(await kit.policies(), [kept]);
    assert.equal(await kit.revokePolicy(kept.id), true);
    assert.equal(await kit.revokePolicy(kept.id), false);
    assert.deepEqual(await kit.policies(), []);
  });

  for (const mode of ["sync", "async"] as const) {
    for (const failing of ["log", "policies"] as const) {
      it(`a resume whose ${failing} write fails (${mode === "sync" ? "throws" : "rejects"}) keeps nothing of the decision, and the same answer is taken later`, async () => {
        let full = true;
        const ran: string[] = [];
        const entries: string[] = [];
        // The same store, its methods returning values (sync) or promises (async, as a database's).
        const as = <T>(work: () => T): T | Promise<T> => (mode === "sync" ? work() : new Promise<void>((resolve) => setImmediate(resolve)).then(work));
        const log = {
          record: (decision: Decision) =>
            as(() => {
              if (full && failing === "log") {
                throw new Error("database or disk is full");
              }
              entries.push(decision.kind);
            }),
        };
        const policies = new PolicyMemory();
        const store: PolicyStore = {
          policies: (tool) => as(() => policies.policies(tool)),
          keep: (policy) =>
            as(() => {
              if (full && failing === "policies") {
                throw new Error("database or disk is full");
              }
              policies.keep(policy);
            }),
          revoke: (id) => as(() => policies.revoke(id)),
        };
        const refund = defineTool("refund", "", null, () => (ran.push("ran"), "refunded"), { needsApproval: true });
        const kit = new Toolkit([refund], { secret: KEY, decisionLog: log, policyStore: store, clock: () => NOW });
        const run = await kit.runCalls([{ id: "c1", name: "refund", arguments: {} }]);
        const answer = { id: (run.pending as Request).id, ok: true, scope: "tool" as const };
        await assert.rejects(kit.resume(structuredClone(run), answer), /disk is full/);
        assert.deepEqual([ran, entries, policies.policies()], [[], [], []], "nothing of the decision kept");
        full = false;
        const done = await kit.resume(structuredClone(run), answer);
        assert.equal(done.results[0]?.result.output, "refunded", "taken now, not replayed");
        assert.deepEqual([ran, entries, policies.policies().length], [["ran"], ["approve"], 1]);
        const later = await kit.runCalls([{ id: "c2", name: "refund", arguments: {} }]);
        assert.equal(later.status, "done", "the kept policy decides the next call");
        assert.deepEqual([ran, entries, await kit.policies()], [["ran", "ran"], ["approve", "approve"], policies.policies()]);
      });
    }
  }

  it("with waitFor, a decision whose log write rejects fails the turn, and the tool does not run", async () => {
    const ran: string[] = [];
    const log = { record: (): Promise<void> => Promise.reject(new Error("database or disk is full")) };
    const refund = defineTool("refund", "", null, () => (ran.push("ran"), "refunded"), { needsApproval: true });
    const kit = new Toolkit([refund], { decisionLog: log, clock: () => NOW });
    const waitFor = (request: Request): Answer => ({ id: request.id, ok: true });
    await assert.rejects(kit.runCalls([{ id: "c1", name: "refund", arguments: {} }], { waitFor }), /disk is full/);
    assert.deepEqual(ran, []);
  });

  it("expire logs each expiry, by no one", async () => {
    const log = new Log();
    const ask = defineTool("ask", "", null, () => pending({ id: "", kind: "input", prompt: "Soon?", expiresAt: new Date(NOW + 1000).toISOString() }));
    const kit = new Toolkit([ask], { decisionLog: log, clock: () => NOW });
    const run = await kit.runCalls([{ id: "c1", name: "ask", arguments: {} }]);
    const done = await kit.expire(run, { now: NOW + 1000 });
    assert.equal(done.status, "done");
    assert.deepEqual(
      log.entries.map(([d, made]) => [d.kind, d.reason, made]),
      [["expire", "expired", { principal: undefined, at: NOW + 1000 }]],
    );
  });

  it("reads its policy store only for a call that asks an approval, as Python does", async () => {
    const read: (string | undefined)[] = [];
    const store: PolicyStore = {
      policies: async (tool) => {
        read.push(tool);
        return [];
      },
      keep: () => undefined,
      revoke: () => false,
    };
    const echo = defineTool("echo", "", null, () => "echoed");
    const kit = new Toolkit([echo, wipe()], { policyStore: store });
    const done = await kit.runCalls([{ id: "e1", name: "echo", arguments: {} }, { id: "e2", name: "echo", arguments: {} }]);
    assert.equal(done.status, "done");
    assert.deepEqual(read, [], "a call that asks nothing does not read the store");
    const asked = await kit.runCalls(calls.slice(0, 1));
    assert.equal(asked.status, "pending");
    assert.deepEqual(read, ["wipe"]);
  });

  it("takes a policy store of the host's own, and refuses a lifetime that is not a positive finite number or a session that is not a string", async () => {
    const kept: Policy[] = [];
    const store: PolicyStore = {
      policies: (tool) => kept.filter((p) => tool === undefined || p.tool === tool),
      keep: (policy) => void kept.push(policy),
      revoke: () => false,
    };
    const kit = new Toolkit([wipe()], { policyStore: store });
    const run = await kit.runCalls(calls.slice(0, 1), { session: "s1" });
    await kit.resume(run, { id: (run.pending as Request).id, ok: false, scope: "session:s1" });
    assert.deepEqual(
      kept.map((p) => [p.scope, p.key, p.approve, p.reason]),
      [["session", "s1", false, "declined"]],
    );
    const again = await kit.runCalls(calls.slice(0, 1), { session: "s1" });
    assert.equal(again.results[0]?.result.output, `declined: the call to wipe is not allowed (policy ${kept[0]?.id ?? ""})`);
    assert.equal((await kit.runCalls(calls.slice(0, 1), { session: "s2" })).status, "pending");

    const memory = new PolicyMemory(kept);
    assert.deepEqual(memory.policies("wipe"), kept);
    assert.equal(memory.revoke(kept[0]?.id ?? ""), true);
    for (const policyLifetime of [0, -1, Number.NaN, Infinity]) {
      assert.throws(() => new Toolkit([], { policyLifetime }), RangeError);
    }
    await assert.rejects(kit.runCalls([], { session: 7 as unknown as string }), TypeError);
  });
});
