// The TypeScript run stores of `make bench` (issue 33): `SqliteRunStore` against raw better-sqlite3
// and `PostgresRunStore` against raw `pg`, each peer doing the same work on the same tables (made by
// opening a store), as bench/durable.py and bench/postgres.py measure Python's stores:
//
//   save:          a run's row and its waiting requests' rows in one transaction, the run and each
//                  request written as their JSON (toJsonRunResult, toJsonRequest);
//   claim+resume:  in one transaction the run's row read (PostgreSQL: FOR UPDATE SKIP LOCKED) and
//                  set claimed under a lease (SQLite: an UPDATE ... WHERE free); the call about to
//                  run marked (`runs.doubt`) in another; the same `Toolkit.resume`; then the
//                  outcome's write (the row read FOR UPDATE on PostgreSQL, updated, its waiting
//                  rows deleted) in a third;
//   pending():     the same join of `waiting` and `runs` over the same rows.
//
// The peers take the driver the store loads (the one module of support/typescript/node_modules),
// better-sqlite3's statements prepared once, `pg` on one client of its own. Each side gets fresh
// tables per batch (a new file; a new schema) and a fresh toolkit; the batches are taken in turn,
// ours then the peer's, `REPEATS` times, and each side's median printed.
//
//   node bench/typescript/store.mjs sqlite DIR N REPEATS
//   node bench/typescript/store.mjs postgres DSN N REPEATS
//
// Prints one JSON line per figure: {"db", "figure", "n", "ours", "peer", "oursCpu", "peerCpu"}, the
// wall-clock seconds of each side (a run, or for pending a request) and this process's CPU seconds.

import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Toolkit, defineTool } from "../../support/typescript/dist/runtime.js";
import { pending, fromJsonRunResult, toJsonRunResult, toJsonRequest } from "../../support/typescript/dist/index.js";
import { PostgresRunStore, SqliteRunStore } from "../../support/typescript/dist/store/index.js";
import { dsnKeys } from "../../support/typescript/dist/store/postgres.js";

const driver = createRequire(fileURLToPath(new URL("../../support/typescript/dist/store/index.js", import.meta.url)));
const [db, where, count, times] = process.argv.slice(2);
const n = Number(count ?? "1000");
const repeats = Number(times ?? "3");
const SECRET = new TextEncoder().encode("bench-typescript-store-secret-01");
const FREE = "(status = 'pending' OR (status = 'claimed' AND lease_until < ? AND doubt IS NULL))";

/** A toolkit of its own (its tool too: the store wraps the tools of the toolkits it resumes with). */
function toolkit() {
  const transfer = defineTool(
    "transfer",
    "Moves money once a person confirms.",
    { type: "object", properties: { amount: { type: "integer" } }, required: ["amount"] },
    (args, ctx) => (ctx.answer === undefined ? pending({ id: "", kind: "confirm", prompt: `transfer ${args.amount}?` }) : `transferred ${args.amount}`),
  );
  return new Toolkit([transfer], { secret: SECRET });
}

const now = () => Date.now() / 1000;

/** Raw better-sqlite3 on the store's tables. */
class RawSqlite {
  constructor(path) {
    this.db = new (driver("better-sqlite3"))(path, { timeout: 30000 });
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    const p = (sql) => this.db.prepare(sql);
    this.begin = p("BEGIN IMMEDIATE");
    this.commit = p("COMMIT");
    this.insertRun = p("INSERT INTO runs (status, body, updated_at) VALUES ('pending', ?, ?)");
    this.insertWaiting = p("INSERT INTO waiting (run_id, position, request_id, request, tool, kind) VALUES (?, ?, ?, ?, ?, ?)");
    this.read = p("SELECT status, body FROM runs WHERE id = ?").raw(true);
    this.claim = p(`UPDATE runs SET status = 'claimed', lease = ?, lease_until = ?, updated_at = ? WHERE id = ? AND ${FREE}`);
    this.doubt = p("UPDATE runs SET doubt = ? WHERE id = ?");
    this.answered = p("SELECT answered FROM runs WHERE id = ?").raw(true);
    this.outcome = p("UPDATE runs SET status = ?, body = ?, answered = ?, lease = NULL, lease_until = NULL, doubt = NULL, updated_at = ? WHERE id = ?");
    this.unwait = p("DELETE FROM waiting WHERE run_id = ?");
    this.listing = p("SELECT w.run_id, w.request, w.position FROM waiting w JOIN runs r ON r.id = w.run_id WHERE r.status = 'pending' ORDER BY w.run_id, w.position").raw(true);
  }

  save(run) {
    const body = toJsonRunResult(run);
    this.begin.run();
    const id = Number(this.insertRun.run(body, now()).lastInsertRowid);
    run.requests.forEach((r, i) => this.insertWaiting.run(id, i, r.id, toJsonRequest(r), "transfer", r.kind));
    this.commit.run();
    return id;
  }

  async resume(kit, id, answer) {
    const t = now();
    this.begin.run();
    const [status, body] = this.read.get(id);
    this.claim.run("x", t + 30, t, id, t);
    this.commit.run();
    if (status !== "pending") {
      throw new Error(`run ${id} is ${status}`);
    }
    const run = fromJsonRunResult(body);
    this.begin.run();
    this.doubt.run(JSON.stringify({ calls: [answer.id] }), id);
    this.commit.run();
    const resumed = await kit.resume(run, answer);
    this.begin.run();
    this.answered.get(id);
    this.outcome.run(resumed.status, toJsonRunResult(resumed), JSON.stringify([answer.id]), now(), id);
    this.unwait.run(id);
    this.commit.run();
    return resumed;
  }

  pending() {
    return Promise.resolve(this.listing.all());
  }

  close() {
    this.db.close();
  }
}

/** Raw `pg` on one client of its own, on the store's tables. */
class RawPg {
  static async open(dsn) {
    const names = { host: "host", port: "port", dbname: "database", user: "user", password: "password", options: "options" };
    const config = Object.fromEntries([...dsnKeys(dsn)].map(([k, v]) => [names[k], k === "port" ? Number(v) : v]));
    const client = new (driver("pg").Client)(config);
    await client.connect();
    return new RawPg(client);
  }

  constructor(client) {
    this.c = client;
  }

  async save(run) {
    const c = this.c;
    const body = toJsonRunResult(run);
    await c.query("BEGIN");
    const { rows } = await c.query("INSERT INTO runs (status, body, updated_at) VALUES ('pending', $1, $2) RETURNING id", [body, now()]);
    const id = Number(rows[0].id);
    for (const [i, r] of run.requests.entries()) {
      await c.query("INSERT INTO waiting (run_id, position, request_id, request, tool, kind) VALUES ($1, $2, $3, $4, $5, $6)", [id, i, r.id, toJsonRequest(r), "transfer", r.kind]);
    }
    await c.query("COMMIT");
    return id;
  }

  async resume(kit, id, answer) {
    const c = this.c;
    const t = now();
    await c.query("BEGIN");
    const { rows } = await c.query("SELECT status, body FROM runs WHERE id = $1 FOR UPDATE SKIP LOCKED", [id]);
    await c.query("UPDATE runs SET status = 'claimed', lease = 'x', lease_until = $1, updated_at = $2 WHERE id = $3", [t + 30, t, id]);
    await c.query("COMMIT");
    if (rows[0].status !== "pending") {
      throw new Error(`run ${id} is ${rows[0].status}`);
    }
    const run = fromJsonRunResult(rows[0].body);
    await c.query("BEGIN");
    await c.query("UPDATE runs SET doubt = $1 WHERE id = $2", [JSON.stringify({ calls: [answer.id] }), id]);
    await c.query("COMMIT");
    const resumed = await kit.resume(run, answer);
    await c.query("BEGIN");
    await c.query("SELECT answered FROM runs WHERE id = $1 FOR UPDATE", [id]);
    await c.query("UPDATE runs SET status = $1, body = $2, answered = $3, lease = NULL, lease_until = NULL, doubt = NULL, updated_at = $4 WHERE id = $5", [
      resumed.status,
      toJsonRunResult(resumed),
      JSON.stringify([answer.id]),
      now(),
      id,
    ]);
    await c.query("DELETE FROM waiting WHERE run_id = $1", [id]);
    await c.query("COMMIT");
    return resumed;
  }

  async pending() {
    const { rows } = await this.c.query("SELECT w.run_id, w.request, w.position FROM waiting w JOIN runs r ON r.id = w.run_id WHERE r.status = 'pending' ORDER BY w.run_id, w.position");
    return rows;
  }

  close() {
    return this.c.end();
  }
}

/** Fresh tables for one side: a new file, or a new schema (made by opening a store, then closed). */
async function fresh() {
  if (db === "sqlite") {
    const path = join(mkdtempSync(join(where, "s-")), "runs.sqlite3");
    await (await SqliteRunStore.open(path)).close();
    return path;
  }
  const name = `t_${Math.random().toString(16).slice(2, 14)}`;
  const admin = await RawPg.open(where);
  await admin.c.query(`CREATE SCHEMA ${name}`);
  await admin.close();
  const dsn = `${where} options='-c search_path=${name}'`;
  await (await PostgresRunStore.open(dsn)).close();
  return dsn;
}

/** A side on `at` (fresh tables when absent): the store, or its raw peer. */
const sides = {
  ours: async (at) => {
    at ??= await fresh();
    const store = db === "sqlite" ? await SqliteRunStore.open(at) : await PostgresRunStore.open(at);
    return { at, save: (run) => store.save(run), saveMany: (runs) => store.saveMany(runs), resume: (kit, id, a) => store.resume(kit, id, a), pending: () => store.pending(), close: () => store.close() };
  },
  peer: async (at) => {
    at ??= await fresh();
    const raw = db === "sqlite" ? new RawSqlite(at) : await RawPg.open(at);
    const saveMany = async (runs) => {
      const ids = [];
      for (const r of runs) {
        ids.push(await raw.save(r));
      }
      return ids;
    };
    return { at, save: async (run) => raw.save(run), saveMany, resume: (kit, id, a) => raw.resume(kit, id, a), pending: () => raw.pending(), close: async () => raw.close() };
  },
};

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** `work(side)` (its wall and CPU seconds) on fresh sides, in turn; each side's medians over `per`. */
async function alternate(work, per, rounds = repeats) {
  const got = { ours: [[], []], peer: [[], []] };
  for (let i = 0; i < rounds; i++) {
    for (const name of ["ours", "peer"]) {
      const [wall, cpu] = await work(name);
      got[name][0].push(wall / per);
      got[name][1].push(cpu / per);
    }
  }
  return { ours: median(got.ours[0]), peer: median(got.peer[0]), oursCpu: median(got.ours[1]), peerCpu: median(got.peer[1]) };
}

async function timed(body) {
  const cpu = process.cpuUsage();
  const t = process.hrtime.bigint();
  await body();
  const wall = Number(process.hrtime.bigint() - t) / 1e9;
  const used = process.cpuUsage(cpu);
  return [wall, (used.user + used.system) / 1e6];
}

const kit = toolkit();
const runs = [];
for (let i = 0; i < n; i++) {
  runs.push(await kit.runCalls([{ id: "c1", name: "transfer", arguments: { amount: i } }]));
}
const answers = runs.map((r) => ({ id: r.requests[0].id, ok: true }));
const print = (figure, n_, got) => process.stdout.write(JSON.stringify({ db, figure, n: n_, ...got }) + "\n");

print("save", n, await alternate(async (name) => {
  const side = await sides[name]();
  const out = await timed(async () => {
    for (const r of runs) {
      await side.save(r);
    }
  });
  await side.close();
  return out;
}, n));

print("claim+resume", n, await alternate(async (name) => {
  const side = await sides[name]();
  const ids = await side.saveMany(runs);
  const resumer = toolkit();
  const out = await timed(async () => {
    for (const [i, id] of ids.entries()) {
      const resumed = await side.resume(resumer, id, answers[i]);
      if (resumed.status !== "done") {
        throw new Error(`run ${id} is ${resumed.status} after its answer`);
      }
    }
  });
  await side.close();
  return out;
}, n));

// pending(): both sides over the same rows (saved by the store), `number` listings a batch.
const listing = { ours: await sides.ours() };
await listing.ours.saveMany(runs);
listing.peer = await sides.peer(listing.ours.at);
const number = Math.max(1, Math.floor(20000 / n));
for (const side of Object.values(listing)) {
  await side.pending(); // warm: the statements prepared, the pages cached
}
print("pending", n, await alternate(async (name) => {
  const side = listing[name];
  let listed;
  const out = await timed(async () => {
    for (let i = 0; i < number; i++) {
      listed = await side.pending();
    }
  });
  if (listed.length !== n) {
    throw new Error(`${name} listed ${listed.length} of ${n}`);
  }
  return out;
}, number * n, Math.max(5, repeats)));
await listing.ours.close();
await listing.peer.close();
