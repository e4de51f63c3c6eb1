// The generated package itself: its package.json, its tsconfig, the DO NOT EDIT header, the
// compiler pin shared with this folder's package.json, and its public names.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import * as wire from "@toolnexus/wire";
import { HERE, PACKAGE } from "./paths.js";

interface PackageJson {
  [key: string]: unknown;
  devDependencies: { [name: string]: string };
}

const generated = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as PackageJson;
const tests = JSON.parse(readFileSync(join(HERE, "package.json"), "utf8")) as PackageJson;

describe("generated/typescript", () => {
  it("is the ES module package @toolnexus/wire", () => {
    assert.equal(generated["name"], "@toolnexus/wire");
    assert.equal(generated["type"], "module");
    assert.equal(generated["version"], wire.SCHEMA_VERSION);
    assert.match(String(generated["//"]), /DO NOT EDIT/);
  });

  it("pins the same TypeScript as tests/typescript, exactly", () => {
    const pin = generated.devDependencies["typescript"];
    assert.match(String(pin), /^[0-9]+\.[0-9]+\.[0-9]+$/);
    assert.equal(tests.devDependencies["typescript"], pin);
    for (const version of Object.values(tests.devDependencies)) {
      assert.match(version, /^[0-9]+\.[0-9]+\.[0-9]+$/, "dev dependencies are pinned exactly");
    }
  });

  it("compiles under strict", () => {
    const tsconfig = readFileSync(join(PACKAGE, "tsconfig.json"), "utf8");
    assert.match(tsconfig, /"strict": true/);
  });

  it("starts every source file with the header, without timestamps or absolute paths", () => {
    const files = ["tsconfig.json", ...readdirSync(join(PACKAGE, "src")).map((f) => join("src", f))];
    for (const f of files) {
      const text = readFileSync(join(PACKAGE, f), "utf8");
      assert.match(text, /^\/\/ Generated from idl\/ .*\n\/\/ Regenerate with `make gen`.* DO NOT EDIT\.\n/, f);
      assert.doesNotMatch(text, /\/work\/|\/home\/|\/tmp\/|\b20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:/, f);
    }
  });

  it("exports exactly these names", () => {
    const types = ["Answer", "ContentPart", "Request", "RunResult", "ToolCall", "ToolCallResult", "ToolResult", "ToolSpec"];
    const expected = [
      "AUTHORIZATION_PROMPT",
      "JsonNumber",
      "SCHEMA_VERSION",
      "WireError",
      "authRequired",
      ...types.flatMap((t) => [`fromJson${t}`, `parse${t}`, `toJson${t}`, `toWire${t}`]),
      "pending",
      "pendingOf",
      "readJson",
      "writeJson",
    ].sort();
    assert.deepEqual(Object.keys(wire).sort(), expected);
  });
});
