#!/usr/bin/env bash
# The npm package from outside the repository: packs support/typescript as `npm pack` does
# from a checkout (npm install, then the prepack script builds dist/), checks what the tarball
# holds, installs it with the pinned typescript into a scratch npm project outside the checkout,
# compiles an example and the README's examples there under `tsc --strict` (module nodenext),
# importing `toolnexus-contract` by name, runs them with node as ES modules (the README's runtime
# example runs a turn and resumes the stored run through `toolnexus-contract/runtime`, with the
# dependencies npm installed with the tarball), checks that a misspelled key fails to compile,
# and that `require("toolnexus-contract")` works from CommonJS.
# Needs `make gen` first; the npm registry (or npm's cache) for typescript.
#
#   bash tests/dist/typescript.sh [DIST]     (DIST: also keep the tarball there)
#
# The pack runs in a copy of support/typescript (the package's tree, its links into
# generated/typescript followed), so that no node_modules/, dist/ or package-lock.json is
# left in the tree (where tests/typescript/run.sh builds).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PKG="$ROOT/support/typescript"
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/toolnexus-dist-ts.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT
NPM_FLAGS=(--no-audit --no-fund --prefer-offline --loglevel=error)

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
[ -f "$PKG/package.json" ] || fail "generated/typescript (linked into support/typescript) is missing; run \`make gen\` first"
TS_VERSION="$(node -p "require(process.argv[1]).devDependencies.typescript" "$PKG/package.json")"
NAME="$(node -p "require(process.argv[1]).name" "$PKG/package.json")"
VERSION="$(node -p "require(process.argv[1]).version" "$PKG/package.json")"
# The scratch project's @types/node: the pin of tests/typescript (for console and node: imports;
# the package itself needs no @types).
NODE_TYPES="$(node -p "require(process.argv[1]).devDependencies['@types/node']" "$ROOT/tests/typescript/package.json")"
echo "node $(node --version), npm $(npm --version); $NAME $VERSION, typescript $TS_VERSION, @types/node $NODE_TYPES; scratch $SCRATCH"

echo "== npm install && npm pack, in a copy of support/typescript"
mkdir -p "$SCRATCH/pkg" "$SCRATCH/out"
(cd "$PKG" && tar -chf - --exclude=./node_modules --exclude=./dist --exclude=./package-lock.json .) | (cd "$SCRATCH/pkg" && tar -xf -)
(cd "$SCRATCH/pkg" && npm install "${NPM_FLAGS[@]}") >"$SCRATCH/install.log" 2>&1 || { cat "$SCRATCH/install.log"; fail "npm install"; }
(cd "$SCRATCH/pkg" && npm pack --pack-destination "$SCRATCH/out") >"$SCRATCH/pack.log" 2>&1 || { cat "$SCRATCH/pack.log"; fail "npm pack"; }
grep -E 'npm notice|\.tgz$' "$SCRATCH/pack.log" | grep -vE 'npm notice *$' | sed 's/^/  /'
TARBALL="$SCRATCH/out/$NAME-$VERSION.tgz"
[ -f "$TARBALL" ] || fail "npm pack wrote no $(basename "$TARBALL")"
if [ -n "${1:-}" ]; then
    mkdir -p "$1" && cp "$TARBALL" "$1/" && echo "kept $1/$(basename "$TARBALL")"
fi

echo "== the tarball holds dist/ (js and d.ts), README.md, LICENSE, package.json, and nothing else"
tar -tzf "$TARBALL" | sort >"$SCRATCH/files.txt"
for want in package/package.json package/README.md package/LICENSE package/dist/index.js package/dist/index.d.ts; do
    grep -qx "$want" "$SCRATCH/files.txt" || fail "the tarball has no $want"
done
if grep -vE '^package/(package\.json|README\.md|LICENSE|dist/([a-z-]+/)*[a-z-]+\.(js|d\.ts))$' "$SCRATCH/files.txt"; then
    fail "the tarball holds the files above, which it should not"
fi
echo "  $(wc -l <"$SCRATCH/files.txt") files, as expected"

echo "== a scratch npm project outside the checkout: npm install <tarball> typescript@$TS_VERSION @types/node@$NODE_TYPES"
APP="$SCRATCH/app"
mkdir -p "$APP"
cd "$APP"
cat >package.json <<'EOF'
{ "name": "scratch", "version": "0.0.0", "private": true, "type": "module" }
EOF
npm install "${NPM_FLAGS[@]}" --loglevel=notice "$TARBALL" "typescript@$TS_VERSION" "@types/node@$NODE_TYPES" 2>&1 | sed 's/^/  /'
npm ls 2>&1 | sed 's/^/  /'
cat >tsconfig.json <<'EOF'
{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2022"],
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "types": ["node"],
    "strict": true,
    "exactOptionalPropertyTypes": true,
    "noUncheckedIndexedAccess": true,
    "skipLibCheck": false,
    "outDir": "out"
  },
  "files": ["main.ts", "readme.ts", "runtime.ts", "common.cts"]
}
EOF
cat >main.ts <<'EOF'
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  SCHEMA_VERSION,
  extraKeys,
  fromJsonToolResult,
  pending,
  pendingOf,
  toJsonToolResult,
  WireError,
  type Request,
  type ToolResult,
} from "toolnexus-contract";

const pkg = JSON.parse(readFileSync(new URL("../node_modules/toolnexus-contract/package.json", import.meta.url), "utf8")) as { version: string };
assert.equal(SCHEMA_VERSION, pkg.version);

const text = '{"output":"4","isError":false,"parts":[{"type":"file","mimeType":"a/b","url":"u","v2":1}],"metadata":{"n":1.0,"big":9007199254740993},"later":{"x":[true]}}';
const r: ToolResult = fromJsonToolResult(text);
assert.equal(toJsonToolResult(r), text, "unknown keys and numbers round-trip byte for byte");
assert.deepEqual(extraKeys(r, "ToolResult"), { later: { x: [true] } });

const ask: Request = { id: "", kind: "approval", prompt: "Delete 3 files?" };
const back = pendingOf(fromJsonToolResult(toJsonToolResult(pending(ask))));
assert.equal(back?.prompt, "Delete 3 files?");
assert.match(back?.id ?? "", /^pnd-[0-9a-f]{32}$/);
assert.equal(pendingOf({ output: "boom", isError: true }), undefined);

assert.throws(
  () => fromJsonToolResult('{"output":1}'),
  (err: unknown) => err instanceof WireError && err.path === "$.output",
);
console.log(`main.ts: ok (schema ${SCHEMA_VERSION})`);
EOF
# The README's first ```ts block, shipped in the package; each `console.log(...); // X` must print X.
node - node_modules/toolnexus-contract/README.md >readme.ts <<'EOF'
const text = require("node:fs").readFileSync(process.argv[2], "utf8");
const m = /```ts\n([\s\S]*?)```/.exec(text);
if (!m) { console.error("the README has no ```ts block"); process.exit(1); }
process.stdout.write(m[1]);
EOF
sed -n 's#^ *console\.log(.*); // \(.*\)$#\1#p' readme.ts >readme.expected
[ -s readme.expected ] || fail "the README example prints nothing to check"
# The README's runtime example (the ```ts block of "## The runtime"): a turn, stored and resumed.
node - node_modules/toolnexus-contract/README.md >runtime.ts <<'EOF'
const text = require("node:fs").readFileSync(process.argv[2], "utf8");
const m = /\n## The runtime\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(text);
if (!m) { console.error("the README has no runtime example"); process.exit(1); }
process.stdout.write(m[1]);
EOF
sed -n 's#^.*console\.log(.*); // \(.*\)$#\1#p' runtime.ts >runtime.expected
[ "$(wc -l <runtime.expected)" -ge 3 ] || fail "the README's runtime example prints too little to check"
cat >common.cts <<'EOF'
// CommonJS TypeScript: `import = require` of the ES module package (require(esm), Node >= 20.19).
import contract = require("toolnexus-contract");
export const roundTrip = (text: string): string => contract.toJsonToolResult(contract.fromJsonToolResult(text));
EOF
echo "== tsc --strict (module nodenext): main.ts, the README's example, a CommonJS .cts"
./node_modules/.bin/tsc -p tsconfig.json --pretty false || fail "tsc"
echo "  compiled: $(cd out && ls | tr '\n' ' ')"

echo "== node (ES modules)"
node out/main.js
node out/readme.js >readme.out || fail "the README example threw"
diff -u readme.expected readme.out || fail "the README example printed other than its comments say"
echo "  README example: $(wc -l <readme.out) lines, as its comments say"
node out/runtime.js >runtime.out || fail "the README's runtime example threw"
diff -u runtime.expected runtime.out || fail "the README's runtime example printed other than its comments say"
echo "  README runtime example (a turn run, stored, resumed, replayed): $(wc -l <runtime.out) lines, as its comments say"

echo "== require(\"toolnexus-contract\") from CommonJS"
cat >check.cjs <<'EOF'
const assert = require("node:assert/strict");
const contract = require("toolnexus-contract");
assert.equal(typeof contract.fromJsonToolResult, "function");
const text = '{"output":"x","isError":true,"later":1}';
assert.equal(contract.toJsonToolResult(contract.fromJsonToolResult(text)), text);
assert.ok(contract.pendingOf(contract.authRequired("https://example.com/login")));
assert.throws(() => contract.fromJsonToolResult("{"), contract.WireError);
const { roundTrip } = require("./out/common.cjs");
assert.equal(roundTrip(text), text);
console.log(`check.cjs: ok, ${Object.keys(contract).length} exports`);
EOF
node check.cjs 2>require.err || { cat require.err; fail "require() of the package"; }
if [ -s require.err ]; then
    echo "  (node said on stderr:)"
    sed 's/^/  /' require.err
fi

echo "== a misspelled key does not compile"
cat >bad.ts <<'EOF'
import type { ToolResult } from "toolnexus-contract";
export const r: ToolResult = { output: "x", isErorr: true };
EOF
cat >tsconfig.bad.json <<'EOF'
{ "extends": "./tsconfig.json", "compilerOptions": { "noEmit": true }, "files": ["bad.ts"] }
EOF
if ./node_modules/.bin/tsc -p tsconfig.bad.json --pretty false >bad.out 2>&1; then
    fail "tsc accepted { output: \"x\", isErorr: true } as a ToolResult"
fi
sed 's/^/  /' bad.out
grep -qE "bad\.ts\(2,[0-9]+\): error TS(2561|2353):.*'isErorr'" bad.out || fail "tsc failed, but not with TS2561/TS2353 on isErorr"
echo "  tsc exited non-zero with the excess-property error, as it should"

echo "== ok: $NAME $VERSION packs, installs, compiles under --strict, runs as ESM and from require()"
