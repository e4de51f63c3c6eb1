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
import { maybeNum, maybeText, num, type Backend, type Connection, type DbValue } from "./backend.js";
import { PendingRequest, StoreError, contextOf, contextText, messageOf, rowOf, type Status, type StoredRun, type Waiting } from "./types.js";

/** A claim is free to take when it is pending, or claimed under a lease that has run out while no
 * call that is not idempotent had started under it (such a call is in doubt). */
export const FREE = "(status = 'pending' OR (status = 'claimed' AND lease_until < ? AND doubt IS NULL))";
const INSERT_WAITING = "INSERT INTO waiting (run_id, position, request_id, request, tool, kind, principal, session) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

/** What `pending` takes: filters and a page (keyset pagination). */
export interface PendingOptions {
  /** Those of the runs saved with this principal (`save(run, { principal })`). */
  principal?: string | undefined;
  /** Those of the runs saved in this session (`save(run, { session })`). */
  session?: string | undefined;
  tool?: string | undefined;
  kind?: string | undefined;
  /** At most this many (a positive whole number). */
  limit?: number | undefined;
  /** Past this one: the last `PendingRequest` of the page before, or its `[runId, position]`. */
  after?: PendingRequest | readonly [number, number] | undefined;
}

/** What `saveMany` takes besides the runs: each run's, in the same order, when given. */
export interface SaveManyOptions {
  contexts?: readonly unknown[] | undefined;
  principals?: readonly (string | null | undefined)[] | undefined;
  sessions?: readonly (string | null | undefined)[] | undefined;
}

export async function saveMany(db: Backend, runs: readonly RunResult[], options: SaveManyOptions, now: number): Promise<number[]> {
  const rows = runs.map((run) => rowOf(run));
  const kept = each(options.contexts, rows.length, "contexts").map((c, i) => (c === null ? null : (contextText(c, `run ${i} of the batch`) ?? null)));
  const whose = each(options.principals, rows.length, "principals");
  const where = each(options.sessions, rows.length, "sessions");
  for (const [name, values] of [["principal", whose], ["session", where]] as const) {
    const i = values.findIndex((v) => v !== null && typeof v !== "string");
    if (i >= 0) {
      throw new StoreError(`the ${name} of run ${i} of the batch is ${JSON.stringify(values[i])}, not a string`);
    }
  }
  return db.transaction(async (conn) => {
    const ids: number[] = [];
    for (const [i, row] of rows.entries()) {
      const [principal, session] = [whose[i] as string | null, where[i] as string | null];
      const [inserted] = await conn.all(
        "INSERT INTO runs (status, body, expires_at, updated_at, context, principal, session) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        [row.status, row.body, row.expires, now, kept[i] ?? null, principal, session],
      );
      const runId = num(inserted?.[0]);
      await insertWaiting(conn, runId, row.waiting, principal, session);
      ids.push(runId);
    }
    return ids;
  });
}

/** One value of a `saveMany` option per run of the batch (undefined read as null); null for each when absent. */
function each(values: readonly unknown[] | undefined, count: number, name: string): unknown[] {
  const out = values === undefined ? Array<unknown>(count).fill(null) : values.map((v) => (v === undefined ? null : v));
  if (out.length !== count) {
    throw new StoreError(`saveMany got ${count} runs and ${out.length} ${name}`);
  }
  return out;
}

/** The `waiting` rows of a run: its requests, each with the run's principal and session. */
export async function insertWaiting(conn: Connection, runId: number, waiting: readonly Waiting[], principal: string | null = null, session: string | null = null): Promise<void> {
  for (const [i, w] of waiting.entries()) {
    await conn.run(INSERT_WAITING, [runId, i, ...w, principal, session]);
  }
}

/** The run `runId` as stored, read at `now` (seconds). */
export async function getRun(db: Backend, runId: number, now: number): Promise<StoredRun | undefined> {
  const [row] = await db.read().all("SELECT status, body, lease_until, reason, doubt, context, principal, session FROM runs WHERE id = ?", [runId]);
  if (row === undefined) {
    return undefined;
  }
  let status = String(row[0]) as Status;
  const until = maybeNum(row[2]);
  const reason = maybeText(row[3]) ?? undefined;
  if (status === "claimed" && until !== null && until < now && row[4] === null) {
    status = "pending";
  }
  const whose = { principal: maybeText(row[6]), session: maybeText(row[7]) };
  if (status === "quarantined") {
    return { id: runId, status, run: undefined, reason, context: null, ...whose };
  }
  try {
    return { id: runId, status, run: fromJsonRunResult(String(row[1])), reason, context: contextOf(maybeText(row[5])), ...whose };
  } catch (error) {
    const why = await db.transaction(async (conn) => {
      const text = await quarantine(conn, runId, error, now);
      await db.changed(conn, runId);
      return text;
    });
    return { id: runId, status: "quarantined", run: undefined, reason: why, context: null, ...whose };
  }
}

export async function ids(db: Backend, status: Status | undefined): Promise<number[]> {
  const rows =
    status === undefined
      ? await db.read().all("SELECT id FROM runs ORDER BY id")
      : await db.read().all("SELECT id FROM runs WHERE status = ? ORDER BY id", [status]);
  return rows.map((r) => num(r[0]));
}

export async function pending(db: Backend, options: PendingOptions, now: number): Promise<PendingRequest[]> {
  const free = FREE.replace(/status/g, "r.status").replace("lease_until", "r.lease_until").replace("doubt", "r.doubt");
  const where = [free];
  const args: DbValue[] = [now];
  for (const column of ["principal", "session", "tool", "kind"] as const) {
    const value: unknown = options[column];
    if (value !== undefined) {
      if (typeof value !== "string") {
        throw new StoreError(`${column} must be a string, got ${JSON.stringify(value)}`);
      }
      where.push(`w.${column} = ?`);
      args.push(value);
    }
  }
  if (options.after !== undefined) {
    const [runId, position] = options.after instanceof PendingRequest ? [options.after.runId, options.after.position] : options.after;
    // A row comparison, which both databases take as a range of the index (an OR of the two halves
    // is a filter over every row before it); `r.id >= ?` starts the join there too.
    where.push("(w.run_id, w.position) > (?, ?) AND r.id >= ?");
    args.push(runId, position, runId);
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

/** The pending runs (free at `now`) with something expired by `when` (Unix times in seconds). */
export async function expired(db: Backend, now: number, when: number): Promise<number[]> {
  const rows = await db.read().all(`SELECT id FROM runs WHERE ${FREE} AND expires_at IS NOT NULL AND expires_at <= ? ORDER BY id`, [now, when]);
  return rows.map((r) => num(r[0]));
}

export async function expiry(db: Backend, runId: number): Promise<number | null> {
  const [row] = await db.read().all("SELECT expires_at FROM runs WHERE id = ?", [runId]);
  return row === undefined ? null : maybeNum(row[0]);
}

/** Sets the row `runId` aside for good at `now` (seconds), as not a valid run (`error` says why);
 * returns why. */
export async function quarantine(conn: Connection, runId: number, error: unknown, now: number): Promise<string> {
  const why = `not a valid run: ${messageOf(error)}`;
  await conn.run(
    "UPDATE runs SET status = 'quarantined', reason = ?, lease = NULL, lease_until = NULL, doubt = NULL, updated_at = ? WHERE id = ?",
    [why, now, runId],
  );
  await conn.run("DELETE FROM waiting WHERE run_id = ?", [runId]);
  return why;
}
