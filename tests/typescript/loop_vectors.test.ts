// Every loop vector (idl/loop/, the loop's specification) through the TypeScript Toolkit, as
// tests/runtime/test_loop_vectors.py runs them through the Python hosts: no vector is left out. A host
// that keeps cut outputs keeps them in a DirectorySpill of a fresh temporary directory.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fromJsonRunResult, readJson, toJsonRunResult, writeJson, type Answer, type JsonObject, type RunResult, type ToolCall } from "toolnexus-contract";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DirectorySpill, ResumeError, Toolkit } from "toolnexus-contract/runtime";
import * as lv from "./loop_vectors.js";

const VECTORS = lv.names();

/** The Toolkit in process: the run a step returns is the one the next step answers. A later `run`
 * step is a new turn of the same toolkit (its id the file's with `-2`, `-3`...), so the policies
 * one turn makes meet the next. */
class ToolkitHost {
  readonly kit: Toolkit;
  readonly log = new lv.Log();
  run: RunResult | undefined;
  readonly given = new Map<number, [RunResult, Answer[]]>();
  turns = 0;

  constructor(
    readonly vector: lv.Vector,
    clock: lv.Clock,
    script: lv.Script,
    spill: () => DirectorySpill | undefined,
  ) {
    const options = lv.toolkitOptions(vector, spill);
    this.kit = new Toolkit(script.tools(), { secret: lv.SECRET, clock: clock.now, decisionLog: this.log, ...options });
  }

  async start(step: lv.Step): Promise<lv.Outcome> {
    const turn = this.vector.turn ?? {};
    this.turns += 1;
    const turnId = this.turns === 1 ? turn.id : `${turn.id ?? "turn"}-${this.turns}`;
    const principal = step.principal ?? turn.principal;
    this.run = await this.kit.runCalls(lv.callsOf(this.vector, step), { expiresIn: turn.expiresIn, principal, turnId, session: step.session });
    return outcomeOf(this.run);
  }

  async revoke(step: lv.Step): Promise<lv.Outcome> {
    for (const policy of await this.kit.policies(step.tool)) {
      assert.ok(await this.kit.revokePolicy(policy.id), policy.id);
    }
    return outcomeOf(this.run as RunResult);
  }

  async resume(index: number, step: lv.Step): Promise<lv.Outcome> {
    const run = this.run as RunResult;
    let given: RunResult;
    let answers: Answer[];
    if (step.replay !== undefined) {
      [given, answers] = this.given.get(step.replay) as [RunResult, Answer[]];
    } else {
      given = run;
      answers = lv.answersOf(step.answers ?? [], waitingOf(run));
      if (step.stored === true || step.tamper !== undefined) {
        const wire = lv.tampered(readJson(toJsonRunResult(run)) as JsonObject, step.tamper ?? []);
        given = fromJsonRunResult(writeJson(wire));
      }
      this.given.set(index, [given, answers]);
    }
    try {
      this.run = await this.kit.resume(given, answers, { principal: step.principal ?? undefined, session: step.session });
    } catch (err) {
      if (err instanceof ResumeError) {
        return { error: err.reason, message: err.message, results: [], waiting: [] };
      }
      throw err;
    }
    return outcomeOf(this.run);
  }

  async expire(): Promise<lv.Outcome> {
    this.run = await this.kit.expire(this.run as RunResult);
    return outcomeOf(this.run);
  }
}

function waitingOf(run: RunResult): [ToolCall, NonNullable<RunResult["pending"]>][] {
  const requests = run.requests ?? [];
  return (run.calls ?? []).map((call, i) => [call, requests[i] as NonNullable<RunResult["pending"]>]);
}

function outcomeOf(run: RunResult): lv.Outcome {
  return { status: run.status, results: [...run.results], waiting: waitingOf(run) };
}

/** Runs `vector`'s steps through a Toolkit host, checking each. */
async function play(name: string): Promise<void> {
  const vector = lv.load(name);
  if (lv.definitionRefused(vector)) {
    return;
  }
  const clock = new lv.Clock();
  const script = new lv.Script(vector, clock.now);
  const kept = lv.keepsResults(vector) ? mkdtempSync(join(tmpdir(), "toolnexus-kept-")) : undefined;
  try {
    const host = new ToolkitHost(vector, clock, script, () => (kept === undefined ? undefined : new DirectorySpill(join(kept, "kept"))));
    await steps(name, vector, clock, script, host);
  } finally {
    if (kept !== undefined) {
      rmSync(kept, { recursive: true, force: true });
    }
  }
}

async function steps(name: string, vector: lv.Vector, clock: lv.Clock, script: lv.Script, host: ToolkitHost): Promise<void> {
  const checker = new lv.Checker(`${name} (typescript toolkit)`);
  for (const [index, step] of vector.steps.entries()) {
    clock.at = step.at ?? clock.at;
    const before = script.log.length;
    const logged = host.log.entries.length;
    let got: lv.Outcome;
    if (step.do === "run") {
      got = await host.start(step);
    } else if (step.do === "resume") {
      got = await host.resume(index, step);
    } else if (step.do === "revoke") {
      got = await host.revoke(step);
    } else {
      got = await host.expire();
    }
    checker.check(index, step.expect ?? {}, got, script.log.slice(before), host.log.entries.slice(logged), await host.kit.policies());
  }
}

describe("idl/loop", () => {
  it("has the vectors of every row of the loop", () => {
    assert.ok(VECTORS.length >= 91, `${VECTORS.length} vectors`);
    const covered = new Set(VECTORS.flatMap((n) => lv.load(n).covers));
    const rows = ["approval", "edited arguments", "refusal", "expiry", "seal", "principal", "idempotency keys", "replay", "storage"];
    rows.push("scopes", "policies", "precedence", "results a person supplies", "decisions", "result limits");
    for (const row of rows) {
      assert.ok(covered.has(row), row);
    }
  });

  for (const name of VECTORS) {
    it(name, async () => {
      await play(name);
    });
  }
});
