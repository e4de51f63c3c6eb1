// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * `toolnexus-contract/mcp`: a `Toolkit` over real MCP connections, through the official MCP
 * TypeScript SDK (`@modelcontextprotocol/sdk` 1.x, an optional peer dependency this entry point
 * loads). Every shape is the adapter's (`toolnexus-contract/adapters/mcp`) or read back as Python's
 * `from_mcp_call_tool_result` reads it; the protocol is the SDK's. A port of Python's
 * `toolnexus.mcp` at the versions the SDK speaks (the `initialize` handshake, to 2025-11-25):
 * docs/guides/typescript-mcp.md.
 *
 * - Serving: {@link mcpServer} (the SDK's lowlevel `Server` for a toolkit), {@link serveStdio},
 *   {@link serveHttp} (streamable HTTP).
 * - Consuming: {@link mcpToolsFrom} (a `Tool` per tool of a connected `Client`) and
 *   {@link ElicitationRelay} (a server's elicitation as a suspension).
 *
 * @packageDocumentation
 */

export { mcpToolsFrom, type McpToolsOptions } from "./mcp/client.js";
export { ElicitationRelay } from "./mcp/relay.js";
export { serveHttp, serveStdio, type HttpServing, type ServeHttpOptions } from "./mcp/serve.js";
export { mcpServer, type McpServerOptions } from "./mcp/server.js";
export { fromMcpCallToolResult } from "./adapters/mcp.js";
