// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * A step of a stored run made under a claim (a port of Python's `toolnexus/store/_lease.py`):
 * claimed, the calls about to run marked started (when a tool is not idempotent: see `doubt.ts`),
 * the lease renewed while the tools run, and the outcome stored while the lease holds.
 *
 * @packageDocumentation
 */

import { ResumeError } from "../errors.js";
import { forgetAnswers, type Toolkit } from "../toolkit.js";
import type { Answer, RunResult } from "../types.js";
import { sleep, timers } from "./backend.js";
import type { RunStore } from "./core.js";
import { giveBack, startedCalls, unclaim, type Doubt, type Started } from "./doubt.js";
import { withHooks, type StepHooks } from "./hooks.js";
import { OutcomeNotStored, rowOf, type Claim, type Row } from "./types.js";

/** What a step makes of the claimed run: `toolkit.resume(...)` or `toolkit.expire(...)`. */
export type Step = (toolkit: Toolkit, run: RunResult) => Promise<RunResult>;

/**
 * Claims `runId` for `batch` (unless `claim` holds it already), makes `step` of it under a renewed
 * lease, and stores the outcome (see `RunStore.resume`). `results`: calls whose results a person
 * supplied (`settle`), which return them instead of running their tools.
 */
export async function underLease(
  store: RunStore,
  toolkit: Toolkit,
  runId: number,
  batch: Answer[],
  step: Step,
  options: { claim?: Claim | undefined; context?: string | undefined; results?: StepHooks["results"]; doubt?: Doubt | undefined } = {},
): Promise<RunResult> {
  const claim = options.claim ?? (await store.claim(runId, batch));
  const { run, lease } = claim;
  const stopRenewing = renewing(store, runId, lease);
  const calls = startedCalls(toolkit, run, batch);
  let marking: Promise<void> | undefined; // the one mark of `calls`, which each tool awaits
  const hooks: StepHooks = { results: options.results };
  if (calls.length > 0) {
    // from the first tool on, a lease that runs out leaves these calls in doubt; no tool of
    // `calls` runs before the mark holds
    hooks.before = () => (marking ??= mark(store, runId, lease, batch, calls));
  }
  let resumed: RunResult;
  try {
    resumed = await withHooks(toolkit, hooks, () => step(toolkit, run));
    await marking;
  } catch (error) {
    const unmarked = marking === undefined ? undefined : await failure(marking);
    if (unmarked !== undefined) {
      await unmarkedBack(store, toolkit, runId, lease, run, options.doubt); // no tool of `calls` ran now
      throw unmarked.error;
    }
    await afterFailure(store, toolkit, runId, lease, run, marking !== undefined, error);
    throw error;
  } finally {
    stopRenewing();
  }
  if (resumed === run) {
    await store.release(runId); // nothing changed (nothing had expired): back as it was
    return run;
  }
  return storeOutcome(store, runId, resumed, batch, lease, options.context);
}

/** After a step that threw: an expired run settled, a refused one handed back (or set aside for a
 * seal that does not hold), and anything else leaves a call that started in doubt. */
async function afterFailure(store: RunStore, toolkit: Toolkit, runId: number, lease: string, run: RunResult, marked: boolean, error: unknown): Promise<void> {
  if (ResumeError.isResumeError(error)) {
    if (error.reason === "expired") {
      const settled = await toolkit.expire(run); // past its sealed expiry: settled now, never put back
      if (settled !== run) {
        await store.finish(runId, [], settled, { lease });
        return;
      }
    }
    const refused = error.reason === "seal";
    await store.release(runId, refused ? "refused" : "pending", refused ? { reason: error.message } : {});
    return;
  }
  try {
    if (marked) {
      await store.lapse(runId, lease);
    } else {
      await store.release(runId);
    }
  } catch (cleanup) {
    if (!store.db.transient(cleanup)) {
      throw cleanup;
    }
  }
}

/** Marks `calls` started under the claim `lease`, tried again while a third of the lease lasts
 * (the mark is the same each time: one that met the drop at its commit, and held, is written again
 * unchanged); `ResumeError("not_pending")` when the claim is no longer this one's. */
async function mark(store: RunStore, runId: number, lease: string, batch: Answer[], calls: Started[]): Promise<void> {
  const deadline = Date.now() + (store.lease * 1000) / 3;
  let delay = 50;
  let held: boolean;
  for (;;) {
    try {
      held = await store.started(runId, lease, batch, calls);
      break;
    } catch (error) {
      if (!store.db.transient(error) || Date.now() + delay >= deadline) {
        throw error;
      }
    }
    await sleep(delay);
    delay = Math.min(delay * 2, 1000);
  }
  if (!held) {
    throw new ResumeError("not_pending", `run ${runId}: its claim ran out before its tools started`);
  }
}

/** What the mark failed with, or undefined when it holds. */
async function failure(marking: Promise<void>): Promise<{ error: unknown } | undefined> {
  try {
    await marking;
  } catch (error) {
    return { error };
  }
  return undefined;
}

/** After a mark that did not hold: the run back as it was while the claim is still this one's,
 * and the answers forgotten by the toolkit (they may be given again, here too). A retry or settle
 * (`doubt`, the record it took over) puts the calls back in doubt: they may have run before. */
async function unmarkedBack(store: RunStore, toolkit: Toolkit, runId: number, lease: string, run: RunResult, doubt: Doubt | undefined): Promise<void> {
  try {
    await (doubt === undefined ? unclaim(store.db, runId, lease, store.clock()) : giveBack(store.db, runId, lease, doubt));
  } catch (cleanup) {
    if (!store.db.transient(cleanup)) {
      throw cleanup;
    }
  }
  forgetAnswers(toolkit, run);
}

/** Writes `resumed` as the outcome of the claimed run, retrying while the lease lasts. */
async function storeOutcome(store: RunStore, runId: number, resumed: RunResult, batch: Answer[], lease: string, context: string | undefined): Promise<RunResult> {
  let row: Row;
  try {
    row = rowOf(resumed);
  } catch (error) {
    await store.release(runId, "refused", { reason: `its outcome is not JSON: ${String(error)}` });
    throw new OutcomeNotStored(runId, resumed, batch, lease, error);
  }
  const answered = batch.map((a) => a.id);
  const deadline = Date.now() + store.lease * 1000;
  let delay = 50;
  for (;;) {
    try {
      await store.storeRow(runId, row, answered, lease, context);
      return resumed;
    } catch (error) {
      if (error instanceof OutcomeNotStored || !store.db.transient(error) || Date.now() + delay >= deadline) {
        throw error instanceof OutcomeNotStored ? error : new OutcomeNotStored(runId, resumed, batch, lease, error);
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 1000);
    }
  }
}

/** Renews the claim every third of the lease until the returned function is called. */
function renewing(store: RunStore, runId: number, lease: string): () => void {
  let handle: { unref?: () => void } | undefined;
  let stopped = false;
  const tick = (): void => {
    handle = timers.setTimeout(() => {
      store.renew(runId, lease).then(
        (held) => {
          if (held && !stopped) {
            tick();
          }
        },
        () => {
          if (!stopped) {
            tick(); // a missed renewal: the next one may do
          }
        },
      );
    }, (store.lease * 1000) / 3);
    handle.unref?.();
  };
  tick();
  return () => {
    stopped = true;
    timers.clearTimeout(handle);
  };
}
