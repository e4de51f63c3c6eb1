// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * `SqliteRunStore`: the store's rules over one SQLite file, on better-sqlite3 (an optional peer
 * dependency, loaded when a store is made), the file Python's `SqliteRunStore` opens: the same
 * tables, schema version 6 in `PRAGMA user_version`. WAL journal, `synchronous=NORMAL` unless
 * asked for `FULL`. A write transaction is taken at once (`BEGIN IMMEDIATE`), so it holds the
 * whole file; this process's transactions on the store's one connection take turns.
 *
 * @packageDocumentation
 */

import { sleep, wallClock, type Backend, type Clock, type Connection, type DbRow, type DbValue } from "./backend.js";
import { RunStore, checkClock } from "./core.js";
import { insertWaiting, quarantine } from "./rows.js";
import { StoreError, messageOf, rowOf } from "./types.js";
import type { Signal } from "./wait.js";
import { fromJsonRunResult } from "../codec.js";

/** The version of the tables this code writes (`PRAGMA user_version`); see docs/durable.md. */
export const SQLITE_SCHEMA_VERSION = 6;

/** The decision log's head (made on its own too, for an old store whose log lacks it). */
const HEAD = "CREATE TABLE IF NOT EXISTS decisions_head (one INTEGER PRIMARY KEY CHECK (one = 1), seq INTEGER NOT NULL, hash TEXT NOT NULL, key_id TEXT, mac TEXT)";
/** The tables, as Python's `_sqlite.py` makes them (the statements must stay the same). */
const TABLES = [
  "CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY AUTOINCREMENT, status TEXT NOT NULL, body TEXT NOT NULL, answered TEXT NOT NULL DEFAULT '[]', expires_at REAL, lease TEXT, lease_until REAL, reason TEXT, updated_at REAL NOT NULL, doubt TEXT, context TEXT, principal TEXT, session TEXT)",
  "CREATE TABLE IF NOT EXISTS waiting (run_id INTEGER NOT NULL, position INTEGER NOT NULL, request_id TEXT NOT NULL, request TEXT NOT NULL, tool TEXT NOT NULL DEFAULT '', kind TEXT NOT NULL DEFAULT '', principal TEXT, session TEXT, PRIMARY KEY (run_id, position)) WITHOUT ROWID",
  "CREATE INDEX IF NOT EXISTS runs_due ON runs (status, expires_at)",
  "CREATE INDEX IF NOT EXISTS waiting_tool ON waiting (tool, run_id, position)",
  "CREATE INDEX IF NOT EXISTS waiting_kind ON waiting (kind, run_id, position)",
  // whose run, which session: `pending({ principal, session })` (version 6)
  "CREATE INDEX IF NOT EXISTS waiting_principal ON waiting (principal, run_id, position)",
  "CREATE INDEX IF NOT EXISTS waiting_session ON waiting (session, run_id, position)",
  "CREATE TABLE IF NOT EXISTS policies (id TEXT PRIMARY KEY, tool TEXT NOT NULL, body TEXT NOT NULL, expires_at TEXT NOT NULL)",
  "CREATE INDEX IF NOT EXISTS policies_tool ON policies (tool)",
  "CREATE TABLE IF NOT EXISTS decisions (seq INTEGER PRIMARY KEY, entry TEXT NOT NULL, hash TEXT NOT NULL)",
  HEAD,
  "CREATE TABLE IF NOT EXISTS tasks (id TEXT PRIMARY KEY, owner TEXT, status TEXT NOT NULL, call TEXT NOT NULL, turn TEXT NOT NULL, run_id INTEGER, result TEXT, error TEXT, message TEXT, ttl_ms INTEGER, poll_ms INTEGER NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL, lease TEXT, lease_until REAL, cancel_asked INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID",
  "CREATE TABLE IF NOT EXISTS spent_states (digest TEXT PRIMARY KEY, until REAL NOT NULL) WITHOUT ROWID",
  // the outputs a toolkit cut, kept whole (version 6)
  "CREATE TABLE IF NOT EXISTS results (scope TEXT NOT NULL, ref TEXT NOT NULL, body TEXT NOT NULL, kept_at REAL NOT NULL, PRIMARY KEY (scope, ref))",
  "CREATE INDEX IF NOT EXISTS results_kept ON results (kept_at)",
];
/** The columns added to `runs` since version 1 (leases, reasons) and version 4 (doubt, context). */
const ADDED = ["lease TEXT", "lease_until REAL", "reason TEXT", "doubt TEXT", "context TEXT"];
/** The columns version 6 adds to `runs` and to `waiting` (whose run, which session; see `toVersion6`). */
const ADDED_6 = ["principal TEXT", "session TEXT"];

/** The part of better-sqlite3 this module uses. */
interface Statement {
  raw(on: boolean): Statement;
  readonly reader: boolean;
  all(...args: DbValue[]): DbRow[];
  run(...args: DbValue[]): { changes: number };
}
interface Database {
  prepare(sql: string): Statement;
  pragma(text: string, options?: { simple: boolean }): unknown;
  exec(sql: string): void;
  close(): void;
  readonly inTransaction: boolean;
}
type DatabaseClass = new (path: string, options: { timeout: number }) => Database;

/** The options of {@link SqliteRunStore}. */
export interface SqliteOptions {
  /** How long (seconds) a write waits for another process's write; 30 by default. */
  timeout?: number;
  /** How long (seconds) a claim holds without renewal; 30 by default. */
  lease?: number;
  /** Where the store reads the time: a function returning Unix seconds (Python's `clock=`); the
   * real time by default. A test, or a host with a clock of its own, passes another. */
  clock?: Clock;
  /** SQLite's `synchronous`: `NORMAL` (the default, in WAL mode) or `FULL` (an fsync per write). */
  synchronous?: "NORMAL" | "FULL";
}

function loadDriver(): DatabaseClass {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const mod = proc?.getBuiltinModule?.("node:module") as { createRequire(from: string): (id: string) => unknown } | undefined;
  if (mod === undefined) {
    throw new StoreError("SqliteRunStore needs Node.js (node:module, to load better-sqlite3)");
  }
  try {
    return mod.createRequire(import.meta.url)("better-sqlite3") as DatabaseClass;
  } catch (error) {
    throw new StoreError(`SqliteRunStore needs better-sqlite3 12 (npm install better-sqlite3@12): ${messageOf(error)}`, { cause: error });
  }
}

class SqliteConnection implements Connection {
  readonly #statements = new Map<string, Statement>();
  constructor(readonly db: Database) {}

  #prepared(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      if (statement.reader) {
        statement.raw(true);
      }
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  all(sql: string, args: readonly DbValue[] = []): Promise<DbRow[]> {
    return Promise.resolve(this.#prepared(sql).all(...args));
  }

  run(sql: string, args: readonly DbValue[] = []): Promise<number> {
    return Promise.resolve(this.#prepared(sql).run(...args).changes);
  }
}

/** One SQLite file on one connection, whose transactions take turns (a `Backend`). */
class SqliteBackend implements Backend {
  readonly claimLock = "";
  readonly rowLock = "";
  readonly policyOrder = "rowid";
  readonly #conn: SqliteConnection;
  #turn: Promise<unknown> = Promise.resolve();
  /** How many transactions this connection committed: `data_version` counts only the others'. */
  #commits = 0;

  constructor(
    readonly where: string,
    db: Database,
  ) {
    this.#conn = new SqliteConnection(db);
  }

  /** Reads take their turn too: between two statements of a transaction, the connection shows
   * what that transaction has not committed. */
  read(): Connection {
    return { all: (sql, args) => this.#after(() => this.#conn.all(sql, args)), run: (sql, args) => this.#after(() => this.#conn.run(sql, args)) };
  }

  #after<T>(work: () => Promise<T>): Promise<T> {
    const mine = this.#turn.then(work);
    this.#turn = mine.catch(() => undefined);
    return mine;
  }

  transaction<T>(work: (conn: Connection) => Promise<T>): Promise<T> {
    const db = this.#conn.db;
    return this.#after(async () => {
      db.exec("BEGIN IMMEDIATE");
      try {
        const out = await work(this.#conn);
        db.exec("COMMIT");
        this.#commits++;
        return out;
      } catch (error) {
        if (db.inTransaction) {
          db.exec("ROLLBACK");
        }
        throw error;
      }
    });
  }

  async lockLog(conn: Connection): Promise<void> {
    await conn.run(HEAD); // BEGIN IMMEDIATE holds the file; an old store may lack the head
  }

  /** Nothing: a waiting host polls the file (`PRAGMA data_version`). */
  changed(): Promise<void> {
    return Promise.resolve();
  }

  /** A signal that looks, every `poll` seconds, at whether the file changed: another connection's
   * commit (`PRAGMA data_version`) or this one's. */
  async listen(poll: number): Promise<Signal> {
    const seen = (): Promise<string> =>
      this.#after(() => Promise.resolve(`${String(this.#conn.db.pragma("data_version", { simple: true }))}.${this.#commits}`));
    let last = await seen();
    let closed = false;
    return {
      wait: async (_runId, ms) => {
        const end = Date.now() + ms;
        while (!closed && Date.now() < end) {
          await sleep(Math.min(poll * 1000, end - Date.now()));
          const now = await seen();
          if (now !== last) {
            last = now;
            return;
          }
        }
      },
      close: () => {
        closed = true;
        return Promise.resolve();
      },
    };
  }

  transient(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code === "string" && /^SQLITE_(BUSY|LOCKED|FULL|IOERR)/.test(code);
  }

  close(): Promise<void> {
    return this.#after(() => {
      this.#conn.db.close();
      return Promise.resolve();
    });
  }
}

/**
 * Pending runs in one SQLite file, each handed out to one resumer at a time; the file Python's
 * `SqliteRunStore` opens, so either language claims what the other saved. Open it with
 * `await SqliteRunStore.open(path, options)`. A file that cannot be opened is a `StoreError`
 * naming it; one written by a newer toolnexus (a higher schema version) is refused, naming both
 * versions; an older one is brought up to version 6 as Python does.
 */
export class SqliteRunStore extends RunStore {
  private constructor(db: Backend, lease: number, clock: Clock) {
    super(db, lease, clock);
  }

  static async open(path: string, options: SqliteOptions = {}): Promise<SqliteRunStore> {
    const { timeout = 30, lease = 30, synchronous = "NORMAL", clock = wallClock } = options;
    checkClock(clock);
    if (synchronous !== "NORMAL" && synchronous !== "FULL") {
      throw new StoreError(`synchronous must be 'NORMAL' or 'FULL', got ${String(synchronous)}`);
    }
    if (typeof path !== "string" || path === "") {
      throw new StoreError(`a SQLite store needs a file's path, got ${JSON.stringify(path)}`);
    }
    const Driver = loadDriver();
    let db: Database;
    try {
      db = new Driver(path, { timeout: timeout * 1000 });
      db.pragma("journal_mode = WAL");
    } catch (error) {
      throw new StoreError(`cannot open the SQLite store '${path}': ${messageOf(error)}`, { cause: error });
    }
    db.pragma(`synchronous = ${synchronous}`);
    const backend = new SqliteBackend(path, db);
    const store = new SqliteRunStore(backend, lease, clock);
    const version = Number(db.pragma("user_version", { simple: true }));
    if (version > SQLITE_SCHEMA_VERSION) {
      db.close();
      throw new StoreError(`the SQLite store '${path}' has schema version ${version}, newer than this toolnexus's ${SQLITE_SCHEMA_VERSION}: open it with a newer toolnexus`);
    }
    if (version < SQLITE_SCHEMA_VERSION) {
      await backend.transaction((conn) => create(conn, clock()));
    }
    return store;
  }
}

/** The tables of this version, made or brought up to date (Python's `_create`, step for step). */
async function create(conn: Connection, now: number): Promise<void> {
  const columns = new Set((await conn.all("PRAGMA table_info(runs)")).map((r) => String(r[1])));
  const waits = (await conn.all("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'waiting'")).length > 0;
  for (const column of columns.size > 0 ? ADDED : []) {
    if (!columns.has(column.split(" ")[0] as string)) {
      await conn.run(`ALTER TABLE runs ADD COLUMN ${column}`);
    }
  }
  const listed = waits ? new Set((await conn.all("PRAGMA table_info(waiting)")).map((r) => String(r[1]))) : new Set<string>();
  for (const column of waits ? ["tool", "kind"] : []) {
    if (!listed.has(column)) {
      await conn.run(`ALTER TABLE waiting ADD COLUMN ${column} TEXT NOT NULL DEFAULT ''`);
    }
  }
  if (columns.size > 0) {
    await toVersion6(conn, columns, listed);
  }
  for (const statement of TABLES) {
    await conn.run(statement);
  }
  if (columns.size > 0 && !waits) {
    await migrate(conn, now); // a store of version 1
  } else if (waits && !listed.has("tool")) {
    await fillWaiting(conn, now); // before version 5: the requests' tool and kind
  }
  await conn.run(`PRAGMA user_version = ${SQLITE_SCHEMA_VERSION}`);
}

/** Version 5 to 6, a step of its own: `runs` and `waiting` get `principal` and `session` (NULL for
 * the runs kept before: saved with neither), and `TABLES` their indexes. */
async function toVersion6(conn: Connection, columns: Set<string>, listed: Set<string>): Promise<void> {
  for (const column of ADDED_6) {
    const name = column.split(" ")[0] as string;
    if (!columns.has(name)) {
      await conn.run(`ALTER TABLE runs ADD COLUMN ${column}`);
    }
    if (listed.size > 0 && !listed.has(name)) {
      await conn.run(`ALTER TABLE waiting ADD COLUMN ${column}`);
    }
  }
}

async function fillWaiting(conn: Connection, now: number): Promise<void> {
  for (const [id, body] of await conn.all("SELECT id, body FROM runs WHERE id IN (SELECT run_id FROM waiting)")) {
    let waiting;
    try {
      waiting = rowOf(fromJsonRunResult(String(body))).waiting;
    } catch (error) {
      await quarantine(conn, Number(id), error, now);
      continue;
    }
    for (const [i, [, , tool, kind]] of waiting.entries()) {
      await conn.run("UPDATE waiting SET tool = ?, kind = ? WHERE run_id = ? AND position = ?", [tool, kind, Number(id), i]);
    }
  }
}

/** A store of version 1 (no waiting table, no lease): the waiting requests of its pending runs
 * moved into their table; claims it held are given back. */
async function migrate(conn: Connection, now: number): Promise<void> {
  await conn.run("UPDATE runs SET status = 'pending' WHERE status = 'claimed'");
  for (const [id, body] of await conn.all("SELECT id, body FROM runs WHERE status = 'pending'")) {
    let row;
    try {
      row = rowOf(fromJsonRunResult(String(body)));
    } catch (error) {
      await quarantine(conn, Number(id), error, now);
      continue;
    }
    await conn.run("UPDATE runs SET status = ?, expires_at = ? WHERE id = ?", [row.status, row.expires, Number(id)]);
    await insertWaiting(conn, Number(id), row.waiting);
  }
}
