// The wire vectors in idl/examples through the generated package (valid ones re-emitted byte
// for byte, invalid ones rejected at the path their .path sidecar names), ajv agreeing with the
// parsers, and the two command-line tools the cross-language run uses.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { EXAMPLES, HERE } from "./paths.js";
import { listVectors, runVector, type Outcome } from "./vectors.js";

const CONFORMANCE = join(HERE, ".cache", "conformance.js");
const AJV_CHECK = join(HERE, "ajv_check.mjs");

function lines(script: string, dir: string): Outcome[] {
  const out = execFileSync(process.execPath, [script, dir], { encoding: "utf8", maxBuffer: 64 << 20 });
  return out.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Outcome);
}

/** The canonical bytes of a valid vector: its `canonical/` sidecar, or the file itself. */
function canonical(file: string): string {
  const sidecar = join(dirname(dirname(file)), "canonical", file.slice(dirname(file).length + 1));
  return readFileSync(existsSync(sidecar) ? sidecar : file, "utf8");
}

describe("idl/examples", { skip: !existsSync(EXAMPLES) && "idl/examples is missing" }, () => {
  const vectors = existsSync(EXAMPLES) ? listVectors(EXAMPLES) : [];

  it("has vectors of both kinds", () => {
    assert.ok(vectors.some((v) => v.kind === "valid"));
    assert.ok(vectors.some((v) => v.kind === "invalid"));
  });

  for (const v of vectors) {
    it(v.name, () => {
      const outcome = runVector(v);
      if (v.kind === "valid") {
        assert.ok(outcome.ok, outcome.ok ? "" : outcome.error);
        assert.equal(outcome.emitted + "\n", canonical(v.file));
      } else {
        assert.ok(!outcome.ok, "accepted");
        const sidecar = v.file.replace(/\.json$/, ".path");
        if (existsSync(sidecar)) {
          assert.equal(outcome.path, readFileSync(sidecar, "utf8").trim(), outcome.error);
        }
      }
    });
  }

  it("ajv agrees with the parsers on every vector, and on where an invalid one fails", () => {
    const ours = new Map(lines(CONFORMANCE, EXAMPLES).map((o) => [o.vector, o]));
    const theirs = lines(AJV_CHECK, EXAMPLES);
    assert.equal(theirs.length, ours.size);
    for (const a of theirs) {
      const o = ours.get(a.vector);
      assert.ok(o !== undefined, a.vector);
      assert.equal(a.ok, o.ok, `${a.vector}: ajv ${JSON.stringify(a)}, parser ${JSON.stringify(o)}`);
      assert.equal(a.ok, a.vector.split("/")[1] === "valid", a.vector);
      if (!a.ok && !o.ok) {
        assert.equal(a.path, o.path, a.vector);
      }
    }
  });
});

describe("conformance.js and ajv_check.mjs", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-vectors-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const put = (rel: string, bytes: string | Uint8Array): void => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), bytes);
  };
  put("ToolResult/valid/a.json", '{"output":"x","parts":[],"metadata":{"n":123456789012345678901234567890}}\n');
  put("ToolResult/valid/b.json", '{"output":"é","isError":true}');
  put("ToolResult/valid/notes.txt", "not a vector");
  put("ToolResult/invalid/bom.json", "\ufeff{\"output\":\"x\"}");
  put("ToolResult/invalid/latin1.json", Uint8Array.from([0x7b, 0x22, 0x6f, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]));
  put("ToolResult/invalid/wrong.json", '{"output":"x","isError":"no"}');
  put("Answer/invalid/missing.json", '{"id":"a"}');
  put("README.md", "# not a type");

  it("print one JSON line per .json vector, in order", () => {
    assert.deepEqual(lines(CONFORMANCE, dir), [
      { vector: "Answer/invalid/missing.json", ok: false, error: '$: expected an object with the required key "ok", got one without it', path: "$" },
      { vector: "ToolResult/valid/a.json", ok: true, emitted: '{"output":"x","isError":false,"metadata":{"n":123456789012345678901234567890}}' },
      { vector: "ToolResult/valid/b.json", ok: true, emitted: '{"output":"é","isError":true}' },
      { vector: "ToolResult/invalid/bom.json", ok: false, error: '$: expected JSON text, got "\ufeff" at offset 0', path: "$" },
      { vector: "ToolResult/invalid/latin1.json", ok: false, error: "$: expected UTF-8 text, got bytes that are not UTF-8", path: "$" },
      { vector: "ToolResult/invalid/wrong.json", ok: false, error: '$.isError: expected a boolean, got the string "no"', path: "$.isError" },
    ]);
  });

  it("ajv_check.mjs gives the schema's verdicts in the same format", () => {
    const got = lines(AJV_CHECK, dir).map((o) => [o.vector, o.ok, o.ok ? "" : o.path]);
    assert.deepEqual(got, [
      ["Answer/invalid/missing.json", false, "$"],
      ["ToolResult/valid/a.json", true, ""],
      ["ToolResult/valid/b.json", true, ""],
      ["ToolResult/invalid/bom.json", false, "$"],
      ["ToolResult/invalid/latin1.json", false, "$"],
      ["ToolResult/invalid/wrong.json", false, "$.isError"],
    ]);
  });
});
