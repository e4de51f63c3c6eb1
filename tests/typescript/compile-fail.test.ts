// The types reject what they should: tsc over compile-fail/*.ts must fail with exactly the
// errors each `// expect-error TSnnnn` comment names on its line (a misspelled key in an object
// literal, such as `isErorr`, is TS2561 or TS2353), and with no others.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { HERE } from "./paths.js";

const DIR = join(HERE, "compile-fail");
const TSC = join(HERE, "node_modules", "typescript", "bin", "tsc");

/** `file:line TSnnnn` for every `// expect-error TSnnnn` comment in compile-fail/*.ts. */
function expected(): string[] {
  const out: string[] = [];
  for (const file of readdirSync(DIR).filter((f) => f.endsWith(".ts")).sort()) {
    readFileSync(join(DIR, file), "utf8")
      .split("\n")
      .forEach((line, i) => {
        for (const m of line.matchAll(/\/\/ expect-error (TS[0-9]+)/g)) {
          out.push(`${file}:${i + 1} ${m[1]}`);
        }
      });
  }
  return out.sort();
}

describe("compile-fail", () => {
  it("tsc rejects each compile-fail/*.ts line marked expect-error, with that error and no other", () => {
    const want = expected();
    assert.ok(want.some((e) => e.startsWith("misspelled-key.ts:") && / TS(2561|2353)$/.test(e)));
    const proc = spawnSync(process.execPath, [TSC, "-p", join(DIR, "tsconfig.json"), "--pretty", "false"], {
      cwd: HERE,
      encoding: "utf8",
    });
    assert.notEqual(proc.status, 0, `tsc passed over compile-fail/:\n${proc.stdout}${proc.stderr}`);
    const got = [...proc.stdout.matchAll(/^(?:.*[/\\])?([^/\\(]+\.ts)\(([0-9]+),[0-9]+\): error (TS[0-9]+):/gm)]
      .map((m) => `${m[1]}:${m[2]} ${m[3]}`)
      .sort();
    assert.deepEqual(got, want, proc.stdout);
    assert.match(proc.stdout, /'isErorr' does not exist in type 'ToolResult'/);
  });
});
