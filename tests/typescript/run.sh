#!/usr/bin/env bash
# The TypeScript tests: installs the pinned npm packages (npm ci, only when package-lock.json
# changed), compiles the package where it is edited (support/typescript: the hand-written
# modules and, linked in, the ones `make gen` writes to generated/typescript; strict) and
# these tests, and runs them with node --test (compile-fail.test.ts runs tsc over
# compile-fail/, which must not compile). Needs `make gen` first. The packed package,
# installed in a scratch project: bash tests/dist/typescript.sh.
#
#   bash tests/typescript/run.sh          install, lint, build, then test
#   bash tests/typescript/run.sh install  install the pinned packages only
#   bash tests/typescript/run.sh lint     install, then type-check the package only (no emit)
#   bash tests/typescript/run.sh build    install, lint and build (for conformance.js and ajv_check.mjs)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
pkg="$here/../../support/typescript"
mode="${1:-}"
case "$mode" in
  ""|install|lint|build) ;;
  *) echo "usage: bash tests/typescript/run.sh [install|lint|build]" >&2; exit 2 ;;
esac
cd "$here"

# node_modules/.lock-stamp is the package-lock.json the installed packages came from. One install
# at a time (.ci/run starts one in the background while the Python tools install; the next run
# here waits for it instead of starting npm ci over it).
exec 9>"${TMPDIR:-/tmp}/toolnexus-ts-install-$(printf %s "$here" | cksum | cut -d' ' -f1).lock"
flock 9
if ! cmp -s package-lock.json node_modules/.lock-stamp; then
  npm ci --no-audit --no-fund --ignore-scripts --loglevel=error \
    --fetch-timeout=60000 --fetch-retries=4 --fetch-retry-maxtimeout=20000 >/dev/null
  # better-sqlite3 (SqliteRunStore's driver) is the one package whose install script is needed:
  # it builds (or fetches) its native binding.
  npm rebuild better-sqlite3 --no-audit --no-fund --loglevel=error >/dev/null ||
    echo "tests/typescript/run.sh: better-sqlite3's native binding did not build (a C++ compiler and make are needed when no prebuilt one downloads); the SQLite store's tests will fail" >&2
  cp package-lock.json node_modules/.lock-stamp
fi
flock -u 9
if [ "$mode" = install ]; then
  exit 0
fi

if [ ! -f "$pkg/package.json" ] || [ ! -f "$pkg/src/types.ts" ]; then
  echo "tests/typescript/run.sh: generated/typescript (linked into support/typescript) is missing; run \`make gen\` first" >&2
  exit 1
fi
# The runtime's dependencies (the package.json's "dependencies": Ajv, the JCS library) and the
# SDKs the provider adapters are typed with (its optional "peerDependencies"), as pinned here,
# where the package is compiled and runs: support/typescript/node_modules/ links to this
# folder's packages.
deps="$(node -p "const p = require('$pkg/package.json'); Object.keys({...p.dependencies, ...p.peerDependencies}).join(' ')")"
rm -rf "$pkg/node_modules"
if [ -n "$deps" ]; then
  mkdir -p "$pkg/node_modules"
  for dep in $deps; do
    [ -d "node_modules/$dep" ] || { echo "tests/typescript/run.sh: $dep is not pinned in tests/typescript/package.json" >&2; exit 1; }
    mkdir -p "$(dirname "$pkg/node_modules/$dep")"
    ln -sfn "$here/node_modules/$dep" "$pkg/node_modules/$dep"
  done
fi
if [ "$mode" = lint ]; then
  node_modules/.bin/tsc -p "$pkg/tsconfig.json" --noEmit
  exit 0
fi

# The tests import the package by its name, as a user would; it resolves to support/typescript.
rm -rf node_modules/@toolnexus  # the package's former name
ln -sfn ../../../support/typescript node_modules/toolnexus-contract

rm -rf "$pkg/dist" .cache
node_modules/.bin/tsc -p "$pkg/tsconfig.json"
node_modules/.bin/tsc -p tsconfig.json

if [ "$mode" = build ]; then
  exit 0
fi
node --test --test-reporter=spec .cache/*.test.js
