// Generated from idl/ (toolnexus schema 3.0.0, sha256 7c02d43fec5c2c9bfa10d6191917dc130547ddb2023763bf62894f137966e7a2).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

/**
 * `toolnexus-contract`: the toolnexus wire types (schema 3.0.0), generated from the IDL.
 *
 * @packageDocumentation
 */

/** The version of the schema this package was generated from. */
export const SCHEMA_VERSION = "3.0.0";

export { WireError } from "./errors.js";
export { JsonNumber, MAX_DEPTH, readJson, writeJson, type JsonObject, type JsonValue } from "./json.js";
export type { Annotations, ContentPart, Request, Answer, ToolResult, ToolIcon, ToolHints, ToolSpec, ToolCall, ToolCallResult, RunResult, ToolEvent, ParsedAnnotations, ParsedContentPart, ParsedToolResult, ParsedToolIcon, ParsedToolHints, ParsedToolSpec, ParsedToolCallResult, ParsedRunResult, ParsedToolEvent, WireTypes } from "./types.js";
export {
  extraKeys,
  fromJsonAnnotations,
  parseAnnotations,
  toJsonAnnotations,
  toWireAnnotations,
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
  fromJsonToolIcon,
  parseToolIcon,
  toJsonToolIcon,
  toWireToolIcon,
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
  fromJsonToolEvent,
  parseToolEvent,
  toJsonToolEvent,
  toWireToolEvent,
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
