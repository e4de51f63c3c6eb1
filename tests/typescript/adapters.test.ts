// The provider adapters beyond the vectors (adapter_vectors.test.ts): what they return passes to
// each SDK's own request types as it is (checked here at compile time, against the pinned SDKs),
// they take runtime tools as well as declarations, and what the vectors leave to each language
// (the JSON reader's message) reads well.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages";
import type { GenerateContentParameters } from "@google/genai";
import type { CallToolResult, ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import type { ResponseCreateParamsNonStreaming } from "openai/resources/responses/responses";
import * as z from "zod";
import type { ToolCallResult } from "toolnexus-contract";
import { anthropicToolCalls, anthropicToolResult, anthropicTools } from "toolnexus-contract/adapters/anthropic";
import { geminiFunctionResponse, geminiTools } from "toolnexus-contract/adapters/gemini";
import { mcpCallToolResult, mcpTools } from "toolnexus-contract/adapters/mcp";
import { openaiChatMessages, openaiChatToolCalls, openaiChatTools, openaiResponsesOutput, openaiResponsesTools } from "toolnexus-contract/adapters/openai";
import { Toolkit, defineTool } from "toolnexus-contract/runtime";

const weather = defineTool("get_weather", "The weather", z.object({ city: z.string() }), (args) => `Sunny in ${args.city}`);
const done: ToolCallResult = { id: "call_1", name: "get_weather", result: { output: "Sunny", metadata: { secret: 1 } } };

describe("provider adapters", () => {
  it("return what each SDK's request types take (a compile-time check), from runtime tools", () => {
    const chat: ChatCompletionCreateParamsNonStreaming = { model: "m", messages: [...openaiChatMessages(done)], tools: openaiChatTools([weather]) };
    const responses: ResponseCreateParamsNonStreaming = { model: "m", input: [openaiResponsesOutput(done)], tools: openaiResponsesTools([weather]) };
    const anthropic: MessageCreateParamsNonStreaming = {
      model: "m",
      max_tokens: 1,
      messages: [{ role: "user", content: [anthropicToolResult(done)] }],
      tools: anthropicTools([weather]),
    };
    const gemini: GenerateContentParameters = { model: "m", contents: [{ role: "user", parts: [geminiFunctionResponse(done)] }], config: { tools: geminiTools([weather]) } };
    const listed: ListToolsResult = { tools: mcpTools([weather]) };
    const called: CallToolResult = mcpCallToolResult(done.result);
    assert.deepEqual(chat.tools?.[0], { type: "function", function: { name: "get_weather", description: "The weather", parameters: weather.inputSchema } });
    assert.equal(responses.tools?.[0]?.type, "function");
    assert.deepEqual(anthropic.tools, [{ name: "get_weather", description: "The weather", input_schema: weather.inputSchema }]);
    assert.deepEqual(gemini.config?.tools, [{ functionDeclarations: [{ name: "get_weather", description: "The weather", parametersJsonSchema: weather.inputSchema }] }]);
    assert.equal(listed.tools[0]?.inputSchema, weather.inputSchema);
    assert.deepEqual(called, { content: [{ type: "text", text: "Sunny" }] });
  });

  it("calls in run through a Toolkit, and refusals go back with the results", async () => {
    const parsed = openaiChatToolCalls([
      { id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
      { id: "c2", type: "function", function: { name: "get_weather", arguments: '{"city":' } },
    ]);
    assert.match(parsed.refused[0]?.result.output ?? "", /^invalid arguments for get_weather: \$: not valid JSON \(.+\): '\{"city":'$/);
    const run = await new Toolkit([weather]).runCalls(parsed.calls);
    const messages = [...run.results, ...parsed.refused].flatMap((r) => openaiChatMessages(r));
    assert.deepEqual(
      messages.map((m) => [m.role, "tool_call_id" in m ? m.tool_call_id : "", m.content]),
      [
        ["tool", "c1", "Sunny in Oslo"],
        ["tool", "c2", parsed.refused[0]?.result.output],
      ],
    );
  });

  it("arguments that are not JSON data (a function, say) are refused, not passed on", () => {
    const parsed = anthropicToolCalls([{ type: "tool_use", id: "t1", name: "get_weather", input: { city: () => "x" } } as never]);
    assert.equal(parsed.calls.length, 0);
    assert.match(parsed.refused[0]?.result.output ?? "", /^invalid arguments for get_weather: \$: not JSON: /);
  });
});
