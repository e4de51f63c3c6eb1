// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/** Reading a run from outside: the check of a run given to `resume` in full (its seal, the order of
 * its lists, its sealed expiry and principal), and what continues it (`verify`). */

import { toWireRequest, toWireToolCall, toWireToolCallResult } from "../codec.js";
import { quote } from "../engine.js";
import { ResumeError } from "../errors.js";
import { NotJSON, SealKey, add, digest, orderDigest, parseStamp, same, sha256, utf8 } from "../seal.js";
import type { Request, RunResult } from "../types.js";
import { Turn, type Checked } from "./turn.js";

/** The pending digest of a run without a pending request (as Python's seal writes it). */
const NO_PENDING = sha256(utf8("toolnexus.RunResult.seal.v2.no-pending"));

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
export function verify(
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
  checkOrder(run, turn);
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
  return rekeyed(run, turn, checked, active);
}

/** `ResumeError("seal")` when the run's results or waiting calls are out of call order, or a
 * waiting call is not in its order. */
function checkOrder(run: RunResult, turn: Turn): void {
  const places = run.results.map((r) => turn.position(r.id));
  const waits = (run.calls ?? []).map((c) => turn.position(c.id));
  const outOfOrder = places.some((p, i) => i > 0 && (places[i - 1] as number) > p) || waits.some((w, i) => i > 0 && (waits[i - 1] as number) >= w);
  if (outOfOrder) {
    throw new ResumeError("seal", "the run's results or calls are out of call order: it was altered");
  }
  if (waits.length > 0 && (waits[waits.length - 1] as number) >= turn.positions.size) {
    throw new ResumeError("seal", "a waiting call is not in the run's order: it was altered");
  }
}

/** A run sealed under another key than the active one: its sums under the active key. */
function rekeyed(run: RunResult, turn: Turn, checked: SealChecked, active: SealKey): Checked {
  const requests = run.requests ?? [];
  let resultsTotal = 0n;
  let waitingTotal = 0n;
  run.results.forEach((item, i) => {
    resultsTotal = add(resultsTotal, active.term(turn.position(item.id), checked.resultDigests[i] as Uint8Array));
  });
  (run.calls ?? []).forEach((call, i) => {
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
