// Generated from idl/ (deep schema 0.3.0, sha256 4dc98f140ed7c0ffdcb8df9a9b23e58b0b4ab442c36ab15e0be5a35f0940376b).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// A parser, an emitter and their JSON-text forms per wire type. Parsers accept exactly what
// the JSON Schema accepts and keep unknown keys; emitters write the wire form: keys in schema
// order, then unknown keys in their order, absent optional fields omitted (never null), empty
// optional arrays and strings whose default is "" omitted, other fields with a default always
// written.

import {
  expectArray,
  expectEnum,
  expectObject,
  expectString,
  has,
  keepUnknown,
  need,
  unknownKeys,
} from "./check.js";
import { readJson, writeJson, type JsonObject } from "./json.js";
import type { Span, Para, Section, Doc, ParsedDoc, WireTypes } from "./types.js";

// ---------------------------------------------------------------------------------- Span

const SPAN_KEYS: ReadonlySet<string> = new Set(["text", "style"]);
const SPAN_STYLE = ["plain", "bold", "code"] as const;

/**
 * Reads a `Span` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseSpan(value: unknown, path: string = "$"): Span {
  const src = expectObject(value, path, "a Span object");
  const out: Span = {
    text: expectString(need(src, "text", path), path + ".text"),
  };
  if (has(src, "style")) {
    out["style"] = expectEnum(src["style"], path + ".style", SPAN_STYLE);
  }
  return keepUnknown(src, out, SPAN_KEYS, path);
}

/**
 * The wire form of a `Span`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireSpan(value: Span, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a Span object");
  const out: JsonObject = {};
  out["text"] = expectString(need(src, "text", path), path + ".text");
  if (has(src, "style")) {
    out["style"] = expectEnum(src["style"], path + ".style", SPAN_STYLE);
  }
  return keepUnknown(src, out, SPAN_KEYS, path);
}

/**
 * Reads a `Span` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseSpan`.
 */
export function fromJsonSpan(text: string): Span {
  return parseSpan(readJson(text));
}

/**
 * The compact wire JSON text of a `Span`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonSpan(value: Span): string {
  return writeJson(toWireSpan(value));
}

// ---------------------------------------------------------------------------------- Para

const PARA_KEYS: ReadonlySet<string> = new Set(["spans", "grid"]);

/**
 * Reads a `Para` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parsePara(value: unknown, path: string = "$"): Para {
  const src = expectObject(value, path, "a Para object");
  const out: Para = {
    spans: expectArray(need(src, "spans", path), path + ".spans", parseSpan),
  };
  if (has(src, "grid")) {
    out["grid"] = expectArray(src["grid"], path + ".grid", (item, at) => expectArray(item, at, parseSpan));
  }
  return keepUnknown(src, out, PARA_KEYS, path);
}

/**
 * The wire form of a `Para`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWirePara(value: Para, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a Para object");
  const out: JsonObject = {};
  out["spans"] = expectArray(need(src, "spans", path), path + ".spans", (item, at) => toWireSpan(item as Span, at));
  if (has(src, "grid")) {
    const items = expectArray(src["grid"], path + ".grid", (item, at) => expectArray(item, at, (item, at) => toWireSpan(item as Span, at)));
    if (items.length > 0) {
      out["grid"] = items;
    }
  }
  return keepUnknown(src, out, PARA_KEYS, path);
}

/**
 * Reads a `Para` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parsePara`.
 */
export function fromJsonPara(text: string): Para {
  return parsePara(readJson(text));
}

/**
 * The compact wire JSON text of a `Para`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonPara(value: Para): string {
  return writeJson(toWirePara(value));
}

// ---------------------------------------------------------------------------------- Section

const SECTION_KEYS: ReadonlySet<string> = new Set(["heading", "paras"]);

/**
 * Reads a `Section` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseSection(value: unknown, path: string = "$"): Section {
  const src = expectObject(value, path, "a Section object");
  const out: Section = {
    heading: expectString(need(src, "heading", path), path + ".heading"),
    paras: expectArray(need(src, "paras", path), path + ".paras", parsePara),
  };
  return keepUnknown(src, out, SECTION_KEYS, path);
}

/**
 * The wire form of a `Section`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireSection(value: Section, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a Section object");
  const out: JsonObject = {};
  out["heading"] = expectString(need(src, "heading", path), path + ".heading");
  out["paras"] = expectArray(need(src, "paras", path), path + ".paras", (item, at) => toWirePara(item as Para, at));
  return keepUnknown(src, out, SECTION_KEYS, path);
}

/**
 * Reads a `Section` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseSection`.
 */
export function fromJsonSection(text: string): Section {
  return parseSection(readJson(text));
}

/**
 * The compact wire JSON text of a `Section`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonSection(value: Section): string {
  return writeJson(toWireSection(value));
}

// ---------------------------------------------------------------------------------- Doc

const DOC_KEYS: ReadonlySet<string> = new Set(["title", "sections", "lead"]);

/**
 * Reads a `Doc` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 * Absent `sections` becomes `[]`.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseDoc(value: unknown, path: string = "$"): ParsedDoc {
  const src = expectObject(value, path, "a Doc object");
  const out: ParsedDoc = {
    title: expectString(need(src, "title", path), path + ".title"),
    sections: has(src, "sections") ? expectArray(src["sections"], path + ".sections", parseSection) : [],
  };
  if (has(src, "lead")) {
    out["lead"] = parseSection(src["lead"], path + ".lead");
  }
  return keepUnknown(src, out, DOC_KEYS, path);
}

/**
 * The wire form of a `Doc`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireDoc(value: Doc, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a Doc object");
  const out: JsonObject = {};
  out["title"] = expectString(need(src, "title", path), path + ".title");
  if (has(src, "sections")) {
    const items = expectArray(src["sections"], path + ".sections", (item, at) => toWireSection(item as Section, at));
    if (items.length > 0) {
      out["sections"] = items;
    }
  }
  if (has(src, "lead")) {
    out["lead"] = toWireSection(src["lead"] as Section, path + ".lead");
  }
  return keepUnknown(src, out, DOC_KEYS, path);
}

/**
 * Reads a `Doc` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseDoc`.
 */
export function fromJsonDoc(text: string): ParsedDoc {
  return parseDoc(readJson(text));
}

/**
 * The compact wire JSON text of a `Doc`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonDoc(value: Doc): string {
  return writeJson(toWireDoc(value));
}

// ---------------------------------------------------------------------------------- extra keys

const KNOWN_KEYS: { readonly [N in keyof WireTypes]: ReadonlySet<string> } = {
  Span: SPAN_KEYS,
  Para: PARA_KEYS,
  Section: SECTION_KEYS,
  Doc: DOC_KEYS,
};

/**
 * The keys of `value` that its type does not name, in their wire order, as a new object: what
 * a newer peer sent that this version of the schema does not know. The parsers keep such keys
 * on the value and the emitters write them back after the known ones, but the interfaces do not
 * declare them (so that a misspelled key is a compile error); this is how to read them.
 *
 * @example
 * ```ts
 * const r = fromJsonToolResult('{"output":"","isError":false,"later":[1]}');
 * extraKeys(r, "ToolResult"); // { later: [1] }
 * ```
 *
 * @param type - The name of the type of `value`.
 * @throws {@link WireError} when `value` is not an object.
 */
export function extraKeys<N extends keyof WireTypes>(value: WireTypes[N], type: N): JsonObject {
  return unknownKeys(expectObject(value, "$", `a ${type} object`), KNOWN_KEYS[type]);
}
