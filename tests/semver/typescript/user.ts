// Code a user writes against the TypeScript types: object literals, spreads, destructuring,
// functions over them, the parsers and emitters. tests/project/test_semver.py compiles it (strict)
// against this version's package and against one whose schema adds an optional field to
// every type: an added optional property breaks none of it.

import {
  fromJsonRunResult,
  parseContentPart,
  pending,
  pendingOf,
  toJsonRunResult,
  toJsonToolResult,
  type Answer,
  type ContentPart,
  type Request,
  type RunResult,
  type ToolCall,
  type ToolResult,
  type ToolSpec,
} from "toolnexus-contract";

const part: ContentPart = { type: "image", mimeType: "image/png", url: "https://example.com/c.png" };
const result: ToolResult = { output: "a chart", isError: false, parts: [part, { type: "text", text: "40 ms" }] };
const copy: ToolResult = { ...result, isError: true };
const { output, parts = [], ...rest } = copy;
const request: Request = { id: "", kind: "approval", prompt: "Delete 3 files?" };
const answer: Answer = { id: "pnd-1", ok: false, reason: "declined" };
const call: ToolCall = { id: "c1", name: "chart", arguments: {} };
const spec: ToolSpec = { name: "chart", description: "Draw a chart", inputSchema: { type: "object" } };
const run: RunResult = { status: "done", results: [{ id: call.id, name: call.name, result }] };

function summary(r: ToolResult): string {
  return `${r.output} error=${String(r.isError ?? false)} parts=${r.parts?.length ?? 0}`;
}

function kinds(r: Pick<ToolResult, "parts">): ContentPart["type"][] {
  return (r.parts ?? []).map((p) => p.type);
}

const suspended = pending(request);
export const checks = [
  summary(result),
  kinds(copy),
  toJsonToolResult(copy),
  fromJsonRunResult(toJsonRunResult(run)).status,
  pendingOf(suspended)?.kind,
  parseContentPart(part).type,
  output,
  parts.length,
  rest,
  answer.reason,
  spec.name,
];
