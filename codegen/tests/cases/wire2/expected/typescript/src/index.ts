// Generated from idl/ (wire2 schema 1.0.0, sha256 f6e9383411275297c30ab302ae6e2d5c71a68e0ad76b38167f649b072175702e).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

/**
 * `toolnexus-contract`: the wire2 wire types (schema 1.0.0), generated from the IDL.
 *
 * @packageDocumentation
 */

/** The version of the schema this package was generated from. */
export const SCHEMA_VERSION = "1.0.0";

export { WireError } from "./errors.js";
export { JsonNumber, MAX_DEPTH, readJson, writeJson, type JsonObject, type JsonValue } from "./json.js";
export type { Piece, Outcome, ParsedOutcome, WireTypes } from "./types.js";
export {
  extraKeys,
  fromJsonPiece,
  parsePiece,
  toJsonPiece,
  toWirePiece,
  fromJsonOutcome,
  parseOutcome,
  toJsonOutcome,
  toWireOutcome,
} from "./codec.js";
