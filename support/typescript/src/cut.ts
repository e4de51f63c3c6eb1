// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * Results that fit the model: the cut of a call's output to its {@link Limit} that keeps its head
 * and tail, with the marker the model reads in the gap, and the reference the whole output is
 * kept under. Pure: the toolkit keeps the whole output (`spill.ts`). A port of Python's
 * `toolnexus/_engine/_limits.py`, pinned by the same loop vectors (`idl/loop/result-*.json`; the
 * rule, to the code point, is in idl/loop/README.md, "Result limits"):
 *
 * - a limit counts code points, UTF-8 bytes and tokens (by default `ceil(bytes / 4)`, so a token
 *   limit `n` is a byte limit `4n`; a host may pass a tokenizer);
 * - an output within every unit is left as it is; a longer one becomes `head + marker + tail`,
 *   the budget being the limit less the marker written with N = the output's whole length: the
 *   head takes at most half of it (in each unit, rounded down), ended at its last line break when
 *   that keeps at least half of it; the tail the rest, started at a line start on the same terms;
 * - `structuredContent` is never cut (`metadata.truncated.structuredContent` gives its sizes when
 *   its JSON text is over the limit), and a suspension is never cut.
 *
 * Positions are walked in UTF-16 units and counted in code points: nothing here splits a
 * surrogate pair, and `kept` is in code points, as every language writes it.
 *
 * @packageDocumentation
 */

import { keepOrder, orderedKeys, setKey, writeJson, type JsonObject, type JsonValue } from "./json.js";
import { Limit, REF_PREFIX, codePoints, isPair, marker, measure, sizes, utf8Length, type Tokenizer } from "./limit.js";
import type { ToolResult } from "./types.js";

/** The reference a call's whole output is kept under: `result-` and 16 hex digits of its
 * idempotency key (`idk-` and 32 hex digits), so every language names it alike. */
export function resultRef(idempotencyKey: string): string {
  const hex = idempotencyKey.startsWith("idk-") ? idempotencyKey.slice(4) : idempotencyKey;
  return REF_PREFIX + hex.slice(0, 16);
}

/** The bytes of the code point that starts at the UTF-16 index `at`, walking forwards. */
function bytesAt(text: string, at: number): number {
  const c = text.charCodeAt(at);
  return c < 0x80 ? 1 : c < 0x800 ? 2 : isPair(text, at) ? 4 : 3;
}

/** A run of `text` in UTF-16 units [`start`, `end`), and its size in code points and bytes. */
interface Span {
  start: number;
  end: number;
  points: number;
  bytes: number;
}

/** The longest prefix within `chars` code points and `bytes` bytes (undefined: no bound), ended
 * at its last line break when that keeps at least half of it. */
function head(text: string, chars: number | undefined, bytes: number | undefined): Span {
  let at = 0;
  let points = 0;
  let used = 0;
  let line: Span = { start: 0, end: 0, points: 0, bytes: 0 };
  while (at < text.length && (chars === undefined || points < chars)) {
    const b = bytesAt(text, at);
    if (bytes !== undefined && used + b > bytes) {
      break;
    }
    const newline = text.charCodeAt(at) === 10;
    at += b === 4 ? 2 : 1;
    points += 1;
    used += b;
    if (newline) {
      line = { start: 0, end: at, points, bytes: used };
    }
  }
  return 2 * line.points >= points ? line : { start: 0, end: at, points, bytes: used };
}

/** The longest suffix within `chars` code points and `bytes` bytes, after the UTF-16 index
 * `floor` (where the head ends), started at a line start when that keeps at least half of it. */
function tail(text: string, chars: number | undefined, bytes: number | undefined, floor: number): Span {
  let at = text.length;
  let points = 0;
  let used = 0;
  let line: Span | undefined; // the part after the tail's first line break
  while (at > floor && (chars === undefined || points < chars)) {
    const pair = at - 2 >= floor && isPair(text, at - 2);
    const c = text.charCodeAt(at - 1);
    const b = pair ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    if (bytes !== undefined && used + b > bytes) {
      break;
    }
    at -= pair ? 2 : 1;
    points += 1;
    used += b;
    if (c === 10) {
      line = { start: at + 1, end: text.length, points: points - 1, bytes: used - 1 };
    }
  }
  const whole = { start: at, end: text.length, points, bytes: used };
  if (at > 0 && text.charCodeAt(at - 1) !== 10 && line !== undefined && 2 * line.points >= points) {
    return line;
  }
  return whole;
}

/** What a cut gave: the output the model reads, and the code-point ranges of the original kept. */
interface Done {
  output: string;
  kept: [[number, number], [number, number]];
}

const half = (room: number | undefined): number | undefined => (room === undefined ? undefined : Math.floor(room / 2));

/** `text`, of `n` code points, cut to `chars` code points and `byteCap` bytes (undefined: no
 * bound), marker included. */
function cutText(text: string, n: number, chars: number | undefined, byteCap: number | undefined, ref: string | undefined): Done {
  const widest = marker(n, ref);
  const roomC = chars === undefined ? undefined : Math.max(chars - codePoints(widest), 0);
  const roomB = byteCap === undefined ? undefined : Math.max(byteCap - utf8Length(widest), 0);
  const h = head(text, half(roomC), half(roomB));
  const t = tail(text, roomC === undefined ? undefined : roomC - h.points, roomB === undefined ? undefined : roomB - h.bytes, h.end);
  const output = text.slice(0, h.end) + marker(n - h.points - t.points, ref) + text.slice(t.start);
  return { output, kept: [[0, h.points], [n - t.points, n]] };
}

/** The bytes a cut may keep: the byte limit, four per token under the estimate (no `tokenizer`),
 * and `budget`. */
function byteCap(limit: Limit, tokenizer: Tokenizer | undefined, budget?: number): number | undefined {
  const caps = [limit.bytes, budget].filter((c): c is number => c !== undefined);
  if (limit.tokens !== undefined && tokenizer === undefined) {
    caps.push(4 * limit.tokens);
  }
  return caps.length > 0 ? Math.min(...caps) : undefined;
}

/** `text`'s code points and bytes when it may be over `limit`; undefined when its UTF-16 length
 * alone says it is within (it has at most as many code points, and at most three bytes a unit). */
function measured(text: string, limit: Limit, tokenizer: Tokenizer | undefined): { chars: number; bytes: number } | undefined {
  const units = text.length;
  const cap = byteCap(limit, tokenizer);
  const bound = Math.min(limit.chars ?? Infinity, tokenizer !== undefined ? (limit.tokens ?? Infinity) : Infinity);
  return units > bound || (cap !== undefined && 3 * units > cap) ? measure(text) : undefined;
}

function within(text: string, size: { chars: number; bytes: number } | undefined, limit: Limit, tokenizer: Tokenizer | undefined): boolean {
  if (size === undefined) {
    return true;
  }
  const cap = byteCap(limit, tokenizer);
  if ((limit.chars !== undefined && size.chars > limit.chars) || (cap !== undefined && size.bytes > cap)) {
    return false;
  }
  if (tokenizer !== undefined && limit.tokens !== undefined && size.chars > limit.tokens) {
    return tokenizer(text) <= limit.tokens; // a token takes at least a code point: short ones fit
  }
  return true;
}

/** The cut under a host's tokenizer: a byte budget from the text's own bytes per token, narrowed
 * until the tokenizer counts the result within the limit. */
function cutToTokens(text: string, size: { chars: number; bytes: number }, limit: Limit, ref: string | undefined, tokenizer: Tokenizer): Done {
  const tokens = limit.tokens as number;
  const whole = Math.max(tokenizer(text), 1);
  let budget = Math.max(Math.floor((tokens * size.bytes) / whole), 1);
  let done = cutText(text, size.chars, limit.chars, byteCap(limit, tokenizer, budget), ref);
  for (let round = 1; round < 16; round++) {
    const counted = tokenizer(done.output);
    if (counted <= tokens || budget <= 1) {
      return done;
    }
    budget = Math.max(Math.floor((budget * tokens) / counted) - 1, 1);
    done = cutText(text, size.chars, limit.chars, byteCap(limit, tokenizer, budget), ref);
  }
  return done;
}

/** A copy of `obj` with `changes` (its keys in their order, new ones last). */
function updated<T extends object>(obj: T, changes: Record<string, unknown>): T {
  const out = {};
  const keys = orderedKeys(obj);
  for (const key of keys) {
    setKey(out, key, Object.hasOwn(changes, key) ? changes[key] : (obj as Record<string, unknown>)[key]);
  }
  for (const key of Object.keys(changes)) {
    if (!keys.includes(key)) {
      keys.push(key);
      setKey(out, key, changes[key]);
    }
  }
  keepOrder(out, keys);
  return out as T;
}

/**
 * `result` fitted to `limit`, and whether its output was cut (the host then keeps the whole output
 * under `ref`; undefined: nothing is kept, and the marker names no reference). A result within
 * the limit, or a suspension, is returned as it is.
 */
export function fit<R extends ToolResult>(result: R, limit: Limit | undefined, ref?: string, tokenizer?: Tokenizer): { result: R; cut: boolean } {
  if (limit === undefined || (result.metadata !== undefined && Object.hasOwn(result.metadata, "pending"))) {
    return { result, cut: false };
  }
  const output = result.output;
  const size = measured(output, limit, tokenizer);
  const overOutput = !within(output, size, limit, tokenizer);
  const shown = result.structuredContent === undefined ? undefined : writeJson(result.structuredContent);
  const shownSize = shown === undefined ? undefined : measured(shown, limit, tokenizer);
  const overStructured = shown !== undefined && !within(shown, shownSize, limit, tokenizer);
  if (!overOutput && !overStructured) {
    return { result, cut: false };
  }
  const truncated: JsonObject = { limit: limit.toWire() };
  const changes: Record<string, unknown> = {};
  if (overOutput && size !== undefined) {
    const done =
      tokenizer !== undefined && limit.tokens !== undefined ? cutToTokens(output, size, limit, ref, tokenizer) : cutText(output, size.chars, limit.chars, byteCap(limit, undefined), ref);
    truncated["size"] = sizes(output, tokenizer, size);
    truncated["kept"] = done.kept;
    if (ref !== undefined) {
      truncated["ref"] = ref;
    }
    changes["output"] = done.output;
  }
  if (overStructured) {
    truncated["structuredContent"] = sizes(shown, tokenizer, shownSize) as JsonValue;
  }
  changes["metadata"] = updated(result.metadata ?? {}, { truncated });
  return { result: updated(result, changes), cut: overOutput };
}
