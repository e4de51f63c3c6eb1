// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * The store's reads and the writes that need no claim (a port of Python's
 * `toolnexus/store/_rows.py`): saving runs, reading one, listing what waits, what has expired and
 * what was set aside. The same statements as Python's, on the same tables.
 *
 * @packageDocumentation
 */

import { fromJsonRunResult } from "../codec.js";
import type { RunResult } from "../types.js";
import { maybeNum, maybeText, num, seconds, type Backend, type Connection, type DbValue } from "./backend.js";
import { PendingRequest, StoreError, contextOf, contextText, messageOf, rowOf, type Status, type StoredRun, type Waiting } from "./types.js";

/** A claim is free to take when it is pending, or claimed under a lease that has run out while no
 * call that is not idempotent had started under it (such a call is in doubt). */
export const FREE = "(status = 'pending' OR (status = 'claimed' AND lease_until < ? AND doubt IS NULL))";
const INSERT_WAITING = "INSERT INTO waiting (run_id, position, request_id, request, tool, kind) VALUES (?, ?, ?, ?, ?, ?)";

/** What `pending` takes: filters and a page (keyset pagination). */
export interface PendingOptions {
  tool?: string | undefined;
  kind?: string | undefined;
  /** At most this many (a positive whole number). */
  limit?: number | undefined;
  /** Past this one: the last `PendingRequest` of the page before, or its `[runId, position]`. */
  after?: PendingRequest | readonly [number, number] | undefined;
}

export async function saveMany(db: Backend, runs: readonly RunResult[], contexts: readonly unknown[] | undefined): Promise<number[]> {
  const rows = runs.map((run) => rowOf(run));
  const given = contexts === undefined ? rows.map(() => null) : [...contexts];
  if (given.length !== rows.length) {
    throw new StoreError(`saveMany got ${rows.length} runs and ${given.length} contexts`);
  }
  const kept = given.map((c, i) => (c === null || c === undefined ? null : (contextText(c, `run ${i} of the batch`) ?? null)));
  const now = seconds();
  return db.transaction(async (conn) => {
    const ids: number[] = [];
    for (const [i, row] of rows.entries()) {
      const [inserted] = await conn.all(
        "INSERT INTO runs (status, body, expires_at, updated_at, context) VALUES (?, ?, ?, ?, ?) RETURNING id",
        [row.status, row.body, row.expires, now, kept[i] ?? null],
      );
      const runId = num(inserted?.[0]);
      await insertWaiting(conn, runId, row.waiting);
      ids.push(runId);
    }
    return ids;
  });
}

export async function insertWaiting(conn: Connection, runId: number, waiting: readonly Waiting[]): Promise<void> {
  for (const [i, w] of waiting.entries()) {
    await conn.run(INSERT_WAITING, [runId, i, ...w]);
  }
}

export async function getRun(db: Backend, runId: number): Promise<StoredRun | undefined> {
  const [row] = await db.read().all("SELECT status, body, lease_until, reason, doubt, context FROM runs WHERE id = ?", [runId]);
  if (row === undefined) {
    return undefined;
  }
  let status = String(row[0]) as Status;
  const until = maybeNum(row[2]);
  const reason = maybeText(row[3]) ?? undefined;
  if (status === "claimed" && until !== null && until < seconds() && row[4] === null) {
    status = "pending";
  }
  if (status === "quarantined") {
    return { id: runId, status, run: undefined, reason, context: null };
  }
  try {
    return { id: runId, status, run: fromJsonRunResult(String(row[1])), reason, context: contextOf(maybeText(row[5])) };
  } catch (error) {
    const why = await db.transaction((conn) => quarantine(conn, runId, error));
    return { id: runId, status: "quarantined", run: undefined, reason: why, context: null };
  }
}

export async function ids(db: Backend, status: Status | undefined): Promise<number[]> {
  const rows =
    status === undefined
      ? await db.read().all("SELECT id FROM runs ORDER BY id")
      : await db.read().all("SELECT id FROM runs WHERE status = ? ORDER BY id", [status]);
  return rows.map((r) => num(r[0]));
}

export async function pending(db: Backend, options: PendingOptions): Promise<PendingRequest[]> {
  const free = FREE.replace(/status/g, "r.status").replace("lease_until", "r.lease_until").replace("doubt", "r.doubt");
  const where = [free];
  const args: DbValue[] = [seconds()];
  if (options.tool !== undefined) {
    where.push("w.tool = ?");
    args.push(options.tool);
  }
  if (options.kind !== undefined) {
    where.push("w.kind = ?");
    args.push(options.kind);
  }
  if (options.after !== undefined) {
    const [runId, position] = options.after instanceof PendingRequest ? [options.after.runId, options.after.position] : options.after;
    where.push("(w.run_id > ? OR (w.run_id = ? AND w.position > ?))");
    args.push(runId, runId, position);
  }
  let page = "";
  const limit: unknown = options.limit;
  if (limit !== undefined) {
    if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit < 1) {
      throw new StoreError(`limit must be a positive whole number, got ${String(limit)}`);
    }
    page = ` LIMIT ${limit}`;
  }
  const rows = await db
    .read()
    .all(`SELECT w.run_id, w.request, w.position FROM waiting w JOIN runs r ON r.id = w.run_id WHERE ${where.join(" AND ")} ORDER BY w.run_id, w.position${page}`, args);
  return rows.map((r) => new PendingRequest(num(r[0]), String(r[1]), num(r[2])));
}

export async function quarantined(db: Backend): Promise<[number, string][]> {
  const rows = await db.read().all("SELECT id, reason FROM runs WHERE status = 'quarantined' ORDER BY id");
  return rows.map((r) => [num(r[0]), maybeText(r[1]) ?? ""]);
}

/** The pending runs with something expired by `now` (a Unix time in seconds). */
export async function expired(db: Backend, now: number): Promise<number[]> {
  const rows = await db.read().all(`SELECT id FROM runs WHERE ${FREE} AND expires_at IS NOT NULL AND expires_at <= ? ORDER BY id`, [seconds(), now]);
  return rows.map((r) => num(r[0]));
}

export async function expiry(db: Backend, runId: number): Promise<number | null> {
  const [row] = await db.read().all("SELECT expires_at FROM runs WHERE id = ?", [runId]);
  return row === undefined ? null : maybeNum(row[0]);
}

/** Sets the row `runId` aside for good, as not a valid run (`error` says why); returns why. */
export async function quarantine(conn: Connection, runId: number, error: unknown): Promise<string> {
  const why = `not a valid run: ${messageOf(error)}`;
  await conn.run(
    "UPDATE runs SET status = 'quarantined', reason = ?, lease = NULL, lease_until = NULL, doubt = NULL, updated_at = ? WHERE id = ?",
    [why, seconds(), runId],
  );
  await conn.run("DELETE FROM waiting WHERE run_id = ?", [runId]);
  return why;
}
