// Generated from idl/ (toolnexus schema 2.1.0, sha256 ea2cc0613ce8cb1bef2565cc4a05c35d37a551c7722b86c2a8af2c22510d9b17).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

/**
 * `toolnexus-contract`: the toolnexus wire types (schema 2.1.0), generated from the IDL.
 *
 * @packageDocumentation
 */

/** The version of the schema this package was generated from. */
export const SCHEMA_VERSION = "2.1.0";

export { WireError } from "./errors.js";
export { JsonNumber, MAX_DEPTH, readJson, writeJson, type JsonObject, type JsonValue } from "./json.js";
export type { ContentPart, Request, Answer, ToolResult, ToolHints, ToolSpec, ToolCall, ToolCallResult, RunResult, WireTypes } from "./types.js";
export {
  extraKeys,
  fromJsonContentPart,
  parseContentPart,
  toJsonContentPart,
  toWireContentPart,
  fromJsonRequest,
  parseRequest,
  toJsonRequest,
  toWireRequest,
  fromJsonAnswer,
  parseAnswer,
  toJsonAnswer,
  toWireAnswer,
  fromJsonToolResult,
  parseToolResult,
  toJsonToolResult,
  toWireToolResult,
  fromJsonToolHints,
  parseToolHints,
  toJsonToolHints,
  toWireToolHints,
  fromJsonToolSpec,
  parseToolSpec,
  toJsonToolSpec,
  toWireToolSpec,
  fromJsonToolCall,
  parseToolCall,
  toJsonToolCall,
  toWireToolCall,
  fromJsonToolCallResult,
  parseToolCallResult,
  toJsonToolCallResult,
  toWireToolCallResult,
  fromJsonRunResult,
  parseRunResult,
  toJsonRunResult,
  toWireRunResult,
} from "./codec.js";
export {
  DEFAULT_MAX_BYTES,
  fromBytes,
  fromPath,
  fromUrl,
  kindFor,
  sniffMime,
  text,
  type PartKind,
  type PartOptions,
} from "./media.js";
export { authRequired, AUTHORIZATION_PROMPT, pending, pendingOf } from "./suspend.js";
