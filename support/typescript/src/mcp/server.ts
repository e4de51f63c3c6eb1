// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * Serving a `Toolkit` over MCP with the TypeScript SDK's lowlevel `Server` (`mcpServer`), a port
 * of Python's `toolnexus/mcp/_server.py` at the protocol versions the SDK's 1.x speaks (the
 * `initialize` handshake, 2024-11-05 to 2025-11-25).
 *
 * `tools/list` lists the toolkit's tools (`mcpTools`); `tools/call` is a turn of one call through
 * `Toolkit.runCalls`, so the loop (approval, edited arguments, questions, refusals, expiry) is the
 * toolkit's. A failure, bad arguments or an unknown tool is an `isError` result, never a protocol
 * error, and `metadata` never leaves the process. A suspension is asked as an
 * `elicitation/create` request in the middle of the call (URL mode for an `authorization` with a
 * url, when the client declared it), and the tool runs again with the answer; a client that
 * declared no elicitation (or no URL mode, for an authorization) gets the suspension's prompt as
 * an error result. `ToolContext.progress` is a `notifications/progress` when the call carried a
 * progress token. `ToolContext.log` is a `notifications/message` (`logger` the tool's name; `data`
 * the message, or `{message, data}` when the line has data), sent in order before the result: the
 * server declares `logging` and sends the lines at and above the level the client set with
 * `logging/setLevel` (every level until it sets one).
 *
 * @packageDocumentation
 */

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
  SetLevelRequestSchema,
  type CallToolResult,
  type ClientCapabilities,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { mcpCallToolResult, mcpTools } from "../adapters/mcp.js";
import { ResumeError } from "../errors.js";
import type { JsonObject } from "../json.js";
import { LOG_LEVELS, type LogLevel } from "../log.js";
import { SCHEMA_VERSION } from "../index.js";
import { pending, randomHex } from "../suspend.js";
import type { Toolkit } from "../toolkit.js";
import type { Answer, Request, RunResult, ToolResult } from "../types.js";
import { answerOf, elicitationOf } from "./shapes.js";

/** The options of {@link mcpServer}. */
export interface McpServerOptions {
  /** The server's name in `initialize` (`toolnexus` by default). */
  name?: string | undefined;
  /** The server's version (the package's schema version by default). */
  version?: string | undefined;
  /** The `instructions` of `initialize`. */
  instructions?: string | undefined;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What the server declares: its tools, and the tools' log lines (`ToolContext.log`). */
const CAPABILITIES = { tools: {}, logging: {} };

/** The client declared no elicitation mode that can ask `request`. */
class Unaskable extends Error {
  readonly request: Request;

  constructor(request: Request) {
    super(request.id);
    this.request = request;
  }
}

function result(of: ToolResult): CallToolResult {
  return mcpCallToolResult(of);
}

/** `waitFor` of one call: the request as an elicitation, related to the call (on its stream, over
 * HTTP). A refusal of the elicitation, a malformed answer or a closed connection cancels the
 * question; a mode the client did not declare is `Unaskable`. */
function elicitor(declared: ClientCapabilities["elicitation"], extra: Extra): (request: Request) => Promise<Answer> {
  return async (request: Request): Promise<Answer> => {
    const params = elicitationOf(request);
    // A client that declared `elicitation: {}` (2025-06-18 and before) does forms only.
    const form = declared?.form !== undefined || declared?.url === undefined;
    if (params.mode === "url" ? declared?.url === undefined : !form) {
      throw new Unaskable(request);
    }
    try {
      const reply = await extra.sendRequest({ method: "elicitation/create", params }, ElicitResultSchema);
      return answerOf(request, reply);
    } catch {
      return { id: request.id, ok: false, reason: "cancelled" };
    }
  };
}

/** The call's result, or (a run still pending: the client could not be asked) its prompt as an error. */
function reply(run: RunResult): CallToolResult {
  if (run.status === "done") {
    const first = run.results[0];
    return result(first === undefined ? { output: "the call has no result", isError: true } : first.result);
  }
  return result(pending(run.pending as Request));
}

/** The `progress` hook of one call: `notifications/progress` (a total of 1) under the call's token, in order. */
function progressOf(extra: Extra): { hook: (callId: string, fraction: number, message: string) => void; sent: () => Promise<void> } {
  const token = extra._meta?.progressToken;
  let chain: Promise<void> = Promise.resolve();
  const hook = (_callId: string, fraction: number, message: string): void => {
    if (token === undefined) {
      return;
    }
    const params = message ? { progressToken: token, progress: fraction, total: 1, message } : { progressToken: token, progress: fraction, total: 1 };
    chain = chain.then(() => extra.sendNotification({ method: "notifications/progress", params })).catch(() => undefined);
  };
  return { hook, sent: () => chain };
}

/** The `log` hook of one call to `tool`: `notifications/message` at and above the level `lowest()`
 * reads (the connection's `logging/setLevel`), related to the call, in order. */
function logOf(extra: Extra, tool: string, lowest: () => number): { hook: (callId: string, level: LogLevel, message: string, data: JsonObject) => void; sent: () => Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  const hook = (_callId: string, level: LogLevel, message: string, data: JsonObject): void => {
    if (LOG_LEVELS.indexOf(level) < lowest()) {
      return;
    }
    const params = { level, logger: tool, data: Object.keys(data).length === 0 ? message : { message, data } };
    chain = chain.then(() => extra.sendNotification({ method: "notifications/message", params })).catch(() => undefined);
  };
  return { hook, sent: () => chain };
}

/**
 * The SDK's lowlevel `Server` serving `toolkit`'s tools: connect it to any of the SDK's transports
 * (`server.connect(transport)`), or use {@link serveStdio} or {@link serveHttp}. A server is one
 * connection's: make one per client (as `serveHttp` does per session).
 */
export function mcpServer(toolkit: Toolkit, options: McpServerOptions = {}): Server {
  const server = new Server(
    { name: options.name ?? "toolnexus", version: options.version ?? SCHEMA_VERSION },
    options.instructions === undefined ? { capabilities: CAPABILITIES } : { capabilities: CAPABILITIES, instructions: options.instructions },
  );
  // The server is one connection's, so the level its client set is the server's (the SDK's own
  // handler, replaced here, keeps one per transport session for its `sendLoggingMessage`).
  let lowest = 0;
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    lowest = Math.max(0, LOG_LEVELS.indexOf(request.params.level));
    return {};
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpTools(toolkit.tools()) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const call = { id: `mcp-${randomHex(8)}`, name: request.params.name, arguments: (request.params.arguments ?? {}) as JsonObject };
    const declared = server.getClientCapabilities()?.elicitation;
    const progress = progressOf(extra);
    const log = logOf(extra, request.params.name, () => lowest);
    try {
      const waitFor = declared === undefined ? undefined : elicitor(declared, extra);
      return reply(await toolkit.runCalls([call], { waitFor, progress: progress.hook, log: log.hook }));
    } catch (err) {
      if (err instanceof Unaskable) {
        return result(pending(err.request));
      }
      if (ResumeError.isResumeError(err)) { // the elicitation's answer does not fit it (`checkAnswer`)
        return result({ output: err.message, isError: true });
      }
      throw err;
    } finally {
      await Promise.all([progress.sent(), log.sent()]);
    }
  });
  return server;
}
