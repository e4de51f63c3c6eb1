// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * `store.results`: the whole outputs a toolkit cut, kept in the store's database (a
 * {@link ResultSpill}: `new Toolkit(tools, { spill: store.results })`), so that `read_result` pages
 * through them from any process that opens the store, in either language. A port of Python's
 * `toolnexus/store/_results.py`, on the same table (`results`, schema version 6) and the same key:
 * a kept result's scope (the principal and session of the turn that kept it, as `scopeKey` writes
 * them, the text Python's `scope_key` writes) and its reference. One scope never reads another's.
 *
 * @packageDocumentation
 */

import { isWellFormed } from "../json/values.js";
import { scopeKey, type ResultSpill, type Scope } from "../spill.js";
import { maybeText, wallClock, type Backend } from "./backend.js";
import { StoreError } from "./types.js";

/** Kept results in the `results` table (schema version 6; `docs/durable.md`). `kept_at` is when
 * a result was kept, in Unix seconds of the real time, as Python's `time.time()` writes it (not the
 * store's clock: Python's does not read it either), for `purge`. */
export class StoredResults implements ResultSpill {
  readonly #db: Backend;

  /** @internal */
  constructor(db: Backend) {
    this.#db = db;
  }

  /** Keeps `text` under `ref` for `scope`, replacing what was kept there (and when). */
  async put(scope: Scope, ref: string, text: string): Promise<void> {
    const key = keyOf(scope, ref);
    utf8Only(text, "the text to keep");
    await this.#db.transaction((conn) =>
      conn.run(
        "INSERT INTO results (scope, ref, body, kept_at) VALUES (?, ?, ?, ?) ON CONFLICT (scope, ref) DO UPDATE SET body = excluded.body, kept_at = excluded.kept_at",
        [key, ref, text, wallClock()],
      ),
    );
  }

  /** The text kept under `ref` for `scope`, or undefined. */
  async get(scope: Scope, ref: string): Promise<string | undefined> {
    const [row] = await this.#db.read().all("SELECT body FROM results WHERE scope = ? AND ref = ?", [keyOf(scope, ref), ref]);
    return row === undefined ? undefined : (maybeText(row[0]) ?? "");
  }

  /** Forgets the results kept before `before` (a Unix time in seconds, as `kept_at` is); resolves
   * with how many were forgotten. */
  async purge(before: number): Promise<number> {
    if (typeof before !== "number" || Number.isNaN(before)) {
      throw new StoreError(`purge takes a Unix time in seconds, got ${typeof before === "number" ? "NaN" : typeof before}`);
    }
    return this.#db.transaction((conn) => conn.run("DELETE FROM results WHERE kept_at < ?", [before]));
  }
}

/** `scope` as the table's key, after `scope` and `ref` are checked to be text the database keeps. */
function keyOf(scope: Scope, ref: string): string {
  if (typeof scope !== "object" || scope === null) {
    throw new StoreError(`a kept result's scope is an object of principal and session, got ${scope === null ? "null" : typeof scope}`);
  }
  for (const [what, value] of [["principal", scope.principal], ["session", scope.session]] as const) {
    if (value !== undefined && value !== null) {
      utf8Only(value, `the scope's ${what}`);
    }
  }
  utf8Only(ref, "the reference");
  return scopeKey(scope);
}

/** A `StoreError` unless `value` is a string UTF-8 can encode (no lone surrogate): the database
 * would keep another text (U+FFFD) where Python's store refuses it (UnicodeEncodeError). */
function utf8Only(value: unknown, what: string): asserts value is string {
  if (typeof value !== "string") {
    throw new StoreError(`${what} must be a string, got ${value === null ? "null" : typeof value}`);
  }
  if (!isWellFormed(value)) {
    throw new StoreError(`${what} has a lone surrogate, which UTF-8 cannot encode, so the store cannot keep it`);
  }
}
