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

run typescript bash tests/typescript/run.sh
run rust bash tests/rust/run.sh
run python "$PY" -m pytest -q "$@"

echo
echo "==== summary"
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
