// The part and suspension helpers against the helper vectors of idl/helpers (the same cases
// Python and Rust run): trailing slashes and empty paths, URL schemes, MIME types with line
// breaks, bidi and control characters in names, fresh request ids.

import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { judgeHelperCase, listHelperCases, runHelperCase } from "./helpers.js";
import { ROOT } from "./paths.js";

const CASES = listHelperCases(join(ROOT, "idl", "helpers"));

describe("idl/helpers", () => {
  it("has cases for every helper", () => {
    assert.deepEqual(new Set(CASES.map((c) => c.helper)), new Set(["auth_required", "from_bytes", "from_path", "from_url", "pending"]));
  });
  for (const c of CASES) {
    it(`${c.helper}/${c.name}`, () => {
      assert.equal(judgeHelperCase(c, runHelperCase(c)), "pass");
    });
  }
});
