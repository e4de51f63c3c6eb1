// Examples are tests: the README's TypeScript blocks and examples/typescript/*.ts compile under
// tsc --strict (importing the package by name, as a user does) and run with node. A README
// line `console.log(...); // X` must print X (`// X // Y`: the line prints X, then Y); the seed's
// example 1 prints what upstream prints.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { HERE, ROOT } from "./paths.js";

const WORK = join(HERE, ".cache", "examples");
const README_BLOCKS = [...readFileSync(join(ROOT, "README.md"), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
const EXAMPLES = readdirSync(join(ROOT, "examples", "typescript")).filter((n) => n.endsWith(".ts"));

/** What a block's `console.log(...); // X` comments say it prints, in order. */
function expected(source: string): string[] {
  return [...source.matchAll(/^\s*console\.log\(.*\);? \/\/ (.*)$/gm)].flatMap((m) => (m[1] as string).split(" // "));
}

let built = false;

/** Compiles every example once (in .cache/examples, where `toolnexus-contract` resolves). */
function build(): void {
  if (built) {
    return;
  }
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  README_BLOCKS.forEach((block, i) => writeFileSync(join(WORK, `readme_${i}.ts`), block));
  for (const name of EXAMPLES) {
    writeFileSync(join(WORK, name), readFileSync(join(ROOT, "examples", "typescript", name)));
  }
  const tsconfig = { extends: "../../tsconfig.json", compilerOptions: { rootDir: ".", outDir: "out" }, include: ["*.ts"] };
  writeFileSync(join(WORK, "tsconfig.json"), JSON.stringify(tsconfig));
  try {
    execFileSync(join(HERE, "node_modules", ".bin", "tsc"), ["-p", join(WORK, "tsconfig.json"), "--pretty", "false"], { encoding: "utf8" });
  } catch (err) {
    throw new Error(`tsc --strict refused an example:\n${String((err as { stdout?: string }).stdout)}`);
  }
  built = true;
}

function run(name: string): string {
  build();
  return execFileSync("node", [join(WORK, "out", name.replace(/\.ts$/, ".js"))], { encoding: "utf8", cwd: WORK });
}

describe("the README's TypeScript section", () => {
  it("has blocks that define a tool, run a turn and resume a stored run", () => {
    assert.ok(README_BLOCKS.length >= 2);
    const all = README_BLOCKS.join("\n");
    for (const word of ["defineTool(", "runCalls(", "toJsonRunResult(", "resume(fromJsonRunResult(", "ResumeError"]) {
      assert.ok(all.includes(word), word);
    }
  });
  README_BLOCKS.forEach((block, i) => {
    it(`block ${i + 1} prints what its comments say`, () => {
      const want = expected(block);
      assert.ok(want.length > 0, "a block prints something it checks");
      assert.deepEqual(run(`readme_${i}.ts`).trimEnd().split("\n"), want);
    });
  });
});

describe("examples/typescript", () => {
  it("success_and_failure.ts (the seed's example 1) prints what upstream prints", () => {
    assert.equal(run("success_and_failure.ts"), "ok: 4 | cannot take the square root of -1\n");
  });
  for (const name of EXAMPLES) {
    it(`${name} runs`, () => {
      assert.match(run(name), /^ok: /);
    });
  }
});
