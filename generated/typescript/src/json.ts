// Generated from idl/ (toolnexus schema 1.0.0, sha256 d106c0605c0b7741ba15055557e7193c5afe8392ed0e5add12ef0e6abed99f3f).
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

const NUMBER_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/**
 * A JSON number kept as the text it was written with, because a JavaScript `number` would not
 * write it back the same way (`123456789012345678901234567890` would lose digits, `1.0` would
 * become `1`). `writeJson` writes `text` unchanged.
 */
export class JsonNumber {
  /** The number as written in JSON. */
  readonly text: string;

  constructor(text: string) {
    if (!NUMBER_TEXT.test(text)) {
      throw new WireError("$", "a JSON number", describe(text));
    }
    this.text = text;
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

  constructor(private readonly text: string) {}

  document(): JsonValue {
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
    this.pos += text.length;
    const n = Number(text);
    // A plain number only when JavaScript writes it back exactly as it was written.
    return String(n) === text ? n : new JsonNumber(text);
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
    try {
      // The escapes are JSON's own; the engine decodes and checks them.
      return JSON.parse(text.slice(start, pos + 1)) as string;
    } catch {
      return this.fail(start, "a string with an invalid escape");
    }
  }

  private array(): JsonValue[] {
    this.pos++;
    const out: JsonValue[] = [];
    this.space();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
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
        return out;
      } else {
        return this.fail();
      }
    }
  }

  private object(): JsonObject {
    this.pos++;
    const out: JsonObject = {};
    let order: string[] | undefined;
    this.space();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return out;
    }
    for (;;) {
      this.space();
      if (this.text.charCodeAt(this.pos) !== 0x22) {
        this.fail();
      }
      const key = this.string();
      this.space();
      if (this.text.charCodeAt(this.pos) !== 0x3a) {
        this.fail();
      }
      this.pos++;
      const value = this.value();
      if (!Object.hasOwn(out, key)) {
        if (order === undefined && mayReorder(key)) {
          order = Object.keys(out);
        }
        order?.push(key);
      }
      setKey(out, key, value); // a repeated key: the last value wins, in the first one's place
      this.space();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
      } else if (c === 0x7d) {
        this.pos++;
        if (order !== undefined) {
          keepOrder(out, order);
        }
        return out;
      } else {
        return this.fail();
      }
    }
  }
}

/**
 * Reads JSON text (RFC 8259) without losing anything `JSON.parse` would: numbers that a
 * `number` cannot hold exactly become {@link JsonNumber}s, and objects keep the key order of
 * the text, integer-like keys included. A repeated key keeps its last value.
 *
 * @throws {@link WireError} at `$` when `text` is not JSON.
 */
export function readJson(text: string): JsonValue {
  try {
    return new Reader(text).document();
  } catch (err) {
    if (err instanceof RangeError) {
      throw new WireError("$", "JSON text nested less deeply", "too deep a nesting");
    }
    throw err;
  }
}

// ---------------------------------------------------------------------------------- writing

class Writer {
  out = "";
  private readonly at: (string | number)[] = [];

  private fail(expected: string, value: unknown): never {
    let path = "$";
    for (const step of this.at) {
      path = typeof step === "number" ? `${path}[${step}]` : childPath(path, step);
    }
    throw new WireError(path, expected, describe(value));
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
          this.array(v);
        } else if (isPlainObject(v)) {
          this.object(v);
        } else {
          this.fail("a JSON value", v);
        }
        return;
      default:
        this.fail("a JSON value", v);
    }
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
 * @throws {@link WireError} naming the path of a value that is not JSON (`NaN`, a `Date`, a cycle).
 */
export function writeJson(value: unknown): string {
  const writer = new Writer();
  try {
    writer.value(value);
  } catch (err) {
    if (err instanceof RangeError) {
      throw new WireError("$", "a JSON value nested less deeply and without cycles", "too deep a nesting");
    }
    throw err;
  }
  return writer.out;
}
