#!/usr/bin/env bash
# `make test`: every language's tests, each run even when another fails, then one summary
# line per language. Exits non-zero when any failed.
#
#   bash tests/run_all.sh PYTHON [pytest args...]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY="${1:?usage: run_all.sh PYTHON [pytest args...]}"
shift
logs="$(mktemp -d)"
declare -A status

run() {
    local name="$1"
    shift
    echo
    echo "==== $name: $*"
    "$@" 2>&1 | tee "$logs/$name.log"
    status[$name]=${PIPESTATUS[0]}
}

SECONDS=0
# The upstream port the interop tests read takes minutes to compile from nothing: started
# now (niced), it overlaps the TypeScript and Rust steps, whose tools leave a core idle much
# of the time; the test's own build then finds it done. Its output is in the log below.
upstream_log="$logs/upstream-build.log"
if command -v cargo >/dev/null 2>&1; then
    upstream_target="${TOOLNEXUS_UPSTREAM_TARGET:-$(pwd)/.cache/upstream-target}"
    (cd tests/upstream && CARGO_TARGET_DIR="$upstream_target" nice cargo build --locked --quiet \
        >"$upstream_log" 2>&1) &
    upstream_build=$!
fi
# Every Rust build of the tests shares one target folder (the Rust suite's, whose builds come
# first): a test's crate then compiles itself, not again the dependencies the suite built with
# the same features (jsonschema, serde_json with and without `lossless`, tokio).
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$(pwd)/support/rust/target}"
run typescript bash tests/typescript/run.sh
run rust bash tests/rust/run.sh
# A worker per core (pytest-xdist); the tests of one server fixture share a worker
# (tests/conftest.py). The slowest tests are listed at the end.
if [[ -n "${upstream_build:-}" ]] && ! wait "$upstream_build"; then
    echo "the upstream port's build failed (its test will say why):"
    tail -n 20 "$upstream_log"
fi
run python "$PY" -m pytest -q -n auto --dist loadgroup --durations=10 "$@"

echo
echo "==== summary (${SECONDS} s)"
failed=0
for name in typescript rust python; do
    case "$name" in
        typescript) detail=$(grep -E '^ℹ (pass|fail) ' "$logs/$name.log" | tr '\n' ' ') ;;
        rust) detail=$(grep -E '^(conformance|built|helpers|loop|seal): [0-9]+ passed, [0-9]+ failed' "$logs/$name.log" | tr '\n' ' ') ;;
        python) detail=$(grep -E '(passed|failed|error)' "$logs/$name.log" | tail -n 1) ;;
    esac
    if [[ ${status[$name]} == 0 ]]; then
        echo "$name: ok ${detail}"
    else
        echo "$name: FAILED (exit ${status[$name]}) ${detail}"
        failed=1
    fi
done
rm -rf "$logs"
exit $failed
