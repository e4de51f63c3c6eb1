"""Building a generated Rust crate and sending wire documents through it.

`build_and_roundtrip(crate_dir, samples)` is for any crate the Rust target writes: a
golden case's (`test_goldens_rust.py`), the real IDL's, or one from an edited copy of
`idl/`; always a scratch copy, since it adds a test file to the crate
(`tests/golden_samples.rs`, the documents written in as string literals). It runs
`cargo clippy --all-targets -- -D warnings` (every target compiles and lints clean),
then that test alone, with the crate's feature `lossless` (so numbers and key order come
back as written): the crate's own tests pin the real contract, and need not hold for an
edited one.

Every crate shares one cargo target folder, so the dependencies build once:
CARGO_TARGET_DIR when it is set, else `.cache/golden-target` (ignored by git); the
crate's own `target/` is not used.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from codegen.rust_target import rust_str

__all__ = ["ROOT", "TARGET_DIR", "build_and_roundtrip", "cargo_available"]

ROOT = Path(__file__).resolve().parents[2]
TARGET_DIR = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / ".cache" / "golden-target").resolve()
SAMPLES_TEST = "golden_samples"
# The lock file of the real crate, when it has been built: the same dependency versions
# everywhere, and no registry lookup for a fresh temp crate.
_LOCK = ROOT / "generated" / "rust" / "Cargo.lock"


def cargo_available() -> bool:
    return shutil.which("cargo") is not None


def _samples_test(samples: dict[str, list[str]], invalid: dict[str, list[tuple[str, str]]]) -> str:
    rows = "".join(
        f"    ({rust_str(name)}, {rust_str(doc)}),\n" for name, docs in samples.items() for doc in docs
    )
    bad = "".join(
        f"    ({rust_str(name)}, {rust_str(doc)}, {rust_str(path)}),\n"
        for name, cases in invalid.items()
        for doc, path in cases
    )
    return (
        "//! Written by codegen/tests/lang_rust.py: every sample parses and is emitted byte for byte.\n"
        "\n"
        "const SAMPLES: &[(&str, &str)] = &[\n"
        f"{rows}"
        "];\n"
        "\n"
        "#[test]\n"
        "fn samples_come_back_byte_for_byte() {\n"
        "    for (name, doc) in SAMPLES {\n"
        '        assert!(toolnexus::TYPE_NAMES.contains(name), "{name} is not a wire type");\n'
        "        let emitted = toolnexus::roundtrip(name, doc.as_bytes())\n"
        '            .expect("roundtrip knows every name in TYPE_NAMES")\n'
        '            .unwrap_or_else(|e| panic!("{name} {doc}: {e}"));\n'
        '        assert_eq!(emitted, *doc, "{name}");\n'
        "    }\n"
        "}\n"
        "\n"
        "const INVALID: &[(&str, &str, &str)] = &[\n"
        f"{bad}"
        "];\n"
        "\n"
        "#[test]\n"
        "fn invalid_documents_are_rejected_at_their_path() {\n"
        "    for (name, doc, path) in INVALID {\n"
        "        let err = toolnexus::roundtrip(name, doc.as_bytes())\n"
        '            .expect("roundtrip knows every name in TYPE_NAMES")\n'
        "            .expect_err(doc);\n"
        '        assert_eq!(err.path(), *path, "{name} {doc}: {err}");\n'
        "    }\n"
        "}\n"
        "\n"
        "#[test]\n"
        "fn every_type_rejects_what_is_not_an_object() {\n"
        "    for name in toolnexus::TYPE_NAMES {\n"
        '        let err = toolnexus::roundtrip(name, b"[]").unwrap().unwrap_err();\n'
        '        assert_eq!(err.path(), "$", "{name}");\n'
        "    }\n"
        '    assert!(toolnexus::roundtrip("NoSuchType", b"{}").is_none());\n'
        "}\n"
    )


def _cargo(args: list[str], crate_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "CARGO_TARGET_DIR": str(TARGET_DIR),
        "CARGO_TERM_COLOR": "never",
        # Each temp crate is built once: incremental state would only pile up.
        "CARGO_INCREMENTAL": "0",
        # The spec's example 4, when the crate has it, reads the fixture under the repository.
        "TOOLNEXUS_REPO": str(ROOT),
    }
    return subprocess.run(["cargo", *args], cwd=crate_dir, env=env, capture_output=True, text=True)


def build_and_roundtrip(
    crate_dir: Path,
    samples: dict[str, list[str]],
    invalid: dict[str, list[tuple[str, str]]] | None = None,
) -> None:
    """Compile and lint every target of the crate at `crate_dir` (clippy, warnings denied),
    then parse and emit each document of `samples` (type name -> canonical documents)
    through it, and parse each of `invalid` (type name -> (document, JSON path of the
    error)) expecting the error there; raises AssertionError with cargo's output when
    any step fails."""
    crate_dir = Path(crate_dir).resolve()
    assert (crate_dir / "Cargo.toml").is_file(), f"{crate_dir} has no Cargo.toml"
    # It writes a test file into the crate: never into the one under generated/.
    assert not crate_dir.is_relative_to(ROOT / "generated"), "pass a scratch copy of the crate"
    if not (crate_dir / "Cargo.lock").exists() and _LOCK.is_file():
        shutil.copyfile(_LOCK, crate_dir / "Cargo.lock")
    tests = crate_dir / "tests"
    tests.mkdir(exist_ok=True)
    (tests / f"{SAMPLES_TEST}.rs").write_text(
        _samples_test(samples, invalid or {}), encoding="utf-8", newline="\n"
    )
    steps = (
        ["clippy", "--all-targets", "--quiet", "--", "-D", "warnings"],
        # Byte for byte: with the crate's opt-in feature that keeps key order and number text.
        ["test", "--quiet", "--features", "lossless", "--test", SAMPLES_TEST],
    )
    for args in steps:
        run = _cargo(args, crate_dir)
        if run.returncode != 0:
            raise AssertionError(
                f"`cargo {' '.join(args)}` failed in {crate_dir} (exit {run.returncode}):\n"
                f"{run.stdout}\n{run.stderr}"
            )
