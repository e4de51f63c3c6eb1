// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/** A turn's shared state (`Turn`), and the parts of a run the book assembles from it: a waiting
 * call noted (or settled when it cannot be sealed), a result made storable, a pending run sealed. */

import { toJsonRunResult, toWireRequest, toWireToolCall, toWireToolCallResult } from "../codec.js";
import { Ask, Settle, errorResult, messageOf } from "../engine.js";
import { cannotWait } from "../loop.js";
import { NotJSON, SealKey, canonical, digest, hex, idempotencyKey, orderDigest, turnDigest } from "../seal.js";
import { randomHex } from "../suspend.js";
import type { Request, RunResult, ToolCall, ToolCallResult } from "../types.js";

export function pairOf(callId: string, requestId: string): string {
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
export interface Checked {
  turn: Turn;
  resultsTotal: bigint;
  waitingTotal: bigint;
}

/** A pending run of these lists, sealed under the turn's key. */
export function sealedPending(turn: Turn, results: ToolCallResult[], calls: ToolCall[], requests: Request[], resultsTotal: bigint, waitingTotal: bigint): RunResult {
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

/** Notes that `ask`'s call waits (`Turn.wait`); or, when its arguments or request cannot be sealed
 * (an integer beyond ±(2^53 − 1), which RFC 8785 cannot write exactly), the error result that
 * settles it instead, so the run stays sealable. */
export function waitOrSettle(turn: Turn, ask: Ask): Ask | Settle {
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
export function storable(item: ToolCallResult, turn: Turn): [ToolCallResult, bigint] {
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

export function answeredKey(turn: Uint8Array, callId: string, requestId: string): string {
  return JSON.stringify([hex(turn), callId, requestId]);
}

/** A fresh turn id: 16 random hex digits, as Python's `secrets.token_hex(8)`. */
export function randomTurnId(): string {
  return randomHex(8);
}
