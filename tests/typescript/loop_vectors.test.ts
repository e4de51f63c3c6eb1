// Every loop vector (idl/loop/, the loop's specification) through the TypeScript Toolkit, as
// tests/test_loop_vectors.py runs them through the Python hosts: no vector is left out.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fromJsonRunResult, readJson, toJsonRunResult, writeJson, type Answer, type JsonObject, type RunResult, type ToolCall } from "toolnexus-contract";
import { ResumeError, Toolkit } from "toolnexus-contract/runtime";
import * as lv from "./loop_vectors.js";

const VECTORS = lv.names();

/** The Toolkit in process: the run a step returns is the one the next step answers. */
class ToolkitHost {
  readonly kit: Toolkit;
  run: RunResult | undefined;
  readonly given = new Map<number, [RunResult, Answer[]]>();

  constructor(
    readonly vector: lv.Vector,
    clock: lv.Clock,
    script: lv.Script,
  ) {
    this.kit = new Toolkit(script.tools(), { secret: lv.SECRET, clock: clock.now });
  }

  async start(): Promise<lv.Outcome> {
    const turn = this.vector.turn ?? {};
    this.run = await this.kit.runCalls(this.vector.calls, { expiresIn: turn.expiresIn, principal: turn.principal, turnId: turn.id });
    return outcomeOf(this.run);
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
      this.run = await this.kit.resume(given, answers, { principal: step.principal });
    } catch (err) {
      if (err instanceof ResumeError) {
        return { error: err.reason, results: [], waiting: [] };
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
  const clock = new lv.Clock();
  const script = new lv.Script(vector, clock.now);
  const host = new ToolkitHost(vector, clock, script);
  const checker = new lv.Checker(`${name} (typescript toolkit)`);
  for (const [index, step] of vector.steps.entries()) {
    clock.at = step.at ?? clock.at;
    const before = script.log.length;
    let got: lv.Outcome;
    if (step.do === "run") {
      got = await host.start();
    } else if (step.do === "resume") {
      got = await host.resume(index, step);
    } else {
      got = await host.expire();
    }
    checker.check(index, step.expect ?? {}, got, script.log.slice(before));
  }
}

describe("idl/loop", () => {
  it("has the vectors of every row of the loop", () => {
    assert.ok(VECTORS.length >= 69, `${VECTORS.length} vectors`);
    const covered = new Set(VECTORS.flatMap((n) => lv.load(n).covers));
    for (const row of ["approval", "edited arguments", "refusal", "expiry", "seal", "principal", "idempotency keys", "replay", "storage"]) {
      assert.ok(covered.has(row), row);
    }
  });

  for (const name of VECTORS) {
    it(name, async () => {
      await play(name);
    });
  }
});
