// Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// A parser, an emitter and their JSON-text forms per wire type. Parsers accept exactly what
// the JSON Schema accepts and keep unknown keys; emitters write the wire form: keys in schema
// order, then unknown keys in their order, absent optional fields omitted (never null), empty
// optional arrays and strings whose default is "" omitted, other fields with a default always
// written.

import {
  expectArray,
  expectBoolean,
  expectMap,
  expectNumber,
  expectObject,
  expectString,
  need,
  rejectUnknown,
  type StringRule,
  unknownKeys,
} from "./check.js";
import { readJson, writeJson, type JsonObject } from "./json.js";
import type { Point, WireTypes } from "./types.js";

// ---------------------------------------------------------------------------------- Point

const POINT_KEYS: ReadonlySet<string> = new Set(["x", "y", "label", "tags", "visible", "attrs"]);
const POINT_LABEL: StringRule = { minLength: 1 };

/**
 * Reads a `Point` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are an error.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parsePoint(value: unknown, path: string = "$"): Point {
  const src = expectObject(value, path, "a Point object");
  const out: Point = {
    x: expectNumber(need(src, "x", path), path + ".x"),
    y: expectNumber(need(src, "y", path), path + ".y"),
    label: expectString(need(src, "label", path), path + ".label", POINT_LABEL),
    tags: expectArray(need(src, "tags", path), path + ".tags", (item, at) => expectString(item, at)),
    visible: expectBoolean(need(src, "visible", path), path + ".visible"),
    attrs: expectMap(need(src, "attrs", path), path + ".attrs"),
  };
  return rejectUnknown(src, out, POINT_KEYS, path);
}

/**
 * The wire form of a `Point`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWirePoint(value: Point, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a Point object");
  const out: JsonObject = {};
  out["x"] = expectNumber(need(src, "x", path), path + ".x");
  out["y"] = expectNumber(need(src, "y", path), path + ".y");
  out["label"] = expectString(need(src, "label", path), path + ".label", POINT_LABEL);
  out["tags"] = expectArray(need(src, "tags", path), path + ".tags", (item, at) => expectString(item, at));
  out["visible"] = expectBoolean(need(src, "visible", path), path + ".visible");
  out["attrs"] = expectMap(need(src, "attrs", path), path + ".attrs");
  return rejectUnknown(src, out, POINT_KEYS, path);
}

/**
 * Reads a `Point` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parsePoint`.
 */
export function fromJsonPoint(text: string): Point {
  return parsePoint(readJson(text));
}

/**
 * The compact wire JSON text of a `Point`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonPoint(value: Point): string {
  return writeJson(toWirePoint(value));
}

// ---------------------------------------------------------------------------------- extra keys

const KNOWN_KEYS: { readonly [N in keyof WireTypes]: ReadonlySet<string> } = {
  Point: POINT_KEYS,
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
