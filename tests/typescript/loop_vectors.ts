// The loop vectors (idl/loop/*.json, format in idl/loop/README.md) for the TypeScript runtime:
// loading them, the scripted tools they describe, and the checks of what each step gave. The
// same as tests/loop_vectors.py does for Python. loop_vectors.test.ts runs them through the
// Toolkit; loop-host.ts serves them to the cross-language test.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { JsonNumber, type Answer, type ContentPart, type JsonObject, type JsonValue, type Request, type ToolCall, type ToolCallResult, type ToolResult, authRequired, pending, toWireContentPart } from "toolnexus-contract";
import { approvalForm } from "toolnexus-contract/engine";
import { Limit, defineTool, readResult, type Decision, type DecisionLog, type DecisionMade, type LimitInit, type Policy, type ResultSpill, type Tool, type ToolContext } from "toolnexus-contract/runtime";
import { ROOT } from "./paths.js";

export const LOOP = join(ROOT, "idl", "loop");
/** The instant a vector's turn runs (idl/loop/README.md; its steps' `at` counts from it). */
export const EPOCH = Date.UTC(2026, 0, 1);
export const SECRET = new TextEncoder().encode("loop-vectors-host-key-0123456789");

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A behaviour's text: a TEMPLATE, or pieces joined, each a TEMPLATE or a repetition (`{i}` its number). */
export type Pieces = string | (string | { repeat: string; times: number; start?: number })[];

export interface Behaviour {
  /** `null`: returns nothing (`undefined`). */
  return?: Pieces | null;
  parts?: ContentPart[];
  structuredContent?: JsonValue;
  ask?: { kind: string; prompt: string; id?: string; url?: string; data?: JsonObject; expiresAt?: string; expiresIn?: number };
  authorize?: string;
  raise?: Pieces;
  sleep?: number;
}

export interface ToolSpec {
  name: string;
  description?: string;
  schema?: JsonObject;
  needsApproval?: boolean | { argument: string; above: number };
  /** A tool whose results a person supplies: no handler, no `first`. */
  external?: boolean;
  outputSchema?: JsonObject;
  limit?: LimitInit;
  /** The tool declares itself idempotent (`hints: { idempotent: true }`). */
  idempotent?: boolean;
  first?: Behaviour;
  retry?: Behaviour;
}

export interface AnswerSpec {
  to?: string;
  id?: string;
  ok: boolean;
  data?: JsonObject;
  reason?: "declined" | "cancelled" | "expired";
  message?: string;
  scope?: string;
}

export interface Step {
  do: "run" | "resume" | "expire" | "revoke";
  answers?: AnswerSpec[];
  stored?: boolean;
  /** `null` on a resume: the same as absent. */
  principal?: string | null;
  session?: string;
  /** `revoke`: the tool whose policies are revoked. */
  tool?: string;
  at?: number;
  tamper?: { at: string; set: Json }[];
  replay?: number;
  /** `run`: the calls of this turn, in place of the file's. */
  calls?: ToolCall[];
  expect?: Expect;
}

export interface Expect {
  error?: string;
  errorIncludes?: string;
  status?: string;
  results?: { id: string; output?: string; outputStartsWith?: string; isError: boolean; declined?: string; declinedMessage?: string; parts?: Json[]; structuredContent?: Json; truncated?: Json }[];
  waiting?: { id: string; kind: string; prompt: string; arguments?: Json; url?: string; data?: Json; requestId?: string; form?: Json }[];
  ran?: { id: string; arguments: Json; retry?: boolean; data?: Json; key: string }[];
  decisions?: { kind: string; call: string; scope: string; reason?: string; message?: string; approved?: Json; policy?: boolean }[];
  policies?: { tool: string; approve: boolean; scope: string; key: string }[];
}

export interface Vector {
  description: string;
  covers: string[];
  turn?: { id?: string; expiresIn?: number; principal?: string };
  /** The toolkit's own limit; `spill`, the host keeps cut outputs; `readResult`, it adds the tool. */
  toolkit?: { limit?: LimitInit; spill?: boolean; readResult?: boolean };
  /** Defining the tools and the toolkit is refused with exactly this message. */
  refused?: string;
  tools: ToolSpec[];
  calls: ToolCall[];
  steps: Step[];
}

/** Whether the vector's host keeps cut outputs (their references name the host's turn). */
export function keepsResults(vector: Vector): boolean {
  return vector.toolkit?.spill === true || vector.toolkit?.readResult === true;
}

/** The `Toolkit` options of the vector's `toolkit`: its limit, and `spill()` when it keeps results. */
export function toolkitOptions(vector: Vector, spill: () => ResultSpill | undefined): { limit?: Limit; spill?: ResultSpill } {
  const limit = Limit.of(vector.toolkit?.limit);
  const kept = keepsResults(vector) ? spill() : undefined;
  return { ...(limit !== undefined ? { limit } : {}), ...(kept !== undefined ? { spill: kept } : {}) };
}

/** The calls a `run` step runs: its own, or the file's. */
export function callsOf(vector: Vector, step: Step): ToolCall[] {
  return step.calls ?? vector.calls;
}

/** For a vector with `refused`: checks that defining its tools and toolkit is refused with exactly
 * that message, and returns true; false for any other vector. */
export function definitionRefused(vector: Vector): boolean {
  if (vector.refused === undefined) {
    return false;
  }
  assert.throws(
    () => {
      new Script(vector, () => EPOCH).tools();
      toolkitOptions(vector, () => undefined);
    },
    (err: unknown) => {
      assert.equal((err as Error).message, vector.refused);
      return true;
    },
    `the definition was not refused (expected ${JSON.stringify(vector.refused)})`,
  );
  return true;
}

export function names(): string[] {
  return readdirSync(LOOP)
    .filter((n) => n.endsWith(".json"))
    .map((n) => n.slice(0, -5))
    .sort();
}

/** A vector, read with JSON.parse (a few nest deeper than the wire allows, on purpose). */
export function load(name: string): Vector {
  return JSON.parse(readFileSync(join(LOOP, `${name}.json`), "utf8")) as Vector;
}

/** `value` as canonical JSON: keys sorted, compact (the format's `{args}` and `{data}`). */
export function canonical(value: unknown): string {
  if (value instanceof JsonNumber) {
    return value.text;
  }
  if (Array.isArray(value)) {
    return `[${value.map(canonical).join(",")}]`;
  }
  if (typeof value === "object" && value !== null) {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(",")}}`;
  }
  return value === undefined ? "null" : JSON.stringify(value);
}

/** `value` as plain JSON (numbers as numbers), to compare with what a vector expects. */
export function plain(value: unknown): Json {
  return JSON.parse(canonical(value)) as Json;
}

const FIELD = /\{(name|args|data|arg:[^{}]+)\}/g;

/** A behaviour's text with its placeholders filled (see the format). */
export function fill(template: string, tool: string, args: JsonObject, answer: Answer | undefined): string {
  return template.replace(FIELD, (_, field: string) => {
    if (field === "name") {
      return tool;
    }
    if (field === "args") {
      return canonical(args);
    }
    if (field === "data") {
      return canonical(answer?.data ?? null);
    }
    const value = args[field.slice(4)];
    return typeof value === "string" ? value : canonical(value ?? null);
  });
}

/** A behaviour's `return` or `raise`, its pieces joined and its placeholders filled. */
export function textOf(pieces: Pieces, tool: string, args: JsonObject, answer: Answer | undefined): string {
  if (typeof pieces === "string") {
    return fill(pieces, tool, args, answer);
  }
  const out: string[] = [];
  for (const piece of pieces) {
    if (typeof piece === "string") {
      out.push(fill(piece, tool, args, answer));
      continue;
    }
    const template = fill(piece.repeat, tool, args, answer);
    const start = piece.start ?? 1;
    for (let i = start; i < start + piece.times; i++) {
      out.push(template.replaceAll("{i}", String(i)));
    }
  }
  return out.join("");
}

/** One handler run, as the scripted tool saw it. */
export interface Ran {
  id: string;
  arguments: Json;
  retry: boolean;
  data: Json;
  key: string;
}

/** The host's clock: the vector's epoch plus the seconds its steps moved it. */
export class Clock {
  at = 0;
  readonly now = (): number => EPOCH + this.at * 1000;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The tools of one vector, recording every run of their handlers in `log`. */
export class Script {
  readonly log: Ran[] = [];
  /** Awaited once by the next handler that runs, after its run is logged (the store vectors' steps
   * while a tool runs, `while` and `crash`); cleared as it is taken. */
  during: (() => Promise<void>) | undefined;

  constructor(
    readonly vector: Vector,
    readonly clock: () => number,
  ) {}

  tools(): Tool[] {
    const tools = this.vector.tools.map((spec) => this.tool(spec));
    return this.vector.toolkit?.readResult === true ? [...tools, readResult] : tools;
  }

  private tool(spec: ToolSpec): Tool {
    if (spec.external === true) {
      // a person supplies its results: no handler
      return defineTool(spec.name, spec.description ?? spec.name, spec.schema ?? null, null, { outputSchema: spec.outputSchema });
    }
    const handler = async (args: JsonObject, ctx: ToolContext): Promise<unknown> => {
      const answer = ctx.answer;
      this.log.push({ id: ctx.callId, arguments: plain(args), retry: answer !== undefined, data: plain(answer?.data ?? null), key: ctx.idempotencyKey });
      const during = this.during;
      this.during = undefined;
      await during?.();
      const first = spec.first as Behaviour;
      const behaviour = answer === undefined ? first : (spec.retry ?? first);
      return this.behave(spec.name, behaviour, args, answer);
    };
    const needs = spec.needsApproval ?? false;
    const rule = typeof needs === "object" ? (args: JsonObject): boolean => Number(args[needs.argument]) > needs.above : needs;
    const hints = spec.idempotent === true ? { idempotent: true } : undefined;
    return defineTool(spec.name, spec.description ?? spec.name, spec.schema ?? null, handler, { needsApproval: rule, limit: spec.limit, hints });
  }

  private async behave(name: string, b: Behaviour, args: JsonObject, answer: Answer | undefined): Promise<unknown> {
    if (b.sleep !== undefined) {
      await sleep(b.sleep);
    }
    if (b.raise !== undefined) {
      throw new Error(textOf(b.raise, name, args, answer));
    }
    if (b.authorize !== undefined) {
      return authRequired(b.authorize);
    }
    if (b.ask !== undefined) {
      const a = b.ask;
      let expires = a.expiresAt;
      if (a.expiresIn !== undefined) {
        expires = new Date(this.clock() + a.expiresIn * 1000).toISOString();
      }
      const request: Request = { id: a.id ?? "", kind: a.kind, prompt: fill(a.prompt, name, args, answer) };
      if (a.url !== undefined) request.url = a.url;
      if (a.data !== undefined) request.data = a.data;
      if (expires !== undefined) request.expiresAt = expires;
      return pending(request);
    }
    if (b.return === null) {
      return undefined; // returns nothing
    }
    const text = textOf(b.return ?? "", name, args, answer);
    if (b.parts === undefined && b.structuredContent === undefined) {
      return text;
    }
    const result: ToolResult = { output: text, isError: false, parts: b.parts ?? [] };
    if (b.structuredContent !== undefined) {
      result.structuredContent = b.structuredContent;
    }
    return result;
  }
}

/** What a host's step gave: a refusal, or a run's results and waiting calls. */
export interface Outcome {
  error?: string;
  /** A refusal's text. */
  message?: string;
  status?: string;
  results: ToolCallResult[];
  waiting: [ToolCall, Request][];
}

/** The step's answers, each to the request its call waits on now, or to a literal id. */
export function answersOf(specs: readonly AnswerSpec[], waiting: readonly [ToolCall, Request][]): Answer[] {
  const asked = new Map(waiting.map(([call, request]) => [call.id, request.id]));
  return specs.map((spec) => {
    const id = spec.id ?? asked.get(spec.to ?? "") ?? `(no request of ${spec.to ?? ""})`;
    const answer: Answer = { id, ok: spec.ok };
    if (spec.data !== undefined) answer.data = spec.data;
    if (spec.reason !== undefined) answer.reason = spec.reason;
    if (spec.message !== undefined) answer.message = spec.message;
    if (spec.scope !== undefined) answer.scope = spec.scope;
    return answer;
  });
}

/** One decision as the log keeps it: the decision's JSON, who made it and when. */
export type Logged = JsonObject & { by: string | null; at: string };

/** A decision log kept in memory (`new Toolkit(tools, { decisionLog })`), for `expect.decisions`. */
export class Log implements DecisionLog {
  readonly entries: Logged[] = [];

  record(decision: Decision, { principal, at }: DecisionMade): void {
    this.entries.push({ ...decision.toWire(), by: principal ?? null, at: new Date(at).toISOString() });
  }
}

/** `wire` with each JSON pointer set to its value (`wire` is changed). */
export function tampered(wire: JsonObject, edits: readonly { at: string; set: Json }[]): JsonObject {
  for (const edit of edits) {
    const path = edit.at
      .split("/")
      .slice(1)
      .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
    const last = path.pop() as string;
    let target: unknown = wire;
    for (const part of path) {
      target = Array.isArray(target) ? target[Number(part)] : (target as Record<string, unknown>)[part];
    }
    if (Array.isArray(target)) {
      target[Number(last)] = edit.set;
    } else {
      (target as Record<string, unknown>)[last] = edit.set;
    }
  }
  return wire;
}

/** Checks each step's outcome against its `expect`, and the idempotency-key labels across the
 * whole vector. */
export class Checker {
  readonly labels = new Map<string, string>(); // label -> key
  readonly keys = new Map<string, string>(); // key -> label

  constructor(readonly name: string) {}

  /** `decisions`: those logged during the step, and `policies` those kept after it, when the host
   * has them. */
  check(index: number, expect: Expect, got: Outcome, runs: readonly Ran[], decisions?: readonly Logged[], policies?: readonly Policy[]): void {
    const where = `${this.name} step ${index}`;
    if (expect.error !== undefined) {
      assert.equal(got.error, expect.error, `${where}: expected the refusal ${expect.error}, got ${JSON.stringify(got)}`);
      if (expect.errorIncludes !== undefined) {
        assert.ok((got.message ?? "").includes(expect.errorIncludes), `${where}: refusal ${got.message ?? ""}`);
      }
    } else {
      assert.equal(got.error, undefined, `${where}: refused (${got.error ?? ""}), expected ${JSON.stringify(expect)}`);
    }
    if (expect.status !== undefined) {
      assert.equal(got.status, expect.status, `${where}: status`);
    }
    if (expect.results !== undefined) {
      this.results(where, expect.results, got.results);
    }
    if (expect.waiting !== undefined) {
      this.waiting(where, expect.waiting, got.waiting);
    }
    if (expect.ran !== undefined) {
      this.ran(where, expect.ran, runs);
    }
    if (expect.decisions !== undefined && decisions !== undefined) {
      this.decisions(where, expect.decisions, decisions);
    }
    if (expect.policies !== undefined && policies !== undefined) {
      const kept = policies.map((p) => ({ tool: p.tool, approve: p.approve, scope: p.scope, key: p.key }));
      assert.deepEqual(kept, expect.policies, `${where}: policies ${JSON.stringify(kept)}`);
    }
  }

  private decisions(where: string, expected: NonNullable<Expect["decisions"]>, got: readonly Logged[]): void {
    const shown = JSON.stringify(got.map((d) => ({ kind: d["kind"], call: d["call"], scope: d["scope"], policy: d["policy"], by: d.by })));
    assert.equal(got.length, expected.length, `${where}: decisions ${shown}`);
    const byCall = <T>(list: readonly T[], call: (item: T) => string): T[] => [...list].sort((a, b) => (call(a) < call(b) ? -1 : call(a) > call(b) ? 1 : 0));
    const want = byCall(expected, (e) => e.call);
    const have = byCall(got, (d) => String(d["call"]));
    want.forEach((e, i) => {
      const d = have[i] as Logged;
      for (const [key, value] of Object.entries(e)) {
        if (key === "policy") {
          assert.equal(d["policy"] !== null, value, `${where}: decision ${JSON.stringify(d)}`);
        } else {
          assert.deepEqual(plain(d[key] ?? null), value, `${where}: decision ${key} of ${JSON.stringify(d)}`);
        }
      }
    });
  }

  private results(where: string, expected: NonNullable<Expect["results"]>, got: readonly ToolCallResult[]): void {
    assert.deepEqual(
      got.map((r) => r.id),
      expected.map((e) => e.id),
      `${where}: result ids`,
    );
    expected.forEach((e, i) => {
      const item = got[i] as ToolCallResult;
      const r = item.result;
      const at = `${where}: result of ${item.id}`;
      if (e.output !== undefined) {
        assert.equal(r.output, e.output, `${at}: output`);
      }
      if (e.outputStartsWith !== undefined) {
        assert.ok(r.output.startsWith(e.outputStartsWith), `${at}: output ${JSON.stringify(r.output)}`);
      }
      assert.equal(r.isError ?? false, e.isError, `${at}: isError`);
      if (e.parts !== undefined) {
        assert.deepEqual(plain((r.parts ?? []).map((p) => toWireContentPart(p))), e.parts, `${at}: parts`);
      }
      if (e.structuredContent !== undefined) {
        assert.deepEqual(plain(r.structuredContent), e.structuredContent, `${at}: structuredContent`);
      }
      const truncated = plain((r.metadata ?? {})["truncated"] ?? null);
      assert.deepEqual(truncated, e.truncated ?? null, `${at}: truncated ${JSON.stringify(truncated)}`);
      const marker = (r.metadata ?? {})["declined"];
      if (e.declined !== undefined) {
        const m = marker as { reason?: unknown; request?: unknown; policy?: unknown; message?: unknown } | undefined;
        assert.equal(m?.reason, e.declined, `${at}: metadata ${JSON.stringify(r.metadata)}`);
        const decider = m?.request || m?.policy; // an answer's, or a policy's
        assert.ok(typeof decider === "string" && decider !== "", `${at}: ${JSON.stringify(m)}`);
        if (e.declinedMessage !== undefined) {
          assert.equal(m?.message, e.declinedMessage, `${at}: ${JSON.stringify(m)}`);
        }
      } else {
        assert.equal(marker, undefined, `${at}: unexpected declined marker ${JSON.stringify(marker)}`);
      }
    });
  }

  private waiting(where: string, expected: NonNullable<Expect["waiting"]>, got: readonly [ToolCall, Request][]): void {
    assert.deepEqual(
      got.map(([c]) => c.id),
      expected.map((e) => e.id),
      `${where}: waiting`,
    );
    expected.forEach((e, i) => {
      const [call, request] = got[i] as [ToolCall, Request];
      const at = `${where}: waiting ${call.id}`;
      assert.equal(request.prompt, e.prompt, `${at}: prompt`);
      assert.equal(request.kind, e.kind, `${at}: kind`);
      if (e.url !== undefined) {
        assert.equal(request.url, e.url, `${at}: url`);
      }
      if (e.data !== undefined) {
        assert.deepEqual(plain(request.data), e.data, `${at}: data`);
      }
      if (e.requestId !== undefined) {
        assert.equal(request.id, e.requestId, `${at}: id`);
      }
      if (e.kind === "approval" && e.requestId === undefined) {
        assert.deepEqual(plain(request.data), plain({ tool: call.name, arguments: call.arguments }), `${at}: data`);
        assert.ok(request.id.startsWith("apr-"), `${at}: id ${request.id}`);
      }
      if (e.arguments !== undefined) {
        assert.deepEqual(plain(call.arguments), e.arguments, `${at}: arguments`);
      }
      if (e.form !== undefined) {
        assert.deepEqual(plain(approvalForm(request) ?? null), e.form, `${at}: form`);
      }
    });
  }

  private ran(where: string, expected: NonNullable<Expect["ran"]>, runs: readonly Ran[]): void {
    const byId = <T extends { id: string }>(list: readonly T[]): T[] => [...list].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const got = byId(runs);
    const want = byId(expected);
    assert.deepEqual(
      got.map((r) => r.id),
      want.map((w) => w.id),
      `${where}: runs ${JSON.stringify(got)}`,
    );
    want.forEach((w, i) => {
      const r = got[i] as Ran;
      const at = `${where}: run of ${r.id}`;
      assert.deepEqual(r.arguments, w.arguments, `${at}: arguments`);
      assert.equal(r.retry, w.retry ?? false, `${at}: retry`);
      if (w.retry === true) {
        assert.deepEqual(r.data, w.data ?? null, `${at}: data`);
      }
      assert.ok(r.key, `${at}: no idempotency key`);
      const earlier = this.labels.get(w.key);
      if (earlier !== undefined) {
        assert.equal(r.key, earlier, `${at}: key differs from ${w.key}'s earlier key`);
      } else {
        assert.ok(!this.keys.has(r.key), `${at}: key ${r.key} is ${this.keys.get(r.key) ?? ""}'s too, not ${w.key}'s`);
        this.labels.set(w.key, r.key);
        this.keys.set(r.key, w.key);
      }
    });
  }
}
