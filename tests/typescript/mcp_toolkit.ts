// The toolkit the MCP tests serve from TypeScript (mcp.test.ts in process, mcp_server.ts over
// stdio and HTTP for tests/mcp/test_mcp_typescript.py): the tools of tests/mcp/toolkit_server.py that
// the TypeScript bridge serves alike.

import { authRequired, pending, type JsonObject } from "toolnexus-contract";
import { Toolkit, defineTool } from "toolnexus-contract/runtime";

const REASON: JsonObject = { type: "object", properties: { reason: { type: "string" } }, required: ["reason"] };

export function toolkit(): Toolkit {
  return new Toolkit([
    defineTool("add", "Add two integers.", { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"] } as const, ({ a, b }) => String(a + b)),
    defineTool("approve", "Deletes files after an approval", { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } as const, ({ n }, ctx) => {
      if (ctx.answer === undefined) {
        return pending({ id: "", kind: "approval", prompt: `Delete ${n} files?`, data: { schema: REASON } });
      }
      return `deleted ${n} files: ${String((ctx.answer.data as { reason?: string } | undefined)?.reason)}`;
    }),
    defineTool("login", "Needs a sign-in", null, (_args, ctx) => (ctx.answer === undefined ? authRequired("https://example.com/login", "Sign in to continue") : "signed in")),
    defineTool("wipe", "Wipes a disk, once approved", null, (args) => `wiped ${String(args["disk"] ?? "nothing")}`, { needsApproval: true }),
    defineTool("steps", "Reports progress", null, (_args, ctx) => {
      for (let i = 1; i <= 4; i++) {
        ctx.progress(i / 4, `step ${i}`);
      }
      return "4 steps";
    }),
    defineTool("secret", "Keeps a secret in metadata", null, () => ({ output: "visible", isError: false, metadata: { secret: "s3cret-value" } })),
    defineTool("fail", "Always fails", null, (args) => {
      throw new Error(`cannot do ${String(args["what"] ?? "it")}`);
    }),
    defineTool(
      "forecast",
      "The forecast for a city",
      null,
      () => ({ city: "Oslo", celsius: 21.5 }),
      { outputSchema: { type: "object", properties: { city: { type: "string" }, celsius: { type: "number" } }, required: ["city", "celsius"] } as const },
    ),
  ]);
}
