// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * What a store needs of a database (a port of Python's `toolnexus/store/_backend.py`): statements
 * with `?` placeholders, write transactions, and the few pieces of SQL that differ. The rules
 * (`rows.ts`, `core.ts`, `lease.ts`, `doubt.ts`) are written once over this; `sqlite.ts` and
 * `postgres.ts` supply it. Every method is async: `pg` is, and better-sqlite3's calls are queued
 * so that one transaction at a time holds the connection.
 *
 * @packageDocumentation
 */

import type { Signal } from "./wait.js";

/** One result row, its columns in the order the statement names them. */
export type DbRow = unknown[];
/** A value a statement takes. */
export type DbValue = string | number | null;

/** What the rules run statements on (`?` placeholders). */
export interface Connection {
  /** The rows `sql` returns (none for a statement that returns none). */
  all(sql: string, args?: readonly DbValue[]): Promise<DbRow[]>;
  /** Runs `sql` and returns how many rows it changed. */
  run(sql: string, args?: readonly DbValue[]): Promise<number>;
}

/** A database a store keeps its tables in. */
export interface Backend {
  /** Appended to the `SELECT` of the row a claim takes (`FOR UPDATE SKIP LOCKED`), or "". */
  readonly claimLock: string;
  /** Appended to the `SELECT` of a row a transaction then changes (`FOR UPDATE`), or "". */
  readonly rowLock: string;
  /** The column that orders policies as kept (oldest first). */
  readonly policyOrder: string;
  /** Where the store is, for people: a file's path, or a database's host, port and name. */
  readonly where: string;
  /** For reads: each statement sees what is committed. */
  read(): Connection;
  /** Runs `work` in one write transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (conn: Connection) => Promise<T>): Promise<T>;
  /** Makes `conn`'s transaction the decision log's only writer until it ends. */
  lockLog(conn: Connection): Promise<void>;
  /** Tells the listeners, in `conn`'s transaction, that run `runId` has an outcome: heard when it
   * commits (PostgreSQL's `NOTIFY toolnexus_runs, '<run id>'`, which Python's `store.wait` hears;
   * nothing on SQLite, whose waiters poll the file). */
  changed(conn: Connection, runId: number): Promise<void>;
  /** Starts hearing that runs may have moved on (`store.wait`): PostgreSQL `LISTEN`s on a connection
   * of its own; SQLite looks at the file every `poll` seconds. */
  listen(poll: number): Promise<Signal>;
  /** Whether `error` means the database could not do it now (locked, gone): retried while a lease lasts. */
  transient(error: unknown): boolean;
  close(): Promise<void>;
}

/** Where a store reads the time: a function returning a Unix time in seconds, as the tables keep
 * it (Python's `clock=`). */
export type Clock = () => number;

/** The real time, in seconds: a store's clock unless it is given another. */
export const wallClock: Clock = () => Date.now() / 1000;

/** A column read as a number (PostgreSQL's BIGINT arrives as a string). */
export function num(value: unknown): number {
  return typeof value === "number" ? value : Number(value);
}

/** A column that may be NULL, read as a number or null. */
export function maybeNum(value: unknown): number | null {
  return value === null || value === undefined ? null : num(value);
}

/** A text column that may be NULL. */
export function maybeText(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

interface Timers {
  setTimeout(callback: () => void, ms: number): { unref?: () => void };
  clearTimeout(handle: unknown): void;
}

/** The host's timers (no DOM library or `@types/node` is needed to compile the package). */
export const timers = globalThis as unknown as Timers;

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    timers.setTimeout(resolve, ms);
  });
}
