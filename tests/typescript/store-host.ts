// The TypeScript side of tests/store/test_store_cross_language.py: one store command per process, on a
// SQLite file or a PostgreSQL database that Python's store uses too, printing JSON.
//
//   node .cache/store-host.js save <where> <what>...         a turn of `approve` calls, saved
//   node .cache/store-host.js save-as <where> <principal> <session> <what>...  saved as theirs
//   node .cache/store-host.js pending <where>                what waits
//   node .cache/store-host.js resume <where> <run> <request> answered ok, stored
//   node .cache/store-host.js claim <where> <run> <request>  claimed and left claimed (or refused)
//   node .cache/store-host.js get <where> <run>              status, outputs, context, principal, session
//   node .cache/store-host.js in-doubt <where>               the calls in doubt
//   node .cache/store-host.js settle <where> <run> <output>  the call in doubt settled
//   node .cache/store-host.js log <where> <by> <call>...     decisions appended to the log, its head MAC'd
//   node .cache/store-host.js verify <where>                 the log checked, without the key and with it
//   node .cache/store-host.js pay <where> <call> <amount>    a turn of `pay` (needs approval) by a toolkit
//                                                             keeping its policies and log in the store; saved when it waits
//   node .cache/store-host.js answer <where> <run> <request> <scope>  approved with that scope by bob, stored
//   node .cache/store-host.js policies <where>               the policies kept in the store
//   node .cache/store-host.js work <where> <i> <n>           worker i of n of tests/store/mixed.py
//   node .cache/store-host.js wait <where> <run> <timeout>   `{"waiting":true}` first, then the outcome heard
//   node .cache/store-host.js build <where> <principal> <session> <turn>  a `build` cut, kept in store.results
//   node .cache/store-host.js read-result <where> <principal> <session> <ref> <offset> <length>  a page of it
//     (`-` for no principal or session)
//
// The toolkit is tests/store/test_store.py's: `approve` asks before doing `what` (each run of it after
// an answer appends a line to $TOOLNEXUS_STORE_TEST_LOG; with $TOOLNEXUS_STORE_TEST_DIE set, the
// process exits there instead), sealed under the tests' key.

import { appendFileSync } from "node:fs";
import { ResumeError, Toolkit, defineTool, readResult } from "toolnexus-contract/runtime";
import { PostgresRunStore, SqliteRunStore, type PendingRequest, type RunStore } from "toolnexus-contract/store";
import { pending, type RunResult } from "toolnexus-contract";

const SECRET = new TextEncoder().encode("tests-host-secret-0123456789abcdef");

const approve = defineTool(
  "approve",
  "Asks before doing `what`.",
  { type: "object", properties: { what: { type: "string" } }, required: ["what"] } as const,
  (args, ctx) => {
    const what = String((args as { what: string }).what);
    if (ctx.answer === undefined) {
      return pending({ id: "", kind: "approval", prompt: `${what}?` });
    }
    if (process.env["TOOLNEXUS_STORE_TEST_DIE"]) {
      process.exit(137); // killed while the tool runs: its call is left in doubt
    }
    const log = process.env["TOOLNEXUS_STORE_TEST_LOG"];
    if (log) {
      appendFileSync(log, `${process.pid} ${ctx.idempotencyKey}\n`);
    }
    return `did ${what}`;
  },
);

/** tests/store/test_store_cross_language.py's `build`: 120 lines, cut to 700 characters. */
const build = defineTool("build", "Run the build", null, () => Array.from({ length: 120 }, (_, i) => `[${String(i + 1).padStart(3, "0")}] compiled módulo_${i + 1}.py ✓\n`).join(""), {
  limit: { chars: 700 },
});

/** `-` as no principal or session. */
function scopeArg(value: string | undefined): string | undefined {
  return value === "-" ? undefined : value;
}

/** Needs an approval before paying `amount`: its answers make policies (`pay` and `answer`). */
const pay = defineTool("pay", "Pays `amount`.", { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] } as const, (args) => `paid ${String((args as { amount: number }).amount)}`, {
  needsApproval: true,
});

/** A toolkit whose policies and decision log are `store`'s (the toolkit hands its key to the log,
 * under the id `default`, as Python's does). */
function deciding(store: RunStore): Toolkit {
  return new Toolkit([approve, pay], { secret: SECRET, policyStore: store.policies, decisionLog: store.log });
}

function open(where: string): Promise<RunStore> {
  return /^postgres(ql)?:\/\/|=/.test(where) ? PostgresRunStore.open(where) : SqliteRunStore.open(where);
}

/** A line on stdin: the go of tests/store/mixed.py, once every worker is ready. */
function go(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once("data", () => {
      process.stdin.destroy();
      resolve();
    });
  });
}

/** `work`: prints `ready`, waits for the go, then resumes runs (each `resume`: claim, run, finish)
 * until nothing waits, spread out as tests/store/mixed.py's Python worker is: first its share, the
 * runs whose id is `index` modulo `count`, page after page of the keyset (pages of 64 × `count`);
 * then what is left, from its far end: a page from a random run id in its newer half, and another
 * random place after each race lost. A run another worker took first is refused (`ResumeError`)
 * and counted as lost. */
async function work(store: RunStore, kit: Toolkit, index: number, count: number): Promise<{ finished: number[]; lost: number }> {
  process.stdout.write("ready\n");
  await go();
  const finished: number[] = [];
  let lost = 0;
  const take = async (p: PendingRequest): Promise<boolean> => {
    try {
      const run = await store.resume(kit, p.runId, { id: p.request.id, ok: true });
      if (run.status !== "done") {
        throw new Error(`run ${p.runId} is ${run.status} after its one answer`);
      }
      finished.push(p.runId);
      return true;
    } catch (error) {
      if (!ResumeError.isResumeError(error)) {
        throw error;
      }
      lost += 1;
      return false;
    }
  };
  let high = 0; // the last run id listed
  let after: PendingRequest | undefined;
  for (;;) {
    const page = await store.pending({ limit: 64 * count, after });
    after = page.at(-1);
    if (after === undefined) {
      break;
    }
    high = after.runId;
    for (const p of page) {
      if (p.runId % count === index) {
        await take(p);
      }
    }
  }
  for (;;) {
    const lowest = (await store.pending({ limit: 1 }))[0]?.runId;
    if (lowest === undefined) {
      break;
    }
    high = Math.max(high, lowest);
    const half = Math.floor((lowest + high) / 2);
    const start = half + Math.floor(Math.random() * (high - half + 1));
    const page = await store.pending({ limit: 64, after: [start, -1] });
    if (page.length === 0) {
      high = start - 1; // nothing waits from `start` on
      continue;
    }
    for (const p of page) {
      if (!(await take(p))) {
        break; // another worker is here: go elsewhere
      }
    }
  }
  return { finished, lost };
}

function outputs(run: RunResult | undefined): string[] {
  return (run?.results ?? []).map((r) => r.result.output);
}

async function main(argv: string[]): Promise<unknown> {
  const [command, where, ...rest] = argv;
  const store = await open(where ?? "");
  const kit = new Toolkit([approve], { secret: SECRET });
  try {
    switch (command) {
      case "save": {
        const run = await kit.runCalls(rest.map((what, i) => ({ id: `c${i}`, name: "approve", arguments: { what } })));
        return { runId: await store.save(run, { context: { messages: [{ role: "user", content: "from typescript" }] } }) };
      }
      case "save-as": {
        const [principal, session, ...whats] = rest;
        const run = await kit.runCalls(whats.map((what, i) => ({ id: `c${i}`, name: "approve", arguments: { what } })));
        return { runId: await store.save(run, { principal, session }) };
      }
      case "pending":
        return (await store.pending()).map((p) => ({ runId: p.runId, position: p.position, id: p.request.id, prompt: p.request.prompt }));
      case "resume": {
        const run = await store.resume(kit, Number(rest[0]), { id: rest[1] ?? "", ok: true });
        return { status: run.status, outputs: outputs(run) };
      }
      case "claim": {
        try {
          const claim = await store.claim(Number(rest[0]), { id: rest[1] ?? "", ok: true });
          return { lease: claim.lease, context: claim.context };
        } catch (error) {
          if (ResumeError.isResumeError(error)) {
            return { refused: error.reason, message: error.message };
          }
          throw error;
        }
      }
      case "get": {
        const stored = await store.get(Number(rest[0]));
        return { status: stored?.status, outputs: outputs(stored?.run), context: stored?.context, principal: stored?.principal, session: stored?.session };
      }
      case "in-doubt":
        return (await store.inDoubt()).map((d) => ({ runId: d.runId, tool: d.tool, arguments: d.arguments, key: d.idempotencyKey, lease: d.lease }));
      case "settle": {
        const run = await store.settle(kit, Number(rest[0]), rest[1] ?? "", { principal: "ts-operator" });
        return { status: run.status, outputs: outputs(run), log: await store.log.entries() };
      }
      case "log": {
        const [by, ...calls] = rest;
        store.log.useKey("k1", SECRET);
        const entries = calls.map((call) => ({ kind: "approve", tool: "approve", call, request: null, arguments: { what: "pay", "é": "ü", amount: 2.5, rate: 5e-7, whole: 3, z: [null, true] }, run: 1 }));
        await store.log.recordEntries(entries, { principal: by, at: Date.UTC(2026, 0, 1, 12) });
        return { head: await store.log.head() };
      }
      case "verify":
        return { verify: await store.log.verify(), verifyWithKey: await store.log.verify(SECRET), byId: await store.log.verify({ k1: SECRET, default: SECRET }) };
      case "pay": {
        const run = await deciding(store).runCalls([{ id: rest[0] ?? "", name: "pay", arguments: { amount: Number(rest[1]) } }], { principal: "bob" });
        if (run.status === "done") {
          return { status: run.status, outputs: outputs(run) };
        }
        return { status: run.status, runId: await store.save(run), request: run.pending?.id };
      }
      case "answer": {
        const scope = rest[2] as "once" | "turn" | "tool" | "principal";
        const run = await store.resume(deciding(store), Number(rest[0]), { id: rest[1] ?? "", ok: true, scope }, { principal: "bob" });
        return { status: run.status, outputs: outputs(run) };
      }
      case "policies":
        return (await store.policies.policies()).map((p) => ({ tool: p.tool, approve: p.approve, scope: p.scope, key: p.key, madeBy: p.madeBy }));
      case "wait": {
        process.stdout.write(`${JSON.stringify({ waiting: true })}\n`);
        const started = Date.now();
        const moved = await store.wait(Number(rest[0]), Number(rest[1]));
        return { status: moved?.status ?? null, outputs: outputs(moved?.run), waitedMs: Date.now() - started };
      }
      case "build": {
        const [principal, session, turnId] = rest.map(scopeArg);
        const spilled = new Toolkit([build, readResult], { secret: SECRET, spill: store.results });
        const done = await spilled.runCalls([{ id: "c1", name: "build", arguments: {} }], { principal, session, turnId });
        const result = done.results[0]!.result;
        return { output: result.output, ref: (result.metadata?.["truncated"] as { ref?: string } | undefined)?.ref ?? null };
      }
      case "read-result": {
        const [principal, session, ref, offset, length] = rest;
        const spilled = new Toolkit([build, readResult], { secret: SECRET, spill: store.results });
        const args = { ref: ref ?? "", offset: Number(offset), length: Number(length) };
        const page = await spilled.runCalls([{ id: "r1", name: "read_result", arguments: args }], { principal: scopeArg(principal), session: scopeArg(session) });
        const result = page.results[0]!.result;
        return { output: result.output, isError: result.isError === true };
      }
      case "work": {
        const [index, count] = [Number(rest[0]), Number(rest[1])];
        if (!Number.isInteger(index) || !Number.isInteger(count) || index < 0 || index >= count) {
          throw new Error(`work needs <i> <n>, worker i of n (0 <= i < n), got ${JSON.stringify(rest)}`);
        }
        return await work(store, kit, index, count);
      }
      default:
        throw new Error(`unknown command ${String(command)}`);
    }
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).then(
  (out) => process.stdout.write(`${JSON.stringify(out)}\n`),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
