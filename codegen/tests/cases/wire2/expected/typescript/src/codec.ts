// Generated from idl/ (wire2 schema 1.0.0, sha256 f6e9383411275297c30ab302ae6e2d5c71a68e0ad76b38167f649b072175702e).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// A parser, an emitter and their JSON-text forms per wire type. Parsers accept exactly what
// the JSON Schema accepts and keep unknown keys; emitters write the wire form: keys in schema
// order, then unknown keys in their order, absent optional fields omitted (never null), empty
// optional arrays and strings whose default is "" omitted, other fields with a default always
// written.

import {
  carries,
  expectAny,
  expectArray,
  expectEnum,
  expectObject,
  expectString,
  has,
  keepUnknown,
  need,
  rejectUnknown,
  unknownKeys,
} from "./check.js";
import { readJson, writeJson, type JsonObject } from "./json.js";
import type { Piece, Outcome, ParsedOutcome, WireTypes } from "./types.js";

// ---------------------------------------------------------------------------------- Piece

const PIECE_KEYS: ReadonlySet<string> = new Set(["type", "label", "body"]);
const PIECE_TYPE = ["text", "blob"] as const;

/**
 * Reads a `Piece` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 * An empty `label` is read as absent (absent means empty).
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parsePiece(value: unknown, path: string = "$"): Piece {
  const src = expectObject(value, path, "a Piece object");
  const out: Piece = {
    type: expectEnum(need(src, "type", path), path + ".type", PIECE_TYPE),
    body: expectAny(need(src, "body", path), path + ".body"),
  };
  if (has(src, "label")) {
    const text = expectString(src["label"], path + ".label");
    if (text.length > 0) {
      out["label"] = text;
    }
  }
  const checked = keepUnknown(src, out, PIECE_KEYS, path);
  carries(checked, path, "type", ["blob"], ["label"]);
  return checked;
}

/**
 * The wire form of a `Piece`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWirePiece(value: Piece, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a Piece object");
  const out: JsonObject = {};
  out["type"] = expectEnum(need(src, "type", path), path + ".type", PIECE_TYPE);
  if (has(src, "label")) {
    const text = expectString(src["label"], path + ".label");
    if (text.length > 0) {
      out["label"] = text;
    }
  }
  out["body"] = expectAny(need(src, "body", path), path + ".body");
  const checked = keepUnknown(src, out, PIECE_KEYS, path);
  carries(checked, path, "type", ["blob"], ["label"]);
  return checked;
}

/**
 * Reads a `Piece` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parsePiece`.
 */
export function fromJsonPiece(text: string): Piece {
  return parsePiece(readJson(text));
}

/**
 * The compact wire JSON text of a `Piece`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonPiece(value: Piece): string {
  return writeJson(toWirePiece(value));
}

// ---------------------------------------------------------------------------------- Outcome

const OUTCOME_KEYS: ReadonlySet<string> = new Set(["summary", "result", "pieces", "note"]);

/**
 * Reads an `Outcome` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are an error.
 * Absent `pieces` becomes `[]`.
 * An empty `note` is read as absent (absent means empty).
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseOutcome(value: unknown, path: string = "$"): ParsedOutcome {
  const src = expectObject(value, path, "an Outcome object");
  const out: ParsedOutcome = {
    summary: expectString(need(src, "summary", path), path + ".summary"),
    pieces: has(src, "pieces") ? expectArray(src["pieces"], path + ".pieces", parsePiece) : [],
  };
  if (has(src, "result")) {
    out["result"] = expectAny(src["result"], path + ".result");
  }
  if (has(src, "note")) {
    const text = expectString(src["note"], path + ".note");
    if (text.length > 0) {
      out["note"] = text;
    }
  }
  return rejectUnknown(src, out, OUTCOME_KEYS, path);
}

/**
 * The wire form of an `Outcome`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireOutcome(value: Outcome, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "an Outcome object");
  const out: JsonObject = {};
  out["summary"] = expectString(need(src, "summary", path), path + ".summary");
  if (has(src, "result")) {
    out["result"] = expectAny(src["result"], path + ".result");
  }
  if (has(src, "pieces")) {
    const items = expectArray(src["pieces"], path + ".pieces", (item, at) => toWirePiece(item as Piece, at));
    if (items.length > 0) {
      out["pieces"] = items;
    }
  }
  if (has(src, "note")) {
    const text = expectString(src["note"], path + ".note");
    if (text.length > 0) {
      out["note"] = text;
    }
  }
  return rejectUnknown(src, out, OUTCOME_KEYS, path);
}

/**
 * Reads an `Outcome` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseOutcome`.
 */
export function fromJsonOutcome(text: string): ParsedOutcome {
  return parseOutcome(readJson(text));
}

/**
 * The compact wire JSON text of an `Outcome`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonOutcome(value: Outcome): string {
  return writeJson(toWireOutcome(value));
}

// ---------------------------------------------------------------------------------- extra keys

const KNOWN_KEYS: { readonly [N in keyof WireTypes]: ReadonlySet<string> } = {
  Piece: PIECE_KEYS,
  Outcome: OUTCOME_KEYS,
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
