// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * `toolnexus-contract/store`: durable stores for pending runs, on the tables Python's
 * `toolnexus.store` keeps (schema version 6, `docs/durable.md`), so a run saved in one language is
 * listed, claimed and resumed in the other.
 *
 * ```ts
 * import { SqliteRunStore } from "toolnexus-contract/store";
 * const store = await SqliteRunStore.open("runs.sqlite3");      // or PostgresRunStore.open("postgresql://…")
 * const runId = await store.save(await toolkit.runCalls(calls));
 * for (const waiting of await store.pending()) { … }
 * const run = await store.resume(toolkit, runId, answer);
 * ```
 *
 * - {@link SqliteRunStore} needs better-sqlite3 12 and {@link PostgresRunStore} needs `pg` 8:
 *   optional peer dependencies, loaded only when a store of that kind is opened;
 * - `await store.wait(runId, timeout)` hears a run's outcome, from any process of either language;
 * - `new Toolkit(tools, { spill: store.results })` keeps cut outputs whole in the store's
 *   `results` table, for `read_result` in any process of either language ({@link StoredResults});
 * - `new Toolkit(tools, { secret, policyStore: store.policies, decisionLog: store.log })` keeps the
 *   toolkit's policies and hash-chained decision log in the store, shared with Python's toolkits
 *   ({@link StorePolicies}, {@link StoreLog});
 * - one resumer at a time (a claim is a lease, renewed while the tools run), never a call run
 *   twice in doubt (`inDoubt`, `retry`, `settle`), nothing lost ({@link OutcomeNotStored}).
 *
 * @packageDocumentation
 */

export { RunStore, type SaveOptions, type StoreResumeOptions } from "./core.js";
export type { Clock } from "./backend.js";
export type { AgainOptions } from "./doubt.js";
export { StoredResults } from "./results.js";
export { StoreLog, type LogHead, type LogKey, type VerifyOptions } from "./log.js";
export { StorePolicies } from "./policies.js";
export { PostgresRunStore, POSTGRES_SCHEMA_VERSION, type PostgresOptions } from "./postgres.js";
export type { PendingOptions, SaveManyOptions } from "./rows.js";
export { SqliteRunStore, SQLITE_SCHEMA_VERSION, type SqliteOptions } from "./sqlite.js";
export { POLL, type WaitOptions } from "./wait.js";
export { CONTEXT_LIMIT, OutcomeNotStored, PendingRequest, StoreError, UNCHANGED, type Claim, type InDoubt, type Status, type StoredRun } from "./types.js";
