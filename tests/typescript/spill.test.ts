// Results kept whole (src/spill.ts): the directory and memory spills, the scope a kept result is
// read in, the read_result tool paging by code points, and a spill that fails (the cut stands, its
// marker naming no copy).

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { ToolResult } from "toolnexus-contract";
import { DirectorySpill, MemorySpill, Toolkit, defineTool, readResult, type ResultSpill } from "toolnexus-contract/runtime";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "toolnexus-spill-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const resultOf = (run: { results: readonly { result: ToolResult }[] }, i = 0): ToolResult => (run.results[i] as { result: ToolResult }).result;

describe("DirectorySpill", () => {
  it("keeps a text whole (emoji, CJK, a lone surrogate) and returns it in its scope only", () => {
    const spill = new DirectorySpill(join(dir, "kept"));
    const text = "😀 日本語 \uD800 \uFFFD end\n".repeat(100);
    spill.put({ session: "s1" }, "result-0123456789abcdef", text);
    assert.equal(spill.get({ session: "s1" }, "result-0123456789abcdef"), text);
    assert.equal(spill.get({ session: "s2" }, "result-0123456789abcdef"), undefined);
    assert.equal(spill.get({ principal: "p", session: "s1" }, "result-0123456789abcdef"), undefined);
    assert.equal(spill.get({ session: "s1" }, "result-0000000000000000"), undefined);
  });

  it("names each file as Python's DirectorySpill does, so the two share a directory", () => {
    const spill = new DirectorySpill(dir);
    spill.put({ session: "s1" }, "result-5cfb1f24533d9e2a", "x");
    spill.put({ principal: 'ü"x' }, "result-0", "y");
    // sha256 of `[null, "s1"]\nresult-5cfb1f24533d9e2a` and `["ü\"x", null]\nresult-0`, by Python
    assert.ok(existsSync(join(dir, "c2f900b9da7afd05ea644880967b1fed.txt")));
    assert.ok(existsSync(join(dir, "7f044f76e66bd76cd3b53b40cc517ae4.txt")));
  });
});

describe("DirectorySpill, reading what Python's wrote", () => {
  it("reads a lone surrogate as surrogatepass wrote it, and a byte that is not UTF-8 as U+FFFD", () => {
    const spill = new DirectorySpill(dir);
    const name = createHash("sha256").update('[null, null]\nresult-x').digest("hex").slice(0, 32);
    writeFileSync(join(dir, `${name}.txt`), Uint8Array.from([0x61, 0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0xc0, 0x80, 0x62]));
    assert.equal(spill.get({}, "result-x"), "a\uD800😀\uFFFD\uFFFD\uFFFDb");
  });
});

describe("read_result", () => {
  const long = Array.from({ length: 100 }, (_, i) => `line ${i} 😀\n`).join("");
  const tool = defineTool("long", "a long output", null, () => long);

  async function keptRef(kit: Toolkit, session: string): Promise<string> {
    const run = await kit.runCalls([{ id: "c1", name: "long", arguments: {} }], { turnId: "turn-1", session });
    const truncated = (resultOf(run).metadata ?? {})["truncated"] as { ref?: string };
    assert.match(resultOf(run).output, /the whole result is kept as "result-[0-9a-f]{16}"/);
    return truncated.ref as string;
  }

  it("pages through a kept result by code points, in the session it was kept in", async () => {
    const kit = new Toolkit([tool, readResult], { limit: { chars: 300 }, spill: new MemorySpill() });
    const ref = await keptRef(kit, "s1");
    const read = async (session: string, args: object): Promise<ToolResult> =>
      resultOf(await kit.runCalls([{ id: "r", name: "read_result", arguments: { ref, ...args } }], { session }));
    const page = await read("s1", { offset: 7, length: 12 }); // from the emoji of line 0
    assert.equal(page.output, `[${ref}: characters 7 to 19 of ${Array.from(long).length}]\n😀\nline 1 😀\nl`);
    const other = await read("s2", { offset: 0 });
    assert.equal(other.isError, true);
    assert.equal(other.output, `no result kept as "${ref}" can be read here: a kept result is read in the session, and by the principal, it was kept for`);
    const whole = await read("s1", {}); // 2000 code points by default, cut to the limit without a copy
    const truncated = (whole.metadata ?? {})["truncated"] as { ref?: string };
    assert.ok(truncated !== undefined && truncated.ref === undefined, JSON.stringify(whole.metadata));
    assert.match(whole.output, /\[… \d+ characters cut …\]/);
  });

  it("reads nothing without a spill", async () => {
    const kit = new Toolkit([readResult]);
    const run = await kit.runCalls([{ id: "r", name: "read_result", arguments: { ref: "result-0000000000000000" } }]);
    assert.equal(resultOf(run).isError, true);
  });

  it("keeps no copy when the spill fails: the cut stands, its marker naming none", async () => {
    const failing: ResultSpill = {
      put: () => Promise.reject(new Error("disk full")),
      get: () => undefined,
    };
    const warned: unknown[] = [];
    const warn = console.warn;
    console.warn = (...data: unknown[]) => void warned.push(data);
    try {
      const kit = new Toolkit([tool], { limit: { chars: 300 }, spill: failing });
      const result = resultOf(await kit.runCalls([{ id: "c1", name: "long", arguments: {} }]));
      assert.match(result.output, /\n\[… \d+ characters cut …\]\n/);
      assert.equal(((result.metadata ?? {})["truncated"] as { ref?: string }).ref, undefined);
      assert.equal(warned.length, 1);
    } finally {
      console.warn = warn;
    }
  });
});
