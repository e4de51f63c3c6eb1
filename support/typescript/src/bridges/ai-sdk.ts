// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult, ContentPart

/**
 * `toolnexus-contract/ai-sdk`: a toolnexus `Toolkit`'s tools as Vercel AI SDK tools (the `ai`
 * package, 6 or 7: an optional peer dependency), and the AI SDK's tool approvals as toolnexus
 * suspensions.
 *
 * - {@link aiTools}`(toolkit)` is a `ToolSet` for `generateText` and `streamText`: each tool's
 *   name, description and input schema as declared (`jsonSchema`), `execute` through the toolkit
 *   (checked and run by `Tool.call`), `needsApproval` from the tool's approval rule (asked, as the
 *   toolkit asks it, only of arguments that pass the tool's check), and `toModelOutput`
 *   ({@link toModelOutput}): the output text, or the text and each part (images and files inline
 *   or by URL); an error result is `error-text`. `execute` returns the whole result, so the host
 *   reads it (parts, `metadata`) in `toolResults[i].output` ({@link resultOf}); the model reads
 *   only what `toModelOutput` makes of it.
 * - A suspension inside a call: with `waitFor` it is answered in place by the loop's rule;
 *   without it the model reads the prompt as an error and the result keeps the `Request`.
 * - The approval round trip: when a step ends on `tool-approval-request` parts,
 *   {@link suspend}`(toolkit, result)` turns them into a toolnexus suspension, a `RunResult` (sealed
 *   when the toolkit has a key) that the host stores and resumes later, in another process, in
 *   TypeScript, Python or Rust. The AI SDK's `tool-approval-response` parts answer it:
 *   {@link approvalAnswers}`(run, messages)` gives the `Answer`s for `toolkit.resume`, and
 *   {@link withResults}`(messages, resumed)` adds the results to the conversation as `tool-result`
 *   parts, which the next `generateText` sends to the model without running the tools again.
 *
 * Parts are written in the forms both 6 and 7 take (`image-data`, `image-url`, `file-data`,
 * `file-url`; version 7 marks them deprecated in favour of `file`). `metadata` never reaches the
 * model.
 *
 * @packageDocumentation
 */

import { jsonSchema, type ModelMessage, type Tool as AiTool, type ToolModelMessage, type ToolResultPart, type ToolSet } from "ai";
import { parseToolResult } from "../codec.js";
import { fileName, forModel, omitted, shape } from "../adapters/common.js";
import { gate } from "../engine.js";
import { isPlainObject, type JsonObject } from "../json.js";
import type { Tool } from "../tool.js";
import type { RunCallsOptions, Toolkit } from "../toolkit.js";
import type { Answer, ContentPart, ParsedToolResult, RunResult, ToolCall, ToolResult } from "../types.js";
import { callInPlace, toolkitOf, type BridgeOptions, type BridgedTools } from "./in-place.js";

export type { BridgeOptions, BridgedTools } from "./in-place.js";

/** What `toModelOutput` gives the AI SDK: a tool result's output as the model reads it. */
export type ToolResultOutput = ToolResultPart["output"];
type ContentValue = Extract<ToolResultOutput, { type: "content" }>["value"][number];

/** An AI SDK tool made by {@link aiTools}: arguments in, the whole toolnexus result out. */
export type ToolnexusAiTool = AiTool<JsonObject, ParsedToolResult>;

/** A `tool-approval-request` part as `generateText`, `streamText` and a step give it (6 and 7). */
export interface ApprovalRequestPart {
  type: "tool-approval-request";
  approvalId: string;
  toolCall: { toolCallId: string; toolName: string; input: unknown };
  isAutomatic?: boolean | undefined;
}

/** Where {@link suspend} finds the approval requests: a result or step (`content`), or its parts. */
export type ApprovalSource = { readonly content: readonly unknown[] } | readonly unknown[];

/** The AI SDK tools of `tools` (a `Toolkit`, run through it, or toolnexus `Tool`s), by name. */
export function aiTools(tools: BridgedTools, options: BridgeOptions = {}): Record<string, ToolnexusAiTool> {
  const toolkit = toolkitOf(tools, "aiTools");
  const out: Record<string, ToolnexusAiTool> = {};
  for (const tool of toolkit.tools()) {
    out[tool.name] = aiTool(toolkit, tool, options);
  }
  return out;
}

function aiTool(toolkit: Toolkit, tool: Tool, options: BridgeOptions): ToolnexusAiTool {
  const made: ToolnexusAiTool = {
    description: tool.description,
    inputSchema: jsonSchema<JsonObject>(tool.inputSchema as Parameters<typeof jsonSchema>[0]),
    execute: (input: JsonObject, { toolCallId, abortSignal }: { toolCallId: string; abortSignal?: AbortSignal | undefined }) =>
      callInPlace(toolkit, { id: toolCallId, name: tool.name, arguments: input }, options, abortSignal),
    toModelOutput: ({ output }: { output: ParsedToolResult }) => toModelOutput(output),
  };
  const rule = approvalRule(tool);
  if (rule !== undefined) {
    made.needsApproval = rule;
  }
  return made;
}

/** The AI SDK's `needsApproval` for `tool`: the loop's gate (`engine.ts` `gate`). */
function approvalRule(tool: Tool): ToolnexusAiTool["needsApproval"] {
  if (typeof tool.needsApproval === "boolean") {
    return tool.needsApproval || undefined;
  }
  return (input: JsonObject, { toolCallId }: { toolCallId: string }) =>
    gate(tool, { id: toolCallId, name: tool.name, arguments: isPlainObject(input) ? input : {} }) !== undefined;
}

/** What the model reads for `result`: its text (`error-text` for an error), or, when it has parts
 * for the model, the text and each part as `content`. */
export function toModelOutput(result: ToolResult): ToolResultOutput {
  if (result.isError) {
    return { type: "error-text", value: result.output };
  }
  const parts = (result.parts ?? []).map((part, i) => [part, i] as const).filter(([part]) => forModel(part));
  if (parts.length === 0) {
    return { type: "text", value: result.output };
  }
  const value: ContentValue[] = result.output ? [{ type: "text", text: result.output }] : [];
  for (const [part, i] of parts) {
    value.push(contentOf(part, i));
  }
  return { type: "content", value };
}

function contentOf(part: ContentPart, index: number): ContentValue {
  const form = shape(part);
  const mediaType = part.mimeType ?? "";
  if (form === "text") {
    return { type: "text", text: part.text ?? "" };
  }
  if (form === "inline" && mediaType) {
    return part.type === "image"
      ? { type: "image-data", data: part.data ?? "", mediaType }
      : { type: "file-data", data: part.data ?? "", mediaType, filename: fileName(part, index) };
  }
  if (form === "url") {
    return part.type === "image"
      ? { type: "image-url", url: part.url ?? "" }
      : { type: "file-url", url: part.url ?? "", ...(mediaType ? { mediaType } : {}) };
  }
  return { type: "text", text: omitted(part, "the AI SDK") };
}

/** The toolnexus result a tool of {@link aiTools} returned (a tool result's `output`, also after a
 * JSON round trip), or undefined for the output of another tool. */
export function resultOf(output: unknown): ParsedToolResult | undefined {
  if (!isPlainObject(output) || typeof output["output"] !== "string") {
    return undefined;
  }
  try {
    return parseToolResult(output);
  } catch {
    return undefined;
  }
}

/** The `tool-approval-request` parts of `source` that are the AI SDK's questions to a person (not
 * those it decided itself, `isAutomatic`), in order. */
export function approvalRequests(source: ApprovalSource): ApprovalRequestPart[] {
  const parts: readonly unknown[] = Array.isArray(source) ? source : (source as { content: readonly unknown[] }).content;
  return parts.filter(
    (p): p is ApprovalRequestPart =>
      isPlainObject(p) && p["type"] === "tool-approval-request" && isPlainObject(p["toolCall"]) && p["isAutomatic"] !== true,
  );
}

/**
 * The toolnexus suspension of the approvals `source` waits on: `toolkit.runCalls` of their calls
 * (those of the toolkit's tools), which stops on the approvals as a `pending` `RunResult` (sealed
 * when the toolkit has a key, bound by `options` as `runCalls` binds it), or `done` when a policy
 * of the toolkit decided them all. Undefined when `source` asks no approval of a toolkit tool.
 */
export async function suspend(toolkit: Toolkit, source: ApprovalSource, options: RunCallsOptions = {}): Promise<RunResult | undefined> {
  const calls: ToolCall[] = approvalRequests(source)
    .filter((part) => toolkit.get(part.toolCall.toolName) !== undefined)
    .map((part) => ({
      id: part.toolCall.toolCallId,
      name: part.toolCall.toolName,
      arguments: (isPlainObject(part.toolCall.input) ? part.toolCall.input : {}) as JsonObject,
    }));
  return calls.length === 0 ? undefined : toolkit.runCalls(calls, options);
}

/**
 * The `Answer`s that the AI SDK's `tool-approval-response` parts in `messages` give the calls
 * `run` waits on, matched through the `tool-approval-request` parts (approval id to call id): an
 * approval is `ok`; a denial is `declined`, its `reason` the `message` the model reads. A call with
 * no response in `messages` gets no answer.
 */
export function approvalAnswers(run: RunResult, messages: readonly ModelMessage[]): Answer[] {
  const callOf = new Map<string, string>(); // approval id -> call id
  for (const message of messages) {
    if (message.role === "assistant" && Array.isArray(message.content)) {
      for (const part of message.content as unknown[]) {
        if (isPlainObject(part) && part["type"] === "tool-approval-request") {
          callOf.set(String(part["approvalId"]), String(part["toolCallId"]));
        }
      }
    }
  }
  const waiting = new Map<string, string>(); // call id -> request id
  (run.calls ?? []).forEach((call, i) => {
    const request = run.requests?.[i];
    if (request !== undefined) {
      waiting.set(call.id, request.id);
    }
  });
  const answers: Answer[] = [];
  for (const message of messages) {
    if (message.role !== "tool") {
      continue;
    }
    for (const part of message.content as unknown[]) {
      if (!isPlainObject(part) || part["type"] !== "tool-approval-response") {
        continue;
      }
      const requestId = waiting.get(callOf.get(String(part["approvalId"])) ?? "");
      if (requestId === undefined) {
        continue;
      }
      waiting.delete(callOf.get(String(part["approvalId"])) ?? "");
      const reason = typeof part["reason"] === "string" && part["reason"] ? { message: part["reason"] } : {};
      answers.push(part["approved"] === true ? { id: requestId, ok: true } : { id: requestId, ok: false, reason: "declined", ...reason });
    }
  }
  return answers;
}

/**
 * `messages` with the results of `run` (a resumed run's `results`) as `tool-result` parts: added
 * to the last message when it is a tool message (beside the approval responses, which the AI SDK
 * then leaves alone), else as a new tool message. A call that already has a result there keeps it.
 */
export function withResults(messages: readonly ModelMessage[], run: RunResult): ModelMessage[] {
  const last = messages.at(-1);
  const tail: ToolModelMessage = last?.role === "tool" ? { ...last, content: [...last.content] } : { role: "tool", content: [] };
  const have = new Set(tail.content.map((part) => ("toolCallId" in part ? part.toolCallId : "")));
  for (const done of run.results) {
    if (!have.has(done.id)) {
      tail.content.push({ type: "tool-result", toolCallId: done.id, toolName: done.name, output: toModelOutput(done.result) });
    }
  }
  return last?.role === "tool" ? [...messages.slice(0, -1), tail] : [...messages, tail];
}

/** The `ToolSet` type the AI SDK's calls take, for a host that mixes these tools with its own. */
export type { ToolSet };
