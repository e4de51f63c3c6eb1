"""Exactly-once help: a tool with a side effect, keyed by `ctx.idempotency_key`, takes effect
once across a suspension, a resume in another OS process, and a replayed resume."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SECRET
from toolnexus import (
    Answer,
    Request,
    ResumeError,
    RunResult,
    ToolCall,
    ToolContext,
    Toolkit,
    define_tool,
    pending,
)

#: Left out by `make test-fast`: starts a process.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def charge(args: dict[str, Any], ctx: ToolContext) -> Any:
    """Charges a card once an approval comes: the charge is a line in a ledger file, written
    only when the ledger holds no line for this call's idempotency key."""
    if ctx.answer is None:
        return pending(Request("approval", f"Charge {args['amount']} EUR?"))
    ledger = Path(args["ledger"])
    lines = ledger.read_text(encoding="utf-8").splitlines() if ledger.exists() else []
    if any(line.split()[0] == ctx.idempotency_key for line in lines):
        return f"already charged {args['amount']} EUR"
    with ledger.open("a", encoding="utf-8") as out:
        out.write(f"{ctx.idempotency_key} {args['amount']}\n")
    return f"charged {args['amount']} EUR"


def toolkit() -> Toolkit:
    return Toolkit([define_tool("charge", "Charge a card", None, charge)], secret=SECRET)


def child(stored: str, answers: str) -> None:
    """What the other process does: read the stored run, resume it with the answers, print it."""
    import asyncio

    run = RunResult.from_json(Path(stored).read_text(encoding="utf-8"))
    batch = [Answer.from_json(line) for line in Path(answers).read_text(encoding="utf-8").splitlines()]
    done = asyncio.run(toolkit().resume(run, batch))
    print(done.to_json())


async def test_one_charge_across_suspend_resume_elsewhere_and_a_replay(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.txt"
    calls = [
        ToolCall("call_1", "charge", {"amount": 5, "ledger": str(ledger)}),
        ToolCall("call_2", "charge", {"amount": 7, "ledger": str(ledger)}),
    ]
    # 1. Suspend: both calls wait for an approval; nothing is charged.
    run = await toolkit().run_calls(calls)
    assert run.status == "pending" and len(run.requests) == 2 and not ledger.exists()
    stored = tmp_path / "run.json"
    stored.write_text(run.to_json(), encoding="utf-8")
    answers = [Answer(r.id, True) for r in reversed(run.requests)]
    (tmp_path / "answers.jsonl").write_text("\n".join(a.to_json() for a in answers), encoding="utf-8")

    # 2. Resume in another OS process.
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from tests.runtime.test_exactly_once import child; child(sys.argv[1], sys.argv[2])",
            str(stored),
            str(tmp_path / "answers.jsonl"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    done = RunResult.from_json(proc.stdout)
    assert [r.result.output for r in done.results] == ["charged 5 EUR", "charged 7 EUR"]
    charged = ledger.read_text(encoding="utf-8").splitlines()
    assert len(charged) == 2

    # 3. A replay: the same stored run and answers, resumed by a toolkit that never saw them
    #    (as a third process would). The toolkit cannot tell, so the tool runs; its key holds.
    replayed = await toolkit().resume(RunResult.from_json(stored.read_text(encoding="utf-8")), answers)
    assert [r.result.output for r in replayed.results] == ["already charged 5 EUR", "already charged 7 EUR"]
    assert ledger.read_text(encoding="utf-8").splitlines() == charged, "one effect per call"
    keys = [line.split()[0] for line in charged]
    assert len(set(keys)) == 2 and all(k.startswith("idk-") for k in keys)

    # The same toolkit given the same answer twice refuses it before anything runs.
    kit = toolkit()
    again = RunResult.from_json(stored.read_text(encoding="utf-8"))
    await kit.resume(again, answers[0])
    with pytest.raises(ResumeError) as info:
        await kit.resume(RunResult.from_json(stored.read_text(encoding="utf-8")), answers[0])
    assert info.value.reason == "replayed"
    assert ledger.read_text(encoding="utf-8").splitlines() == charged
    assert json.loads(proc.stdout)["status"] == "done"
