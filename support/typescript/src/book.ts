// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * The pending-run book: what a toolkit keeps of its turns, and the check of every run that comes
 * back. A port of Python's `toolnexus/_book/`, simpler in one way: it
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
 * The turn and the parts of a run are in `book/turn.ts`, the check of a run from outside in
 * `book/verify.ts`.
 *
 * @packageDocumentation
 */

import { reach } from "./decisions.js";
import { Ask, Settle, checkAnswer, expired, match, quote } from "./engine.js";
import { ResumeError } from "./errors.js";
import { add, sub, turnDigest, type SealKey } from "./seal.js";
import type { Answer, Request, RunResult, ToolCall, ToolCallResult } from "./types.js";
import { Turn, answeredKey, randomTurnId, sealedPending, storable, waitOrSettle, type Checked } from "./book/turn.js";
import { verify } from "./book/verify.js";

export type { Turn };

const ANSWERED_MEMORY = 10_000;
/** Seconds; the seal writes the expiry in at most 20 digits. */
const MAX_EXPIRES_IN = 100 * 365 * 24 * 3600;

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
    return sealedPending(turn, finished, waiting, requests, resultsTotal, waitingTotal);
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
    const picks = pick(run, checked.turn, batch, (callId, requestId) => this.#answered.has(answeredKey(checked.turn.digest, callId, requestId)));
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
    return sealedPending(turn, results, calls, requests, resultsTotal, waitingTotal);
  }

  // -- the parts -----------------------------------------------------------------------------------

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

/** The waiting call each answer answers (`match`); `ResumeError` when one answers none.
 * `answeredBefore`: whether the book took an answer to a call and request already. */
function pick(run: RunResult, turn: Turn, batch: readonly Answer[], answeredBefore: (callId: string, requestId: string) => boolean): Pick[] {
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
