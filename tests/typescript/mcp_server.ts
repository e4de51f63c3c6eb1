// `node .cache/mcp_server.js [stdio | http PORT]`: mcp_toolkit.ts's toolkit served by
// toolnexus-contract/mcp, for tests/mcp/test_mcp_typescript.py (the Python client calls it).

import { setToolLogger } from "toolnexus-contract/runtime";
import { serveHttp, serveStdio } from "toolnexus-contract/mcp";
import { toolkit } from "./mcp_toolkit.js";

setToolLogger(undefined); // `fail` throws on purpose: its stack would only be noise on stderr
const [mode, port] = process.argv.slice(2);
if (mode === "http") {
  const serving = await serveHttp(toolkit(), { port: Number(port) });
  process.on("SIGTERM", () => void serving.close().then(() => process.exit(0)));
} else {
  await serveStdio(toolkit(), { name: "toolnexus-ts" });
}
