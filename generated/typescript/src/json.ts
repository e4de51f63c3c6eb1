// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/typescript/src/json.ts (hand-written, copied verbatim).
// codegen: copy

import { WireError } from "./errors.js";

/**
 * Any JSON value, as `readJson` returns it and `writeJson` accepts it.
 *
 * Numbers are plain `number`s, except those whose text JavaScript would write back differently
 * (integers beyond 2^53, `1.0`, `1e3`, `-0`): those are {@link JsonNumber}s, so that nothing is
 * lost. `Number(value)` gives the numeric value of either.
 */
export type JsonValue = null | boolean | number | string | JsonNumber | JsonValue[] | JsonObject;

/** A JSON object; `readJson` keeps its keys in the order of the text, also integer-like keys. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/**
 * The deepest nesting of arrays and objects the wire allows, counting the document's own
 * object (or array) as level 1. `readJson` refuses deeper text at `$`; the parsers refuse deeper
 * values, and the emitters and `writeJson` refuse to write them (a cycle nests endlessly).
 */
export const MAX_DEPTH = 100;

const NUMBER_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/**
 * `text` (a JSON number) as every language writes a number back: as it was written, except
 * that an exponent is written `e` with a sign (`1E5` and `1e5` become `1e+5`; `1e-7` stays).
 */
export function spellNumber(text: string): string {
  let i = text.indexOf("e");
  if (i < 0) {
    i = text.indexOf("E");
    if (i < 0) {
      return text;
    }
  }
  const next = text[i + 1];
  const sign = next === "+" || next === "-" ? "" : "+";
  return `${text.slice(0, i)}e${sign}${text.slice(i + 1)}`;
}

/**
 * A JSON number kept as the text it was written with, because a JavaScript `number` would not
 * write it back the same way (`123456789012345678901234567890` would lose digits, `1.0` would
 * become `1`). Its exponent, if any, is spelled `e` with a sign ({@link spellNumber});
 * `writeJson` writes `text` unchanged.
 */
export class JsonNumber {
  /** The number as written in JSON. */
  readonly text: string;

  constructor(text: string) {
    if (!NUMBER_TEXT.test(text)) {
      throw new WireError("$", "a JSON number", describe(text));
    }
    this.text = spellNumber(text);
  }

  /** The nearest `number` (inexact beyond 2^53). */
  valueOf(): number {
    return Number(this.text);
  }

  toString(): string {
    return this.text;
  }

  /** `JSON.stringify` writes the nearest `number`; use `writeJson` to keep the text. */
  toJSON(): number {
    return Number(this.text);
  }
}

/**
 * Where an object whose key order JavaScript cannot hold (integer-like keys such as `"10"` come
 * first in any object) keeps the order it was read or built in. Non-enumerable, so spreading
 * or `JSON.stringify` never sees it.
 */
const KEY_ORDER: unique symbol = Symbol.for("toolnexus.wire.keyOrder");

type Ordered = { [KEY_ORDER]?: readonly string[] };

/** True for a key JavaScript may move to the front of an object (it starts with a digit). */
function mayReorder(key: string): boolean {
  const c = key.charCodeAt(0);
  return c >= 0x30 && c <= 0x39;
}

/** The own keys of `obj` in wire order: as read or built, then keys added since. */
export function orderedKeys(obj: object): string[] {
  const keys = Object.keys(obj);
  const order = (obj as Ordered)[KEY_ORDER];
  if (order === undefined) {
    return keys;
  }
  const out = order.filter((k) => Object.hasOwn(obj, k));
  if (out.length !== keys.length) {
    const seen = new Set(out);
    for (const k of keys) {
      if (!seen.has(k)) {
        out.push(k);
      }
    }
  }
  return out;
}

/** Records `order` as the key order of `obj` when JavaScript's own order differs from it. */
export function keepOrder(obj: object, order: readonly string[]): void {
  if (order.some(mayReorder)) {
    const keys = Object.keys(obj);
    if (keys.some((k, i) => k !== order[i])) {
      Object.defineProperty(obj, KEY_ORDER, { value: order, enumerable: false, configurable: true, writable: true });
    }
  }
}

/** Sets an own property, also for the key `__proto__`. */
export function setKey(obj: object, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, { value, enumerable: true, configurable: true, writable: true });
  } else {
    (obj as Record<string, unknown>)[key] = value;
  }
}

/** True for an object literal, `Object.create(null)` or what `JSON.parse` builds. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) {
    return false;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A lone surrogate: a UTF-16 code unit of a pair without its other half (the `u` flag pairs them). */
const LONE_SURROGATE = /\p{Surrogate}/u;

interface WellFormed {
  isWellFormed(): boolean;
}

/**
 * True when `s` holds no lone surrogate, so that it is Unicode text (and UTF-8 can encode it).
 * `String.prototype.isWellFormed` (Node.js 20) answers at once for a string without characters
 * beyond U+00FF and scans the others natively.
 */
const isWellFormed: (s: string) => boolean =
  typeof (String.prototype as Partial<WellFormed>).isWellFormed === "function"
    ? (s) => (s as unknown as WellFormed).isWellFormed()
    : (s) => !LONE_SURROGATE.test(s);

/** A short description of `value` for an error message. */
export function describe(value: unknown): string {
  if (value === undefined) {
    return "nothing";
  }
  if (value === null) {
    return "null";
  }
  switch (typeof value) {
    case "string": {
      const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
      return `the string ${JSON.stringify(shown)}`;
    }
    case "number":
      return `the number ${String(value)}`;
    case "boolean":
      return String(value);
    case "object":
      if (value instanceof JsonNumber) {
        return `the number ${value.text}`;
      }
      return Array.isArray(value) ? "an array" : "an object";
    default:
      return `a ${typeof value}`;
  }
}

/** Appends an object key to a JSON path: `.key`, or `["key"]` when it is not an identifier. */
export function childPath(path: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

// ---------------------------------------------------------------------------------- reading

const NUMBER_AT = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
/** A run of string characters that need no attention: no quote, backslash or control character. */
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;

class Reader {
  private pos = 0;
  /** How many arrays and objects enclose the current position. */
  private depth = 0;

  constructor(private readonly text: string) {}

  document(): JsonValue {
    if (!isWellFormed(this.text)) {
      // Outside a string it would be a syntax error anyway; inside one, it is no Unicode text.
      this.fail(this.text.search(LONE_SURROGATE), "a lone surrogate");
    }
    const value = this.value();
    this.space();
    if (this.pos < this.text.length) {
      this.fail();
    }
    return value;
  }

  private fail(at: number = this.pos, what?: string): never {
    let got = "the end of the text";
    if (what !== undefined) {
      got = `${what} at offset ${at}`;
    } else if (at < this.text.length) {
      got = `${JSON.stringify(String.fromCodePoint(this.text.codePointAt(at) ?? 0))} at offset ${at}`;
    }
    throw new WireError("$", "JSON text", got);
  }

  /** Steps into an array or object: one level deeper, at most {@link MAX_DEPTH}. */
  private enter(): void {
    if (++this.depth > MAX_DEPTH) {
      throw new WireError("$", `JSON text nested at most ${MAX_DEPTH} levels deep`, `level ${this.depth} at offset ${this.pos}`);
    }
    this.pos++;
  }

  private space(): void {
    const text = this.text;
    let pos = this.pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        pos++;
      } else {
        break;
      }
    }
    this.pos = pos;
  }

  private value(): JsonValue {
    this.space();
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b: // {
        return this.object();
      case 0x5b: // [
        return this.array();
      case 0x22: // "
        return this.string();
      case 0x74: // t
        return this.literal("true", true);
      case 0x66: // f
        return this.literal("false", false);
      case 0x6e: // n
        return this.literal("null", null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
          return this.number();
        }
        return this.fail();
    }
  }

  private literal<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) {
      this.fail();
    }
    this.pos += word.length;
    return value;
  }

  private number(): number | JsonNumber {
    NUMBER_AT.lastIndex = this.pos;
    const m = NUMBER_AT.exec(this.text);
    if (m === null) {
      return this.fail();
    }
    const text = m[0];
    const n = Number(text);
    if (n === Infinity || n === -Infinity) {
      // Beyond the largest double (it rounds to infinity): no peer could hold it as a number.
      return this.fail(this.pos, "a number beyond the range of a double");
    }
    this.pos += text.length;
    // A plain number only when JavaScript writes it back exactly as the number rule spells it.
    const spelled = spellNumber(text);
    return String(n) === spelled ? n : new JsonNumber(spelled);
  }

  private string(): string {
    const text = this.text;
    const start = this.pos;
    let pos = start + 1;
    let escaped = false;
    for (;;) {
      PLAIN_RUN.lastIndex = pos;
      PLAIN_RUN.test(text);
      pos = PLAIN_RUN.lastIndex;
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        break;
      }
      if (c === 0x5c) {
        escaped = true;
        pos += 2;
      } else {
        this.fail(pos); // a control character, or the end of the text
      }
    }
    this.pos = pos + 1;
    if (!escaped) {
      return text.slice(start + 1, pos);
    }
    let value: string;
    try {
      // The escapes are JSON's own; the engine decodes and checks them.
      value = JSON.parse(text.slice(start, pos + 1)) as string;
    } catch {
      return this.fail(start, "a string with an invalid escape");
    }
    if (!isWellFormed(value)) {
      // JSON.parse takes `\ud800` alone; RFC 8259 text is Unicode, which has no lone surrogates.
      return this.fail(start, "a string with a lone surrogate escape");
    }
    return value;
  }

  private array(): JsonValue[] {
    this.enter();
    const out: JsonValue[] = [];
    this.space();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      this.depth--;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.space();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
      } else if (c === 0x5d) {
        this.pos++;
        this.depth--;
        return out;
      } else {
        return this.fail();
      }
    }
  }

  private object(): JsonObject {
    this.enter();
    const out: JsonObject = {};
    let order: string[] | undefined;
    this.space();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      this.depth--;
      return out;
    }
    for (;;) {
      this.space();
      if (this.text.charCodeAt(this.pos) !== 0x22) {
        this.fail();
      }
      const keyAt = this.pos;
      const key = this.string();
      if (Object.hasOwn(out, key)) {
        // Parsers differ on which value a repeated key keeps; the wire has none (RFC 8259 §4).
        this.fail(keyAt, `the key ${JSON.stringify(key)} a second time in one object`);
      }
      this.space();
      if (this.text.charCodeAt(this.pos) !== 0x3a) {
        this.fail();
      }
      this.pos++;
      const value = this.value();
      if (order === undefined && mayReorder(key)) {
        order = Object.keys(out);
      }
      order?.push(key);
      setKey(out, key, value);
      this.space();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
      } else if (c === 0x7d) {
        this.pos++;
        if (order !== undefined) {
          keepOrder(out, order);
        }
        this.depth--;
        return out;
      } else {
        return this.fail();
      }
    }
  }
}

/** True for the whitespace JSON allows between tokens. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * How many object keys `text` holds, counted in one pass, when `JSON.parse` reads it as the
 * reader would (see {@link readJson}); `undefined` when only the reader can tell: a lone
 * surrogate, a surrogate escape, a key that is escaped or starts with a digit (its order), a
 * number that JavaScript writes back otherwise (a {@link JsonNumber}), nesting past
 * {@link MAX_DEPTH}, an unterminated string. Strings are skipped with `indexOf`. The text is not
 * checked to be JSON: `JSON.parse` does that.
 */
function keysOfText(text: string): number | undefined {
  if (!isWellFormed(text)) {
    return undefined;
  }
  const n = text.length;
  let keys = 0;
  let depth = 0;
  let pos = 0;
  // The next backslash at or after `pos`: found once for all the strings it lies beyond, so
  // that the scan stays linear however many strings come between two escapes.
  let slash = text.indexOf("\\");
  while (pos < n) {
    const c = text.charCodeAt(pos);
    if (c === 0x22) {
      if (slash !== -1 && slash <= pos) {
        slash = text.indexOf("\\", pos + 1);
      }
      let end = text.indexOf('"', pos + 1);
      const escaped = slash !== -1 && slash < end;
      while (slash !== -1 && slash < end) {
        if (text.charCodeAt(slash + 1) === 0x75 && (text.charCodeAt(slash + 2) | 0x20) === 0x64) {
          const d = text.charCodeAt(slash + 3) | 0x20; // \uD800-\uDFFF: half of a pair, or alone
          if ((d >= 0x38 && d <= 0x39) || (d >= 0x61 && d <= 0x66)) {
            return undefined;
          }
        }
        const next = slash + 2; // past the escaped character (a \u escape's hex digits are no quote)
        if (end < next) {
          end = text.indexOf('"', next); // that quote was the escaped character
        }
        slash = text.indexOf("\\", next);
      }
      if (end === -1) {
        return undefined;
      }
      let after = end + 1;
      while (after < n && isSpace(text.charCodeAt(after))) {
        after++;
      }
      if (text.charCodeAt(after) === 0x3a) {
        if (escaped || mayReorder(text.slice(pos + 1, pos + 2))) {
          return undefined;
        }
        keys++;
      }
      pos = end + 1;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_DEPTH) {
        return undefined;
      }
      pos++;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      pos++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER_AT.lastIndex = pos;
      const m = NUMBER_AT.exec(text);
      if (m === null || String(Number(m[0])) !== spellNumber(m[0])) {
        return undefined;
      }
      pos += m[0].length;
    } else {
      pos++;
    }
  }
  return keys;
}

/** How many object keys `value` (what `JSON.parse` returns) holds, all the way down. */
function keysOfValue(value: unknown): number {
  if (typeof value !== "object" || value === null) {
    return 0;
  }
  let keys = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      keys += keysOfValue(item);
    }
    return keys;
  }
  for (const key in value) {
    keys += 1 + keysOfValue((value as Record<string, unknown>)[key]);
  }
  return keys;
}

/**
 * Reads JSON text (RFC 8259) without losing anything `JSON.parse` would: numbers that a
 * `number` cannot hold exactly become {@link JsonNumber}s, and objects keep the key order of
 * the text, integer-like keys included.
 *
 * Stricter than `JSON.parse` where the wire is: a lone surrogate (escaped as `"\ud800"`, or a
 * lone UTF-16 code unit in `text`), a number beyond the range of a double (`1e400`, which
 * `JSON.parse` makes `Infinity`), nesting deeper than {@link MAX_DEPTH} and an object that
 * repeats a key (`JSON.parse` keeps the last value) are not JSON here.
 *
 * Most texts are read by `JSON.parse`, after a pass over the text that finds nothing it would
 * lose (see `keysOfText`), and proved free of repeated keys by counting: `JSON.parse` keeps one
 * of two values for one key, so its value holds fewer keys than the text. Any other text is
 * read by the reader here, which says where and why it is not JSON.
 *
 * @throws {@link WireError} at `$` when `text` is not JSON.
 */
export function readJson(text: string): JsonValue {
  const keys = typeof text === "string" ? keysOfText(text) : undefined;
  if (keys !== undefined) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined; // not JSON: the reader says why
    }
    if (value !== undefined && keysOfValue(value) === keys) {
      return value as JsonValue;
    }
  }
  return readJsonFully(text);
}

/** {@link readJson} by the reader alone, for every text. Internal: for tests. */
export function readJsonFully(text: string): JsonValue {
  try {
    return new Reader(text).document();
  } catch (err) {
    if (err instanceof RangeError) {
      // Only when the caller leaves less stack than MAX_DEPTH levels take.
      throw new WireError("$", "JSON text JavaScript can read here", `a RangeError: ${err.message}`);
    }
    throw err;
  }
}

// ---------------------------------------------------------------------------------- writing

/** The error for an array or object at `level`, deeper than {@link MAX_DEPTH}. */
export function tooDeep(path: string, value: unknown, level: number): WireError {
  return new WireError(path, `a value nested at most ${MAX_DEPTH} levels deep`, `${describe(value)} at level ${level}`);
}

/**
 * The error for the last array or object of `chain`, at `level`, past {@link MAX_DEPTH}: `chain`
 * holds it and the ones that enclose it, outermost first, `chain[i]` at `path(i)`. A cycle (an
 * array or object inside itself nests without end) is named where it first closes, anything else
 * is too deep. Called only once the limit is met, so that no walk looks for cycles while all is well.
 */
export function tooDeepOrCycle(chain: readonly object[], path: (i: number) => string, level: number): WireError {
  for (let j = 1; j < chain.length; j++) {
    const first = chain.indexOf(chain[j] as object);
    if (first < j) {
      const what = Array.isArray(chain[j]) ? "array" : "object";
      return new WireError(path(j), "a JSON value without cycles", `the ${what} at ${path(first)} again`);
    }
  }
  return tooDeep(path(chain.length - 1), chain[chain.length - 1], level);
}

class Writer {
  out = "";
  /** The path to the value being written, as steps. */
  private readonly at: (string | number)[] = [];
  /** The arrays and objects being written, outermost first: `open[i]` is at `at.slice(0, i)`. */
  private readonly open: object[] = [];

  private path(steps: number = this.at.length): string {
    let path = "$";
    for (let i = 0; i < steps; i++) {
      const step = this.at[i] as string | number;
      path = typeof step === "number" ? `${path}[${step}]` : childPath(path, step);
    }
    return path;
  }

  private fail(expected: string, value: unknown): never {
    throw new WireError(this.path(), expected, describe(value));
  }

  value(v: unknown): void {
    switch (typeof v) {
      case "string":
        this.out += JSON.stringify(v);
        return;
      case "number":
        if (!Number.isFinite(v)) {
          this.fail("a finite number", v);
        }
        this.out += String(v);
        return;
      case "boolean":
        this.out += v ? "true" : "false";
        return;
      case "object":
        if (v === null) {
          this.out += "null";
        } else if (v instanceof JsonNumber) {
          this.out += v.text;
        } else if (Array.isArray(v)) {
          this.enter(v);
          this.array(v);
          this.open.pop();
        } else if (isPlainObject(v)) {
          this.enter(v);
          this.object(v);
          this.open.pop();
        } else {
          this.fail("a JSON value", v);
        }
        return;
      default:
        this.fail("a JSON value", v);
    }
  }

  /** Steps into an array or object, at most MAX_DEPTH levels deep (a cycle never ends). */
  private enter(v: object): void {
    const open = this.open;
    if (open.length >= MAX_DEPTH) {
      throw tooDeepOrCycle([...open, v], (i) => this.path(i), open.length + 1);
    }
    open.push(v);
  }

  private array(v: readonly unknown[]): void {
    this.out += "[";
    for (let i = 0; i < v.length; i++) {
      if (i > 0) {
        this.out += ",";
      }
      this.at.push(i);
      this.value(v[i]);
      this.at.pop();
    }
    this.out += "]";
  }

  private object(v: Record<string, unknown>): void {
    this.out += "{";
    let first = true;
    for (const key of orderedKeys(v)) {
      const item = v[key];
      if (item === undefined) {
        continue; // as JSON.stringify does: an undefined property is an absent one
      }
      this.out += first ? JSON.stringify(key) + ":" : "," + JSON.stringify(key) + ":";
      first = false;
      this.at.push(key);
      this.value(item);
      this.at.pop();
    }
    this.out += "}";
  }
}

/**
 * Writes a JSON value as compact UTF-8-ready JSON text: no spaces, object keys in the order
 * `readJson` read them (or the order they were set in), {@link JsonNumber}s as written,
 * non-ASCII characters raw, control characters escaped as `JSON.stringify` does. Properties
 * whose value is `undefined` are left out.
 *
 * @throws {@link WireError} naming the path of a value that is not JSON (`NaN`, a `Date`, an
 * array or object inside itself), or of an array or object nested deeper than {@link MAX_DEPTH}.
 */
export function writeJson(value: unknown): string {
  return stringifiable(value, 1) ? JSON.stringify(value) : writeJsonFully(value);
}

/**
 * True when `JSON.stringify` writes `value` (at `level`) as the writer does: plain JSON values
 * only, no {@link JsonNumber} (written as its text), no object whose key order is kept apart
 * (`keepOrder`), nested at most {@link MAX_DEPTH} levels (so no cycle), no array holding
 * `undefined`. The writer writes the rest, and says what is wrong with it.
 */
function stringifiable(value: unknown, level: number): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object": {
      if (value === null) {
        return true;
      }
      if (level > MAX_DEPTH) {
        return false;
      }
      if (Array.isArray(value)) {
        for (const item of value) {
          if (!stringifiable(item, level + 1)) {
            return false;
          }
        }
        return true;
      }
      if (!isPlainObject(value) || (value as Ordered)[KEY_ORDER] !== undefined) {
        return false;
      }
      for (const key of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[key];
        if (item !== undefined && !stringifiable(item, level + 1)) {
          return false;
        }
      }
      return true;
    }
    default:
      return false;
  }
}

/** {@link writeJson} by the writer alone, for every value. Internal: for tests. */
export function writeJsonFully(value: unknown): string {
  const writer = new Writer();
  try {
    writer.value(value);
  } catch (err) {
    if (err instanceof RangeError) {
      // A text longer than a string holds, or a caller that leaves less stack than MAX_DEPTH levels take.
      throw new WireError("$", "a value JavaScript can write as JSON", `a RangeError: ${err.message}`);
    }
    throw err;
  }
  return writer.out;
}
