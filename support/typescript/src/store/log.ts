// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * The store's decision log, in its `decisions` and `decisions_head` tables: the chain Python's
 * `toolnexus/store/_log.py` keeps, appended to here (a call in doubt retried or settled), read
 * (`entries`, `head`) and checked by either language. Each entry holds the hash of the entry before
 * it; its own hash is SHA-256 over its JSON with sorted keys, compact. The head holds the last
 * entry's `seq` and hash, with an HMAC-SHA256 of both under a key derived from the toolkit's key
 * (`useKey`), or unkeyed.
 *
 * @packageDocumentation
 */

import { hex, sha256, utf8 } from "../seal.js";
import { maybeText, num, type Backend } from "./backend.js";

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

/** The store's decision log (see the module). */
export class StoreLog {
  readonly #db: Backend;
  #key: [string, Uint8Array] | undefined;

  constructor(db: Backend) {
    this.#db = db;
  }

  /** MACs the log's head under `secret` (a toolkit key, id `keyId`) from now on. */
  useKey(keyId: string, secret: Uint8Array): void {
    this.#key = [keyId, hmac(secret, utf8("toolnexus.decisions.head.v1"))];
  }

  /** Appends decisions in their JSON form, made by `principal` at `at` (ms), in one transaction. */
  async recordEntries(decisions: readonly Record<string, unknown>[], made: { principal: string | undefined; at: number }): Promise<void> {
    const at = isoTime(made.at);
    await this.#db.transaction(async (conn) => {
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
      const mac = this.#key === undefined ? null : hex(hmac(this.#key[1], utf8(`${seq}\n${previous}`)));
      await conn.run(
        "INSERT INTO decisions_head (one, seq, hash, key_id, mac) VALUES (1, ?, ?, ?, ?) ON CONFLICT (one) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, key_id = excluded.key_id, mac = excluded.mac",
        [seq, previous, keyId, mac],
      );
    });
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
}

/** JSON with every object's keys sorted, compact (Python's `json.dumps(sort_keys=True)`). */
export function sortedJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map((v: unknown) => sortedJson(v)).join(",")}]`;
  }
  if (value !== null && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
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
