// An independent check of the wire vectors: the bundled JSON Schema
// (generated/jsonschema/toolnexus.schema.json, types under $defs/<Type>) run by ajv.
//
//   node tests/typescript/ajv_check.mjs <examples-dir>
//
// Prints one JSON line per vector of <examples-dir>/<Type>/{valid,invalid}/*.json:
//   {"vector":"ToolResult/valid/x.json","ok":true}
//   {"vector":"ToolResult/invalid/y.json","ok":false,"error":"<ajv's message>","path":"$.isError"}
// `ok` is the schema's verdict; a file that is not UTF-8 (or has a BOM) or not JSON is rejected at `$`.
//
// "Not JSON" is what every toolnexus language refuses before its schema, as JSON Schema cannot say
// it (tests/conformance.py does the same for the jsonschema column): text `JSON.parse` refuses,
// and, as JSON.parse lets them through, a lone surrogate in a string or key (`"\ud800"`), a
// number beyond the range of a double (`1e400`, which JSON.parse reads as Infinity) and arrays
// and objects nested more than MAX_DEPTH levels deep (the document itself being level 1), and an
// object that repeats a key (JSON.parse keeps the last value). These
// rules are checked here, over what JSON.parse returns, apart from the package's reader, so that
// this check stays independent of the code it checks.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";

const BUNDLE = new URL("../../generated/jsonschema/toolnexus.schema.json", import.meta.url);

const dir = process.argv[2];
if (dir === undefined || process.argv.length !== 3 || !existsSync(dir)) {
  process.stderr.write("usage: node ajv_check.mjs <examples-dir>\n");
  process.exit(2);
}

const bundle = JSON.parse(readFileSync(BUNDLE, "utf8"));
// Strict mode, with nothing added: the bundle uses no keyword of its own and no union of
// types, so Ajv's strictest settings take it as it is. Every error, so that one of a field
// comes before the requirement it makes fail (a part whose `data` is a number has no `data`
// string either): the languages check requirements last.
const ajv = new Ajv2020({ strict: true, allErrors: true });
ajv.addSchema(bundle);

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The deepest nesting the wire allows (MAX_DEPTH in every language). */
const MAX_DEPTH = 100;

/** Why `doc` (from JSON.parse) breaks a JSON-level rule, or undefined. Iterative: no depth limit of its own. */
function notJson(doc) {
  const stack = [[doc, 1]];
  while (stack.length > 0) {
    const [value, level] = stack.pop();
    if (typeof value === "number") {
      if (!Number.isFinite(value)) {
        return "a number beyond the range of a double";
      }
    } else if (typeof value === "string") {
      if (!value.isWellFormed()) {
        return "a string with a lone surrogate";
      }
    } else if (typeof value === "object" && value !== null) {
      if (level > MAX_DEPTH) {
        return `arrays and objects nested more than ${MAX_DEPTH} levels deep`;
      }
      if (Array.isArray(value)) {
        for (const item of value) {
          stack.push([item, level + 1]);
        }
      } else {
        for (const [key, item] of Object.entries(value)) {
          if (!key.isWellFormed()) {
            return "a key with a lone surrogate";
          }
          stack.push([item, level + 1]);
        }
      }
    }
  }
  return undefined;
}

/**
 * Whether an object of `text` (valid JSON: JSON.parse read it) names a key twice, which JSON.parse
 * hides by keeping the last value. A scan of its own: strings are decoded by JSON.parse, so that
 * `"k"` and `"\u006b"` are one key.
 */
function repeatsAKey(text) {
  const open = []; // per enclosing container: the keys seen, or null for an array
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{") {
      open.push(new Set());
    } else if (c === "[") {
      open.push(null);
    } else if (c === "}" || c === "]") {
      open.pop();
    } else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') {
        end += text[end] === "\\" ? 2 : 1;
      }
      let next = end + 1;
      while (" \t\r\n".includes(text[next])) {
        next++;
      }
      const keys = open.at(-1);
      if (text[next] === ":" && keys) {
        const key = JSON.parse(text.slice(i, end + 1));
        if (keys.has(key)) {
          return true;
        }
        keys.add(key);
      }
      i = end;
    }
  }
  return false;
}

/** `/parts/0/mimeType` (a JSON pointer into `doc`) as `$.parts[0].mimeType`. */
function jsonPath(doc, pointer) {
  let path = "$";
  let node = doc;
  for (const raw of pointer === "" ? [] : pointer.slice(1).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(node)) {
      path += `[${key}]`;
    } else {
      path += /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
    }
    node = node?.[key];
  }
  return path;
}

/** Whether `error` comes from a type's requirements: the IDL's `allOf` of `if`/`then`. */
function requirement(error) {
  return error.schemaPath.includes("/allOf/");
}

/**
 * The instance path every language names for `error`: a type's requirements (its `allOf` of
 * `if`/`then`) are checked on the object, so an error inside one is at the object's path (the
 * steps that `properties` added inside the `allOf` are taken off).
 */
function objectOf(error) {
  const at = error.schemaPath.lastIndexOf("/allOf/");
  if (at < 0) {
    return error.instancePath;
  }
  const drop = error.schemaPath.slice(at).split("/").filter((step) => step === "properties").length;
  const steps = error.instancePath.split("/");
  return steps.slice(0, steps.length - drop).join("/");
}

function check(type, file) {
  const validate = ajv.getSchema(`${bundle.$id}#/$defs/${type}`);
  if (validate === undefined) {
    return { ok: false, error: `the bundle has no $defs/${type}`, path: "$" };
  }
  let doc;
  let text;
  try {
    text = utf8.decode(readFileSync(file));
    doc = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `not UTF-8 JSON: ${err.message}`, path: "$" };
  }
  const why = repeatsAKey(text) ? "an object repeats a key" : notJson(doc);
  if (why !== undefined) {
    return { ok: false, error: `not JSON: ${why}`, path: "$" };
  }
  if (validate(doc)) {
    return { ok: true };
  }
  const first = validate.errors.find((e) => !requirement(e)) ?? validate.errors[0];
  const path = jsonPath(doc, objectOf(first));
  return { ok: false, error: `${path}: ${first.message}`, path };
}

let out = "";
for (const type of readdirSync(dir).sort()) {
  if (!statSync(join(dir, type)).isDirectory()) {
    continue;
  }
  for (const kind of ["valid", "invalid"]) {
    const folder = join(dir, type, kind);
    if (!existsSync(folder)) {
      continue;
    }
    for (const name of readdirSync(folder).filter((n) => n.endsWith(".json")).sort()) {
      out += JSON.stringify({ vector: `${type}/${kind}/${name}`, ...check(type, join(folder, name)) }) + "\n";
    }
  }
}
process.stdout.write(out);
