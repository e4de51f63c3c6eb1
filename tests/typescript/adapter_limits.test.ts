// `providerLimits` and what the result adapters do with it (tests/adapters/test_adapter_limits.py is
// Python's): the table is idl/adapters/limits.json's, and bad options are refused naming what.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { ToolCallResult } from "toolnexus-contract";
import { anthropicToolResult, providerLimits, type Structured } from "toolnexus-contract/adapters/anthropic";
import { geminiFunctionResponse } from "toolnexus-contract/adapters/gemini";
import { mcpCallToolResult } from "toolnexus-contract/adapters/mcp";
import { openaiChatMessages, openaiResponsesOutput } from "toolnexus-contract/adapters/openai";
import { ROOT } from "./paths.js";

const LIMITS = join(ROOT, "idl", "adapters", "limits.json");

const call: ToolCallResult = { id: "c", name: "t", result: { output: "summary", isError: false, structuredContent: { n: 1 } } };

describe("provider limits", () => {
  it("are the numbers of idl/adapters/limits.json", () => {
    const doc = JSON.parse(readFileSync(LIMITS, "utf8")) as { providers: { [target: string]: { structured: string; parts: object; text: object } } };
    const rows = Object.fromEntries(Object.entries(doc.providers).map(([target, row]) => [target, { structured: row.structured, parts: row.parts, text: row.text }]));
    assert.deepStrictEqual(JSON.parse(JSON.stringify(providerLimits)), rows);
  });

  it("refuse 'both' for a model provider, and an unknown choice anywhere", () => {
    for (const adapter of [openaiChatMessages, openaiResponsesOutput, anthropicToolResult, geminiFunctionResponse]) {
      assert.throws(() => adapter(call, { structured: "both" }), /structured must be 'text' or 'structured' for .*, got "both"/);
    }
    assert.throws(() => mcpCallToolResult(call.result, { structured: "json" as Structured }), /'text', 'structured' or 'both' for mcp, got "json"/);
  });

  it("refuse part limits that are not positive integers of a known kind", () => {
    assert.throws(() => anthropicToolResult(call, { partLimits: { image: { bytes: 0 } } }), /partLimits.image.bytes must be a positive integer, got 0/);
    assert.throws(() => anthropicToolResult(call, { partLimits: { video: {} } as never }), /partLimits maps 'image', 'audio' or 'file' to a limit, got "video"/);
  });

  it("send one of output and structured content to each model provider", () => {
    for (const [structured, want] of [["text", "summary"], ["structured", '{"n":1}']] as const) {
      const chat = openaiChatMessages(call, { structured })[0]?.content;
      assert.equal(chat, want);
      assert.equal(openaiResponsesOutput(call, { structured }).output, want);
      assert.equal(anthropicToolResult(call, { structured }).content, want);
    }
    assert.deepStrictEqual(geminiFunctionResponse(call).functionResponse?.response, { output: { n: 1 } });
  });
});
