#!/usr/bin/env bash
# The Rust crate as crates.io would ship it, tested away from the repository:
#
#   1. `cargo package` on support/rust (the package toolnexus-contract, library toolnexus; its
#      links into generated/rust are followed, so the .crate holds the files);
#   2. the .crate unpacked into a temp folder and its own tests run there, with its default
#      features (the runtime), with `lossless` too, and with the wire types alone
#      (--no-default-features), with TOOLNEXUS_REPO unset and no repository files around
#      (the spec's example 4 runs on the fixture the crate carries);
#   3. a scratch crate of a user, in another temp folder, that depends on the unpacked crate
#      by path WITHOUT `lossless` and has its own serde types: an `#[serde(untagged)]` enum
#      and a `#[serde(flatten)]` struct with f64s must deserialize (serde_json's
#      `arbitrary_precision`, forced on by a dependency, would break both), a ToolResult
#      must round-trip through the crate's API and inside the user's own serde type, and
#      the spec's examples 1 and 2 and the README's examples run as they are printed (one
#      defines a tool, runs a turn, stores the run and resumes it);
#   4. a scratch crate of a user of the wire types alone (`default-features = false`): it
#      builds and runs the README's wire example, and none of the runtime's dependencies is
#      in its build (`cargo tree`), whose size it prints;
#   5. `cargo publish --dry-run` (it packages and verifies again; nothing is uploaded).
#
#   bash tests/dist/rust.sh [DIST]          (DIST: also keep the .crate there)
#
# Builds share CARGO_TARGET_DIR: by default support/rust/target, where make test's Rust builds
# already are, so the dependencies (jsonschema, tokio, serde_json in both feature sets) are not
# built again; the unpacked crate, at another path, is built apart from the repository's. Exits
# non-zero on the first failure.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CRATE="$ROOT/support/rust"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/support/rust/target}"
export CARGO_TERM_COLOR=never
unset TOOLNEXUS_REPO

die() {
    echo "tests/dist/rust.sh: $*" >&2
    exit 1
}
step() {
    echo
    echo "== $*"
}
# Runs a command, showing only the lines of its output that match $SHOW (all of it when
# it fails); dies when it fails.
run() {
    local out
    if ! out="$("$@" 2>&1)"; then
        echo "$out" >&2
        die "failed: $* (in $PWD)"
    fi
    if [[ -n "${SHOW:-}" ]]; then
        grep -E "$SHOW" <<<"$out" || true
    else
        [[ -z "$out" ]] || echo "$out"
    fi
}

command -v cargo >/dev/null 2>&1 || die "cargo is not installed (see https://rustup.rs)"
[[ -f "$CRATE/Cargo.toml" ]] || die "generated/rust (linked into support/rust) is missing: run \`make gen\` first"

field() { # the first `key = "value"` of [package] in Cargo.toml
    sed -n "s/^$1 = \"\\(.*\\)\"\$/\\1/p" "$CRATE/Cargo.toml" | head -n 1
}
NAME="$(field name)"
VERSION="$(field version)"
[[ -n "$NAME" && -n "$VERSION" ]] || die "no package name or version in support/rust/Cargo.toml"

[[ $# -le 1 ]] || die "usage: tests/dist/rust.sh [DIST]"
KEEP=""
if [[ -n "${1:-}" ]]; then
    KEEP="$(mkdir -p "$1" && cd "$1" && pwd)"
fi
mkdir -p "$CARGO_TARGET_DIR"
CARGO_TARGET_DIR="$(cd "$CARGO_TARGET_DIR" && pwd)"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/toolnexus-dist-rust.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# The working tree may hold regenerated or edited, uncommitted files: the package is made
# from the files as they are.
step "cargo package ($NAME $VERSION)"
cd "$CRATE"
run cargo package --allow-dirty --quiet
CRATE_FILE="$CARGO_TARGET_DIR/package/$NAME-$VERSION.crate"
[[ -f "$CRATE_FILE" ]] || die "cargo package wrote no $CRATE_FILE"
echo "$CRATE_FILE ($(wc -c <"$CRATE_FILE") bytes):"
tar -tzf "$CRATE_FILE" | sed 's/^/  /'
if [[ -n "$KEEP" ]]; then
    cp "$CRATE_FILE" "$KEEP/" && echo "kept $KEEP/$(basename "$CRATE_FILE")"
fi

step "the packaged crate's own tests, unpacked in $WORK (TOOLNEXUS_REPO unset)"
tar -xzf "$CRATE_FILE" -C "$WORK"
UNPACKED="$WORK/$NAME-$VERSION"
# cargo package stamps every file with one fixed old mtime, and the artifacts of a path
# package in the shared target folder do not depend on its path: without this, cargo
# would take the last run's build of the library for fresh and test stale code.
find "$UNPACKED" -type f -exec touch {} +
cd "$UNPACKED"
for config in "" "--features=lossless" "--no-default-features"; do
    echo "-- cargo test --locked${config:+ $config}"
    SHOW='^(ok:|test result:|warning)' run cargo test --locked --quiet $config
done

step "a user's crate next to it, without the feature lossless"
USER_CRATE="$WORK/user-crate"
mkdir -p "$USER_CRATE/src/bin"
cat >"$USER_CRATE/Cargo.toml" <<EOF
[package]
name = "toolnexus-user-check"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$NAME = { path = "$UNPACKED" }
serde = { version = "1", features = ["derive"] }
serde_json = "1"
tokio = { version = "1", features = ["macros", "rt-multi-thread"] }
EOF
cat >"$USER_CRATE/src/main.rs" <<'EOF'
//! A user's own serde code next to the crate: untagged and flattened f64s, and a ToolResult.

use serde::{Deserialize, Serialize};
use toolnexus::{ToolResult, Wire};

#[derive(Debug, PartialEq, Deserialize)]
#[serde(untagged)]
enum Reading {
    Celsius(f64),
    Label(String),
}

#[derive(Debug, PartialEq, Deserialize)]
struct Place {
    lat: f64,
    lon: f64,
}

#[derive(Debug, PartialEq, Deserialize)]
struct Station {
    name: String,
    #[serde(flatten)]
    place: Place,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Envelope {
    weight: f64,
    result: ToolResult,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let readings: Vec<Reading> = serde_json::from_str(r#"[21.5, "n/a", -3]"#)?;
    assert_eq!(
        readings,
        [Reading::Celsius(21.5), Reading::Label("n/a".into()), Reading::Celsius(-3.0)]
    );
    println!("untagged enum with an f64: {readings:?}");

    let station: Station = serde_json::from_str(r#"{"name":"Uccle","lat":50.8,"lon":4.35}"#)?;
    assert_eq!(station.place, Place { lat: 50.8, lon: 4.35 });
    println!("flattened struct with f64s: {station:?}");

    let text = r#"{"output":"4","isError":false,"parts":[{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo=","name":"a.png"}],"metadata":{"elapsedMs":12,"rowCount":2},"trace":"t-1"}"#;
    let result = ToolResult::from_json(text)?;
    assert_eq!(result.to_json(), text);
    assert_eq!(ToolResult::from_json(&result.to_json())?, result);
    println!("ToolResult round trip: {}", result.to_json());

    let envelope: Envelope = serde_json::from_str(&format!(r#"{{"weight":0.25,"result":{text}}}"#))?;
    assert_eq!(envelope.result, result);
    let again: Envelope = serde_json::from_str(&serde_json::to_string(&envelope)?)?;
    assert_eq!(again, envelope);
    let bad = serde_json::from_str::<Envelope>(r#"{"weight":1.5,"result":{"output":7}}"#);
    let message = bad.expect_err("a wrong type is rejected").to_string();
    assert!(message.contains("$.output"), "{message}");
    println!("ToolResult inside the user's serde type, with an f64 beside it: ok ({message})");
    Ok(())
}
EOF
# The spec's examples 1 and 2 as the crate ships them, and the README's examples as they
# are printed (readme_example_1.rs, readme_example_2.rs, ...).
cp "$UNPACKED/tests/seed_example_1.rs" "$USER_CRATE/src/bin/seed_example_1.rs"
cp "$UNPACKED/tests/seed_example_2.rs" "$USER_CRATE/src/bin/seed_example_2.rs"
awk -v dir="$USER_CRATE/src/bin" '
    /^```rust$/ { n += 1; on = 1; next }
    /^```$/ { on = 0; next }
    on { print > (dir "/readme_example_" n ".rs") }
' "$UNPACKED/README.md"
[[ -s "$USER_CRATE/src/bin/readme_example_1.rs" ]] || die "README.md has no rust example"
grep -q "run_calls" "$USER_CRATE"/src/bin/readme_example_*.rs || die "README.md has no example that runs a turn"
cd "$USER_CRATE"
run cargo build --quiet --bins
FEATURES="$(cargo tree --quiet -e features -i serde_json)" || die "cargo tree failed"
grep -q 'serde_json feature "default"' <<<"$FEATURES" || die "cargo tree shows no serde_json: $FEATURES"
if grep -qE 'preserve_order|arbitrary_precision' <<<"$FEATURES"; then
    die "serde_json's preserve_order or arbitrary_precision is on in the user's build: $FEATURES"
fi
echo "serde_json in the user's build: no preserve_order, no arbitrary_precision"
for bin in toolnexus-user-check seed_example_1 seed_example_2 $(cd src/bin && ls readme_example_*.rs | sed 's/[.]rs$//'); do
    echo "-- $bin"
    run cargo run --quiet --bin "$bin"
done
echo "(the README's wire example prints nothing: its asserts passed)"

step "a user's crate of the wire types alone (default-features = false)"
WIRE_CRATE="$WORK/wire-user-crate"
mkdir -p "$WIRE_CRATE/src"
cat >"$WIRE_CRATE/Cargo.toml" <<EOF
[package]
name = "toolnexus-wire-user-check"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$NAME = { path = "$UNPACKED", default-features = false }
EOF
cp "$USER_CRATE/src/bin/readme_example_1.rs" "$WIRE_CRATE/src/main.rs"
cd "$WIRE_CRATE"
run cargo run --quiet
TREE="$(cargo tree --quiet -e normal --prefix none)" || die "cargo tree failed"
for dep in jsonschema fancy-regex hmac sha2 serde_jcs tokio; do
    if grep -q "^$dep v" <<<"$TREE"; then
        die "$dep, a dependency of the runtime, is in the build of a user of the wire types alone"
    fi
done
echo "the wire types alone: $(sort -u <<<"$TREE" | wc -l | tr -d ' ') packages in the build (the user's included), none of the runtime's"

step "cargo publish --dry-run"
cd "$CRATE"
SHOW='^(warning|\s*(Updating|Packaging|Packaged|Verifying|Finished|Uploading))|dry run|aborting' \
    run cargo publish --dry-run --allow-dirty

echo
echo "tests/dist/rust.sh: $NAME $VERSION packages, tests on its own (with and without its runtime), sits next to a user's serde code, runs a turn and resumes a stored run, and leaves the runtime out of a wire-only build"
