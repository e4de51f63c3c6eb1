// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * The store's policies, in its `policies` table (a port of Python's `Policies` in
 * `toolnexus/store/_log.py`): `new Toolkit(tools, { policyStore: store.policies, decisionLog:
 * store.log })`. A row is what Python writes (the policy's JSON as `json.dumps` writes it, its
 * times as `isoformat()` does), so a policy an answer made through either language's store decides
 * the other's calls. When a toolkit's policy store and log are one store's, the decisions of a
 * resume are kept and logged in one transaction (`keepAndRecord`), as Python's are.
 *
 * @packageDocumentation
 */

import { Policy } from "../decisions.js";
import type { JsonObject } from "../json.js";
import type { PolicyStore, DecisionUnit } from "../policies.js";
import type { Backend, Connection } from "./backend.js";
import { isoTime, type StoreLog } from "./log.js";

/** The store's policies (a `PolicyStore`: `new Toolkit(tools, { policyStore: store.policies })`). */
export class StorePolicies implements PolicyStore {
  readonly #db: Backend;
  /** @internal One with the store's log: the toolkit writes both in one transaction. */
  readonly unit: DecisionUnit;

  constructor(db: Backend, log: StoreLog) {
    this.#db = db;
    this.unit = log.unit;
  }

  /** The policies kept (of `tool`, when given), expired ones too, oldest first. */
  async policies(tool?: string): Promise<Policy[]> {
    const order = this.#db.policyOrder;
    const rows =
      tool === undefined
        ? await this.#db.read().all(`SELECT body FROM policies ORDER BY ${order}`)
        : await this.#db.read().all(`SELECT body FROM policies WHERE tool = ? ORDER BY ${order}`, [tool]);
    return rows.map((row) => Policy.fromWire(JSON.parse(String(row[0])) as JsonObject));
  }

  /** Keeps `policy`; one kept again under its id moves to the end, as a new one. */
  keep(policy: Policy): Promise<void> {
    return this.#db.transaction((conn) => keepPolicy(conn, policy));
  }

  /** Removes a policy; false when there is none by that id. */
  revoke(policyId: string): Promise<boolean> {
    return this.#db.transaction(async (conn) => (await conn.run("DELETE FROM policies WHERE id = ?", [policyId])) === 1);
  }
}

/** Writes `policy`'s row in `conn`'s transaction, as Python's `Policies.keep` does. */
export async function keepPolicy(conn: Connection, policy: Policy): Promise<void> {
  await conn.run("DELETE FROM policies WHERE id = ?", [policy.id]);
  const body = { ...policy.toWire(), madeAt: isoTime(policy.madeAt), expiresAt: isoTime(policy.expiresAt) };
  await conn.run("INSERT INTO policies (id, tool, body, expires_at) VALUES (?, ?, ?, ?)", [policy.id, policy.tool, pythonJson(body), isoTime(policy.expiresAt)]);
}

/** JSON as Python's `json.dumps` writes it by default: `", "` and `": "` between, every character
 * past `~` escaped (`ensure_ascii`), keys in their order. */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map((v: unknown) => pythonJson(v)).join(", ")}]`;
  }
  if (value !== null && typeof value === "object") {
    const fields = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${fields.map(([k, v]) => `${ascii(JSON.stringify(k))}: ${pythonJson(v)}`).join(", ")}}`;
  }
  return ascii(JSON.stringify(value) ?? "null");
}

function ascii(text: string): string {
  return text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
