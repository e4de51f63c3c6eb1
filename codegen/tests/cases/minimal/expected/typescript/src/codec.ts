// Generated from idl/ (mini schema 0.1.0, sha256 48fd3a01ee3a8aeff58393457f1c5b3755201e6590414d3b8acb17333de67558).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// A parser, an emitter and their JSON-text forms per wire type. Parsers accept exactly what
// the JSON Schema accepts and keep unknown keys; emitters write the wire form: keys in schema
// order, then unknown keys in their order, absent optional fields omitted (never null), empty
// optional arrays and strings whose default is "" omitted, other fields with a default always
// written.

import {
  expectBoolean,
  expectObject,
  expectString,
  has,
  keepUnknown,
  need,
  type StringRule,
  unknownKeys,
} from "./check.js";
import { readJson, writeJson, type JsonObject } from "./json.js";
import type { Note, ParsedNote, WireTypes } from "./types.js";

// ---------------------------------------------------------------------------------- Note

const NOTE_KEYS: ReadonlySet<string> = new Set(["text", "isPinned", "author"]);
const NOTE_AUTHOR: StringRule = { minLength: 1 };

/**
 * Reads a `Note` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 * Absent `isPinned` becomes `false`.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseNote(value: unknown, path: string = "$"): ParsedNote {
  const src = expectObject(value, path, "a Note object");
  const out: ParsedNote = {
    text: expectString(need(src, "text", path), path + ".text"),
    isPinned: has(src, "isPinned") ? expectBoolean(src["isPinned"], path + ".isPinned") : false,
  };
  if (has(src, "author")) {
    out["author"] = expectString(src["author"], path + ".author", NOTE_AUTHOR);
  }
  return keepUnknown(src, out, NOTE_KEYS, path);
}

/**
 * The wire form of a `Note`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireNote(value: Note, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a Note object");
  const out: JsonObject = {};
  out["text"] = expectString(need(src, "text", path), path + ".text");
  out["isPinned"] = has(src, "isPinned") ? expectBoolean(src["isPinned"], path + ".isPinned") : false;
  if (has(src, "author")) {
    out["author"] = expectString(src["author"], path + ".author", NOTE_AUTHOR);
  }
  return keepUnknown(src, out, NOTE_KEYS, path);
}

/**
 * Reads a `Note` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseNote`.
 */
export function fromJsonNote(text: string): ParsedNote {
  return parseNote(readJson(text));
}

/**
 * The compact wire JSON text of a `Note`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonNote(value: Note): string {
  return writeJson(toWireNote(value));
}

// ---------------------------------------------------------------------------------- extra keys

const KNOWN_KEYS: { readonly [N in keyof WireTypes]: ReadonlySet<string> } = {
  Note: NOTE_KEYS,
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
