// Tools (toolnexus-contract/runtime): defineTool and Tool.call, with the rules of Python's
// Tool.call: the arguments checked against the schema (Ajv, ECMA-262 patterns), a failure as an
// error result (never a throw across `call`), a timeout, cancellation, what a handler returns.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JsonNumber, fromJsonToolResult, pending, readJson, toJsonToolResult, type JsonObject } from "toolnexus-contract";
import { mcpTools } from "toolnexus-contract/adapters/mcp";
import { anthropicTools } from "toolnexus-contract/adapters/anthropic";
import { ToolContext, defineTool, type ToolHintsInit } from "toolnexus-contract/runtime";

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const ADD_SCHEMA: JsonObject = {
  type: "object",
  properties: { a: { type: "integer" }, b: { type: "integer" } },
  required: ["a", "b"],
  additionalProperties: false,
};

describe("defineTool and call", () => {
  it("runs the handler with the checked arguments; a string is the output", async () => {
    const add = defineTool("add", "Add two integers", ADD_SCHEMA, (args) => String(Number(args["a"]) + Number(args["b"])));
    assert.deepEqual(await add.call({ a: 2, b: 3 }), { output: "5", isError: false, parts: [] });
    assert.deepEqual(add.spec(), { name: "add", description: "Add two integers", inputSchema: ADD_SCHEMA });
  });

  it("refuses arguments the schema refuses, naming each place, sorted by path; the handler does not run", async () => {
    let ran = 0;
    const add = defineTool("add", "", ADD_SCHEMA, () => {
      ran++;
      return "";
    });
    const bad = await add.call({ b: "three", c: 1 });
    assert.equal(bad.isError, true);
    assert.match(bad.output, /^invalid arguments for add: \$: .*; \$\.b: must be integer$/);
    assert.match(bad.output, /must have required property 'a'/);
    assert.match(bad.output, /must NOT have additional properties \("c" was unexpected\)/);
    const deep = defineTool("deep", "", { type: "object", properties: { rows: { type: "array", items: { type: "object", properties: { "a b": { type: "string" } } } } } }, () => "");
    assert.equal((await deep.call({ rows: [{ "a b": "x" }, { "a b": 1 }] })).output, 'invalid arguments for deep: $.rows[1]["a b"]: must be string');
    assert.equal(ran, 0);
  });

  it("reads patterns as ECMA-262 with the u flag: `$` ends the input, \\d and \\w are ASCII, a pattern is searched", async () => {
    const schema = (pattern: string): JsonObject => ({ type: "object", properties: { s: { type: "string", pattern } } });
    const verdict = async (pattern: string, s: string): Promise<boolean> => !(await defineTool("p", "", schema(pattern), () => "").call({ s })).isError;
    assert.equal(await verdict("^[0-9]+$", "12"), true);
    assert.equal(await verdict("^[0-9]+$", "12\n"), false, "$ is the end of the input, not before a final newline");
    assert.equal(await verdict("^\\d+$", "\u0661\u0662"), false, "\\d is [0-9]");
    assert.equal(await verdict("^\\w+$", "é"), false, "\\w is [A-Za-z0-9_]");
    assert.equal(await verdict("b", "abc"), true, "searched, not anchored");
    assert.equal(await verdict("^.$", "😀"), true, "the u flag: one code point is one character");
  });

  it("checks numbers the wire reader keeps as JsonNumbers by their value, and hands them on unchanged", async () => {
    let got: unknown;
    const t = defineTool("t", "", { type: "object", properties: { n: { type: "integer", minimum: 1 } } }, (args) => {
      got = args["n"];
      return "";
    });
    const args = readJson('{"n":2.0}') as JsonObject;
    assert.ok(args["n"] instanceof JsonNumber);
    assert.equal((await t.call(args)).isError, false);
    assert.ok(got instanceof JsonNumber && got.text === "2.0");
    assert.match((await t.call(readJson('{"n":0.0}') as JsonObject)).output, /^invalid arguments for t: \$\.n: must be >= 1$/);
  });

  it("takes no schema as any object, null arguments as {}, and refuses arguments that are not an object", async () => {
    const echo = defineTool("echo", "", null, (args) => args);
    assert.deepEqual(echo.inputSchema, { type: "object" });
    assert.equal((await echo.call(null)).output, "{}");
    assert.equal((await echo.call()).output, "{}");
    const list = await echo.call([1] as unknown as JsonObject);
    assert.equal(list.isError, true);
    assert.equal(list.output, "invalid arguments for echo: $: expected a JSON object, got an array");
  });

  it("gives the handler a copy: what it changes stays in the call", async () => {
    const args: JsonObject = { list: [1], nested: { k: "v" } };
    const t = defineTool("t", "", null, (a) => {
      (a["list"] as number[]).push(2);
      (a["nested"] as JsonObject)["k"] = "changed";
      return "";
    });
    await t.call(args);
    assert.deepEqual(args, { list: [1], nested: { k: "v" } });
  });

  it("refuses a schema that is not a JSON Schema, or names a draft it does not check, when the tool is defined", () => {
    assert.throws(() => defineTool("t", "", { type: "objekt" }, () => ""), (err: unknown) => err instanceof TypeError && /^defineTool "t": input schema is not a valid JSON Schema: /.test(err.message));
    assert.throws(() => defineTool("t", "", { $schema: "http://json-schema.org/draft-04/schema#" }, () => ""), /draft-04/);
    assert.doesNotThrow(() => defineTool("t", "", { $schema: "http://json-schema.org/draft-07/schema#", type: "object", "x-extension": 1 }, () => ""));
    assert.throws(() => defineTool("t", "", null, "no" as unknown as () => string), TypeError);
  });
});

describe("what a handler returns, and what it throws", () => {
  it("a ToolResult passes through; other JSON data is its JSON text; nothing is null", async () => {
    const result = { output: "chart", isError: false, structuredContent: { a: 1 }, metadata: { ms: 4 } };
    assert.deepEqual(await defineTool("t", "", null, () => result).call(), { ...result, parts: [] });
    const newer = fromJsonToolResult('{"output":"from a newer peer","isError":false,"later":1}');
    assert.equal(toJsonToolResult(await defineTool("t", "", null, () => newer).call()), '{"output":"from a newer peer","isError":false,"later":1}');
    const asked = pending({ id: "", kind: "input", prompt: "Which?" });
    assert.deepEqual(await defineTool("t", "", null, async () => asked).call(), asked);
    assert.equal((await defineTool("t", "", null, () => ({ city: "Oslo", high: 7.5, "ü": [true, null] })).call()).output, '{"city":"Oslo","high":7.5,"ü":[true,null]}');
    assert.equal((await defineTool("t", "", null, () => 42).call()).output, "42");
    // Nothing returned (undefined, or null): a success with an empty output, as Python's None.
    assert.deepEqual(await defineTool("t", "", null, () => undefined).call(), { output: "", isError: false, parts: [] });
    assert.deepEqual(await defineTool("t", "", null, async () => null).call(), { output: "", isError: false, parts: [] });
  });

  it("bytes, a value that is not JSON and an invalid ToolResult are error results", async () => {
    assert.equal((await defineTool("t", "", null, () => new Uint8Array([1])).call()).output, "the tool returned bytes, which are not text; return a ToolResult with a ContentPart instead");
    const cycle: Record<string, unknown> = {};
    cycle["self"] = cycle;
    for (const value of [cycle, { n: 1n }, new Date(0), { n: NaN }]) {
      const r = await defineTool("t", "", null, () => value).call();
      assert.equal(r.isError, true);
      assert.match(r.output, /^the tool returned a value that is not JSON: /);
    }
    for (const [carrier, value] of [
      ["ToolCallResult", { id: "c1", name: "t", result: { output: "x", isError: false, metadata: { secret: 1 } } }],
      ["RunResult", { status: "done", results: [] }],
    ] as const) {
      const r = await defineTool("t", "", null, () => value).call();
      assert.equal(r.output, `the tool returned a ${carrier}, which is not a ToolResult; return a ToolResult (or JSON data) instead`);
    }
    const invalid = await defineTool("t", "", null, () => ({ output: "x", isError: "yes" })).call();
    assert.equal(invalid.output, "the tool returned a ToolResult that is not valid: $.isError: expected a boolean, got the string \"yes\"");
  });

  it("a throw is an error result with its message (the error's name when it has none), sync or async", async () => {
    assert.deepEqual(await defineTool("t", "", null, () => {
      throw new RangeError("the disk is full");
    }).call(), { output: "the disk is full", isError: true, parts: [] });
    assert.equal((await defineTool("t", "", null, async () => {
      throw new TypeError("");
    }).call()).output, "TypeError");
    assert.equal((await defineTool("t", "", null, () => Promise.reject("plain text")).call()).output, "plain text");
  });
});

describe("ToolContext: timeout, cancellation, progress", () => {
  it("an overrun is the error result `<name> timed out after N s`, and the handler's signal aborts", async () => {
    let signal: AbortSignal | undefined;
    // The handler would take 3 s; once aborted it never ends, so a call that waited for it would hang.
    const slow = defineTool("slow", "", null, async (_args, ctx) => {
      signal = ctx.signal;
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 3000);
        ctx.signal?.addEventListener("abort", () => clearTimeout(timer));
      });
      return "done";
    });
    const started = Date.now();
    assert.deepEqual(await slow.call({}, { timeout: 0.05 }), { output: "slow timed out after 0.05 s", isError: true, parts: [] });
    assert.ok(Date.now() - started < 2000, "it does not wait for the handler");
    assert.equal(signal?.aborted, true);
    const quick = defineTool("quick", "", null, async () => {
      await sleep(50);
      return "done";
    });
    assert.equal((await quick.call({}, new ToolContext({ timeout: 1.5 }))).output, "done");
    assert.equal((await defineTool("s", "", null, () => sleep(50)).call({}, { timeout: 1e-5 })).output, "s timed out after 1e-05 s");
  });

  it("a handler's own TimeoutError is an ordinary failure", async () => {
    const t = defineTool("t", "", null, () => {
      throw Object.assign(new Error("upstream took too long"), { name: "TimeoutError" });
    });
    assert.equal((await t.call({}, { timeout: 5 })).output, "upstream took too long");
  });

  it("cancellation crosses call: an aborted signal rejects with its reason, and the handler sees it", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const t = defineTool("t", "", null, async (_args, ctx) => {
      seen = ctx.signal;
      await sleep(300);
      return "done";
    });
    const call = t.call({}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("the user left")), 20);
    await assert.rejects(call, /the user left/);
    assert.equal(seen?.aborted, true);
    await assert.rejects(t.call({}, { signal: AbortSignal.abort(new Error("before")) }), /before/);
  });

  it("progress reaches its listener; a fraction outside 0..1 is a RangeError", async () => {
    const heard: [number, string][] = [];
    const t = defineTool("t", "", null, (_args, ctx) => {
      ctx.progress(0.5, "half");
      ctx.progress(1);
      assert.throws(() => ctx.progress(1.5), RangeError);
      assert.throws(() => ctx.progress(Number.NaN), RangeError);
      return `${ctx.callId}|${ctx.idempotencyKey}|${String(ctx.answer)}`;
    });
    const r = await t.call({}, { onProgress: (f, m) => heard.push([f, m]) });
    assert.equal(r.output, "||undefined");
    assert.deepEqual(heard, [
      [0.5, "half"],
      [1, ""],
    ]);
    assert.throws(() => new ToolContext({ timeout: Number.NaN }), TypeError);
  });
});

describe("structured output (outputSchema)", () => {
  const FORECAST: JsonObject = { type: "object", properties: { city: { type: "string" }, high: { type: "number" } }, required: ["city", "high"] };

  it("data becomes structuredContent and its JSON text, checked against the schema", async () => {
    const forecast = defineTool("forecast", "", null, (args) => ({ city: args["city"] ?? "Oslo", high: 7.5 }), { outputSchema: FORECAST });
    assert.deepEqual(await forecast.call({}), { output: '{"city":"Oslo","high":7.5}', isError: false, parts: [], structuredContent: { city: "Oslo", high: 7.5 } });
    assert.deepEqual(forecast.spec().outputSchema, FORECAST);
    assert.equal(forecast.outputSchema, FORECAST);
    const bad = await forecast.call({ city: 3 });
    assert.ok(bad.isError && bad.output.startsWith("the tool's output does not match its output schema: $.city"), bad.output);
  });

  it("a ToolResult is kept, and checked only when it has structuredContent; nothing is an error", async () => {
    const text = defineTool("t", "", null, () => ({ output: "no data", isError: false }), { outputSchema: FORECAST });
    assert.deepEqual(await text.call({}), { output: "no data", isError: false, parts: [] });
    const wrong = defineTool("t", "", null, () => ({ output: "{}", isError: false, structuredContent: {} }), { outputSchema: FORECAST });
    assert.match((await wrong.call({})).output, /^the tool's output does not match its output schema: \$: /);
    const nothing = defineTool("t", "", null, () => undefined, { outputSchema: FORECAST });
    assert.deepEqual(await nothing.call({}), { output: "the tool returned undefined, but it declares an output schema: return the data it describes", isError: true, parts: [] });
  });

  it("refuses an output schema that is not a JSON Schema when the tool is defined", () => {
    assert.throws(() => defineTool("t", "", null, () => "", { outputSchema: { type: 3 } }), /defineTool "t": output schema is not a valid JSON Schema/);
  });
});

describe("a tool whose results a person supplies (no handler)", () => {
  it("asks on a request of kind result (res-…), with the output schema in its data", async () => {
    const quote = defineTool("quote", "Quote an item", null, null, { outputSchema: { type: "object" } });
    const asked = await quote.call({ item: "A-1" });
    const request = asked.metadata?.["pending"] as JsonObject;
    assert.equal(asked.isError, true);
    assert.equal(asked.output, "The result of quote, called with these arguments");
    assert.match(String(request["id"]), /^res-[0-9a-f]{32}$/);
    assert.equal(request["kind"], "result");
    assert.deepEqual(request["data"], { tool: "quote", arguments: { item: "A-1" }, schema: { type: "object" } });
  });

  it("the answer's data is the result, checked as the wire checks it", async () => {
    const lookup = defineTool("lookup", "", null, null);
    const request = { id: "res-1", kind: "result", prompt: "?" };
    const answered = (data?: JsonObject): Promise<unknown> => lookup.call({}, { answer: data === undefined ? { id: "res-1", ok: true } : { id: "res-1", ok: true, data }, request });
    assert.deepEqual(await answered({ output: "42" }), { output: "42", isError: false, parts: [] });
    const wrong = (await answered({ output: 42 })) as { output: string; isError: boolean };
    assert.ok(wrong.isError && wrong.output.startsWith("the result supplied for lookup is not a ToolResult: "), wrong.output);
    const none = (await answered()) as { output: string };
    assert.ok(none.output.startsWith("the result supplied for lookup is not a ToolResult: "), none.output);
  });

  it("a handler that is neither a function nor null is refused", () => {
    assert.throws(() => defineTool("t", "", null, "run" as unknown as null), /the handler must be a function or null/);
  });
});

describe("hints", () => {
  it("a tool declares hints, the defaults filled in as Python's ToolHints does; its spec carries them and MCP lists them", () => {
    const tool = defineTool("lookup", "Looks a rate up", null, () => "found", { hints: { idempotent: true, title: "Look up" } });
    assert.deepEqual(tool.hints, { readOnly: false, destructive: true, openWorld: true, idempotent: true, title: "Look up", icons: [] });
    assert.deepEqual(tool.spec().hints, tool.hints);
    assert.equal(tool.renamed("lookup_2").hints, tool.hints);
    const [listed] = mcpTools([tool]);
    assert.deepEqual(listed?.annotations, { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true });
    assert.equal(listed?.title, "Look up");
    assert.ok(!("hints" in (anthropicTools([tool])[0] as object)), "no model sees the hints");
  });

  it("a tool without hints has none, in its spec too", () => {
    const tool = defineTool("t", "", null, () => "");
    assert.equal(tool.hints, undefined);
    assert.ok(!("hints" in tool.spec()));
  });

  it("refuses hints that are not ToolHints' fields, naming the key", () => {
    const bad = (hints: unknown): unknown => defineTool("t", "", null, () => "", { hints: hints as ToolHintsInit });
    assert.throws(() => bad({ idempotant: true }), (e: Error) => e instanceof TypeError && /defineTool "t": hints: "idempotant" is not a hint/.test(e.message));
    assert.throws(() => bad({ idempotent: "yes" }), (e: Error) => e instanceof TypeError && /hints\.idempotent must be a boolean, got/.test(e.message));
    assert.throws(() => bad({ title: 3 }), (e: Error) => e instanceof TypeError && /hints\.title must be a string/.test(e.message));
    assert.throws(() => bad({ icons: [{}] }), (e: Error) => e instanceof TypeError && /hints\.icons\[0\]/.test(e.message));
    assert.throws(() => bad("idempotent"), (e: Error) => e instanceof TypeError && /hints must be an object of ToolHints fields/.test(e.message));
  });
});
