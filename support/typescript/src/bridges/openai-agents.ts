// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult, ContentPart

/**
 * `toolnexus-contract/openai-agents`: toolnexus tools as tools of the OpenAI Agents SDK for
 * JavaScript (`@openai/agents`, an optional peer dependency), and a run's approval interruptions
 * as toolnexus requests. The same mapping as Python's `toolnexus.openai_agents`.
 *
 * - {@link functionTools}`(toolkit)` makes a `FunctionTool` per tool ({@link functionTool} for
 *   one): the same name, description and input schema (passed as it is, `strict: false`), each
 *   call run through the toolkit (checked by `Tool.call`).
 * - `needsApproval` is the SDK's own: `true`, or a rule over the checked arguments (asked, as the
 *   toolkit asks it, only of arguments that pass the tool's check), so the run stops with an
 *   approval interruption before the tool runs. {@link approvalRequests}`(result)` is each
 *   interruption as a toolnexus `Request` (kind `approval`, `data` `{tool, arguments}`, an id
 *   derived from the call's id, so the same after `RunState.fromString` in another process), and
 *   {@link applyAnswers}`(state, answers)` answers them by the loop's rule: `ok` approves, a refusal
 *   rejects with the text the model then reads (`declined: <message>`, or `declined: the call to
 *   <name> was not approved`).
 * - What the model reads: the output text; with parts, a list of `ToolOutputText`,
 *   `ToolOutputImage` (inline as a data URL, or its URL) and `ToolOutputFileContent` (inline, with
 *   its name, or its URL); a part the Responses API does not take in a tool output (audio, a part
 *   with no content) is a text note naming it. An error result is its text.
 * - What the host reads: the whole result, in the output item's `customData`
 *   (`toolnexus_result`, its wire form): {@link resultOf}`(item)` gives back the `ToolResult`, with
 *   its parts and host-only `metadata`, which never reaches the model.
 * - A suspension inside a call: the SDK's run stops only before a tool runs. With `waitFor` the
 *   call follows the loop's rule in place; without it the model reads the prompt as an error and
 *   `resultOf` has the `Request` (`pendingOf`).
 * - Arguments that are not a JSON object are an error the model reads (`invalid arguments for
 *   <name>: $: ...`), as `Tool.call` words any refused arguments. Text that is not JSON at all
 *   the SDK refuses itself, before any tool runs, in its own words.
 *
 * @packageDocumentation
 */

import { tool as agentsTool, type FunctionTool, type RunState, type RunToolApprovalItem, type RunToolCallOutputItem } from "@openai/agents";
import type { ToolOutputFileContent, ToolOutputImage, ToolOutputText } from "@openai/agents";
import { parseToolResult, toWireToolResult } from "../codec.js";
import { dataUrl, fileName, forModel, omitted, shape } from "../adapters/common.js";
import { Ask, Run, answered, gate } from "../engine.js";
import { ToolnexusError } from "../errors.js";
import { isPlainObject, readJson, type JsonObject } from "../json.js";
import { approvalPrompt } from "../loop.js";
import { hex, sha256, utf8 } from "../seal.js";
import type { Tool } from "../tool.js";
import type { Toolkit } from "../toolkit.js";
import type { Answer, ContentPart, ParsedToolResult, Request, ToolCall, ToolResult } from "../types.js";
import { callInPlace, toolkitOf, type BridgeOptions, type BridgedTools } from "./in-place.js";

export type { BridgeOptions, BridgedTools } from "./in-place.js";

/** What the model reads from a tool of {@link functionTool}. */
export type ToolOutput = string | (ToolOutputText | ToolOutputImage | ToolOutputFileContent)[];

const KEY = "toolnexus_result";
const IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** The `FunctionTool`s of `tools` (a `Toolkit`, run through it, or toolnexus `Tool`s), in order. */
export function functionTools(tools: BridgedTools, options: BridgeOptions = {}): FunctionTool[] {
  const toolkit = toolkitOf(tools, "functionTools");
  return toolkit.tools().map((t) => made(toolkit, t, options));
}

/** A `FunctionTool` running `tool` (in a toolkit of its own); see the module's description. */
export function functionTool(tool: Tool, options: BridgeOptions = {}): FunctionTool {
  const toolkit = toolkitOf([tool], "functionTool");
  return made(toolkit, toolkit.tools()[0] as Tool, options);
}

function made(toolkit: Toolkit, tool: Tool, options: BridgeOptions): FunctionTool {
  const results = new Map<string, ToolResult>(); // by call id, until the SDK takes its custom data
  const keep = (callId: string, result: ToolResult): ToolOutput => {
    results.set(callId, result);
    return toolOutput(result);
  };
  return agentsTool({
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema as never, // the schema as declared; the tool checks the arguments
    strict: false,
    needsApproval: approvalRule(tool),
    execute: async (input: unknown, _ctx, details) => {
      const callId = details?.toolCall?.callId ?? "";
      const call: ToolCall = { id: callId, name: tool.name, arguments: input as JsonObject };
      return keep(callId, await callInPlace(toolkit, call, options, details?.signal));
    },
    // What `execute` throws (a `waitFor` that fails): the model reads its message, the host the result.
    errorFunction: (_ctx, error, details) => {
      const output = error instanceof Error ? error.message : String(error);
      return keep(details?.toolCall?.callId ?? "", { output, isError: true }) as string;
    },
    customDataExtractor: ({ toolCall }) => {
      const result = results.get(toolCall.callId);
      results.delete(toolCall.callId);
      return result === undefined ? undefined : { [KEY]: toWireToolResult(result) };
    },
  }) as unknown as FunctionTool;
}

/** The SDK's `needsApproval` for `tool`: the loop's gate (`engine.ts` `gate`). */
function approvalRule(tool: Tool): boolean | ((ctx: unknown, input: unknown, callId?: string) => Promise<boolean>) {
  if (typeof tool.needsApproval === "boolean") {
    return tool.needsApproval;
  }
  return async (_ctx, input, callId) => gate(tool, { id: callId ?? "", name: tool.name, arguments: (isPlainObject(input) ? input : {}) as JsonObject }) !== undefined;
}

/** What the model reads for `result`: its text, or the text and each part for the model. */
export function toolOutput(result: ToolResult): ToolOutput {
  const parts = (result.parts ?? []).map((part, i) => [part, i] as const).filter(([part]) => forModel(part));
  if (parts.length === 0) {
    return result.output;
  }
  const items: Exclude<ToolOutput, string> = result.output ? [{ type: "text", text: result.output }] : [];
  for (const [part, i] of parts) {
    items.push(outputOf(part, i));
  }
  return items;
}

function outputOf(part: ContentPart, index: number): ToolOutputText | ToolOutputImage | ToolOutputFileContent {
  const form = shape(part);
  if (form === "text") {
    return { type: "text", text: part.text ?? "" };
  }
  if (part.type === "image" && (form === "url" || (form === "inline" && IMAGES.has(part.mimeType ?? "")))) {
    return { type: "image", image: form === "inline" ? dataUrl(part) : (part.url ?? "") };
  }
  if (part.type === "file" && form === "inline") {
    return { type: "file", file: { data: dataUrl(part), mediaType: part.mimeType ?? "", filename: fileName(part, index) } };
  }
  if (part.type === "file" && form === "url") {
    return { type: "file", file: { url: part.url ?? "", ...(part.name ? { filename: part.name } : {}) } };
  }
  return { type: "text", text: omitted(part, "the OpenAI Agents SDK") };
}

/** The toolnexus `ToolResult` behind an output item of a tool from {@link functionTool}, or
 * undefined for an item of another tool. */
export function resultOf(item: RunToolCallOutputItem): ParsedToolResult | undefined {
  const data = item.customData?.[KEY];
  return data === undefined ? undefined : parseToolResult(data);
}

/** The id of the approval request of the call `callId`: `apr-` and a digest of the call id. */
function approvalId(callId: string): string {
  return "apr-" + hex(sha256(utf8(callId))).slice(0, 32);
}

/** The call an interruption waits on, as toolnexus has it (undefined: not a function call). */
function callOf(item: RunToolApprovalItem): ToolCall | undefined {
  const raw = item.rawItem as { type?: string; callId?: string; name?: string; arguments?: string };
  if (raw.type !== "function_call" || typeof raw.callId !== "string" || typeof raw.name !== "string") {
    return undefined;
  }
  let args: unknown;
  try {
    args = readJson(raw.arguments || "{}");
  } catch {
    args = {};
  }
  return { id: raw.callId, name: raw.name, arguments: (isPlainObject(args) ? args : {}) as JsonObject };
}

function requestOf(call: ToolCall): Request {
  return { id: approvalId(call.id), kind: "approval", prompt: approvalPrompt(call.name), data: { tool: call.name, arguments: call.arguments } };
}

/** Each approval interruption of a function call (`result.interruptions`, or `state.getInterruptions()`)
 * as a toolnexus `Request`, in order. */
export function approvalRequests(source: { readonly interruptions: readonly RunToolApprovalItem[] } | readonly RunToolApprovalItem[]): Request[] {
  const items = Array.isArray(source) ? source : (source as { interruptions: readonly RunToolApprovalItem[] }).interruptions;
  return items.flatMap((item) => {
    const call = callOf(item);
    return call === undefined ? [] : [requestOf(call)];
  });
}

/** What {@link applyAnswers} uses of a `RunState` (any agent's, any context's). */
export type ApprovalState = Pick<RunState<unknown, never>, "getInterruptions" | "approve" | "reject">;

/**
 * Answers the approval interruptions of `state` (the SDK's `RunState`, maybe restored with
 * `RunState.fromString`) by the loop's rule: an `ok` answer approves the call; a refusal rejects
 * it, and the model reads the refusal's text. Then `run(agent, state)` continues. An answer whose
 * id no interruption has, or that edits the arguments (the SDK runs a call as the model asked
 * it), is a `ToolnexusError`, and nothing is answered.
 */
export function applyAnswers(state: ApprovalState, answers: Answer | readonly Answer[]): void {
  const given = new Map((Array.isArray(answers) ? answers : [answers]).map((a: Answer) => [a.id, a]));
  const decisions: (() => void)[] = [];
  for (const item of state.getInterruptions()) {
    const call = callOf(item);
    const answer = call === undefined ? undefined : given.get(approvalId(call.id));
    if (call === undefined || answer === undefined) {
      continue;
    }
    given.delete(answer.id);
    const step = answered(new Ask(call, requestOf(call)), answer, Date.now());
    if (step instanceof Run) {
      if (step.call.arguments !== call.arguments) {
        throw new ToolnexusError(`the answer ${JSON.stringify(answer.id)} edits the arguments of ${call.name}: the OpenAI Agents SDK runs a call with the model's arguments`);
      }
      decisions.push(() => state.approve(item));
    } else {
      decisions.push(() => state.reject(item, { message: step.result.output }));
    }
  }
  const unknown = [...given.keys()];
  if (unknown.length > 0) {
    throw new ToolnexusError(`no approval interruption of this run has the request id ${JSON.stringify(unknown[0])}`);
  }
  decisions.forEach((decide) => decide());
}
