// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * Results kept whole: where a toolkit puts the output of a call it cut ({@link ResultSpill}: a
 * directory, or memory), what it applies after each run ({@link ResultLimits}), and the built-in
 * {@link readResult} tool a host may add to its toolkit so that the model pages through a kept
 * result. A port of Python's `toolnexus/_spill.py` (the stores' database spill is `store.results`, in
 * `toolnexus-contract/store`).
 *
 * A kept result is bound to the scope of the turn that kept it, its principal and its session:
 * `read_result` in a turn of another principal or another session finds nothing under the
 * reference, as if none were kept (idl/loop/README.md, "The reference, the spill and
 * read_result").
 *
 * @packageDocumentation
 */

import { fit, resultRef } from "./cut.js";
import { Limit, REF_PREFIX, codePoints, unitIndex, type LimitInit, type Tokenizer } from "./limit.js";
import * as texts from "./loop.js";
import { READ_RESULT_LENGTH } from "./loop.js";
import { hex, sha256, utf8 } from "./seal.js";
import { randomHex } from "./suspend.js";
import { defineTool, type KeptResults, type Tool } from "./tool.js";
import type { ParsedToolResult } from "./types.js";

/** Who may read a kept result: the principal and the session of the turn that kept it. */
export interface Scope {
  readonly principal?: string | undefined;
  readonly session?: string | undefined;
}

/** `scope` as one string, for a table's key or a file's name: the JSON text
 * `[principal, session]` as Python writes it (`", "` between, `null` for none). */
export function scopeKey(scope: Scope): string {
  const one = (v: string | undefined): string => (v === undefined ? "null" : JSON.stringify(v));
  return `[${one(scope.principal)}, ${one(scope.session)}]`;
}

/**
 * Where a toolkit keeps the whole output of a call whose output it cut (`new Toolkit(tools, {
 * spill })`): `put` keeps `text` under `ref` for `scope`, replacing what was there; `get` returns
 * it, or undefined when nothing is kept under `ref` for that scope (another scope's is never
 * returned). Either may be async.
 */
export interface ResultSpill {
  put(scope: Scope, ref: string, text: string): void | Promise<void>;
  get(scope: Scope, ref: string): string | undefined | Promise<string | undefined>;
}

/** A {@link ResultSpill} in memory, for a process's lifetime (and tests). */
export class MemorySpill implements ResultSpill {
  readonly #kept = new Map<string, string>();

  put(scope: Scope, ref: string, text: string): void {
    this.#kept.set(`${scopeKey(scope)}\n${ref}`, text);
  }

  get(scope: Scope, ref: string): string | undefined {
    return this.#kept.get(`${scopeKey(scope)}\n${ref}`);
  }
}

/** The part of `node:fs` a {@link DirectorySpill} uses. */
interface NodeFs {
  mkdirSync(path: string, options: { recursive: true }): unknown;
  writeFileSync(path: string, data: Uint8Array): void;
  readFileSync(path: string): Uint8Array;
  renameSync(from: string, to: string): void;
  rmSync(path: string, options: { force: true }): void;
}

function nodeFs(): NodeFs {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const mod = typeof proc?.getBuiltinModule === "function" ? proc.getBuiltinModule("node:fs") : undefined;
  if (mod === undefined || mod === null) {
    throw new Error("DirectorySpill keeps results with Node.js's node:fs, which this runtime does not have");
  }
  return mod as NodeFs;
}

/** UTF-8 `bytes` as text; the three bytes of a surrogate (Python's `surrogatepass`) as that lone
 * surrogate, and a byte that is not part of UTF-8 as U+FFFD. */
function decodeUtf8(bytes: Uint8Array): string {
  const points: number[] = [];
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i] as number;
    const size = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    let c = size === 1 ? b : b & (0xff >> (size + 1));
    let whole = size > 0;
    for (let k = 1; k < size && whole; k++) {
      const next = bytes[i + k];
      whole = next !== undefined && (next & 0xc0) === 0x80;
      c = (c << 6) | ((next ?? 0) & 0x3f);
    }
    whole &&= c <= 0x10ffff && c >= [0, 0, 0x80, 0x800, 0x10000][size]!; // no overlong form
    points.push(whole ? c : 0xfffd);
    i += whole ? size : 1;
    if (points.length >= 8192) {
      out += String.fromCodePoint(...points.splice(0));
    }
  }
  return out + String.fromCodePoint(...points);
}

/**
 * A {@link ResultSpill} in a directory (made when missing): one UTF-8 file a kept result, named by
 * a digest of its scope and reference (the same name Python's `DirectorySpill` gives it, so the two
 * share a directory), written whole before it is renamed into place. A lone surrogate is kept as
 * Python's `surrogatepass` writes it.
 */
export class DirectorySpill implements ResultSpill {
  readonly path: string;

  constructor(path: string) {
    if (typeof path !== "string" || path === "") {
      throw new TypeError("DirectorySpill takes the path of a directory");
    }
    this.path = path;
    nodeFs().mkdirSync(path, { recursive: true });
  }

  #file(scope: Scope, ref: string): string {
    return `${this.path}/${hex(sha256(utf8(`${scopeKey(scope)}\n${ref}`))).slice(0, 32)}.txt`;
  }

  put(scope: Scope, ref: string, text: string): void {
    const fs = nodeFs();
    const staged = `${this.path}/.staged-${randomHex(8)}`;
    try {
      fs.writeFileSync(staged, utf8(text));
      fs.renameSync(staged, this.#file(scope, ref));
    } catch (error) {
      fs.rmSync(staged, { force: true });
      throw error;
    }
  }

  get(scope: Scope, ref: string): string | undefined {
    try {
      return decodeUtf8(nodeFs().readFileSync(this.#file(scope, ref)));
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT") {
        return undefined;
      }
      throw error;
    }
  }
}

/** The warnings of a kept copy that could not be written (the `console` by default). */
interface Warn {
  warn(...data: unknown[]): void;
}

/**
 * What a toolkit applies after each run of a call: the tighter of the tool's limit and its own,
 * the cut (`cut.ts`'s `fit`), and the whole output kept in `spill` when it was cut.
 */
export class ResultLimits {
  readonly limit: Limit | undefined;
  readonly spill: ResultSpill | undefined;
  readonly tokenizer: Tokenizer | undefined;

  constructor(limit: Limit | LimitInit | undefined, spill: ResultSpill | undefined, tokenizer: Tokenizer | undefined) {
    this.limit = Limit.of(limit);
    if (spill !== undefined && (typeof spill?.put !== "function" || typeof spill?.get !== "function")) {
      throw new TypeError("spill must be a ResultSpill: an object with put(scope, ref, text) and get(scope, ref)");
    }
    if (tokenizer !== undefined && typeof tokenizer !== "function") {
      throw new TypeError(`tokenizer must be a function of a text, got ${typeof tokenizer}`);
    }
    this.spill = spill;
    this.tokenizer = tokenizer;
  }

  /** What `read_result` reads in a run for `scope`: this toolkit's spill, for that scope. */
  reader(scope: Scope): KeptResults | undefined {
    const spill = this.spill;
    return spill === undefined ? undefined : { read: async (ref) => spill.get(scope, ref) };
  }

  /** `result` of a run of `tool`, fitted to its limit; a cut output kept whole under its reference
   * (from the call's idempotency key `key`), unless it is a page `read_result` read. */
  async apply(tool: Tool | undefined, result: ParsedToolResult, key: string, scope: Scope): Promise<ParsedToolResult> {
    const own = tool?.limit;
    const limit = own !== undefined ? own.tighter(this.limit) : this.limit;
    if (limit === undefined) {
      return result;
    }
    const spill = tool?.name === readResult.name ? undefined : this.spill;
    const ref = spill === undefined ? undefined : key !== "" ? resultRef(key) : REF_PREFIX + randomHex(8);
    const fitted = fit(result, limit, ref, this.tokenizer);
    if (fitted.cut && ref !== undefined && spill !== undefined) {
      try {
        await spill.put(scope, ref, result.output);
      } catch (error) {
        // the model still reads the cut, and the marker names no copy
        (globalThis as { console?: Warn }).console?.warn(`toolnexus: the whole output of ${ref} could not be kept (${String(error)}): cut without a copy`);
        return fit(result, limit, undefined, this.tokenizer).result;
      }
    }
    return fitted.result;
  }
}

const READ_SCHEMA = {
  type: "object",
  properties: {
    ref: { type: "string", description: "The reference the cut marker names (result-…)." },
    offset: { type: "integer", minimum: 0, description: "The first character to read, from 0." },
    length: { type: "integer", minimum: 1, description: "How many characters to read." },
  },
  required: ["ref"],
  additionalProperties: false,
} as const;

/**
 * The built-in tool that reads a kept result, a page at a time: add it to a toolkit that keeps
 * results (`new Toolkit([..., readResult], { spill })`). A page is `[REF: characters START to END
 * of TOTAL]`, a line break, and those code points; its pages are cut to the toolkit's limit like
 * any output, and never kept again.
 */
export const readResult: Tool = defineTool("read_result", texts.readResultDescription(), READ_SCHEMA, async (args, ctx) => {
  const ref = args.ref;
  const text = await ctx.keptResults?.read(ref);
  if (text === undefined) {
    return { output: texts.readResultUnknown(ref), isError: true };
  }
  const start = Number(args.offset ?? 0);
  const total = codePoints(text);
  if (start > total) {
    return { output: texts.readResultPastEnd(String(start), ref, String(total)), isError: true };
  }
  const end = Math.min(start + Number(args.length ?? READ_RESULT_LENGTH), total);
  const from = unitIndex(text, start);
  const page = text.slice(from, from + unitIndex(text.slice(from), end - start));
  return texts.readResultPage(ref, String(start), String(end), String(total)) + "\n" + page;
});
