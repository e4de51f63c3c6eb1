// The helper vectors of idl/helpers run through the package's helpers: `fromPath`, `fromUrl`,
// `fromBytes`, `pending` and `authRequired`. What conformance.js --helpers prints and
// helpers.test.ts checks (tests/helper_vectors.py reads the same files for Python and Rust).

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as wire from "toolnexus-contract";

/** One case of a helper: its arguments, and the part or result it must give, or the error code. */
export interface HelperCase {
  helper: string;
  name: string;
  args: Record<string, unknown>;
  expected?: unknown;
  error?: string;
}

/** What a helper gave for a case: the wire form of its value, or the code of its error. */
export type HelperAnswer =
  | { case: string; ok: true; value: unknown }
  | { case: string; ok: false; error: string; message: string };

/** Every case of every file in `dir`, files in name order. */
export function listHelperCases(dir: string): HelperCase[] {
  const out: HelperCase[] = [];
  for (const file of readdirSync(dir).filter((n) => n.endsWith(".json")).sort()) {
    const doc = JSON.parse(readFileSync(join(dir, file), "utf8")) as {
      helper: string;
      cases: { name: string; args: Record<string, unknown>; part?: unknown; result?: unknown; error?: string }[];
    };
    for (const c of doc.cases) {
      const expected = c.part ?? c.result;
      out.push({
        helper: doc.helper,
        name: c.name,
        args: c.args,
        ...(expected !== undefined ? { expected } : {}),
        ...(c.error !== undefined ? { error: c.error } : {}),
      });
    }
  }
  return out;
}

/** `value` with a pending request's fresh id (`pnd-` and 32 hex digits) written `<pnd>`. */
function withFreshIds(value: unknown): unknown {
  const pending = (value as { metadata?: { pending?: { id?: unknown } } }).metadata?.pending;
  if (pending !== undefined && typeof pending.id === "string" && /^pnd-[0-9a-f]{32}$/.test(pending.id)) {
    pending.id = "<pnd>";
  }
  return value;
}

/** Makes `files` under `root`: a name ending in `/` is a directory, any other a file of the base64 content. */
function makeFiles(root: string, files: Record<string, string | null>): void {
  for (const [name, content] of Object.entries(files)) {
    if (name.endsWith("/")) {
      mkdirSync(join(root, name), { recursive: true });
    } else {
      writeFileSync(join(root, name), Buffer.from(content ?? "", "base64"));
    }
  }
}

function value(c: HelperCase, tmp: string): unknown {
  const a = c.args;
  switch (c.helper) {
    case "from_url":
      return wire.toWireContentPart(wire.fromUrl(a["url"] as string, a["mimeType"] as string | undefined));
    case "from_bytes":
      return wire.toWireContentPart(wire.fromBytes(Buffer.from(a["base64"] as string, "base64"), a["mimeType"] as string));
    case "from_path": {
      makeFiles(tmp, a["files"] as Record<string, string | null>);
      const path = a["path"] === "" ? "" : join(tmp, a["path"] as string); // keeps a trailing slash
      const options = a["maxBytes"] !== undefined ? { maxBytes: a["maxBytes"] as number } : {};
      return wire.toWireContentPart(wire.fromPath(path, options));
    }
    case "pending":
      return wire.toWireToolResult(wire.pending(wire.parseRequest(a["request"])));
    case "auth_required":
      return wire.toWireToolResult(wire.authRequired(a["url"] as string, a["prompt"] as string));
    default:
      throw new Error(`no helper ${c.helper}`);
  }
}

/** Runs one case in a fresh directory of its own. */
export function runHelperCase(c: HelperCase): HelperAnswer {
  const id = `${c.helper}/${c.name}`;
  const tmp = mkdtempSync(join(tmpdir(), "tn-helpers-"));
  try {
    return { case: id, ok: true, value: withFreshIds(JSON.parse(JSON.stringify(value(c, tmp)))) };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return {
      case: id,
      ok: false,
      error: typeof code === "string" ? code : `unexpected ${(err as Error).constructor.name}`,
      message: (err as Error).message,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** "pass", or what went wrong. */
export function judgeHelperCase(c: HelperCase, answer: HelperAnswer): string {
  if (c.error !== undefined) {
    if (answer.ok) {
      return `gave ${JSON.stringify(answer.value)}, not the error ${c.error}`;
    }
    return answer.error === c.error ? "pass" : `error ${answer.error} (${answer.message}), not ${c.error}`;
  }
  if (!answer.ok) {
    return `error ${answer.error}: ${answer.message}`;
  }
  return sameJson(answer.value, c.expected) ? "pass" : `gave ${JSON.stringify(answer.value)}`;
}

/** Deep equality of JSON values (objects by their keys, whatever their order). */
function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) {
    return a === b;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
