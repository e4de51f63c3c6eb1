// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * The store's decision log, in its `decisions` and `decisions_head` tables: the chain Python's
 * `toolnexus/store/_log.py` keeps, appended to here (a toolkit's decisions, `new Toolkit(tools, {
 * decisionLog: store.log })`; a call in doubt retried or settled), read
 * (`entries`, `head`) and checked by either language. Each entry holds the hash of the entry before
 * it; its own hash is SHA-256 over its JSON with sorted keys, compact. The head holds the last
 * entry's `seq` and hash, with an HMAC-SHA256 of both under a key derived from the toolkit's key
 * (`useKey`), or unkeyed. `verify` checks the chain and its head as Python's `verify` does (see
 * `docs/durable.md`, "The decision log"): what it finds, and what it cannot (a log put back whole to
 * an earlier state, head and all: keep `head()` elsewhere and pass it as `head`).
 *
 * @packageDocumentation
 */

import type { Decision, Policy } from "../decisions.js";
import { JsonNumber, readJson } from "../json.js";
import type { DecisionLog, DecisionMade, DecisionUnit } from "../policies.js";
import { hex, same, sha256, utf8 } from "../seal.js";
import { maybeText, num, type Backend, type Connection } from "./backend.js";
import { keepPolicy } from "./policies.js";
import { StoreError } from "./types.js";

/** The hash the first entry chains to. */
const GENESIS = hex(sha256(utf8("toolnexus.decisions.v1")));

interface Hmac {
  update(data: Uint8Array): Hmac;
  digest(): Uint8Array;
}

function hmac(key: Uint8Array, data: Uint8Array): Uint8Array {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const crypto = proc?.getBuiltinModule?.("node:crypto") as { createHmac(alg: "sha256", key: Uint8Array): Hmac } | undefined;
  if (crypto === undefined) {
    throw new Error("toolnexus-contract/store needs Node.js's node:crypto");
  }
  return crypto.createHmac("sha256", key).update(data).digest();
}

/** The head of the log as kept: the last entry's `seq` and `hash`, the key id and MAC (null unkeyed). */
export interface LogHead {
  seq: number;
  hash: string;
  key: string | null;
  mac: string | null;
}

/** The store's decision log (see the module); a `DecisionLog`: `new Toolkit(tools, { decisionLog: store.log })`. */
export class StoreLog implements DecisionLog {
  readonly #db: Backend;
  #key: [string, Uint8Array] | undefined;
  /** @internal One with the store's policies (`store.policies`): the toolkit writes both in one transaction. */
  readonly unit: DecisionUnit;

  constructor(db: Backend) {
    this.#db = db;
    this.unit = {
      keepAndRecord: (policies: readonly Policy[], decisions: readonly Decision[], made: DecisionMade) =>
        db.transaction(async (conn) => {
          for (const policy of policies) {
            await keepPolicy(conn, policy);
          }
          if (decisions.length > 0) {
            await this.#append(conn, decisions.map((d) => d.toWire()), made);
          }
        }),
    };
  }

  /** MACs the log's head under `secret` (a toolkit key, id `keyId`) from now on. */
  useKey(keyId: string, secret: Uint8Array): void {
    this.#key = [keyId, headKey(secret)];
  }

  /** Appends `decision`, made by `made.principal` at `made.at` (ms), chained to the entry before it. */
  record(decision: Decision, made: DecisionMade): Promise<void> {
    return this.recordMany([decision], made);
  }

  /** Appends every one of `decisions` in one transaction: all of them, or none. */
  recordMany(decisions: readonly Decision[], made: DecisionMade): Promise<void> {
    return this.recordEntries(decisions.map((d) => d.toWire()), made);
  }

  /** Appends decisions in their JSON form, made by `principal` at `at` (ms), in one transaction. */
  recordEntries(decisions: readonly Record<string, unknown>[], made: DecisionMade): Promise<void> {
    return this.#db.transaction((conn) => this.#append(conn, decisions, made));
  }

  /** Appends `decisions` in `conn`'s transaction, the log locked, and moves the head. */
  async #append(conn: Connection, decisions: readonly Record<string, unknown>[], made: DecisionMade): Promise<void> {
    const at = isoTime(made.at);
    await this.#db.lockLog(conn);
    const [last] = await conn.all("SELECT seq, hash FROM decisions ORDER BY seq DESC LIMIT 1");
    let seq = last === undefined ? 0 : num(last[0]);
    let previous = last === undefined ? GENESIS : String(last[1]);
    for (const decision of decisions) {
      seq += 1;
      const entry = { seq, at, by: made.principal ?? null, ...decision, previous };
      previous = hex(sha256(utf8(sortedJson(entry))));
      await conn.run("INSERT INTO decisions (seq, entry, hash) VALUES (?, ?, ?)", [seq, JSON.stringify(entry), previous]);
    }
    const keyId = this.#key === undefined ? null : this.#key[0];
    const mac = this.#key === undefined ? null : headMac(this.#key[1], seq, previous);
    await conn.run(
      "INSERT INTO decisions_head (one, seq, hash, key_id, mac) VALUES (1, ?, ?, ?, ?) ON CONFLICT (one) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, key_id = excluded.key_id, mac = excluded.mac",
      [seq, previous, keyId, mac],
    );
  }

  /** Every entry, oldest first. */
  async entries(): Promise<Record<string, unknown>[]> {
    const rows = await this.#db.read().all("SELECT entry FROM decisions ORDER BY seq");
    return rows.map((r) => JSON.parse(String(r[0])) as Record<string, unknown>);
  }

  /** The log's head, or undefined before the first entry. */
  async head(): Promise<LogHead | undefined> {
    const [row] = await this.#db.read().all("SELECT seq, hash, key_id, mac FROM decisions_head WHERE one = 1");
    return row === undefined ? undefined : { seq: num(row[0]), hash: String(row[1]), key: maybeText(row[2]), mac: maybeText(row[3]) };
  }

  /**
   * The `seq` of the first entry that cannot be trusted, or null when the log holds (Python's
   * `verify(key, head=)`, the same answers). The chain is checked entry by entry (an entry changed,
   * removed before another, or out of order), then its end against the head (`options.head`, one
   * kept elsewhere, else the store's): entries removed from the end give the first one missing,
   * entries past the head the first of them. With `key` (the toolkit's secret, or its secrets by
   * key id) the head's MAC must hold too: a head that is missing, unkeyed, under an unknown key id
   * or forged gives 1 (where the log went wrong cannot be known).
   */
  async verify(key?: LogKey, options: VerifyOptions = {}): Promise<number | null> {
    if (key !== undefined && !(key instanceof Uint8Array) && (key === null || typeof key !== "object")) {
      throw new StoreError(`verify's key must be a Uint8Array or an object of key id to Uint8Array, got ${key === null ? "null" : typeof key}`);
    }
    let previous = GENESIS;
    let expected = 1;
    for (const [seqValue, text, stored] of await this.#db.read().all("SELECT seq, entry, hash FROM decisions ORDER BY seq")) {
      const seq = num(seqValue);
      let entry: unknown;
      try {
        // Read with each number's text kept: an entry is hashed as its writer wrote its numbers
        // (Python writes `1.0` and `1e-07`, JavaScript `1` and `1e-7`), so either language's log
        // verifies in the other.
        entry = readJson(String(text));
      } catch {
        return seq;
      }
      if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
        return seq;
      }
      const fields = entry as Record<string, unknown>;
      if (seq !== expected || fields["seq"] !== seq || fields["previous"] !== previous) {
        return seq;
      }
      if (hex(sha256(utf8(sortedJson(fields)))) !== String(stored)) {
        return seq;
      }
      previous = String(stored);
      expected += 1;
    }
    const last = expected - 1;
    const anchor = (options.head ?? (await this.head())) as Readonly<Record<string, unknown>> | undefined;
    if (anchor === undefined || anchor === null) {
      return key !== undefined && last > 0 ? 1 : null;
    }
    const seq = anchor["seq"];
    if (typeof seq !== "number" || !Number.isInteger(seq) || seq < 1) {
      return 1;
    }
    if (seq > last) {
      return last + 1; // entries removed from the end
    }
    if (seq < last) {
      return seq + 1; // entries put in after the head
    }
    if (anchor["hash"] !== previous) {
      return seq;
    }
    if (key === undefined) {
      return null;
    }
    const id = String(anchor["key"]);
    const secret = key instanceof Uint8Array ? key : Object.hasOwn(key, id) ? key[id] : undefined;
    const mac = anchor["mac"];
    if (!(secret instanceof Uint8Array) || typeof mac !== "string") {
      return 1;
    }
    return same(mac, headMac(headKey(secret), seq, previous)) ? null : 1;
  }
}

/** The key of the head's MAC, derived from a toolkit key (apart from its seal's keys). */
function headKey(secret: Uint8Array): Uint8Array {
  return hmac(secret, utf8("toolnexus.decisions.head.v1"));
}

/** The head's MAC: HMAC-SHA256 over its `seq` and the last entry's hash, hex. */
function headMac(key: Uint8Array, seq: number, last: string): string {
  return hex(hmac(key, utf8(`${seq}\n${last}`)));
}

/** The options of {@link StoreLog.verify}. */
export interface VerifyOptions {
  /** The head to check the log's end against: one kept elsewhere (`head()` taken earlier); the
   * store's own when absent. */
  head?: LogHead | Readonly<Record<string, unknown>> | undefined;
}

/** What `verify` takes as a key: the toolkit's secret, or its secrets by key id. */
export type LogKey = Uint8Array | { readonly [keyId: string]: Uint8Array };

/** Orders strings by code point, as Python sorts them (not by UTF-16 unit, as `sort()` does). */
function byCodePoint(a: string, b: string): number {
  const [x, y] = [[...a], [...b]];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (d !== 0) {
      return d;
    }
  }
  return x.length - y.length;
}

/** JSON with every object's keys sorted by code point, compact (Python's `json.dumps(sort_keys=True)`). */
export function sortedJson(value: unknown): string {
  if (value instanceof JsonNumber) {
    return value.text; // as its writer wrote it (an entry read back by `verify`)
  }
  if (Array.isArray(value)) {
    return `[${value.map((v: unknown) => sortedJson(v)).join(",")}]`;
  }
  if (value !== null && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort(byCodePoint);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(obj[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** `ms` as Python's `datetime.isoformat()` writes a UTC time (microseconds when there are any). */
export function isoTime(ms: number): string {
  const whole = Math.floor(ms);
  const micros = Math.round((ms - whole) * 1000) + (whole % 1000) * 1000;
  const base = new Date(whole - (whole % 1000)).toISOString().slice(0, 19);
  return `${base}${micros === 0 ? "" : `.${String(micros).padStart(6, "0")}`}+00:00`;
}
