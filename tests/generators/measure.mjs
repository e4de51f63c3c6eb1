// The JavaScript tools of tests/wire/test_generators.py, run on a bundled schema as their users
// would run them, over every wire vector:
//
//   node measure.mjs <bundle.json> <examples-dir> <work-dir>
//
// Prints one JSON line per tool, `{"tool", "accepts", "note"}`, and one per tool and vector,
// `{"tool", "vector": "Type/valid/x.json", "ok", "emitted"?}`:
//
// - ajv: Ajv 2020 with `strict: true` and nothing added; a vector is JSON.parse'd and validated
//   against `<$id>#/$defs/<Type>`. No emitter.
// - json-schema-to-typescript: the types it writes, and tsc (strict) over each vector written as
//   a literal of its type. Types only: no parser, no emitter. It does not accept the schema when
//   it fails, or when it writes a type twice (`ToolResult` and `ToolResult1`).
// - quicktype-ts: quicktype's TypeScript with its run-time checks (`Convert`); a vector is read
//   with the check of its type and written back with JSON.stringify of what it gives.
// Also writes quicktype's Rust for the same schema to <work-dir>/quicktype.rs (the Rust runner).

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { compile } from "json-schema-to-typescript";
import { FetchingJSONSchemaStore, InputData, JSONSchemaInput, quicktype } from "quicktype-core";

const [bundlePath, examples, work] = process.argv.slice(2).map((p) => resolve(p));
mkdirSync(work, { recursive: true });
const bundleText = readFileSync(bundlePath, "utf8");
const bundle = JSON.parse(bundleText);
const here = new URL(".", import.meta.url).pathname;
const tsc = join(here, "node_modules", ".bin", "tsc");
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const vectors = [];
for (const type of readdirSync(examples).sort()) {
  for (const kind of ["valid", "invalid"]) {
    const folder = join(examples, type, kind);
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder).filter((n) => n.endsWith(".json")).sort()) {
      let text;
      try {
        text = utf8.decode(readFileSync(join(folder, name)));
      } catch {
        text = undefined;
      }
      vectors.push({ type, id: `${type}/${kind}/${name}`, text });
    }
  }
}

const lines = [];
const say = (row) => lines.push(JSON.stringify(row));
const parse = (text) => {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
};

// ---------------------------------------------------------------------------------- Ajv

{
  let validate;
  try {
    const ajv = new Ajv2020({ strict: true });
    ajv.addSchema(bundle);
    const compiled = new Map(
      Object.keys(bundle.$defs).map((type) => [type, ajv.getSchema(`${bundle.$id}#/$defs/${type}`)]),
    );
    validate = (type) => compiled.get(type);
    say({ tool: "ajv", accepts: true, note: "" });
  } catch (err) {
    say({ tool: "ajv", accepts: false, note: String(err.message).split("\n")[0].slice(0, 160) });
  }
  if (validate !== undefined) {
    for (const v of vectors) {
      const doc = v.text === undefined ? undefined : parse(v.text);
      say({ tool: "ajv", vector: v.id, ok: doc !== undefined && validate(v.type)(doc.value) === true });
    }
  }
}

// ---------------------------------------------------------------------- json-schema-to-typescript

{
  let types;
  let note = "";
  try {
    types = await compile(bundle, bundle.title ?? "Root", { bannerComment: "", cwd: work, additionalProperties: true });
  } catch (err) {
    note = String(err.message).split("\n")[0].slice(0, 160);
  }
  if (types !== undefined) {
    const names = [...types.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
    const twice = names.filter((n) => /\d$/.test(n) && names.includes(n.replace(/\d+$/, "")));
    if (twice.length > 0) note = `writes types twice: ${twice.join(", ")}`;
    const missing = Object.keys(bundle.$defs).filter((n) => !names.includes(n));
    if (missing.length > 0) note = `${note ? note + "; " : ""}no type for ${missing.join(", ")}`;
  }
  say({ tool: "json-schema-to-typescript", accepts: types !== undefined && note === "", note });
  if (types !== undefined) {
    writeFileSync(join(work, "json2ts.ts"), types);
    const check = ['import type * as T from "./json2ts.js";'];
    const lineOf = new Map();
    for (const [i, v] of vectors.entries()) {
      const doc = v.text === undefined ? undefined : parse(v.text);
      if (doc === undefined) continue;
      lineOf.set(check.length + 1, v.id);
      // U+2028 and U+2029 end a line for tsc's line numbers: escaped, so each vector is one line.
      const literal = JSON.stringify(doc.value).replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
      check.push(`export const v${i}: T.${v.type} = ${literal};`);
    }
    writeFileSync(join(work, "json2ts_check.ts"), check.join("\n") + "\n");
    let out = "";
    try {
      execFileSync(tsc, ["--noEmit", "--strict", "--skipLibCheck", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext", join(work, "json2ts_check.ts")], { encoding: "utf8" });
    } catch (err) {
      out = String(err.stdout);
    }
    const failed = new Set();
    for (const m of out.matchAll(/json2ts_check\.ts\((\d+),\d+\)/g)) failed.add(lineOf.get(Number(m[1])));
    for (const v of vectors) {
      const compiled = [...lineOf.values()].includes(v.id) && !failed.has(v.id);
      say({ tool: "json-schema-to-typescript", vector: v.id, ok: compiled });
    }
  }
}

// ---------------------------------------------------------------------------------- quicktype

async function quicktypeFor(lang, rendererOptions) {
  const input = new JSONSchemaInput(new FetchingJSONSchemaStore());
  // The root reaches every type, so one source gives each type one class.
  await input.addSource({ name: bundle.title ?? "Root", schema: bundleText });
  const data = new InputData();
  data.addInput(input);
  return (await quicktype({ inputData: data, lang, rendererOptions })).lines.join("\n");
}

for (const [tool, lang, options] of [
  ["quicktype-ts", "typescript", {}],
  ["quicktype-rust", "rust", { visibility: "public", "derive-debug": "true" }],
]) {
  let code;
  let note = "";
  try {
    code = await quicktypeFor(lang, options);
    const missing = Object.keys(bundle.$defs).filter((n) => !new RegExp(`(interface|struct) ${n} `).test(code));
    if (missing.length > 0) note = `no type for ${missing.join(", ")}`;
  } catch (err) {
    note = String(err.message).split("\n")[0].slice(0, 160);
  }
  if (lang === "rust") {
    // The Rust runner compiles it; it says whether the tool accepts the schema.
    writeFileSync(join(work, "quicktype.rs"), code ?? "");
    say({ tool, accepts: code !== undefined && note === "", note, pending: "rust" });
    continue;
  }
  say({ tool, accepts: code !== undefined && note === "", note });
  if (code === undefined) continue;
  // The run-time checks quicktype writes, reached by type name as its `Convert` does.
  code += `
export function parseAs(name: string, json: string): any { return cast(JSON.parse(json), r(name)); }
export function emitAs(name: string, value: any): string { return JSON.stringify(uncast(value, r(name))); }
`;
  writeFileSync(join(work, "quicktype.ts"), code);
  execFileSync(tsc, ["--noCheck", "--skipLibCheck", "--target", "es2022", "--module", "es2022", "--outDir", join(work, "qt"), join(work, "quicktype.ts")]);
  writeFileSync(join(work, "qt", "package.json"), '{"type":"module"}');
  const qt = await import(join(work, "qt", "quicktype.js"));
  for (const v of vectors) {
    if (v.text === undefined) {
      say({ tool, vector: v.id, ok: false });
      continue;
    }
    try {
      const value = qt.parseAs(v.type, v.text);
      say({ tool, vector: v.id, ok: true, emitted: qt.emitAs(v.type, value) });
    } catch {
      say({ tool, vector: v.id, ok: false });
    }
  }
}

process.stdout.write(lines.join("\n") + "\n");
