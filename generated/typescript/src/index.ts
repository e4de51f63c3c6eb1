// Generated from idl/ (toolnexus schema 1.0.0, sha256 8ac1f99c23bfce603cb079a85f872167e40493e6bb42e9a241b9ef0d7559ee40).
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
export type { ContentPart, Request, Answer, ToolResult, ToolSpec, ToolCall, ToolCallResult, RunResult, WireTypes } from "./types.js";
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
