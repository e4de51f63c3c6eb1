"""The adapters' payloads are typed as each provider SDK's own request types: a user's file
that passes them to the SDKs' `create()` (and Gemini's `generate_content()`) passes
mypy --strict and pyright in strict mode, and a payload given to the wrong SDK fails both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
USER_FILE = REPO / "tests" / "typing" / "provider_payloads.py"
BIN = Path(sys.executable).parent
# The packages as a user sees them installed: their source on the path (the editable install's
# import hook is invisible to type checkers), their own errors not reported (`silent`).
PATHS = [str(REPO), str(REPO / "support" / "python")]

# One worker runs them, one after another (`--dist loadgroup`), on one mypy cache: the SDKs' stubs
# are read once, not by each run from nothing (a minute each on CI's machine).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("typing_payloads")]
MYPY_CACHE = REPO / ".cache" / "mypy-payloads"

WRONG = """
from anthropic import Anthropic
from toolnexus import tool
from toolnexus.adapters import openai_chat_tools


@tool
def add(a: int, b: int) -> str:
    return str(a + b)


def send(client: Anthropic) -> None:
    client.messages.create(model="m", max_tokens=1, messages=[], tools=openai_chat_tools([add]))
"""


def mypy(path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MYPYPATH": os.pathsep.join(PATHS)}
    return subprocess.run(
        [
            *(sys.executable, "-m", "mypy", "--config-file=", "--strict", "--follow-imports=silent"),
            *("--cache-dir", str(MYPY_CACHE), str(path)),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=path.parent,
        timeout=600,
    )


def pyright(path: Path) -> subprocess.CompletedProcess[str]:
    config = {"typeCheckingMode": "strict", "pythonVersion": "3.11", "extraPaths": PATHS}
    (path.parent / "pyrightconfig.json").write_text(json.dumps(config), encoding="utf-8")
    return subprocess.run(
        [str(BIN / "pyright"), "--pythonpath", sys.executable, str(path)],
        capture_output=True,
        text=True,
        cwd=path.parent,
        timeout=600,
    )


@pytest.fixture
def user_file(tmp_path: Path) -> Path:
    path = tmp_path / "provider_payloads.py"
    path.write_text(USER_FILE.read_text(encoding="utf-8"), encoding="utf-8")
    return path


def test_mypy_strict_accepts_the_payloads_for_each_sdk(user_file: Path) -> None:
    done = mypy(user_file)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found in 1 source file" in done.stdout


def test_pyright_strict_accepts_the_payloads_for_each_sdk(user_file: Path) -> None:
    done = pyright(user_file)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 errors, 0 warnings, 0 informations" in done.stdout


def test_a_payload_for_the_wrong_sdk_fails_both(tmp_path: Path) -> None:
    path = tmp_path / "wrong.py"
    path.write_text(WRONG, encoding="utf-8")
    by_mypy = mypy(path)
    assert by_mypy.returncode == 1 and 'Argument "tools" to "create"' in by_mypy.stdout, by_mypy.stdout
    by_pyright = pyright(path)
    assert by_pyright.returncode == 1 and 'parameter "tools"' in by_pyright.stdout, by_pyright.stdout
