// Examples are tests: the ```ts blocks of the docs (README.md and every page under docs/ but the
// generated docs/reference/, as tests/doc_examples.py lists them) and examples/typescript/*.ts
// compile under tsc --strict (importing the package by name, as a user does) and run with node.
// A block's line `console.log(...); // X` must print X (`// X // Y`: the line prints X, then Y);
// the seed's example 1 prints what upstream prints.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { HERE, ROOT } from "./paths.js";

const WORK = join(HERE, ".cache", "examples");

/** README.md, then every Markdown page under docs/ (sorted) but docs/reference/. */
function pages(): string[] {
  const docs = join(ROOT, "docs");
  const found = (readdirSync(docs, { recursive: true }) as string[])
    .filter((p) => p.endsWith(".md") && !p.startsWith(`reference/`))
    .map((p) => join(docs, p))
    .sort();
  return [join(ROOT, "README.md"), ...found];
}

/** Every ```ts block of the pages: its page and fence line (for the test's name) and its code. */
const BLOCKS = pages().flatMap((page) => {
  const text = readFileSync(page, "utf8");
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => ({
    name: `${relative(ROOT, page)}:${text.slice(0, m.index).split("\n").length}`,
    code: m[1] as string,
  }));
});
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
  BLOCKS.forEach((block, i) => writeFileSync(join(WORK, `doc_${i}.ts`), block.code));
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

describe("the TypeScript blocks of the docs", () => {
  it("are in the README and the TypeScript guide, and define a tool, run a turn and resume a stored run", () => {
    assert.ok(BLOCKS.some((b) => b.name.startsWith("README.md:")), "README.md has no ts block");
    const guide = BLOCKS.filter((b) => b.name.startsWith("docs/guides/typescript.md:"));
    assert.ok(guide.length >= 2, "docs/guides/typescript.md has fewer than two ts blocks");
    const all = guide.map((b) => b.code).join("\n");
    for (const word of ["defineTool(", "runCalls(", "toJsonRunResult(", "resume(fromJsonRunResult(", "ResumeError"]) {
      assert.ok(all.includes(word), word);
    }
  });
  BLOCKS.forEach((block, i) => {
    it(`${block.name} prints what its comments say`, () => {
      const want = expected(block.code);
      assert.ok(want.length > 0, "a block prints something it checks");
      assert.deepEqual(run(`doc_${i}.ts`).trimEnd().split("\n"), want);
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
