// Generated from idl/ (toolnexus schema 3.0.0, sha256 7c02d43fec5c2c9bfa10d6191917dc130547ddb2023763bf62894f137966e7a2).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// One interface per wire type. Property names are the wire keys; an optional property is
// absent from the wire when it is absent here. The interfaces have no index signature, so a
// misspelled key in an object literal is a compile error. In a type open to unknown keys, keys
// a newer schema adds are still kept on the parsed object itself and written back by the
// emitter, so a parse/emit round trip loses nothing; they are untyped: `extraKeys` reads them.

import type { JsonNumber, JsonValue } from "./json.js";

/**
 * Hints about a content part for the host that shows it (MCP's `Annotations` of a content block):
 * who it is for, how much it matters, and when it last changed. Advisory: a part is valid without
 * them, and they never change what the part holds.
 */
export interface Annotations {
  /**
   * Who the part is meant for: `user` (the person using the host), `assistant` (the model), or
   * both. Absent means both. Empty is omitted (and reads as absent). A provider adapter leaves a
   * part whose audience is `user` alone out of the model's message.
   *
   * @defaultValue `[]`
   */
  audience?: ("user" | "assistant")[];
  /**
   * How much the part matters, from 0 (entirely optional) to 1 (required), as MCP has it. The
   * number keeps its text, as every JSON number here does: `1` is written back `1`, `1.0` as `1.0`.
   */
  priority?: number | JsonNumber;
  /**
   * When the content last changed, as an ISO 8601 date-time; kept as sent, not checked (MCP does
   * not check it either).
   */
  lastModified?: string;
}

/**
 * An `Annotations` as the parsers return it: every field the parser fills in
 * (a field with a default) is present, so strict code reads it without a check.
 */
export interface ParsedAnnotations extends Annotations {
  audience: ("user" | "assistant")[];
}

/**
 * One part of a tool result beyond its `output`, as every upstream toolnexus port writes it: text,
 * an image, audio or any other file, carried inline as base64 `data` or by reference as a `url`. A
 * part is built to carry something: a `text` part its `text`, any other part its `data`, its `url`
 * or both (then `data` is the content and `url` where it came from; adapters send `data`). A part
 * that carries nothing (upstream's `ContentPart::text("")` writes `{"type":"text"}`) is read and
 * kept through a round trip, but never built here, and adapters send a note in its place. An empty
 * string field is omitted from the wire, and an absent one reads as empty. `title`, `description`
 * and `annotations` describe the part for the host and change nothing it carries.
 */
export interface ContentPart {
  /**
   * What the part holds: `text` (in `text`), `image`, `audio`, or `file` for anything else, video
   * included. The APIs name this field `kind`.
   */
  type: "text" | "image" | "audio" | "file";
  /**
   * The text of a `text` part.
   *
   * @defaultValue `""`
   */
  text?: string;
  /**
   * The IANA media type of the content, such as `image/png` or `application/pdf`; a part with
   * `data` needs one, and so does a part by `url` in the helpers.
   *
   * @defaultValue `""`
   */
  mimeType?: string;
  /**
   * The content's bytes, standard base64 (RFC 4648 section 4) with padding.
   *
   * @defaultValue `""`
   */
  data?: string;
  /**
   * Where the content is, when it is carried by reference instead of as `data` (an MCP resource
   * link).
   *
   * @defaultValue `""`
   */
  url?: string;
  /**
   * A file name for the content, when it has one; never a path.
   *
   * @defaultValue `""`
   */
  name?: string;
  /**
   * A name for people to read, which a host shows in place of `name` (MCP's `title` of a resource
   * link); a provider adapter sends it only where the provider has a title field (an Anthropic
   * document's).
   *
   * @defaultValue `""`
   */
  title?: string;
  /**
   * What the content is, in a sentence (MCP's `description` of a resource link), for the host to
   * show with the part; a provider adapter sends it only where the provider has a field for it (an
   * Anthropic document's `context`).
   *
   * @defaultValue `""`
   */
  description?: string;
  /**
   * Hints for the host about this part: who it is for, how much it matters, when it last changed
   * (MCP's content `annotations`).
   */
  annotations?: Annotations;
}

/**
 * A `ContentPart` as the parsers return it: every field the parser fills in
 * (a field with a default) is present, so strict code reads it without a check.
 */
export interface ParsedContentPart extends ContentPart {
  annotations?: ParsedAnnotations;
}

/**
 * What a suspended tool asks of the host before it can finish: an approval, an authorization, input
 * or an answer to a question. It travels in `ToolResult.metadata["pending"]`.
 */
export interface Request {
  /**
   * Identifies the request; the `Answer` carries the same id. Generated as `pnd-` followed by
   * random hex when a tool leaves it empty.
   */
  id: string;
  /**
   * What is asked: `approval`, `authorization` (with a `url`; the only kind through which secrets
   * may travel), `input` or `question`.
   */
  kind: string;
  /** The text shown to the person who answers. */
  prompt: string;
  /** Where the person goes to answer, such as a login page for an `authorization` request. */
  url?: string;
  /** Structured detail for the host, such as a JSON Schema for the input asked for. */
  data?: { [key: string]: JsonValue };
  /**
   * When the request stops being answerable, as an RFC 3339 date-time; an answer after it counts as
   * `expired`. Any other string is kept as sent (upstream ports do not check it): the loop counts
   * an unreadable time as already passed, and an empty string as no expiry.
   */
  expiresAt?: string;
}

/** The host's reply to a `Request`: the tool is run once more with it in its context. */
export interface Answer {
  /** The id of the `Request` this answers. */
  id: string;
  /**
   * True when the request was granted or answered; false when it was declined, cancelled or
   * expired.
   */
  ok: boolean;
  /** What the person supplied, such as the input asked for. */
  data?: { [key: string]: JsonValue };
  /**
   * Why the answer is not ok: `declined`, `cancelled` or `expired`. The upstream ports take any
   * text here; this contract refuses any other value (send `declined`, and the text in `data`).
   */
  reason?: "declined" | "cancelled" | "expired";
  /**
   * Why the answer refuses, in words for the model: the call's result then reads `declined:
   * <message>` (its first 1,000 characters, then `…`, when it is longer). Ignored on an answer that
   * is `ok`.
   */
  message?: string;
  /**
   * How far the decision reaches: `once` (this call; the default), `turn` (every call to the same
   * tool that waits on an approval in this turn), `session:<id>` (every call to the same tool in
   * the host's session `<id>`), `principal` (every call to the same tool made for the same
   * principal), `tool` (every call to the same tool). A decision beyond the turn is kept by the
   * host as a policy, which expires, and which the host can list and revoke.
   */
  scope?: string;
}

/**
 * The envelope every tool returns: text for the model, an error flag, non-text parts, and host-only
 * metadata that never reaches the model.
 */
export interface ToolResult {
  /** The text the model reads; structured data goes in as JSON text. */
  output: string;
  /**
   * True when the tool failed; the failure is a result the model can read, never an exception
   * crossing the tool boundary.
   *
   * @defaultValue `false`
   */
  isError?: boolean;
  /**
   * Output beyond `output`, such as images, files, text and links, in order; omitted from the wire
   * when empty.
   *
   * @defaultValue `[]`
   */
  parts?: ContentPart[];
  /**
   * The result as structured data (an object, array, string, number or boolean), matching the
   * tool's `outputSchema` when it declares one; `output` then carries the same value as JSON text,
   * for models that read only text. Named as MCP's `CallToolResult` names it.
   */
  structuredContent?: JsonValue;
  /**
   * Free-form JSON for the host only (exit codes, diffs, timings); never sent to a model. The key
   * `pending` is reserved: it holds a `Request` when the result is a suspension. The key `declined`
   * is reserved too: on the error result the loop writes for a request that was refused or expired
   * (an approval asked before a tool runs, or a tool's own question), it holds `{"request": <that
   * request's id>, "reason": "declined" | "cancelled" | "expired"}`, so a host tells a denial from
   * a tool failure; such a result's `output` starts with `declined`.
   */
  metadata?: { [key: string]: JsonValue };
}

/**
 * A `ToolResult` as the parsers return it: every field the parser fills in
 * (a field with a default) is present, so strict code reads it without a check.
 */
export interface ParsedToolResult extends ToolResult {
  isError: boolean;
  parts: ParsedContentPart[];
}

/** An icon a host may show for a tool (MCP's `Icon`); never sent to a model. */
export interface ToolIcon {
  /** Where the icon is: an `https` URL or a `data:` URI. */
  src: string;
  /** The icon's media type, when the URL does not say it. */
  mimeType?: string;
  /**
   * The sizes it comes in, as HTML writes them (`48x48`, `any`). Empty is omitted.
   *
   * @defaultValue `[]`
   */
  sizes?: string[];
  /** The background it is drawn for. */
  theme?: "light" | "dark";
}

/**
 * A `ToolIcon` as the parsers return it: every field the parser fills in
 * (a field with a default) is present, so strict code reads it without a check.
 */
export interface ParsedToolIcon extends ToolIcon {
  sizes: string[];
}

/**
 * Advisory hints about how a tool behaves, for the host (an approval policy, MCP tool annotations,
 * whether an MCP server runs its calls as tasks); never sent to a model. Upstream toolnexus 0.22
 * writes the first three.
 */
export interface ToolHints {
  /** The tool does not change its environment. */
  readOnly: boolean;
  /** The tool may delete or overwrite; meaningful only when it is not read-only. */
  destructive: boolean;
  /** The tool reaches entities outside a closed domain, such as the web. */
  openWorld: boolean;
  /**
   * Calling the tool again with the same arguments has no further effect; meaningful only when it
   * is not read-only (MCP's `idempotentHint`).
   */
  idempotent?: boolean;
  /** A name for people to read (MCP's `title` of a tool); the model still sees the tool's `name`. */
  title?: string;
  /**
   * A call may take long (minutes, or a person's answer): an MCP server runs it as a task (the
   * `io.modelcontextprotocol/tasks` extension) for a client that supports tasks.
   */
  longRunning?: boolean;
  /**
   * Icons a host may show for the tool (MCP's `icons`). Empty is omitted.
   *
   * @defaultValue `[]`
   */
  icons?: ToolIcon[];
}

/**
 * A `ToolHints` as the parsers return it: every field the parser fills in
 * (a field with a default) is present, so strict code reads it without a check.
 */
export interface ParsedToolHints extends ToolHints {
  icons: ParsedToolIcon[];
}

/**
 * How a tool is declared to a model: its name, what it does, and the JSON Schemas of its arguments
 * and, when it has one, of its structured output.
 */
export interface ToolSpec {
  /** The tool's name, made of ASCII letters, digits, `_` and `-`. */
  name: string;
  /** What the tool does, written for the model. */
  description: string;
  /** The JSON Schema that the tool's arguments satisfy; an object schema. */
  inputSchema: { [key: string]: JsonValue };
  /** Where the tool comes from, such as `python:package.module.function` or `mcp:server-name`. */
  source?: string;
  /**
   * Advisory hints about how the tool behaves, when it declares them; host-only: an adapter sends
   * them to MCP as tool annotations and to no model.
   */
  hints?: ToolHints;
  /**
   * The JSON Schema that the tool's `structuredContent` satisfies, when the tool returns structured
   * data; an object schema. Named as MCP names it.
   */
  outputSchema?: { [key: string]: JsonValue };
}

/**
 * A `ToolSpec` as the parsers return it: every field the parser fills in
 * (a field with a default) is present, so strict code reads it without a check.
 */
export interface ParsedToolSpec extends ToolSpec {
  hints?: ParsedToolHints;
}

/** One tool call that a model asked for in a turn. */
export interface ToolCall {
  /** The provider's id for the call; the result goes back under the same id. */
  id: string;
  /** The name of the tool to call. */
  name: string;
  /** The arguments, already parsed from the model's JSON text. */
  arguments: { [key: string]: JsonValue };
}

/** The result of one `ToolCall`, under the call's id and tool name. */
export interface ToolCallResult {
  /** The id of the `ToolCall` this answers. */
  id: string;
  /** The name of the tool that ran. */
  name: string;
  /** What the tool returned. */
  result: ToolResult;
}

/**
 * A `ToolCallResult` as the parsers return it: every field the parser fills in
 * (a field with a default) is present, so strict code reads it without a check.
 */
export interface ParsedToolCallResult extends ToolCallResult {
  result: ParsedToolResult;
}

/**
 * The outcome of running one turn of tool calls: every result, or a stop on a suspension that a
 * host can store and resume from later, in another process.
 */
export interface RunResult {
  /**
   * `done` when every call has its result; `pending` when the run stopped on a suspension and waits
   * for an `Answer`.
   */
  status: "done" | "pending";
  /** The finished results, in call order. */
  results: ToolCallResult[];
  /** The request the run waits on; present exactly when `status` is `pending`. */
  pending?: Request;
  /**
   * The calls that have no result yet, in call order; the first is the one whose suspension is
   * `pending`. Omitted when empty.
   *
   * @defaultValue `[]`
   */
  calls?: ToolCall[];
  /**
   * The suspensions of the calls in `calls`: one `Request` per call, in the same order, the first
   * being `pending`. `resume` asks each waiting call's own request in turn rather than running the
   * call again. Omitted when empty.
   *
   * @defaultValue `[]`
   */
  requests?: Request[];
  /**
   * The ids of the turn's calls, in call order, kept by a `pending` run so that the results come
   * back in call order after a `resume`. Omitted when empty.
   *
   * @defaultValue `[]`
   */
  order?: string[];
  /**
   * Identifies the turn, together with `order`: a random id `run_calls` writes on a pending run (or
   * the host's own `turn_id`), so that calls of two turns that reuse an id (`call_0`) get different
   * idempotency keys and answers. Omitted when empty.
   *
   * @defaultValue `""`
   */
  turn?: string;
  /**
   * A tamper-evident seal over `results`, `pending`, `calls`, `requests`, `order` and `turn`,
   * present when the host runs with a secret; `resume` rejects a run whose seal does not match.
   */
  seal?: string;
}

/**
 * A `RunResult` as the parsers return it: every field the parser fills in
 * (a field with a default) is present, so strict code reads it without a check.
 */
export interface ParsedRunResult extends RunResult {
  results: ParsedToolCallResult[];
  calls: ToolCall[];
  requests: Request[];
  order: string[];
}

/**
 * What a running call reports before its result: how far it has got, in words, and a partial
 * result. A host relays it (to a UI, as MCP progress, as Temporal heartbeat details); it never
 * reaches the model, and the call's result replaces every partial.
 */
export interface ToolEvent {
  /** The id of the `ToolCall` that is running. */
  callId: string;
  /**
   * How far the call has got, in whole percent (0 to 100; a tool reports a fraction, which is
   * rounded).
   */
  percent?: number | JsonNumber;
  /** What the call is doing, in a few words. */
  message?: string;
  /** The result so far, as the tool yields it; the call's last value is its result. */
  partial?: ToolResult;
}

/**
 * A `ToolEvent` as the parsers return it: every field the parser fills in
 * (a field with a default) is present, so strict code reads it without a check.
 */
export interface ParsedToolEvent extends ToolEvent {
  partial?: ParsedToolResult;
}

/** Every wire type by its name, as `extraKeys` takes them. */
export interface WireTypes {
  Annotations: Annotations;
  ContentPart: ContentPart;
  Request: Request;
  Answer: Answer;
  ToolResult: ToolResult;
  ToolIcon: ToolIcon;
  ToolHints: ToolHints;
  ToolSpec: ToolSpec;
  ToolCall: ToolCall;
  ToolCallResult: ToolCallResult;
  RunResult: RunResult;
  ToolEvent: ToolEvent;
}
