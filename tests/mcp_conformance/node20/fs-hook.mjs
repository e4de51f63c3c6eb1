// The resolve hook of register.mjs: `fs` / `node:fs`, imported by the conformance suite's
// CLI (a module under @modelcontextprotocol/conformance/), resolves to fs-with-glob.mjs.
const SHIM = new URL("./fs-with-glob.mjs", import.meta.url).href;
const SUITE = "/node_modules/@modelcontextprotocol/conformance/";

export async function resolve(specifier, context, nextResolve) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL?.includes(SUITE)) {
    return { url: SHIM, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
