"""Every Rust block in the README compiles against the generated crate (with its default
features) and runs: its `fn main` prints a line starting `ok: `."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.slow


def _readme_blocks() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```rust\n(.*?)```", text, flags=re.S)


def test_the_readme_has_a_rust_section_that_runs_a_turn_and_resumes_a_stored_run() -> None:
    blocks = _readme_blocks()
    assert blocks, "README.md has no Rust block"
    assert any("define_tool" in b and "run_calls" in b and "RunResult::from_json" in b for b in blocks)


@pytest.mark.parametrize("index", range(len(_readme_blocks())))
def test_readme_rust_block_runs(index: int, tmp_path) -> None:
    if shutil.which("cargo") is None:
        pytest.skip("cargo is not installed")
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
    (crate / "src" / "main.rs").write_text(_readme_blocks()[index], encoding="utf-8")
    lock = REPO / "generated" / "rust" / "Cargo.lock"
    if lock.exists():  # the versions the crate's own tests ran with
        shutil.copy(lock, crate / "Cargo.lock")
    target = os.environ.get("CARGO_TARGET_DIR") or str(REPO / "generated" / "rust" / "target")
    proc = subprocess.run(
        ["cargo", "run", "--quiet"],
        cwd=crate,
        env={**os.environ, "CARGO_TARGET_DIR": target},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok: "), proc.stdout
