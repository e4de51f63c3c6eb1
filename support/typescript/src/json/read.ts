// codegen: package

/** Reading JSON text (`readJson`): numbers kept exactly (`JsonNumber`), keys in their order. */

import { WireError } from "../errors.js";
import { MAX_DEPTH } from "../loop.js";
import { JsonNumber, LONE_SURROGATE, isWellFormed, keepOrder, mayReorder, setKey, spellNumber, type JsonObject, type JsonValue } from "./values.js";

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

/** The index of the quote that closes the string opening at `pos`, -1 when the string does not
 * end: the first quote after it not escaped, that is not after an odd run of backslashes (each
 * run is counted once, so the scan stays linear). */
function stringEnd(text: string, pos: number): number {
  let end = text.indexOf('"', pos + 1);
  while (end !== -1 && text.charCodeAt(end - 1) === 0x5c) {
    let run = 1;
    while (text.charCodeAt(end - 1 - run) === 0x5c) {
      run++; // stops at the opening quote at the latest
    }
    if (run % 2 === 0) {
      break; // escaped backslashes, then the closing quote
    }
    end = text.indexOf('"', end + 1);
  }
  return end;
}

/** Where the number at `pos` ends when it is an integer JavaScript writes back as it is spelled
 * (up to 15 digits, no leading zero, not `-0`), else -1 (the number rule and `spellNumber` tell). */
function plainInteger(text: string, pos: number): number {
  const start = text.charCodeAt(pos) === 0x2d ? pos + 1 : pos;
  let end = start;
  for (let c = text.charCodeAt(end); c >= 0x30 && c <= 0x39; c = text.charCodeAt(end)) {
    end++;
  }
  const digits = end - start;
  const c = text.charCodeAt(end);
  if (digits === 0 || digits > 15 || c === 0x2e || c === 0x65 || c === 0x45 || (text.charCodeAt(start) === 0x30 && (digits > 1 || start > pos))) {
    return -1;
  }
  return end;
}

/**
 * How many object keys `text` holds, counted in one pass, when `JSON.parse` reads it as the
 * reader would (see {@link readJson}); `undefined` when only the reader can tell: a lone
 * surrogate in the text, a key that is escaped or starts with a digit (its order), a
 * number that JavaScript writes back otherwise (a {@link JsonNumber}), nesting past
 * {@link MAX_DEPTH}, an unterminated string. Strings are skipped with `indexOf`, and so are the
 * backslashes between keys: a key is escaped when the next backslash lies inside it. The text
 * is not checked to be JSON: `JSON.parse` does that.
 */
function keysOfText(text: string): number | undefined {
  // The next backslash at or after the last key looked at: found again only for a key past it,
  // so that the searches cover the text once however many keys come between two backslashes.
  let slash = text.indexOf("\\");
  if (!isWellFormed(text)) {
    return undefined;
  }
  const n = text.length;
  let keys = 0;
  let depth = 0;
  let pos = 0;
  while (pos < n) {
    const c = text.charCodeAt(pos);
    if (c === 0x22) {
      const end = stringEnd(text, pos);
      if (end === -1) {
        return undefined;
      }
      let after = end + 1;
      while (after < n && isSpace(text.charCodeAt(after))) {
        after++;
      }
      if (text.charCodeAt(after) === 0x3a) {
        if (slash !== -1 && slash < pos) {
          slash = text.indexOf("\\", pos);
        }
        const first = text.charCodeAt(pos + 1); // a key that starts with a digit: see mayReorder
        if ((slash !== -1 && slash < end) || (first >= 0x30 && first <= 0x39)) {
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
      const next = plainInteger(text, pos);
      if (next !== -1) {
        pos = next;
        continue;
      }
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

/**
 * How many object keys `value` (what `JSON.parse` returns) holds, all the way down; -1 when one
 * of its strings or keys holds a lone surrogate, which `JSON.parse` makes of an escape such as
 * `"\ud800"` (a pair of escapes decodes to the character, as the reader decodes it).
 * `isWellFormed` answers at once for a string without characters beyond U+00FF.
 */
function keysOfValue(value: unknown): number {
  if (typeof value === "string") {
    return isWellFormed(value) ? 0 : -1;
  }
  if (typeof value !== "object" || value === null) {
    return 0;
  }
  let keys = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      const inner = keysOfValue(item);
      if (inner < 0) {
        return -1;
      }
      keys += inner;
    }
    return keys;
  }
  for (const key in value) {
    const inner = keysOfValue((value as Record<string, unknown>)[key]);
    if (inner < 0 || !isWellFormed(key)) {
      return -1;
    }
    keys += 1 + inner;
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
 * of two values for one key, so its value holds fewer keys than the text. The walk that counts
 * them also finds a lone surrogate `JSON.parse` decoded from an escape. Any other text is
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

