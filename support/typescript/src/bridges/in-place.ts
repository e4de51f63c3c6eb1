// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

// What the framework bridges (`ai-sdk.ts`, `openai-agents.ts`) share: one call run by the loop's
// steps where the framework runs it (a port of `_InPlace` in Python's `toolnexus/openai_agents.py`),
// and the tools a bridge takes.

import { parseAnswer, parseToolResult } from "../codec.js";
import { ResumeError } from "../errors.js";
import { Run, STOP, Settle, checkAnswer, drive, quote, type Ask, type Effects } from "../engine.js";
import { describe, isPlainObject, type JsonObject } from "../json.js";
import { pending } from "../suspend.js";
import { Tool, ToolContext } from "../tool.js";
import { Toolkit, type WaitFor } from "../toolkit.js";
import type { Answer, ParsedToolResult, ToolCall, ToolResult } from "../types.js";

/** The options every bridge's tools take. */
export interface BridgeOptions {
  /** Answers a suspension in place (sync or async): the call then follows the loop's rule there
   * and then. Without it the model reads the suspension's prompt as an error. */
  waitFor?: WaitFor | undefined;
  /** Seconds each call may take (its `ToolContext.timeout`). */
  timeout?: number | undefined;
}

/** A bridge's tools: a `Toolkit` (its tools, run through it) or toolnexus `Tool`s. */
export type BridgedTools = Toolkit | Iterable<Tool>;

/** The toolkit that runs `tools` (a new one for a list of tools); a `TypeError` naming `where`
 * for anything that is not a toolnexus `Tool`. */
export function toolkitOf(tools: BridgedTools, where: string): Toolkit {
  if (tools instanceof Toolkit) {
    return tools;
  }
  if (tools === null || typeof tools !== "object" || typeof (tools as Iterable<Tool>)[Symbol.iterator] !== "function") {
    throw new TypeError(`${where} takes a Toolkit or toolnexus Tools, got ${describe(tools)}`);
  }
  const listed = [...tools];
  listed.forEach((t, i) => {
    if (!(t instanceof Tool)) {
      throw new TypeError(`${where} takes toolnexus Tools: item ${i} is ${describe(t)}`);
    }
  });
  return new Toolkit(listed);
}

/** The error result for arguments that are not a JSON object, worded as `Tool.call` words it. */
export function notAnObject(name: string, args: unknown): ParsedToolResult {
  return { output: `invalid arguments for ${name}: $: expected a JSON object, got ${describe(args)}`, isError: true, parts: [] };
}

/**
 * One call, already approved by the framework, by the loop's steps (`engine.ts` `drive`): run by
 * `toolkit.execute`; a suspension is answered by `waitFor` in place (an `ok` answer runs the tool
 * again with `ctx.answer`, a second suspension is `unresolved: <prompt>`, a refusal
 * `declined/expired: <prompt>`), or left as the suspension's result without it.
 */
export async function callInPlace(toolkit: Toolkit, call: ToolCall, options: BridgeOptions, signal?: AbortSignal): Promise<ParsedToolResult> {
  if (!isPlainObject(call.arguments)) {
    return notAnObject(call.name, call.arguments);
  }
  try {
    const outcome = await drive(new Run(call), new InPlace(toolkit, options, signal));
    const result: ToolResult = outcome instanceof Settle ? outcome.result : pending(outcome.request);
    return parseToolResult(result);
  } catch (err) {
    if (ResumeError.isResumeError(err)) {
      return { output: err.message, isError: true, parts: [] };
    }
    throw err;
  }
}

/** The bridge's effects: the tool run by the toolkit, each question asked of `waitFor` (or left
 * unasked), the toolkit's clock. The framework keeps its own record of a run: no decision log. */
class InPlace implements Effects {
  constructor(
    private readonly toolkit: Toolkit,
    private readonly options: BridgeOptions,
    private readonly signal: AbortSignal | undefined,
  ) {}

  run(step: Run): Promise<ToolResult> {
    const ctx = new ToolContext({
      timeout: this.options.timeout,
      signal: this.signal,
      answer: step.answer,
      request: step.request,
      callId: step.call.id,
    });
    return this.toolkit.execute(step.call.name, step.call.arguments as JsonObject, ctx);
  }

  async ask(step: Ask): Promise<Answer | typeof STOP | undefined> {
    const waitFor = this.options.waitFor;
    if (waitFor === undefined) {
      return STOP;
    }
    const given: unknown = await waitFor(step.request);
    if (!isPlainObject(given)) {
      throw new TypeError(`waitFor must return an Answer, got ${describe(given)}`);
    }
    const answer = parseAnswer(given);
    if (answer.id !== step.request.id) {
      throw new ResumeError("mismatch", `waitFor answered ${quote(answer.id)}, but the request is ${quote(step.request.id)}`);
    }
    checkAnswer(step, answer);
    return answer;
  }

  now(): number {
    return this.toolkit.now();
  }

  decide(): void {}
}
