"""Every example in examples/ and every Python block in the README runs."""

import os
import re
import subprocess
import sys

import pytest

from tests.conftest import REPO

# durable_host.py has its own test; mcp_server.py is a server, run by mcp_client.py;
# temporal_host.py runs in tests/test_temporal.py, against the Temporal server started there.
OWN_TESTS = {"durable_host.py", "mcp_server.py", "temporal_host.py"}
EXAMPLES = sorted(p for p in (REPO / "examples").glob("*.py") if p.name not in OWN_TESTS)


def _run(args, **kw):
    env = {**os.environ, "TOOLNEXUS_REPO": str(REPO)}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=120, **kw)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(path):
    proc = _run([str(path)], cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok: "), proc.stdout


def _readme_blocks():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


@pytest.mark.parametrize("index", range(len(_readme_blocks())))
def test_readme_python_block_runs(index, tmp_path):
    script = tmp_path / f"readme_{index}.py"
    script.write_text(_readme_blocks()[index], encoding="utf-8")
    proc = _run([str(script)], cwd=REPO)
    assert proc.returncode == 0, proc.stderr


def test_the_seed_examples_are_all_here():
    assert [
        p.name
        for p in EXAMPLES
        if p.name in {"success_and_failure.py", "structured_output.py", "suspension.py", "parts.py"}
    ] == ["parts.py", "structured_output.py", "success_and_failure.py", "suspension.py"]
