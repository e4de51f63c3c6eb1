// The Vercel AI SDK bridge (`toolnexus-contract/ai-sdk`), through the AI SDK's own `generateText`
// and `streamText` and its own mock model (`MockLanguageModelV3` of `ai/test`), against both
// majors the package supports: `ai` 7 (the version the package is built with) and 6 (`ai-v6`, an
// npm alias: the built package is copied where `ai` resolves to it, so the bridge loads 6's own
// `jsonSchema`). The run it suspends resumes in Python too: tests/bridges/test_bridge_ai_sdk.py.

import assert from "node:assert/strict";
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import type { ModelMessage } from "ai";
import * as ai7 from "ai";
import { MockLanguageModelV3 as Mock7 } from "ai/test";
import { parseRunResult, pending } from "toolnexus-contract";
import * as bridge7 from "toolnexus-contract/ai-sdk";
import * as runtime7 from "toolnexus-contract/runtime";
import { calls, says, streamed } from "./ai_sdk_mock.js";
import { HERE, PACKAGE } from "./paths.js";

type Bridge = typeof bridge7;
type Runtime = typeof runtime7;
type Ai = Pick<typeof ai7, "generateText" | "streamText">;
interface Version {
  ai: Ai;
  Mock: typeof Mock7;
  bridge: Bridge;
  runtime: Runtime;
}

/** The built package, copied to .cache/ai-v6/ with `ai` there resolving to ai 6. */
async function version6(): Promise<Version> {
  const root = join(HERE, ".cache", "ai-v6");
  rmSync(root, { recursive: true, force: true });
  cpSync(join(PACKAGE, "dist"), join(root, "dist"), { recursive: true });
  mkdirSync(join(root, "node_modules"));
  symlinkSync(join(HERE, "node_modules", "ai-v6"), join(root, "node_modules", "ai"), "dir");
  writeFileSync(join(root, "package.json"), JSON.stringify({ type: "module" }));
  const load = (rel: string): Promise<unknown> => import(pathToFileURL(join(root, "dist", rel)).href);
  const { MockLanguageModelV3 } = (await import("ai-v6/test" as string)) as { MockLanguageModelV3: typeof Mock7 };
  return {
    ai: (await import("ai-v6" as string)) as Ai,
    Mock: MockLanguageModelV3,
    bridge: (await load("bridges/ai-sdk.js")) as Bridge,
    runtime: (await load("runtime.js")) as Runtime,
  };
}

const SECRET = new Uint8Array(32).fill(7);
const PNG = "iVBORw0KGgo=";

/** The tools of each case: a counter of the handler's runs, a toolkit, and the model's prompts. */
function kitOf({ runtime }: Version, secret = true) {
  const ran: string[] = [];
  const { defineTool, Toolkit } = runtime;
  const weather = defineTool("get_weather", "The weather in a city", { type: "object", properties: { city: { type: "string" } }, required: ["city"] } as const, (args) => {
    ran.push(`get_weather ${args.city}`);
    return { output: `Sunny in ${args.city}`, metadata: { secret: "host only" } };
  });
  const chart = defineTool("chart", "A chart", { type: "object", properties: {} } as const, () => ({
    output: "the chart",
    parts: [
      { type: "image", mimeType: "image/png", data: PNG },
      { type: "file", mimeType: "application/pdf", url: "https://example.com/r.pdf" },
    ],
  }));
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
  const login = defineTool("login", "Needs a login first", { type: "object", properties: {} } as const, (_args, ctx) =>
    ctx.answer === undefined ? pending({ id: "", kind: "input", prompt: "Your name?" }) : `hello ${String((ctx.answer.data as { name: string }).name)}`,
  );
  const kit = new Toolkit([weather, chart, remove, login], secret ? { secret: SECRET } : {});
  return { kit, ran };
}

function suite(label: string, load: () => Promise<Version>): void {
  describe(`the AI SDK bridge, ai ${label}`, () => {
    let v: Version;
    it("loads", async () => {
      v = await load();
    });

    it("declares each tool as it is, approval only where the rule asks", () => {
      const { kit } = kitOf(v);
      const tools = v.bridge.aiTools(kit);
      assert.deepEqual(Object.keys(tools), ["get_weather", "chart", "delete_files", "login"]);
      const schema = tools["get_weather"]?.inputSchema as { jsonSchema: unknown };
      assert.deepEqual(schema.jsonSchema, kit.get("get_weather")?.inputSchema);
      assert.equal(tools["get_weather"]?.needsApproval, undefined);
      assert.equal(typeof tools["delete_files"]?.needsApproval, "function");
      assert.throws(() => v.bridge.aiTools([{ name: "x" }] as never), /aiTools takes toolnexus Tools: item 0 is/);
    });

    it("runs a call through the toolkit; the host reads the whole result, the model its text", async () => {
      const { kit, ran } = kitOf(v);
      const model = new v.Mock({ doGenerate: [calls(["c1", "get_weather", { city: "Paris" }]), says("It is sunny.")] });
      const out = await v.ai.generateText({ model, tools: v.bridge.aiTools(kit), prompt: "Weather?", stopWhen: () => false });
      assert.equal(out.text, "It is sunny.");
      assert.deepEqual(ran, ["get_weather Paris"]);
      const first = out.steps[0]?.toolResults[0];
      assert.deepEqual(v.bridge.resultOf(first?.output)?.metadata, { secret: "host only" });
      const prompt = JSON.stringify(model.doGenerateCalls[1]?.prompt);
      assert.match(prompt, /"type":"text","value":"Sunny in Paris"/);
      assert.doesNotMatch(prompt, /host only/);
    });

    it("gives the model a result's parts through toModelOutput, and errors as error-text", async () => {
      const { kit } = kitOf(v);
      // supportedUrls: the model takes any URL itself (else the AI SDK downloads it first)
      const model = new v.Mock({ supportedUrls: { "*": [/.*/] }, doGenerate: [calls(["c1", "chart", {}], ["c2", "get_weather", {}]), says("ok")] });
      await v.ai.generateText({ model, tools: v.bridge.aiTools(kit), prompt: "Chart?", stopWhen: () => false });
      const prompt = JSON.stringify(model.doGenerateCalls[1]?.prompt);
      assert.match(prompt, /the chart/);
      assert.match(prompt, new RegExp(PNG.replace(/=/g, "=?")));
      assert.match(prompt, /https:\/\/example.com\/r.pdf/);
      assert.match(prompt, /"type":"error-text","value":"invalid arguments for get_weather: /);
      assert.deepEqual(v.bridge.toModelOutput({ output: "x", parts: [{ type: "audio", mimeType: "audio/wav" }] }), {
        type: "content",
        value: [{ type: "text", text: "x" }, { type: "text", text: "[audio (audio/wav, no content) not included: the AI SDK does not accept it in a tool result]" }],
      });
    });

    it("answers a suspension inside a call in place with waitFor, or lets the model read its prompt", async () => {
      const { kit } = kitOf(v);
      const asked: string[] = [];
      const waitFor = (request: { id: string; prompt: string }) => (asked.push(request.prompt), { id: request.id, ok: true, data: { name: "Ada" } });
      let model = new v.Mock({ doGenerate: [calls(["c1", "login", {}]), says("ok")] });
      let out = await v.ai.generateText({ model, tools: v.bridge.aiTools(kit, { waitFor }), prompt: "Hi", stopWhen: () => false });
      assert.deepEqual(asked, ["Your name?"]);
      assert.equal(v.bridge.resultOf(out.steps[0]?.toolResults[0]?.output)?.output, "hello Ada");
      model = new v.Mock({ doGenerate: [calls(["c1", "login", {}]), says("ok")] });
      out = await v.ai.generateText({ model, tools: v.bridge.aiTools(kit), prompt: "Hi", stopWhen: () => false });
      const result = v.bridge.resultOf(out.steps[0]?.toolResults[0]?.output);
      assert.equal(result?.metadata?.["pending"] && (result.metadata["pending"] as { prompt: string }).prompt, "Your name?");
      assert.match(JSON.stringify(model.doGenerateCalls[1]?.prompt), /"type":"error-text","value":"Your name\?"/);
    });

    for (const via of ["generateText", "streamText"] as const) {
      it(`suspends on an approval (${via}), stores the sealed run, resumes it elsewhere, continues`, async () => {
        const here = kitOf(v);
        const results = [calls(["c1", "delete_files", { count: 3 }], ["c2", "delete_files", { count: 1 }]), says("Deleted.")];
        const model = new v.Mock(via === "generateText" ? { doGenerate: results } : { doStream: results.map(streamed) });
        const tools = v.bridge.aiTools(here.kit);
        const messages: ModelMessage[] = [{ role: "user", content: "Delete files" }];
        let content: readonly unknown[];
        if (via === "generateText") {
          const out = await v.ai.generateText({ model, tools, messages });
          content = out.content;
          messages.push(...out.response.messages);
        } else {
          const out = v.ai.streamText({ model, tools, messages });
          content = await out.content;
          messages.push(...(await out.response).messages);
        }
        assert.deepEqual(here.ran, ["delete_files 1"]); // the call under the rule's threshold ran
        const run = await v.bridge.suspend(here.kit, content);
        assert.equal(run?.status, "pending");
        assert.equal(run?.pending?.kind, "approval");
        assert.deepEqual(run?.calls, [{ id: "c1", name: "delete_files", arguments: { count: 3 } }]);
        assert.match(run?.seal ?? "", /^v4\.hmac-sha256\./);
        const stored = JSON.stringify(run);

        // Another process: a toolkit of its own, the same key, the stored run and conversation.
        const there = kitOf(v);
        const approval = v.bridge.approvalRequests(content)[0];
        messages.push({ role: "tool", content: [{ type: "tool-approval-response", approvalId: approval?.approvalId ?? "", approved: true }] });
        const loaded = parseRunResult(JSON.parse(stored));
        const answers = v.bridge.approvalAnswers(loaded, messages);
        assert.deepEqual(answers, [{ id: loaded.pending?.id, ok: true }]);
        const resumed = await there.kit.resume(loaded, answers);
        assert.equal(resumed.status, "done");
        assert.deepEqual(there.ran, ["delete_files 3"]);
        const next = v.bridge.withResults(messages, resumed);
        const final = via === "generateText" ? await v.ai.generateText({ model, tools: v.bridge.aiTools(there.kit), messages: next }) : v.ai.streamText({ model, tools: v.bridge.aiTools(there.kit), messages: next });
        assert.equal(await final.text, "Deleted.");
        assert.deepEqual(there.ran, ["delete_files 3"]); // the AI SDK did not run it again
        const calls2 = via === "generateText" ? model.doGenerateCalls : model.doStreamCalls;
        assert.match(JSON.stringify(calls2[1]?.prompt), /"toolCallId":"c1","toolName":"delete_files","output":\{"type":"text","value":"deleted 3"\}/);
      });
    }

    it("turns a denial into a refusal whose reason the model reads", async () => {
      const { kit, ran } = kitOf(v);
      const model = new v.Mock({ doGenerate: [calls(["c1", "delete_files", { count: 9 }]), says("Not deleted.")] });
      const messages: ModelMessage[] = [{ role: "user", content: "Delete" }];
      const out = await v.ai.generateText({ model, tools: v.bridge.aiTools(kit), messages });
      messages.push(...out.response.messages);
      const run = await v.bridge.suspend(kit, out);
      assert.ok(run !== undefined);
      const approvalId = v.bridge.approvalRequests(out)[0]?.approvalId ?? "";
      messages.push({ role: "tool", content: [{ type: "tool-approval-response", approvalId, approved: false, reason: "not today" }] });
      const answers = v.bridge.approvalAnswers(run, messages);
      assert.deepEqual(answers, [{ id: run.pending?.id, ok: false, reason: "declined", message: "not today" }]);
      const resumed = await kit.resume(run, answers);
      assert.equal(resumed.results[0]?.result.output, "declined: not today");
      await v.ai.generateText({ model, tools: v.bridge.aiTools(kit), messages: v.bridge.withResults(messages, resumed) });
      assert.deepEqual(ran, []);
      assert.match(JSON.stringify(model.doGenerateCalls[1]?.prompt), /"type":"error-text","value":"declined: not today"/);
    });

    it("has nothing to suspend when no approval of a toolkit tool is asked", async () => {
      const { kit } = kitOf(v, false);
      assert.equal(await v.bridge.suspend(kit, []), undefined);
      assert.equal(await v.bridge.suspend(kit, [{ type: "tool-approval-request", approvalId: "a", toolCall: { toolCallId: "c", toolName: "other", input: {} } }]), undefined);
    });
  });
}

suite("7", async () => ({ ai: ai7, Mock: Mock7, bridge: bridge7, runtime: runtime7 }));
suite("6", version6);
