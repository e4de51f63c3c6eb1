"""Each module behind an optional extra says which extra to install when its package is missing."""

from __future__ import annotations

import subprocess
import sys

import pytest

BLOCK = """
import sys

class Missing:
    def find_spec(self, name, path=None, target=None):
        if name == {blocked!r} or name.startswith({blocked!r} + "."):
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Missing())
try:
    import {module}
except ImportError as exc:
    print(exc)
else:
    print("imported")
"""


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("toolnexus.mcp", "mcp", "mcp"),
        ("toolnexus.temporal", "temporalio", "temporal"),
        ("toolnexus.pydantic_ai", "pydantic_ai", "pydantic-ai"),
        ("toolnexus.openai_agents", "agents", "openai-agents"),
    ],
)
def test_a_missing_extra_is_named(module: str, blocked: str, extra: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", BLOCK.format(module=module, blocked=blocked)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    want = f"install the extra, pip install 'toolnexus-contract[{extra}]'"
    assert done.stdout.strip().endswith(want), done.stdout
    assert done.stdout.startswith(module), done.stdout
