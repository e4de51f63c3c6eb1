// codegen: package

// The checks the generated parsers and emitters are made of. Internal: not exported by index.ts.

import { WireError } from "./errors.js";
import {
  childPath,
  describe,
  isPlainObject,
  JsonNumber,
  keepOrder,
  MAX_DEPTH,
  orderedKeys,
  setKey,
  tooDeep,
  tooDeepOrCycle,
  type JsonObject,
  type JsonValue,
} from "./json.js";

/** A `pattern` of the schema as a check: a `RegExp`, or an exact check of its own (`patternFor`). */
export interface StringPattern {
  /** The pattern's text, as the schema writes it. */
  readonly source: string;
  test(value: string): boolean;
}

/** What a JSON Schema string may further require: `pattern` and `minLength`. */
export interface StringRule {
  readonly pattern?: StringPattern;
  readonly minLength?: number;
}

/** The IDL's pattern of a part's `data`: standard base64 (RFC 4648 section 4) with padding. */
const BASE64_PATTERN = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$";

/** ASCII whitespace: `atob` skips it (forgiving-base64), the pattern allows none. */
const WHITESPACE = [" ", "\t", "\n", "\f", "\r"] as const;
/** How much `isBase64` gives `atob` at a time: whole quanta (a multiple of 4), and little, so that
 * the decoded text it makes and drops at once stays small however big the part. */
const ATOB_SLICE = 1 << 16;
// Typed here, not from a lib: the wire package compiles with no DOM lib and no @types/node.
const atobOf = (globalThis as unknown as { atob: (data: string) => string }).atob;

/**
 * Whether `s` is padded standard base64, as {@link BASE64_PATTERN} says, in one pass of native
 * code. V8 runs that pattern by backtracking, one stack frame per group: from about 5 MB of
 * base64 it throws `RangeError: Maximum call stack size exceeded`; a loop over the characters
 * here took three times as long as `atob`.
 *
 * `atob` (the WHATWG forgiving-base64 decode) refuses any character outside the alphabet, `=`
 * anywhere but at the end, and more than two of them, but it also takes what the pattern does
 * not: whitespace, which it skips, and a length that is not a multiple of 4. Those are refused
 * first, so that what remains is the pattern exactly: whole quanta of the alphabet, the last one
 * ending in `=` or `==` at most. Each slice but the last is whole quanta without `=` (it may only
 * stand in the last two places), so the slices are base64 exactly when `s` is.
 */
export function isBase64(s: string): boolean {
  const n = s.length;
  if (n % 4 !== 0) {
    return false;
  }
  const pad = s.indexOf("=");
  if (pad !== -1 && pad < n - 2) {
    return false;
  }
  for (const space of WHITESPACE) {
    if (s.indexOf(space) !== -1) {
      return false;
    }
  }
  try {
    for (let i = 0; i < n; i += ATOB_SLICE) {
      atobOf(s.slice(i, i + ATOB_SLICE));
    }
  } catch {
    return false; // InvalidCharacterError: a character outside the alphabet, or `=` misplaced
  }
  return true;
}

/**
 * The check of a schema `pattern`: one in a single pass for a pattern whose regular expression
 * would backtrack over long values (the base64 of a part's `data`), else the pattern itself
 * (with the `u` flag, as JSON Schema's patterns are Unicode).
 */
export function patternFor(source: string): StringPattern {
  return source === BASE64_PATTERN ? { source, test: isBase64 } : new RegExp(source, "u");
}

/**
 * The value as an object whose properties can be read, or a WireError saying it is not one, or
 * that it is nested deeper than {@link MAX_DEPTH} (which only a type that refers to itself,
 * directly or not, can be: the others nest as deep as the schema does).
 */
export function expectObject(value: unknown, path: string, expected: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof JsonNumber) {
    throw new WireError(path, expected, describe(value));
  }
  // Each step of a path takes at least two characters: a shorter path is not deep enough to count.
  if (path.length > 2 * MAX_DEPTH && levelOf(path) > MAX_DEPTH) {
    throw tooDeep(path, value, levelOf(path));
  }
  return value as Record<string, unknown>;
}

/** True when `src` has the key with a value other than `undefined` (which counts as absent). */
export function has(src: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(src, key) && src[key] !== undefined;
}

/** The value of a required key; a missing key is an error at the path of the object. */
export function need(src: Record<string, unknown>, key: string, path: string): unknown {
  if (!has(src, key)) {
    throw new WireError(path, `an object with the required key ${JSON.stringify(key)}`, "one without it");
  }
  return src[key];
}

/**
 * A type's conditional requirement (its `allOf` in the IDL): when `obj[when]` is one of
 * `values`, at least one key of `anyOf` holds a string that is not empty (an empty string is
 * omitted from the wire and reads as absent). The error is at the path of the object.
 */
export function carries(
  value: object,
  path: string,
  when: string,
  values: readonly string[],
  anyOf: readonly string[],
): void {
  const obj = value as Readonly<Record<string, unknown>>;
  const tag = obj[when];
  if (typeof tag !== "string" || !values.includes(tag)) {
    return;
  }
  if (anyOf.some((key) => typeof obj[key] === "string" && (obj[key] as string).length > 0)) {
    return;
  }
  const needs = anyOf.map((key) => JSON.stringify(key)).join(" or ");
  throw new WireError(
    path,
    `an object with ${needs}`,
    `a ${JSON.stringify(when)}: ${JSON.stringify(tag)} object that carries nothing`,
  );
}

/** True when `s` has at least `min` code points (JSON Schema's `minLength` counts those). */
function hasCodePoints(s: string, min: number): boolean {
  if (s.length < min) {
    return false;
  }
  let n = 0;
  for (let i = 0; i < s.length && n < min; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
      }
    }
    n++;
  }
  return n >= min;
}

function expectedString(rule: StringRule): string {
  const parts: string[] = [];
  if (rule.minLength !== undefined) {
    parts.push(`of at least ${rule.minLength} character${rule.minLength === 1 ? "" : "s"}`);
  }
  if (rule.pattern !== undefined) {
    parts.push(`matching ${rule.pattern.source}`);
  }
  return ["a string", ...parts].join(" ");
}

export function expectString(value: unknown, path: string, rule?: StringRule): string {
  if (
    typeof value !== "string" ||
    (rule !== undefined &&
      ((rule.minLength !== undefined && !hasCodePoints(value, rule.minLength)) ||
        (rule.pattern !== undefined && !rule.pattern.test(value))))
  ) {
    throw new WireError(path, rule === undefined ? "a string" : expectedString(rule), describe(value));
  }
  return value;
}

export function expectEnum<T extends string>(value: unknown, path: string, values: readonly T[]): T {
  if (typeof value !== "string" || !(values as readonly string[]).includes(value)) {
    const expected = `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;
    throw new WireError(path, expected, describe(value));
  }
  return value as T;
}

export function expectBoolean(value: unknown, path: string): boolean {
  if (typeof value !== "boolean") {
    throw new WireError(path, "a boolean", describe(value));
  }
  return value;
}

/** What a JSON Schema number may further require: inclusive bounds, compared as doubles. */
export interface NumberRule {
  readonly minimum?: number;
  readonly maximum?: number;
}

/** `value` (a number already checked) against `rule`'s bounds, as an IEEE double. */
function checkBounds(value: number | JsonNumber, path: string, rule: NumberRule | undefined, kind: string): number | JsonNumber {
  if (rule === undefined) {
    return value;
  }
  const n = Number(value);
  if ((rule.minimum !== undefined && n < rule.minimum) || (rule.maximum !== undefined && n > rule.maximum)) {
    const bounds: string[] = [];
    if (rule.minimum !== undefined) {
      bounds.push(`at least ${rule.minimum}`);
    }
    if (rule.maximum !== undefined) {
      bounds.push(`at most ${rule.maximum}`);
    }
    throw new WireError(path, `${kind} ${bounds.join(" and ")}`, describe(value));
  }
  return value;
}

export function expectNumber(value: unknown, path: string, rule?: NumberRule): number | JsonNumber {
  if ((typeof value === "number" && Number.isFinite(value)) || value instanceof JsonNumber) {
    return checkBounds(value, path, rule, "a number");
  }
  throw new WireError(path, "a number", describe(value));
}

export function expectInteger(value: unknown, path: string, rule?: NumberRule): number | JsonNumber {
  // JSON Schema counts any number with a zero fraction as an integer, `1.0` and `1e3` too.
  if ((typeof value === "number" || value instanceof JsonNumber) && Number.isInteger(Number(value))) {
    return checkBounds(value, path, rule, "an integer");
  }
  if (value instanceof JsonNumber && /^-?[0-9]+$/.test(value.text)) {
    return checkBounds(value, path, rule, "an integer"); // beyond what a double holds, yet an integer
  }
  throw new WireError(path, "an integer", describe(value));
}

export function expectArray<T>(value: unknown, path: string, item: (value: unknown, path: string) => T): T[] {
  if (!Array.isArray(value)) {
    throw new WireError(path, "an array", describe(value));
  }
  const out: T[] = new Array<T>(value.length);
  for (let i = 0; i < value.length; i++) {
    out[i] = item(value[i], `${path}[${i}]`);
  }
  return out;
}

/**
 * The nesting level of the value at `path` in its document, `$` being level 1: one more per
 * `.key`, `[index]` or `["key"]` step, as the parsers and emitters build paths.
 */
export function levelOf(path: string): number {
  let level = 1;
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c === 0x2e) {
      level++; // .key: an identifier, without "." or "["
    } else if (c === 0x5b) {
      level++; // [index] or ["key"]: skip the JSON string, whatever it holds
      if (path.charCodeAt(i + 1) === 0x22) {
        for (i += 2; i < path.length && path.charCodeAt(i) !== 0x22; i++) {
          if (path.charCodeAt(i) === 0x5c) {
            i++;
          }
        }
      }
    }
  }
  return level;
}

/**
 * Checks that `value` is JSON all the way down, its arrays and objects nested at most
 * {@link MAX_DEPTH} levels deep in the document (`path` tells where `value` is) and without
 * cycles; returns it unchanged.
 */
export function expectJson(value: unknown, path: string): JsonValue {
  if (plainJson(value, levelOf(path))) {
    return value as JsonValue;
  }
  try {
    checkJson(value, path, levelOf(path), [], []);
  } catch (err) {
    if (err instanceof RangeError) {
      // Only when the caller leaves less stack than MAX_DEPTH levels take.
      throw new WireError(path, "a value JavaScript can check here", `a RangeError: ${err.message}`);
    }
    throw err;
  }
  return value as JsonValue;
}

/**
 * True when `value`, at `level` of its document, is JSON all the way down and nested at most
 * {@link MAX_DEPTH} levels (so without cycles): the walk of `checkJson` without building a
 * path for every value. On false, `checkJson` walks again and names the place.
 */
function plainJson(value: unknown, level: number): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object": {
      if (value === null || value instanceof JsonNumber) {
        return true;
      }
      if (level > MAX_DEPTH) {
        return false;
      }
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          if (!plainJson(value[i], level + 1)) {
            return false;
          }
        }
        return true;
      }
      if (!isPlainObject(value)) {
        return false;
      }
      for (const key of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[key];
        if (item !== undefined && !plainJson(item, level + 1)) {
          return false;
        }
      }
      return true;
    }
    default:
      return false;
  }
}

/** `open` holds the arrays and objects enclosing `value`, outermost first, and `at` their paths. */
function checkJson(value: unknown, path: string, level: number, open: object[], at: string[]): void {
  switch (typeof value) {
    case "string":
    case "boolean":
      return;
    case "number":
      if (Number.isFinite(value)) {
        return;
      }
      break;
    case "object": {
      if (value === null || value instanceof JsonNumber) {
        return;
      }
      const array = Array.isArray(value);
      if (!array && !isPlainObject(value)) {
        break;
      }
      if (level > MAX_DEPTH) {
        const paths = [...at, path];
        throw tooDeepOrCycle([...open, value], (i) => paths[i] as string, level);
      }
      open.push(value);
      at.push(path);
      if (array) {
        for (let i = 0; i < value.length; i++) {
          checkJson(value[i], `${path}[${i}]`, level + 1, open, at);
        }
      } else {
        for (const key of Object.keys(value)) {
          const item = (value as Record<string, unknown>)[key];
          if (item !== undefined) {
            checkJson(item, childPath(path, key), level + 1, open, at);
          }
        }
      }
      open.pop();
      at.pop();
      return;
    }
  }
  throw new WireError(path, "a JSON value", describe(value));
}

/** A free-form JSON object (`"type": "object"` without properties), checked all the way down. */
export function expectMap(value: unknown, path: string): JsonObject {
  if (!isPlainObject(value)) {
    throw new WireError(path, "an object", describe(value));
  }
  return expectJson(value, path) as JsonObject;
}

/**
 * A field without a `type` in the schema: any JSON value but `null` (which an optional field
 * never is: absent is omitted), checked all the way down as a free-form object is.
 */
export function expectAny(value: unknown, path: string): JsonValue {
  if (value === null) {
    throw new WireError(path, "a JSON value other than null", "null");
  }
  return expectJson(value, path);
}

/**
 * Copies the keys of `src` that the schema does not name onto `out`, after the known ones and
 * in their order in `src`, each checked to be JSON.
 */
export function keepUnknown<T extends object>(src: Record<string, unknown>, out: T, known: ReadonlySet<string>, path: string): T {
  let unknown: string[] | undefined;
  for (const key of orderedKeys(src)) {
    if (!known.has(key) && src[key] !== undefined) {
      setKey(out, key, expectJson(src[key], childPath(path, key)));
      (unknown ??= []).push(key);
    }
  }
  if (unknown !== undefined) {
    keepOrder(out, [...Object.keys(out).filter((k) => known.has(k)), ...unknown]);
  }
  return out;
}

/**
 * The own keys of `value` that `known` does not name (a key whose value is `undefined` counts as
 * absent), with their values, in wire order, as a new object. What `extraKeys` returns.
 */
export function unknownKeys(value: object, known: ReadonlySet<string>): JsonObject {
  const src = value as Record<string, unknown>;
  const out: JsonObject = {};
  const keys: string[] = [];
  for (const key of orderedKeys(value)) {
    if (!known.has(key) && src[key] !== undefined) {
      setKey(out, key, src[key]);
      keys.push(key);
    }
  }
  keepOrder(out, keys);
  return out;
}

/**
 * For a closed type (`additionalProperties: false`): a key the schema does not name is an error
 * at the path of the object, as JSON Schema validators report it.
 */
export function rejectUnknown<T extends object>(src: Record<string, unknown>, out: T, known: ReadonlySet<string>, path: string): T {
  for (const key of orderedKeys(src)) {
    if (!known.has(key) && src[key] !== undefined) {
      throw new WireError(path, `an object without the key ${JSON.stringify(key)} (its type allows no others)`, "one with it");
    }
  }
  return out;
}
