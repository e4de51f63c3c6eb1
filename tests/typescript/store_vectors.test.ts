// The store vectors (idl/store/*.json, format in idl/store/README.md) on the TypeScript stores:
// SqliteRunStore always, PostgresRunStore too when $TOOLNEXUS_TEST_POSTGRES is a DSN (each vector
// in a schema of its own), the way tests/store_vectors.py runs them on Python's. The scripted
// tools, the loop checks (`status`, `results`, `waiting`, `ran`) and the answers are the loop
// vectors' (loop_vectors.ts).
//
// The store and the toolkit read the vectors' clock (the store's `clock`, in seconds), which an
// `at` step moves forward. The toolkit keeps its policies and logs its decisions in the store
// (`store.policies`, `store.log`, under the toolkit's key), as Python's runner has it.
//
// Steps while a tool runs (`while`) and a host that stops there (`crash`), as Python's runner
// takes them: the first handler of the resume awaits the inner steps (`Script.during`); for a
// crash it then never returns, and the host's wrapper of the tool's `call` rejects with `Crash`
// instead, which crosses the tool and the resume as a cancellation does in Python (the store's
// lease ends there, its renewal stops, and the abandoned handler holds no timer: nothing of that
// resume writes later). The host then goes on with a toolkit of its own, as a new process would.
// A retry or a settlement is a person's, from a host of its own: a toolkit of its own (the one
// that resumes refuses answers it took itself as `replayed`), logging to the same decisions.

import assert from "node:assert/strict";
import { readdirSync, readFileSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { ParsedRunResult, RunResult, ToolCall } from "toolnexus-contract";
import { ResumeError, Toolkit, type DecisionLog, type PolicyStore } from "toolnexus-contract/runtime";
import { OutcomeNotStored, POSTGRES_SCHEMA_VERSION, PendingRequest, PostgresRunStore, SQLITE_SCHEMA_VERSION, SqliteRunStore, StoreError, type RunStore } from "toolnexus-contract/store";
import * as lv from "./loop_vectors.js";
import { ROOT } from "./paths.js";

const STORE = join(ROOT, "idl", "store");
const POSTGRES = process.env["TOOLNEXUS_TEST_POSTGRES"];
const KINDS = POSTGRES ? (["sqlite", "postgres"] as const) : (["sqlite"] as const);

/** The vectors left out, and why: what each needs that the TypeScript store lacks. */
const SKIPPED: Record<string, string> = {};

interface StoreStep {
  do: string;
  as?: string;
  run?: string;
  calls?: ToolCall[];
  runs?: StoreStep[];
  turn?: { id?: string; expiresIn?: number; principal?: string };
  principal?: string;
  session?: string;
  tool?: string;
  kind?: string;
  claim?: number;
  limit?: number;
  after?: string;
  context?: unknown;
  contextBytes?: number;
  answers?: lv.AnswerSpec[];
  status?: "pending" | "refused";
  reason?: string;
  body?: string;
  set?: { at: string; set: null }[];
  seq?: number;
  remove?: number;
  schemaVersion?: number;
  at?: number;
  /** What a `settle` says the call in doubt returned. */
  result?: unknown;
  /** The host stops while the first tool of the resume runs. */
  crash?: boolean;
  /** Steps taken while the first tool of the resume runs. */
  while?: StoreStep[];
  expect?: Record<string, unknown>;
}

/** The host stops while a tool runs (`crash`): what the tool's `call` rejects with, across the
 * resume. */
class Crash extends Error {
  override name = "Crash";
}

interface StoreVector {
  lease?: number;
  tools: lv.ToolSpec[];
  steps: StoreStep[];
}

type Got = Record<string, unknown> & { error?: string; message?: string };

const folder = mkdtempSync(join(tmpdir(), "toolnexus-store-vectors-"));
after(() => rmSync(folder, { recursive: true, force: true }));
let made = 0;

interface Raw {
  prepare(sql: string): { run(...args: unknown[]): unknown };
  pragma(text: string): unknown;
  close(): void;
}
const require_ = createRequire(import.meta.url);
const Database = require_("better-sqlite3") as new (path: string) => Raw;
interface PgClient {
  connect(): Promise<void>;
  query(text: string, values?: unknown[]): Promise<unknown>;
  end(): Promise<void>;
}
const pg = require_("pg") as { Client: new (config: Record<string, unknown>) => PgClient };

/** A database of the vector's own: how to open a store on it, and how to write to it behind its back. */
interface Place {
  open(lease: number, clock: () => number): Promise<RunStore>;
  behind(sql: string, args: (string | number)[]): Promise<void>;
  version(n: number): Promise<void>;
}

async function onPostgres(dsn: string, work: (client: PgClient) => Promise<unknown>): Promise<void> {
  const keys = Object.fromEntries([...dsn.matchAll(/(\w+)=('[^']*'|\S+)/g)].map((m) => [m[1] === "dbname" ? "database" : m[1], (m[2] as string).replace(/^'|'$/g, "")]));
  const client = new pg.Client(keys);
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

async function place(kind: "sqlite" | "postgres"): Promise<Place> {
  if (kind === "postgres") {
    const schema = `tsv_${process.pid}_${++made}`;
    await onPostgres(POSTGRES ?? "", (c) => c.query(`CREATE SCHEMA ${schema}`));
    const dsn = `${POSTGRES ?? ""} options='-c search_path=${schema}'`;
    const behind = (sql: string, args: (string | number)[]): Promise<void> => {
      let n = 0;
      return onPostgres(dsn, (c) => c.query(sql.replace(/\?/g, () => `$${++n}`), args));
    };
    return { open: (lease, clock) => PostgresRunStore.open(dsn, { lease, clock }), behind, version: (n) => behind("UPDATE toolnexus_schema SET version = ?", [n]) };
  }
  const path = join(folder, `runs-${++made}.sqlite3`);
  const behind = (sql: string, args: (string | number)[]): Promise<void> => {
    const db = new Database(path);
    db.prepare(sql).run(...args);
    db.close();
    return Promise.resolve();
  };
  return {
    open: (lease, clock) => SqliteRunStore.open(path, { lease, clock }),
    behind,
    version: (n) => {
      const db = new Database(path);
      db.pragma(`user_version = ${n}`);
      db.close();
      return Promise.resolve();
    },
  };
}

function outcome(run: RunResult | ParsedRunResult): Got {
  const calls = run.calls ?? [];
  return { status: run.status, results: run.results, waiting: (run.requests ?? []).map((r, i) => [calls[i], r]) };
}

function contextOf(spec: StoreStep): unknown {
  return spec.contextBytes !== undefined ? "x".repeat(spec.contextBytes - 2) : (spec.context ?? null);
}

/** One vector's steps on one store (tests/store_vectors.py's `Host`, for the steps it can take). */
class Host {
  readonly clock = new lv.Clock();
  readonly script: lv.Script;
  kit: Toolkit;
  readonly runs = new Map<string, number>();
  readonly claims = new Map<string, { run: ParsedRunResult; lease: string; answers: ReturnType<typeof lv.answersOf> }[]>();
  page: PendingRequest[] = [];
  /** The store, on the vectors' clock (`opened` opens it). */
  store!: RunStore;
  /** Whether `store` is open (a `reopen` refused leaves none). */
  open = false;
  readonly checker: lv.Checker;
  /** Rejects with `Crash` when the tool running in a `crash` step stops (see `cutShort`). */
  crashing: Promise<never> | undefined;

  constructor(
    readonly name: string,
    readonly vector: StoreVector,
    readonly where: Place,
    readonly ownVersion: number,
  ) {
    this.script = new lv.Script(vector as unknown as lv.Vector, this.clock.now);
    this.kit = this.toolkit();
    this.checker = new lv.Checker(name);
  }

  /** A toolkit of the vector's tools, its policies and log the open store's (`store.policies`,
   * `store.log`: the one open when it writes, after a `reopen` too); each tool's `call` rejects
   * with `Crash` when the host stops while it runs. */
  toolkit(): Toolkit {
    const tools = this.script.tools();
    for (const tool of tools) {
      const own = tool.call.bind(tool);
      const call = (...args: Parameters<typeof own>): ReturnType<typeof own> => {
        const crashing = this.crashing;
        return crashing === undefined ? own(...args) : Promise.race([own(...args), crashing]);
      };
      Object.defineProperty(tool, "call", { value: call, configurable: true, writable: true });
    }
    const host = this; // (the getters below read the store open when the toolkit writes)
    const policyStore: PolicyStore = {
      policies: (tool) => host.store.policies.policies(tool),
      keep: (policy) => host.store.policies.keep(policy),
      revoke: (id) => host.store.policies.revoke(id),
      get unit() {
        return host.store.policies.unit;
      },
    };
    const decisionLog: DecisionLog = {
      record: (decision, made) => host.store.log.record(decision, made),
      recordMany: (decisions, made) => host.store.log.recordMany(decisions, made),
      get unit() {
        return host.store.log.unit;
      },
    };
    return new Toolkit(tools, { secret: lv.SECRET, clock: this.clock.now, policyStore, decisionLog });
  }

  id(label: string | undefined): number {
    return this.runs.get(label ?? "") ?? 1e9; // a label never saved: a run that is not there
  }

  label(runId: number): string {
    return [...this.runs].find(([, id]) => id === runId)?.[0] ?? `(run ${runId})`;
  }

  /** What the store reads: the vectors' clock, in seconds. */
  readonly seconds = (): number => this.clock.now() / 1000;

  async opened(): Promise<this> {
    await this.reopened();
    return this;
  }

  /** Opens the store, its log's head MAC'd under the toolkit's one key, as Python's toolkit hands it over. */
  async reopened(): Promise<void> {
    this.store = await this.where.open(this.vector.lease ?? 30, this.seconds);
    this.store.log.useKey("default", lv.SECRET);
    this.open = true;
  }

  async play(): Promise<void> {
    for (const [i, step] of this.vector.steps.entries()) {
      await this.step(`step ${i}`, step);
    }
  }

  async step(where: string, step: StoreStep): Promise<void> {
    if (step.at !== undefined) {
      assert.ok(step.at >= this.clock.at, `${this.name} ${where}: the clock goes forward only`);
      this.clock.at = step.at;
    }
    const before = this.script.log.length;
    let got: Got;
    try {
      got = await this.take(step);
    } catch (error) {
      got = refusal(error);
    }
    this.check(`${this.name} ${where} (${step.do})`, step.expect ?? {}, got, this.script.log.slice(before));
  }

  /** Runs `resume()`, taking the step's `while` steps while its first tool runs, and stopping
   * there (`crash`) when asked: that tool's handler never returns, its `call` rejects with `Crash`. */
  async cutShort(step: StoreStep, resume: () => Promise<RunResult>): Promise<Got> {
    if (step.while !== undefined || step.crash === true) {
      let stop: (crash: Crash) => void = () => undefined;
      this.crashing = new Promise<never>((_, reject) => {
        stop = reject;
      });
      this.crashing.catch(() => undefined); // a step that does not crash leaves it pending
      this.script.during = async () => {
        for (const [i, inner] of (step.while ?? []).entries()) {
          await this.step(`while step ${i}`, inner);
        }
        if (step.crash === true) {
          stop(new Crash("the host stopped while the tool ran"));
          await new Promise<never>(() => undefined); // the handler never returns
        }
      };
    }
    let run: RunResult;
    try {
      run = await resume();
    } catch (error) {
      if (!(error instanceof Crash) || step.crash !== true) {
        throw error;
      }
      this.kit = this.toolkit(); // the host that stopped is gone, and what it held in memory
      return { crashed: true };
    } finally {
      this.script.during = undefined;
      this.crashing = undefined;
    }
    return { crashed: false, ...outcome(run) };
  }

  async take(step: StoreStep): Promise<Got> {
    switch (step.do) {
      case "save": {
        const run = await this.runCalls(step);
        this.runs.set(step.as ?? "", await this.store.save(run, { context: contextOf(step), principal: step.principal, session: step.session }));
        return outcome(run);
      }
      case "saveMany": {
        const specs = step.runs ?? [];
        const runs = [];
        for (const spec of specs) {
          runs.push(await this.runCalls(spec));
        }
        const ids = await this.store.saveMany(runs, { contexts: specs.map(contextOf), principals: specs.map((s) => s.principal), sessions: specs.map((s) => s.session) });
        specs.forEach((spec, i) => this.runs.set(spec.as ?? "", ids[i] as number));
        return {};
      }
      case "get": {
        const found = await this.store.get(this.id(step.run));
        if (found === undefined) {
          return { found: false };
        }
        const got = found.run === undefined ? {} : outcome(found.run);
        return { ...got, found: true, status: found.status, reason: found.reason ?? null, context: found.context ?? null, principal: found.principal, session: found.session };
      }
      case "pending": {
        const last = step.after === "page" ? this.page[this.page.length - 1] : undefined;
        assert.ok(step.after !== "page" || last !== undefined, `${this.name}: 'after: page' with no page before`);
        this.page = await this.store.pending({ principal: step.principal, session: step.session, tool: step.tool, kind: step.kind, limit: step.limit, after: last });
        const requests = [];
        for (const p of this.page) {
          requests.push(await this.request(p));
        }
        return { requests };
      }
      case "claim": {
        const answers = await this.answers(step);
        const taken = await this.store.claim(this.id(step.run), answers);
        this.claims.set(step.run ?? "", [...(this.claims.get(step.run ?? "") ?? []), { run: taken.run, lease: taken.lease, answers }]);
        return { context: taken.context ?? null };
      }
      case "finish": {
        const claims = this.claims.get(step.run ?? "") ?? [];
        const taken = claims.at(step.claim ?? -1);
        assert.ok(taken !== undefined, `${this.name}: finish of ${step.run ?? ""} with no claim`);
        // resumed by a toolkit of its own, as by another host: the store's lease is what is checked
        const kit = new Toolkit(this.script.tools(), { secret: lv.SECRET, clock: this.clock.now });
        const resumed = await kit.resume(taken.run, taken.answers);
        await this.store.finish(this.id(step.run), taken.answers, resumed, { lease: taken.lease, ...("context" in step ? { context: step.context } : {}) });
        return outcome(resumed);
      }
      case "expire":
        return { settled: (await this.store.expire(this.kit)).map((id) => this.label(id)) };
      case "release":
        await this.store.release(this.id(step.run), step.status ?? "pending", step.reason === undefined ? {} : { reason: step.reason });
        return {};
      case "resume": {
        const options = { principal: step.principal, session: step.session, ...("context" in step ? { context: step.context } : {}) };
        const answers = await this.answers(step);
        return this.cutShort(step, () => this.store.resume(this.kit, this.id(step.run), answers, options));
      }
      case "retry": {
        const kit = this.toolkit();
        return this.cutShort(step, () => this.store.retry(kit, this.id(step.run), { principal: step.principal }));
      }
      case "settle":
        return outcome(await this.store.settle(this.toolkit(), this.id(step.run), step.result, { principal: step.principal }));
      case "inDoubt":
        return {
          calls: (await this.store.inDoubt()).map((d) => ({
            run: this.label(d.runId),
            call: d.call.id,
            tool: d.tool,
            arguments: d.arguments,
            key: d.idempotencyKey,
            startedAt: d.startedAt - lv.EPOCH / 1000,
          })),
        };
      case "quarantined":
        return { runs: (await this.store.quarantined()).map(([id]) => this.label(id)) };
      case "tamper":
        return this.tamper(step);
      case "log":
        return { entries: await this.store.log.entries(), verify: await this.store.log.verify(), verifyWithKey: await this.store.log.verify(lv.SECRET) };
      case "tamperLog": {
        if (step.remove !== undefined) {
          await this.where.behind("DELETE FROM decisions WHERE seq = ?", [step.remove]);
          return {};
        }
        const entry = (await this.store.log.entries()).find((e) => e["seq"] === step.seq);
        assert.ok(entry !== undefined, `${this.name}: tamperLog of an entry that is not there`);
        const changed = lv.tampered(entry as unknown as Parameters<typeof lv.tampered>[0], step.set ?? []);
        await this.where.behind("UPDATE decisions SET entry = ? WHERE seq = ?", [JSON.stringify(changed), step.seq ?? 0]);
        return {};
      }
      case "reopen":
        await this.store.close();
        this.open = false;
        if (step.schemaVersion !== undefined) {
          await this.where.version(step.schemaVersion);
        }
        await this.reopened();
        return {};
      case "policies":
        return { policies: (await this.store.policies.policies()).map((p) => ({ tool: p.tool, approve: p.approve, scope: p.scope, key: p.key })) };
      case "revoke":
        for (const policy of await this.store.policies.policies(step.tool)) {
          assert.ok(await this.store.policies.revoke(policy.id), policy.id);
        }
        return {};
      default:
        throw new Error(`${this.name}: the step ${step.do} is not one this runner takes (declare the vector a skip, with why)`);
    }
  }

  async tamper(step: StoreStep): Promise<Got> {
    let body = step.body;
    if (body === undefined) {
      const found = await this.store.get(this.id(step.run));
      assert.ok(found?.run !== undefined, `${this.name}: tamper of a run that is not stored`);
      const wire = JSON.parse(JSON.stringify(found.run)) as Parameters<typeof lv.tampered>[0];
      body = JSON.stringify(lv.tampered(wire, step.set ?? []));
    }
    await this.where.behind("UPDATE runs SET body = ? WHERE id = ?", [body, this.id(step.run)]);
    return {};
  }

  runCalls(spec: StoreStep): Promise<RunResult> {
    const turn = spec.turn ?? {};
    return this.kit.runCalls(spec.calls ?? [], { expiresIn: turn.expiresIn, principal: turn.principal, turnId: turn.id, session: spec.session });
  }

  async answers(step: StoreStep): Promise<ReturnType<typeof lv.answersOf>> {
    const specs = step.answers ?? [];
    if (specs.every((a) => a.id !== undefined)) {
      return lv.answersOf(specs, []); // literal ids: the run is not read (it may not be one)
    }
    const run = (await this.store.get(this.id(step.run)))?.run;
    const calls = run?.calls ?? [];
    return lv.answersOf(specs, (run?.requests ?? []).map((r, i) => [calls[i] as ToolCall, r]));
  }

  async request(item: PendingRequest): Promise<Got> {
    const run = (await this.store.get(item.runId))?.run;
    const at = (run?.requests ?? []).findIndex((r) => r.id === item.request.id);
    const call = at >= 0 ? (run?.calls?.[at]?.id ?? null) : null;
    return { run: this.label(item.runId), call, kind: item.request.kind, prompt: item.request.prompt };
  }

  check(where: string, expect: Record<string, unknown>, got: Got, ran: lv.Ran[]): void {
    if (expect["error"] !== undefined) {
      assert.equal(got.error, expect["error"], `${where}: expected ${String(expect["error"])}, got ${JSON.stringify(got)}`);
      const texts = expect["errorIncludes"];
      for (const text of texts === undefined ? [] : typeof texts === "string" ? [texts] : (texts as string[])) {
        assert.ok((got.message ?? "").includes(text), `${where}: ${got.message ?? ""} lacks ${text}`);
      }
      if (expect["namesOwnVersion"] === true) {
        assert.match(got.message ?? "", new RegExp(`\\b${this.ownVersion}\\b`), where);
      }
    } else {
      assert.equal(got.error, undefined, `${where}: refused (${got.error ?? ""}: ${got.message ?? ""})`);
    }
    const loop = Object.fromEntries(["status", "results", "waiting", "ran"].filter((k) => k in expect).map((k) => [k, expect[k]]));
    if (Object.keys(loop).length > 0) {
      const out = { status: got["status"], results: got["results"] ?? [], waiting: got["waiting"] ?? [] } as unknown as lv.Outcome;
      this.checker.check(0, loop as unknown as Parameters<lv.Checker["check"]>[1], out, ran);
    }
    for (const key of ["found", "crashed", "context", "principal", "session", "settled", "runs", "requests", "verify", "verifyWithKey"]) {
      if (key in expect) {
        assert.deepEqual(got[key], expect[key], `${where}: ${key} ${JSON.stringify(got[key])}`);
      }
    }
    if (expect["reasonIncludes"] !== undefined) {
      assert.ok(String(got["reason"] ?? "").includes(String(expect["reasonIncludes"])), `${where}: reason ${String(got["reason"])}`);
    }
    if (expect["entries"] !== undefined) {
      const entries = got["entries"] as Record<string, unknown>[];
      const wanted = expect["entries"] as Record<string, unknown>[];
      assert.equal(entries.length, wanted.length, `${where}: entries ${JSON.stringify(entries)}`);
      wanted.forEach((want, i) => {
        for (const [key, value] of Object.entries(want)) {
          const have = key === "run" ? this.label(entries[i]?.[key] as number) : entries[i]?.[key];
          if (key === "idempotencyKey") {
            this.key(`${where}: entry ${i}`, String(value), String(have)); // a label, as in `ran`
          } else if (key === "policy") {
            assert.equal(have !== undefined && have !== null, value, `${where}: entry ${i}'s policy`);
          } else {
            assert.deepEqual(have, value, `${where}: entry ${i}'s ${key}`);
          }
        }
      });
    }
    if (expect["calls"] !== undefined) {
      this.doubts(where, expect["calls"] as Record<string, unknown>[], got["calls"] as Record<string, unknown>[]);
    }
    if (expect["policies"] !== undefined) {
      assert.deepEqual(got["policies"], expect["policies"], `${where}: policies`);
    }
  }

  /** The calls in doubt `got` against `expected`: the same runs and calls in order, and each
   * expected key the same (`key` a label of the `ran` expectations: the key the call ran under). */
  doubts(where: string, expected: Record<string, unknown>[], got: Record<string, unknown>[]): void {
    assert.deepEqual(
      got.map((g) => [g["run"], g["call"]]),
      expected.map((e) => [e["run"], e["call"]]),
      `${where}: in doubt ${JSON.stringify(got)}`,
    );
    expected.forEach((e, i) => {
      const g = got[i] ?? {};
      for (const key of ["tool", "arguments", "startedAt"]) {
        if (key in e) {
          assert.deepEqual(g[key], e[key], `${where}: in doubt ${key} ${JSON.stringify(g[key])}`);
        }
      }
      if (typeof e["key"] === "string") {
        this.key(where, e["key"], String(g["key"]));
      }
    });
  }

  /** `key` is the one `label` names (the first use of a label names it, as in `ran`). */
  key(where: string, label: string, key: string): void {
    const { labels, keys } = this.checker;
    if (!labels.has(label)) {
      assert.ok(!keys.has(key), `${where}: key ${key} is ${keys.get(key) ?? ""}'s, not ${label}'s`);
      labels.set(label, key);
      keys.set(key, label);
    }
    assert.equal(labels.get(label), key, `${where}: key ${key} is not ${label}'s (${labels.get(label) ?? ""})`);
  }
}

function refusal(error: unknown): Got {
  if (ResumeError.isResumeError(error)) {
    return { error: error.reason, message: error.message };
  }
  if (error instanceof OutcomeNotStored) {
    return { error: "outcome_not_stored", message: error.message };
  }
  if (error instanceof StoreError) {
    const notClaimed = /is not claimed under this lease/.test(error.message);
    return { error: notClaimed ? "not_claimed" : "usage", message: error.message };
  }
  throw error;
}

const NAMES = readdirSync(STORE)
  .filter((n) => n.endsWith(".json"))
  .sort();

describe("the store vectors", () => {
  it("each skip names a vector that is there", () => {
    for (const name of Object.keys(SKIPPED)) {
      assert.ok(NAMES.includes(name), `SKIPPED names ${name}, which idl/store/ lacks`);
    }
    assert.ok(NAMES.length > Object.keys(SKIPPED).length, "no vector is run");
  });

  for (const kind of KINDS) {
    describe(`on the ${kind} store`, () => {
      for (const name of NAMES) {
        const why = SKIPPED[name];
        it(name, why === undefined ? {} : { skip: why }, async () => {
          const vector = JSON.parse(readFileSync(join(STORE, name), "utf8")) as StoreVector;
          const where = await place(kind);
          const host = await new Host(name, vector, where, kind === "sqlite" ? SQLITE_SCHEMA_VERSION : POSTGRES_SCHEMA_VERSION).opened();
          try {
            await host.play();
          } finally {
            if (host.open) {
              await host.store.close();
            }
          }
        });
      }
    });
  }
});
