// Generated from idl/ (enums schema 1.2.0, sha256 1b3351d4174578732efb74c03e93d6509b883db9b5a81ef4d561b8dcdffd2475).
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
  has,
  keepUnknown,
  need,
  unknownKeys,
} from "./check.js";
import { readJson, writeJson, type JsonObject } from "./json.js";
import type { Light, WireTypes } from "./types.js";

// ---------------------------------------------------------------------------------- Light

const LIGHT_KEYS: ReadonlySet<string> = new Set(["color", "mode", "cycle"]);
const LIGHT_COLOR = ["red", "amber", "green"] as const;
const LIGHT_MODE = ["auto", "manual", "off-line"] as const;
const LIGHT_CYCLE_ITEM = ["red", "amber", "green"] as const;

/**
 * Reads a `Light` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseLight(value: unknown, path: string = "$"): Light {
  const src = expectObject(value, path, "a Light object");
  const out: Light = {
    color: expectEnum(need(src, "color", path), path + ".color", LIGHT_COLOR),
  };
  if (has(src, "mode")) {
    out["mode"] = expectEnum(src["mode"], path + ".mode", LIGHT_MODE);
  }
  if (has(src, "cycle")) {
    out["cycle"] = expectArray(src["cycle"], path + ".cycle", (item, at) => expectEnum(item, at, LIGHT_CYCLE_ITEM));
  }
  return keepUnknown(src, out, LIGHT_KEYS, path);
}

/**
 * The wire form of a `Light`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireLight(value: Light, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a Light object");
  const out: JsonObject = {};
  out["color"] = expectEnum(need(src, "color", path), path + ".color", LIGHT_COLOR);
  if (has(src, "mode")) {
    out["mode"] = expectEnum(src["mode"], path + ".mode", LIGHT_MODE);
  }
  if (has(src, "cycle")) {
    const items = expectArray(src["cycle"], path + ".cycle", (item, at) => expectEnum(item, at, LIGHT_CYCLE_ITEM));
    if (items.length > 0) {
      out["cycle"] = items;
    }
  }
  return keepUnknown(src, out, LIGHT_KEYS, path);
}

/**
 * Reads a `Light` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseLight`.
 */
export function fromJsonLight(text: string): Light {
  return parseLight(readJson(text));
}

/**
 * The compact wire JSON text of a `Light`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonLight(value: Light): string {
  return writeJson(toWireLight(value));
}

// ---------------------------------------------------------------------------------- extra keys

const KNOWN_KEYS: { readonly [N in keyof WireTypes]: ReadonlySet<string> } = {
  Light: LIGHT_KEYS,
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
