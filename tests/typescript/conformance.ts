// The TypeScript side of the cross-language conformance run.
//
//   node tests/typescript/.cache/conformance.js <examples-dir>
//
// (after `bash tests/typescript/run.sh build`). Prints one JSON line per vector of
// <examples-dir>/<Type>/{valid,invalid}/*.json, in order:
//   {"vector":"ToolResult/valid/x.json","ok":true,"emitted":"<re-emitted JSON text>"}
//   {"vector":"ToolResult/invalid/y.json","ok":false,"error":"<WireError message>","path":"$.isError"}
// `emitted` has no final newline. A file that is not UTF-8 is rejected at `$`.

import { existsSync } from "node:fs";
import { listVectors, runVector } from "./vectors.js";

const dir = process.argv[2];
if (dir === undefined || process.argv.length !== 3 || !existsSync(dir)) {
  process.stderr.write("usage: node conformance.js <examples-dir>\n");
  process.exit(2);
}
let out = "";
for (const v of listVectors(dir)) {
  out += JSON.stringify(runVector(v)) + "\n";
}
process.stdout.write(out);
