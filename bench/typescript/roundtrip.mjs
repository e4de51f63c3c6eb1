// The TypeScript round trip of `make bench`: the npm package (generated/typescript, built by
// `bash tests/typescript/run.sh build`) against the MCP TypeScript SDK's CallToolResultSchema
// (zod), on the same content, each JSON text to JSON text:
//
//   ours: toJsonToolResult(fromJsonToolResult(text))
//   mcp:  JSON.stringify(CallToolResultSchema.parse(JSON.parse(mcpText)))
//   json: JSON.stringify(JSON.parse(text)), the floor (no checks at all)
//   readJson, JSON.parse, part: pieces of ours, to tell what its rules cost
//
// Run by bench/bench.py as `node bench/typescript/roundtrip.mjs PAYLOADS.json REPEATS`; the
// payloads file maps a case to {"ours": wire text, "mcp": the same content as an MCP
// CallToolResult}. Prints, as JSON, the median CPU seconds per call of each, per case: batches of
// about 10 ms of each, taken in turn, repeated.

import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { fromJsonToolResult, parseContentPart, readJson, toJsonToolResult } from "../../support/typescript/dist/index.js";

const [payloadsPath, repeatsArg] = process.argv.slice(2);
const payloads = JSON.parse(readFileSync(payloadsPath, "utf8"));
const repeats = Number(repeatsArg ?? "21");

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

function perCall(fn) {
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < 20) {
    fn();
    n++;
  }
  return (performance.now() - t0) / 1000 / n;
}

function interleaved(fns) {
  for (const fn of Object.values(fns)) {
    for (let i = 0; i < 50; i++) fn(); // let the JIT settle
  }
  const number = Math.max(1, Math.floor(0.01 / perCall(fns.ours)));
  const samples = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (let r = 0; r < repeats; r++) {
    for (const [name, fn] of Object.entries(fns)) {
      const t0 = cpu();
      for (let i = 0; i < number; i++) fn();
      samples[name].push((cpu() - t0) / number);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

const out = {};
for (const [name, { ours, mcp }] of Object.entries(payloads)) {
  // Each gives back what it was given (zod writes the keys in its own order).
  if (toJsonToolResult(fromJsonToolResult(ours)) !== ours) {
    throw new Error(`${name}: the package does not write back the text it read`);
  }
  const again = JSON.stringify(CallToolResultSchema.parse(JSON.parse(mcp)));
  if (!isDeepStrictEqual(JSON.parse(again), JSON.parse(mcp))) {
    throw new Error(`${name}: CallToolResultSchema does not give back its content`);
  }
  const part = JSON.parse(ours).parts?.[0];
  out[name] = interleaved({
    ours: () => toJsonToolResult(fromJsonToolResult(ours)),
    mcp: () => JSON.stringify(CallToolResultSchema.parse(JSON.parse(mcp))),
    json: () => JSON.stringify(JSON.parse(ours)),
    // What the wire's rules cost, apart: readJson against JSON.parse (repeated keys, key order,
    // exact numbers, lone surrogates, depth), and checking one part (its data as strict base64).
    readJson: () => readJson(ours),
    "JSON.parse": () => JSON.parse(ours),
    ...(part === undefined ? {} : { part: () => parseContentPart(part) }),
  });
}
process.stdout.write(JSON.stringify(out) + "\n");
