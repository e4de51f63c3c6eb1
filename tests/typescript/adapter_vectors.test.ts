// The adapter vectors (idl/adapters/, format in its README): every case through the TypeScript
// adapters (toolnexus-contract/adapters/<name>); tests/adapters/test_adapter_vectors.py runs the same files
// through Python's. The SDKs' own types check what the adapters return at compile time. MCP's
// `result_in` reads a CallToolResult back (fromMcpCallToolResult), as Python's from_mcp_call_tool_result.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { WireError, parseToolCallResult, parseToolSpec, readJson, toWireToolCallResult, toWireToolResult, writeJson, type JsonObject, type JsonValue, type ToolCallResult, type ToolSpec } from "toolnexus-contract";
import { anthropicToolCalls, anthropicToolResult, anthropicTools, type ResultOptions } from "toolnexus-contract/adapters/anthropic";
import { geminiFunctionResponse, geminiToolCalls, geminiTools } from "toolnexus-contract/adapters/gemini";
import { fromMcpCallToolResult, mcpCallToolResult, mcpToolCalls, mcpTools } from "toolnexus-contract/adapters/mcp";
import { fromMcpCallToolResult as fromMcpEntry } from "toolnexus-contract/mcp";
import { openaiChatMessages, openaiChatToolCalls, openaiChatTools, openaiResponsesOutput, openaiResponsesToolCalls, openaiResponsesTools } from "toolnexus-contract/adapters/openai";
import { ROOT } from "./paths.js";

const VECTORS = join(ROOT, "idl", "adapters");

interface Adapters {
  tools(specs: ToolSpec[]): unknown;
  calls(response: never): { calls: unknown[]; refused: ToolCallResult[] };
  result(call: ToolCallResult, options?: ResultOptions): unknown;
}

const TARGETS: { [target: string]: Adapters } = {
  openai_chat: { tools: openaiChatTools, calls: openaiChatToolCalls, result: openaiChatMessages },
  openai_responses: { tools: openaiResponsesTools, calls: openaiResponsesToolCalls, result: openaiResponsesOutput },
  anthropic: { tools: anthropicTools, calls: anthropicToolCalls, result: anthropicToolResult },
  gemini: { tools: geminiTools, calls: geminiToolCalls, result: geminiFunctionResponse },
  mcp: { tools: mcpTools, calls: mcpToolCalls, result: (call, options) => mcpCallToolResult(call.result, options) },
};

interface Case {
  name: string;
  function: "tools" | "calls" | "result" | "result_in";
  input: JsonValue;
  options?: ResultOptions;
  expected: JsonValue;
}

function load(target: string): Case[] {
  const doc = readJson(readFileSync(join(VECTORS, `${target}.json`), "utf8")) as JsonObject;
  assert.equal(doc["target"], target);
  return doc["cases"] as unknown as Case[];
}

/** A refused call as the vector writes it: with `outputStartsWith` when the vector has it. */
function refused(expected: JsonObject | undefined, got: ToolCallResult): JsonValue {
  const prefix = expected?.["outputStartsWith"];
  const wire = toWireToolCallResult(got);
  if (typeof prefix !== "string") {
    return wire;
  }
  assert.equal(got.result.isError, true);
  return { id: got.id, name: got.name, outputStartsWith: got.result.output.startsWith(prefix) ? prefix : got.result.output };
}

/** A `result_in` case: the ToolResult's wire form, or the path of the WireError refusing the input. */
function resultIn(input: JsonValue): JsonValue {
  try {
    return readJson(writeJson(toWireToolResult(fromMcpCallToolResult(input as never))));
  } catch (err) {
    if (!WireError.isWireError(err)) {
      throw err;
    }
    return { error: { path: err.path } };
  }
}

function run(adapters: Adapters, c: Case): JsonValue {
  if (c.function === "result_in") {
    assert.equal(adapters, TARGETS["mcp"]);
    return resultIn(c.input);
  }
  if (c.function === "tools") {
    return readJson(writeJson(adapters.tools((c.input as JsonValue[]).map((s) => parseToolSpec(s))) as JsonValue));
  }
  if (c.function === "result") {
    return readJson(writeJson(adapters.result(parseToolCallResult(c.input), c.options) as JsonValue));
  }
  const parsed = adapters.calls(c.input as never);
  const want = ((c.expected as JsonObject)["refused"] ?? []) as JsonObject[];
  return {
    calls: readJson(writeJson(parsed.calls as JsonValue)),
    refused: parsed.refused.map((r, i) => refused(want[i], r)),
  };
}

describe("adapter vectors", () => {
  it("one file per target, each with tools, calls and result cases", () => {
    const files = readdirSync(VECTORS).filter((f) => f.endsWith(".json")).map((f) => f.replace(/\.json$/, ""));
    assert.deepEqual(files.sort(), [...Object.keys(TARGETS), "limits"].sort());
    for (const target of Object.keys(TARGETS)) {
      const functions = ["calls", "result", ...(target === "mcp" ? ["result_in"] : []), "tools"];
      assert.deepEqual([...new Set(load(target).map((c) => c.function))].sort(), functions);
    }
  });
  it("toolnexus-contract/mcp exports the adapter's fromMcpCallToolResult", () => {
    assert.equal(fromMcpEntry, fromMcpCallToolResult);
  });
  for (const [target, adapters] of Object.entries(TARGETS)) {
    for (const c of load(target)) {
      it(`${target}: ${c.name}`, () => {
        assert.deepStrictEqual(run(adapters, c), c.expected);
      });
    }
  }
});
