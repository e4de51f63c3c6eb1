#!/usr/bin/env bash
# The Rust side of `make test`: checks the crate in support/rust (the hand-written modules and,
# linked in, the files `make gen` writes to generated/rust).
#
#   bash tests/rust/run.sh                          rustfmt --check, cargo test (the spec's
#                                                   examples 1-4 included) and cargo clippy
#                                                   -D warnings, each without and with the
#                                                   crate's feature `lossless` (and cargo
#                                                   test of the wire types alone,
#                                                   --no-default-features), the
#                                                   conformance binary (built with
#                                                   `lossless`) run over idl/examples with
#                                                   --check, and over the vectors it builds
#                                                   (idl/examples/built.json) with --built,
#                                                   and over the helper vectors
#                                                   (idl/helpers) with --helpers, and the
#                                                   loop host (tests/rust/loop) over the
#                                                   loop vectors (idl/loop) and, built
#                                                   without and with `lossless`, the seal
#                                                   vectors (idl/seal/vectors.json)
#   bash tests/rust/run.sh loop [ARGS...]           builds (if needed) and runs the loop host
#                                                   (vectors DIR | seal FILE | run NAME |
#                                                   resume NAME | relay; see its main.rs)
#   bash tests/rust/run.sh conformance [--check] DIR | --built FILE | --helpers DIR
#                                                   builds (if needed) and runs the conformance
#                                                   binary: one JSON line per vector in DIR
#                                                   (or built from FILE, or helper cases)
#   bash tests/rust/run.sh lint                     the crate's lint alone: rustfmt --check,
#                                                   cargo clippy --all-targets -D warnings,
#                                                   without and with the feature `lossless`,
#                                                   of the wire types alone and of the
#                                                   runtime without its timer
#
# Dependencies come from crates.io through cargo. The crate, the conformance binary and the
# loop host share one target folder (support/rust/target, ignored by git; CARGO_TARGET_DIR
# overrides it).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CRATE="$ROOT/support/rust"
CONFORMANCE="$ROOT/tests/rust/conformance"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$CRATE/target}"
# The spec's example 4 reads examples/media/fixture.png under it (unset, the crate's test
# runner writes the copy it carries; tests/dist/rust.sh tests that).
export TOOLNEXUS_REPO="${TOOLNEXUS_REPO:-$ROOT}"
# The crate's configurations: serde_json as it comes, and with the opt-in feature that
# keeps key order and number text (its tests pin what differs).
CONFIGS=("" "--features=lossless")
# The wire types alone (the runtime is a default feature), and the runtime without tokio.
WIRE_ONLY="--no-default-features"
NO_TIMER="--no-default-features --features=runtime"
BIN="$CARGO_TARGET_DIR/debug/toolnexus-conformance"
LOOP="$ROOT/tests/rust/loop"
LOOP_BIN="$CARGO_TARGET_DIR/debug/toolnexus-loop-host"

die() {
    echo "tests/rust/run.sh: $*" >&2
    exit 1
}
step() {
    echo
    echo "== $*"
}

# Sets clippy_ok to 1 when cargo clippy runs (installing it with rustup if it can), else 0.
find_clippy() {
    clippy_ok=1
    if ! cargo clippy --version >/dev/null 2>&1; then
        if command -v rustup >/dev/null 2>&1 && rustup component add clippy >/dev/null 2>&1 \
            && cargo clippy --version >/dev/null 2>&1; then
            echo "installed clippy with rustup"
        else
            clippy_ok=0
            [[ "${CI:-}" != true ]] || die "clippy is not installed and rustup could not add it"
            echo "clippy is not installed and rustup could not add it: skipping cargo clippy"
        fi
    fi
}

command -v cargo >/dev/null 2>&1 || die "cargo is not installed (see https://rustup.rs)"
[[ -f "$CRATE/Cargo.toml" && -f "$CRATE/src/types.rs" ]] \
    || die "generated/rust (linked into support/rust) is missing: run \`make gen\` first"

# rustfmt over the crate's hand-written modules (each brings in its own submodules) and its
# tests; the spec's examples are left as the spec prints them, and the files linked in from
# generated/rust are laid out by their templates (rustfmt would read a link's `mod` lines
# from generated/rust).
fmt_check() {
    if rustfmt --version >/dev/null 2>&1; then
        step "rustfmt --check"
        local modules=()
        for module in "$CRATE"/src/*.rs; do
            [[ -L "$module" ]] || modules+=("$module")
        done
        (cd "$CRATE" && rustfmt --check --edition 2021 "${modules[@]}" tests/decisions.rs tests/limits.rs \
            tests/runtime.rs tests/wire.rs tests/tool.rs tests/toolkit.rs tests/float_parsing.rs)
        rustfmt --check --edition 2021 "$CONFORMANCE/src/main.rs" "$LOOP/src/main.rs"
    elif [[ "${CI:-}" == true ]]; then
        die "rustfmt is not installed (rustup component add rustfmt)"
    else
        echo "rustfmt is not installed: skipping the format check (rustup component add rustfmt)"
    fi
}

if [[ "${1:-}" == "lint" ]]; then
    [[ $# -eq 1 ]] || die "usage: run.sh lint"
    cd "$CRATE"
    fmt_check
    find_clippy
    if [[ $clippy_ok == 1 ]]; then
        for config in "${CONFIGS[@]}" "$WIRE_ONLY" "$NO_TIMER"; do
            step "cargo clippy --all-targets${config:+ $config} -- -D warnings"
            cargo clippy --all-targets $config -- -D warnings
        done
    fi
    echo
    echo "tests/rust/run.sh lint: the crate is clean"
    exit 0
fi

if [[ "${1:-}" == "loop" ]]; then
    shift
    cargo build --quiet --manifest-path "$LOOP/Cargo.toml"
    exec "$LOOP_BIN" "$@"
fi

if [[ "${1:-}" == "conformance" ]]; then
    shift
    cargo build --quiet --manifest-path "$CONFORMANCE/Cargo.toml"
    exec "$BIN" "$@"
fi
[[ $# -eq 0 ]] || die "usage: run.sh [conformance [--check] DIR | conformance --built FILE | conformance --helpers DIR | loop ARGS... | lint]"

cd "$CRATE"
fmt_check

find_clippy
for config in "${CONFIGS[@]}"; do
    step "cargo test${config:+ $config}"
    cargo test $config
    if [[ $clippy_ok == 1 ]]; then
        step "cargo clippy --all-targets${config:+ $config} -- -D warnings"
        cargo clippy --all-targets $config -- -D warnings
    fi
done
step "cargo test $WIRE_ONLY (the wire types alone)"
cargo test $WIRE_ONLY
if [[ $clippy_ok == 1 ]]; then
    step "cargo clippy (conformance, loop host)"
    cargo clippy --manifest-path "$CONFORMANCE/Cargo.toml" -- -D warnings
    cargo clippy --manifest-path "$LOOP/Cargo.toml" --all-targets -- -D warnings
fi

step "conformance binary"
cargo build --manifest-path "$CONFORMANCE/Cargo.toml"
echo "built $BIN"
if [[ -d "$ROOT/idl/examples" ]]; then
    "$BIN" --check "$ROOT/idl/examples" >/dev/null
    "$BIN" --built "$ROOT/idl/examples/built.json" >/dev/null
    "$BIN" --helpers "$ROOT/idl/helpers" >/dev/null
else
    echo "no idl/examples yet: the binary was built but not run"
fi

step "loop host: the loop vectors and the seal vectors"
cargo test --quiet --manifest-path "$LOOP/Cargo.toml"
cargo build --manifest-path "$LOOP/Cargo.toml"
"$LOOP_BIN" vectors "$ROOT/idl/loop" >/dev/null
"$LOOP_BIN" seal "$ROOT/idl/seal/vectors.json" >/dev/null
step "loop host with lossless: the loop vectors and the seal vectors"
cargo build --manifest-path "$LOOP/Cargo.toml" --features lossless
"$LOOP_BIN" vectors "$ROOT/idl/loop" >/dev/null
"$LOOP_BIN" seal "$ROOT/idl/seal/vectors.json" >/dev/null
# Leave the default build in place for the cross-language tests.
cargo build --quiet --manifest-path "$LOOP/Cargo.toml"
echo
echo "tests/rust/run.sh: all Rust checks passed"
