// The TypeScript Toolkit as a host of the loop vectors for other languages' tests
// (tests/runtime/test_loop_cross_language.py): one step per process, the run passed as its wire JSON.
//
//   node tests/typescript/.cache/loop-host.js run <vector-name>
//     runs the vector's calls (its first step) with its tools and its `turn`; prints
//     {"run": <RunResult wire>, "ran": [{"id", "arguments", "retry", "data", "key"}...]}
//   node tests/typescript/.cache/loop-host.js resume <vector-name>
//     reads {"run": <RunResult wire>, "answers": [<Answer wire>...], "principal": null | string}
//     on stdin; prints {"run": ...} or {"error": "<ResumeError reason>", "message"}, and "ran"
//
// Runs are sealed under the key `k1`, the secret `k1` of idl/seal/vectors.json; the clock is the
// wall clock unless the input (on stdin, for either command) has "now" (ms since the epoch).
// `ran` lists the handler runs of the step, `key` being the idempotency key itself. Anything else
// (a bad command, input that is not valid) is a message on stderr and exit status 2.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAnswer, parseRunResult, readJson, toWireRunResult, writeJson, type JsonObject, type RunResult } from "toolnexus-contract";
import { ResumeError, Toolkit } from "toolnexus-contract/runtime";
import * as lv from "./loop_vectors.js";
import { ROOT } from "./paths.js";

function fail(message: string): never {
  process.stderr.write(`loop-host: ${message}\n`);
  process.exit(2);
}

const [command, name, ...rest] = process.argv.slice(2);
if ((command !== "run" && command !== "resume") || name === undefined || rest.length > 0) {
  fail("usage: loop-host (run | resume) <vector-name>");
}
if (!lv.names().includes(name)) {
  fail(`no loop vector ${JSON.stringify(name)} in idl/loop`);
}

let stdin = "";
try {
  stdin = readFileSync(0, "utf8");
} catch {
  stdin = ""; // no input: the `run` command needs none
}
const input = (stdin.trim() === "" ? {} : readJson(stdin)) as JsonObject;
const now = input["now"];
const clock = typeof now === "number" ? () => now : Date.now;

const secrets = (readJson(readFileSync(join(ROOT, "idl", "seal", "vectors.json"), "utf8")) as { secrets: { k1: string } }).secrets;
const vector = lv.load(name);
const script = new lv.Script(vector, clock);
// Like Python's host, it keeps no cut output (each step is a process of its own).
const kit = new Toolkit(script.tools(), { secrets: { k1: Uint8Array.from(Buffer.from(secrets.k1, "hex")) }, clock, ...lv.toolkitOptions(vector, () => undefined) });

const out: JsonObject = {};
if (command === "run") {
  const turn = vector.turn ?? {};
  const run = await kit.runCalls(vector.calls, { expiresIn: turn.expiresIn, principal: turn.principal, turnId: turn.id });
  out["run"] = toWireRunResult(run);
} else {
  const principal = input["principal"];
  const answers = input["answers"];
  if (!Array.isArray(answers) || (principal !== undefined && principal !== null && typeof principal !== "string")) {
    fail('resume reads {"run": <RunResult>, "answers": [<Answer>...], "principal": null | string} on stdin');
  }
  let given: RunResult;
  try {
    given = parseRunResult(input["run"]);
  } catch (err) {
    fail(`the run is not a RunResult: ${(err as Error).message}`);
  }
  try {
    const run = await kit.resume(
      given,
      answers.map((a, i) => parseAnswer(a, `$.answers[${i}]`)),
      typeof principal === "string" ? { principal } : {},
    );
    out["run"] = toWireRunResult(run);
  } catch (err) {
    if (!(err instanceof ResumeError)) {
      throw err;
    }
    out["error"] = err.reason;
    out["message"] = err.message;
  }
}
// The handler runs as plain JSON: a vector's arguments may nest deeper than the wire allows.
const ran = JSON.stringify(script.log);
process.stdout.write(`${writeJson(out).slice(0, -1)},"ran":${ran}}\n`);
