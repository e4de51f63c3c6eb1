// Generated from idl/ (toolnexus schema 2.0.0, sha256 64b2bf99b7f52f6c0516327c5c9599520068dedb52bbc115361e8f68b793124b).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

/**
 * `toolnexus-contract`: the toolnexus wire types (schema 2.0.0), generated from the IDL.
 *
 * @packageDocumentation
 */

/** The version of the schema this package was generated from. */
export const SCHEMA_VERSION = "2.0.0";

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
} from "./media.js";
export { authRequired, AUTHORIZATION_PROMPT, pending, pendingOf } from "./suspend.js";
