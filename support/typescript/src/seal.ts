// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

// The seal of a pending run, version 4 (docs/seal.md, pinned by idl/seal/vectors.json), and the
// turn's digests every language computes the same: `turnDigest` and `idempotencyKey` (byte for
// byte Python's `toolnexus/_seal.py`). Part of `toolnexus-contract/runtime`: it loads the JCS
// library (`canonicalize`) and Node.js's `node:crypto`, which the wire-only import never does.
//
//   v4.hmac-sha256.<key id>.<expiry>.<principal tag>.<mac>

import canonicalize from "canonicalize";
import { JsonNumber, isPlainObject } from "./json.js";

/** What a key id may hold: it is written into the seal between dots. */
export const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** The fewest bytes a toolkit key may have. */
export const MIN_SECRET_BYTES = 16;

const V4_PREFIX = "v4.hmac-sha256.";
const STAMPED = /^v4\.hmac-sha256\.([A-Za-z0-9_-]{1,64})\.([0-9]{0,20})\.([A-Za-z0-9_-]{0,43})\.([A-Za-z0-9_-]{43})$/;
/** The largest integer a double holds exactly: RFC 8785 writes no integer beyond ±this exactly. */
const SAFE = 2 ** 53 - 1;
const INTEGER_TEXT = /^-?[0-9]+$/;
const MOD = 1n << 256n;

/**
 * A value with no canonical JSON form (NaN, a lone surrogate, a `Date`, an integer beyond
 * ±(2^53 − 1)), so it cannot be sealed. The toolkit turns it into an error result or a
 * `ResumeError("seal")`; it never leaves the runtime.
 */
export class NotJSON extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotJSON";
  }
}

// -- bytes ----------------------------------------------------------------------------------

/**
 * `text` as UTF-8; a lone surrogate (which a string a host builds may hold) as the three bytes
 * Python's `surrogatepass` writes, so that ids and principals digest the same in every language.
 */
export function utf8(text: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) {
      out.push(c);
    } else if (c < 0x800) {
      out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
      out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    } else {
      out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    }
  }
  return Uint8Array.from(out);
}

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0));
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function hex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) {
    out += b.toString(16).padStart(2, "0");
  }
  return out;
}

const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Base64url without padding (RFC 4648 §5). */
function base64url(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let j = 0; j < chars; j++) {
      out += B64URL[(n >> (18 - 6 * j)) & 0x3f];
    }
  }
  return out;
}

/** `n` as 8 bytes big-endian. */
function u64(n: number): Uint8Array {
  const out = new Uint8Array(8);
  let v = BigInt(n);
  for (let i = 7; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** `n` (0 ≤ n < 2^256) as 32 bytes big-endian. */
function u256(n: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let v = n;
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** A big-endian unsigned integer. */
function int(bytes: Uint8Array): bigint {
  return BigInt(`0x${hex(bytes)}`);
}

// -- node:crypto ------------------------------------------------------------------------------

interface Hash {
  update(data: Uint8Array): Hash;
  digest(): Uint8Array;
}

interface NodeCrypto {
  createHash(algorithm: "sha256"): Hash;
  createHmac(algorithm: "sha256", key: Uint8Array): Hash;
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

let cryptoModule: NodeCrypto | undefined;

/** Node.js's `node:crypto` (`process.getBuiltinModule`, Node.js 20.16 and later). */
function nodeCrypto(): NodeCrypto {
  if (cryptoModule === undefined) {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const mod = typeof proc?.getBuiltinModule === "function" ? proc.getBuiltinModule("node:crypto") : undefined;
    if (mod === undefined || mod === null) {
      throw new Error("toolnexus-contract/runtime seals runs with Node.js's node:crypto, which this runtime does not have");
    }
    cryptoModule = mod as NodeCrypto;
  }
  return cryptoModule;
}

export function sha256(...parts: Uint8Array[]): Uint8Array {
  const h = nodeCrypto().createHash("sha256");
  for (const part of parts) {
    h.update(part);
  }
  return Uint8Array.from(h.digest());
}

function hmac(key: Uint8Array, ...parts: Uint8Array[]): Uint8Array {
  const h = nodeCrypto().createHmac("sha256", key);
  for (const part of parts) {
    h.update(part);
  }
  return Uint8Array.from(h.digest());
}

/** A constant-time comparison of two seals; false for one that is not ASCII. */
export function same(given: string, expected: string): boolean {
  if (!/^[\x00-\x7f]*$/.test(given) || given.length !== expected.length) {
    return false;
  }
  return nodeCrypto().timingSafeEqual(ascii(given), ascii(expected));
}

// -- the canonical form -------------------------------------------------------------------------

/** Why the JSON number `text` cannot be sealed (an integer beyond ±(2^53 − 1)), or undefined. */
function inexact(text: string): string | undefined {
  if (INTEGER_TEXT.test(text) && Math.abs(Number(text)) > SAFE) {
    return `the integer ${text} has no exact form in RFC 8785 (beyond ±(2^53 − 1))`;
  }
  return undefined;
}

/**
 * `value` with every number as RFC 8785 reads it: a double. A wire value's number may be a
 * {@link JsonNumber} (`1.0`, `2.50`, a big integer), which the JCS library would not know:
 * it becomes the double its text spells. A number whose JSON text is an integer beyond
 * ±(2^53 − 1) (as a `JsonNumber`, or a `number` JavaScript writes without an exponent, such as
 * 1e20) is what Python and Rust read as an integer no double holds: refused, as they refuse it.
 */
function doubles(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number": {
      if (!Number.isFinite(value)) {
        throw new NotJSON(`${String(value)} is not a JSON number`);
      }
      const why = inexact(String(value));
      if (why !== undefined) {
        throw new NotJSON(why);
      }
      return value;
    }
    case "object": {
      if (value === null) {
        return null;
      }
      if (depth > 1000) {
        throw new NotJSON("a value nested more than 1000 levels deep");
      }
      if (value instanceof JsonNumber) {
        const why = inexact(value.text);
        if (why !== undefined) {
          throw new NotJSON(why);
        }
        return Number(value.text);
      }
      if (Array.isArray(value)) {
        return value.map((item) => doubles(item, depth + 1));
      }
      if (isPlainObject(value)) {
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(value)) {
          const item = value[key];
          if (item !== undefined) {
            Object.defineProperty(out, key, { value: doubles(item, depth + 1), enumerable: true, configurable: true, writable: true });
          }
        }
        return out;
      }
      throw new NotJSON(`a ${(value as object).constructor?.name ?? "object"} is not JSON`);
    }
    default:
      throw new NotJSON(`a ${typeof value} is not JSON`);
  }
}

/**
 * The canonical JSON of `value` by RFC 8785 (keys sorted by UTF-16 code units, compact, numbers as
 * ECMAScript writes a double), as UTF-8; {@link NotJSON} when it has none.
 */
export function canonical(value: unknown): Uint8Array {
  const plain = doubles(value, 0);
  let text: string | undefined;
  try {
    text = canonicalize(plain);
  } catch (err) {
    throw new NotJSON(err instanceof Error ? err.message : String(err));
  }
  if (text === undefined) {
    throw new NotJSON("the value has no JSON form");
  }
  return utf8(text);
}

/** SHA-256 of the canonical JSON of a wire element (its `toWire…` form). */
export function digest(wire: unknown): Uint8Array {
  return sha256(canonical(wire));
}

/** What the seal holds of a run's `order` and `turn`. */
export function orderDigest(turnId: string, order: readonly string[]): Uint8Array {
  return digest(turnId ? [turnId, order] : order);
}

// -- the turn's digest and idempotency keys ----------------------------------------------------

/**
 * What identifies a turn: a digest of its id (`RunResult.turn`, when it has one) and its call
 * ids, in call order (Python's `_stored.turn_digest`, byte for byte).
 */
export function turnDigest(order: readonly string[], turnId: string = ""): Uint8Array {
  const parts: Uint8Array[] = [ascii("toolnexus.turn.v1\n")];
  for (const id of turnId ? [turnId, ...order] : order) {
    const raw = utf8(id);
    parts.push(u64(raw.length), raw);
  }
  return sha256(...parts);
}

/**
 * `ToolContext.idempotencyKey` of the call `callId` in the turn `turn` (`turnDigest`): `idk-`
 * and 32 hex digits, the same in every language.
 */
export function idempotencyKey(turn: Uint8Array, callId: string): string {
  return `idk-${hex(sha256(ascii("toolnexus.idempotency.v1\n"), turn, utf8(callId))).slice(0, 32)}`;
}

// -- keys, terms and the MAC --------------------------------------------------------------------

export function add(total: bigint, term: bigint): bigint {
  return (total + term) % MOD;
}

export function sub(total: bigint, term: bigint): bigint {
  return (((total - term) % MOD) + MOD) % MOD;
}

/** The seal's fields besides its MAC, and the digests and sums it covers (docs/seal.md). */
export interface SealFields {
  expires: number | null;
  principalTag: string;
  pending: Uint8Array;
  order: Uint8Array;
  nResults: number;
  results: bigint;
  nWaiting: number;
  waiting: bigint;
}

/** One toolkit key, with its id and the subkeys its terms are made with. */
export class SealKey {
  readonly keyId: string;
  readonly #secret: Uint8Array;
  readonly #results: Uint8Array;
  readonly #waiting: Uint8Array;
  readonly #principal: Uint8Array;

  constructor(secret: Uint8Array, keyId: string) {
    this.keyId = keyId;
    this.#secret = Uint8Array.from(secret);
    this.#results = hmac(this.#secret, ascii("toolnexus.RunResult.seal.v4.results"));
    this.#waiting = hmac(this.#secret, ascii("toolnexus.RunResult.seal.v4.waiting"));
    this.#principal = hmac(this.#secret, ascii("toolnexus.RunResult.seal.v4.principal"));
  }

  /** The summand of a finished result at `position` in call order, of digest `element`. */
  term(position: number, element: Uint8Array): bigint {
    return int(hmac(this.#results, u64(position), element));
  }

  /** The summand of a waiting call at `position`, of digest `call`, asked `request` (digest). */
  waitingTerm(position: number, call: Uint8Array, request: Uint8Array): bigint {
    return int(hmac(this.#waiting, u64(position), call, request));
  }

  /** The keyed digest of `principal` written into a seal; empty for none. */
  principalTag(principal: string | null): string {
    return principal === null ? "" : base64url(hmac(this.#principal, utf8(principal)).subarray(0, 18));
  }

  seal(f: SealFields): string {
    const clear = `${this.keyId}.${f.expires === null ? "" : String(f.expires)}.${f.principalTag}`;
    const body = concat([
      ascii("toolnexus.RunResult.seal.v4\n"),
      ascii(clear),
      ascii("\npending\n"),
      f.pending,
      f.order,
      u64(f.nResults),
      u256(f.results),
      u64(f.nWaiting),
      u256(f.waiting),
    ]);
    return `${V4_PREFIX}${clear}.${base64url(hmac(this.#secret, body))}`;
  }
}

/** What a seal says in the clear: its key id, expiry (ms) and principal tag. */
export interface Stamp {
  keyId: string;
  expires: number | null;
  principalTag: string;
}

/** The clear parts of a version-4 seal, or undefined when `seal` is none. */
export function parseStamp(seal: string): Stamp | undefined {
  const m = STAMPED.exec(seal);
  if (m === null) {
    return undefined;
  }
  const expires = m[2] as string;
  return { keyId: m[1] as string, expires: expires === "" ? null : Number(expires), principalTag: m[3] as string };
}

/** A toolkit's keys by id, and the active one (none without keys). */
export interface KeySet {
  keys: Map<string, SealKey>;
  active: SealKey | null;
}

function secretBytes(value: unknown, keyId: string): Uint8Array {
  if (!(value instanceof Uint8Array) || value.length < MIN_SECRET_BYTES) {
    throw new TypeError(`a secret must be a Uint8Array of at least ${MIN_SECRET_BYTES} bytes (key ${JSON.stringify(keyId)})`);
  }
  return value;
}

/** The toolkit's keys from its options `secret`, `secrets` and `activeKey`. */
export function keySet(secret: Uint8Array | undefined, secrets: { readonly [keyId: string]: Uint8Array } | undefined, activeKey: string | undefined): KeySet {
  if (secret !== undefined && secrets !== undefined) {
    throw new TypeError("give either secret (one key) or secrets (keys by id), not both");
  }
  let byId = secrets;
  let active = activeKey;
  if (secret !== undefined) {
    if (activeKey !== undefined) {
      throw new TypeError("activeKey names one of secrets; with secret there is one key");
    }
    byId = { default: secret };
    active = "default";
  }
  if (byId === undefined) {
    if (activeKey !== undefined) {
      throw new TypeError("activeKey names one of secrets, and no secrets were given");
    }
    return { keys: new Map(), active: null };
  }
  if (typeof byId !== "object" || byId === null || Object.keys(byId).length === 0) {
    throw new TypeError("secrets must be a non-empty object of key id to key bytes");
  }
  const keys = new Map<string, SealKey>();
  for (const [keyId, value] of Object.entries(byId)) {
    if (!KEY_ID.test(keyId)) {
      throw new TypeError(`a key id must be 1 to 64 of [A-Za-z0-9_-], got ${JSON.stringify(keyId)}`);
    }
    keys.set(keyId, new SealKey(secretBytes(value, keyId), keyId));
  }
  const ids = [...keys.keys()].sort();
  if (active === undefined) {
    if (keys.size > 1) {
      throw new TypeError(`activeKey must name the key that seals new runs, one of ${JSON.stringify(ids)}`);
    }
    active = ids[0] as string;
  }
  const chosen = keys.get(active);
  if (chosen === undefined) {
    throw new TypeError(`activeKey ${JSON.stringify(active)} is not one of the secrets' ids ${JSON.stringify(ids)}`);
  }
  return { keys, active: chosen };
}
