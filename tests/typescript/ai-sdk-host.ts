// The AI SDK side of tests/bridges/test_bridge_ai_sdk.py: a run suspended by the AI SDK bridge,
// resumed in Python, continued here. One command a process (the run and the conversation pass as JSON, on
// stdin and stdout, as a host stores them); runs are sealed under the key `k1` of
// idl/seal/vectors.json, which the Python side holds too. The model is the AI SDK's own mock.
//
//   node .cache/ai-sdk-host.js suspend              -> {run, messages}: the model asks delete_files(count: 3)
//   node .cache/ai-sdk-host.js answer true|false    {run, messages} -> {messages, answers}: a person's approval response
//   node .cache/ai-sdk-host.js continue             {run (resumed), messages} -> {text, prompt}: the model reads the result

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generateText, type ModelMessage } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { parseRunResult, type RunResult } from "toolnexus-contract";
import { aiTools, approvalAnswers, suspend, withResults } from "toolnexus-contract/ai-sdk";
import { Toolkit, defineTool } from "toolnexus-contract/runtime";
import { calls, says } from "./ai_sdk_mock.js";
import { ROOT } from "./paths.js";

const secrets = (JSON.parse(readFileSync(join(ROOT, "idl", "seal", "vectors.json"), "utf8")) as { secrets: { k1: string } }).secrets;
const removeFiles = defineTool(
  "delete_files",
  "Delete files",
  { type: "object", properties: { count: { type: "integer" } }, required: ["count"] } as const,
  (args) => `deleted ${args.count} (typescript)`,
  { needsApproval: true },
);
const kit = new Toolkit([removeFiles], { secrets: { k1: Uint8Array.from(Buffer.from(secrets.k1, "hex")) } });

function input(): { run: RunResult; messages: ModelMessage[] } {
  const given = JSON.parse(readFileSync(0, "utf8")) as { run: unknown; messages: ModelMessage[] };
  return { run: parseRunResult(given.run), messages: given.messages };
}

async function main(command: string | undefined, arg: string | undefined): Promise<unknown> {
  if (command === "suspend") {
    const messages: ModelMessage[] = [{ role: "user", content: "Delete three files" }];
    const model = new MockLanguageModelV3({ doGenerate: [calls(["call_1", "delete_files", { count: 3 }])] });
    const out = await generateText({ model, tools: aiTools(kit), messages });
    return { run: await suspend(kit, out), messages: [...messages, ...out.response.messages] };
  }
  if (command === "answer") {
    const { run, messages } = input();
    const asked = messages.flatMap((m) => (m.role === "assistant" && Array.isArray(m.content) ? m.content : [])).find((p) => p.type === "tool-approval-request");
    const response: ModelMessage = { role: "tool", content: [{ type: "tool-approval-response", approvalId: asked?.type === "tool-approval-request" ? asked.approvalId : "", approved: arg === "true" }] };
    const answered = [...messages, response];
    return { messages: answered, answers: approvalAnswers(run, answered) };
  }
  if (command === "continue") {
    const { run, messages } = input();
    const model = new MockLanguageModelV3({ doGenerate: [says("The files are gone.")] });
    const out = await generateText({ model, tools: aiTools(kit), messages: withResults(messages, run) });
    return { text: out.text, prompt: model.doGenerateCalls[0]?.prompt };
  }
  throw new Error(`usage: ai-sdk-host.js suspend | answer true|false | continue (got ${String(command)})`);
}

process.stdout.write(JSON.stringify(await main(process.argv[2], process.argv[3])) + "\n");
