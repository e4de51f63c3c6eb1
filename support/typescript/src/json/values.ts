// codegen: package

/** JSON values: `JsonValue`, `JsonNumber`, the order of an object's keys, and describing a value. */

import { WireError } from "../errors.js";
import { MAX_DEPTH } from "../loop.js";

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

// MAX_DEPTH (idl/loop.json): the deepest nesting of arrays and objects the wire allows, counting
// the document's own object (or array) as level 1. `readJson` refuses deeper text at `$`; the
// parsers refuse deeper values, and the emitters and `writeJson` refuse to write them (a cycle
// nests endlessly).
export { MAX_DEPTH };

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

/** Whether `obj` carries the order its keys were read in (`keepOrder`). */
export function hasKeyOrder(obj: object): boolean {
  return (obj as Ordered)[KEY_ORDER] !== undefined;
}

/** True for a key JavaScript may move to the front of an object (it starts with a digit). */
export function mayReorder(key: string): boolean {
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
export const LONE_SURROGATE = /\p{Surrogate}/u;

interface WellFormed {
  isWellFormed(): boolean;
}

/**
 * True when `s` holds no lone surrogate, so that it is Unicode text (and UTF-8 can encode it).
 * `String.prototype.isWellFormed` (Node.js 20) answers at once for a string without characters
 * beyond U+00FF and scans the others natively.
 */
export const isWellFormed: (s: string) => boolean =
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
