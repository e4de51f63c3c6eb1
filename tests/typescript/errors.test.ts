// The error tree (support/typescript/src/errors.ts): one root, and a marker that survives realms
// and duplicate copies of the package, so the static guards work where `instanceof` does not.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runInNewContext } from "node:vm";
import { fromJsonToolResult } from "toolnexus-contract";
import { ResumeError, ToolnexusError, WireError } from "toolnexus-contract/runtime";

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (error) {
    return error;
  }
  assert.fail("nothing was thrown");
}

describe("the error tree", () => {
  it("roots every error toolnexus throws", () => {
    const wire = thrown(() => fromJsonToolResult("{"));
    const resume = new ResumeError("seal", "altered");
    assert.ok(wire instanceof WireError && wire instanceof ToolnexusError && wire instanceof Error);
    assert.ok(resume instanceof ToolnexusError);
    assert.ok(ToolnexusError.isToolnexusError(wire) && ToolnexusError.isToolnexusError(resume));
    assert.ok(WireError.isWireError(wire) && !WireError.isWireError(resume));
    assert.ok(ResumeError.isResumeError(resume) && !ResumeError.isResumeError(wire));
    assert.equal(resume.name, "ResumeError");
    assert.equal(resume.reason, "seal");
  });

  it("is recognised across realms, where instanceof fails", () => {
    // An error made in another realm (a vm context: as an iframe or a second copy of the package
    // would make it) carries the same Symbol.for marker.
    const foreign = runInNewContext(
      'const e = new Error("altered"); e[Symbol.for("toolnexus.error")] = ["ToolnexusError", "ResumeError"]; e',
    ) as unknown;
    assert.ok(!(foreign instanceof ResumeError));
    assert.ok(ResumeError.isResumeError(foreign) && ToolnexusError.isToolnexusError(foreign));
    assert.ok(!WireError.isWireError(foreign));
    for (const other of [new Error("x"), null, undefined, "ResumeError", { name: "ResumeError" }]) {
      assert.ok(!ToolnexusError.isToolnexusError(other));
    }
  });

  it("keeps the cause", () => {
    const cause = new Error("disk full");
    assert.equal(new ResumeError("not_pending", "gone", { cause }).cause, cause);
  });
});
