"""Every Rust block in the README, and in the crate's own README (what crates.io shows),
compiles against the generated crate (with its default features) and runs: it exits 0, and a
block that prints prints a line starting `ok: `."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from tests.conftest import REPO
from tests.needs import missing

pytestmark = pytest.mark.slow


READMES = ("README.md", "generated/rust/README.md")


def _blocks_of(readme: str) -> list[str]:
    text = (REPO / readme).read_text(encoding="utf-8")
    return re.findall(r"```rust\n(.*?)```", text, flags=re.S)


def _readme_blocks() -> list[str]:
    return _blocks_of("README.md")


_ALL_BLOCKS = [(readme, i) for readme in READMES for i in range(len(_blocks_of(readme)))]


def test_the_readme_has_a_rust_section_that_runs_a_turn_and_resumes_a_stored_run() -> None:
    blocks = _readme_blocks()
    assert blocks, "README.md has no Rust block"
    assert any("define_tool" in b and "run_calls" in b and "RunResult::from_json" in b for b in blocks)


def test_the_crate_readme_shows_the_wire_types_the_toolkit_and_decisions() -> None:
    blocks = _blocks_of("generated/rust/README.md")
    assert any("ToolResult::from_json" in b for b in blocks)
    assert any("run_calls" in b and "resume" in b for b in blocks)
    assert any("define_supplied_tool" in b and "DecisionLog" in b for b in blocks)


@pytest.mark.parametrize(("readme", "index"), _ALL_BLOCKS, ids=[f"{r}-{i}" for r, i in _ALL_BLOCKS])
def test_readme_rust_block_runs(readme: str, index: int, tmp_path) -> None:
    if shutil.which("cargo") is None:
        missing("cargo is not installed")
    crate = tmp_path / "readme"
    (crate / "src").mkdir(parents=True)
    (crate / "Cargo.toml").write_text(
        "[package]\n"
        'name = "readme-block"\n'
        'version = "0.0.0"\n'
        'edition = "2021"\n'
        "publish = false\n\n"
        "[dependencies]\n"
        f'toolnexus = {{ package = "toolnexus-contract", path = "{REPO / "generated" / "rust"}" }}\n'
        'tokio = { version = "1.54.1", features = ["macros", "rt-multi-thread"] }\n',
        encoding="utf-8",
    )
    block = _blocks_of(readme)[index]
    (crate / "src" / "main.rs").write_text(block, encoding="utf-8")
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
    assert proc.returncode == 0, proc.stderr
    if "println!" in block:
        assert proc.stdout.startswith("ok: "), proc.stdout
