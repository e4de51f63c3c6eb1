// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * Where a host keeps the decisions that outlive a turn, and the log of every decision. A port of
 * Python's `toolnexus/_policies.py`.
 *
 * The rules (which policy decides a call, what an answer's scope makes, what a decision records)
 * are the engine's (`engine.ts`: `Policy`, `applicable`, `policyOf`, `Decision`); this module only
 * keeps them. `new Toolkit(tools, { policyStore, decisionLog })` takes any object with these
 * methods, sync or async: {@link PolicyMemory} (in process, the default), a store's
 * (`store.policies` and `store.log` of `toolnexus-contract/store`) or one of the host's own.
 *
 * @packageDocumentation
 */

import { decided, gated, policyOf, type Decision, type Gated, type Policy } from "./decisions.js";
import { gate, type Ask, type Run, type Settle } from "./engine.js";
import type { Tool } from "./tool.js";
import type { Answer, ToolCall } from "./types.js";

/** What the gate makes of a call: undefined (it runs), a request to ask, or a policy's refusal. */
type Gate = Gated["asked"];

/** Keeps policies ({@link Policy}), which the toolkit consults before asking an approval. Each
 * method may return its value or a promise of it (a store in a database, as `store.policies`). */
export interface PolicyStore {
  /** The policies kept (of `tool`, when given), expired ones too, oldest first. */
  policies(tool?: string): Policy[] | Promise<Policy[]>;
  keep(policy: Policy): void | Promise<void>;
  /** Removes a policy; false when there is none by that id. */
  revoke(policyId: string): boolean | Promise<boolean>;
  /** @internal Where this store and a log that are one database's write a unit of decisions. */
  readonly unit?: DecisionUnit;
}

/** Who made a logged decision (the principal the turn or the resume was for), and when (ms since
 * the epoch, by the toolkit's clock). */
export interface DecisionMade {
  principal: string | undefined;
  at: number;
}

/** Takes every decision the loop makes, with who made it and when. `recordMany`, when a log has
 * it, takes several decisions at once or none (the toolkit uses it for the decisions of one
 * resume). Either may return a promise (a log in a database, as `store.log`); a decision whose
 * write throws or rejects is not taken. */
export interface DecisionLog {
  record(decision: Decision, made: DecisionMade): void | Promise<void>;
  recordMany?(decisions: readonly Decision[], made: DecisionMade): void | Promise<void>;
  /** When a log has it, the toolkit hands it its active key (`keyId`, `secret`) as it is built:
   * `store.log` MACs its head under a key derived from it. */
  useKey?(keyId: string, secret: Uint8Array): void;
  /** @internal Where this log and a policy store that are one database's write a unit of decisions. */
  readonly unit?: DecisionUnit;
}

/** @internal A database's policies and log together: `keepAndRecord` keeps `policies` and logs
 * `decisions` in one transaction, all or none (`Decisions.decideAll` uses it when the toolkit's
 * policy store and log have the same unit, as Python's store does). */
export interface DecisionUnit {
  keepAndRecord(policies: readonly Policy[], decisions: readonly Decision[], made: DecisionMade): Promise<void>;
}

/** Hands `log` the toolkit's active key, when the log takes one (`useKey`) and there is a key. */
export function handKey(log: DecisionLog | undefined, keyId: string | undefined, secret: Uint8Array | undefined): void {
  if (log !== undefined && typeof log.useKey === "function" && keyId !== undefined && secret !== undefined) {
    log.useKey(keyId, secret);
  }
}

/** Policies kept in this process (lost when it ends). */
export class PolicyMemory implements PolicyStore {
  readonly #byId = new Map<string, Policy>();

  constructor(policies: Iterable<Policy> = []) {
    for (const policy of policies) {
      this.#byId.set(policy.id, policy);
    }
  }

  policies(tool?: string): Policy[] {
    return [...this.#byId.values()].filter((p) => tool === undefined || p.tool === tool);
  }

  keep(policy: Policy): void {
    this.#byId.set(policy.id, policy);
  }

  revoke(policyId: string): boolean {
    return this.#byId.delete(policyId);
  }
}

/**
 * A toolkit's decisions: its policy store and decision log, and the engine's rules applied to them
 * (`gated` before a first run, `decided` and `policyOf` after an answer). `lifetime` is in seconds.
 */
export class Decisions {
  readonly store: PolicyStore;
  readonly #log: DecisionLog | undefined;
  readonly #lifetime: number;

  constructor(store: PolicyStore | undefined, log: DecisionLog | undefined, lifetime: number) {
    if (typeof lifetime !== "number" || !(lifetime > 0) || !Number.isFinite(lifetime)) {
      // (Python's timedelta refuses an infinite one too)
      throw new RangeError(`policyLifetime must be a positive number of seconds, got ${String(lifetime)}`);
    }
    this.store = store ?? new PolicyMemory();
    this.#log = log;
    this.#lifetime = lifetime * 1000;
  }

  /** `gated` with the kept policies; a policy's decision is logged. The store is read only for a
   * call that asks an approval (most calls ask none, and they get their answer without a wait), as
   * in Python. */
  gate(tool: Tool | undefined, call: ToolCall, session: string | undefined, principal: string | undefined, now: number): Gate | Promise<Gate> {
    const asked = gate(tool, call);
    return asked === undefined || !("request" in asked) ? asked : this.#byPolicy(tool, call, session, principal, now);
  }

  async #byPolicy(tool: Tool | undefined, call: ToolCall, session: string | undefined, principal: string | undefined, now: number): Promise<Gate> {
    const { asked, decision } = gated(tool, call, await this.store.policies(call.name), { session, principal, now });
    if (decision !== undefined) {
      await this.record(decision, principal, now);
    }
    return asked;
  }

  /** Logs `answer`'s decision, and keeps the policy it makes, if it makes one. */
  decide(ask: Ask, answer: Answer | undefined, step: Run | Settle, session: string | undefined, principal: string | undefined, now: number): Promise<void> {
    return this.decideAll([[ask, answer, step]], session, principal, now);
  }

  /**
   * Keeps the policies and logs the decisions of `taken` (each call's ask, its answer, the step it
   * led to) as one unit: all of them, or (when a write throws or rejects, which is thrown on) none.
   *
   * When the policy store and the log are one store's (`store.policies` and `store.log`), the unit
   * is one transaction. Otherwise the policies are kept first and the log written after, in one
   * `recordMany` when the log has one; a write that fails revokes the policies kept in the unit, so
   * the log never holds a decision whose policy was not kept. (A log without `recordMany` that
   * fails after taking some of several decisions keeps those.)
   */
  async decideAll(taken: readonly (readonly [Ask, Answer | undefined, Run | Settle])[], session: string | undefined, principal: string | undefined, now: number): Promise<void> {
    const decisions = taken.map(([ask, answer, step]) => decided(ask, answer, step));
    const made: Policy[] = [];
    for (const [ask, answer] of taken) {
      const policy = answer === undefined ? undefined : policyOf(ask, answer, { session, principal, now, lifetime: this.#lifetime });
      if (policy !== undefined) {
        made.push(policy);
      }
    }
    const unit = this.store.unit;
    if (unit !== undefined && unit === this.#log?.unit && decisions.length > 0) {
      await unit.keepAndRecord(made, decisions, { principal, at: now });
      return;
    }
    const kept: Policy[] = [];
    try {
      for (const policy of made) {
        await this.store.keep(policy);
        kept.push(policy);
      }
      await this.recordAll(decisions, principal, now);
    } catch (error) {
      for (const policy of kept) {
        try {
          await this.store.revoke(policy.id);
        } catch {
          // (the store that failed may fail again: the first error is the one thrown)
        }
      }
      throw error;
    }
  }

  /** Logs `decisions`, in one `recordMany` when the log has one. */
  async recordAll(decisions: readonly Decision[], principal: string | undefined, now: number): Promise<void> {
    if (this.#log === undefined || decisions.length === 0) {
      return;
    }
    if (this.#log.recordMany !== undefined) {
      await this.#log.recordMany(decisions, { principal, at: now });
      return;
    }
    for (const decision of decisions) {
      await this.#log.record(decision, { principal, at: now });
    }
  }

  async record(decision: Decision, principal: string | undefined, now: number): Promise<void> {
    await this.#log?.record(decision, { principal, at: now });
  }
}
