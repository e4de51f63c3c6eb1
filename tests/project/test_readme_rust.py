"""Every ```rust block of the docs (README.md and the pages under docs/, as
`tests.doc_examples` lists them), and of the crate's own README (what crates.io shows),
compiles against the crate (support/rust, with its default features) and runs: it exits 0, and a
block that prints prints a line starting `ok: `."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from tests.conftest import REPO
from tests.doc_examples import Block, blocks
from tests.needs import missing

pytestmark = pytest.mark.slow

CRATE_README = "generated/rust/README.md"


def _crate_readme_blocks() -> list[Block]:
    text = (REPO / CRATE_README).read_text(encoding="utf-8")
    return [
        Block(CRATE_README, text.count("\n", 0, m.start()) + 1, m.group(1))
        for m in re.finditer(r"```rust\n(.*?)```", text, flags=re.S)
    ]


_ALL_BLOCKS = [*blocks("rust"), *_crate_readme_blocks()]


def test_the_readme_and_the_rust_guide_run_a_turn_and_resume_a_stored_run() -> None:
    docs = blocks("rust")
    assert any(b.page == "README.md" for b in docs), "README.md has no Rust block"
    guide = [b.code for b in docs if b.page == "docs/guides/rust.md"]
    assert guide, "docs/guides/rust.md has no Rust block"
    for code in ([b.code for b in docs if b.page == "README.md"], guide):
        assert any("define_tool" in c and "run_calls" in c and "RunResult::from_json" in c for c in code)
    assert any("define_supplied_tool" in c and "DecisionLog" in c for c in guide)


def test_the_crate_readme_shows_the_wire_types_the_toolkit_and_decisions() -> None:
    crate = [b.code for b in _crate_readme_blocks()]
    assert any("ToolResult::from_json" in b for b in crate)
    assert any("run_calls" in b and "resume" in b for b in crate)
    assert any("define_supplied_tool" in b and "DecisionLog" in b for b in crate)


@pytest.mark.parametrize("block", _ALL_BLOCKS, ids=lambda b: b.name)
def test_doc_rust_block_runs(block: Block, tmp_path) -> None:
    if shutil.which("cargo") is None:
        missing("cargo is not installed")
    crate = tmp_path / "readme"
    (crate / "src").mkdir(parents=True)
    # One package name per block: the blocks share a target directory, and two workers building
    # blocks of one name overwrite each other's binary between build and run.
    name = "readme-block-" + re.sub(r"[^a-z0-9]+", "-", block.name.lower()).strip("-")
    (crate / "Cargo.toml").write_text(
        "[package]\n"
        f'name = "{name}"\n'
        'version = "0.0.0"\n'
        'edition = "2021"\n'
        "publish = false\n\n"
        "[dependencies]\n"
        f'toolnexus = {{ package = "toolnexus-contract", path = "{REPO / "support" / "rust"}" }}\n'
        'tokio = { version = "1.54.1", features = ["macros", "rt-multi-thread"] }\n',
        encoding="utf-8",
    )
    (crate / "src" / "main.rs").write_text(block.code, encoding="utf-8")
    lock = REPO / "support" / "rust" / "Cargo.lock"
    if lock.exists():  # the versions the crate's own tests ran with
        shutil.copy(lock, crate / "Cargo.lock")
    target = os.environ.get("CARGO_TARGET_DIR") or str(REPO / "support" / "rust" / "target")
    proc = subprocess.run(
        ["cargo", "run", "--quiet"],
        cwd=crate,
        env={**os.environ, "CARGO_TARGET_DIR": target},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, f"{block.name}:\n{proc.stderr}"
    if "println!" in block.code:
        assert proc.stdout.startswith("ok: "), proc.stdout
