// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * The toolkit: routes a model's tool calls to tools, and hosts the loop in process. A port of
 * Python's `Toolkit` (`toolnexus/_toolkit.py`): what happens to each call (approval, edited
 * arguments, questions, retries, refusals, expiry) is the engine's (`engine.ts`); the toolkit only
 * supplies its effects: it runs handlers, asks `waitFor`, and tells the time. A call that suspends
 * is either answered on the spot through `waitFor`, or stops the run: the returned `RunResult` is
 * plain data that a host stores and later continues with `resume`, in this process or another,
 * in TypeScript, Python or Rust. The book (`book.ts`) seals those runs.
 *
 * @packageDocumentation
 */

import { parseAnswer, parseRunResult } from "./codec.js";
import { RunBook, type Turn } from "./book.js";
import { ResumeError } from "./errors.js";
import { reached, type Policy } from "./decisions.js";
import { Ask, Run, STOP, Settle, answered, checkAnswer, drive, lapsed, quote, start, type Effects } from "./engine.js";
import { describe, isPlainObject, type JsonObject } from "./json.js";
import { Decisions, handKey, type DecisionLog, type PolicyStore } from "./policies.js";
import type { Limit, LimitInit, Tokenizer } from "./limit.js";
import type { LogLevel, LogListener } from "./log.js";
import { keySet } from "./seal.js";
import { ResultLimits, type ResultSpill } from "./spill.js";
import { pending } from "./suspend.js";
import { Tool, ToolContext, normalizeToolName } from "./tool.js";
import type { Answer, ParsedToolResult, Request, RunResult, ToolCall, ToolCallResult, ToolResult } from "./types.js";

/** `progress(callId, fraction, message)`: what a turn's tools report through `ToolContext.progress`. */
export type ProgressHook = (callId: string, fraction: number, message: string) => void;
/** `onLog(callId, level, message, data)`: a line a tool logs through `ToolContext.log`. */
export type LogHook = (callId: string, level: LogLevel, message: string, data: JsonObject) => void;
/** Hears what a tool's handler threw: the call's id, the tool's name and the error itself (with its stack). */
export type ErrorHook = (callId: string, tool: string, error: unknown) => void;
/** Answers a request during `runCalls`, sync or async. */
export type WaitFor = (request: Request) => Answer | Promise<Answer>;
/** The time, in milliseconds since the epoch (`Date.now` by default). */
export type Clock = () => number;

/** The options of a {@link Toolkit}. */
export interface ToolkitOptions {
  /** One key (at least 16 bytes): the same as `secrets: { default: secret }`. */
  secret?: Uint8Array | undefined;
  /** Keys by id (each id 1 to 64 of `[A-Za-z0-9_-]`, each key at least 16 bytes). */
  secrets?: { readonly [keyId: string]: Uint8Array } | undefined;
  /** The id of the key that seals new runs; needed when there are several. */
  activeKey?: string | undefined;
  /** Tells the time for every expiry the loop reads; `Date.now` by default. */
  clock?: Clock | undefined;
  /** Hears what every tool reports through `ToolContext.progress`. */
  onProgress?: ProgressHook | undefined;
  /** Hears every line a tool logs through `ToolContext.log`: `(callId, level, message, data)`. */
  onLog?: LogHook | undefined;
  /** Hears what a tool's handler throws: `(callId, tool, error)`, the error with its stack, for
   * the host only (the model reads the error result's message). */
  onError?: ErrorHook | undefined;
  /** Keeps the decisions that outlive their turn (`Answer.scope`); a `PolicyMemory` by default. */
  policyStore?: PolicyStore | undefined;
  /** Takes every decision the loop makes (approve, edit, decline, respond, expire). */
  decisionLog?: DecisionLog | undefined;
  /** How long a policy holds, in seconds (8 hours by default). */
  policyLifetime?: number | undefined;
  /** How much of a call's output the model reads (the tighter of it and the tool's own, unit by
   * unit); a longer output is cut, its head and tail kept (docs/guides/result-limits.md). */
  limit?: Limit | LimitInit | undefined;
  /** Where the whole output of a call that was cut is kept, for `readResult` (a `DirectorySpill`,
   * a `MemorySpill`, or the host's own); the marker then names its reference. */
  spill?: ResultSpill | undefined;
  /** Counts tokens for the limits (`ceil(utf8 bytes / 4)` when absent). */
  tokenizer?: Tokenizer | undefined;
}

/** The options of {@link Toolkit.runCalls}. */
export interface RunCallsOptions {
  /** Answers each suspension in place (one at a time, in call order); without it the run stops. */
  waitFor?: WaitFor | undefined;
  /** Seconds after which `resume` refuses the run (sealed; needs a key). */
  expiresIn?: number | undefined;
  /** The user or tenant the run is bound to (sealed; needs a key): `resume` needs the same. */
  principal?: string | undefined;
  /** The turn's id (a fresh random one when absent): with a call's id, it makes its idempotency key. */
  turnId?: string | undefined;
  /** Hears what this turn's tools report, besides the toolkit's own `onProgress`. */
  progress?: ProgressHook | undefined;
  /** Hears the lines this turn's tools log, before the toolkit's own `onLog`. */
  log?: LogHook | undefined;
  /** The host's session: policies made with the scope `session:<id>` decide its turns' approvals. */
  session?: string | undefined;
}

/** The options of {@link Toolkit.resume}. */
export interface ResumeOptions {
  /** The principal resuming the run: a run bound to one needs the same. It is who decides, in the
   * decision log, and the key of the policies `principal` scopes make. */
  principal?: string | undefined;
  progress?: ProgressHook | undefined;
  /** Hears the lines the resumed calls log, as `runCalls`'s `log` does. */
  log?: LogHook | undefined;
  /** The host's session, for policies. */
  session?: string | undefined;
}

/** The options of {@link Toolkit.expire}. */
export interface ExpireOptions {
  /** The time (ms since the epoch); the toolkit's clock when absent. */
  now?: number | undefined;
  /** Needed only to re-seal a bound run made under a key that is no longer the active one. */
  principal?: string | undefined;
}

/** The clock and the listeners a toolkit's options give every call. */
interface ToolkitHooks {
  readonly clock: Clock;
  readonly onProgress: ProgressHook | undefined;
  readonly onLog: LogHook | undefined;
  readonly onError: ErrorHook | undefined;
}

/** The clock (`Date.now` when absent) and the listeners of `options`, checked as the constructor
 * checks them: a `TypeError` for a clock or an `onLog` that is not a function. */
function hooksOf(options: ToolkitOptions): ToolkitHooks {
  const clock = options.clock ?? Date.now;
  if (typeof clock !== "function") {
    throw new TypeError("clock must be a function returning milliseconds since the epoch");
  }
  if (options.onLog !== undefined && typeof options.onLog !== "function") {
    throw new TypeError("onLog must be a function (callId, level, message, data)");
  }
  return { clock, onProgress: options.onProgress, onLog: options.onLog, onError: options.onError };
}

function checkSession(session: unknown): string | undefined {
  if (session !== undefined && typeof session !== "string") {
    throw new TypeError(`session must be a string or undefined, got ${describe(session)}`);
  }
  return session;
}

function checkPrincipal(principal: unknown): string | undefined {
  if (principal !== undefined && typeof principal !== "string") {
    throw new TypeError(`principal must be a string or undefined, got ${describe(principal)}`);
  }
  return principal;
}

/** The call as the toolkit keeps it; a `TypeError` for a value that is not a `ToolCall`. */
function callOf(value: unknown, index: number): ToolCall {
  if (!isPlainObject(value) || typeof value["id"] !== "string" || typeof value["name"] !== "string" || !isPlainObject(value["arguments"])) {
    throw new TypeError(`calls[${index}] is not a ToolCall ({id: string, name: string, arguments: object}): ${describe(value)}`);
  }
  return { id: value["id"], name: value["name"], arguments: value["arguments"] as JsonObject };
}

function answersOf(answers: Answer | readonly Answer[]): Answer[] {
  const batch = Array.isArray(answers) ? answers : [answers];
  if (batch.length === 0) {
    throw new RangeError("resume needs at least one Answer");
  }
  return batch.map((a: unknown, i: number) => parseAnswer(a, Array.isArray(answers) ? `$[${i}]` : "$"));
}

let forgetting: (kit: Toolkit, run: RunResult) => void;

/** @internal Takes back the answers `kit` took when it opened `run` (as it was before resuming): a
 * host whose storage did not keep what followed hands the run back, and the same answers may then
 * be given again, in this process too. */
export function forgetAnswers(kit: Toolkit, run: RunResult): void {
  forgetting(kit, run);
}

/**
 * A set of tools, addressed by name, and the loop that runs a model's calls to them.
 *
 * Sealing: with `secrets` (`{ keyId: key }`, each key at least 16 bytes) and `activeKey` (needed
 * when there are several), every pending `RunResult` carries `seal`, an HMAC-SHA256 under the
 * active key over its `results`, `pending`, `calls`, `requests`, `order` and `turn` (seal version
 * 4, `docs/seal.md`: the same bytes in Python and Rust), the id of that key, and the expiry and
 * principal `runCalls` may bind it to; `resume` refuses a run whose seal does not match, or names
 * a key the toolkit no longer has (`ResumeError("seal")`). To rotate, add a new key and make it
 * active: runs sealed under the old one still resume (and come back sealed under the new one)
 * until the old key is removed. Without a key no seal is written.
 */
export class Toolkit {
  readonly #tools = new Map<string, Tool>();
  readonly #book: RunBook;
  readonly #hooks: ToolkitHooks;
  readonly #decisions: Decisions;
  readonly #limits: ResultLimits;
  static {
    forgetting = (kit, run) => kit.#book.forget(run);
  }

  constructor(tools: Iterable<Tool> = [], options: ToolkitOptions = {}) {
    const { keys, active } = keySet(options.secret, options.secrets, options.activeKey);
    this.#hooks = hooksOf(options);
    this.#decisions = new Decisions(options.policyStore, options.decisionLog, options.policyLifetime ?? 8 * 3600);
    handKey(options.decisionLog, active?.keyId, options.secret ?? (active === null ? undefined : options.secrets?.[active.keyId])); // the log's head is MAC'd under it
    this.#book = new RunBook(keys, active, () => Math.floor(this.now()));
    this.#limits = new ResultLimits(options.limit, options.spill, options.tokenizer);
    for (const tool of tools) {
      this.register(tool);
    }
  }

  // -- registry -------------------------------------------------------------------------------------

  /**
   * Adds `tool` and returns it as registered. A name with characters outside `[a-zA-Z0-9_-]` is
   * registered as a copy of the tool with those characters replaced by `_`. A `TypeError` when
   * the name is empty or another tool already has the (normalised) name.
   */
  register(tool: Tool): Tool {
    if (!(tool instanceof Tool)) {
      throw new TypeError(`expected a Tool (defineTool), got ${describe(tool)}`);
    }
    const name = normalizeToolName(tool.name);
    if (name === "") {
      throw new TypeError("a tool needs a non-empty name");
    }
    if (this.#tools.has(name)) {
      const was = name !== tool.name ? ` (normalised from ${quote(tool.name)})` : "";
      throw new TypeError(`a tool named ${quote(name)}${was} is already registered`);
    }
    const registered = name === tool.name ? tool : tool.renamed(name);
    this.#tools.set(name, registered);
    return registered;
  }

  /** The registered tools, in registration order. */
  tools(): Tool[] {
    return [...this.#tools.values()];
  }

  /** The tool registered under `name` (normalised first), or undefined. */
  get(name: string): Tool | undefined {
    return this.#tools.get(name) ?? this.#tools.get(normalizeToolName(name));
  }

  /** The time by this toolkit's clock (ms since the epoch). */
  now(): number {
    return this.#hooks.clock();
  }

  /** The decisions kept beyond their turn (`Answer.scope`), of `tool` when given, expired ones too;
   * each approves or refuses the later calls it covers without asking. */
  async policies(tool?: string): Promise<Policy[]> {
    return this.#decisions.store.policies(tool);
  }

  /** Revokes a policy by its id (`Policy.id`); false when there is none. */
  async revokePolicy(policyId: string): Promise<boolean> {
    return this.#decisions.store.revoke(policyId);
  }

  // -- running --------------------------------------------------------------------------------------

  /**
   * Runs the tool `name`. An unknown name is the error result `Unknown tool: <name>`. This is the
   * tool run itself: it asks for no approval and applies no loop rule.
   */
  async execute(name: string, args: JsonObject | null | undefined, ctx?: ToolContext): Promise<ParsedToolResult> {
    const tool = this.get(name);
    if (tool === undefined) {
      return { output: `Unknown tool: ${name}`, isError: true, parts: [] }; // the text of every upstream port
    }
    return tool.call(args, ctx);
  }

  /**
   * Runs one turn's calls concurrently under the loop's rules (see `engine.ts`).
   *
   * A call to a tool with `needsApproval` does not run: it suspends on a request of kind
   * `approval` whose `data` is `{tool, arguments}` (its id begins `apr-`). An `ok` answer runs the
   * handler once, as a first run, with the arguments of the answer's `data.arguments` when it
   * has them (an object, checked against the input schema). A refusal gives the error
   * `declined: the call to <name> was not approved`, and the handler never runs.
   *
   * With `waitFor`, each suspension is answered in call order (one question at a time): `ok`
   * re-runs the call once with `ctx.answer` set, and a second suspension becomes the error
   * `unresolved: <the original request's prompt>`; a refusal, or a request whose `expiresAt` has
   * passed, becomes the error `declined/expired: <prompt>`. The run is then `done`.
   *
   * Without `waitFor`, the run stops when any call suspends: the result is `pending` on the first
   * suspension in call order, with every finished result in `results`, the suspended calls in
   * `calls` and their requests in `requests` (call order). Continue it with `resume`.
   *
   * A refusal's `Answer.message` is what the model reads (`declined: <message>`). An approval's
   * `Answer.scope` beyond `once` decides the turn's other approvals of the same tool alike; a policy
   * kept before (see `resume`) decides an approval without asking, by the turn's `session` and
   * `principal`.
   */
  async runCalls(calls: Iterable<ToolCall>, options: RunCallsOptions = {}): Promise<RunResult> {
    const list = [...calls].map(callOf);
    const principal = checkPrincipal(options.principal);
    const session = checkSession(options.session);
    const turn = this.#book.begin(list, options.turnId, options.expiresIn, principal);
    const first = new LoopEffects(this, this.#decisions, turn, { progress: options.progress, log: options.log, session, principal });
    const outcomes = await Promise.all(list.map((call) => drive(start(call), first)));
    if (options.waitFor === undefined) {
      return this.#book.close(turn, outcomes);
    }
    const asking = new LoopEffects(this, this.#decisions, turn, { waitFor: options.waitFor, progress: options.progress, log: options.log, session, principal });
    const settled = await Promise.all(outcomes.map((outcome) => drive(outcome, asking)));
    return { status: "done", results: settled.map(itemOf) };
  }

  /**
   * Continues a pending run with answers to any of the requests it waits on.
   *
   * `answers` is one `Answer` or several, in any order; each answers the waiting call whose
   * request has its id (two calls asked under one fixed id take one answer each, in call order).
   * Each answered call goes on under the loop's rules, the answered calls concurrently; calls not
   * answered keep waiting, without running again. The run returned is `pending` on the first of
   * them in call order, or `done`; results stay in call order.
   *
   * The run is read and checked in full: its seal (when the toolkit has keys), the order of its
   * lists, its sealed expiry and its principal. Throws `ResumeError` (see there), running
   * nothing, when an answer does not belong to the run or was already given to this toolkit (it
   * remembers the last 10,000 answers), the seal does not hold, the run has expired, or
   * `principal` is not the one the run is bound to. Throws `WireError` for a run or an answer that
   * is not valid wire data.
   *
   * An approval's `Answer.scope` may reach beyond its call: `turn` decides the run's other approvals
   * of the same tool alike; `session:<id>`, `principal` and `tool` also keep a policy (`policies()`)
   * deciding later calls unasked, for `policyLifetime` seconds. Every decision goes to the
   * `decisionLog`, with `principal` as who made it.
   */
  async resume(run: RunResult, answers: Answer | readonly Answer[], options: ResumeOptions = {}): Promise<RunResult> {
    const batch = answersOf(answers);
    const principal = checkPrincipal(options.principal);
    const session = checkSession(options.session);
    const opening = this.#book.open(parseRunResult(run), batch, principal);
    const effects = new LoopEffects(this, this.#decisions, opening.checked.turn, { progress: options.progress, log: options.log, session, principal });
    const now = this.now();
    const taken = opening.picks.map((p) => {
      const ask = new Ask(p.call, p.request);
      return [ask, p.answer, answered(ask, p.answer, now)] as const;
    });
    await take(this.#decisions, () => this.#book.forget(opening.run), taken, session, principal, now);
    const steps: (Run | Settle)[] = taken.map(([, , step]) => step);
    steps.push(...opening.restart.map(start));
    const outcomes = await Promise.all(steps.map((step) => drive(step, effects)));
    return this.#book.advance(opening, outcomes);
  }

  /**
   * `run` with every waiting call whose time ran out by `now` (this toolkit's clock when absent)
   * settled as the loop settles an expiry (`declined/expired: <prompt>`, or `declined: the call
   * to <tool> was not approved (expired)`, marked `metadata.declined` with reason `expired`):
   * each call whose request's `expiresAt` has passed, and every call once the run's sealed expiry
   * has. No tool runs. Returns `run` itself when nothing has expired. The seal must hold
   * (`ResumeError("seal")`); the sealed expiry and principal do not stop it.
   */
  async expire(run: RunResult, options: ExpireOptions = {}): Promise<RunResult> {
    const principal = checkPrincipal(options.principal);
    const now = options.now ?? this.now();
    const opening = this.#book.openLapsed(parseRunResult(run), now, principal);
    if (opening === undefined) {
      return run;
    }
    const taken = opening.picks.map((p) => {
      const ask = new Ask(p.call, p.request);
      return [ask, undefined, lapsed(ask, now)] as const;
    });
    await take(this.#decisions, () => this.#book.forget(opening.run), taken, undefined, undefined, now);
    return this.#book.advance(opening, taken.map(([, , step]) => step));
  }

  /** One run of `call`, as the loop asks a host for it: with `gateFirst`, a first run that
   * suspends on the tool's approval instead when the tool needs one and no policy of the turn's
   * `session` and `principal` decides it (the handler does not run); else the handler, its result
   * fitted to the call's limit (the whole output kept for the turn's scope when it was cut). */
  async perform(
    call: ToolCall,
    {
      answer,
      request,
      gateFirst = false,
      idempotencyKey = "",
      onProgress,
      onLog,
      session,
      principal,
    }: {
      answer?: Answer | undefined;
      request?: Request | undefined;
      gateFirst?: boolean;
      idempotencyKey?: string;
      onProgress?: ((fraction: number, message: string) => void) | undefined;
      /** The run's log lines (the turn's `log`, then the toolkit's `onLog`); the toolkit's alone when absent. */
      onLog?: LogListener | undefined;
      session?: string | undefined;
      principal?: string | undefined;
    } = {},
  ): Promise<ToolResult> {
    if (gateFirst) {
      const gating = this.#decisions.gate(this.get(call.name), call, session, principal, this.now());
      const asked = gating instanceof Promise ? await gating : gating; // most calls: no wait
      if (asked !== undefined) {
        return "result" in asked ? asked.result : pending(asked.request);
      }
    }
    const { onProgress: kit, onLog: own, onError: hook } = this.#hooks;
    const report = onProgress ?? (kit === undefined ? undefined : (fraction: number, message: string) => kit(call.id, fraction, message));
    const logged = onLog ?? (own === undefined ? undefined : (level: LogLevel, message: string, data: JsonObject) => own(call.id, level, message, data));
    const onError = hook === undefined ? undefined : (err: unknown) => hook(call.id, call.name, err);
    const scope = { principal, session };
    const limits = this.#limits;
    const ctx = new ToolContext({ answer, request, callId: call.id, idempotencyKey, onProgress: report, onLog: logged, onError, keptResults: limits.reader(scope) });
    const result = await this.execute(call.name, call.arguments, ctx);
    return limits.apply(this.get(call.name), result, idempotencyKey, scope);
  }

  /** @internal The toolkit's own `onLog`. */
  get onLog(): LogHook | undefined {
    return this.#hooks.onLog;
  }

  /** @internal The toolkit's own `onProgress`. */
  get onProgress(): ProgressHook | undefined {
    return this.#hooks.onProgress;
  }
}

/**
 * The toolkit's effects for the engine's steps of one turn: handlers run in process, asks go to
 * `waitFor` one at a time (or leave the call waiting), and the time is the toolkit's.
 */
class LoopEffects implements Effects {
  #queue: Promise<unknown> = Promise.resolve();
  /** What the first `waitFor` that failed threw: the turn is over, so no other question is asked. */
  #failed: { error: unknown } | undefined;
  /** The turn's decisions, for `reached`. */
  readonly #decided: [Ask, Answer][] = [];

  private readonly waitFor: WaitFor | undefined;
  private readonly progress: ProgressHook | undefined;
  private readonly log: LogHook | undefined;
  private readonly session: string | undefined;
  private readonly principal: string | undefined;

  constructor(
    private readonly kit: Toolkit,
    private readonly decisions: Decisions,
    private readonly turn: Turn,
    options: { waitFor?: WaitFor | undefined; progress?: ProgressHook | undefined; log?: LogHook | undefined; session: string | undefined; principal: string | undefined },
  ) {
    this.waitFor = options.waitFor;
    this.progress = options.progress;
    this.log = options.log;
    this.session = options.session;
    this.principal = options.principal;
  }

  run(step: Run): Promise<ToolResult> {
    const { call } = step;
    const { progress, kit } = this;
    const own = kit.onProgress;
    const report =
      progress === undefined
        ? undefined
        : (fraction: number, message: string) => {
            progress(call.id, fraction, message);
            own?.(call.id, fraction, message);
          };
    const { log } = this;
    const kitLog = kit.onLog;
    const logged =
      log === undefined
        ? undefined
        : (level: LogLevel, message: string, data: JsonObject) => {
            log(call.id, level, message, data);
            kitLog?.(call.id, level, message, data);
          };
    return this.kit.perform(call, {
      answer: step.answer,
      request: step.request,
      gateFirst: step.gate,
      idempotencyKey: this.turn.idempotencyKey(call.id),
      onProgress: report,
      onLog: logged,
      session: this.session,
      principal: this.principal,
    });
  }

  ask(step: Ask): Promise<Answer | typeof STOP | undefined> {
    const waitFor = this.waitFor;
    if (waitFor === undefined) {
      return Promise.resolve(STOP);
    }
    // One question at a time, in the order asked.
    const next = this.#queue.then(() => {
      if (this.#failed !== undefined) {
        throw this.#failed.error;
      }
      // decided already, with a scope beyond once
      return reached(this.#decided, step) ?? askOnce(waitFor, step);
    });
    this.#queue = next.catch((error: unknown) => {
      this.#failed ??= { error };
    });
    return next;
  }

  decide(step: Ask, answer: Answer | undefined, after: Run | Settle): Promise<void> {
    if (answer !== undefined) {
      this.#decided.push([step, answer]); // before any await: the next ask reads it (`reached`)
    }
    return this.decisions.decide(step, answer, after, this.session, this.principal, this.kit.now());
  }

  now(): number {
    return this.kit.now();
  }
}

/** The decisions of one resume, kept and logged as one unit (`Decisions.decideAll`); when that
 * fails nothing was decided, so the answers are not remembered as taken (`forget`). */
async function take(decisions: Decisions, forget: () => void, taken: readonly (readonly [Ask, Answer | undefined, Run | Settle])[], session: string | undefined, principal: string | undefined, now: number): Promise<void> {
  try {
    await decisions.decideAll(taken, session, principal, now);
  } catch (error) {
    forget();
    throw error;
  }
}

async function askOnce(waitFor: WaitFor, step: Ask): Promise<Answer> {
  const request = step.request;
  const given: unknown = await waitFor(request);
  if (!isPlainObject(given)) {
    throw new TypeError(`waitFor must return an Answer, got ${describe(given)}`);
  }
  const answer = parseAnswer(given);
  if (answer.id !== request.id) {
    throw new ResumeError("mismatch", `waitFor answered ${quote(answer.id)}, but the request is ${quote(request.id)}`);
  }
  checkAnswer(step, answer);
  return answer;
}

function itemOf(outcome: Ask | Settle): ToolCallResult {
  if (!(outcome instanceof Settle)) {
    throw new Error("with waitFor every call settles"); // never: `drive` asks until it does
  }
  return { id: outcome.call.id, name: outcome.call.name, result: outcome.result };
}
