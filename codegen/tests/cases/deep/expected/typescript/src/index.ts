// Generated from idl/ (deep schema 0.3.0, sha256 4dc98f140ed7c0ffdcb8df9a9b23e58b0b4ab442c36ab15e0be5a35f0940376b).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

/**
 * `toolnexus-contract`: the deep wire types (schema 0.3.0), generated from the IDL.
 *
 * @packageDocumentation
 */

/** The version of the schema this package was generated from. */
export const SCHEMA_VERSION = "0.3.0";

export { WireError } from "./errors.js";
export { JsonNumber, MAX_DEPTH, readJson, writeJson, type JsonObject, type JsonValue } from "./json.js";
export type { Span, Para, Section, Doc, ParsedDoc, WireTypes } from "./types.js";
export {
  extraKeys,
  fromJsonSpan,
  parseSpan,
  toJsonSpan,
  toWireSpan,
  fromJsonPara,
  parsePara,
  toJsonPara,
  toWirePara,
  fromJsonSection,
  parseSection,
  toJsonSection,
  toWireSection,
  fromJsonDoc,
  parseDoc,
  toJsonDoc,
  toWireDoc,
} from "./codec.js";
