// `node .cache/mcp_client.js stdio COMMAND ARGS... | http URL`: toolnexus-contract/mcp's client
// (`mcpToolsFrom`, `ElicitationRelay`) consuming an MCP server, for tests/mcp/test_mcp_typescript.py,
// which points it at the Python server (tests/mcp/toolkit_server.py). Prints one JSON object: the
// tools listed, and the results of a turn whose questions `waitFor` answers.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Request } from "toolnexus-contract";
import { ElicitationRelay, mcpToolsFrom } from "toolnexus-contract/mcp";
import { Toolkit } from "toolnexus-contract/runtime";

const [mode, ...rest] = process.argv.slice(2);
const transport =
  mode === "http"
    ? new StreamableHTTPClientTransport(new URL(rest[0] ?? ""))
    : new StdioClientTransport({ command: rest[0] ?? "", args: rest.slice(1), env: process.env as Record<string, string>, stderr: "inherit" });
const client = new Client({ name: "toolnexus-ts-client", version: "1" }, { capabilities: { elicitation: { form: {}, url: {} } } });
const relay = new ElicitationRelay();
relay.attach(client);
await client.connect(transport);
const toolkit = new Toolkit(await mcpToolsFrom(client, { elicitations: relay }));
const asked: Request[] = [];
const run = await toolkit.runCalls(
  [
    { id: "add", name: "add", arguments: { a: 2, b: 3 } },
    { id: "approve", name: "approve", arguments: { n: 4 } },
    { id: "wipe", name: "wipe", arguments: { disk: "d2" } },
    { id: "login", name: "login", arguments: {} },
    { id: "picture", name: "picture", arguments: {} },
    { id: "secret", name: "secret", arguments: {} },
    { id: "fail", name: "fail", arguments: { what: "that" } },
    { id: "forecast", name: "forecast", arguments: { city: "Oslo" } },
  ],
  {
    waitFor: (request) => {
      asked.push(request);
      if (request.kind === "authorization") {
        return { id: request.id, ok: false, reason: "declined" };
      }
      return { id: request.id, ok: true, data: request.prompt.startsWith("Allow ") ? {} : { reason: "from TypeScript" } };
    },
  },
);
const results = Object.fromEntries(run.results.map((r) => [r.id, r.result]));
console.log(JSON.stringify({ server: client.getServerVersion()?.name, tools: toolkit.tools().map((t) => t.name), asked: asked.map((r) => ({ kind: r.kind, prompt: r.prompt, url: r.url })), results }));
await client.close();
