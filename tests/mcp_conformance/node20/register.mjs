// `node --import ./node20/register.mjs conformance/dist/index.js ...`: lets the MCP
// conformance suite's CLI, built for Node 22, run on Node 20. Its one Node 22 need is
// `globSync` from `fs` (Node 22.0), imported at the top of dist/index.js and used only to
// list past reports (`tier-check`). Node 20 refuses the import itself, so the CLI would not
// start. The resolve hook registered below (fs-hook.mjs) points that CLI's `fs` import, and
// no other module's, at fs-with-glob.mjs: Node's own fs plus a small globSync. On Node 22 and
// later nothing is registered. node_modules is left as npm installed it.
import { register } from "node:module";
import fs from "node:fs";

if (typeof fs.globSync !== "function") {
  register("./fs-hook.mjs", import.meta.url);
}
