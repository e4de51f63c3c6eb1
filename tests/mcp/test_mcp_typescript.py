"""The MCP bridges across languages: the Python client (`mcp_tools_from`, `ElicitationRelay`)
calls a toolkit served by the TypeScript bridge (`toolnexus-contract/mcp`,
`tests/typescript/mcp_server.ts`), and the TypeScript client (`tests/typescript/mcp_client.ts`)
calls the Python server (`tests/mcp/toolkit_server.py`), each over stdio and streamable HTTP on
127.0.0.1. The TypeScript SDK's 1.x speaks the handshake versions (to 2025-11-25), so a
suspension crosses as an elicitation in the middle of the call.

Needs Node 20 and the TypeScript tests' packages (`bash tests/typescript/run.sh build`, which
runs when the compiled scripts are missing); under CI=true a missing `node` fails."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from tests.conftest import REPO, free_port, serving
from tests.needs import missing
from toolnexus import Answer, Request, ToolCall, Toolkit
from toolnexus.mcp import ElicitationRelay, mcp_tools_from

pytestmark = pytest.mark.slow

TS_DIR = REPO / "tests" / "typescript"
PY_SERVER = REPO / "tests" / "mcp" / "toolkit_server.py"


@pytest.fixture(scope="module")
def node() -> str:
    """`node`, with the TypeScript bridge and its test scripts compiled."""
    found = shutil.which("node")
    if found is None:
        missing("the TypeScript MCP bridge's tests need Node 20 or later (node)")
    if not all((TS_DIR / ".cache" / name).exists() for name in ("mcp_server.js", "mcp_client.js")):
        subprocess.run(["bash", "run.sh", "build"], cwd=TS_DIR, check=True)
    return found


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "support" / "python")])}


@pytest.fixture(params=["stdio", "http"])
def ts_server(request: pytest.FixtureRequest, node: str) -> Iterator[Any]:
    """Where the TypeScript server is: stdio parameters (a process per client) or its HTTP url."""
    script = str(TS_DIR / ".cache" / "mcp_server.js")
    if request.param == "stdio":
        yield StdioServerParameters(command=node, args=[script])
        return
    port = free_port()
    with serving([node, script, "http", str(port)], port, dict(os.environ), "the TypeScript HTTP server"):
        yield f"http://127.0.0.1:{port}/mcp"


async def test_python_client_calls_the_typescript_server(ts_server: Any) -> None:
    relay = ElicitationRelay()
    asked: list[Request] = []

    def wait_for(request: Request) -> Answer:
        asked.append(request)
        if request.kind == "authorization":
            return Answer(request.id, False, reason="declined")
        approval = request.prompt.startswith("Allow ")  # the toolkit's own approval takes no reason
        return Answer(request.id, True, {} if approval else {"reason": "from Python"})

    async with Client(ts_server, mode="legacy", elicitation_callback=relay) as client:
        assert client.protocol_version == "2025-11-25"
        toolkit = Toolkit(await mcp_tools_from(client.session, elicitations=relay))
        assert [t.name for t in toolkit.tools()] == [
            "add", "approve", "login", "wipe", "steps", "secret", "fail", "forecast"
        ]  # fmt: skip
        run = await toolkit.run_calls(
            [
                ToolCall("add", "add", {"a": 2, "b": 3}),
                ToolCall("approve", "approve", {"n": 4}),
                ToolCall("wipe", "wipe", {"disk": "d2"}),
                ToolCall("login", "login", {}),
                ToolCall("secret", "secret", {}),
                ToolCall("fail", "fail", {"what": "that"}),
                ToolCall("forecast", "forecast", {}),
            ],
            wait_for=wait_for,
        )
        # Without wait_for the run stops on the TypeScript server's question, and resumes.
        stopped = await toolkit.run_calls([ToolCall("a", "approve", {"n": 5})])
        assert stopped.status == "pending" and stopped.pending is not None
        resumed = await toolkit.resume(stopped, Answer(stopped.pending.id, True, {"reason": "resumed"}))
    r = {item.id: item.result for item in run.results}
    assert [(a.kind, a.prompt, a.url) for a in asked] == [
        ("input", "Delete 4 files?", None),
        ("input", 'Allow wipe to run with these arguments?\n{\n  "disk": "d2"\n}', None),
        ("authorization", "Sign in to continue", "https://example.com/login"),
    ]
    assert r["add"].output == "5"
    assert r["approve"].output == "deleted 4 files: from Python"
    assert r["wipe"].output == "wiped d2"
    assert (r["login"].is_error, r["login"].output) == (True, "declined/expired: Sign in to continue")
    assert r["secret"].output == "visible" and "s3cret" not in r["secret"].to_json()
    assert (r["fail"].is_error, r["fail"].output) == (True, "cannot do that")
    assert r["forecast"].structured_content == {"city": "Oslo", "celsius": 21.5}
    assert resumed.results[0].result.output == "deleted 5 files: resumed"


@pytest.fixture(params=["stdio", "http"])
def py_server(request: pytest.FixtureRequest) -> Iterator[list[str]]:
    """The arguments that point the TypeScript client at the Python server."""
    if request.param == "stdio":
        yield ["stdio", sys.executable, str(PY_SERVER)]
        return
    port = free_port()
    with serving([sys.executable, str(PY_SERVER), "http", str(port)], port, _env(), "the Python HTTP server"):
        yield ["http", f"http://127.0.0.1:{port}/mcp"]


def test_typescript_client_calls_the_python_server(node: str, py_server: list[str]) -> None:
    proc = subprocess.run(
        [node, str(TS_DIR / ".cache" / "mcp_client.js"), *py_server],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(proc.stdout)
    assert seen["server"] == "toolnexus"
    assert {"add", "approve", "wipe", "login", "picture", "forecast"} <= set(seen["tools"])
    assert seen["asked"] == [
        {"kind": "input", "prompt": "Delete 4 files?"},
        {"kind": "input", "prompt": 'Allow wipe to run with these arguments?\n{\n  "disk": "d2"\n}'},
        {"kind": "authorization", "prompt": "Sign in to continue", "url": "https://example.com/login"},
    ]
    r = seen["results"]
    assert r["add"]["output"] == "5"
    assert r["approve"]["output"].startswith("deleted 4 files: from TypeScript (mcp-")
    assert r["wipe"]["output"] == "wiped d2"
    assert r["login"]["output"] == "declined/expired: Sign in to continue"
    [picture] = r["picture"]["parts"]
    assert (picture["type"], picture["mimeType"]) == ("image", "image/png")
    assert r["secret"] == {"output": "visible", "isError": False, "parts": []}  # metadata stayed home
    assert (r["fail"]["isError"], r["fail"]["output"]) == (True, "cannot do that")
    assert r["forecast"]["structuredContent"] == {"city": "Oslo", "celsius": 21.5}
