// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * Waiting for a stored run to move on: `await store.wait(runId, timeout)`, for a host that
 * suspended a run and wants to hear when a person's answer has been taken, in any process and in
 * either language (a port of Python's `toolnexus/store/_wait.py`).
 *
 * What it waits for: an *outcome* of the run stored after the call (or one that differs from
 * `since`, the run as the caller last saw it). An outcome is what `resume`, `finish`, `expire`,
 * `retry` and `settle` write (the run waiting on other requests, or done), and the run set aside
 * (`refused`, `quarantined`). A claim is not one, nor is a `release` to `pending`. A run that is
 * done, refused or quarantined already is returned at once: nothing more will happen to it.
 *
 * How it hears of one: PostgreSQL by `LISTEN toolnexus_runs` on a connection of its own (every
 * write of an outcome, in either language, sends `NOTIFY toolnexus_runs, '<run id>'` in its
 * transaction); SQLite by reading the file's `PRAGMA data_version` (which changes when another
 * connection commits) and the store's own commits every `poll` seconds, reading the run again only
 * when one of them changed.
 *
 * @packageDocumentation
 */

import { toJsonRunResult } from "../codec.js";
import { ResumeError } from "../errors.js";
import type { RunResult } from "../types.js";
import type { Backend } from "./backend.js";
import { StoreError, type StoredRun } from "./types.js";

/** How often (seconds) a SQLite store's waiter looks at the file, unless `wait` is told otherwise. */
export const POLL = 0.05;

/** The options of `store.wait`. */
export interface WaitOptions {
  /** The run as the caller last saw it: an outcome is a run that differs from it. */
  since?: RunResult | undefined;
  /** SQLite only: how often (seconds) to look at the file; {@link POLL} by default. */
  poll?: number | undefined;
}

/** Hears that a run may have moved on: resolves when it may have, or when `ms` have passed. */
export interface Signal {
  wait(runId: number, ms: number): Promise<void>;
  close(): Promise<void>;
}

/** The statuses after which nothing more happens to a run. */
const FINAL: ReadonlySet<string> = new Set(["done", "refused", "quarantined"]);

/** What a run is now, to tell an outcome from: its JSON; null for a run that is final. */
function markOf(found: StoredRun | undefined, runId: number): string | null {
  if (found === undefined) {
    throw new ResumeError("not_pending", `there is no run ${runId}`);
  }
  return FINAL.has(found.status) || found.run === undefined ? null : toJsonRunResult(found.run);
}

/**
 * Resolves with the stored run `runId` once it has an outcome stored after this call (or one that
 * differs from `since`), and with undefined when `timeout` seconds pass first. A run that is done,
 * refused or quarantined resolves at once. `ResumeError("not_pending")` when there is no such run.
 */
export async function waitFor(
  db: Backend,
  get: (runId: number) => Promise<StoredRun | undefined>,
  runId: number,
  timeout: number,
  options: WaitOptions = {},
): Promise<StoredRun | undefined> {
  if (typeof timeout !== "number" || !(timeout >= 0)) {
    throw new StoreError(`timeout must be a number of seconds (0 or more), got ${String(timeout)}`);
  }
  const { since, poll = POLL } = options;
  if (typeof poll !== "number" || !(poll > 0) || !Number.isFinite(poll)) {
    throw new StoreError(`poll must be a positive number of seconds, got ${String(poll)}`);
  }
  if (since !== undefined && (since === null || typeof since !== "object")) {
    throw new StoreError(`since must be the RunResult last seen of run ${runId}, got ${String(since)}`);
  }
  const deadline = Date.now() + timeout * 1000;
  const signal = await db.listen(poll); // listening before the first read: no outcome is missed
  try {
    const mark = since !== undefined ? toJsonRunResult(since) : markOf(await get(runId), runId);
    for (;;) {
      const found = await get(runId);
      if (found === undefined) {
        throw new ResumeError("not_pending", `there is no run ${runId}`);
      }
      if (mark === null || markOf(found, runId) !== mark) {
        return found;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        return undefined;
      }
      await signal.wait(runId, left);
    }
  } finally {
    await signal.close();
  }
}
