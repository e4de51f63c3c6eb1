// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * The store's rules, written once for both databases (a port of Python's
 * `toolnexus/store/_core.py`): a claim under a lease, the outcome kept while it holds, a run handed
 * back or set aside. `SqliteRunStore` and `PostgresRunStore` are this over their `Backend`.
 *
 * @packageDocumentation
 */

import { fromJsonRunResult, parseAnswer } from "../codec.js";
import { quote } from "../engine.js";
import { ResumeError } from "../errors.js";
import { randomHex } from "../suspend.js";
import type { ProgressHook, Toolkit } from "../toolkit.js";
import type { Answer, ParsedRunResult, RunResult } from "../types.js";
import { maybeNum, maybeText, wallClock, type Backend, type Clock, type Connection } from "./backend.js";
import { again, inDoubt, lapse, markStarted, type AgainOptions, type Started } from "./doubt.js";
import { underLease } from "./lease.js";
import { waitFor, type WaitOptions } from "./wait.js";
import { StoreLog } from "./log.js";
import { StoredResults } from "./results.js";
import { StorePolicies } from "./policies.js";
import { expired, expiry, getRun, ids, insertWaiting, pending, quarantine, quarantined, saveMany, type PendingOptions, type SaveManyOptions } from "./rows.js";
import { StoreError, UNCHANGED, contextOf, contextText, rowOf, type Claim, type InDoubt, type PendingRequest, type Row, type Status, type StoredRun } from "./types.js";

/** The options of {@link RunStore.save}. */
export interface SaveOptions {
  context?: unknown;
  principal?: string | null | undefined;
  session?: string | null | undefined;
}

/** The options of {@link RunStore.resume}. */
export interface StoreResumeOptions {
  principal?: string | undefined;
  session?: string | undefined;
  progress?: ProgressHook | undefined;
  /** Replaces the context kept with the run, with the outcome (left out: it stays as it was). */
  context?: unknown;
}

/**
 * Pending runs in a database, each handed out to one resumer at a time: the same API as Python's
 * `RunStore`, in camelCase and async, on the same tables (see `docs/durable.md`). `lease` is how
 * long (seconds) a claim holds without renewal; a resumer renews it while its tools run. `clock` is
 * where the store reads the time (Unix seconds; the real time by default): leases, expiry, when a
 * call started and what is free to claim are read against it.
 */
export class RunStore {
  /** @internal */
  readonly db: Backend;
  readonly lease: number;
  /** Where the store reads the time: a function returning Unix seconds. */
  readonly clock: Clock;
  /** The decision log in the store's tables (retries and settlements of calls in doubt go there). */
  readonly log: StoreLog;
  /** Cut outputs kept whole in the store's `results` table: `new Toolkit(tools, { spill: store.results })`. */
  readonly results: StoredResults;
  /** The policies in the store's tables: `new Toolkit(tools, { policyStore: store.policies, decisionLog: store.log })`. */
  readonly policies: StorePolicies;

  protected constructor(db: Backend, lease: number, clock: Clock = wallClock) {
    if (typeof lease !== "number" || !(lease > 0) || !Number.isFinite(lease)) {
      throw new StoreError(`lease must be a positive number of seconds, got ${String(lease)}`);
    }
    checkClock(clock);
    this.db = db;
    this.lease = lease;
    this.clock = clock;
    this.log = new StoreLog(db);
    this.results = new StoredResults(db);
    this.policies = new StorePolicies(db, this.log);
  }

  /** Where the store is, for people: a file's path; a database's host, port and name. */
  get path(): string {
    return this.db.where;
  }

  close(): Promise<void> {
    return this.db.close();
  }

  /** Stores `run` (pending, or done already) and returns its id; `context` is the host's JSON,
   * kept with the run (up to `CONTEXT_LIMIT` bytes), returned by `claim` and `get`. `principal` and
   * `session` say whose run it is and in which session, for `pending({ principal, session })`; kept
   * as given, for the run's life (the seal's binding to a principal is the toolkit's, apart from this). */
  async save(run: RunResult, options: SaveOptions = {}): Promise<number> {
    const { context = null, principal = null, session = null } = options;
    const [id] = await saveMany(this.db, [run], { contexts: [context], principals: [principal], sessions: [session] }, this.clock());
    return id as number;
  }

  /** Stores every run in one transaction and returns their ids, in order (`contexts`, `principals`,
   * `sessions`, when given: each run's, in the same order; see `save`). */
  saveMany(runs: readonly RunResult[], options: SaveManyOptions = {}): Promise<number[]> {
    return saveMany(this.db, runs, options, this.clock());
  }

  /** The run stored under `runId`, or undefined (a claim whose lease ran out reads as `pending`). */
  get(runId: number): Promise<StoredRun | undefined> {
    return getRun(this.db, runId, this.clock());
  }

  /**
   * Resolves with the stored run `runId` once it has an outcome stored after this call (a resume,
   * finish, expiry, retry or settlement, in any process and either language; or the run set aside),
   * or one that differs from `options.since`, the run as the caller last saw it; with undefined when
   * `timeout` seconds pass first. A run that is done, refused or quarantined resolves at once.
   * `ResumeError("not_pending")` when there is no such run. PostgreSQL hears the outcome's
   * `NOTIFY`; SQLite looks at the file every `options.poll` seconds (0.05 by default).
   */
  wait(runId: number, timeout: number, options: WaitOptions = {}): Promise<StoredRun | undefined> {
    return waitFor(this.db, (id) => this.get(id), runId, timeout, options);
  }

  /** The ids of the stored runs (with that status), oldest first. */
  ids(status?: Status): Promise<number[]> {
    return ids(this.db, status);
  }

  /** The requests the pending runs wait on, oldest run first, each run's in call order; filtered
   * by `tool` and `kind`, and paged with `limit` and `after` (keyset pagination). */
  pending(options: PendingOptions = {}): Promise<PendingRequest[]> {
    return pending(this.db, options, this.clock());
  }

  /** The rows that are not valid runs, each with why. */
  quarantined(): Promise<[number, string][]> {
    return quarantined(this.db);
  }

  /** The ids of the pending runs with something expired by `now` (ms; the store's clock when absent). */
  expired(now?: number): Promise<number[]> {
    const at = this.clock();
    return expired(this.db, at, now === undefined ? at : now / 1000);
  }

  /** When something of the stored run expires first (a Unix time in seconds), or null. */
  expiry(runId: number): Promise<number | null> {
    return expiry(this.db, runId);
  }

  /** Every call in doubt, oldest run first, each run's in call order. */
  inDoubt(): Promise<InDoubt[]> {
    return inDoubt(this.db, this.clock());
  }

  /** Runs the calls in doubt of `runId` again, under the same idempotency keys, on the answers they
   * ran on, and stores the outcome; logged first as a decision (`retry`). */
  retry(toolkit: Toolkit, runId: number, options: AgainOptions = {}): Promise<RunResult> {
    return again(this, toolkit, runId, "retry", undefined, options);
  }

  /** Records what the call in doubt of `runId` did (`result`: what its tool would have returned;
   * with several calls in doubt, an object of call id to result) and continues the run with it
   * without running the tool; logged first as a decision (`settle`). */
  settle(toolkit: Toolkit, runId: number, result: unknown, options: AgainOptions = {}): Promise<RunResult> {
    return again(this, toolkit, runId, "settle", result, options);
  }

  /** Takes the run to resume it with `answers` under a lease, in one transaction (see Python's
   * `RunStore.claim`: the same refusals, `ResumeError` with the same reasons). */
  async claim(runId: number, answers: Answer | readonly Answer[]): Promise<Claim> {
    const ids = answersOf(answers).map((a) => a.id);
    const lease = randomHex(8);
    const now = this.clock();
    const taken = await this.db.transaction((conn) => take(conn, this.db, runId, ids, lease, this.lease, now));
    if ("why" in taken) {
      throw new ResumeError("seal", `run ${runId} is not a valid run (${taken.why}); it is quarantined`);
    }
    return { run: taken.run, lease, context: contextOf(taken.context) };
  }

  /** Extends the claim `lease` on `runId` by another `lease` seconds; false when no longer held. */
  async renew(runId: number, lease: string): Promise<boolean> {
    const now = this.clock();
    const changed = await this.db.transaction((conn) =>
      conn.run("UPDATE runs SET lease_until = ?, updated_at = ? WHERE id = ? AND status = 'claimed' AND lease = ?", [now + this.lease, now, runId, lease]),
    );
    return changed === 1;
  }

  /** Stores what resuming the claimed run returned (pending again, or done), the answers taken
   * remembered; with `lease`, only while that claim is the run's last. */
  async finish(runId: number, answered: Answer | readonly Answer[], run: RunResult, options: { lease?: string; context?: unknown } = {}): Promise<void> {
    const text = contextText("context" in options ? options.context : UNCHANGED, `run ${runId}`);
    await this.storeRow(runId, rowOf(run), answersOf(answered).map((a) => a.id), options.lease, text);
  }

  /** Hands a claimed run back unchanged (`pending`), or sets it aside for good (`refused`). */
  async release(runId: number, status: "pending" | "refused" = "pending", options: { reason?: string } = {}): Promise<void> {
    await this.db.transaction(async (conn) => {
      await conn.run("UPDATE runs SET status = ?, lease = NULL, lease_until = NULL, reason = ?, doubt = NULL, updated_at = ? WHERE id = ? AND status = 'claimed'", [
        status,
        options.reason ?? null,
        this.clock(),
        runId,
      ]);
      if (status === "refused") {
        await this.db.changed(conn, runId);
      }
    });
  }

  /** Claims the run, continues it with `toolkit.resume`, stores the outcome and returns it (see
   * Python's `RunStore.resume`). */
  resume(toolkit: Toolkit, runId: number, answers: Answer | readonly Answer[], options: StoreResumeOptions = {}): Promise<RunResult> {
    const batch = answersOf(answers);
    const context = contextText("context" in options ? options.context : UNCHANGED, `run ${runId}`);
    const { principal, session, progress } = options;
    return underLease(this, toolkit, runId, batch, (kit, run) => kit.resume(run, batch, { principal, session, progress }), { context });
  }

  /** Settles, with `toolkit.expire`, every pending run with something expired by `now` (ms; the
   * toolkit's clock when absent); returns their ids. Runs another process holds are passed over. */
  async expire(toolkit: Toolkit, options: { now?: number; principal?: string } = {}): Promise<number[]> {
    const when = options.now ?? toolkit.now();
    const settled: number[] = [];
    for (const runId of await this.expired(when)) {
      try {
        await underLease(this, toolkit, runId, [], (kit, run) => kit.expire(run, { now: when, principal: options.principal }));
      } catch (error) {
        if (ResumeError.isResumeError(error)) {
          continue;
        }
        throw error;
      }
      settled.push(runId);
    }
    return settled;
  }

  /** @internal The outcome's write (`finish`), and a new context with it. */
  async storeRow(runId: number, row: Row, answered: string[], lease: string | undefined, context: string | undefined): Promise<void> {
    await this.db.transaction(async (conn) => {
      await writeOutcome(conn, this.db.rowLock, runId, row, answered, lease, this.clock());
      await this.db.changed(conn, runId);
      if (context !== undefined) {
        await conn.run("UPDATE runs SET context = ? WHERE id = ?", [context, runId]);
      }
    });
  }

  /** @internal Records that `calls` start now under the claim `lease`; false when that claim is no
   * longer the run's. */
  started(runId: number, lease: string, batch: readonly Answer[], calls: Started[]): Promise<boolean> {
    return markStarted(this.db, runId, lease, batch, calls, this.clock());
  }

  /** @internal Ends the claim `lease` now, its calls left in doubt. */
  lapse(runId: number, lease: string): Promise<void> {
    return lapse(this.db, runId, lease);
  }
}

/** A `StoreError` unless `clock` is a function (it is called for Unix seconds). */
export function checkClock(clock: unknown): asserts clock is Clock {
  if (typeof clock !== "function") {
    throw new StoreError(`clock must be a function returning a Unix time in seconds, got ${clock === null ? "null" : typeof clock}`);
  }
}

function answersOf(answers: Answer | readonly Answer[]): Answer[] {
  const list: readonly unknown[] = Array.isArray(answers) ? answers : [answers];
  return list.map((a, i) => parseAnswer(a, Array.isArray(answers) ? `$[${i}]` : "$"));
}

function names(ids: readonly string[]): string {
  return `[${ids.map(quote).join(", ")}]`;
}

function over(what: string, ids: readonly string[]): ResumeError {
  const tail = ids.length === 1 ? `answer ${quote(ids[0] as string)} has no use` : `the answers ${names(ids)} have no use`;
  return new ResumeError("not_pending", `${what}, so ${tail}`);
}

/** The claim's transaction: the run taken under `lease`, or why its row is not a valid run. */
async function take(
  conn: Connection,
  db: Backend,
  runId: number,
  ids: string[],
  lease: string,
  seconds_: number,
  now: number,
): Promise<{ run: ParsedRunResult; context: string | null } | { why: string }> {
  let [row] = await conn.all(`SELECT status, answered, body, lease_until, doubt, context FROM runs WHERE id = ?${db.claimLock}`, [runId]);
  if (row === undefined) {
    if ((await conn.all("SELECT 1 FROM runs WHERE id = ?", [runId])).length === 0) {
      throw new ResumeError("not_pending", `there is no run ${runId}`);
    }
    row = ["claimed", "[]", "", null, null, null]; // another process is taking it right now
  }
  let status = String(row[0]);
  const until = maybeNum(row[3]);
  if (status === "claimed" && until !== null && until < now) {
    if (row[4] !== null) {
      throw over(`run ${runId} has a call in doubt (settle or retry it)`, ids);
    }
    status = "pending"; // its holder is gone
  }
  const waiting = new Set((await conn.all("SELECT request_id FROM waiting WHERE run_id = ?", [runId])).map((r) => String(r[0])));
  const answered = JSON.parse(String(row[1])) as string[];
  const taken = new Set(answered.filter((id) => status !== "pending" || !waiting.has(id)));
  const again = ids.find((id) => taken.has(id));
  if (again !== undefined) {
    throw new ResumeError("replayed", `request ${quote(again)} was already answered`);
  }
  const busy = status === "claimed" ? ids.find((id) => waiting.has(id)) : undefined;
  if (busy !== undefined) {
    throw new ResumeError("replayed", `request ${quote(busy)} is being answered by another process`);
  }
  if (status !== "pending") {
    throw over(`run ${runId} is ${status}`, ids);
  }
  let run: ParsedRunResult;
  try {
    run = fromJsonRunResult(String(row[2]));
  } catch (error) {
    const why = await quarantine(conn, runId, error, now); // set aside for good (committed), then refused
    await db.changed(conn, runId);
    return { why };
  }
  await conn.run("UPDATE runs SET status = 'claimed', lease = ?, lease_until = ?, updated_at = ? WHERE id = ?", [lease, now + seconds_, now, runId]);
  return { run, context: maybeText(row[5]) };
}

/** Stores a claimed run's outcome (`row`), and the answers it took, while `lease` holds it. */
async function writeOutcome(conn: Connection, lock: string, runId: number, row: Row, answered: string[], lease: string | undefined, now: number): Promise<void> {
  const [held] = await conn.all(`SELECT status, answered, lease, principal, session FROM runs WHERE id = ?${lock}`, [runId]);
  if (held === undefined || held[0] !== "claimed" || (lease !== undefined && held[2] !== lease)) {
    throw new StoreError(`run ${runId} is not claimed under this lease, so there is nothing to finish`);
  }
  const all = [...(JSON.parse(String(held[1])) as string[]), ...answered];
  await conn.run("UPDATE runs SET status = ?, body = ?, expires_at = ?, answered = ?, lease = NULL, lease_until = NULL, doubt = NULL, updated_at = ? WHERE id = ?", [
    row.status,
    row.body,
    row.expires,
    JSON.stringify(all),
    now,
    runId,
  ]);
  await conn.run("DELETE FROM waiting WHERE run_id = ?", [runId]);
  await insertWaiting(conn, runId, row.waiting, maybeText(held[3]), maybeText(held[4]));
}
