// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * The pending-run book: what a toolkit keeps of its turns, and the check of every run that comes
 * back. A port of Python's `toolnexus/_book.py` and `toolnexus/_stored.py`, simpler in one way: it
 * tracks no run it handed out, so every run given to `resume` is read and checked in full (its
 * seal, the order of its lists, its sealed expiry and principal). The guarantees are the same:
 *
 *     turn = book.begin(calls, turnId, expiresIn, principal)   // ids checked, keys derived
 *     run = book.close(turn, outcomes)                         // done, or pending and sealed
 *     opening = book.open(run, answers, principal)             // checked, answers picked
 *     run = book.advance(opening, outcomes)                    // the answered calls settled
 *
 * - turn state: the turn's call order, its id (`RunResult.turn`) and each call's
 *   `ToolContext.idempotencyKey` (`Turn.idempotencyKey`);
 * - seal assembly, version 4 (`seal.ts`): keyed sums over the results and the waiting calls;
 * - replay memory: the last 10,000 answers taken, by turn, call and request.
 *
 * Seal versions 1 to 3, which Python still checks, are refused here (`ResumeError("seal")`).
 *
 * @packageDocumentation
 */

import { toJsonRunResult, toWireRequest, toWireToolCall, toWireToolCallResult } from "./codec.js";
import { Ask, Settle, checkAnswer, errorResult, expired, match, messageOf, quote, reach } from "./engine.js";
import { ResumeError } from "./errors.js";
import { randomHex } from "./suspend.js";
import { NotJSON, SealKey, add, canonical, digest, hex, orderDigest, parseStamp, same, sha256, sub, turnDigest, idempotencyKey, utf8 } from "./seal.js";
import type { Answer, Request, RunResult, ToolCall, ToolCallResult } from "./types.js";
import { cannotWait } from "./loop.js";

const ANSWERED_MEMORY = 10_000;
/** Seconds; the seal writes the expiry in at most 20 digits. */
const MAX_EXPIRES_IN = 100 * 365 * 24 * 3600;
/** The pending digest of a run without a pending request (as Python's seal writes it). */
const NO_PENDING = sha256(utf8("toolnexus.RunResult.seal.v2.no-pending"));

function pairOf(callId: string, requestId: string): string {
  return JSON.stringify([callId, requestId]);
}

/**
 * What every pending run of one turn shares: its call order, its id, its digest (which makes the
 * idempotency keys), and, under the active key, the sealing terms of its waiting calls.
 */
export class Turn {
  readonly positions: Map<string, number>;
  readonly digest: Uint8Array;
  readonly orderDigest: Uint8Array;
  expires: number | null = null;
  principalTag = "";
  /** The sealing term of each waiting (call, request) pair, and its request's digest. */
  readonly terms = new Map<string, bigint>();
  readonly requestDigests = new Map<string, Uint8Array>();
  /** The call ids waiting on each request id, in call order. */
  readonly asked = new Map<string, string[]>();

  constructor(
    readonly order: readonly string[],
    /** The run's `turn` on the wire (empty for a run stored before it existed). */
    readonly tid: string,
    readonly key: SealKey | null,
  ) {
    this.positions = new Map(order.map((id, i) => [id, i]));
    this.digest = turnDigest(order, tid);
    this.orderDigest = key === null ? new Uint8Array() : orderDigest(tid, order);
  }

  position(callId: string): number {
    return this.positions.get(callId) ?? this.positions.size;
  }

  /** The `ToolContext.idempotencyKey` of the call `callId` of this turn. */
  idempotencyKey(callId: string): string {
    return idempotencyKey(this.digest, callId);
  }

  /** Notes that `call` waits on `request` (with their digests and keyed term, when known);
   * {@link NotJSON} when they cannot be sealed. */
  wait(call: ToolCall, request: Request, digests?: readonly [Uint8Array, Uint8Array], term?: bigint): void {
    if (this.key !== null) {
      const [callDigest, requestDigest] = digests ?? [digest(toWireToolCall(call)), digest(toWireRequest(request))];
      const pair = pairOf(call.id, request.id);
      this.terms.set(pair, term ?? this.key.waitingTerm(this.position(call.id), callDigest, requestDigest));
      this.requestDigests.set(pair, requestDigest);
    }
    const ids = this.asked.get(request.id);
    if (ids === undefined) {
      this.asked.set(request.id, [call.id]);
    } else {
      ids.push(call.id);
    }
  }

  term(call: ToolCall, request: Request): bigint {
    return this.terms.get(pairOf(call.id, request.id)) ?? 0n;
  }
}

/** A run checked: its turn, and the keyed sums its seal holds under the active key. */
interface Checked {
  turn: Turn;
  resultsTotal: bigint;
  waitingTotal: bigint;
}

/** One answer of a `resume`, and the waiting call (at `index` in the run) it answers. */
export interface Pick {
  index: number;
  call: ToolCall;
  request: Request;
  /** Undefined: settled by the time (`RunBook.openLapsed`). */
  answer: Answer | undefined;
}

/** A pending run opened for answers: its state, and the waiting call each answer answers.
 * `restart` lists the calls of a run stored before `requests` existed that run afresh. */
export interface Opening {
  run: RunResult;
  checked: Checked;
  picks: Pick[];
  restart: ToolCall[];
}

/** The pending runs of one toolkit; see the module's documentation. */
export class RunBook {
  /** (turn, call id, request id) of every answer taken: two calls may ask under one fixed id. */
  readonly #answered = new Map<string, true>();

  constructor(
    readonly keys: ReadonlyMap<string, SealKey>,
    readonly active: SealKey | null,
    private readonly clockMs: () => number,
  ) {}

  // -- a turn, from its calls to its run -----------------------------------------------------------

  /** A new turn of `calls` (distinct ids), to be sealed with `expiresIn` and `principal`. */
  begin(calls: readonly ToolCall[], turnId: string | undefined, expiresIn: number | undefined, principal: string | undefined): Turn {
    if (turnId !== undefined && (typeof turnId !== "string" || turnId === "")) {
      throw new TypeError(`turnId must be a non-empty string or undefined, got ${JSON.stringify(turnId)}`);
    }
    const ids = calls.map((c) => c.id);
    if (new Set(ids).size !== ids.length) {
      throw new TypeError(`the calls of one turn need distinct ids, got ${JSON.stringify(ids)}`);
    }
    const expires = this.#expiry(expiresIn, principal);
    const turn = new Turn(ids, turnId ?? randomTurnId(), this.active);
    turn.expires = expires;
    if (this.active !== null) {
      turn.principalTag = this.active.principalTag(principal ?? null);
    }
    return turn;
  }

  /**
   * The run of `turn` after its calls' `outcomes` (and the results `done` before): `done`, or
   * `pending` on its waiting calls, sealed. In a pending run, a finished result that cannot be
   * stored becomes an error result saying so: the run always can be.
   */
  close(turn: Turn, outcomes: readonly (Ask | Settle)[], done: readonly ToolCallResult[] = []): RunResult {
    const finished = [...done];
    const waiting: ToolCall[] = [];
    const requests: Request[] = [];
    for (let outcome of outcomes) {
      if (outcome instanceof Ask) {
        outcome = waitOrSettle(turn, outcome);
      }
      if (outcome instanceof Settle) {
        finished.push({ id: outcome.call.id, name: outcome.call.name, result: outcome.result });
        continue;
      }
      waiting.push(outcome.call);
      requests.push(outcome.request);
    }
    finished.sort((a, b) => turn.position(a.id) - turn.position(b.id));
    if (waiting.length === 0) {
      return { status: "done", results: finished };
    }
    let resultsTotal = 0n;
    let waitingTotal = 0n;
    for (let i = 0; i < finished.length; i++) {
      const [item, term] = storable(finished[i] as ToolCallResult, turn);
      finished[i] = item;
      resultsTotal = add(resultsTotal, term);
    }
    for (let i = 0; i < waiting.length; i++) {
      waitingTotal = add(waitingTotal, turn.term(waiting[i] as ToolCall, requests[i] as Request));
    }
    return this.#pending(turn, finished, waiting, requests, resultsTotal, waitingTotal);
  }

  // -- a run, from its answers to its next run -------------------------------------------------------

  /** `run` checked and opened for `batch`: each answer matched to the call it answers and
   * remembered as taken. `ResumeError` (nothing taken) when the run cannot take them. */
  open(run: RunResult, batch: readonly Answer[], principal: string | undefined): Opening {
    const request = run.pending;
    const calls = run.calls ?? [];
    const requests = run.requests ?? [];
    const first = batch[0] as Answer;
    if (run.status !== "pending" || request === undefined || calls.length === 0) {
      const head = calls[0];
      if (head !== undefined && this.#answered.has(answeredKey(turnDigest(run.order ?? [], run.turn ?? ""), head.id, first.id))) {
        throw new ResumeError("replayed", `request ${quote(first.id)} was already answered`);
      }
      throw new ResumeError("not_pending", `the run waits on no request, so answer ${quote(first.id)} has no use`);
    }
    if (requests.length === 0) {
      return this.#openUnlisted(run, batch, principal);
    }
    if (requests.length !== calls.length || (requests[0] as Request).id !== request.id) {
      if (this.active !== null) {
        throw new ResumeError("seal", "the run's requests do not match its waiting calls: it was altered");
      }
      throw new ResumeError("not_pending", "the run's requests do not match its waiting calls");
    }
    const checked = verify(this.keys, this.active, run, principal, this.clockMs(), { unlisted: false, stamp: true });
    const picks = this.#pick(run, checked.turn, batch);
    for (const pick of picks) {
      this.#remember(answeredKey(checked.turn.digest, pick.call.id, pick.request.id));
    }
    return { run, checked, picks, restart: [] };
  }

  /** `run` opened to settle its waiting calls whose time ran out by `now` (ms): those whose
   * request expired, or all of them past the run's sealed expiry. Undefined when none has. The
   * seal must hold; the sealed expiry and principal do not stop it (no tool runs). */
  openLapsed(run: RunResult, now: number, principal: string | undefined): Opening | undefined {
    const calls = run.calls ?? [];
    const requests = run.requests ?? [];
    if (run.status !== "pending" || run.pending === undefined || calls.length === 0) {
      throw new ResumeError("not_pending", "the run waits on no request, so nothing of it can expire");
    }
    if (requests.length === 0) {
      // a run stored before `requests` existed: its pending request only
      const checked = verify(this.keys, this.active, run, principal, this.clockMs(), { unlisted: true, stamp: false });
      const head = calls[0] as ToolCall;
      if (calls.length > 1 || !expired(run.pending, now)) {
        return undefined; // (its others would run again)
      }
      this.#remember(answeredKey(checked.turn.digest, head.id, run.pending.id));
      return { run, checked, picks: [{ index: 0, call: head, request: run.pending, answer: undefined }], restart: [] };
    }
    if (requests.length !== calls.length) {
      throw new ResumeError(this.active !== null ? "seal" : "not_pending", "the run's requests do not match its waiting calls");
    }
    const checked = verify(this.keys, this.active, run, principal, this.clockMs(), { unlisted: false, stamp: false });
    const whole = checked.turn.expires !== null && now >= checked.turn.expires;
    const picks: Pick[] = [];
    calls.forEach((call, index) => {
      const request = requests[index] as Request;
      if (whole || expired(request, now)) {
        picks.push({ index, call, request, answer: undefined });
      }
    });
    if (picks.length === 0) {
      return undefined;
    }
    for (const pick of picks) {
      this.#remember(answeredKey(checked.turn.digest, pick.call.id, pick.request.id));
    }
    return { run, checked, picks, restart: [] };
  }

  /** The opened run with each pick's outcome (in pick order, then `restart`'s) in place. */
  advance(opening: Opening, outcomes: readonly (Ask | Settle)[]): RunResult {
    const { run, checked, picks } = opening;
    const turn = checked.turn;
    if ((run.requests ?? []).length === 0) {
      // a run stored before `requests` existed: every call is in `outcomes`
      return this.close(new Turn(run.order ?? [], run.turn ?? "", this.active), outcomes, run.results);
    }
    let { resultsTotal, waitingTotal } = checked;
    const added: ToolCallResult[] = [];
    const stays = new Map<number, readonly [ToolCall, Request] | null>();
    picks.forEach((pick, i) => {
      let outcome = outcomes[i] as Ask | Settle;
      if (turn.key !== null) {
        waitingTotal = sub(waitingTotal, turn.term(pick.call, pick.request));
      }
      if (outcome instanceof Ask) {
        outcome = waitOrSettle(turn, outcome);
      }
      if (outcome instanceof Ask) {
        // asked afresh after its approval: it waits on
        if (turn.key !== null) {
          waitingTotal = add(waitingTotal, turn.term(outcome.call, outcome.request));
        }
        stays.set(pick.index, [outcome.call, outcome.request]);
        return;
      }
      stays.set(pick.index, null);
      const [item, term] = storable({ id: outcome.call.id, name: outcome.call.name, result: outcome.result }, turn);
      added.push(item);
      resultsTotal = add(resultsTotal, term);
    });
    const results = [...run.results, ...added].sort((a, b) => turn.position(a.id) - turn.position(b.id));
    const calls: ToolCall[] = [];
    const requests: Request[] = [];
    (run.calls ?? []).forEach((call, index) => {
      const stay = stays.has(index) ? stays.get(index) : ([call, (run.requests ?? [])[index] as Request] as const);
      if (stay !== null && stay !== undefined) {
        calls.push(stay[0]);
        requests.push(stay[1]);
      }
    });
    if (calls.length === 0) {
      return { status: "done", results };
    }
    return this.#pending(turn, results, calls, requests, resultsTotal, waitingTotal);
  }

  // -- the parts -----------------------------------------------------------------------------------

  /** A pending run of these lists, sealed under the turn's key. */
  #pending(turn: Turn, results: ToolCallResult[], calls: ToolCall[], requests: Request[], resultsTotal: bigint, waitingTotal: bigint): RunResult {
    const run: RunResult = {
      status: "pending",
      results,
      pending: requests[0] as Request,
      calls,
      requests,
      order: [...turn.order],
      turn: turn.tid,
    };
    if (turn.key !== null) {
      const head = calls[0] as ToolCall;
      run.seal = turn.key.seal({
        expires: turn.expires,
        principalTag: turn.principalTag,
        pending: turn.requestDigests.get(pairOf(head.id, (requests[0] as Request).id)) as Uint8Array,
        order: turn.orderDigest,
        nResults: results.length,
        results: resultsTotal,
        nWaiting: calls.length,
        waiting: waitingTotal,
      });
    }
    if (run.turn === "") {
      delete run.turn;
    }
    return run;
  }

  /** The waiting call each answer answers (`match`); `ResumeError` when one answers none. */
  #pick(run: RunResult, turn: Turn, batch: readonly Answer[]): Pick[] {
    const calls = run.calls ?? [];
    const requests = run.requests ?? [];
    const slots = new Map(calls.map((c, i) => [c.id, i]));
    const candidates = function* (requestId: string): Iterable<readonly [number, string]> {
      for (const callId of turn.asked.get(requestId) ?? []) {
        const index = slots.get(callId);
        if (index !== undefined && (requests[index] as Request).id === requestId) {
          yield [index, callId] as const;
        }
      }
    };
    const answeredBefore = (callId: string, requestId: string): boolean => this.#answered.has(answeredKey(turn.digest, callId, requestId));
    const indices = match(batch, candidates, answeredBefore, run.pending?.id ?? "");
    const picks: Pick[] = indices.map((i, n) => ({ index: i, call: calls[i] as ToolCall, request: requests[i] as Request, answer: batch[n] as Answer }));
    for (const pick of picks) {
      checkAnswer(new Ask(pick.call, pick.request), pick.answer as Answer);
    }
    if (batch.every((a) => !a.scope || a.scope === "once")) {
      return picks;
    }
    // A decision that reaches beyond its call settles the run's other approvals of its tool.
    const asks = calls.map((c, i) => new Ask(c, requests[i] as Request));
    const taken = new Set(indices);
    for (const pick of [...picks]) {
      for (const [index, answer] of reach(asks, pick.index, pick.answer as Answer)) {
        const call = calls[index] as ToolCall;
        if (!taken.has(index) && !answeredBefore(call.id, answer.id)) {
          taken.add(index);
          picks.push({ index, call, request: requests[index] as Request, answer });
        }
      }
    }
    return picks;
  }

  /** A run stored before `requests` existed (only a toolkit without keys takes one): only its
   * pending request is known, so it takes that one answer, and its other waiting calls run afresh
   * (gated as new calls). */
  #openUnlisted(run: RunResult, batch: readonly Answer[], principal: string | undefined): Opening {
    const request = run.pending as Request;
    const calls = run.calls ?? [];
    const head = calls[0] as ToolCall;
    const checked = verify(this.keys, this.active, run, principal, this.clockMs(), { unlisted: true, stamp: true });
    const first = batch[0] as Answer;
    if (this.#answered.has(answeredKey(checked.turn.digest, head.id, first.id))) {
      throw new ResumeError("replayed", `request ${quote(first.id)} was already answered`);
    }
    if (batch.length !== 1 || first.id !== request.id) {
      const wrong = batch.find((a) => a.id !== request.id)?.id ?? (batch[batch.length - 1] as Answer).id;
      throw new ResumeError("mismatch", `answer ${quote(wrong)} does not answer the pending request ${quote(request.id)}`);
    }
    checkAnswer(new Ask(head, request), first);
    this.#remember(answeredKey(checked.turn.digest, head.id, request.id));
    return { run, checked, picks: [{ index: 0, call: head, request, answer: first }], restart: calls.slice(1) };
  }

  /** Takes back every answer taken when `run` (as it was before resuming) was opened: its
   * decisions could not be kept, so nothing was taken, and the same answers may be given again. */
  forget(run: RunResult): void {
    const digest = turnDigest(run.order ?? [], run.turn ?? "");
    const calls = run.calls ?? [];
    const requests = run.requests ?? [];
    calls.forEach((call, i) => {
      const request = requests[i] ?? (i === 0 ? run.pending : undefined);
      if (request !== undefined) {
        this.#answered.delete(answeredKey(digest, call.id, request.id));
      }
    });
  }

  #remember(key: string): void {
    this.#answered.set(key, true);
    while (this.#answered.size > ANSWERED_MEMORY) {
      this.#answered.delete(this.#answered.keys().next().value as string);
    }
  }

  #expiry(expiresIn: number | undefined, principal: string | undefined): number | null {
    if (principal !== undefined && typeof principal !== "string") {
      throw new TypeError(`principal must be a string or undefined, got ${typeof principal}`);
    }
    if (expiresIn !== undefined && (typeof expiresIn !== "number" || !Number.isFinite(expiresIn) || !(expiresIn > 0 && expiresIn <= MAX_EXPIRES_IN))) {
      throw new RangeError(`expiresIn must be a positive number of seconds, at most 100 years, got ${String(expiresIn)}`);
    }
    if ((expiresIn !== undefined || principal !== undefined) && this.active === null) {
      throw new TypeError("expiresIn and principal are written into the seal, so they need a toolkit with a key (secret or secrets)");
    }
    return expiresIn === undefined ? null : this.clockMs() + Math.ceil(expiresIn * 1000);
  }
}

// -- reading a run from outside ------------------------------------------------------------------------

/** `ResumeError("expired")` past the sealed expiry; `ResumeError("principal")` when the run is bound
 * to a principal (`tag`, under `key`) and `principal` is not it. */
function checkStamp(key: SealKey, expires: number | null, tag: string, principal: string | undefined, nowMs: number): void {
  if (expires !== null && nowMs >= expires) {
    throw new ResumeError("expired", "the run has expired: its seal's time to resume has passed");
  }
  if (tag && (principal === undefined || !same(key.principalTag(principal), tag))) {
    const who = principal === undefined ? "no principal was given" : "the principal given is not it";
    throw new ResumeError("principal", `the run is bound to a principal, and ${who}`);
  }
}

/** What a seal that holds gives: its key, expiry and principal tag, the digests of the run's
 * elements, its keyed sums and each waiting call's term. */
interface SealChecked {
  key: SealKey;
  expires: number | null;
  principalTag: string;
  resultDigests: Uint8Array[];
  callDigests: Uint8Array[];
  requestDigests: Uint8Array[];
  resultsTotal: bigint;
  waitingTotal: bigint;
  waitingTerms: bigint[];
}

/**
 * Checks `run` in full (its seal, when there are keys) and says what continues it. `unlisted`: a
 * run stored before `requests` existed. Without `stamp`, the sealed expiry and principal are not
 * checked (the run is settled, not resumed: no tool runs) and the run keeps its binding.
 */
function verify(
  keys: ReadonlyMap<string, SealKey>,
  active: SealKey | null,
  run: RunResult,
  principal: string | undefined,
  nowMs: number,
  { unlisted, stamp }: { unlisted: boolean; stamp: boolean },
): Checked {
  const calls = run.calls ?? [];
  const requests = run.requests ?? [];
  const turn = new Turn(run.order ?? [], run.turn ?? "", active);
  const given = run.seal;
  if (active === null) {
    if (given !== undefined) {
      throw new ResumeError("seal", "the run is sealed, but this toolkit has no secret to check it");
    }
    if (!unlisted) {
      calls.forEach((call, i) => turn.wait(call, requests[i] as Request));
    }
    return { turn, resultsTotal: 0n, waitingTotal: 0n };
  }
  if (given === undefined) {
    throw new ResumeError("seal", "the run has no seal; this toolkit only resumes runs it sealed");
  }
  if (unlisted) {
    // Only seal versions 1 and 2 sealed such runs, which the Python package alone checks.
    throw new ResumeError("seal", "the run lists no requests, so its seal is of version 1 or 2, which only the Python package checks");
  }
  let checked: SealChecked;
  try {
    checked = checkSeal(keys, run, given, turn);
  } catch (err) {
    if (err instanceof NotJSON) {
      throw new ResumeError("seal", `the run holds a value that is not JSON (${err.message}); it was not sealed here`);
    }
    throw err;
  }
  const places = run.results.map((r) => turn.position(r.id));
  const waits = calls.map((c) => turn.position(c.id));
  const outOfOrder = places.some((p, i) => i > 0 && (places[i - 1] as number) > p) || waits.some((w, i) => i > 0 && (waits[i - 1] as number) >= w);
  if (outOfOrder) {
    throw new ResumeError("seal", "the run's results or calls are out of call order: it was altered");
  }
  if (waits.length > 0 && (waits[waits.length - 1] as number) >= turn.positions.size) {
    throw new ResumeError("seal", "a waiting call is not in the run's order: it was altered");
  }
  if (stamp) {
    checkStamp(checked.key, checked.expires, checked.principalTag, principal, nowMs);
  }
  // From here on the run is sealed under the active key: rotation moves it forward.
  turn.expires = checked.expires;
  turn.principalTag = checked.principalTag ? rebound(checked, active, principal, nowMs) : "";
  if (checked.key === active) {
    // the sums hold as they are
    calls.forEach((call, i) => {
      turn.wait(call, requests[i] as Request, [checked.callDigests[i] as Uint8Array, checked.requestDigests[i] as Uint8Array], checked.waitingTerms[i]);
    });
    return { turn, resultsTotal: checked.resultsTotal, waitingTotal: checked.waitingTotal };
  }
  let resultsTotal = 0n;
  let waitingTotal = 0n;
  run.results.forEach((item, i) => {
    resultsTotal = add(resultsTotal, active.term(turn.position(item.id), checked.resultDigests[i] as Uint8Array));
  });
  calls.forEach((call, i) => {
    const request = requests[i] as Request;
    turn.wait(call, request, [checked.callDigests[i] as Uint8Array, checked.requestDigests[i] as Uint8Array]);
    waitingTotal = add(waitingTotal, turn.term(call, request));
  });
  return { turn, resultsTotal, waitingTotal };
}

/** The principal tag of a bound run sealed afresh under the active key. */
function rebound(checked: SealChecked, active: SealKey, principal: string | undefined, nowMs: number): string {
  if (checked.key === active && principal === undefined) {
    return checked.principalTag; // settled unasked: the binding stays as it is
  }
  checkStamp(checked.key, null, checked.principalTag, principal, nowMs);
  return active.principalTag(principal ?? null);
}

/** What `run`'s seal `given` holds, once it holds; `ResumeError` when it does not, {@link NotJSON}
 * when the run holds a value without a canonical form. */
function checkSeal(keys: ReadonlyMap<string, SealKey>, run: RunResult, given: string, turn: Turn): SealChecked {
  const stamp = parseStamp(given);
  if (stamp === undefined) {
    const older = /^v([123])\.hmac-sha256\./.exec(given);
    if (older !== null) {
      throw new ResumeError("seal", `the run's seal is of version ${older[1] as string}, which only the Python package checks (it resumes such a run and seals it as version 4)`);
    }
    throw new ResumeError("seal", "the run's seal is malformed: it was altered or not sealed here");
  }
  const key = keys.get(stamp.keyId);
  if (key === undefined) {
    throw new ResumeError("seal", `the run is sealed under key ${quote(stamp.keyId)}, which this toolkit does not have`);
  }
  const calls = run.calls ?? [];
  const requests = run.requests ?? [];
  const resultDigests = run.results.map((item) => digest(toWireToolCallResult(item)));
  const callDigests = calls.map((call) => digest(toWireToolCall(call)));
  const requestDigests = requests.map((request) => digest(toWireRequest(request)));
  if (callDigests.length !== requestDigests.length) {
    throw new ResumeError("seal", "the run's requests do not match its waiting calls: it was altered");
  }
  let resultsTotal = 0n;
  run.results.forEach((item, i) => {
    resultsTotal = add(resultsTotal, key.term(turn.position(item.id), resultDigests[i] as Uint8Array));
  });
  const waitingTerms = calls.map((call, i) => key.waitingTerm(turn.position(call.id), callDigests[i] as Uint8Array, requestDigests[i] as Uint8Array));
  let waitingTotal = 0n;
  for (const term of waitingTerms) {
    waitingTotal = add(waitingTotal, term);
  }
  const expected = key.seal({
    expires: stamp.expires,
    principalTag: stamp.principalTag,
    pending: run.pending === undefined ? NO_PENDING : digest(toWireRequest(run.pending)),
    order: orderDigest(run.turn ?? "", run.order ?? []),
    nResults: resultDigests.length,
    results: resultsTotal,
    nWaiting: callDigests.length,
    waiting: waitingTotal,
  });
  if (!same(given, expected)) {
    throw new ResumeError("seal", "the run's seal does not match: it was altered or not sealed here");
  }
  return { key, expires: stamp.expires, principalTag: stamp.principalTag, resultDigests, callDigests, requestDigests, resultsTotal, waitingTotal, waitingTerms };
}

// -- helpers ----------------------------------------------------------------------------------------------

/** Notes that `ask`'s call waits (`Turn.wait`); or, when its arguments or request cannot be sealed
 * (an integer beyond ±(2^53 − 1), which RFC 8785 cannot write exactly), the error result that
 * settles it instead, so the run stays sealable. */
function waitOrSettle(turn: Turn, ask: Ask): Ask | Settle {
  try {
    turn.wait(ask.call, ask.request);
  } catch (err) {
    if (err instanceof NotJSON) {
      return new Settle(ask.call, errorResult(cannotWait(`its arguments or request cannot be sealed (${err.message})`)));
    }
    throw err;
  }
  return ask;
}

/** `item` and its seal term (0 without a key), or the error result that stands in for it when it
 * cannot be written (a value with no JSON form, nesting past the wire's limit) or sealed (an
 * integer beyond ±(2^53 − 1)). */
function storable(item: ToolCallResult, turn: Turn): [ToolCallResult, bigint] {
  const key = turn.key;
  try {
    toJsonRunResult({ status: "done", results: [item] });
    if (key === null) {
      return [item, 0n];
    }
    return [item, key.term(turn.position(item.id), digest(toWireToolCallResult(item)))];
  } catch (err) {
    let what = "result";
    const meta = item.result.metadata;
    if (meta !== undefined) {
      try {
        canonical(meta);
      } catch (inner) {
        if (inner instanceof NotJSON) {
          what = "metadata";
        }
      }
    }
    const standIn: ToolCallResult = { id: item.id, name: item.name, result: errorResult(`the tool's ${what} cannot be stored, so it is not kept: ${messageOf(err)}`) };
    return [standIn, key === null ? 0n : key.term(turn.position(item.id), digest(toWireToolCallResult(standIn)))];
  }
}

function answeredKey(turn: Uint8Array, callId: string, requestId: string): string {
  return JSON.stringify([hex(turn), callId, requestId]);
}

/** A fresh turn id: 16 random hex digits, as Python's `secrets.token_hex(8)`. */
function randomTurnId(): string {
  return randomHex(8);
}
