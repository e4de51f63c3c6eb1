// Generated from idl/ (nest schema 2.0.0, sha256 9d9d9c3336abe30c1393e2927f3e7698f176b4ec0c3166ad1dd10ec4085a5ff4).
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
export type { Item, Box, ParsedBox, WireTypes } from "./types.js";
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
