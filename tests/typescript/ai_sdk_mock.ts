// What the AI SDK bridge's tests script the AI SDK's own mock model with (`MockLanguageModelV3`
// of `ai/test`, served by 6 and 7 alike): a tool call, a final text, as generate results or as
// stream parts.

import type { MockLanguageModelV3 } from "ai/test";

type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;
type LanguageModelV3StreamResult = Awaited<ReturnType<MockLanguageModelV3["doStream"]>>;
type LanguageModelV3StreamPart = LanguageModelV3StreamResult["stream"] extends ReadableStream<infer P> ? P : never;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** The model asks for one call of `name` (or several: `[id, name, args]` each). */
export function calls(...asked: [string, string, object][]): LanguageModelV3GenerateResult {
  return {
    content: asked.map(([toolCallId, toolName, args]) => ({ type: "tool-call", toolCallId, toolName, input: JSON.stringify(args) })),
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  };
}

/** The model answers `text`. */
export function says(text: string): LanguageModelV3GenerateResult {
  return { content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
}

/** `result` as the stream a model sends. */
export function streamed(result: LanguageModelV3GenerateResult): LanguageModelV3StreamResult {
  const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
  for (const item of result.content) {
    if (item.type === "text") {
      parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: item.text }, { type: "text-end", id: "t" });
    } else if (item.type === "tool-call") {
      parts.push(item);
    }
  }
  parts.push({ type: "finish", usage: result.usage, finishReason: result.finishReason });
  return {
    stream: new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        parts.forEach((p) => controller.enqueue(p));
        controller.close();
      },
    }),
  };
}
