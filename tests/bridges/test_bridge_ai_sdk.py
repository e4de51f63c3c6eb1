"""A run the TypeScript AI SDK bridge (`toolnexus-contract/ai-sdk`) suspends on an AI SDK
`tool-approval-request` resumes in Python: the sealed `RunResult` and the conversation cross as
JSON, as a host stores them, under the key `k1` of `idl/seal/vectors.json`, which both sides
hold. Each TypeScript step is its own process (`tests/typescript/ai-sdk-host.ts`, driving the AI
SDK's `generateText` with its own mock model): it suspends, then turns a person's AI SDK approval
response into the `Answer`; Python's `Toolkit` resumes the run with it and runs the tool; the AI
SDK conversation then continues in TypeScript with Python's result. The bridge itself is tested
in `tests/typescript/ai_sdk.test.ts`."""

from __future__ import annotations

import asyncio
import json
import subprocess
from typing import Any

import pytest

from tests.conftest import REPO
from toolnexus import Answer, ResumeError, RunResult, Toolkit, define_tool

TS_DIR = REPO / "tests" / "typescript"
HOST = TS_DIR / ".cache" / "ai-sdk-host.js"
VECTORS = REPO / "idl" / "seal" / "vectors.json"


def _typescript(command: str, *args: str, given: dict[str, Any] | None = None) -> dict[str, Any]:
    """One step of the AI SDK host, as its own process (built first when it is not)."""
    if not HOST.exists():
        subprocess.run(["bash", "run.sh", "build"], cwd=TS_DIR, check=True)
    proc = subprocess.run(
        ["node", str(HOST), command, *args],
        input=json.dumps(given or {}),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, f"ai-sdk-host {command}: exit {proc.returncode}\n{proc.stderr}"
    out: dict[str, Any] = json.loads(proc.stdout)
    return out


def _toolkit(ran: list[int]) -> Toolkit:
    """Python's side: the same tool under the same name, and the same key."""

    def delete_files(args: dict[str, Any], ctx: Any) -> str:
        ran.append(args["count"])
        return f"deleted {args['count']} (python)"

    schema = {"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]}
    tool = define_tool("delete_files", "Delete files", schema, delete_files, needs_approval=True)
    secret = bytes.fromhex(json.loads(VECTORS.read_text(encoding="utf-8"))["secrets"]["k1"])
    return Toolkit([tool], secrets={"k1": secret})


def test_a_run_the_ai_sdk_suspended_resumes_in_python_and_the_conversation_goes_on() -> None:
    suspended = _typescript("suspend")
    run = RunResult.from_wire(suspended["run"])
    assert run.status == "pending"
    assert run.pending is not None and run.pending.kind == "approval"
    assert run.pending.data == {"tool": "delete_files", "arguments": {"count": 3}}
    assert run.seal is not None and run.seal.startswith("v4.hmac-sha256.k1.")

    answered = _typescript("answer", "true", given=suspended)
    answers = [Answer.from_wire(a) for a in answered["answers"]]
    assert [(a.id, a.ok) for a in answers] == [(run.pending.id, True)]

    ran: list[int] = []
    resumed = asyncio.run(_toolkit(ran).resume(run, answers))
    assert resumed.status == "done"
    assert ran == [3]
    assert resumed.results[0].result.output == "deleted 3 (python)"

    final = _typescript("continue", given={"run": resumed.to_wire(), "messages": answered["messages"]})
    assert final["text"] == "The files are gone."
    tool_message = final["prompt"][-1]
    assert tool_message["role"] == "tool"
    assert tool_message["content"][0]["toolCallId"] == "call_1"
    assert tool_message["content"][0]["output"] == {"type": "text", "value": "deleted 3 (python)"}


def test_a_denial_in_the_ai_sdk_is_a_refusal_in_python() -> None:
    suspended = _typescript("suspend")
    answered = _typescript("answer", "false", given=suspended)
    ran: list[int] = []
    run = RunResult.from_wire(suspended["run"])
    resumed = asyncio.run(_toolkit(ran).resume(run, [Answer.from_wire(a) for a in answered["answers"]]))
    assert ran == []
    assert resumed.results[0].result.output == "declined: the call to delete_files was not approved"


def test_python_refuses_the_run_when_its_stored_arguments_were_altered() -> None:
    suspended = _typescript("suspend")
    answered = _typescript("answer", "true", given=suspended)
    suspended["run"]["calls"][0]["arguments"] = {"count": 300}
    run = RunResult.from_wire(suspended["run"])
    with pytest.raises(ResumeError, match="seal"):
        asyncio.run(_toolkit([]).resume(run, [Answer.from_wire(a) for a in answered["answers"]]))
