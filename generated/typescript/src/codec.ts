// Generated from idl/ (toolnexus schema 3.0.0, sha256 7c02d43fec5c2c9bfa10d6191917dc130547ddb2023763bf62894f137966e7a2).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// A parser, an emitter and their JSON-text forms per wire type. Parsers accept exactly what
// the JSON Schema accepts and keep unknown keys; emitters write the wire form: keys in schema
// order, then unknown keys in their order, absent optional fields omitted (never null), empty
// optional arrays and strings whose default is "" omitted, other fields with a default always
// written.

import {
  expectAny,
  expectArray,
  expectBoolean,
  expectEnum,
  expectInteger,
  expectMap,
  expectNumber,
  expectObject,
  expectString,
  has,
  keepUnknown,
  need,
  type NumberRule,
  patternFor,
  type StringRule,
  unknownKeys,
} from "./check.js";
import { readJson, writeJson, type JsonObject } from "./json.js";
import type { Annotations, ContentPart, Request, Answer, ToolResult, ToolIcon, ToolHints, ToolSpec, ToolCall, ToolCallResult, RunResult, ToolEvent, ParsedAnnotations, ParsedContentPart, ParsedToolResult, ParsedToolIcon, ParsedToolHints, ParsedToolSpec, ParsedToolCallResult, ParsedRunResult, ParsedToolEvent, WireTypes } from "./types.js";

// ---------------------------------------------------------------------------------- Annotations

const ANNOTATIONS_KEYS: ReadonlySet<string> = new Set(["audience", "priority", "lastModified"]);
const ANNOTATIONS_AUDIENCE_ITEM = ["user", "assistant"] as const;
const ANNOTATIONS_PRIORITY: NumberRule = { minimum: 0, maximum: 1 };

/**
 * Reads an `Annotations` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 * Absent `audience` becomes `[]`.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseAnnotations(value: unknown, path: string = "$"): ParsedAnnotations {
  const src = expectObject(value, path, "an Annotations object");
  const out: ParsedAnnotations = {
    audience: has(src, "audience") ? expectArray(src["audience"], path + ".audience", (item, at) => expectEnum(item, at, ANNOTATIONS_AUDIENCE_ITEM)) : [],
  };
  if (has(src, "priority")) {
    out["priority"] = expectNumber(src["priority"], path + ".priority", ANNOTATIONS_PRIORITY);
  }
  if (has(src, "lastModified")) {
    out["lastModified"] = expectString(src["lastModified"], path + ".lastModified");
  }
  return keepUnknown(src, out, ANNOTATIONS_KEYS, path);
}

/**
 * The wire form of an `Annotations`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireAnnotations(value: Annotations, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "an Annotations object");
  const out: JsonObject = {};
  if (has(src, "audience")) {
    const items = expectArray(src["audience"], path + ".audience", (item, at) => expectEnum(item, at, ANNOTATIONS_AUDIENCE_ITEM));
    if (items.length > 0) {
      out["audience"] = items;
    }
  }
  if (has(src, "priority")) {
    out["priority"] = expectNumber(src["priority"], path + ".priority", ANNOTATIONS_PRIORITY);
  }
  if (has(src, "lastModified")) {
    out["lastModified"] = expectString(src["lastModified"], path + ".lastModified");
  }
  return keepUnknown(src, out, ANNOTATIONS_KEYS, path);
}

/**
 * Reads an `Annotations` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseAnnotations`.
 */
export function fromJsonAnnotations(text: string): ParsedAnnotations {
  return parseAnnotations(readJson(text));
}

/**
 * The compact wire JSON text of an `Annotations`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonAnnotations(value: Annotations): string {
  return writeJson(toWireAnnotations(value));
}

// ---------------------------------------------------------------------------------- ContentPart

const CONTENT_PART_KEYS: ReadonlySet<string> = new Set(["type", "text", "mimeType", "data", "url", "name", "title", "description", "annotations"]);
const CONTENT_PART_TYPE = ["text", "image", "audio", "file"] as const;
const CONTENT_PART_DATA: StringRule = { pattern: patternFor("^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$") };

/**
 * Reads a `ContentPart` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 * An empty `text` is read as absent (absent means empty).
 * An empty `mimeType` is read as absent (absent means empty).
 * An empty `data` is read as absent (absent means empty).
 * An empty `url` is read as absent (absent means empty).
 * An empty `name` is read as absent (absent means empty).
 * An empty `title` is read as absent (absent means empty).
 * An empty `description` is read as absent (absent means empty).
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseContentPart(value: unknown, path: string = "$"): ParsedContentPart {
  const src = expectObject(value, path, "a ContentPart object");
  const out: ParsedContentPart = {
    type: expectEnum(need(src, "type", path), path + ".type", CONTENT_PART_TYPE),
  };
  if (has(src, "text")) {
    const text = expectString(src["text"], path + ".text");
    if (text.length > 0) {
      out["text"] = text;
    }
  }
  if (has(src, "mimeType")) {
    const text = expectString(src["mimeType"], path + ".mimeType");
    if (text.length > 0) {
      out["mimeType"] = text;
    }
  }
  if (has(src, "data")) {
    const text = expectString(src["data"], path + ".data", CONTENT_PART_DATA);
    if (text.length > 0) {
      out["data"] = text;
    }
  }
  if (has(src, "url")) {
    const text = expectString(src["url"], path + ".url");
    if (text.length > 0) {
      out["url"] = text;
    }
  }
  if (has(src, "name")) {
    const text = expectString(src["name"], path + ".name");
    if (text.length > 0) {
      out["name"] = text;
    }
  }
  if (has(src, "title")) {
    const text = expectString(src["title"], path + ".title");
    if (text.length > 0) {
      out["title"] = text;
    }
  }
  if (has(src, "description")) {
    const text = expectString(src["description"], path + ".description");
    if (text.length > 0) {
      out["description"] = text;
    }
  }
  if (has(src, "annotations")) {
    out["annotations"] = parseAnnotations(src["annotations"], path + ".annotations");
  }
  return keepUnknown(src, out, CONTENT_PART_KEYS, path);
}

/**
 * The wire form of a `ContentPart`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireContentPart(value: ContentPart, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a ContentPart object");
  const out: JsonObject = {};
  out["type"] = expectEnum(need(src, "type", path), path + ".type", CONTENT_PART_TYPE);
  if (has(src, "text")) {
    const text = expectString(src["text"], path + ".text");
    if (text.length > 0) {
      out["text"] = text;
    }
  }
  if (has(src, "mimeType")) {
    const text = expectString(src["mimeType"], path + ".mimeType");
    if (text.length > 0) {
      out["mimeType"] = text;
    }
  }
  if (has(src, "data")) {
    const text = expectString(src["data"], path + ".data", CONTENT_PART_DATA);
    if (text.length > 0) {
      out["data"] = text;
    }
  }
  if (has(src, "url")) {
    const text = expectString(src["url"], path + ".url");
    if (text.length > 0) {
      out["url"] = text;
    }
  }
  if (has(src, "name")) {
    const text = expectString(src["name"], path + ".name");
    if (text.length > 0) {
      out["name"] = text;
    }
  }
  if (has(src, "title")) {
    const text = expectString(src["title"], path + ".title");
    if (text.length > 0) {
      out["title"] = text;
    }
  }
  if (has(src, "description")) {
    const text = expectString(src["description"], path + ".description");
    if (text.length > 0) {
      out["description"] = text;
    }
  }
  if (has(src, "annotations")) {
    out["annotations"] = toWireAnnotations(src["annotations"] as Annotations, path + ".annotations");
  }
  return keepUnknown(src, out, CONTENT_PART_KEYS, path);
}

/**
 * Reads a `ContentPart` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseContentPart`.
 */
export function fromJsonContentPart(text: string): ParsedContentPart {
  return parseContentPart(readJson(text));
}

/**
 * The compact wire JSON text of a `ContentPart`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonContentPart(value: ContentPart): string {
  return writeJson(toWireContentPart(value));
}

// ---------------------------------------------------------------------------------- Request

const REQUEST_KEYS: ReadonlySet<string> = new Set(["id", "kind", "prompt", "url", "data", "expiresAt"]);
const REQUEST_KIND: StringRule = { minLength: 1 };

/**
 * Reads a `Request` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseRequest(value: unknown, path: string = "$"): Request {
  const src = expectObject(value, path, "a Request object");
  const out: Request = {
    id: expectString(need(src, "id", path), path + ".id"),
    kind: expectString(need(src, "kind", path), path + ".kind", REQUEST_KIND),
    prompt: expectString(need(src, "prompt", path), path + ".prompt"),
  };
  if (has(src, "url")) {
    out["url"] = expectString(src["url"], path + ".url");
  }
  if (has(src, "data")) {
    out["data"] = expectMap(src["data"], path + ".data");
  }
  if (has(src, "expiresAt")) {
    out["expiresAt"] = expectString(src["expiresAt"], path + ".expiresAt");
  }
  return keepUnknown(src, out, REQUEST_KEYS, path);
}

/**
 * The wire form of a `Request`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireRequest(value: Request, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a Request object");
  const out: JsonObject = {};
  out["id"] = expectString(need(src, "id", path), path + ".id");
  out["kind"] = expectString(need(src, "kind", path), path + ".kind", REQUEST_KIND);
  out["prompt"] = expectString(need(src, "prompt", path), path + ".prompt");
  if (has(src, "url")) {
    out["url"] = expectString(src["url"], path + ".url");
  }
  if (has(src, "data")) {
    out["data"] = expectMap(src["data"], path + ".data");
  }
  if (has(src, "expiresAt")) {
    out["expiresAt"] = expectString(src["expiresAt"], path + ".expiresAt");
  }
  return keepUnknown(src, out, REQUEST_KEYS, path);
}

/**
 * Reads a `Request` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseRequest`.
 */
export function fromJsonRequest(text: string): Request {
  return parseRequest(readJson(text));
}

/**
 * The compact wire JSON text of a `Request`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonRequest(value: Request): string {
  return writeJson(toWireRequest(value));
}

// ---------------------------------------------------------------------------------- Answer

const ANSWER_KEYS: ReadonlySet<string> = new Set(["id", "ok", "data", "reason", "message", "scope"]);
const ANSWER_REASON = ["declined", "cancelled", "expired"] as const;
const ANSWER_MESSAGE: StringRule = { minLength: 1 };
const ANSWER_SCOPE: StringRule = { pattern: patternFor("^(once|turn|tool|principal|session:\\S.*)$") };

/**
 * Reads an `Answer` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseAnswer(value: unknown, path: string = "$"): Answer {
  const src = expectObject(value, path, "an Answer object");
  const out: Answer = {
    id: expectString(need(src, "id", path), path + ".id"),
    ok: expectBoolean(need(src, "ok", path), path + ".ok"),
  };
  if (has(src, "data")) {
    out["data"] = expectMap(src["data"], path + ".data");
  }
  if (has(src, "reason")) {
    out["reason"] = expectEnum(src["reason"], path + ".reason", ANSWER_REASON);
  }
  if (has(src, "message")) {
    out["message"] = expectString(src["message"], path + ".message", ANSWER_MESSAGE);
  }
  if (has(src, "scope")) {
    out["scope"] = expectString(src["scope"], path + ".scope", ANSWER_SCOPE);
  }
  return keepUnknown(src, out, ANSWER_KEYS, path);
}

/**
 * The wire form of an `Answer`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireAnswer(value: Answer, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "an Answer object");
  const out: JsonObject = {};
  out["id"] = expectString(need(src, "id", path), path + ".id");
  out["ok"] = expectBoolean(need(src, "ok", path), path + ".ok");
  if (has(src, "data")) {
    out["data"] = expectMap(src["data"], path + ".data");
  }
  if (has(src, "reason")) {
    out["reason"] = expectEnum(src["reason"], path + ".reason", ANSWER_REASON);
  }
  if (has(src, "message")) {
    out["message"] = expectString(src["message"], path + ".message", ANSWER_MESSAGE);
  }
  if (has(src, "scope")) {
    out["scope"] = expectString(src["scope"], path + ".scope", ANSWER_SCOPE);
  }
  return keepUnknown(src, out, ANSWER_KEYS, path);
}

/**
 * Reads an `Answer` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseAnswer`.
 */
export function fromJsonAnswer(text: string): Answer {
  return parseAnswer(readJson(text));
}

/**
 * The compact wire JSON text of an `Answer`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonAnswer(value: Answer): string {
  return writeJson(toWireAnswer(value));
}

// ---------------------------------------------------------------------------------- ToolResult

const TOOL_RESULT_KEYS: ReadonlySet<string> = new Set(["output", "isError", "parts", "structuredContent", "metadata"]);

/**
 * Reads a `ToolResult` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 * Absent `isError` becomes `false`.
 * Absent `parts` becomes `[]`.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseToolResult(value: unknown, path: string = "$"): ParsedToolResult {
  const src = expectObject(value, path, "a ToolResult object");
  const out: ParsedToolResult = {
    output: expectString(need(src, "output", path), path + ".output"),
    isError: has(src, "isError") ? expectBoolean(src["isError"], path + ".isError") : false,
    parts: has(src, "parts") ? expectArray(src["parts"], path + ".parts", parseContentPart) : [],
  };
  if (has(src, "structuredContent")) {
    out["structuredContent"] = expectAny(src["structuredContent"], path + ".structuredContent");
  }
  if (has(src, "metadata")) {
    out["metadata"] = expectMap(src["metadata"], path + ".metadata");
  }
  return keepUnknown(src, out, TOOL_RESULT_KEYS, path);
}

/**
 * The wire form of a `ToolResult`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireToolResult(value: ToolResult, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a ToolResult object");
  const out: JsonObject = {};
  out["output"] = expectString(need(src, "output", path), path + ".output");
  out["isError"] = has(src, "isError") ? expectBoolean(src["isError"], path + ".isError") : false;
  if (has(src, "parts")) {
    const items = expectArray(src["parts"], path + ".parts", (item, at) => toWireContentPart(item as ContentPart, at));
    if (items.length > 0) {
      out["parts"] = items;
    }
  }
  if (has(src, "structuredContent")) {
    out["structuredContent"] = expectAny(src["structuredContent"], path + ".structuredContent");
  }
  if (has(src, "metadata")) {
    out["metadata"] = expectMap(src["metadata"], path + ".metadata");
  }
  return keepUnknown(src, out, TOOL_RESULT_KEYS, path);
}

/**
 * Reads a `ToolResult` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseToolResult`.
 */
export function fromJsonToolResult(text: string): ParsedToolResult {
  return parseToolResult(readJson(text));
}

/**
 * The compact wire JSON text of a `ToolResult`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonToolResult(value: ToolResult): string {
  return writeJson(toWireToolResult(value));
}

// ---------------------------------------------------------------------------------- ToolIcon

const TOOL_ICON_KEYS: ReadonlySet<string> = new Set(["src", "mimeType", "sizes", "theme"]);
const TOOL_ICON_SRC: StringRule = { minLength: 1 };
const TOOL_ICON_THEME = ["light", "dark"] as const;

/**
 * Reads a `ToolIcon` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 * Absent `sizes` becomes `[]`.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseToolIcon(value: unknown, path: string = "$"): ParsedToolIcon {
  const src = expectObject(value, path, "a ToolIcon object");
  const out: ParsedToolIcon = {
    src: expectString(need(src, "src", path), path + ".src", TOOL_ICON_SRC),
    sizes: has(src, "sizes") ? expectArray(src["sizes"], path + ".sizes", (item, at) => expectString(item, at)) : [],
  };
  if (has(src, "mimeType")) {
    out["mimeType"] = expectString(src["mimeType"], path + ".mimeType");
  }
  if (has(src, "theme")) {
    out["theme"] = expectEnum(src["theme"], path + ".theme", TOOL_ICON_THEME);
  }
  return keepUnknown(src, out, TOOL_ICON_KEYS, path);
}

/**
 * The wire form of a `ToolIcon`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireToolIcon(value: ToolIcon, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a ToolIcon object");
  const out: JsonObject = {};
  out["src"] = expectString(need(src, "src", path), path + ".src", TOOL_ICON_SRC);
  if (has(src, "mimeType")) {
    out["mimeType"] = expectString(src["mimeType"], path + ".mimeType");
  }
  if (has(src, "sizes")) {
    const items = expectArray(src["sizes"], path + ".sizes", (item, at) => expectString(item, at));
    if (items.length > 0) {
      out["sizes"] = items;
    }
  }
  if (has(src, "theme")) {
    out["theme"] = expectEnum(src["theme"], path + ".theme", TOOL_ICON_THEME);
  }
  return keepUnknown(src, out, TOOL_ICON_KEYS, path);
}

/**
 * Reads a `ToolIcon` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseToolIcon`.
 */
export function fromJsonToolIcon(text: string): ParsedToolIcon {
  return parseToolIcon(readJson(text));
}

/**
 * The compact wire JSON text of a `ToolIcon`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonToolIcon(value: ToolIcon): string {
  return writeJson(toWireToolIcon(value));
}

// ---------------------------------------------------------------------------------- ToolHints

const TOOL_HINTS_KEYS: ReadonlySet<string> = new Set(["readOnly", "destructive", "openWorld", "idempotent", "title", "longRunning", "icons"]);

/**
 * Reads a `ToolHints` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 * Absent `icons` becomes `[]`.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseToolHints(value: unknown, path: string = "$"): ParsedToolHints {
  const src = expectObject(value, path, "a ToolHints object");
  const out: ParsedToolHints = {
    readOnly: expectBoolean(need(src, "readOnly", path), path + ".readOnly"),
    destructive: expectBoolean(need(src, "destructive", path), path + ".destructive"),
    openWorld: expectBoolean(need(src, "openWorld", path), path + ".openWorld"),
    icons: has(src, "icons") ? expectArray(src["icons"], path + ".icons", parseToolIcon) : [],
  };
  if (has(src, "idempotent")) {
    out["idempotent"] = expectBoolean(src["idempotent"], path + ".idempotent");
  }
  if (has(src, "title")) {
    out["title"] = expectString(src["title"], path + ".title");
  }
  if (has(src, "longRunning")) {
    out["longRunning"] = expectBoolean(src["longRunning"], path + ".longRunning");
  }
  return keepUnknown(src, out, TOOL_HINTS_KEYS, path);
}

/**
 * The wire form of a `ToolHints`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireToolHints(value: ToolHints, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a ToolHints object");
  const out: JsonObject = {};
  out["readOnly"] = expectBoolean(need(src, "readOnly", path), path + ".readOnly");
  out["destructive"] = expectBoolean(need(src, "destructive", path), path + ".destructive");
  out["openWorld"] = expectBoolean(need(src, "openWorld", path), path + ".openWorld");
  if (has(src, "idempotent")) {
    out["idempotent"] = expectBoolean(src["idempotent"], path + ".idempotent");
  }
  if (has(src, "title")) {
    out["title"] = expectString(src["title"], path + ".title");
  }
  if (has(src, "longRunning")) {
    out["longRunning"] = expectBoolean(src["longRunning"], path + ".longRunning");
  }
  if (has(src, "icons")) {
    const items = expectArray(src["icons"], path + ".icons", (item, at) => toWireToolIcon(item as ToolIcon, at));
    if (items.length > 0) {
      out["icons"] = items;
    }
  }
  return keepUnknown(src, out, TOOL_HINTS_KEYS, path);
}

/**
 * Reads a `ToolHints` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseToolHints`.
 */
export function fromJsonToolHints(text: string): ParsedToolHints {
  return parseToolHints(readJson(text));
}

/**
 * The compact wire JSON text of a `ToolHints`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonToolHints(value: ToolHints): string {
  return writeJson(toWireToolHints(value));
}

// ---------------------------------------------------------------------------------- ToolSpec

const TOOL_SPEC_KEYS: ReadonlySet<string> = new Set(["name", "description", "inputSchema", "source", "hints", "outputSchema"]);
const TOOL_SPEC_NAME: StringRule = { pattern: patternFor("^[A-Za-z0-9_-]+$") };

/**
 * Reads a `ToolSpec` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseToolSpec(value: unknown, path: string = "$"): ParsedToolSpec {
  const src = expectObject(value, path, "a ToolSpec object");
  const out: ParsedToolSpec = {
    name: expectString(need(src, "name", path), path + ".name", TOOL_SPEC_NAME),
    description: expectString(need(src, "description", path), path + ".description"),
    inputSchema: expectMap(need(src, "inputSchema", path), path + ".inputSchema"),
  };
  if (has(src, "source")) {
    out["source"] = expectString(src["source"], path + ".source");
  }
  if (has(src, "hints")) {
    out["hints"] = parseToolHints(src["hints"], path + ".hints");
  }
  if (has(src, "outputSchema")) {
    out["outputSchema"] = expectMap(src["outputSchema"], path + ".outputSchema");
  }
  return keepUnknown(src, out, TOOL_SPEC_KEYS, path);
}

/**
 * The wire form of a `ToolSpec`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireToolSpec(value: ToolSpec, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a ToolSpec object");
  const out: JsonObject = {};
  out["name"] = expectString(need(src, "name", path), path + ".name", TOOL_SPEC_NAME);
  out["description"] = expectString(need(src, "description", path), path + ".description");
  out["inputSchema"] = expectMap(need(src, "inputSchema", path), path + ".inputSchema");
  if (has(src, "source")) {
    out["source"] = expectString(src["source"], path + ".source");
  }
  if (has(src, "hints")) {
    out["hints"] = toWireToolHints(src["hints"] as ToolHints, path + ".hints");
  }
  if (has(src, "outputSchema")) {
    out["outputSchema"] = expectMap(src["outputSchema"], path + ".outputSchema");
  }
  return keepUnknown(src, out, TOOL_SPEC_KEYS, path);
}

/**
 * Reads a `ToolSpec` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseToolSpec`.
 */
export function fromJsonToolSpec(text: string): ParsedToolSpec {
  return parseToolSpec(readJson(text));
}

/**
 * The compact wire JSON text of a `ToolSpec`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonToolSpec(value: ToolSpec): string {
  return writeJson(toWireToolSpec(value));
}

// ---------------------------------------------------------------------------------- ToolCall

const TOOL_CALL_KEYS: ReadonlySet<string> = new Set(["id", "name", "arguments"]);

/**
 * Reads a `ToolCall` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseToolCall(value: unknown, path: string = "$"): ToolCall {
  const src = expectObject(value, path, "a ToolCall object");
  const out: ToolCall = {
    id: expectString(need(src, "id", path), path + ".id"),
    name: expectString(need(src, "name", path), path + ".name"),
    arguments: expectMap(need(src, "arguments", path), path + ".arguments"),
  };
  return keepUnknown(src, out, TOOL_CALL_KEYS, path);
}

/**
 * The wire form of a `ToolCall`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireToolCall(value: ToolCall, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a ToolCall object");
  const out: JsonObject = {};
  out["id"] = expectString(need(src, "id", path), path + ".id");
  out["name"] = expectString(need(src, "name", path), path + ".name");
  out["arguments"] = expectMap(need(src, "arguments", path), path + ".arguments");
  return keepUnknown(src, out, TOOL_CALL_KEYS, path);
}

/**
 * Reads a `ToolCall` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseToolCall`.
 */
export function fromJsonToolCall(text: string): ToolCall {
  return parseToolCall(readJson(text));
}

/**
 * The compact wire JSON text of a `ToolCall`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonToolCall(value: ToolCall): string {
  return writeJson(toWireToolCall(value));
}

// ---------------------------------------------------------------------------------- ToolCallResult

const TOOL_CALL_RESULT_KEYS: ReadonlySet<string> = new Set(["id", "name", "result"]);

/**
 * Reads a `ToolCallResult` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseToolCallResult(value: unknown, path: string = "$"): ParsedToolCallResult {
  const src = expectObject(value, path, "a ToolCallResult object");
  const out: ParsedToolCallResult = {
    id: expectString(need(src, "id", path), path + ".id"),
    name: expectString(need(src, "name", path), path + ".name"),
    result: parseToolResult(need(src, "result", path), path + ".result"),
  };
  return keepUnknown(src, out, TOOL_CALL_RESULT_KEYS, path);
}

/**
 * The wire form of a `ToolCallResult`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireToolCallResult(value: ToolCallResult, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a ToolCallResult object");
  const out: JsonObject = {};
  out["id"] = expectString(need(src, "id", path), path + ".id");
  out["name"] = expectString(need(src, "name", path), path + ".name");
  out["result"] = toWireToolResult(need(src, "result", path) as ToolResult, path + ".result");
  return keepUnknown(src, out, TOOL_CALL_RESULT_KEYS, path);
}

/**
 * Reads a `ToolCallResult` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseToolCallResult`.
 */
export function fromJsonToolCallResult(text: string): ParsedToolCallResult {
  return parseToolCallResult(readJson(text));
}

/**
 * The compact wire JSON text of a `ToolCallResult`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonToolCallResult(value: ToolCallResult): string {
  return writeJson(toWireToolCallResult(value));
}

// ---------------------------------------------------------------------------------- RunResult

const RUN_RESULT_KEYS: ReadonlySet<string> = new Set(["status", "results", "pending", "calls", "requests", "order", "turn", "seal"]);
const RUN_RESULT_STATUS = ["done", "pending"] as const;

/**
 * Reads a `RunResult` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 * Absent `calls` becomes `[]`.
 * Absent `requests` becomes `[]`.
 * Absent `order` becomes `[]`.
 * An empty `turn` is read as absent (absent means empty).
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseRunResult(value: unknown, path: string = "$"): ParsedRunResult {
  const src = expectObject(value, path, "a RunResult object");
  const out: ParsedRunResult = {
    status: expectEnum(need(src, "status", path), path + ".status", RUN_RESULT_STATUS),
    results: expectArray(need(src, "results", path), path + ".results", parseToolCallResult),
    calls: has(src, "calls") ? expectArray(src["calls"], path + ".calls", parseToolCall) : [],
    requests: has(src, "requests") ? expectArray(src["requests"], path + ".requests", parseRequest) : [],
    order: has(src, "order") ? expectArray(src["order"], path + ".order", (item, at) => expectString(item, at)) : [],
  };
  if (has(src, "pending")) {
    out["pending"] = parseRequest(src["pending"], path + ".pending");
  }
  if (has(src, "turn")) {
    const text = expectString(src["turn"], path + ".turn");
    if (text.length > 0) {
      out["turn"] = text;
    }
  }
  if (has(src, "seal")) {
    out["seal"] = expectString(src["seal"], path + ".seal");
  }
  return keepUnknown(src, out, RUN_RESULT_KEYS, path);
}

/**
 * The wire form of a `RunResult`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireRunResult(value: RunResult, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a RunResult object");
  const out: JsonObject = {};
  out["status"] = expectEnum(need(src, "status", path), path + ".status", RUN_RESULT_STATUS);
  out["results"] = expectArray(need(src, "results", path), path + ".results", (item, at) => toWireToolCallResult(item as ToolCallResult, at));
  if (has(src, "pending")) {
    out["pending"] = toWireRequest(src["pending"] as Request, path + ".pending");
  }
  if (has(src, "calls")) {
    const items = expectArray(src["calls"], path + ".calls", (item, at) => toWireToolCall(item as ToolCall, at));
    if (items.length > 0) {
      out["calls"] = items;
    }
  }
  if (has(src, "requests")) {
    const items = expectArray(src["requests"], path + ".requests", (item, at) => toWireRequest(item as Request, at));
    if (items.length > 0) {
      out["requests"] = items;
    }
  }
  if (has(src, "order")) {
    const items = expectArray(src["order"], path + ".order", (item, at) => expectString(item, at));
    if (items.length > 0) {
      out["order"] = items;
    }
  }
  if (has(src, "turn")) {
    const text = expectString(src["turn"], path + ".turn");
    if (text.length > 0) {
      out["turn"] = text;
    }
  }
  if (has(src, "seal")) {
    out["seal"] = expectString(src["seal"], path + ".seal");
  }
  return keepUnknown(src, out, RUN_RESULT_KEYS, path);
}

/**
 * Reads a `RunResult` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseRunResult`.
 */
export function fromJsonRunResult(text: string): ParsedRunResult {
  return parseRunResult(readJson(text));
}

/**
 * The compact wire JSON text of a `RunResult`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonRunResult(value: RunResult): string {
  return writeJson(toWireRunResult(value));
}

// ---------------------------------------------------------------------------------- ToolEvent

const TOOL_EVENT_KEYS: ReadonlySet<string> = new Set(["callId", "percent", "message", "partial"]);

/**
 * Reads a `ToolEvent` from a JSON value (as `readJson` or `JSON.parse` return it),
 * checking it against the schema; unknown keys are kept.
 *
 * @param path - The JSON path of `value`, for error messages.
 * @throws {@link WireError} naming the path of the first place the schema rejects.
 */
export function parseToolEvent(value: unknown, path: string = "$"): ParsedToolEvent {
  const src = expectObject(value, path, "a ToolEvent object");
  const out: ParsedToolEvent = {
    callId: expectString(need(src, "callId", path), path + ".callId"),
  };
  if (has(src, "percent")) {
    out["percent"] = expectInteger(src["percent"], path + ".percent");
  }
  if (has(src, "message")) {
    out["message"] = expectString(src["message"], path + ".message");
  }
  if (has(src, "partial")) {
    out["partial"] = parseToolResult(src["partial"], path + ".partial");
  }
  return keepUnknown(src, out, TOOL_EVENT_KEYS, path);
}

/**
 * The wire form of a `ToolEvent`: a new object, ready for `writeJson`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toWireToolEvent(value: ToolEvent, path: string = "$"): JsonObject {
  const src = expectObject(value, path, "a ToolEvent object");
  const out: JsonObject = {};
  out["callId"] = expectString(need(src, "callId", path), path + ".callId");
  if (has(src, "percent")) {
    out["percent"] = expectInteger(src["percent"], path + ".percent");
  }
  if (has(src, "message")) {
    out["message"] = expectString(src["message"], path + ".message");
  }
  if (has(src, "partial")) {
    out["partial"] = toWireToolResult(src["partial"] as ToolResult, path + ".partial");
  }
  return keepUnknown(src, out, TOOL_EVENT_KEYS, path);
}

/**
 * Reads a `ToolEvent` from JSON text, losslessly (see `readJson`).
 *
 * @throws {@link WireError} at `$` when the text is not JSON, else as `parseToolEvent`.
 */
export function fromJsonToolEvent(text: string): ParsedToolEvent {
  return parseToolEvent(readJson(text));
}

/**
 * The compact wire JSON text of a `ToolEvent`.
 *
 * @throws {@link WireError} when `value` does not satisfy the schema.
 */
export function toJsonToolEvent(value: ToolEvent): string {
  return writeJson(toWireToolEvent(value));
}

// ---------------------------------------------------------------------------------- extra keys

const KNOWN_KEYS: { readonly [N in keyof WireTypes]: ReadonlySet<string> } = {
  Annotations: ANNOTATIONS_KEYS,
  ContentPart: CONTENT_PART_KEYS,
  Request: REQUEST_KEYS,
  Answer: ANSWER_KEYS,
  ToolResult: TOOL_RESULT_KEYS,
  ToolIcon: TOOL_ICON_KEYS,
  ToolHints: TOOL_HINTS_KEYS,
  ToolSpec: TOOL_SPEC_KEYS,
  ToolCall: TOOL_CALL_KEYS,
  ToolCallResult: TOOL_CALL_RESULT_KEYS,
  RunResult: RUN_RESULT_KEYS,
  ToolEvent: TOOL_EVENT_KEYS,
};

/**
 * The keys of `value` that its type does not name, in their wire order, as a new object: what
 * a newer peer sent that this version of the schema does not know. The parsers keep such keys
 * on the value and the emitters write them back after the known ones, but the interfaces do not
 * declare them (so that a misspelled key is a compile error); this is how to read them.
 *
 * @example
 * ```ts
 * const r = fromJsonToolResult('{"output":"","isError":false,"later":[1]}');
 * extraKeys(r, "ToolResult"); // { later: [1] }
 * ```
 *
 * @param type - The name of the type of `value`.
 * @throws {@link WireError} when `value` is not an object.
 */
export function extraKeys<N extends keyof WireTypes>(value: WireTypes[N], type: N): JsonObject {
  return unknownKeys(expectObject(value, "$", `a ${type} object`), KNOWN_KEYS[type]);
}
