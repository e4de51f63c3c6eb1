// The wire vectors of idl/examples, run through the generated package: what conformance.ts
// prints and vectors.test.ts checks.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import * as wire from "toolnexus-contract";

/** One vector: `<Type>/<valid|invalid>/<name>.json` under the examples folder. */
export interface Vector {
  type: string;
  kind: "valid" | "invalid";
  /** The path below the examples folder, with `/` separators. */
  name: string;
  file: string;
}

/** What one vector gave: re-emitted JSON text, or the error that rejected it. */
export type Outcome =
  | { vector: string; ok: true; emitted: string }
  | { vector: string; ok: false; error: string; path: string };

/** Every vector under `dir`, types and files in code-unit order (only files ending in `.json`). */
export function listVectors(dir: string): Vector[] {
  const out: Vector[] = [];
  for (const type of readdirSync(dir).sort()) {
    if (!statSync(join(dir, type)).isDirectory()) {
      continue;
    }
    for (const kind of ["valid", "invalid"] as const) {
      const folder = join(dir, type, kind);
      let names: string[];
      try {
        names = readdirSync(folder).filter((n) => n.endsWith(".json")).sort();
      } catch {
        continue; // no such folder
      }
      for (const n of names) {
        out.push({ type, kind, name: `${type}/${kind}/${n}`, file: join(folder, n) });
      }
    }
  }
  return out;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Parses `bytes` as a `type` and emits it again, through the package's `fromJson…`/`toJson…`. */
export function roundTrip(type: string, bytes: Uint8Array): string {
  const api = wire as unknown as Record<string, unknown>;
  const from = api[`fromJson${type}`];
  const to = api[`toJson${type}`];
  if (typeof from !== "function" || typeof to !== "function") {
    throw new Error(`toolnexus-contract has no fromJson${type}/toJson${type}`);
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new wire.WireError("$", "UTF-8 text", "bytes that are not UTF-8");
  }
  return (to as (v: unknown) => string)((from as (t: string) => unknown)(text));
}

export function runVector(v: Vector): Outcome {
  try {
    return { vector: v.name, ok: true, emitted: roundTrip(v.type, readFileSync(v.file)) };
  } catch (err) {
    if (err instanceof wire.WireError) {
      return { vector: v.name, ok: false, error: err.message, path: err.path };
    }
    throw err;
  }
}

// ---------------------------------------------------------------------------------- built vectors

/** A segment of a built text: a string as it is, or `repeat` repeated `times` times. */
export type Segment = string | { repeat: string; times: number };

/** A wire vector too large to keep as a file (idl/examples/built.json): built, then run. */
export interface BuiltVector {
  name: string;
  type: string;
  text: Segment[];
  valid: boolean;
  path?: string;
}

/** What one built vector gave: whether it was accepted, whether the emitted text is the same, and times. */
export type BuiltOutcome =
  | { vector: string; ok: true; same: boolean; parseMs: number; emitMs: number }
  | { vector: string; ok: false; error: string; path: string; parseMs: number };

/** The vectors of a built-vector file. */
export function listBuilt(file: string): BuiltVector[] {
  return (JSON.parse(readFileSync(file, "utf8")) as { vectors: BuiltVector[] }).vectors;
}

/** The text of `segments`, joined. */
export function build(segments: Segment[]): string {
  return segments.map((s) => (typeof s === "string" ? s : s.repeat.repeat(s.times))).join("");
}

/** Builds `v`, parses it with `fromJson<Type>` and, when accepted, emits it with `toJson<Type>`. */
export function runBuilt(v: BuiltVector): BuiltOutcome {
  const api = wire as unknown as Record<string, unknown>;
  const from = api[`fromJson${v.type}`] as (t: string) => unknown;
  const to = api[`toJson${v.type}`] as (v: unknown) => string;
  const text = build(v.text);
  const t0 = performance.now();
  let value: unknown;
  try {
    value = from(text);
  } catch (err) {
    if (err instanceof wire.WireError) {
      return { vector: v.name, ok: false, error: err.message.slice(0, 300), path: err.path, parseMs: performance.now() - t0 };
    }
    throw err;
  }
  const t1 = performance.now();
  const emitted = to(value);
  const t2 = performance.now();
  return { vector: v.name, ok: true, same: emitted === text, parseMs: t1 - t0, emitMs: t2 - t1 };
}
