// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * `Limit`: how much of a call's output the model reads, in code points, tokens and bytes; the
 * marker a cut output holds, and the smallest limit that leaves room for it. A port of Python's
 * `toolnexus/_limit.py`. The cut itself is `cut.ts`; the rule and its vectors are in
 * idl/loop/README.md, "Result limits".
 *
 * Every count here is in Unicode code points, as Python counts a string's length, never in
 * UTF-16 units (`.length`): an emoji is one, a lone surrogate one (of three UTF-8 bytes, as
 * Python's `surrogatepass` writes it).
 *
 * @packageDocumentation
 */

import * as texts from "./loop.js";

/** A host's token counter: the tokens a text takes (for example a tiktoken port's
 * `(s) => enc.encode(s).length`). Without one, tokens are estimated: {@link estimateTokens}. */
export type Tokenizer = (text: string) => number;

/** The prefix of a kept result's reference; the rest is 16 hex digits of the call's idempotency key. */
export const REF_PREFIX = "result-";

/** The units of a limit, in the order they are checked and written. */
const UNITS = ["chars", "tokens", "bytes"] as const;
type Unit = (typeof UNITS)[number];

/** What a {@link Limit} is made of: at least one unit, each a whole number above zero. */
export interface LimitInit {
  /** Code points (an emoji is one). */
  chars?: number | undefined;
  /** Tokens: by the host's tokenizer, else the estimate `ceil(utf8 bytes / 4)`. */
  tokens?: number | undefined;
  /** UTF-8 bytes. */
  bytes?: number | undefined;
}

/** `text`'s length in code points (a surrogate pair is one, a lone surrogate one). */
export function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** The UTF-8 bytes of `text` (a lone surrogate counts 3). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      n += 1;
    } else if (c < 0x800) {
      n += 2;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4; // a pair: one code point of four bytes
      i++;
    } else {
      n += 3;
    }
  }
  return n;
}

/** `text`'s code points and UTF-8 bytes, in one pass. */
export function measure(text: string): { chars: number; bytes: number } {
  let chars = 0;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    chars += 1;
    if (c < 0x80) {
      bytes += 1;
    } else if (c < 0x800) {
      bytes += 2;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else {
      bytes += 3;
    }
  }
  return { chars, bytes };
}

/** The UTF-16 index where the code point `index` of `text` starts (`text.length` past the end). */
export function unitIndex(text: string, index: number): number {
  let at = 0;
  for (let k = 0; k < index && at < text.length; k++) {
    at += isPair(text, at) ? 2 : 1;
  }
  return at;
}

/** Whether a surrogate pair starts at the UTF-16 index `at` of `text`. */
export function isPair(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return c >= 0xd800 && c <= 0xdbff && at + 1 < text.length && (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00;
}

/** The documented token estimate: the UTF-8 bytes of `text` over four, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(utf8Length(text) / 4);
}

/** `text`'s size in every unit (tokens by `tokenizer`, else by the estimate). */
export function sizes(text: string, tokenizer?: Tokenizer, measured = measure(text)): { chars: number; bytes: number; tokens: number } {
  const { chars, bytes } = measured;
  return { chars, bytes, tokens: tokenizer !== undefined ? tokenizer(text) : Math.ceil(bytes / 4) };
}

function markerOf(count: string, ref: string | undefined): string {
  return "\n" + (ref !== undefined ? texts.cutKept(count, ref) : texts.cut(count)) + "\n";
}

/** The marker put where `cut` code points were cut, on a line of its own (naming `ref`, the
 * reference the whole output is kept under, when there is one). */
export function marker(cut: number, ref?: string): string {
  return markerOf(String(cut), ref);
}

/** The smallest limit in each unit: the widest marker (a 20-digit count and a reference) would
 * leave no room below it (98 chars, 26 tokens, 102 bytes). */
export const CUT_FLOOR: { readonly chars: number; readonly tokens: number; readonly bytes: number } = (() => {
  const widest = markerOf("9".repeat(20), REF_PREFIX + "0".repeat(16));
  const bytes = utf8Length(widest);
  return Object.freeze({ chars: codePoints(widest), tokens: Math.ceil(bytes / 4), bytes });
})();

/** A unit's value checked: undefined when absent; a `RangeError` with the vectors' text when it
 * is not a whole number above zero, or below the marker's own length. */
function checked(unit: Unit, value: unknown): number | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== "number") {
    throw new TypeError(`a result limit's ${unit} is a number, got ${typeof value}`);
  }
  if (!Number.isInteger(value) || value <= 0) {
    throw new RangeError(texts.limitNotPositive(String(value), unit));
  }
  if (value < CUT_FLOOR[unit]) {
    throw new RangeError(texts.limitBelowMarker(String(value), unit, String(CUT_FLOOR[unit])));
  }
  return value;
}

/**
 * How much of a call's output the model reads: at most `chars` code points, `tokens` tokens and
 * `bytes` UTF-8 bytes (each optional; at least one). On a tool (`defineTool(..., { limit })`) and
 * on a `Toolkit` (`{ limit }`); a call's limit is the tighter of the two, unit by unit.
 *
 * @throws RangeError for a bad limit, with the reason (no unit; a unit that is not a whole number
 *   above zero; one below the cut marker's own length, {@link CUT_FLOOR}), the units checked in
 *   the order chars, tokens, bytes; TypeError for a unit that is not a number, or an unknown key.
 */
export class Limit {
  readonly chars: number | undefined;
  readonly tokens: number | undefined;
  readonly bytes: number | undefined;

  constructor(init: LimitInit) {
    if (typeof init !== "object" || init === null) {
      throw new TypeError(`a result limit is an object of chars, tokens and bytes, got ${init === null ? "null" : typeof init}`);
    }
    const unknown = Object.keys(init).filter((k) => !(UNITS as readonly string[]).includes(k));
    if (unknown.length > 0) {
      throw new TypeError(`a result limit counts chars, tokens and bytes, not ${JSON.stringify(unknown.sort())}`);
    }
    if (UNITS.every((unit) => init[unit] === undefined || init[unit] === null)) {
      throw new RangeError(texts.limitEmpty());
    }
    this.chars = checked("chars", init.chars);
    this.tokens = checked("tokens", init.tokens);
    this.bytes = checked("bytes", init.bytes);
    Object.freeze(this);
  }

  /** `value` as a `Limit` (an object of units is read as one); undefined stays undefined. */
  static of(value: Limit | LimitInit | undefined): Limit | undefined {
    return value === undefined || value instanceof Limit ? value : new Limit(value);
  }

  /** The tighter of the two limits, unit by unit. */
  tighter(other: Limit | undefined): Limit {
    if (other === undefined) {
      return this;
    }
    const pick = (mine: number | undefined, theirs: number | undefined): number | undefined =>
      mine === undefined ? theirs : theirs === undefined ? mine : Math.min(mine, theirs);
    return new Limit({ chars: pick(this.chars, other.chars), tokens: pick(this.tokens, other.tokens), bytes: pick(this.bytes, other.bytes) });
  }

  /** The limit as JSON: the units it sets, in the order chars, tokens, bytes. */
  toWire(): { chars?: number; tokens?: number; bytes?: number } {
    const wire: { chars?: number; tokens?: number; bytes?: number } = {};
    for (const unit of UNITS) {
      const value = this[unit];
      if (value !== undefined) {
        wire[unit] = value;
      }
    }
    return wire;
  }
}
