// The durable stores (toolnexus-contract/store): saving, listing (filters and pages), claims under
// leases, the host's context, calls in doubt (retried, settled, logged), expiry, quarantine, the
// schema version, and the errors that name a path or a database. On SQLite always; on PostgreSQL
// too when $TOOLNEXUS_TEST_POSTGRES is a DSN (tests/store/test_store_cross_language.py runs this file so,
// on its throwaway cluster, each test in a schema of its own), as are both stores against
// Python's on the same tables.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { pending, type RunResult } from "toolnexus-contract";
import { ResumeError, Toolkit, defineTool, readResult } from "toolnexus-contract/runtime";
import { CONTEXT_LIMIT, PostgresRunStore, SqliteRunStore, StoreError, StoredResults, type RunStore } from "toolnexus-contract/store";

const KEY = new TextEncoder().encode("a key of at least sixteen bytes");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const folder = mkdtempSync(join(tmpdir(), "toolnexus-store-"));
after(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;

interface Raw {
  prepare(sql: string): { run(...args: unknown[]): unknown; get(...args: unknown[]): unknown; all(...args: unknown[]): unknown[] };
  pragma(text: string, options?: { simple: boolean }): unknown;
  close(): void;
}
const Database = createRequire(import.meta.url)("better-sqlite3") as new (path: string) => Raw;

/** Each run of a tool after its answer, by idempotency key. */
const ran: string[] = [];

function asking(name: string, kind = "approval") {
  return defineTool(name, "", null, (args, ctx) => {
    if (ctx.answer === undefined) {
      return pending({ id: "", kind, prompt: `${name} ${String(args["what"])}?` });
    }
    ran.push(ctx.idempotencyKey);
    return `did ${String(args["what"])}`;
  });
}

const kit = new Toolkit([asking("pay"), asking("ask", "input")], { secret: KEY });

/** A store of its own for one test, another one on the same tables, and a way behind its back. */
interface Fresh {
  store: RunStore;
  path: string;
  again(): Promise<RunStore>;
  raw(sql: string, ...args: (string | number)[]): Promise<void>;
}

const POSTGRES = process.env["TOOLNEXUS_TEST_POSTGRES"];
const KINDS = POSTGRES ? (["sqlite", "postgres"] as const) : (["sqlite"] as const);

interface PgClient {
  connect(): Promise<void>;
  query(text: string, values?: unknown[]): Promise<unknown>;
  end(): Promise<void>;
  on(event: "notification", listener: (note: { channel: string; payload?: string }) => void): void;
}
const pg = createRequire(import.meta.url)("pg") as { Client: new (config: { connectionString?: string } & Record<string, unknown>) => PgClient };

async function onPostgres<T>(dsn: string, work: (client: PgClient) => Promise<T>): Promise<T> {
  const keys = Object.fromEntries([...dsn.matchAll(/(\w+)=('[^']*'|\S+)/g)].map((m) => [m[1] === "dbname" ? "database" : m[1], (m[2] as string).replace(/^'|'$/g, "")]));
  const client = new pg.Client(keys);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function fresh(kind: "sqlite" | "postgres" = "sqlite", options: { lease?: number } = {}): Promise<Fresh> {
  if (kind === "postgres") {
    const schema = `ts_${process.pid}_${++files}`;
    await onPostgres(POSTGRES ?? "", (c) => c.query(`CREATE SCHEMA ${schema}`));
    const dsn = `${POSTGRES ?? ""} options='-c search_path=${schema}'`;
    return {
      store: await PostgresRunStore.open(dsn, options),
      path: dsn,
      again: () => PostgresRunStore.open(dsn),
      raw: async (sql, ...args) => {
        let n = 0;
        await onPostgres(dsn, (c) => c.query(sql.replace(/\?/g, () => `$${++n}`), args));
      },
    };
  }
  const path = join(folder, `runs-${++files}.sqlite3`);
  return {
    store: await SqliteRunStore.open(path, options),
    path,
    again: () => SqliteRunStore.open(path),
    raw: (sql, ...args) => {
      raw(path, sql, ...args);
      return Promise.resolve();
    },
  };
}

async function turn(...calls: [string, string][]): Promise<RunResult> {
  return kit.runCalls(calls.map(([name, what], i) => ({ id: `c${i}`, name, arguments: { what } })));
}

function raw(path: string, sql: string, ...args: unknown[]): void {
  const db = new Database(path);
  db.prepare(sql).run(...args);
  db.close();
}

/** Makes the mark of the calls about to start (`UPDATE runs SET doubt`) fail in `store`'s
 * transactions while `left` says so, as the database does when it drops at that write: on
 * PostgreSQL as `pg` says a connection ended ("Connection terminated unexpectedly", no code), on
 * SQLite as a file another process holds (`SQLITE_BUSY`). */
function failingMarks(store: RunStore, kind: "sqlite" | "postgres"): { left: number } {
  const fails = { left: 0 };
  const db = store.db;
  const own = db.transaction.bind(db);
  type Conn = Parameters<Parameters<typeof own>[0]>[0];
  const failing = (conn: Conn): Conn => ({
    all: (sql, args) => conn.all(sql, args),
    run: (sql, args) => {
      if (fails.left > 0 && sql.startsWith("UPDATE runs SET doubt = ?")) {
        fails.left--;
        const error = kind === "postgres" ? new Error("Connection terminated unexpectedly") : Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
        return Promise.reject(error);
      }
      return conn.run(sql, args);
    },
  });
  Object.defineProperty(db, "transaction", { value: (work: (conn: Conn) => Promise<unknown>) => own((conn) => work(failing(conn))), configurable: true });
  return fails;
}

for (const kind of KINDS) {
  describe(`the ${kind} store`, () => {
    it("saves a run, lists what it waits on, and resumes it once", async () => {
      const { store } = await fresh(kind);
      const run = await turn(["pay", "rent"], ["ask", "colour"]);
      const runId = await store.save(run);
      const waiting = await store.pending();
      assert.deepEqual(
        waiting.map((p) => [p.runId, p.position, p.request.prompt]),
        [
          [runId, 0, "pay rent?"],
          [runId, 1, "ask colour?"],
        ],
      );
      const first = waiting[0]!.request.id;
      const resumed = await store.resume(kit, runId, { id: first, ok: true });
      assert.equal(resumed.status, "pending");
      assert.deepEqual((await store.pending()).map((p) => p.request.prompt), ["ask colour?"]);
      await assert.rejects(store.resume(kit, runId, { id: first, ok: true }), (e: unknown) => ResumeError.isResumeError(e) && e.reason === "replayed");
      const done = await store.resume(kit, runId, { id: waiting[1]!.request.id, ok: true });
      assert.deepEqual(done.results.map((r) => r.result.output), ["did rent", "did colour"]);
      assert.equal((await store.get(runId))?.status, "done");
      assert.deepEqual(await store.ids("done"), [runId]);
      await store.close();
    });

    it("filters what waits by tool and kind, and pages it from where the last page ended", async () => {
      const { store } = await fresh(kind);
      for (let i = 0; i < 3; i++) {
        await store.save(await turn(["pay", `p${i}`], ["ask", `q${i}`]));
      }
      assert.deepEqual((await store.pending({ tool: "ask" })).map((p) => p.request.prompt), ["ask q0?", "ask q1?", "ask q2?"]);
      assert.deepEqual((await store.pending({ kind: "approval" })).map((p) => p.request.prompt), ["pay p0?", "pay p1?", "pay p2?"]);
      const page1 = await store.pending({ limit: 4 });
      const page2 = await store.pending({ limit: 4, after: page1.at(-1) });
      assert.deepEqual([...page1, ...page2].map((p) => p.request.prompt), ["pay p0?", "ask q0?", "pay p1?", "ask q1?", "pay p2?", "ask q2?"]);
      assert.deepEqual((await store.pending({ after: [page1[1]!.runId, 0] })).length, 5);
      await assert.rejects(store.pending({ limit: 0 }), /limit must be a positive whole number, got 0/);
      await store.close();
    });

    it("hands a run to one claimant at a time, and back on release", async () => {
      const { store } = await fresh(kind);
      const run = await turn(["pay", "rent"]);
      const runId = await store.save(run);
      const answer = { id: run.pending!.id, ok: true };
      const claim = await store.claim(runId, answer);
      await assert.rejects(store.claim(runId, answer), /is being answered by another process/);
      assert.deepEqual(await store.pending(), []);
      assert.equal(await store.renew(runId, claim.lease), true);
      assert.equal(await store.renew(runId, "not-the-lease"), false);
      await store.release(runId);
      const again = await store.claim(runId, answer);
      assert.notEqual(again.lease, claim.lease);
      await store.finish(runId, answer, await kit.resume(again.run, answer), { lease: again.lease });
      assert.equal((await store.get(runId))?.status, "done");
      await assert.rejects(store.finish(runId, answer, again.run, { lease: again.lease }), /run \d+ is not claimed under this lease/);
      await assert.rejects(store.claim(runId + 100, answer), /there is no run/);
      await store.close();
    });

    it("resumes a run once when two resumers race, on one connection or two", async () => {
      const { store, again } = await fresh(kind);
      const other = await again();
      for (const [a, b] of [
        [store, store],
        [store, other],
      ] as const) {
        const run = await turn(["pay", "once"]);
        const runId = await store.save(run);
        const answer = { id: run.pending!.id, ok: true };
        const before = ran.length;
        const outcomes = await Promise.allSettled([a.resume(kit, runId, answer), b.resume(new Toolkit([asking("pay")], { secret: KEY }), runId, answer)]);
        assert.deepEqual(outcomes.map((o) => o.status).sort(), ["fulfilled", "rejected"]);
        assert.equal(ran.length, before + 1);
        assert.equal((await other.get(runId))?.status, "done");
      }
      await other.close();
      await store.close();
    });

    it("keeps the host's context with the run until the host writes another", async () => {
      const { store } = await fresh(kind);
      const run = await turn(["pay", "a"], ["pay", "b"]);
      const runId = await store.save(run, { context: { messages: ["hi"] } });
      const [a, b] = run.requests!;
      const claim = await store.claim(runId, { id: a!.id, ok: true });
      assert.deepEqual(claim.context, { messages: ["hi"] });
      await store.release(runId);
      await store.resume(kit, runId, { id: a!.id, ok: true });
      assert.deepEqual((await store.get(runId))?.context, { messages: ["hi"] });
      await store.resume(kit, runId, { id: b!.id, ok: true }, { context: { messages: ["hi", "done"] } });
      assert.deepEqual((await store.get(runId))?.context, { messages: ["hi", "done"] });
      await assert.rejects(store.save(run, { context: "x".repeat(CONTEXT_LIMIT) }), /the context of run 0 of the batch is 1048578 bytes of JSON, over the limit of 1048576/);
      await assert.rejects(store.save(run, { context: { n: Number.NaN } }), /the context of run 0 of the batch is not JSON/);
      assert.deepEqual(await store.ids(), [runId]); // nothing stored by a failed save
      await store.close();
    });

    it("never runs a call in doubt again by itself; a retry runs it once, under the same key", async () => {
      const { store, raw: behind } = await fresh(kind);
      const run = await turn(["pay", "rent"]);
      const runId = await store.save(run);
      const answer = { id: run.pending!.id, ok: true };
      const claim = await store.claim(runId, answer);
      const calls = [{ call: { id: "c0", name: "pay", arguments: { what: "rent" } }, key: "idk-1" }];
      await store.started(runId, claim.lease, [answer], calls); // the tool starts, and its process dies
      await behind("UPDATE runs SET lease_until = 0 WHERE id = ?", runId);
      const [doubt] = await store.inDoubt();
      assert.deepEqual([doubt?.runId, doubt?.tool, doubt?.arguments, doubt?.idempotencyKey, doubt?.lease], [runId, "pay", { what: "rent" }, "idk-1", claim.lease]);
      assert.deepEqual(await store.pending(), []);
      assert.equal((await store.get(runId))?.status, "claimed");
      await assert.rejects(store.claim(runId, { id: "other", ok: true }), /has a call in doubt \(settle or retry it\)/);
      const before = ran.length;
      const other = new Toolkit([asking("pay"), asking("ask", "input")], { secret: KEY }); // another process's
      const done = await store.retry(other, runId, { principal: "ops" });
      assert.deepEqual(done.results.map((r) => r.result.output), ["did rent"]);
      assert.equal(ran.length, before + 1);
      assert.deepEqual(await store.inDoubt(), []);
      const [entry] = await store.log.entries();
      assert.deepEqual([entry?.["kind"], entry?.["by"], entry?.["run"], entry?.["idempotencyKey"]], ["retry", "ops", runId, "idk-1"]);
      await assert.rejects(store.retry(other, runId), /has no call in doubt/);
      await store.close();
    });

    it("marks the calls it starts, so a step cut off leaves them in doubt, and settles one without running it", async () => {
      const { store } = await fresh(kind);
      let die = true;
      const crashing = defineTool("pay", "", null, (_args, ctx) => (ctx.answer === undefined ? pending({ id: "", kind: "approval", prompt: "Pay?" }) : "paid"));
      const dying = new Toolkit([crashing], { secret: KEY, onProgress: () => undefined });
      const run = await dying.runCalls([{ id: "c0", name: "pay", arguments: {} }]);
      const runId = await store.save(run);
      // the tool's run is cut off after it started: the toolkit's resume throws past the tool
      const original = dying.resume.bind(dying);
      dying.resume = async (...args: Parameters<Toolkit["resume"]>) => {
        const out = await original(...args);
        if (die) {
          throw new Error("the process stopped");
        }
        return out;
      };
      await assert.rejects(store.resume(dying, runId, { id: run.pending!.id, ok: true }), /the process stopped/);
      const [doubt] = await store.inDoubt();
      assert.equal(doubt?.tool, "pay");
      assert.match(doubt?.idempotencyKey ?? "", /^idk-[0-9a-f]{32}$/);
      die = false;
      const settled = await store.settle(new Toolkit([crashing], { secret: KEY }), runId, "paid by hand");
      assert.deepEqual(settled.results.map((r) => r.result.output), ["paid by hand"]);
      const [entry] = await store.log.entries();
      assert.deepEqual([entry?.["kind"], entry?.["result"]], ["settle", "paid by hand"]);
      assert.equal((await store.log.head())?.seq, 1);
      await store.close();
    });

    it("runs no tool on a mark the database does not take, and gives the run back (issue #33)", async () => {
      // Marking the calls started (before a tool that is not idempotent runs) met the database's
      // error: tried again while a third of the lease lasts, then thrown by `resume` as that
      // error. No tool ran, the error is not a call's result, the run is pending again as it was,
      // and it resumes later, on the same answers, in this process too: the tools run once.
      const { store } = await fresh(kind, { lease: 3 }); // the mark tried again for 1 s: room for a loaded machine
      const fails = failingMarks(store, kind);
      const own = new Toolkit([asking("pay")], { secret: KEY });
      const [first, second] = await store.saveMany([await own.runCalls([{ id: "c0", name: "pay", arguments: { what: "A" } }]), await own.runCalls(["B", "C"].map((what, i) => ({ id: `c${i}`, name: "pay", arguments: { what } })))]);
      const [one, two, three] = await store.pending();
      const before = ran.length;
      fails.left = 2; // two misses, then it holds
      const done = await store.resume(own, first as number, { id: one!.request.id, ok: true });
      assert.deepEqual([done.status, done.results.map((r) => r.result.output), ran.length - before], ["done", ["did A"], 1]);
      fails.left = 1000;
      const answers = [two!, three!].map((p) => ({ id: p.request.id, ok: true }));
      await assert.rejects(store.resume(own, second as number, answers), kind === "postgres" ? /^Error: Connection terminated unexpectedly$/ : /^Error: database is locked$/);
      assert.equal(ran.length - before, 1, "no tool ran on a mark that failed, neither of the two");
      assert.equal((await store.get(second as number))?.status, "pending");
      assert.deepEqual(await store.inDoubt(), []);
      assert.deepEqual((await store.pending()).map((p) => p.runId), [second, second]);
      fails.left = 0;
      const again = await store.resume(own, second as number, answers);
      assert.deepEqual([again.status, again.results.map((r) => r.result.output), ran.length - before], ["done", ["did B", "did C"], 3]);
      const third = await store.save(await own.runCalls([{ id: "c0", name: "pay", arguments: { what: "D" } }]));
      const claim = await store.claim(third, { id: (await store.pending())[0]!.request.id, ok: true });
      const call = [{ call: { id: "c0", name: "pay", arguments: { what: "D" } }, key: "idk-1" }];
      assert.equal(await store.started(third, "not-the-lease", [], call), false); // a claim no longer held
      assert.equal(await store.started(third, claim.lease, [], call), true);
      await store.close();
    });

    it("keeps a call in doubt when the mark of its retry is not taken: it may have run before", async () => {
      const { store, raw: behind } = await fresh(kind, { lease: 3 });
      const run = await turn(["pay", "rent"]);
      const runId = await store.save(run);
      const answer = { id: run.pending!.id, ok: true };
      const claim = await store.claim(runId, answer);
      const calls = [{ call: { id: "c0", name: "pay", arguments: { what: "rent" } }, key: "idk-1" }];
      await store.started(runId, claim.lease, [answer], calls); // the tool starts, and its process dies
      await behind("UPDATE runs SET lease_until = 0 WHERE id = ?", runId);
      const [doubt] = await store.inDoubt();
      const fails = failingMarks(store, kind);
      fails.left = 1000;
      const before = ran.length;
      const other = new Toolkit([asking("pay")], { secret: KEY });
      await assert.rejects(store.retry(other, runId, { principal: "ops" }), kind === "postgres" ? /Connection terminated unexpectedly/ : /database is locked/);
      assert.equal(ran.length, before, "the tool did not run on a mark that failed");
      const [still] = await store.inDoubt();
      assert.deepEqual([still?.runId, still?.idempotencyKey, still?.startedAt], [runId, "idk-1", doubt?.startedAt], "still in doubt");
      assert.deepEqual(await store.pending(), []);
      assert.equal((await store.get(runId))?.status, "claimed");
      fails.left = 0;
      const done = await store.retry(other, runId, { principal: "ops" });
      assert.deepEqual([done.results.map((r) => r.result.output), ran.length - before], [["did rent"], 1]);
      await store.close();
    });

    it("settles what has expired, and sets aside a row that is not a valid run", async () => {
      const { store, raw: behind } = await fresh(kind);
      const when = new Date(Math.floor(Date.now() / 1000) * 1000 + 60_000);
      const soon = defineTool("soon", "", null, (_args, ctx) =>
        ctx.answer === undefined ? pending({ id: "", kind: "approval", prompt: "Go?", expiresAt: when.toISOString() }) : "went",
      );
      const expiring = new Toolkit([soon], { secret: KEY });
      const runId = await store.save(await expiring.runCalls([{ id: "c0", name: "soon", arguments: {} }]));
      assert.equal(await store.expiry(runId), when.getTime() / 1000);
      assert.deepEqual(await store.expire(expiring), []); // not yet
      assert.deepEqual(await store.expire(expiring, { now: when.getTime() + 1000 }), [runId]);
      const stored = await store.get(runId);
      assert.equal(stored?.status, "done");
      assert.match(stored?.run?.results[0]?.result.output ?? "", /^declined\/expired: Go\?/);

      const bad = await store.save(await turn(["pay", "x"]));
      await behind("UPDATE runs SET body = '{not json' WHERE id = ?", bad);
      await assert.rejects(store.claim(bad, { id: "x", ok: true }), (e: unknown) => ResumeError.isResumeError(e) && e.reason === "seal" && /is quarantined/.test(e.message));
      assert.equal((await store.get(bad))?.status, "quarantined");
      assert.deepEqual((await store.quarantined()).map(([id]) => id), [bad]);
      await store.close();
    });

    if (kind === "postgres") {
      it("notifies toolnexus_runs with the run's id in each write of an outcome, a refusal or a quarantine, and in no claim or release to pending", async () => {
        const { store, path, raw: behind } = await fresh(kind);
        const [a, b, c, d] = [await turn(["pay", "a"]), await turn(["pay", "b"]), await turn(["pay", "c"]), await turn(["pay", "d"])];
        const ids = await store.saveMany([a, b, c, d]);
        const [ia, ib, ic, id] = ids as [number, number, number, number];
        const heard: string[] = [];
        await onPostgres(path, async (client) => {
          client.on("notification", (note) => heard.push(`${note.channel} ${note.payload ?? ""}`));
          await client.query("LISTEN toolnexus_runs");
          await store.claim(ia, { id: a.pending!.id, ok: true });
          await store.release(ia); // back to pending: no outcome
          const claim = await store.claim(ia, { id: a.pending!.id, ok: true });
          await store.finish(ia, { id: a.pending!.id, ok: true }, await new Toolkit([asking("pay"), asking("ask", "input")], { secret: KEY }).resume(claim.run, [{ id: a.pending!.id, ok: true }]), { lease: claim.lease });
          await store.claim(ib, { id: b.pending!.id, ok: true });
          await store.release(ib, "refused", { reason: "tampered" });
          await behind("UPDATE runs SET body = '{not json' WHERE id = ? OR id = ?", ic, id);
          await assert.rejects(store.claim(ic, { id: c.pending!.id, ok: true }), /is quarantined/);
          assert.equal((await store.get(id))?.status, "quarantined");
          for (let i = 0; i < 1000 && heard.length < 4; i++) {
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        });
        assert.deepEqual(heard, [ia, ib, ic, id].map((n) => `toolnexus_runs ${n}`));
        await store.close();
      });
    }

    if (kind === "postgres") {
      for (const how of ["terminated", "killed"] as const) {
        it(`opens again a connection the server dropped while idle (${how}): a read, and a transaction at its BEGIN (issue #33)`, async () => {
          // The server ended the store's idle connections between two calls: with a goodbye
          // (pg_terminate_backend) or without one (a backend killed: the cluster in recovery for a
          // moment, refusing connections). The next read and the next resume open new ones.
          const { path } = await fresh(kind);
          const name = `ts_drop_${process.pid}_${++files}`;
          const store = await PostgresRunStore.open(`${path} application_name=${name}`, { lease: 2 });
          const own = new Toolkit([asking("pay")], { secret: KEY });
          const ids = await store.saveMany([await own.runCalls([{ id: "c0", name: "pay", arguments: { what: "A" } }]), await own.runCalls([{ id: "c0", name: "pay", arguments: { what: "B" } }])]);
          const [first, second] = await store.pending();
          const drop = async (): Promise<void> => {
            const found = (await onPostgres(path, (c) => c.query("SELECT pid FROM pg_stat_activity WHERE application_name = $1", [name]))) as { rows: { pid: number }[] };
            const pids = found.rows.map((r) => r.pid);
            assert.ok(pids.length > 0, "the store has a connection to drop");
            if (how === "terminated") {
              await onPostgres(path, (c) => c.query("SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE application_name = $1", [name]));
              return;
            }
            process.kill(pids[0] as number, "SIGKILL");
            for (const until = Date.now() + 10_000; Date.now() < until; ) {
              try {
                process.kill(pids[0] as number, 0); // gone once the postmaster reaped it
              } catch {
                break;
              }
              await new Promise((resolve) => setTimeout(resolve, 5));
            }
            // The postmaster ends every other backend too and recovers: wait until it takes a new
            // connection, so that what follows (this test's calls and the next tests') meets a
            // server that is up; the store's own connections stay dead.
            for (const until = Date.now() + 20_000; ; ) {
              try {
                await onPostgres(path, (c) => c.query("SELECT 1"));
                return;
              } catch (error) {
                if (Date.now() > until) {
                  throw error;
                }
                await new Promise((resolve) => setTimeout(resolve, 50));
              }
            }
          };
          await drop();
          assert.deepEqual((await store.pending()).map((p) => p.runId), ids, "the read after the drop reconnects");
          await drop();
          assert.equal((await store.resume(own, first!.runId, { id: first!.request.id, ok: true })).status, "done");
          assert.deepEqual((await store.pending()).map((p) => p.runId), [second!.runId]);
          await store.close();
        });
      }
    }

    if (kind === "postgres") {
      it("brings tables of version 5 up to 6: whose run and which session (NULL for the runs kept before), their indexes, the kept results", async () => {
        const { store, again, raw: behind } = await fresh(kind);
        const runId = await store.save(await turn(["pay", "a"]), { principal: "alice" });
        await store.close();
        for (const statement of ["DROP INDEX waiting_principal", "DROP INDEX waiting_session", "DROP TABLE results", "UPDATE toolnexus_schema SET version = 5"]) {
          await behind(statement);
        }
        for (const table of ["runs", "waiting"]) {
          await behind(`ALTER TABLE ${table} DROP COLUMN principal, DROP COLUMN session`);
        }
        const opened = await again();
        assert.deepEqual((await opened.pending()).map((p) => p.runId), [runId]);
        assert.deepEqual(await opened.pending({ principal: "alice" }), []); // kept before: saved with no principal
        const later = await opened.save(await turn(["pay", "b"]), { principal: "alice", session: "s" });
        assert.deepEqual((await opened.pending({ principal: "alice", session: "s" })).map((p) => p.runId), [later]);
        await opened.close();
        await behind("INSERT INTO results (scope, ref, body, kept_at) VALUES ('s', 'r', 'kept', 0)"); // the table is there
        await behind("DO $$ BEGIN IF (SELECT version FROM toolnexus_schema) <> 6 OR to_regclass('waiting_principal') IS NULL OR to_regclass('waiting_session') IS NULL THEN RAISE 'not version 6'; END IF; END $$");
      });
    }

    it("keeps whose run and which session it is, and lists the requests by them, as the outcome's write keeps them", async () => {
      const { store } = await fresh(kind);
      const alices = await store.save(await turn(["pay", "a"], ["ask", "b"]), { principal: "alice", session: "s1" });
      const [bobs, nobodys] = await store.saveMany([await turn(["pay", "c"]), await turn(["pay", "d"])], { principals: ["bob", null], sessions: ["s1", undefined] });
      const prompts = async (options: Parameters<RunStore["pending"]>[0]) => (await store.pending(options)).map((p) => p.request.prompt);
      assert.deepEqual(await prompts({ principal: "alice" }), ["pay a?", "ask b?"]);
      assert.deepEqual(await prompts({ session: "s1" }), ["pay a?", "ask b?", "pay c?"]);
      assert.deepEqual(await prompts({ principal: "bob", session: "s1" }), ["pay c?"]);
      assert.deepEqual(await prompts({ principal: "alice", tool: "ask" }), ["ask b?"]);
      assert.deepEqual(await prompts({ principal: "carol" }), []);
      assert.deepEqual([(await store.get(alices))?.principal, (await store.get(alices))?.session], ["alice", "s1"]);
      assert.deepEqual([(await store.get(nobodys as number))?.principal, (await store.get(nobodys as number))?.session], [null, null]);
      assert.equal((await store.get(bobs as number))?.principal, "bob");
      const [first] = await store.pending({ principal: "alice" });
      await store.resume(kit, alices, { id: first?.request.id ?? "", ok: true }); // the rest waits under the same names
      assert.deepEqual(await prompts({ principal: "alice", session: "s1" }), ["ask b?"]);
      await assert.rejects(store.pending({ principal: 7 as unknown as string }), /principal must be a string, got 7/);
      await assert.rejects(store.save(await turn(["pay", "e"]), { session: 1 as unknown as string }), /the session of run 0 of the batch is 1, not a string/);
      await assert.rejects(store.saveMany([await turn(["pay", "f"])], { principals: [] }), /saveMany got 1 runs and 0 principals/);
      await store.close();
    });

    it("verifies its decision log as Python does: a changed entry, one removed, one past the head, a forged head", async () => {
      const { store, raw } = await fresh(kind);
      assert.equal(await store.log.verify(), null); // an empty log holds
      assert.equal(await store.log.verify(KEY), null);
      store.log.useKey("k1", KEY);
      const decided = (call: string) => ({ kind: "approve", tool: "pay", call, request: null, arguments: { amount: 5, "é": "ü", z: [1.5, null] }, run: 1 });
      await store.log.recordEntries([decided("c1"), decided("c2")], { principal: "ann", at: Date.UTC(2026, 0, 1) });
      assert.equal(await store.log.verify(), null);
      assert.equal(await store.log.verify(KEY), null);
      assert.equal(await store.log.verify({ k1: KEY }), null);
      assert.equal(await store.log.verify({ k2: KEY }), 1); // a key id it does not know
      assert.equal(await store.log.verify(new TextEncoder().encode("another key of sixteen bytes")), 1);
      const [first] = await store.log.entries();
      await raw("UPDATE decisions SET entry = ? WHERE seq = 1", JSON.stringify({ ...first, by: "mallory" }));
      assert.equal(await store.log.verify(), 1);
      await raw("UPDATE decisions SET entry = ? WHERE seq = 1", JSON.stringify(first));
      assert.equal(await store.log.verify(KEY), null);
      const kept = await store.log.head();
      await store.log.recordEntries([decided("c3")], { principal: "bob", at: Date.UTC(2026, 0, 2) });
      assert.equal(await store.log.verify(KEY), null);
      assert.equal(await store.log.verify(KEY, { head: kept }), 3); // past the head kept elsewhere
      await raw("DELETE FROM decisions WHERE seq = 3");
      assert.equal(await store.log.verify(), 3); // removed from the end
      await raw("DELETE FROM decisions WHERE seq = 1");
      assert.equal(await store.log.verify(), 2); // removed before another
      await assert.rejects(store.log.verify("k1" as unknown as Uint8Array), (e: unknown) => e instanceof StoreError && /^verify's key must be/.test(e.message));
      await store.close();
    });

    it("keeps a toolkit's policies and logs its decisions (store.policies, store.log), seen by another store on the tables", async () => {
      const { store, again } = await fresh(kind);
      const gated = defineTool("gated", "", null, () => "ran", { needsApproval: true });
      const own = new Toolkit([gated], { secret: KEY, policyStore: store.policies, decisionLog: store.log });
      const runId = await store.save(await own.runCalls([{ id: "g1", name: "gated", arguments: {} }]));
      const [waiting] = await store.pending();
      await store.resume(own, runId, { id: waiting?.request.id ?? "", ok: true, scope: "tool" }, { principal: "ann" });
      const other = await again();
      const [policy] = await other.policies.policies("gated");
      assert.deepEqual([policy?.tool, policy?.approve, policy?.scope, policy?.madeBy], ["gated", true, "tool", "ann"]);
      assert.deepEqual(await other.policies.policies("another"), []);
      const next = new Toolkit([gated], { secret: KEY, policyStore: other.policies, decisionLog: other.log });
      assert.equal((await next.runCalls([{ id: "g2", name: "gated", arguments: {} }])).status, "done", "decided by the kept policy, unasked");
      const entries = await store.log.entries();
      assert.deepEqual(entries.map((e) => [e["kind"], e["call"], e["by"], e["policy"] === null]), [["approve", "g1", "ann", true], ["approve", "g2", null, false]]);
      assert.equal(await store.log.verify(), null);
      assert.deepEqual([await store.log.verify(KEY), (await store.log.head())?.key], [null, "default"], "the toolkit handed its key to the log");
      assert.equal(await next.revokePolicy(policy?.id ?? ""), true);
      assert.equal(await own.revokePolicy(policy?.id ?? ""), false);
      assert.deepEqual(await own.policies(), []);
      assert.equal((await own.runCalls([{ id: "g3", name: "gated", arguments: {} }])).status, "pending", "revoked: asked again");
      await other.close();
      await store.close();
    });

    for (const [table, scope] of [["decisions", undefined], ["decisions", "tool"], ["policies", "tool"]] as const) {
      it(`takes no decision whose ${table} write fails (scope ${scope ?? "once"}): the run is pending again, nothing of it kept, the answer taken later once`, async () => {
        const { store, raw: behind } = await fresh(kind);
        const runs: string[] = [];
        const refund = defineTool("refund", "", null, () => (runs.push("ran"), "refunded"), { needsApproval: true });
        const own = new Toolkit([refund], { secret: KEY, policyStore: store.policies, decisionLog: store.log });
        const runId = await store.save(await own.runCalls([{ id: "c1", name: "refund", arguments: { amount: 5 } }]));
        const [waiting] = await store.pending();
        const answer = { id: waiting?.request.id ?? "", ok: true, ...(scope === undefined ? {} : { scope }) };
        if (kind === "postgres") {
          await behind("CREATE FUNCTION full_disk() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk is full'; END $$ LANGUAGE plpgsql");
          await behind(`CREATE TRIGGER disk_full BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION full_disk()`);
        } else {
          await behind(`CREATE TRIGGER disk_full BEFORE INSERT ON ${table} BEGIN SELECT RAISE(FAIL, 'disk is full'); END`);
        }
        await assert.rejects(store.resume(own, runId, answer), /disk is full/);
        assert.deepEqual([runs, (await store.get(runId))?.status, await store.log.entries(), await store.policies.policies()], [[], "pending", [], []], "no half of the unit");
        await behind(kind === "postgres" ? `DROP TRIGGER disk_full ON ${table}` : "DROP TRIGGER disk_full");
        const done = await store.resume(own, runId, answer);
        assert.equal(done.results[0]?.result.output, "refunded");
        assert.deepEqual(runs, ["ran"]);
        assert.deepEqual((await store.log.entries()).map((e) => e["kind"]), ["approve"]);
        assert.equal(await store.log.verify(), null);
        assert.equal((await store.policies.policies()).length, scope === undefined ? 0 : 1);
        await store.close();
      });
    }

    it("wait hears an outcome written by another store on the tables, or by itself, and ends at its timeout", async () => {
      const { store, again } = await fresh(kind);
      const runId = await store.save(await turn(["pay", "rent"], ["ask", "colour"]));
      const [first, second] = await store.pending();
      const other = await again(); // as another process would
      const started = Date.now();
      const heard = store.wait(runId, 20);
      await sleep(100);
      await other.resume(new Toolkit([asking("pay"), asking("ask", "input")], { secret: KEY }), runId, { id: first!.request.id, ok: true });
      const moved = await heard;
      assert.ok(Date.now() - started < 10_000, "heard before the timeout");
      assert.equal(moved?.status, "pending");
      assert.deepEqual((await store.pending()).map((w) => w.request.id), [second!.request.id]);
      const ownHeard = store.wait(runId, 20);
      await sleep(100);
      await store.resume(kit, runId, { id: second!.request.id, ok: true }); // this store's own commit
      assert.equal((await ownHeard)?.status, "done");
      const quiet = await store.save(await turn(["pay", "gas"]));
      const before = Date.now();
      assert.equal(await store.wait(quiet, 0.3), undefined);
      assert.ok(Date.now() - before >= 250, "waited its timeout");
      await other.close();
      await store.close();
    });

    it("wait: a claim or a release is no outcome, a final run or one unlike `since` is returned at once, and bad input is named", async () => {
      const { store } = await fresh(kind);
      const saved = await turn(["pay", "rent"]);
      const runId = await store.save(saved);
      const [waiting] = await store.pending();
      const quiet = store.wait(runId, 0.4);
      const claimed = await store.claim(runId, { id: waiting!.request.id, ok: true });
      await store.release(runId);
      assert.ok(claimed.lease !== "");
      assert.equal(await quiet, undefined, "a claim handed back is not an outcome");
      await store.resume(kit, runId, { id: waiting!.request.id, ok: true });
      const started = Date.now();
      assert.equal((await store.wait(runId, 20))?.status, "done"); // final: at once
      const other = await store.save(await turn(["pay", "phone"]));
      const [asked] = await store.pending();
      const old = (await store.get(other))!.run!;
      await store.resume(kit, other, { id: asked!.request.id, ok: true });
      assert.equal((await store.wait(other, 20, { since: old }))?.status, "done"); // unlike `since`: at once
      assert.ok(Date.now() - started < 5_000);
      await assert.rejects(store.wait(99_999, 1), (e: unknown) => ResumeError.isResumeError(e) && e.reason === "not_pending" && /no run 99999/.test(e.message));
      for (const timeout of [-1, Number.NaN, "1" as unknown as number]) {
        await assert.rejects(store.wait(runId, timeout), (e: unknown) => e instanceof StoreError && /^timeout must be a number of seconds/.test(e.message));
      }
      await assert.rejects(store.wait(runId, 1, { poll: 0 }), (e: unknown) => e instanceof StoreError && /^poll must be a positive number/.test(e.message));
      await store.close();
    });

    it("store.results keeps a text per scope and reference, as Python's scope_key writes the key, and purges by kept_at", async () => {
      const { store, again } = await fresh(kind);
      const results = store.results;
      assert.ok(results instanceof StoredResults);
      const alice = { principal: "alice", session: "s1" };
      const before = Date.now() / 1000;
      await results.put(alice, "result-0123456789abcdef", "the whole output é😀");
      const keptAt = Date.now() / 1000;
      const other = await again(); // another process on the same tables
      assert.equal(await other.results.get(alice, "result-0123456789abcdef"), "the whole output é😀");
      for (const scope of [{ principal: "alice" }, { session: "s1" }, { principal: "bob", session: "s1" }, { principal: "alice", session: "s2" }, {}]) {
        assert.equal(await other.results.get(scope, "result-0123456789abcdef"), undefined, `${JSON.stringify(scope)} reads nothing`);
      }
      assert.equal(await other.results.get(alice, "result-fedcba9876543210"), undefined);
      await results.put({ principal: "ü \"q\"\n" }, "r", "");
      assert.equal(await other.results.get({ principal: "ü \"q\"\n" }, "r"), "", "an empty text is kept, not taken for none");
      const rows = await store.db.read().all("SELECT scope, ref, body, kept_at FROM results ORDER BY ref DESC");
      assert.deepEqual(rows.map((r) => [r[0], r[1], r[2]]), [
        ['["alice", "s1"]', "result-0123456789abcdef", "the whole output é😀"],
        ['["ü \\"q\\"\\n", null]', "r", ""],
      ]);
      const at = Number(rows[0]![3]);
      assert.ok(at >= before - 0.001 && at <= keptAt + 0.001, `kept_at ${at} is the Unix time in seconds it was kept (${before} to ${keptAt})`);
      await sleep(20);
      await other.results.put(alice, "result-0123456789abcdef", "replaced");
      assert.equal(await results.get(alice, "result-0123456789abcdef"), "replaced");
      const [[again_]] = (await store.db.read().all("SELECT kept_at FROM results WHERE ref = 'result-0123456789abcdef'")) as [[unknown]];
      assert.ok(Number(again_) > at, "a replaced result's kept_at is when it was replaced");
      assert.equal(await results.purge(Number(again_)), 1, "only the one kept before is forgotten");
      assert.equal(await results.get({ principal: "ü \"q\"\n" }, "r"), undefined);
      assert.equal(await results.get(alice, "result-0123456789abcdef"), "replaced");
      assert.equal(await other.results.purge(Number(again_) + 1), 1);
      assert.equal(await results.purge(Number(again_) + 1), 0);
      await other.close();
      await store.close();
    });

    it("store.results refuses text the database cannot keep, a bad scope and a bad purge time, and keeps nothing then", async () => {
      const { store } = await fresh(kind);
      const refused = (pattern: RegExp) => (e: unknown) => e instanceof StoreError && pattern.test(e.message);
      await assert.rejects(store.results.put({}, "r", "half \ud800 a pair"), refused(/^the text to keep has a lone surrogate/));
      await assert.rejects(store.results.put({ session: "\udfff" }, "r", "t"), refused(/^the scope's session has a lone surrogate/));
      await assert.rejects(store.results.get({}, "\ud83d"), refused(/^the reference has a lone surrogate/));
      await assert.rejects(store.results.put(null as never, "r", "t"), refused(/^a kept result's scope is an object of principal and session, got null/));
      await assert.rejects(store.results.put({}, "r", 7 as never), refused(/^the text to keep must be a string, got number/));
      await assert.rejects(store.results.purge("1" as never), refused(/^purge takes a Unix time in seconds, got string/));
      await assert.rejects(store.results.purge(Number.NaN), refused(/got NaN/));
      assert.deepEqual(await store.db.read().all("SELECT count(*) FROM results"), [[kind === "postgres" ? "0" : 0]]);
      await store.close();
    });

    it("a toolkit with spill: store.results keeps a cut output whole, and read_result pages through it from another store", async () => {
      const { store, again } = await fresh(kind);
      const log = Array.from({ length: 120 }, (_, i) => `[${String(i + 1).padStart(3, "0")}] compiled module_${i + 1}.py\n`).join("");
      const build = defineTool("build", "Run the build", null, () => log, { limit: { chars: 700 } });
      const writer = new Toolkit([build, readResult], { secret: KEY, spill: store.results });
      const done = await writer.runCalls([{ id: "c1", name: "build", arguments: {} }], { turnId: "turn-1", session: "s-1" });
      const cut = done.results[0]!.result.metadata!["truncated"] as { ref: string; size: { chars: number } };
      assert.equal(cut.ref, "result-ba9b52d8b8d63c12"); // as Python names the same turn's call
      assert.equal(cut.size.chars, 3372);
      const other = await again();
      const reader = new Toolkit([build, readResult], { secret: KEY, spill: other.results });
      const page = await reader.runCalls([{ id: "c2", name: "read_result", arguments: { ref: cut.ref, offset: 0, length: 60 } }], { session: "s-1" });
      assert.equal(page.results[0]!.result.output, `[${cut.ref}: characters 0 to 60 of 3372]\n${log.slice(0, 60)}`);
      const elsewhere = await reader.runCalls([{ id: "c3", name: "read_result", arguments: { ref: cut.ref } }], { session: "s-2" });
      assert.equal(elsewhere.results[0]!.result.isError, true, "another session reads nothing under the reference");
      assert.equal(await other.results.get({ session: "s-1" }, cut.ref), log);
      await other.close();
      await store.close();
    });
  });
}

describe("a store's clock", () => {
  it("is what leases and the rows' times are read against, and must be a function", async () => {
    const path = join(folder, `runs-${++files}.sqlite3`);
    let now = 1_000_000;
    const store = await SqliteRunStore.open(path, { lease: 30, clock: () => now });
    const runId = await store.save(await turn(["pay", "rent"]));
    const [waiting] = await store.pending();
    await store.claim(runId, { id: waiting!.request.id, ok: true });
    const db = new Database(path);
    assert.deepEqual(db.prepare("SELECT updated_at, lease_until FROM runs WHERE id = ?").get(runId), { updated_at: 1_000_000, lease_until: 1_000_030 });
    db.close();
    now += 29; // the lease holds by the store's clock, whatever the real time is
    assert.equal((await store.get(runId))?.status, "claimed");
    assert.deepEqual(await store.pending(), []);
    now += 2;
    assert.equal((await store.get(runId))?.status, "pending");
    assert.equal((await store.pending()).length, 1);
    await store.close();
    for (const clock of [5, null, "now"]) {
      await assert.rejects(
        SqliteRunStore.open(path, { clock: clock as unknown as () => number }),
        (e: unknown) => e instanceof StoreError && /^clock must be a function returning a Unix time in seconds, got /.test(e.message),
      );
    }
  });
});

describe("SqliteRunStore's file", () => {
  it("names the path it cannot open, and refuses a file of a newer schema naming both versions", async () => {
    const missing = join(folder, "no", "such", "dir", "runs.sqlite3");
    await assert.rejects(SqliteRunStore.open(missing), (e: unknown) => e instanceof StoreError && e.message.startsWith(`cannot open the SQLite store '${missing}': `));
    const { store, path } = await fresh();
    await store.close();
    const db = new Database(path);
    db.pragma("user_version = 9");
    db.close();
    await assert.rejects(SqliteRunStore.open(path), /the SQLite store '.*' has schema version 9, newer than this toolnexus's 6: open it with a newer toolnexus/);
  });

  it("brings a store of version 4 up to 6: the waiting requests get their tool and kind", async () => {
    const { store, path } = await fresh();
    const runId = await store.save(await turn(["pay", "a"], ["ask", "b"]));
    await store.close();
    const db = new Database(path);
    for (const statement of ["DROP INDEX waiting_tool", "DROP INDEX waiting_kind", "ALTER TABLE waiting DROP COLUMN tool", "ALTER TABLE waiting DROP COLUMN kind"]) {
      db.prepare(statement).run();
    }
    db.pragma("user_version = 4");
    db.close();
    const opened = await SqliteRunStore.open(path);
    assert.deepEqual((await opened.pending({ tool: "ask" })).map((p) => [p.runId, p.request.prompt]), [[runId, "ask b?"]]);
    assert.deepEqual((await opened.pending({ kind: "approval" })).map((p) => p.request.prompt), ["pay a?"]);
    await opened.close();
    const check = new Database(path);
    assert.equal(check.pragma("user_version", { simple: true }), 6);
    check.close();
  });

  it("brings a store of version 5 up to 6: whose run and which session (NULL for the runs kept before), their indexes, the kept results", async () => {
    const { store, path } = await fresh();
    const runId = await store.save(await turn(["pay", "a"]), { principal: "alice" });
    await store.close();
    const db = new Database(path);
    const version5 = ["DROP INDEX waiting_principal", "DROP INDEX waiting_session", "DROP TABLE results"];
    for (const table of ["runs", "waiting"]) {
      version5.push(`ALTER TABLE ${table} DROP COLUMN principal`, `ALTER TABLE ${table} DROP COLUMN session`);
    }
    for (const statement of version5) {
      db.prepare(statement).run();
    }
    db.pragma("user_version = 5");
    db.close();
    const opened = await SqliteRunStore.open(path);
    assert.deepEqual((await opened.pending()).map((p) => p.runId), [runId]);
    assert.deepEqual(await opened.pending({ principal: "alice" }), []); // kept before: saved with no principal
    const later = await opened.save(await turn(["pay", "b"]), { principal: "alice", session: "s" });
    assert.deepEqual((await opened.pending({ principal: "alice", session: "s" })).map((p) => p.runId), [later]);
    await opened.close();
    const check = new Database(path);
    assert.equal(check.pragma("user_version", { simple: true }), 6);
    const names = (check.pragma("table_info(waiting)") as { name: string }[]).map((c) => c.name);
    assert.deepEqual(names.slice(-2), ["principal", "session"]);
    const made = check.prepare("SELECT name FROM sqlite_master WHERE name IN ('waiting_principal', 'waiting_session', 'results', 'results_kept') ORDER BY name").all() as { name: string }[];
    assert.deepEqual(made.map((r) => r.name), ["results", "results_kept", "waiting_principal", "waiting_session"]);
    check.close();
  });
});

describe("PostgresRunStore", () => {
  it("names the host, port and database it cannot reach, never the password", async () => {
    for (const dsn of ["postgresql://alice:s3cret-pw@127.0.0.1:1/orders", "host=127.0.0.1 port=1 dbname=orders user=alice password=s3cret-pw"]) {
      await assert.rejects(PostgresRunStore.open(dsn, { timeout: 2 }), (e: unknown) => {
        assert.ok(e instanceof StoreError);
        assert.match(e.message, /^cannot connect to the PostgreSQL store at host 127\.0\.0\.1 port 1 database orders \(user alice\): /);
        assert.doesNotMatch(e.message, /s3cret-pw/);
        return true;
      });
    }
    await assert.rejects(PostgresRunStore.open("host=x sslcert=/a"), /the PostgreSQL DSN's key 'sslcert' is not one PostgresRunStore reads/);
  });
});
