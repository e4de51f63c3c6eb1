// Typed tools (src/typed.ts): defineTool with a Standard Schema (zod 4, arktype, valibot through
// toStandardJsonSchema) or a literal JSON Schema. The types: the handler's arguments and an output
// schema's data are inferred (the `Equal` checks below fail the build when they are not; the
// refusals are in compile-fail/typed-tools.ts). The behaviour: the tool declares the library's own
// JSON Schema conversion and the JSON Schema check alone gives the verdict and its text.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { toJsonSchema, toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import * as z from "zod";
import type { JsonObject } from "toolnexus-contract";
import { defineTool, isStandardSchema, type ArgsOf, type FromJsonSchema, type OutputOf } from "toolnexus-contract/runtime";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const exactly = <T extends true>(): T | undefined => undefined;

const Weather = z.object({ city: z.string().min(1), days: z.number().int().default(1), units: z.enum(["c", "f"]).optional() });

const WEATHER_JSON = {
  type: "object",
  properties: {
    city: { type: "string", minLength: 1 },
    days: { type: "integer" },
    units: { enum: ["c", "f"] },
    tags: { type: "array", items: { type: "string" } },
    at: { anyOf: [{ type: "string" }, { type: "null" }] },
    point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] },
  },
  required: ["city"],
  additionalProperties: false,
} as const;

// The inferred types, checked at compile time.
exactly<Equal<ArgsOf<typeof Weather>, { city: string; days?: number | undefined; units?: "c" | "f" | undefined }>>();
exactly<
  Equal<
    ArgsOf<typeof WEATHER_JSON>,
    { city: string; days?: number; units?: "c" | "f"; tags?: string[]; at?: string | null; point?: { x: number } }
  >
>();
exactly<Equal<ArgsOf<null>, JsonObject>>();
exactly<Equal<ArgsOf<JsonObject>, JsonObject>>();
exactly<Equal<FromJsonSchema<{ type: readonly ["string", "null"] }>, string | null>>();
exactly<Equal<FromJsonSchema<{ const: "x" }>, "x">>();
exactly<Equal<FromJsonSchema<{ type: "object"; additionalProperties: { type: "boolean" } }>, { [key: string]: boolean }>>();
exactly<Equal<OutputOf<typeof Weather>, z.input<typeof Weather>>>();
exactly<Equal<OutputOf<undefined>, unknown>>();

describe("defineTool with zod 4", () => {
  it("declares zod's own JSON Schema for the input (z.toJSONSchema, io input) and types the handler's arguments", async () => {
    const seen: unknown[] = [];
    const tool = defineTool("weather", "The weather", Weather, (args) => {
      seen.push(args);
      return `${args.city.toUpperCase()} for ${args.days ?? 1} day(s)`;
    });
    assert.deepEqual(tool.inputSchema, z.toJSONSchema(Weather, { io: "input" }));
    assert.deepEqual(await tool.call({ city: "Oslo" }), { output: "OSLO for 1 day(s)", isError: false, parts: [] });
    assert.deepEqual(seen, [{ city: "Oslo" }]); // zod's default is the library's: not applied
  });

  it("refuses what the JSON Schema refuses, with the text of the same tool defined by that JSON Schema", async () => {
    let ran = 0;
    const typed = defineTool("weather", "", Weather, () => String(++ran));
    const plain = defineTool("weather", "", z.toJSONSchema(Weather, { io: "input" }) as JsonObject, () => String(++ran));
    for (const args of [{}, { city: "" }, { city: "Oslo", days: 1.5 }, { city: "Oslo", units: "k" }]) {
      const got = await typed.call(args);
      assert.equal(got.isError, true, JSON.stringify(args));
      assert.match(got.output, /^invalid arguments for weather: \$/);
      assert.deepEqual(got, await plain.call(args));
    }
    assert.equal(ran, 0);
  });

  it("does not run zod's own validation: a refinement the JSON Schema cannot say does not change the verdict", async () => {
    const even = z.object({ n: z.number().refine((n) => n % 2 === 0, "must be even") });
    const tool = defineTool("half", "", even, (args) => String(args.n / 2));
    assert.equal(even.safeParse({ n: 3 }).success, false);
    assert.deepEqual(await tool.call({ n: 3 }), { output: "1.5", isError: false, parts: [] });
  });

  it("an output schema in zod: its JSON Schema declared, the data checked and carried as structuredContent", async () => {
    const Out = z.object({ temp: z.number() });
    const tool = defineTool("t", "", Weather, (args) => ({ temp: args.city.length }), { outputSchema: Out });
    assert.deepEqual(tool.outputSchema, z.toJSONSchema(Out, { io: "input" }));
    assert.deepEqual(tool.spec().outputSchema, tool.outputSchema);
    assert.deepEqual(await tool.call({ city: "Rome" }), { output: '{"temp":4}', isError: false, parts: [], structuredContent: { temp: 4 } });
    const wrong = defineTool("t", "", null, () => ({ temp: "hot" }) as unknown as { temp: number }, { outputSchema: Out });
    assert.equal((await wrong.call({})).output, "the tool's output does not match its output schema: $.temp: must be number");
  });

  it("a needsApproval rule gets the typed arguments", () => {
    const tool = defineTool("t", "", Weather, () => "", { needsApproval: (args) => args.city === "Paris" });
    const rule = tool.needsApproval as (args: JsonObject) => boolean;
    assert.equal(rule({ city: "Paris" }), true);
    assert.equal(rule({ city: "Rome" }), false);
  });

  it("a schema zod cannot convert is a TypeError naming the tool and the schema", () => {
    assert.throws(
      () => defineTool("when", "", z.object({ at: z.date() }), () => ""),
      (err: unknown) => err instanceof TypeError && /^defineTool "when": the input schema \(zod\) has no JSON Schema: /.test(err.message),
    );
  });
});

describe("defineTool with other Standard Schemas", () => {
  it("arktype: its own JSON Schema conversion, typed arguments", async () => {
    const Point = type({ x: "number", "label?": "string" });
    const tool = defineTool("point", "", Point, (args) => `${args.x}${args.label ?? ""}`);
    assert.deepEqual(tool.inputSchema, Point.toJsonSchema());
    assert.equal((await tool.call({ x: 2, label: "a" })).output, "2a");
    assert.equal((await tool.call({ x: "2" })).output, "invalid arguments for point: $.x: must be number");
  });

  it("valibot: refused without a JSON Schema conversion, taken with toStandardJsonSchema", async () => {
    const Point = v.object({ x: v.number() });
    assert.equal(isStandardSchema(Point), true);
    assert.throws(
      () => defineTool("point", "", Point, () => ""),
      (err: unknown) =>
        err instanceof TypeError &&
        err.message.startsWith('defineTool "point": the input schema is a Standard Schema (valibot) without a JSON Schema conversion') &&
        err.message.includes("toStandardJsonSchema"),
    );
    const tool = defineTool("point", "", toStandardJsonSchema(Point), (args) => String(args.x * 2));
    assert.deepEqual(tool.inputSchema, toJsonSchema(Point, { target: "draft-2020-12" }));
    assert.equal((await tool.call({ x: 2 })).output, "4");
  });
});

describe("defineTool with a literal JSON Schema", () => {
  it("types the arguments from the schema written as const, and checks them as before", async () => {
    const tool = defineTool("w", "", WEATHER_JSON, (args) => `${args.city}:${args.tags?.join("+") ?? ""}:${args.point?.x ?? ""}`);
    assert.equal(tool.inputSchema, WEATHER_JSON);
    assert.equal((await tool.call({ city: "a", tags: ["x", "y"], point: { x: 1 } })).output, "a:x+y:1");
    assert.equal((await tool.call({ city: "a", extra: 1 })).output, 'invalid arguments for w: $: must NOT have additional properties ("extra" was unexpected)');
  });

  it("an inline schema is typed too, and an output schema types the data the handler returns", async () => {
    const tool = defineTool("sum", "", { type: "object", properties: { xs: { type: "array", items: { type: "number" } } }, required: ["xs"] }, (args) => ({ total: args.xs.reduce((a, b) => a + b, 0) }), {
      outputSchema: { type: "object", properties: { total: { type: "number" } }, required: ["total"] },
    });
    assert.deepEqual((await tool.call({ xs: [1, 2, 3] })).structuredContent, { total: 6 });
  });
});
