// Generated from idl/ (wire2 schema 1.0.0, sha256 c57f305d00323e82e2c2c42bf83e68beed4ef90911aee0a10a0c1c77985c6d84).
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
export type { Piece, Outcome, WireTypes } from "./types.js";
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
