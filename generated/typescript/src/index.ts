// Generated from idl/ (toolnexus schema 1.0.0, sha256 4a6569549a94e034df05ad17e92d1b01627b3bf6d81b4bc204044f6ba71d9333).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

/**
 * `@toolnexus/wire`: the toolnexus wire types (schema 1.0.0), generated from the IDL.
 *
 * @packageDocumentation
 */

/** The version of the schema this package was generated from. */
export const SCHEMA_VERSION = "1.0.0";

export { WireError } from "./errors.js";
export { JsonNumber, readJson, writeJson, type JsonObject, type JsonValue } from "./json.js";
export type { ContentPart, Request, Answer, ToolResult, ToolSpec, ToolCall, ToolCallResult, RunResult } from "./types.js";
export {
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
