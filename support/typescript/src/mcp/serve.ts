// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * Serving a `Toolkit` on a transport: {@link serveStdio} (the SDK's `StdioServerTransport`, a
 * server for the process) and {@link serveHttp} (the SDK's `StreamableHTTPServerTransport`, a
 * server and a transport per session, on Node's `http`), as Python's `serve(toolkit, "stdio")` and
 * `serve(toolkit, "http")`. The package compiles without `@types/node`: the few Node shapes used
 * here are declared below.
 *
 * @packageDocumentation
 */

import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Toolkit } from "../toolkit.js";
import { utf8 } from "../adapters/common.js";
import { mcpServer, type McpServerOptions } from "./server.js";

type HandleArgs = Parameters<StreamableHTTPServerTransport["handleRequest"]>;
type Incoming = HandleArgs[0] & { method?: string; url?: string; headers: { [name: string]: string | string[] | undefined }; on(event: string, listener: (chunk?: unknown) => void): unknown };
type Outgoing = HandleArgs[1] & { headersSent: boolean; statusCode: number; setHeader(name: string, value: string): unknown; end(body?: string): unknown };
interface NodeHttp {
  createServer(listener: (req: Incoming, res: Outgoing) => void): HttpServer;
}
interface HttpServer {
  listen(port: number, host: string, done: () => void): unknown;
  once(event: "error", listener: (error: Error) => void): unknown;
  close(done: (error?: Error) => void): unknown;
  closeAllConnections?(): void;
  address(): { port: number } | string | null;
}

/** Serves `toolkit` over stdio (this process's stdin and stdout) until stdin closes. */
export async function serveStdio(toolkit: Toolkit, options: McpServerOptions = {}): Promise<void> {
  const server = mcpServer(toolkit, options);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport());
  await closed;
}

/** The options of {@link serveHttp}: `mcpServer`'s, and where to listen. */
export interface ServeHttpOptions extends McpServerOptions {
  /** `127.0.0.1` by default. On a loopback host, a request whose `Host` header names another host is refused (DNS rebinding). */
  host?: string | undefined;
  /** 8000 by default; 0 for any free port (the handle's `url` says which). */
  port?: number | undefined;
  /** `/mcp` by default. */
  path?: string | undefined;
}

/** A running {@link serveHttp}: its address, and `close()`, which ends every session and stops listening. */
export interface HttpServing {
  readonly url: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

function refuse(res: Outgoing, status: number, code: number, message: string): void {
  res.statusCode = status;
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

function body(req: Incoming): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    req.on("data", (chunk) => chunks.push(chunk as Uint8Array));
    req.on("error", (err) => reject(err as Error));
    req.on("end", () => {
      const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      chunks.reduce((at, c) => (all.set(c, at), at + c.length), 0);
      const text = new utf8.TextDecoder("utf-8", { fatal: false, ignoreBOM: false }).decode(all);
      try {
        resolve(text === "" ? undefined : JSON.parse(text));
      } catch {
        resolve(undefined); // the transport answers it with its parse error
      }
    });
  });
}

/**
 * Serves `toolkit` over streamable HTTP at `http://host:port/path`, a server (`mcpServer`) and a
 * transport per MCP session (so an elicitation's answer reaches the call that asked it), until
 * `close()`.
 */
export async function serveHttp(toolkit: Toolkit, options: ServeHttpOptions = {}): Promise<HttpServing> {
  const { host = "127.0.0.1", port = 8000, path = "/mcp", ...served } = options;
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const http = proc?.getBuiltinModule?.("node:http") as NodeHttp | undefined;
  if (http === undefined) {
    throw new Error("serveHttp needs Node.js 20.16 or later (process.getBuiltinModule)");
  }
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let bound = port;
  const handle = async (req: Incoming, res: Outgoing): Promise<void> => {
    if ((req.url ?? "").split("?")[0] !== path) {
      return refuse(res, 404, -32000, `not found: MCP is served at ${path}`);
    }
    const named = String(req.headers["host"] ?? "").replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1");
    if (LOOPBACK.has(host) && !LOOPBACK.has(named)) {
      return refuse(res, 403, -32000, `the Host header ${JSON.stringify(req.headers["host"])} is not this server's`);
    }
    const id = req.headers["mcp-session-id"];
    const parsed = req.method === "POST" ? await body(req) : undefined;
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    if (known !== undefined) {
      return known.handleRequest(req, res, parsed);
    }
    if (id !== undefined) {
      return refuse(res, 404, -32001, "Session not found");
    }
    if (req.method !== "POST" || !isInitializeRequest(parsed)) {
      return refuse(res, 400, -32000, "Bad Request: No valid session ID provided");
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => (globalThis as unknown as { crypto: { randomUUID(): string } }).crypto.randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) {
        sessions.delete(transport.sessionId);
      }
    };
    await mcpServer(toolkit, served).connect(transport);
    await transport.handleRequest(req, res, parsed);
  };
  const listener = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        refuse(res, 500, -32603, `internal error: ${(err as Error).message}`);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(port, host, () => resolve());
  });
  const address = listener.address();
  if (address !== null && typeof address === "object") {
    bound = address.port;
  }
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${bound}${path}`,
    async close(): Promise<void> {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      listener.closeAllConnections?.();
      await new Promise<void>((resolve, reject) => listener.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
