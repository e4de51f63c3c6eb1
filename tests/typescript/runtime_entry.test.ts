// The runtime is an entry point of its own (`toolnexus-contract/runtime`): importing the wire
// types loads none of it (no Ajv, no JCS library, no runtime module), which a module-loading hook
// sees; and the runtime's public names are pinned, so an addition is deliberate.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import * as engine from "toolnexus-contract/engine";
import * as runtime from "toolnexus-contract/runtime";
import { HERE } from "./paths.js";

// Prints, as JSON, every file URL node loads for `import(argv[1])` (ES modules and the CommonJS
// modules they import by name), through a load hook (module.register).
const LOADED = String.raw`
import { register } from "node:module";
import { MessageChannel } from "node:worker_threads";
const { port1, port2 } = new MessageChannel();
const urls = [];
port1.on("message", (url) => urls.push(url));
const hooks = "export async function initialize({ port }) { globalThis.port = port; }" +
  "export async function load(url, context, next) { globalThis.port.postMessage(url); return next(url, context); }";
register("data:text/javascript," + encodeURIComponent(hooks), { data: { port: port2 }, transferList: [port2] });
await import(process.argv[1]);
await new Promise((resolve) => setTimeout(resolve, 50));
port1.close();
process.stdout.write(JSON.stringify(urls.filter((u) => u.startsWith("file:"))));
`;

function loaded(specifier: string): string[] {
  const out = execFileSync("node", ["--input-type=module", "-e", LOADED, specifier], { cwd: HERE, encoding: "utf8" });
  return JSON.parse(out) as string[];
}

const RUNTIME_MODULES = /\/dist\/(runtime|tool|typed|log|schema|engine|engine-entry|seal|book|policies|toolkit|limit|cut|spill)\.js$|\/node_modules\/(ajv|canonicalize)\//;

describe("toolnexus-contract/runtime, apart from the wire types", () => {
  it("importing toolnexus-contract loads no runtime module, Ajv or JCS library", () => {
    const wire = loaded("toolnexus-contract");
    assert.ok(wire.some((u) => u.endsWith("/dist/index.js")), JSON.stringify(wire));
    assert.deepEqual(
      wire.filter((u) => RUNTIME_MODULES.test(u)),
      [],
    );
    const bytes = wire.reduce((n, u) => n + statSync(fileURLToPath(u)).size, 0);
    assert.ok(bytes < 120_000, `the wire-only import loads ${bytes} bytes`);
  });

  it("importing a provider adapter (toolnexus-contract/adapters/<name>) loads no runtime module and no SDK", () => {
    for (const name of ["openai", "anthropic", "gemini", "mcp"]) {
      const urls = loaded(`toolnexus-contract/adapters/${name}`);
      assert.ok(urls.some((u) => u.endsWith(`/dist/adapters/${name}.js`)), name);
      const sdk = /\/node_modules\/(openai|@anthropic-ai|@google|@modelcontextprotocol|zod)\//;
      assert.deepEqual(urls.filter((u) => RUNTIME_MODULES.test(u) || sdk.test(u)), [], name);
    }
  });

  it("importing toolnexus-contract/runtime loads them (so the check above can fail)", () => {
    const all = loaded("toolnexus-contract/runtime");
    for (const name of ["runtime.js", "toolkit.js", "seal.js", "ajv/dist/2020.js", "canonicalize/lib/canonicalize.js"]) {
      assert.ok(
        all.some((u) => u.endsWith(`/${name}`)),
        name,
      );
    }
  });

  it("exports exactly these names: the user API (tools, the Toolkit, decisions, errors, result limits)", () => {
    assert.deepEqual(Object.keys(runtime).sort(), [
      "CUT_FLOOR",
      "Decision",
      "DirectorySpill",
      "LOG_LEVELS",
      "Limit",
      "MemorySpill",
      "Policy",
      "PolicyMemory",
      "ResumeError",
      "Tool",
      "ToolContext",
      "Toolkit",
      "ToolnexusError",
      "WireError",
      "defineTool",
      "estimateTokens",
      "idempotencyKey",
      "isStandardSchema",
      "normalizeToolName",
      "readResult",
      "setToolLogger",
      "turnDigest",
    ]);
  });

  it("leaves the engine's steps to toolnexus-contract/engine, which exports exactly these names", () => {
    assert.deepEqual(Object.keys(engine).sort(), [
      "APPROVAL_DATA",
      "APPROVAL_PREFIX",
      "Ask",
      "MESSAGE_LIMIT",
      "Run",
      "STOP",
      "Settle",
      "answered",
      "applicable",
      "approvalForm",
      "byPolicy",
      "checkAnswer",
      "decided",
      "drive",
      "expired",
      "gate",
      "gated",
      "isApproval",
      "lapsed",
      "match",
      "parseTime",
      "policyOf",
      "ran",
      "reach",
      "reached",
      "scopeOf",
      "start",
      "timed",
      "unstorable",
    ]);
    assert.equal(engine.APPROVAL_PREFIX, "apr-");
  });
});
