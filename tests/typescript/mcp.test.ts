// toolnexus-contract/mcp in process: the TypeScript SDK's Client and a toolkit served by
// `mcpServer`, over the SDK's InMemoryTransport; `mcpToolsFrom` and `ElicitationRelay` consuming
// it; `fromMcpCallToolResult`. Across languages and real transports (stdio, streamable HTTP):
// tests/mcp/test_mcp_typescript.py.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, LoggingMessageNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type Request } from "toolnexus-contract";
import { ElicitationRelay, fromMcpCallToolResult, mcpServer, mcpToolsFrom, serveHttp } from "toolnexus-contract/mcp";
import { Toolkit, defineTool } from "toolnexus-contract/runtime";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { toolkit } from "./mcp_toolkit.js";

const ELICITS = { capabilities: { elicitation: { form: {}, url: {} } } };

async function connected(served: Toolkit, options: { capabilities?: object } = ELICITS): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcpServer(served, { name: "ts-test" }).connect(serverSide);
  const client = new Client({ name: "test", version: "1" }, options);
  await client.connect(clientSide);
  return client;
}

function text(result: unknown): string {
  return ((result as CallToolResult).content as { type: string; text?: string }[]).map((b) => b.text ?? "").join("\n");
}

describe("mcpServer", () => {
  it("lists the toolkit's tools with their schemas", async () => {
    const client = await connected(toolkit());
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["add", "approve", "login", "wipe", "steps", "secret", "fail", "forecast"]);
    const forecast = tools.find((t) => t.name === "forecast");
    assert.deepEqual(forecast?.outputSchema?.required, ["city", "celsius"]);
    assert.deepEqual(tools[0]?.inputSchema.required, ["a", "b"]);
    await client.close();
  });

  it("calls through the toolkit: results, failures, unknown tools, metadata kept home", async () => {
    const client = await connected(toolkit(), {});
    assert.equal(text(await client.callTool({ name: "add", arguments: { a: 1, b: 2 } })), "3");
    const failed = await client.callTool({ name: "fail", arguments: {} });
    assert.deepEqual([failed.isError, text(failed)], [true, "cannot do it"]);
    const bad = await client.callTool({ name: "add", arguments: { a: "x" } });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /add/);
    const unknown = await client.callTool({ name: "nope", arguments: {} });
    assert.equal(unknown.isError, true);
    const secret = await client.callTool({ name: "secret", arguments: {} });
    assert.equal(text(secret), "visible");
    assert.doesNotMatch(JSON.stringify(secret), /s3cret/);
    const forecast = await client.callTool({ name: "forecast", arguments: {} });
    assert.deepEqual(forecast.structuredContent, { city: "Oslo", celsius: 21.5 });
    await client.close();
  });

  it("gives a client that declared no elicitation the suspension's prompt as an error", async () => {
    const client = await connected(toolkit(), {});
    const asked = await client.callTool({ name: "approve", arguments: { n: 2 } });
    assert.deepEqual([asked.isError, text(asked)], [true, "Delete 2 files?"]);
    const login = await client.callTool({ name: "login", arguments: {} });
    assert.deepEqual([login.isError, text(login)], [true, "Sign in to continue\nhttps://example.com/login"]);
    await client.close();
  });

  it("asks a form-only client forms, and an authorization with a url not at all", async () => {
    const client = await connected(toolkit(), { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler((await import("@modelcontextprotocol/sdk/types.js")).ElicitRequestSchema, () => ({ action: "accept", content: { reason: "form" } }));
    assert.equal(text(await client.callTool({ name: "approve", arguments: { n: 1 } })), "deleted 1 files: form");
    const login = await client.callTool({ name: "login", arguments: {} });
    assert.deepEqual([login.isError, text(login)], [true, "Sign in to continue\nhttps://example.com/login"]);
    await client.close();
  });

  it("sends a tool's progress as notifications/progress", async () => {
    const client = await connected(toolkit(), {});
    const heard: number[] = [];
    await client.callTool({ name: "steps", arguments: {} }, undefined, { onprogress: (p) => heard.push(p.progress / (p.total ?? 1)) });
    assert.deepEqual(heard, [0.25, 0.5, 0.75, 1]);
    await client.close();
  });

  it("sends a tool's log lines as notifications/message, from the level the client set", async () => {
    const migrate = defineTool("migrate", "Migrates a table", null, (_a, ctx) => {
      ctx.log("debug", "counting rows");
      ctx.log("info", "migrating orders", { rows: 3 });
      ctx.log("warning", "one row skipped", { row: 2 });
      return "migrated";
    });
    const client = await connected(new Toolkit([migrate]), {});
    assert.deepEqual(client.getServerCapabilities()?.logging, {});
    const got: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      got.push([n.params.level, n.params.logger, n.params.data]);
    });
    assert.equal(text(await client.callTool({ name: "migrate", arguments: {} })), "migrated");
    assert.deepEqual(got, [
      ["debug", "migrate", "counting rows"],
      ["info", "migrate", { message: "migrating orders", data: { rows: 3 } }],
      ["warning", "migrate", { message: "one row skipped", data: { row: 2 } }],
    ]);
    got.length = 0;
    await client.setLoggingLevel("warning");
    await client.callTool({ name: "migrate", arguments: {} });
    assert.deepEqual(got, [["warning", "migrate", { message: "one row skipped", data: { row: 2 } }]]);
    await client.close();
  });
});

describe("mcpToolsFrom", () => {
  it("answers a server's elicitation through waitFor, the toolkit's approval included", async () => {
    const client = await connected(toolkit());
    const relay = new ElicitationRelay();
    relay.attach(client);
    const local = new Toolkit(await mcpToolsFrom(client, { elicitations: relay }));
    const asked: Request[] = [];
    const run = await local.runCalls(
      [
        { id: "a", name: "approve", arguments: { n: 4 } },
        { id: "w", name: "wipe", arguments: { disk: "d2" } },
      ],
      { waitFor: (r) => (asked.push(r), { id: r.id, ok: true, data: r.prompt.startsWith("Allow ") ? {} : { reason: "consumed" } }) },
    );
    assert.equal(run.status, "done");
    assert.deepEqual(run.results.map((r) => r.result.output), ["deleted 4 files: consumed", "wiped d2"]);
    assert.deepEqual(asked.map((r) => [r.kind, r.prompt]), [
      ["input", "Delete 4 files?"],
      ["input", 'Allow wipe to run with these arguments?\n{\n  "disk": "d2"\n}'],
    ]);
    await client.close();
  });

  it("stops the run on a server's question, and resumes it with the answer or a refusal", async () => {
    const client = await connected(toolkit());
    const relay = new ElicitationRelay();
    relay.attach(client);
    const local = new Toolkit(await mcpToolsFrom(client, { elicitations: relay }));
    let run = await local.runCalls([{ id: "a", name: "approve", arguments: { n: 5 } }, { id: "b", name: "login", arguments: {} }]);
    assert.equal(run.status, "pending");
    assert.equal(run.pending?.prompt, "Delete 5 files?");
    run = await local.resume(run, { id: run.pending?.id ?? "", ok: true, data: { reason: "resumed" } });
    assert.equal(run.status, "pending");
    assert.deepEqual([run.pending?.kind, run.pending?.url], ["authorization", "https://example.com/login"]);
    run = await local.resume(run, { id: run.pending?.id ?? "", ok: false, reason: "declined" });
    assert.equal(run.status, "done");
    assert.deepEqual(run.results.map((r) => r.result.output), ["deleted 5 files: resumed", "declined/expired: Sign in to continue"]);
    await client.close();
  });

  it("brings the server's progress to ctx.progress, and names tools with a prefix", async () => {
    const client = await connected(toolkit());
    const heard: number[] = [];
    const local = new Toolkit(await mcpToolsFrom(client, { prefix: "ts_" }), { onProgress: (_id, f) => heard.push(f) });
    assert.ok(local.get("ts_steps"));
    const run = await local.runCalls([{ id: "s", name: "ts_steps", arguments: {} }]);
    assert.equal(run.results[0]?.result.output, "4 steps");
    assert.deepEqual(heard, [0.25, 0.5, 0.75, 1]);
    await assert.rejects(mcpToolsFrom(client, { rename: { nope: "x" } }), /rename names a tool the server does not list: 'nope'/);
    await client.close();
  });

  it("lists a tool's hints as annotations, title and icons, and reads them back as its hints", async () => {
    const icon = { src: "https://example.com/rate.png", mimeType: "image/png" };
    const rate = defineTool("rate", "A rate", null, () => "1.1", { hints: { readOnly: true, idempotent: true, title: "Rate", icons: [icon, { src: "http://example.com/plain.png" }] } });
    const plain = defineTool("plain", "No hints", null, () => "");
    const client = await connected(new Toolkit([rate, plain]), {});
    const listed = await client.listTools();
    assert.deepEqual(listed.tools[0]?.annotations, { readOnlyHint: true, destructiveHint: true, idempotentHint: true, openWorldHint: true });
    const [back, none] = await mcpToolsFrom(client);
    assert.deepEqual(back?.hints, { readOnly: true, destructive: true, openWorld: true, idempotent: true, title: "Rate", icons: [{ ...icon, sizes: [] }] }); // an http icon is left out
    assert.equal(none?.hints, undefined);
    await client.close();
  });

  it("cancels a call the server does not answer within its timeout", async () => {
    const never = new Toolkit([defineTool("hang", "Never ends", null, () => new Promise<string>(() => undefined))]);
    const client = await connected(never, {});
    const [hang] = await mcpToolsFrom(client, { timeout: 0.05 });
    const result = await hang?.call({});
    assert.deepEqual([result?.isError, result?.output], [true, "the MCP server 'ts-test' did not answer the call to 'hang' within 0.05 s; the call was cancelled"]);
    await client.close();
  });

  it("works over streamable HTTP (serveHttp)", async () => {
    const serving = await serveHttp(toolkit(), { port: 0 });
    try {
      const client = new Client({ name: "test", version: "1" }, ELICITS);
      await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
      const relay = new ElicitationRelay();
      relay.attach(client);
      const local = new Toolkit(await mcpToolsFrom(client, { elicitations: relay }));
      const run = await local.runCalls([{ id: "a", name: "approve", arguments: { n: 3 } }], { waitFor: (r) => ({ id: r.id, ok: true, data: { reason: "http" } }) });
      assert.equal(run.results[0]?.result.output, "deleted 3 files: http");
      await client.close();
    } finally {
      await serving.close();
    }
  });
});

describe("ElicitationRelay", () => {
  it("declines a URL elicitation to a link that is not http or https, unshown, and the call goes on", async () => {
    const server = new Server({ name: "sly", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: "open", inputSchema: { type: "object" } }] }));
    server.setRequestHandler(CallToolRequestSchema, async () => {
      const reply = await server.elicitInput({ mode: "url", message: "Open this", url: "javascript:alert(1)", elicitationId: "e1" });
      return { content: [{ type: "text", text: `the client said ${reply.action}` }] };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1" }, ELICITS);
    await client.connect(clientSide);
    const relay = new ElicitationRelay();
    relay.attach(client);
    const asked: Request[] = [];
    const local = new Toolkit(await mcpToolsFrom(client, { elicitations: relay }));
    const run = await local.runCalls([{ id: "o", name: "open", arguments: {} }], { waitFor: (r) => (asked.push(r), { id: r.id, ok: true }) });
    assert.deepEqual([asked.length, run.results[0]?.result.output], [0, "the client said decline"]);
    await client.close();
  });

  it("declines an elicitation that comes outside any call", async () => {
    const relay = new ElicitationRelay();
    assert.deepEqual(await relay.elicit({ mode: "form", message: "Hello?", requestedSchema: { type: "object", properties: {} } }), { action: "decline" });
  });
});

describe("serveHttp", () => {
  it("refuses a request whose Host header names another host (DNS rebinding)", async () => {
    const serving = await serveHttp(toolkit(), { port: 0 });
    try {
      const { request } = await import("node:http");
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const req = request(serving.url, { method: "POST", headers: { host: "evil.example:80", "content-type": "application/json" } }, (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        req.on("error", reject);
        req.end("{}");
      });
      assert.equal(status, 403);
    } finally {
      await serving.close();
    }
  });
});

describe("fromMcpCallToolResult", () => {
  it("reads blocks into output and parts, keeps _meta host-only, leaves out links it will not follow", () => {
    const read = fromMcpCallToolResult({
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        { type: "resource_link", uri: "https://example.com/r.pdf", name: "r.pdf", mimeType: "application/pdf", title: "R" },
        { type: "resource_link", uri: "javascript:alert(1)", name: "x" },
        { type: "resource", resource: { uri: "toolnexus://parts/0/a%20b.txt", mimeType: "text/plain", blob: "aGk=" } },
      ],
      _meta: { trace: "t" },
    });
    assert.equal(read.output, "hello\n[resource_link 'x' left out: its URL is not an http, https or data: URL]");
    assert.deepEqual(read.parts.map((p) => [p.type, p.mimeType, p.url ?? p.name]), [
      ["image", "image/png", undefined],
      ["file", "application/pdf", "https://example.com/r.pdf"],
      ["file", "text/plain", "a b.txt"],
    ]);
    assert.deepEqual(read.metadata, { _meta: { trace: "t" } });
    assert.throws(() => fromMcpCallToolResult({ content: [{ type: "image", data: "", mimeType: "a\nb" }] }), /\$\.content\[0\]\.mimeType/);
  });
});
