// The TypeScript side of the cross-language conformance run.
//
//   node tests/typescript/.cache/conformance.js <examples-dir>
//
// (after `bash tests/typescript/run.sh build`). Prints one JSON line per vector of
// <examples-dir>/<Type>/{valid,invalid}/*.json, in order:
//   {"vector":"ToolResult/valid/x.json","ok":true,"emitted":"<re-emitted JSON text>"}
//   {"vector":"ToolResult/invalid/y.json","ok":false,"error":"<WireError message>","path":"$.isError"}
// `emitted` has no final newline. A file that is not UTF-8 is rejected at `$`.
//
//   node tests/typescript/.cache/conformance.js --built <idl/examples/built.json>
//
// builds each vector of that file (too large to keep as files) and prints one line per vector:
//   {"vector":"part-5MB","ok":true,"same":true,"parseMs":12.3,"emitMs":4.5}
//   {"vector":"part-5MB-bad-last-character","ok":false,"error":"...","path":"$.parts[0].data","parseMs":9.1}
// `same` says whether the emitted text is the built text, byte for byte.
//
//   node tests/typescript/.cache/conformance.js --helpers <idl/helpers>
//
// runs every case of the helper vectors (helpers.ts) and prints one line per case:
//   {"case":"from_url/https-by-reference","ok":true,"value":{...the part's wire form...}}
//   {"case":"from_url/javascript-url","ok":false,"error":"bad-url","message":"..."}

import { existsSync } from "node:fs";
import { listHelperCases, runHelperCase } from "./helpers.js";
import { listBuilt, listVectors, runBuilt, runVector } from "./vectors.js";

const args = process.argv.slice(2);
const mode = args[0] === "--built" || args[0] === "--helpers" ? args[0] : undefined;
const target = mode !== undefined ? args[1] : args[0];
if (target === undefined || args.length !== (mode !== undefined ? 2 : 1) || !existsSync(target)) {
  process.stderr.write("usage: node conformance.js <examples-dir> | --built <built.json> | --helpers <helpers-dir>\n");
  process.exit(2);
}
if (mode === "--helpers") {
  for (const c of listHelperCases(target)) {
    process.stdout.write(JSON.stringify(runHelperCase(c)) + "\n");
  }
} else if (mode === "--built") {
  for (const v of listBuilt(target)) {
    process.stdout.write(JSON.stringify(runBuilt(v)) + "\n");
  }
} else {
  let out = "";
  for (const v of listVectors(target)) {
    out += JSON.stringify(runVector(v)) + "\n";
  }
  process.stdout.write(out);
}
