// Generated from idl/ (toolnexus schema 1.0.0, sha256 fba634dffffaefd970e0f3dc7e5ba5788254ff546fd625fdd1bdb0d5e3a8b159).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

/**
 * `toolnexus-contract`: the toolnexus wire types (schema 1.0.0), generated from the IDL.
 *
 * @packageDocumentation
 */

/** The version of the schema this package was generated from. */
export const SCHEMA_VERSION = "1.0.0";

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
export { authRequired, AUTHORIZATION_PROMPT, pending, pendingOf } from "./suspend.js";
