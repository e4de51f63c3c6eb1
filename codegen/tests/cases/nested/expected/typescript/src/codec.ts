// Generated from idl/ (nest schema 2.0.0, sha256 9d9d9c3336abe30c1393e2927f3e7698f176b4ec0c3166ad1dd10ec4085a5ff4).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// A parser, an emitter and their JSON-text forms per wire type. Parsers accept exactly what
// the JSON Schema accepts and keep unknown keys; emitters write the wire form: keys in schema
// order, then unknown keys in their order, absent optional fields omitted (never null), empty
// optional arrays and strings whose default is "" omitted, other fields with a default always
// written.

import {
  expectArray,
  expectEnum,
  expectInteger,
  expectMap,
  expectNumber,
  expectObject,
  expectString,
  has,
  keepUnknown,
  need,
  type NumberRule,
  patternFor,
  type StringRule,
  unknownKeys,
} from "./check.js";
import { readJson, writeJson, type JsonObject } from "./json.js";
import type { Item, Box, ParsedBox, WireTypes } from "./types.js";

// ---------------------------------------------------------------------------------- Item

const ITEM_KEYS: ReadonlySet<string> = new Set(["code", "size", "count", "weight", "share"]);
const ITEM_CODE: StringRule = { pattern: patternFor("^[A-Z]+$") };
const ITEM_SIZE = ["s", "m", "l"] as const;
const ITEM_COUNT: NumberRule = { minimum: 0 };
const ITEM_SHARE: NumberRule = { minimum: 0, maximum: 1 };

/**
 * Reads an `Item` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseItem(value: unknown, path: string = "$"): Item {
  const src = expectObject(value, path, "an Item object");
  const out: Item = {
    code: expectString(need(src, "code", path), path + ".code", ITEM_CODE),
    size: expectEnum(need(src, "size", path), path + ".size", ITEM_SIZE),
  };
  if (has(src, "count")) {
    out["count"] = expectInteger(src["count"], path + ".count", ITEM_COUNT);
  }
  if (has(src, "weight")) {
    out["weight"] = expectNumber(src["weight"], path + ".weight");
  }
  if (has(src, "share")) {
    out["share"] = expectNumber(src["share"], path + ".share", ITEM_SHARE);
  }
  return keepUnknown(src, out, ITEM_KEYS, path);
}

/**
 * The wire form of an `Item`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireItem(value: Item, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "an Item object");
  const out: JsonObject = {};
  out["code"] = expectString(need(src, "code", path), path + ".code", ITEM_CODE);
  out["size"] = expectEnum(need(src, "size", path), path + ".size", ITEM_SIZE);
  if (has(src, "count")) {
    out["count"] = expectInteger(src["count"], path + ".count", ITEM_COUNT);
  }
  if (has(src, "weight")) {
    out["weight"] = expectNumber(src["weight"], path + ".weight");
  }
  if (has(src, "share")) {
    out["share"] = expectNumber(src["share"], path + ".share", ITEM_SHARE);
  }
  return keepUnknown(src, out, ITEM_KEYS, path);
}

/**
 * Reads an `Item` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseItem`.
 */
export function fromJsonItem(text: string): Item {
  return parseItem(readJson(text));
}

/**
 * The compact wire JSON text of an `Item`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonItem(value: Item): string {
  return writeJson(toWireItem(value));
}

// ---------------------------------------------------------------------------------- Box

const BOX_KEYS: ReadonlySet<string> = new Set(["main", "items", "tags", "labels"]);

/**
 * Reads a `Box` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 * Absent `items` becomes `[]`.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseBox(value: unknown, path: string = "$"): ParsedBox {
  const src = expectObject(value, path, "a Box object");
  const out: ParsedBox = {
    main: parseItem(need(src, "main", path), path + ".main"),
    items: has(src, "items") ? expectArray(src["items"], path + ".items", parseItem) : [],
    tags: expectArray(need(src, "tags", path), path + ".tags", (item, at) => expectString(item, at)),
  };
  if (has(src, "labels")) {
    out["labels"] = expectMap(src["labels"], path + ".labels");
  }
  return keepUnknown(src, out, BOX_KEYS, path);
}

/**
 * The wire form of a `Box`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireBox(value: Box, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a Box object");
  const out: JsonObject = {};
  out["main"] = toWireItem(need(src, "main", path) as Item, path + ".main");
  if (has(src, "items")) {
    const items = expectArray(src["items"], path + ".items", (item, at) => toWireItem(item as Item, at));
    if (items.length > 0) {
      out["items"] = items;
    }
  }
  out["tags"] = expectArray(need(src, "tags", path), path + ".tags", (item, at) => expectString(item, at));
  if (has(src, "labels")) {
    out["labels"] = expectMap(src["labels"], path + ".labels");
  }
  return keepUnknown(src, out, BOX_KEYS, path);
}

/**
 * Reads a `Box` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseBox`.
 */
export function fromJsonBox(text: string): ParsedBox {
  return parseBox(readJson(text));
}

/**
 * The compact wire JSON text of a `Box`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonBox(value: Box): string {
  return writeJson(toWireBox(value));
}

// ---------------------------------------------------------------------------------- extra keys

const KNOWN_KEYS: { readonly [N in keyof WireTypes]: ReadonlySet<string> } = {
  Item: ITEM_KEYS,
  Box: BOX_KEYS,
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
