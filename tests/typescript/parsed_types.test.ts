// What the parsers return (the generated `Parsed<Type>` interfaces): every field the parser fills
// in is present in the type, so strict code indexes `r.parts[0]` without a check (this file is
// compiled with strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess; before, `parts`
// was optional there and `r.parts[0]` was refused, TS18048). The wire is unchanged: an empty
// `parts` is still omitted.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  fromJsonRunResult,
  fromJsonToolResult,
  parseToolResult,
  toJsonToolResult,
  type ContentPart,
  type ParsedRunResult,
  type ParsedToolResult,
  type ToolResult,
} from "toolnexus-contract";
import { Toolkit, defineTool } from "toolnexus-contract/runtime";

describe("parsed results have their defaulted fields in the type", () => {
  it("a parsed ToolResult's parts and isError are there, empty parts included; the wire still omits them", () => {
    const r: ParsedToolResult = fromJsonToolResult('{"output":"x","parts":[{"type":"text","text":"a"}]}');
    const first: ContentPart | undefined = r.parts[0];
    assert.equal(first?.text, "a");
    const bare = parseToolResult({ output: "y" });
    assert.deepEqual([bare.parts.length, bare.isError], [0, false]);
    assert.equal(toJsonToolResult(bare), '{"output":"y","isError":false}');
    const literal: ToolResult = { output: "z" }; // what a user writes keeps its optional fields
    assert.equal(literal.parts, undefined);
  });

  it("nested: a parsed RunResult's results carry parsed ToolResults", () => {
    const run: ParsedRunResult = fromJsonRunResult('{"status":"done","results":[{"id":"c1","name":"t","result":{"output":"ok"}}]}');
    assert.equal(run.results[0]?.result.parts.length, 0);
    assert.deepEqual(run.requests, []);
  });

  it("Tool.call and Toolkit.execute give parsed results", async () => {
    const tool = defineTool("t", "", null, () => ({ output: "x", parts: [{ type: "text", text: "p" }] }));
    const r = await tool.call({});
    assert.equal(r.parts[0]?.text, "p");
    const missing = await new Toolkit([tool]).execute("nope", {});
    assert.deepEqual([missing.parts.length, missing.isError], [0, true]);
  });
});
