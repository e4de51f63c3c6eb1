// The TypeScript resuming process of tests/store/test_store_faults.py, beside Python's: it resumes
// the pending runs of a store (a SQLite file, or a PostgreSQL conninfo `host=…`) until none is left,
// and dies (SIGKILL, by its own hand) the Nth time it reaches PHASE: `claimed` (a claim taken),
// `tool` (the tool's effect made) or `writing` (the outcome written, before its commit); or never
// (`none`).
//
//   node .cache/fault-worker.js <db> <bank> <phase> <n>
//
// The tool is the Python file's `transfer`: not idempotent; the bank (a SQLite file) records each
// run of it under its idempotency key and applies each key once, as a payment API does.

import { createRequire } from "node:module";
import { pending } from "toolnexus-contract";
import { ResumeError, Toolkit, defineTool } from "toolnexus-contract/runtime";
import { PostgresRunStore, RunStore, SqliteRunStore } from "toolnexus-contract/store";

const SECRET = new TextEncoder().encode("tests-host-secret-0123456789abcdef");
const LEASE = 0.4; // the Python file's

interface Bank {
  prepare(sql: string): { run(...args: unknown[]): unknown };
  transaction(work: () => void): () => void;
}
const Database = createRequire(import.meta.url)("better-sqlite3") as new (path: string, options: { timeout: number }) => Bank;

const [where = "", bankPath = "", phase = "none", count = "0"] = process.argv.slice(2);
let left = Number(count);

/** Dies here, as `kill -9` would, the Nth time this phase is reached. */
function reached(here: string): void {
  if (here === phase && --left <= 0) {
    process.kill(process.pid, "SIGKILL");
  }
}

const bank = new Database(bankPath, { timeout: 30_000 });

const transfer = defineTool(
  "transfer",
  "Moves money once a person confirms; the bank takes an idempotency key.",
  { type: "object", properties: { amount: { type: "integer" } }, required: ["amount"] } as const,
  (args, ctx) => {
    if (ctx.answer === undefined) {
      return pending({ id: "", kind: "confirm", prompt: `transfer ${args.amount}?` });
    }
    bank.transaction(() => {
      bank.prepare("INSERT INTO runs (key, pid) VALUES (?, ?)").run(ctx.idempotencyKey, process.pid);
      bank.prepare("INSERT OR IGNORE INTO applied (key, amount) VALUES (?, ?)").run(ctx.idempotencyKey, args.amount);
    })();
    reached("tool");
    return `transferred ${args.amount}`;
  },
);

// A claim taken, then death; the outcome's transaction, then death before its commit.
const claim = RunStore.prototype.claim;
RunStore.prototype.claim = async function (this: RunStore, ...args: Parameters<RunStore["claim"]>) {
  const taken = await claim.apply(this, args);
  reached("claimed");
  return taken;
};
const storeRow = RunStore.prototype.storeRow;
RunStore.prototype.storeRow = function (this: RunStore, ...args: Parameters<RunStore["storeRow"]>) {
  const db = this.db;
  const own = db.transaction.bind(db);
  Object.defineProperty(db, "transaction", {
    configurable: true,
    value: <T>(work: Parameters<typeof own<T>>[0]) => {
      delete (db as { transaction?: unknown }).transaction; // this write alone: renewals are not it
      return own(async (conn) => {
        const out = await work(conn);
        reached("writing");
        return out;
      });
    },
  });
  return storeRow.apply(this, args);
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function work(): Promise<void> {
  const store = where.startsWith("host=") ? await PostgresRunStore.open(where, { lease: LEASE }) : await SqliteRunStore.open(where, { lease: LEASE });
  const kit = new Toolkit([transfer], { secret: SECRET });
  let idleSince = Date.now();
  try {
    while (Date.now() - idleSince < 3 * LEASE * 1000) {
      const waiting = await store.pending();
      if (waiting.length === 0) {
        const doubt = new Set((await store.inDoubt()).map((d) => d.runId));
        if ((await store.ids("claimed")).every((id) => doubt.has(id))) {
          return; // nothing left but calls in doubt, which a person settles
        }
        await sleep((LEASE / 4) * 1000); // a dead process's claim: wait for its lease
        continue;
      }
      idleSince = Date.now();
      const one = waiting[Math.floor(Math.random() * waiting.length)]!;
      try {
        await store.resume(kit, one.runId, { id: one.request.id, ok: true });
      } catch (error) {
        if (!ResumeError.isResumeError(error)) {
          throw error;
        }
      }
    }
  } finally {
    await store.close();
  }
}

work().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
