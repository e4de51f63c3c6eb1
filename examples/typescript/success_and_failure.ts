// Spec example 1, in TypeScript: success and failure on the same tool.
// Run by tests/typescript/examples.test.ts (compiled with tsc --strict, then run with node).

import { JsonNumber } from "toolnexus-contract";
import { ToolContext, defineTool } from "toolnexus-contract/runtime";

const sqrt = defineTool("sqrt", "Square root", null, async (args, _ctx) => {
  const n = args["n"];
  if (typeof n !== "number" && !(n instanceof JsonNumber)) {
    throw new Error("n is required");
  }
  if (Number(n) < 0) {
    throw new Error(`cannot take the square root of ${String(n)}`);
  }
  return String(Math.sqrt(Number(n)));
});

const ok = await sqrt.call({ n: 16 }, new ToolContext());
const bad = await sqrt.call({ n: -1 }, new ToolContext());
if (ok.isError || ok.output !== "4") throw new Error(`ok: ${ok.output}`);
if (!bad.isError || bad.output !== "cannot take the square root of -1") throw new Error(`bad: ${bad.output}`);
console.log(`ok: ${ok.output} | ${bad.output}`);
