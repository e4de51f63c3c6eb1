// Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

/**
 * `toolnexus-contract`: the strict wire types (schema 1.0.0), generated from the IDL.
 *
 * @packageDocumentation
 */

/** The version of the schema this package was generated from. */
export const SCHEMA_VERSION = "1.0.0";

export { WireError } from "./errors.js";
export { JsonNumber, MAX_DEPTH, readJson, writeJson, type JsonObject, type JsonValue } from "./json.js";
export type { Point, WireTypes } from "./types.js";
export {
  extraKeys,
  fromJsonPoint,
  parsePoint,
  toJsonPoint,
  toWirePoint,
} from "./codec.js";
