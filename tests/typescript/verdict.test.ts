// Issue #12, "one wire, one verdict": the JSON-level rules through the package's API. Every
// exported function refuses bad input with a WireError and nothing else (no RangeError from a
// deep or cyclic value, also once the JIT is warm); a parser given JSON.parse's value of a
// text gives the same verdict as fromJson given the text (the reader's own rules are in
// json.test.ts; the vectors in idl/examples pin them across languages).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import * as wire from "toolnexus-contract";
import { ROOT } from "./paths.js";
import {
  fromJsonRunResult,
  fromJsonToolResult,
  MAX_DEPTH,
  parseRunResult,
  parseToolResult,
  pending,
  pendingOf,
  toJsonRequest,
  toJsonRunResult,
  toJsonToolResult,
  toWireToolResult,
  WireError,
  type ToolResult,
} from "toolnexus-contract";

/** A ToolResult whose metadata holds an array nested `depth` levels (the document is `depth + 2` deep). */
const deepText = (depth: number): string => '{"output":"x","metadata":{"a":' + "[".repeat(depth) + "]".repeat(depth) + "}}";

/** What `fn` threw: "ok", "WireError at <path>", or the class name of anything else. */
function outcome(fn: () => unknown): string {
  try {
    fn();
    return "ok";
  } catch (err) {
    return err instanceof WireError ? `WireError at ${err.path}` : `${(err as Error).constructor.name}: ${(err as Error).message}`;
  }
}

function wireError(fn: () => unknown, path?: string | RegExp, message?: RegExp): void {
  const got = outcome(fn);
  assert.match(got, /^WireError at /, got);
  if (typeof path === "string") {
    assert.equal(got, `WireError at ${path}`);
  } else if (path !== undefined) {
    assert.match(got.slice("WireError at ".length), path);
  }
  if (message !== undefined) {
    assert.throws(fn, (err: unknown) => err instanceof WireError && message.test(err.message));
  }
}

function cyclic(): Record<string, unknown> {
  const o: Record<string, unknown> = { a: 1 };
  o["self"] = o;
  return o;
}

function nestedObjects(depth: number): Record<string, unknown> {
  let deep: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) {
    deep = { d: deep };
  }
  return deep;
}

function warmUp(): void {
  const text = deepText(50);
  const value = JSON.parse(text) as unknown;
  for (let i = 0; i < 2000; i++) {
    toJsonToolResult(fromJsonToolResult(text));
    toWireToolResult(parseToolResult(value));
  }
}

describe("R1-R3: fromJson refuses what is not JSON at $", () => {
  const cases: [string, string][] = [
    ["NaN", '{"output":"x","metadata":{"n":NaN}}'],
    ["Infinity", '{"output":"x","metadata":{"n":Infinity}}'],
    ["-Infinity", '{"output":"x","metadata":{"n":-Infinity}}'],
    ["a lone high surrogate in a value", '{"output":"\\ud800"}'],
    ["a high surrogate before a non-surrogate", '{"output":"\\ud800\\u0041"}'],
    ["a lone low surrogate in a key", '{"output":"x","metadata":{"\\udc00":1}}'],
    ["a lone surrogate in an unknown key's value", '{"output":"x","later":["\\udfff"]}'],
    ["1e400", '{"output":"x","metadata":{"n":1e400}}'],
    ["-1.7976931348623159e308", '{"output":"x","metadata":{"n":-1.7976931348623159e308}}'],
    ["an integer of 310 digits", `{"output":"x","metadata":{"n":${"9".repeat(310)}}}`],
    ["101 levels", deepText(99)],
  ];
  for (const [name, text] of cases) {
    it(name, () => wireError(() => fromJsonToolResult(text), "$"));
  }

  it("accepts an escaped pair, a 308-digit integer and exactly 100 levels", () => {
    assert.equal(toJsonToolResult(fromJsonToolResult('{"output":"\\ud83d\\ude00"}')), '{"output":"😀","isError":false}');
    const big = "9".repeat(308);
    assert.equal(toJsonToolResult(fromJsonToolResult(`{"output":"x","metadata":{"n":${big}}}`)), `{"output":"x","isError":false,"metadata":{"n":${big}}}`);
    const text = deepText(98);
    assert.equal(toJsonToolResult(fromJsonToolResult(text)), text.replace('"x",', '"x","isError":false,'));
  });

  it("refuses 4k to 40k levels with a WireError at $, also with the JIT warm", () => {
    warmUp();
    for (const depth of [4_000, 6_000, 8_000, 10_000, 12_000, 16_000, 20_000, 40_000]) {
      wireError(() => fromJsonToolResult(deepText(depth)), "$", /nested at most 100 levels deep, got level 101/);
    }
  });
});

describe("R3/R5: parsers on values nest at most MAX_DEPTH levels, as fromJson does", () => {
  it("give JSON.parse's value the verdict fromJson gives the text", () => {
    for (const depth of [97, 98, 99, 100]) {
      const text = deepText(depth);
      const fromText = outcome(() => fromJsonToolResult(text));
      const fromValue = outcome(() => parseToolResult(JSON.parse(text)));
      assert.equal(fromText === "ok", fromValue === "ok", `depth ${depth + 2}: ${fromText} / ${fromValue}`);
      assert.equal(fromText === "ok", depth + 2 <= MAX_DEPTH, `depth ${depth + 2}`);
    }
    // The result of a call in a run: its document starts three levels further down.
    const run = (depth: number): string =>
      '{"status":"done","results":[{"id":"c","name":"n","result":' + deepText(depth) + "}]}";
    assert.equal(outcome(() => parseRunResult(JSON.parse(run(95)))), "ok");
    assert.equal(outcome(() => fromJsonRunResult(run(95))), "ok");
    wireError(() => parseRunResult(JSON.parse(run(96))), /^\$\.results\[0\]\.result\.metadata\.a(\[0\]){95}$/);
    wireError(() => fromJsonRunResult(run(96)), "$");
  });

  it("refuse a value 4k to 40k levels deep with a WireError at the level-101 path, also with the JIT warm", () => {
    warmUp();
    for (const depth of [4_000, 6_000, 8_000, 10_000, 12_000, 16_000, 20_000, 40_000]) {
      const value = JSON.parse(deepText(depth)) as unknown;
      wireError(() => parseToolResult(value), "$.metadata.a" + "[0]".repeat(98), /got an array at level 101$/);
    }
  });

  it("count levels from the path, whatever the keys hold", () => {
    for (const key of ["a.b", 'q"[', "]\\", "[0]", "."]) {
      const metadata = (depth: number): unknown => ({ [key]: { [key]: nestedObjects(depth) } });
      assert.equal(outcome(() => parseToolResult({ output: "x", metadata: metadata(97) })), "ok", key);
      wireError(() => parseToolResult({ output: "x", metadata: metadata(98) }), /\][.]d(\.d){96}$/, /at level 101$/);
      wireError(() => toWireToolResult({ output: "x", isError: false, parts: [], metadata: metadata(98) as never }), /\][.]d(\.d){96}$/);
    }
  });

  it("refuse a cycle where it closes", () => {
    wireError(() => parseToolResult({ output: "x", metadata: cyclic() }), "$.metadata.self", /without cycles, got the object at \$\.metadata again$/);
    const r: Record<string, unknown> = { output: "x" };
    r["metadata"] = { r };
    wireError(() => parseToolResult(r), "$.metadata.r.metadata");
    wireError(() => parseToolResult({ output: "x", "later-key": [cyclic()] }), '$["later-key"][0].self');
    const parts: unknown[] = [];
    parts.push({ type: "file", mimeType: "a/b", data: "", more: parts });
    // A free-form value is walked from where it starts: a cycle through the typed values above
    // it closes one lap later.
    wireError(() => parseToolResult({ output: "x", parts }), "$.parts[0].more[0].more", /the array at \$\.parts\[0\]\.more again$/);
  });

  it("refuse the infinities JSON.parse makes of numbers beyond a double", () => {
    wireError(() => parseToolResult(JSON.parse('{"output":"x","metadata":{"n":[1e400]}}')), "$.metadata.n[0]");
  });
});

describe("R4/R5: emitters refuse deep and cyclic values with a WireError", () => {
  const result = (metadata: unknown): ToolResult => ({ output: "x", isError: false, parts: [], metadata: metadata as never });

  it("write exactly 100 levels, refuse 101", () => {
    const text = '{"output":"x","isError":false,"metadata":' + '{"d":'.repeat(98) + "{}" + "}".repeat(98) + "}";
    assert.equal(toJsonToolResult(result(nestedObjects(99))), text);
    assert.equal(toJsonToolResult(fromJsonToolResult(text)), text);
    wireError(() => toJsonToolResult(result(nestedObjects(100))), "$.metadata" + ".d".repeat(99), /got an object at level 101$/);
    wireError(() => toWireToolResult(result(nestedObjects(100))), "$.metadata" + ".d".repeat(99));
  });

  it("refuse 100,000 levels and cycles, also with the JIT warm", () => {
    warmUp();
    wireError(() => toJsonToolResult(result(nestedObjects(100_000))), "$.metadata" + ".d".repeat(99));
    wireError(() => toJsonToolResult(result(cyclic())), "$.metadata.self");
    wireError(() => toWireToolResult(result({ list: [cyclic()] })), "$.metadata.list[0].self");
    const run = { status: "done", results: [{ id: "c", name: "n", result: result({ c: cyclic() }) }] };
    wireError(() => toJsonRunResult(run as never), "$.results[0].result.metadata.c.self");
    wireError(() => toJsonRequest({ id: "p", kind: "k", prompt: "", data: cyclic() as never }), "$.data.self");
    wireError(() => pending({ id: "p", kind: "k", prompt: "", data: nestedObjects(20_000) as never }), "$.data" + ".d".repeat(99));
  });

  it("write a value shared by two keys, which is no cycle", () => {
    const shared = { s: [1] };
    assert.equal(toJsonToolResult(result({ a: shared, b: shared })), '{"output":"x","isError":false,"metadata":{"a":{"s":[1]},"b":{"s":[1]}}}');
  });
});

describe("R5: pendingOf", () => {
  it("gives undefined for a pending request whose data is cyclic or too deep, and never throws", () => {
    const suspended = (data: unknown): ToolResult =>
      ({ output: "x", isError: true, parts: [], metadata: { pending: { id: "p", kind: "k", prompt: "", data } } }) as never;
    warmUp();
    assert.equal(pendingOf(suspended(cyclic())), undefined);
    assert.equal(pendingOf(suspended(nestedObjects(40_000))), undefined);
    assert.equal(pendingOf(suspended(nestedObjects(98))), undefined); // $.metadata.pending.data is level 4
    assert.equal(pendingOf(suspended(nestedObjects(97)))?.id, "p");
  });
});

describe("R5: every exported function throws only WireError", () => {
  const api = wire as unknown as Record<string, unknown>;
  const fns = Object.keys(api).filter((n) => typeof api[n] === "function" && /^(fromJson|parse|toJson|toWire)/.test(n));

  it("for each fromJson/parse/toJson/toWire, on deep, cyclic and not-JSON input, after warming up", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "idl", "manifest.json"), "utf8")) as { types: string[] };
    assert.equal(fns.length, 4 * manifest.types.length);
    warmUp();
    const texts = [deepText(40_000), "[".repeat(40_000), '{"x":"\\ud800"}', '{"x":1e999}', "NaN"];
    const values: unknown[] = [
      cyclic(),
      JSON.parse("[".repeat(40_000) + "]".repeat(40_000)),
      nestedObjects(40_000),
      { output: "x", kind: "file", id: "i", status: "done", results: [], name: "n", metadata: cyclic(), data: cyclic() },
      { output: "x", kind: "k", id: "i", ok: true, prompt: "", status: "done", results: [], name: "n", arguments: {}, inputSchema: {}, metadata: nestedObjects(40_000), data: nestedObjects(40_000), later: nestedObjects(40_000) },
      { output: "x", type: "file", id: "i", status: "done", results: [], name: "n", description: "", inputSchema: {}, structuredContent: cyclic(), outputSchema: cyclic(), later: cyclic() },
      { output: "x", type: "text", id: "i", status: "done", results: [], name: "n", description: "", inputSchema: {}, structuredContent: nestedObjects(40_000), outputSchema: nestedObjects(40_000), later: nestedObjects(40_000) },
    ];
    for (const name of fns) {
      const fn = api[name] as (x: unknown) => unknown;
      for (const input of name.startsWith("fromJson") ? texts : values) {
        const got = outcome(() => fn(input));
        assert.match(got, /^WireError at /, `${name}: ${got}`);
      }
    }
    for (const input of [...texts, ...values]) {
      const got = outcome(() => pendingOf({ output: "x", isError: true, parts: [], metadata: { pending: input } } as never));
      assert.equal(got, "ok", `pendingOf: ${got}`);
    }
    wireError(() => wire.writeJson(cyclic()), "$.self");
    wireError(() => wire.readJson("[".repeat(40_000)), "$");
  });
});
