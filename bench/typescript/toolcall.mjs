// The TypeScript tool call of `make bench`: `Tool.call` of the npm package (generated/typescript,
// built by `bash tests/typescript/run.sh build`) against the Vercel AI SDK's own execution of a
// tool call, the same zod schema on both sides, from the arguments' JSON text (as a model sends
// them) to the tool's output:
//
//   ours: await tool.call(JSON.parse(text)), tool = defineTool("add", ..., schema, handler):
//         the arguments checked against the schema's JSON Schema (zod's own conversion,
//         compiled by Ajv), copied, the handler awaited, its value made a ToolResult.
//   ai:   what generateText does with a tool call of a tool made by `tool({inputSchema: schema,
//         execute})` (ai/dist/index.js, doParseToolCall then executeToolCall): safeParseJSON
//         (secure-json-parse, then the schema's validation through asSchema: zod's safeParse)
//         and, for a valid input, executeTool's stream read to its final output, made a
//         `tool-result` part. What is around it there does nothing in a bare generateText and
//         is left out: the empty-input test (`input.trim() === ""`), validateToolContext
//         without a context schema, the callbacks, telemetry and tracing spans.
//   direct: the handler awaited alone, the floor.
//
// Run by bench/bench.py as `node bench/typescript/toolcall.mjs REPEATS`; prints, as JSON, the
// median CPU seconds per call of each: batches of about 10 ms of each, taken in turn, repeated.

import { executeTool, safeParseJSON, asSchema } from "@ai-sdk/provider-utils";
import { tool as aiTool } from "ai";
import { z } from "zod";
import { defineTool } from "../../support/typescript/dist/runtime.js";

const repeats = Number(process.argv[2] ?? "21");
const schema = z.object({ a: z.number().int(), b: z.number().int() });
const add = async ({ a, b }) => String(a + b);
const text = '{"a":2,"b":3}';

const ours = defineTool("add", "Adds two integers.", schema, add);
const theirs = aiTool({ description: "Adds two integers.", inputSchema: schema, execute: add });

async function aiCall(toolCallId) {
  const parsed = await safeParseJSON({ text, schema: asSchema(theirs.inputSchema) });
  if (!parsed.success) {
    throw parsed.error;
  }
  let output;
  const stream = executeTool({ tool: theirs, input: parsed.value, options: { toolCallId, messages: [], abortSignal: undefined } });
  for await (const part of stream) {
    if (part.type !== "preliminary") {
      output = part.output;
    }
  }
  return { type: "tool-result", toolCallId, toolName: "add", input: parsed.value, output, dynamic: false };
}

const fns = {
  ours: async () => (await ours.call(JSON.parse(text))).output,
  ai: async () => (await aiCall("call-1")).output,
  direct: async () => add(JSON.parse(text)),
};

/** Seconds of CPU this process has used: on a shared machine, a batch is not charged for the time
 * other processes held the cores (wall time swung by more than 2× between runs there). */
function cpu() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function perCall(fn) {
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < 20) {
    await fn();
    n++;
  }
  return (performance.now() - t0) / 1000 / n;
}

for (const [name, fn] of Object.entries(fns)) {
  if ((await fn()) !== "5") {
    throw new Error(`${name}: the call does not give "5"`);
  }
  for (let i = 0; i < 2000; i++) await fn(); // let the JIT settle
}
if ((await ours.call({ a: 2, b: "3" })).isError !== true || (await safeParseJSON({ text: '{"a":2,"b":"3"}', schema: asSchema(schema) })).success) {
  throw new Error("a wrong argument is not refused by both");
}
const number = Math.max(1, Math.floor(0.01 / (await perCall(fns.ours))));
const samples = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
for (let r = 0; r < repeats; r++) {
  for (const [name, fn] of Object.entries(fns)) {
    const t0 = cpu();
    for (let i = 0; i < number; i++) await fn();
    samples[name].push((cpu() - t0) / number);
  }
}
process.stdout.write(JSON.stringify(Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]))) + "\n");
