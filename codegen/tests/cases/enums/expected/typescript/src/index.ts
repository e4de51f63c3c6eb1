// Generated from idl/ (enums schema 1.2.0, sha256 1b3351d4174578732efb74c03e93d6509b883db9b5a81ef4d561b8dcdffd2475).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

/**
 * `toolnexus-contract`: the enums wire types (schema 1.2.0), generated from the IDL.
 *
 * @packageDocumentation
 */

/** The version of the schema this package was generated from. */
export const SCHEMA_VERSION = "1.2.0";

export { WireError } from "./errors.js";
export { JsonNumber, MAX_DEPTH, readJson, writeJson, type JsonObject, type JsonValue } from "./json.js";
export type { Light, WireTypes } from "./types.js";
export {
  extraKeys,
  fromJsonLight,
  parseLight,
  toJsonLight,
  toWireLight,
} from "./codec.js";
