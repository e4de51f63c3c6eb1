// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * Consuming an MCP server's tools (`mcpToolsFrom`), a port of Python's `toolnexus/mcp/_client.py`
 * at the protocol versions the SDK's 1.x speaks: every tool of a connected SDK `Client` becomes a
 * `Tool` whose calls go over the client. A server's elicitation is a suspension of the waiting call
 * when the client has an {@link ElicitationRelay}; the server's progress reaches `ctx.progress`.
 *
 * A server is not trusted to behave: its listing is bounded (pages, tools, a cursor sent twice), each
 * call has a timeout (an error result; the server is sent `notifications/cancelled`), a name it lists
 * twice is taken once, and a URL elicitation to anything but an `http` or `https` URL is declined
 * without being shown to anyone.
 *
 * @packageDocumentation
 */

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, type CallToolResult, type Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { fromMcpCallToolResult } from "../adapters/mcp.js";
import { WireError } from "../errors.js";
import type { JsonObject } from "../json.js";
import { compileSchema } from "../schema.js";
import { pending } from "../suspend.js";
import { Tool, normalizeToolName, type ToolContext } from "../tool.js";
import { parseToolIcon, parseToolResult } from "../codec.js";
import type { ParsedToolHints, ParsedToolIcon, ParsedToolResult } from "../types.js";
import { ElicitationRelay, type Landed, type Send } from "./relay.js";

/** The options of {@link mcpToolsFrom}. */
export interface McpToolsOptions {
  /** The client's relay (`relay.attach(client)`): a server's elicitation becomes a suspension. */
  elicitations?: ElicitationRelay | undefined;
  /** Seconds a call may wait on the server (60 by default; `null`: no limit), not counting the time a person takes to answer its elicitation. */
  timeout?: number | null | undefined;
  /** The timeout per tool, by the server's name for it. */
  timeouts?: { readonly [tool: string]: number | null } | undefined;
  /** Each tool is named `prefix + <its name>`. */
  prefix?: string | undefined;
  /** The server's names to local ones (a name the server does not list is a `RangeError`). */
  rename?: { readonly [tool: string]: string } | undefined;
  /** Pages of `tools/list` taken at most (100). */
  maxPages?: number | undefined;
  /** Tools taken at most (10,000). */
  maxTools?: number | undefined;
  /** Hears what is left out (a name listed twice, an output schema that is not a JSON Schema); `console.warn` by default. */
  onWarning?: ((message: string) => void) | undefined;
}

/** The SDK's largest request timeout (a timer's): the call's own timeout is toolnexus's. */
const NO_SDK_TIMEOUT = 2 ** 31 - 1;

declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(handle: unknown): void;

function errorResult(output: string): ParsedToolResult {
  return { output, isError: true, parts: [] };
}

class Remote {
  constructor(
    readonly client: Client,
    readonly name: string,
    readonly server: string,
    readonly relay: ElicitationRelay | undefined,
    readonly timeout: number | null,
  ) {}

  async handle(args: JsonObject, ctx: ToolContext): Promise<ParsedToolResult> {
    const answer = ctx.answer;
    if (answer === undefined) {
      return this.#call(args, ctx);
    }
    const landed = this.relay?.answer(answer, ctx);
    if (landed !== undefined) {
      return this.#mapped(await landed);
    }
    if (ctx.request !== undefined && ctx.request.id === answer.id) {
      return errorResult(
        `the MCP elicitation '${answer.id}' of ${this.name} is no longer open: it is answered over its MCP call, in the process that asked it, within the relay's wait`,
      );
    }
    return errorResult(`no MCP request '${answer.id}' of ${this.name} is known here: resume the run through a Toolkit, which passes the request the answer is for`);
  }

  #send(args: JsonObject): Send {
    return (signal, onprogress) =>
      this.client.callTool({ name: this.name, arguments: args }, CallToolResultSchema, { signal, onprogress, timeout: NO_SDK_TIMEOUT }) as Promise<CallToolResult>;
  }

  async #call(args: JsonObject, ctx: ToolContext): Promise<ParsedToolResult> {
    const budget = this.timeout === null ? undefined : this.timeout * 1000;
    if (this.relay !== undefined) {
      return this.#mapped(await this.relay.start(this.#send(args), budget, ctx));
    }
    const abort = new AbortController();
    let timedOut = false;
    const timer = budget === undefined ? undefined : setTimeout(() => ((timedOut = true), abort.abort(new Error("timed out"))), budget);
    const onprogress = ({ progress, total, message }: { progress: number; total?: number | undefined; message?: string | undefined }): void => {
      if (total) {
        ctx.progress(Math.min(Math.max(progress / total, 0), 1), message ?? "");
      }
    };
    try {
      return this.#mapped({ done: await this.#send(args)(abort.signal, onprogress) });
    } catch (failed) {
      return this.#mapped(timedOut ? { timedOut: true } : { failed });
    } finally {
      clearTimeout(timer);
    }
  }

  #mapped(landed: Landed): ParsedToolResult {
    if ("asked" in landed) {
      return parseToolResult(pending(landed.asked));
    }
    if ("timedOut" in landed) {
      return errorResult(`the MCP server '${this.server}' did not answer the call to '${this.name}' within ${String(this.timeout)} s; the call was cancelled`);
    }
    if ("failed" in landed) {
      return errorResult(landed.failed instanceof Error ? landed.failed.message : String(landed.failed));
    }
    try {
      return fromMcpCallToolResult(landed.done);
    } catch (err) {
      if (WireError.isWireError(err)) {
        return errorResult(`the MCP server '${this.server}' sent a result toolnexus cannot read: ${err.message}`);
      }
      throw err;
    }
  }
}

/** Every page of `tools/list`, within the bounds; a `RangeError` saying which was passed. */
async function listed(client: Client, server: string, maxPages: number, maxTools: number): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    if (page > maxPages) {
      throw new RangeError(`the MCP server '${server}' has more than ${maxPages} pages of tools/list (maxPages); no tools were taken from it`);
    }
    const got = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...got.tools);
    if (tools.length > maxTools) {
      throw new RangeError(`the MCP server '${server}' lists more than ${maxTools} tools (maxTools); no tools were taken from it`);
    }
    cursor = got.nextCursor;
    if (!cursor) {
      return tools;
    }
    if (cursors.has(cursor)) {
      throw new RangeError(`the MCP server '${server}' sent the cursor ${JSON.stringify(cursor.slice(0, 100))} twice (page ${page} of tools/list): it would be listed forever; no tools were taken from it`);
    }
    cursors.add(cursor);
  }
}

function warn(message: string): void {
  (globalThis as unknown as { console?: { warn(m: string): void } }).console?.warn(message);
}

/** The output schema a tool declares, kept and checked; one that is not a JSON Schema is left out. */
function output(tool: McpTool, onWarning: (message: string) => void): ConstructorParameters<typeof Tool>[6] {
  if (tool.outputSchema === undefined) {
    return undefined;
  }
  const schema = tool.outputSchema as unknown as JsonObject;
  try {
    return { schema, check: compileSchema(schema, "output schema") };
  } catch (err) {
    onWarning(`the outputSchema of the MCP tool '${tool.name}' is not a valid JSON Schema; left out: ${(err as Error).message}`);
    return undefined;
  }
}

/** MCP's annotations, title and icons as hints (Python's `_hints`), with MCP's defaults for the
 * annotations left out; undefined when the tool has none of them. An icon whose `src` is not an
 * `https` or `data:` URL, or that is not a valid `ToolIcon`, is left out (it would be fetched by
 * whoever shows it). */
function hints(tool: McpTool): ParsedToolHints | undefined {
  const marked = tool.annotations ?? {};
  const icons: ParsedToolIcon[] = [];
  for (const icon of tool.icons ?? []) {
    const src = String(icon.src).slice(0, 8).toLowerCase();
    if (src === "https://" || src.startsWith("data:")) {
      try {
        icons.push(parseToolIcon(icon));
      } catch {
        // not a ToolIcon: left out, as an icon that is not shown
      }
    }
  }
  const title = tool.title || marked.title;
  const flags = [marked.readOnlyHint, marked.destructiveHint, marked.idempotentHint, marked.openWorldHint];
  if (icons.length === 0 && !title && flags.every((f) => f === undefined)) {
    return undefined;
  }
  const out: ParsedToolHints = { readOnly: marked.readOnlyHint === true, destructive: marked.destructiveHint !== false, openWorld: marked.openWorldHint !== false, icons };
  if (typeof marked.idempotentHint === "boolean") {
    out.idempotent = marked.idempotentHint;
  }
  if (title) {
    out.title = title;
  }
  return out;
}

/**
 * A `Tool` for every tool a connected SDK `Client` lists (all pages): the same name (or
 * `prefix + name`, or `rename`'s), description, input schema, output schema and hints (from its
 * annotations, `title` and `icons`); the server checks
 * the arguments. A result is read by `fromMcpCallToolResult` (`_meta` kept host-only, in
 * `metadata._meta`); a protocol error (an unknown tool, a closed connection) is an error result
 * with its message; a call the server has not answered within `timeout` seconds is cancelled and
 * is an error result saying so. With `elicitations` (the client's {@link ElicitationRelay}), a
 * server's elicitation is a suspension of the call: answer it through `Toolkit.runCalls` (`waitFor`)
 * or `resume`, in this process, and the call goes on to its result.
 *
 * @throws RangeError when the server sends a cursor twice, more than `maxPages` pages or
 *   `maxTools` tools, or `rename` names a tool it does not list.
 */
export async function mcpToolsFrom(client: Client, options: McpToolsOptions = {}): Promise<Tool[]> {
  const server = client.getServerVersion()?.name ?? "mcp";
  const onWarning = options.onWarning ?? warn;
  const tools = await listed(client, server, options.maxPages ?? 100, options.maxTools ?? 10_000);
  const rename = options.rename ?? {};
  const unknown = Object.keys(rename).filter((name) => !tools.some((t) => t.name === name));
  if (unknown.length > 0) {
    throw new RangeError(`rename names a tool the server does not list: ${unknown.map((n) => `'${n}'`).join(", ")}`);
  }
  const taken = new Map<string, string>();
  const out: Tool[] = [];
  for (const t of tools) {
    const name = rename[t.name] ?? (options.prefix ?? "") + t.name;
    const key = normalizeToolName(name);
    const before = taken.get(key);
    if (before !== undefined) {
      onWarning(
        before === t.name
          ? `the MCP server '${server}' lists the tool '${t.name}' more than once; the first is taken`
          : `the MCP server '${server}': '${t.name}' has the name of its tool '${before}' once made a tool name ('${key}'); the first is taken`,
      );
      continue;
    }
    taken.set(key, t.name);
    const timeout = options.timeouts?.[t.name] !== undefined ? options.timeouts[t.name] ?? null : options.timeout === undefined ? 60 : options.timeout;
    const remote = new Remote(client, t.name, server, options.elicitations, timeout);
    out.push(new Tool(name, t.description ?? "", t.inputSchema as unknown as JsonObject, (args, ctx) => remote.handle(args, ctx), undefined, false, output(t, onWarning), undefined, hints(t)));
  }
  return out;
}
