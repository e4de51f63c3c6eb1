"""The Python Toolkit as a host of the loop vectors for the cross-language test
(`tests/runtime/test_loop_cross_language.py`): one step at a time, the run passed as its wire JSON, with
the protocol every language's host speaks (`tests/typescript/loop-host.ts` is TypeScript's):

    python -m tests.loop_host run <vector-name>
        runs the vector's calls (its first step) with its tools and its `turn`; prints
        {"run": <RunResult wire>, "ran": [{"id", "arguments", "retry", "data", "key"}...]}
    python -m tests.loop_host resume <vector-name>
        reads {"run": <RunResult wire>, "answers": [<Answer wire>...], "principal": null | str}
        on stdin; prints {"run": ...} or {"error": "<ResumeError reason>", "message"}, and "ran"

Runs are sealed under the key `k1`, the secret `k1` of `idl/seal/vectors.json`; the clock is the
wall clock unless the input has "now" (ms since the epoch). `ran` lists the step's handler runs,
`key` being the idempotency key itself. `step` is the same, in process.
"""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import UTC, datetime
from typing import Any

from toolnexus_wire import dumps

from tests import loop_vectors as lv
from tests.seal_spec import VECTORS
from toolnexus import Answer, ResumeError, RunResult, ToolCall, Toolkit


def _secret() -> bytes:
    return bytes.fromhex(json.loads(VECTORS.read_text(encoding="utf-8"))["secrets"]["k1"])


async def step(command: str, name: str, given: dict[str, Any]) -> str:
    """What the host prints for `command` (`run` or `resume`) on the vector `name`, given the
    input `given` (the parsed stdin; `{}` for none), as JSON text."""
    now = given.get("now")

    def clock() -> datetime:
        return datetime.now(UTC) if now is None else datetime.fromtimestamp(now / 1000, UTC)

    vector = lv.load(name)
    script = lv.Script(vector, clock)
    kit = Toolkit(
        script.tools(), secrets={"k1": _secret()}, clock=clock, **lv.toolkit_options(vector, lambda: None)
    )
    out: dict[str, Any] = {}
    if command == "run":
        turn = vector.get("turn", {})
        calls = [ToolCall(c["id"], c["name"], c["arguments"]) for c in vector["calls"]]
        run = await kit.run_calls(
            calls, expires_in=turn.get("expiresIn"), principal=turn.get("principal"), turn_id=turn.get("id")
        )
        out["run"] = run.to_wire()
    else:
        answers = [Answer.from_wire(a) for a in given["answers"]]
        try:
            run = await kit.resume(
                RunResult.from_wire(given["run"]), answers, principal=given.get("principal")
            )
            out["run"] = run.to_wire()
        except ResumeError as exc:
            out["error"] = exc.reason
            out["message"] = str(exc)
    out["ran"] = [
        {"id": r.id, "arguments": r.arguments, "retry": r.retry, "data": r.data, "key": r.key}
        for r in script.log
    ]
    return dumps(out)


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("run", "resume") or argv[1] not in lv.names():
        print("usage: python -m tests.loop_host (run | resume) <vector-name>", file=sys.stderr)
        return 2
    text = sys.stdin.read() if not sys.stdin.isatty() else ""
    given = json.loads(text) if text.strip() else {}
    print(asyncio.run(step(argv[0], argv[1], given)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
