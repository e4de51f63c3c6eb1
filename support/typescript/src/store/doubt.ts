// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * Calls in doubt (a port of Python's `toolnexus/store/_doubt.py`): a call whose tool started under
 * a claim, and whose outcome was not written when the claim's lease ran out. The tool may have done
 * its work or not; the store never runs such a call again by itself. A tool that declares
 * `idempotent` in its hints is not marked.
 *
 * Before the tools of a claim run, the claim's row records the calls about to run, with the
 * answers they run on (`runs.doubt`, JSON: the same text Python writes and reads). The outcome's
 * write clears it; so does a release.
 *
 * @packageDocumentation
 */

import { fromJsonRunResult, parseAnswer, parseToolCall, toWireAnswer, toWireToolCall } from "../codec.js";
import { ResumeError } from "../errors.js";
import { isPlainObject, type JsonObject } from "../json.js";
import { idempotencyKey, turnDigest } from "../seal.js";
import { randomHex } from "../suspend.js";
import type { Toolkit } from "../toolkit.js";
import type { Answer, RunResult, ToolResult } from "../types.js";
import { maybeNum, maybeText, num, type Backend } from "./backend.js";
import type { RunStore } from "./core.js";
import { idempotent } from "./hooks.js";
import { underLease } from "./lease.js";
import { StoreError, type Claim, type InDoubt } from "./types.js";

/** A call about to run, as `runs.doubt` keeps it. */
export interface Started {
  call: JsonObject;
  key: string;
}

/** What `runs.doubt` holds. */
export interface Doubt {
  answers: JsonObject[];
  calls: Started[];
  started: number;
}

/** Who retries or settles, and in which session. */
export interface AgainOptions {
  principal?: string | undefined;
  session?: string | undefined;
}

/** The calls of `run` that `batch` answers and whose tools are not idempotent. */
export function startedCalls(toolkit: Toolkit, run: RunResult, batch: readonly Answer[]): Started[] {
  const ids = new Set(batch.map((a) => a.id));
  const calls = run.calls ?? [];
  const requests = run.requests !== undefined && run.requests.length > 0 ? run.requests : run.pending !== undefined ? [run.pending] : [];
  const order = run.order ?? [];
  const digest = order.length > 0 ? turnDigest(order, run.turn ?? "") : undefined;
  const out: Started[] = [];
  calls.forEach((call, i) => {
    const request = requests[i];
    if (request === undefined || !ids.has(request.id) || idempotent(toolkit.get(call.name))) {
      return;
    }
    out.push({ call: toWireToolCall(call), key: digest === undefined ? "" : idempotencyKey(digest, call.id) });
  });
  return out;
}

/** Records that `calls` start now under the claim `lease`, on the answers `batch`; false when that
 * claim is no longer the run's (its lease ran out and another process took it). */
export async function markStarted(db: Backend, runId: number, lease: string, batch: readonly Answer[], calls: Started[], now: number): Promise<boolean> {
  const doubt: Doubt = { answers: batch.map((a) => toWireAnswer(a)), calls, started: now };
  const changed = await db.transaction((conn) => conn.run("UPDATE runs SET doubt = ? WHERE id = ? AND status = 'claimed' AND lease = ?", [JSON.stringify(doubt), runId, lease]));
  return changed === 1;
}

/** Hands the run back as it was while the claim `lease` is still its own: the calls it marked did
 * not start (the mark failed), so they are not in doubt. */
export async function unclaim(db: Backend, runId: number, lease: string, now: number): Promise<void> {
  await db.transaction((conn) =>
    conn.run("UPDATE runs SET status = 'pending', lease = NULL, lease_until = NULL, doubt = NULL, updated_at = ? WHERE id = ? AND status = 'claimed' AND lease = ?", [now, runId, lease]),
  );
}

/** Ends the claim `lease` now, its calls left in doubt (it was cut off while they ran). */
export async function lapse(db: Backend, runId: number, lease: string): Promise<void> {
  await db.transaction((conn) => conn.run("UPDATE runs SET lease_until = 0 WHERE id = ? AND status = 'claimed' AND lease = ? AND doubt IS NOT NULL", [runId, lease]));
}

/** The calls in doubt at `now` (seconds): their claim's lease has run out. */
export async function inDoubt(db: Backend, now: number): Promise<InDoubt[]> {
  const rows = await db.read().all("SELECT id, lease, doubt FROM runs WHERE status = 'claimed' AND doubt IS NOT NULL AND lease_until < ? ORDER BY id", [now]);
  const out: InDoubt[] = [];
  for (const [id, lease, text] of rows) {
    const doubt = JSON.parse(String(text)) as Doubt;
    for (const started of doubt.calls) {
      const call = parseToolCall(started.call);
      out.push({ runId: num(id), call, tool: call.name, arguments: call.arguments, idempotencyKey: started.key, startedAt: doubt.started, lease: maybeText(lease) ?? "" });
    }
  }
  return out;
}

/** Runs the calls in doubt of `runId` again (`result` undefined: a retry), or continues with what
 * they did (`settle`), logged first as a decision, under a new claim. */
export async function again(store: RunStore, toolkit: Toolkit, runId: number, kind: "retry" | "settle", result: unknown, options: AgainOptions): Promise<RunResult> {
  const [claim, doubt] = await takeOver(store, runId);
  const calls = doubt.calls.map((c) => parseToolCall(c.call));
  let given: Map<string, unknown> | undefined;
  if (kind === "settle") {
    const ids = calls.map((c) => c.id);
    if (calls.length === 1) {
      given = new Map([[ids[0] as string, result]]);
    } else if (isPlainObject(result) && sameIds(Object.keys(result), ids)) {
      given = new Map(ids.map((id) => [id, result[id]]));
    } else {
      await giveBack(store.db, runId, claim.lease, doubt);
      throw new StoreError(`run ${runId} has ${calls.length} calls in doubt (${[...ids].sort().join(", ")}): settle takes an object of each call's id to its result`);
    }
  }
  const entries = calls.map((call, i): JsonObject => {
    const entry: JsonObject = { kind, tool: call.name, call: call.id, request: null, arguments: call.arguments, run: runId, idempotencyKey: doubt.calls[i]?.key ?? "" };
    if (given !== undefined) {
      entry["result"] = (given.get(call.id) ?? null) as JsonObject;
    }
    return entry;
  });
  await store.log.recordEntries(entries, { principal: options.principal, at: toolkit.now() });
  const answers = doubt.answers.map((a) => parseAnswer(a));
  const results = given === undefined ? undefined : new Map([...given].map(([id, value]) => [id, resultOf(value)]));
  try {
    return await underLease(store, toolkit, runId, answers, (kit, run) => kit.resume(run, answers, { principal: options.principal, session: options.session }), { claim, results, doubt });
  } catch (error) {
    if (ResumeError.isResumeError(error)) {
      await giveBack(store.db, runId, claim.lease, doubt); // refused before anything ran: still in doubt
    }
    throw error;
  }
}

function sameIds(given: string[], ids: string[]): boolean {
  return given.length === ids.length && ids.every((id) => given.includes(id));
}

/** What a person says a call returned, as its result: a `ToolResult` as it is, a string as the
 * output, any other JSON value as its JSON text (as a handler's return becomes a result). */
function resultOf(value: unknown): ToolResult {
  if (isPlainObject(value) && typeof value["output"] === "string") {
    return value as unknown as ToolResult;
  }
  return { output: typeof value === "string" ? value : JSON.stringify(value ?? null), isError: false };
}

/** Takes the claim of `runId`, whose calls are in doubt, under a new lease of this process. */
async function takeOver(store: RunStore, runId: number): Promise<[Claim, Doubt]> {
  const now = store.clock();
  const lease = randomHex(8);
  const [body, doubt] = await store.db.transaction(async (conn) => {
    const [row] = await conn.all(`SELECT status, body, lease_until, doubt FROM runs WHERE id = ?${store.db.rowLock}`, [runId]);
    if (row === undefined) {
      throw new ResumeError("not_pending", `there is no run ${runId}`);
    }
    const until = maybeNum(row[2]);
    if (row[0] !== "claimed" || row[3] === null || until === null || until >= now) {
      throw new ResumeError("not_pending", `run ${runId} has no call in doubt, so the answers [] have no use`);
    }
    await conn.run("UPDATE runs SET lease = ?, lease_until = ?, doubt = NULL, updated_at = ? WHERE id = ?", [lease, now + store.lease, now, runId]);
    return [String(row[1]), String(row[3])];
  });
  return [{ run: fromJsonRunResult(body), lease, context: null }, JSON.parse(doubt) as Doubt];
}

/** Puts the calls in doubt back as they were, after a retry or settle that ran nothing. */
export async function giveBack(db: Backend, runId: number, lease: string, doubt: Doubt): Promise<void> {
  await db.transaction((conn) =>
    conn.run(
      "UPDATE runs SET status = 'claimed', lease = ?, doubt = ?, lease_until = 0, reason = NULL WHERE id = ? AND (lease = ? OR (status = 'pending' AND lease IS NULL))",
      [lease, JSON.stringify(doubt), runId, lease],
    ),
  );
}
