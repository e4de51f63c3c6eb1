// Node's fs, plus `globSync(pattern, { cwd })` for Node 20 (see register.mjs): the relative
// paths of the files under cwd whose path matches the pattern, where `**/` is any number of
// folders, `*` any run of characters but `/`, and `?` one such character. That covers the
// suite's one use, `globSync("**/checks.json", { cwd })`.
import fs from "node:fs";
import path from "node:path";

export * from "node:fs";
export default fs;

function patternRegExp(pattern) {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*" && pattern[i + 1] === "*" && pattern[i + 2] === "/") {
      out += "(?:.*/)?";
      i += 2;
    } else if (c === "*" && pattern[i + 1] === "*") {
      out += ".*";
      i += 1;
    } else if (c === "*") {
      out += "[^/]*";
    } else if (c === "?") {
      out += "[^/]";
    } else {
      out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${out}$`);
}

export function globSync(pattern, options = {}) {
  const cwd = options.cwd ? String(options.cwd) : process.cwd();
  const patterns = Array.isArray(pattern) ? pattern : [pattern];
  const tests = patterns.map(patternRegExp);
  const found = [];
  const walk = (relative) => {
    let entries;
    try {
      entries = fs.readdirSync(path.join(cwd, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (tests.some((t) => t.test(rel))) found.push(rel);
      if (entry.isDirectory()) walk(rel);
    }
  };
  walk("");
  return found;
}
