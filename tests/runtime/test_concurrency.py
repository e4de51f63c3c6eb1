"""Many concurrent calls through a toolkit, and `pnd-` ids across processes started at once."""

from __future__ import annotations

import json
import multiprocessing
import re
import subprocess
import sys
from typing import Any

import pytest

from toolnexus import Answer, Request, ToolCall, ToolContext, define_tool, pending, pending_of
from toolnexus._toolkit import Toolkit

#: Left out by `make test-fast`: starts processes.
pytestmark = pytest.mark.slow

CALLS = 10_000
SUSPENDING = 1_000  # every tenth call
PROCESSES = 8
IDS_PER_PROCESS = 5_000
PND = re.compile(r"pnd-[0-9a-f]{32}")


async def _work(args: dict[str, Any], ctx: ToolContext) -> Any:
    n = args["n"]
    if n % (CALLS // SUSPENDING) == 0:
        if ctx.answer is None:
            return pending(Request("approval", f"may {n} go on?", data={"n": n}))
        # The retry must get the answer to its own request, not another call's.
        return {"n": n, "answered": ctx.answer.data, "retry": True}
    return {"n": n}


async def test_10000_concurrent_calls_with_1000_suspensions_lose_and_cross_nothing() -> None:
    kit = Toolkit([define_tool("work", "", None, _work)])
    calls = [ToolCall(f"call-{n}", "work", {"n": n}) for n in range(CALLS)]
    asked: list[Request] = []

    async def wait_for(request: Request) -> Answer:
        asked.append(request)
        assert request.data is not None
        return Answer(request.id, True, data={"n": request.data["n"], "id": request.id})

    run = await kit.run_calls(calls, wait_for=wait_for)

    assert run.status == "done"
    assert len(run.results) == CALLS
    assert [r.id for r in run.results] == [c.id for c in calls]  # nothing lost, call order kept
    ids = [r.id for r in asked]
    assert len(asked) == SUSPENDING
    assert len(set(ids)) == SUSPENDING and all(PND.fullmatch(i) for i in ids)  # zero collisions
    retried = 0
    for n, r in enumerate(run.results):
        assert r.name == "work"
        assert not r.result.is_error, r.result.output
        assert pending_of(r.result) is None
        out = json.loads(r.result.output)
        assert out["n"] == n  # no crossed results
        if out.get("retry"):
            retried += 1
            assert out["answered"]["n"] == n  # the answer to its own request
    assert retried == SUSPENDING
    answered_ids = [json.loads(r.result.output)["answered"]["id"] for r in run.results if r.id.endswith("0")]
    assert len(set(answered_ids)) == len(answered_ids) == SUSPENDING


async def test_without_wait_for_the_first_of_1000_suspensions_stops_the_run() -> None:
    kit = Toolkit([define_tool("work", "", None, _work)])
    calls = [ToolCall(f"call-{n}", "work", {"n": n}) for n in range(CALLS)]
    run = await kit.run_calls(calls)
    assert run.status == "pending"
    assert run.pending is not None and run.pending.data == {"n": 0}
    assert len(run.results) + len(run.calls) == CALLS
    assert run.calls[0].id == "call-0"
    assert len(run.calls) == SUSPENDING
    assert {c.id for c in run.calls}.isdisjoint({r.id for r in run.results})


def _ids_in_this_process(count: int) -> list[str]:
    return [pending(Request("approval", "?")).metadata["pending"]["id"] for _ in range(count)]  # type: ignore[index]


_CHILD = (
    "import json, sys\n"
    "from toolnexus import Request, pending\n"
    "n = int(sys.argv[1])\n"
    "print(json.dumps([pending(Request('approval', '?')).metadata['pending']['id'] for _ in range(n)]))\n"
)


def test_pnd_ids_stay_unique_across_8_processes_started_at_once() -> None:
    # Eight fresh interpreters, started together.
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(IDS_PER_PROCESS)], stdout=subprocess.PIPE, text=True
        )
        for _ in range(PROCESSES)
    ]
    fresh: list[str] = []
    for proc in procs:
        out, _ = proc.communicate()
        assert proc.returncode == 0
        fresh.extend(json.loads(out))
    # Eight forks of this process: they share everything but the OS's randomness.
    with multiprocessing.get_context("fork").Pool(PROCESSES) as pool:
        forked = [i for chunk in pool.map(_ids_in_this_process, [IDS_PER_PROCESS] * PROCESSES) for i in chunk]
    every = fresh + forked + _ids_in_this_process(IDS_PER_PROCESS)
    assert len(every) == (2 * PROCESSES + 1) * IDS_PER_PROCESS
    assert all(PND.fullmatch(i) for i in every)
    assert len(set(every)) == len(every)
