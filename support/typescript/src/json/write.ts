// codegen: package

/** Writing JSON text (`writeJson`): what `readJson` read comes back as it was. */

import { WireError } from "../errors.js";
import { MAX_DEPTH } from "../loop.js";
import { JsonNumber, childPath, describe, hasKeyOrder, isPlainObject, orderedKeys } from "./values.js";

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
      if (!isPlainObject(value) || hasKeyOrder(value)) {
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
