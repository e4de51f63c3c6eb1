// Generated from idl/ (nest schema 2.0.0, sha256 97126eb81160e4cbc9fbb0e6ef8c8b197963ea825c0f6c9aadd45fd2706b192f).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

/**
 * `toolnexus-contract`: the nest wire types (schema 2.0.0), generated from the IDL.
 *
 * @packageDocumentation
 */

/** The version of the schema this package was generated from. */
export const SCHEMA_VERSION = "2.0.0";

export { WireError } from "./errors.js";
export { JsonNumber, MAX_DEPTH, readJson, writeJson, type JsonObject, type JsonValue } from "./json.js";
export type { Item, Box, WireTypes } from "./types.js";
export {
  extraKeys,
  fromJsonItem,
  parseItem,
  toJsonItem,
  toWireItem,
  fromJsonBox,
  parseBox,
  toJsonBox,
  toWireBox,
} from "./codec.js";
