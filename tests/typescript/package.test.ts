// The package itself: its package.json (generated), its tsconfig, the generated sources linked in
// behind the DO NOT EDIT header, the compiler pin shared with this folder's package.json, and its
// public names.

import assert from "node:assert/strict";
import { lstatSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import * as wire from "toolnexus-contract";
import { HERE, PACKAGE, ROOT } from "./paths.js";

interface PackageJson {
  [key: string]: unknown;
  devDependencies: { [name: string]: string };
}

const generated = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as PackageJson;
const tests = JSON.parse(readFileSync(join(HERE, "package.json"), "utf8")) as PackageJson;

describe("support/typescript (the package)", () => {
  it("is the ES module package toolnexus-contract, versioned as the schema", () => {
    assert.equal(generated["name"], "toolnexus-contract");
    assert.equal(generated["type"], "module");
    assert.equal(generated["version"], wire.SCHEMA_VERSION);
    const manifest = JSON.parse(readFileSync(join(ROOT, "idl", "manifest.json"), "utf8")) as { version: string };
    assert.equal(generated["version"], manifest.version);
    assert.match(String(generated["//"]), /DO NOT EDIT/);
    assert.equal(generated["license"], "MIT");
    assert.deepEqual(generated["engines"], { node: ">=20.19" });
  });

  it("packs dist/ built by prepack, with exports for import and require(esm), the runtime apart", () => {
    assert.deepEqual(generated["files"], ["dist"]);
    assert.deepEqual(generated["exports"], {
      ".": { types: "./dist/index.d.ts", import: "./dist/index.js", default: "./dist/index.js" },
      "./runtime": { types: "./dist/runtime.d.ts", import: "./dist/runtime.js", default: "./dist/runtime.js" },
      "./engine": { types: "./dist/engine-entry.d.ts", import: "./dist/engine-entry.js", default: "./dist/engine-entry.js" },
      "./mcp": { types: "./dist/mcp.d.ts", import: "./dist/mcp.js", default: "./dist/mcp.js" },
      "./store": { types: "./dist/store/index.d.ts", import: "./dist/store/index.js", default: "./dist/store/index.js" },
      ...Object.fromEntries(
        ["anthropic", "gemini", "mcp", "openai"].map((n) => [`./adapters/${n}`, { types: `./dist/adapters/${n}.d.ts`, import: `./dist/adapters/${n}.js`, default: `./dist/adapters/${n}.js` }]),
      ),
      ...Object.fromEntries(
        ["ai-sdk", "openai-agents"].map((n) => [`./${n}`, { types: `./dist/bridges/${n}.d.ts`, import: `./dist/bridges/${n}.js`, default: `./dist/bridges/${n}.js` }]),
      ),
      "./package.json": "./package.json",
    });
    assert.equal(generated["main"], "./dist/index.js");
    assert.equal(generated["types"], "./dist/index.d.ts");
    const scripts = generated["scripts"] as { [name: string]: string };
    assert.match(scripts["prepack"] ?? "", /npm run build/);
    assert.equal(scripts["build"], "tsc -p tsconfig.json");
  });

  it("ships a README and an MIT LICENSE", () => {
    const license = readFileSync(join(PACKAGE, "LICENSE"), "utf8");
    assert.match(license, /^MIT License\n\nCopyright \(c\) 2026 the toolnexus-contract authors\n/);
    const readme = readFileSync(join(PACKAGE, "README.md"), "utf8");
    assert.match(readme, /^<!-- Generated from idl\/ .*-->\n<!-- Regenerate with `make gen`.* DO NOT EDIT\. -->\n/);
    for (const word of ["npm install toolnexus-contract", "ES modules only", "Node.js 20.19", "fromJsonToolResult", "toJsonToolResult", "pendingOf", "WireError", "extraKeys"]) {
      assert.ok(readme.includes(word), word);
    }
  });

  it("pins the runtime's dependencies exactly, as tests/typescript does", () => {
    const deps = generated["dependencies"] as { [name: string]: string };
    assert.deepEqual(Object.keys(deps).sort(), ["ajv", "canonicalize"]);
    for (const [name, version] of Object.entries(deps)) {
      assert.match(version, /^[0-9]+\.[0-9]+\.[0-9]+$/, name);
      assert.equal(tests.devDependencies[name], version, name);
    }
  });

  it("lists the adapters' SDKs and the stores' drivers as optional peers, from the version tests/typescript pins and tests", () => {
    const peers = generated["peerDependencies"] as { [name: string]: string };
    // The bridges' frameworks too (src/bridges/): the AI SDK in the two majors it is tested with
    // (7 as `ai`, 6 as the alias `ai-v6`), the Agents SDK in its one.
    assert.deepEqual(Object.keys(peers).sort(), ["@anthropic-ai/sdk", "@google/genai", "@modelcontextprotocol/sdk", "@openai/agents", "ai", "better-sqlite3", "openai", "pg"]);
    assert.equal(peers["ai"], `^${(tests.devDependencies["ai-v6"] ?? "?").replace("npm:ai@", "")} || ^${tests.devDependencies["ai"] ?? "?"}`);
    for (const [name, range] of Object.entries(peers)) {
      if (name === "ai") {
        assert.equal(generated.devDependencies[name], tests.devDependencies[name], name);
        continue;
      }
      assert.equal(range, `^${tests.devDependencies[name] ?? "?"}`, name);
      // npm installs no optional peer, so the package's own build (npm pack) has them as dev dependencies.
      assert.equal(generated.devDependencies[name], tests.devDependencies[name], name);
    }
    const meta = generated["peerDependenciesMeta"] as { [name: string]: { optional: boolean } };
    assert.deepEqual(Object.keys(meta).sort(), Object.keys(peers).sort());
    assert.ok(Object.values(meta).every((m) => m.optional));
  });

  it("pins the same TypeScript as tests/typescript, exactly", () => {
    const pin = generated.devDependencies["typescript"];
    assert.match(String(pin), /^[0-9]+\.[0-9]+\.[0-9]+$/);
    assert.equal(tests.devDependencies["typescript"], pin);
    for (const version of Object.values(tests.devDependencies)) {
      assert.match(version, /^(npm:[a-z@/.-]+@)?[0-9]+\.[0-9]+\.[0-9]+$/, "dev dependencies are pinned exactly");
    }
  });

  it("compiles under strict", () => {
    const tsconfig = readFileSync(join(PACKAGE, "tsconfig.json"), "utf8");
    assert.match(tsconfig, /"strict": true/);
  });

  it("links the generated sources in from generated/, each behind the header, and holds the rest by hand", () => {
    const generatedSrc = realpathSync(join(ROOT, "generated", "typescript", "src"));
    const linked: string[] = [];
    for (const f of readdirSync(join(PACKAGE, "src"), { recursive: true }) as string[]) {
      const path = join(PACKAGE, "src", f);
      if (lstatSync(path).isDirectory()) {
        continue; // src/adapters/: its files are listed too
      }
      const text = readFileSync(path, "utf8");
      if (lstatSync(path).isSymbolicLink()) {
        linked.push(f);
        assert.equal(dirname(realpathSync(path)), generatedSrc, f);
        assert.match(text, /^\/\/ Generated from idl\/ .*\n\/\/ Regenerate with `make gen`.* DO NOT EDIT\.\n/, f);
        assert.doesNotMatch(text, /\/work\/|\/home\/|\/tmp\/|\b20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:/, f);
      } else {
        assert.doesNotMatch(text, /DO NOT EDIT/, `${f} is hand-written: no generated copy`);
      }
    }
    assert.deepEqual(linked.sort(), ["codec.ts", "index.ts", "loop.ts", "types.ts"]);
  });

  it("exports exactly these names", () => {
    // The wire types come from the IDL, so a type added there is expected here without an edit.
    const manifest = JSON.parse(readFileSync(join(ROOT, "idl", "manifest.json"), "utf8")) as { types: string[] };
    const types = manifest.types;
    const expected = [
      "AUTHORIZATION_PROMPT",
      "DEFAULT_MAX_BYTES",
      "JsonNumber",
      "MAX_DEPTH",
      "SCHEMA_VERSION",
      "WireError",
      "authRequired",
      "extraKeys",
      "fromBytes",
      "fromPath",
      "fromUrl",
      "kindFor",
      "sniffMime",
      "text",
      ...types.flatMap((t) => [`fromJson${t}`, `parse${t}`, `toJson${t}`, `toWire${t}`]),
      "pending",
      "pendingOf",
      "readJson",
      "writeJson",
    ].sort();
    assert.deepEqual(Object.keys(wire).sort(), expected);
  });
});
