// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * A store's hold on the tools a toolkit runs for one step of a stored run (Python's
 * `toolnexus/_rewrap.py`, done from outside the toolkit): just before a call's tool runs, a hook is
 * awaited (the store marks the call started there), and a call whose result a person supplied
 * returns it without running its tool.
 *
 * The step runs in an `AsyncLocalStorage` scope; each of the toolkit's tools is wrapped once (its
 * `call` shadowed on the instance) to consult the scope it is called in, so a call outside a
 * store's step, or in another store's, runs as it always does.
 *
 * @packageDocumentation
 */

import type { Tool, ToolContext, ToolContextInit } from "../tool.js";
import type { Toolkit } from "../toolkit.js";
import type { JsonObject } from "../json.js";
import type { ParsedToolResult, ToolResult } from "../types.js";

/** What a step does about the calls its toolkit runs. */
export interface StepHooks {
  /** Awaited just before the tool of the call `callId` runs. */
  before?: ((callId: string) => Promise<void>) | undefined;
  /** The results supplied by call id: those calls return them and their tools do not run. */
  results?: ReadonlyMap<string, ToolResult> | undefined;
}

interface Scope {
  run<T>(store: StepHooks, work: () => T): T;
  getStore(): StepHooks | undefined;
}

let scope: Scope | undefined;
const wrapped = new WeakSet<Tool>();

function storage(): Scope {
  if (scope === undefined) {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const mod = proc?.getBuiltinModule?.("node:async_hooks") as { AsyncLocalStorage: new () => Scope } | undefined;
    if (mod === undefined) {
      throw new Error("toolnexus-contract/store needs Node.js's node:async_hooks");
    }
    scope = new mod.AsyncLocalStorage();
  }
  return scope;
}

/** Runs `work` with `hooks` applied to every tool `toolkit` runs in it. */
export function withHooks<T>(toolkit: Toolkit, hooks: StepHooks, work: () => Promise<T>): Promise<T> {
  const steps = storage();
  for (const tool of toolkit.tools()) {
    wrap(tool, steps);
  }
  return steps.run(hooks, work);
}

function wrap(tool: Tool, steps: Scope): void {
  if (wrapped.has(tool)) {
    return;
  }
  wrapped.add(tool);
  const own = tool.call.bind(tool);
  const hooked = async (args?: JsonObject | null, ctx?: ToolContext | ToolContextInit): Promise<ParsedToolResult> => {
    const hooks = steps.getStore();
    const callId = ctx?.callId ?? "";
    const given = callId === "" ? undefined : hooks?.results?.get(callId);
    if (given !== undefined) {
      return { ...given, parts: given.parts ?? [] } as ParsedToolResult;
    }
    if (hooks?.before !== undefined && callId !== "") {
      await hooks.before(callId);
    }
    return own(args, ctx);
  };
  Object.defineProperty(tool, "call", { value: hooked, configurable: true, writable: true });
}

/** Whether `tool` declares itself idempotent (`hints.idempotent`): running it again under the same
 * idempotency key is then safe, and its calls are never in doubt. */
export function idempotent(tool: Tool | undefined): boolean {
  return tool?.hints?.idempotent === true;
}
