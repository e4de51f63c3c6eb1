// A handler's thrown error, for the host: logged with its stack (setToolLogger; the console by
// default) and handed to ctx.onError and the toolkit's onError; the model reads only its message.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { afterEach, describe, it } from "node:test";
import { toJsonToolResult } from "toolnexus-contract";
import { Toolkit, defineTool, setToolLogger, type ToolLogger } from "toolnexus-contract/runtime";
import { HERE } from "./paths.js";

function failingHandler(): never {
  throw new RangeError("the disk is full");
}

function capture(): { logged: [string, unknown][]; logger: ToolLogger } {
  const logged: [string, unknown][] = [];
  return { logged, logger: { error: (message, error) => logged.push([message, error]) } };
}

afterEach(() => {
  setToolLogger(undefined);
});

describe("a handler's thrown error", () => {
  it("is logged with its stack; the result carries its message only", async () => {
    const { logged, logger } = capture();
    setToolLogger(logger);
    const result = await defineTool("save", "", null, failingHandler).call({});
    assert.deepEqual(result, { output: "the disk is full", isError: true, parts: [] });
    assert.equal(logged.length, 1);
    const [message, error] = logged[0] ?? [];
    assert.equal(message, "tool save raised RangeError");
    assert.ok(error instanceof RangeError);
    assert.match(error.stack ?? "", /failingHandler/);
    assert.doesNotMatch(toJsonToolResult(result), /failingHandler|at /);
  });

  it("reaches ctx.onError and the toolkit's onError, with the call's id", async () => {
    const seen: unknown[] = [];
    const tool = defineTool("save", "", null, failingHandler);
    await tool.call({}, { callId: "c0", onError: (error, where) => seen.push([where, (error as Error).message]) });
    const kit = new Toolkit([tool], { onError: (callId, name, error) => seen.push([callId, name, (error as Error).stack?.includes("failingHandler")]) });
    const run = await kit.runCalls([{ id: "c1", name: "save", arguments: {} }]);
    assert.equal(run.results[0]?.result.output, "the disk is full");
    assert.deepEqual(seen, [[{ tool: "save", callId: "c0" }, "the disk is full"], ["c1", "save", true]]);
  });

  it("undefined logs nothing; setToolLogger returns the logger it replaces", async () => {
    const { logged, logger } = capture();
    assert.equal(setToolLogger(logger), undefined); // as afterEach left it
    assert.equal(setToolLogger(undefined), logger);
    await defineTool("save", "", null, failingHandler).call({});
    assert.deepEqual(logged, []);
  });

  it("a logger or listener that throws leaves the result as it is; a call already timed out logs nothing", async () => {
    setToolLogger({
      error: () => {
        throw new Error("logger down");
      },
    });
    const result = await defineTool("save", "", null, failingHandler).call({}, { onError: () => { throw new Error("listener down"); } });
    assert.equal(result.output, "the disk is full");
    const { logged, logger } = capture();
    setToolLogger(logger);
    const slow = defineTool("slow", "", null, (_args, ctx) => new Promise((_, reject) => ctx.signal?.addEventListener("abort", () => reject(new Error("aborted")))));
    assert.equal((await slow.call({}, { timeout: 0.01 })).output, "slow timed out after 0.01 s");
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(logged, []);
  });
});

describe("the default logger", () => {
  it("is the console's error: the message, then the error with its stack", () => {
    const script = `import { defineTool } from "toolnexus-contract/runtime";
      const r = await defineTool("save", "", null, function failing() { throw new Error("full"); }).call({});
      console.log(r.output);`;
    const proc = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: HERE, encoding: "utf8" });
    assert.equal(proc.stdout, "full\n");
    assert.match(proc.stderr, /^tool save raised Error Error: full\n\s+at (\S+\.)?failing /);
  });
});
