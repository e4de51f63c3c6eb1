// The OpenAI Agents SDK bridge (`toolnexus-contract/openai-agents`), through the SDK's own runner
// and the fake model its testing entry point ships (`ScriptedModel` of `@openai/agents/testing`):
// tools run through the toolkit, approval interruptions as toolnexus requests and back (also after
// `RunState.fromString`, as another process restores a run), the whole result for the host.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Agent, RunState, RunToolCallOutputItem, run, setTracingDisabled } from "@openai/agents";
import { ScriptedModel, assistantMessage, functionCall } from "@openai/agents/testing";
import { pending, pendingOf } from "toolnexus-contract";
import { applyAnswers, approvalRequests, functionTool, functionTools, resultOf, toolOutput } from "toolnexus-contract/openai-agents";
import { Toolkit, defineTool } from "toolnexus-contract/runtime";

setTracingDisabled(true);

function kitOf() {
  const ran: string[] = [];
  const weather = defineTool("get_weather", "The weather in a city", { type: "object", properties: { city: { type: "string" } }, required: ["city"] } as const, (args) => {
    ran.push(`get_weather ${args.city}`);
    return { output: `Sunny in ${args.city}`, parts: [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }], metadata: { secret: "host only" } };
  });
  const remove = defineTool(
    "delete_files",
    "Delete files",
    { type: "object", properties: { count: { type: "integer" } }, required: ["count"] } as const,
    (args) => {
      ran.push(`delete_files ${args.count}`);
      return `deleted ${args.count}`;
    },
    { needsApproval: (args) => args.count > 2 },
  );
  const login = defineTool("login", "Asks a name", { type: "object", properties: {} } as const, (_args, ctx) =>
    ctx.answer === undefined ? pending({ id: "", kind: "input", prompt: "Your name?" }) : `hello ${String((ctx.answer.data as { name: string }).name)}`,
  );
  return { kit: new Toolkit([weather, remove, login]), ran };
}

function outputs(items: readonly unknown[]): RunToolCallOutputItem[] {
  return items.filter((i): i is RunToolCallOutputItem => i instanceof RunToolCallOutputItem);
}

describe("the OpenAI Agents SDK bridge", () => {
  it("declares each tool as it is, non-strict, approval where the tool has a rule", async () => {
    const { kit } = kitOf();
    const tools = functionTools(kit);
    assert.deepEqual(tools.map((t) => t.name), ["get_weather", "delete_files", "login"]);
    assert.deepEqual(tools[0]?.parameters, kit.get("get_weather")?.inputSchema);
    assert.equal(tools[0]?.strict, false);
    assert.equal(await tools[0]?.needsApproval(undefined as never, { city: "x" } as never, "c"), false);
    assert.equal(await tools[1]?.needsApproval(undefined as never, { count: 3 } as never, "c"), true);
    assert.equal(await tools[1]?.needsApproval(undefined as never, { count: 1 } as never, "c"), false);
    assert.equal(functionTool(kit.get("login")!).name, "login");
    assert.throws(() => functionTools([{}] as never), /functionTools takes toolnexus Tools: item 0 is/);
  });

  it("runs a call through the toolkit: the model reads text and parts, the host the whole result", async () => {
    const { kit, ran } = kitOf();
    const model = new ScriptedModel([[functionCall("get_weather", { city: "Paris" }, { callId: "c1" })], [assistantMessage("Sunny.")]]);
    const agent = new Agent({ name: "a", instructions: "help", model, tools: functionTools(kit) });
    const result = await run(agent, "Weather?");
    assert.equal(result.finalOutput, "Sunny.");
    assert.deepEqual(ran, ["get_weather Paris"]);
    const [item] = outputs(result.newItems);
    assert.deepEqual(resultOf(item!)?.metadata, { secret: "host only" });
    const sent = JSON.stringify(model.lastCall?.request.input);
    assert.match(sent, /Sunny in Paris/);
    assert.match(sent, /data:image\/png;base64,iVBORw0KGgo=/);
    assert.doesNotMatch(sent, /host only/);
  });

  it("words arguments that are not a JSON object as Tool.call does (JSON that does not parse, as the SDK does)", async () => {
    const { kit } = kitOf();
    const model = new ScriptedModel([[functionCall("get_weather", "{not json", { callId: "c1" }), functionCall("get_weather", "[1]", { callId: "c2" })], [assistantMessage("ok")]]);
    const result = await run(new Agent({ name: "a", model, tools: functionTools(kit) }), "x");
    const [unparsed, array] = outputs(result.newItems);
    assert.equal(unparsed?.output, "An error occurred while parsing tool arguments. Please try again with valid JSON.");
    assert.equal(resultOf(array!)?.output, "invalid arguments for get_weather: $: expected a JSON object, got an array");
  });

  it("answers a suspension in place with waitFor; without it the model reads the prompt", async () => {
    const { kit } = kitOf();
    const script = () => new ScriptedModel([[functionCall("login", {}, { callId: "c1" })], [assistantMessage("ok")]]);
    const waitFor = (r: { id: string }) => ({ id: r.id, ok: true, data: { name: "Ada" } });
    let result = await run(new Agent({ name: "a", model: script(), tools: functionTools(kit, { waitFor }) }), "x");
    assert.equal(resultOf(outputs(result.newItems)[0]!)?.output, "hello Ada");
    result = await run(new Agent({ name: "a", model: script(), tools: functionTools(kit) }), "x");
    const got = resultOf(outputs(result.newItems)[0]!);
    assert.equal(got?.output, "Your name?");
    assert.equal(got && pendingOf(got)?.prompt, "Your name?");
  });

  it("maps approval interruptions to requests and answers back, across a stored RunState", async () => {
    const { kit, ran } = kitOf();
    const model = new ScriptedModel([
      [functionCall("delete_files", { count: 3 }, { callId: "c1" }), functionCall("delete_files", { count: 5 }, { callId: "c2" })],
      [assistantMessage("Done.")],
    ]);
    const agent = new Agent({ name: "a", model, tools: functionTools(kit) });
    const first = await run(agent, "Delete");
    const requests = approvalRequests(first);
    assert.deepEqual(
      requests.map((r) => [r.kind, r.prompt, r.data]),
      [
        ["approval", "Allow delete_files to run with these arguments?", { tool: "delete_files", arguments: { count: 3 } }],
        ["approval", "Allow delete_files to run with these arguments?", { tool: "delete_files", arguments: { count: 5 } }],
      ],
    );
    assert.deepEqual(ran, []);
    // Another process restores the run and answers by the requests' ids.
    const state = await RunState.fromString(agent, first.state.toString());
    assert.deepEqual(approvalRequests(state.getInterruptions()), requests);
    assert.throws(() => applyAnswers(state, { id: "apr-other", ok: true }), /no approval interruption of this run has the request id "apr-other"/);
    assert.throws(
      () => applyAnswers(state, { id: requests[0]!.id, ok: true, data: { arguments: { count: 1 } } }),
      /edits the arguments of delete_files: the OpenAI Agents SDK runs a call with the model's arguments/,
    );
    applyAnswers(state, [
      { id: requests[0]!.id, ok: true },
      { id: requests[1]!.id, ok: false, reason: "declined", message: "too many" },
    ]);
    const second = await run(agent, state);
    assert.equal(second.finalOutput, "Done.");
    assert.deepEqual(ran, ["delete_files 3"]);
    assert.match(JSON.stringify(model.lastCall?.request.input), /declined: too many/);
  });

  it("writes parts the Responses API takes, and a note for the rest", () => {
    assert.equal(toolOutput({ output: "plain" }), "plain");
    assert.deepEqual(
      toolOutput({
        output: "t",
        parts: [
          { type: "image", url: "https://x/i.png" },
          { type: "file", mimeType: "application/pdf", data: "JVBERg==" },
          { type: "audio", mimeType: "audio/wav", data: "UklGRg==" },
        ],
      }),
      [
        { type: "text", text: "t" },
        { type: "image", image: "https://x/i.png" },
        { type: "file", file: { data: "data:application/pdf;base64,JVBERg==", mediaType: "application/pdf", filename: "attachment-1.pdf" } },
        { type: "text", text: "[audio (audio/wav, 4 bytes) not included: the OpenAI Agents SDK does not accept it in a tool result]" },
      ],
    );
  });
});
