"""A durable host: a run suspends, is stored in SQLite, and is resumed by another process.

    python examples/durable_host.py start DB               # process 1: run the turn, store it, exit
    python examples/durable_host.py resume DB [--decline]  # process 2: load it, answer, resume
    python examples/durable_host.py                        # both, each in its own process

Process 1 runs the model's tool calls without a `wait_for`: `delete_files` asks for
approval, so the run stops with a sealed, pending `RunResult`, which is stored as JSON.
Process 2 answers the request through `toolnexus.store`, which claims the stored run (so
it is resumed once, however many processes try), resumes it, and stores the final
results, which it prints. Both processes
build the same tools and share the host secret that seals the run; a run altered in
the database is refused.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from toolnexus import (
    Answer,
    Request,
    ResumeError,
    RunResult,
    ToolCall,
    ToolContext,
    Toolkit,
    ToolResult,
    pending,
    tool,
)
from toolnexus.store import SqliteRunStore

#: The host secret that seals stored runs; keep a real one in your secret store.
SECRET = os.environ.get("DURABLE_HOST_SECRET", "demo-secret-change-me-0123456789").encode()


@tool
def get_weather(city: str) -> str:
    """The weather in a city."""
    return f"Sunny, 21 °C in {city}"


@tool
def delete_files(paths: list[str], ctx: ToolContext) -> str | ToolResult:
    """Delete files, after the person approves."""
    if ctx.answer is None:
        return pending(Request("approval", f"Delete {len(paths)} files?", data={"paths": paths}))
    by = (ctx.answer.data or {}).get("approvedBy", "someone")
    return f"deleted {', '.join(paths)} (approved by {by})"  # a demo: nothing is deleted


def toolkit() -> Toolkit:
    return Toolkit([get_weather, delete_files], secret=SECRET)


#: The tool calls of one model turn, as a provider would hand them over.
TURN = [
    ToolCall("call_1", "get_weather", {"city": "Paris"}),
    ToolCall("call_2", "delete_files", {"paths": ["a.txt", "b.txt", "c.txt"]}),
]


def show(run: RunResult) -> None:
    for r in run.results:
        mark = " (error)" if r.result.is_error else ""
        print(f"  {r.id} {r.name} -> {r.result.output}{mark}")
    for c in run.calls:
        print(f"  {c.id} {c.name} waits")


async def start(db: str) -> int:
    """Process 1: run the turn; it stops on the approval, and the run is stored."""
    run = await toolkit().run_calls(TURN)
    assert run.pending is not None, "delete_files asks first"
    run_id = SqliteRunStore(db).save(run)
    print(f"process 1: run {run_id} is {run.status} on {run.pending.kind} {run.pending.prompt!r}")
    show(run)
    print("process 1: stored the run; exiting")
    return 0


async def resume(db: str, approve: bool) -> int:
    """Process 2: answer the stored run's request; the store claims it, resumes and saves."""
    store = SqliteRunStore(db)
    waiting = store.pending()
    if not waiting:
        stored = store.ids()
        print(f"process 2: run {stored[-1]} was already resumed" if stored else "process 2: no stored run")
        return 1
    run_id, request = waiting[-1].run_id, waiting[-1].request
    print(f"process 2: loaded run {run_id}, pending on {request.prompt!r}")
    if approve:
        answer = Answer(request.id, True, data={"approvedBy": "ada"})
    else:
        answer = Answer(request.id, False, reason="declined")
    print(f"process 2: answering {'yes' if approve else 'no'}")
    try:
        # Claims the run first: of two processes resuming it, one runs the tool and the
        # other gets ResumeError. A crash after the claim leaves it `claimed`, for a person.
        resumed = await store.resume(toolkit(), run_id, answer)
    except ResumeError as exc:
        if exc.reason in ("replayed", "not_pending"):
            print(f"process 2: run {run_id} was already resumed")
        else:
            print(f"process 2: refused ({exc.reason}): {exc}")
        return 1
    print(f"process 2: run {run_id} is {resumed.status}")
    show(resumed)
    return 0


def both() -> int:
    """Each phase in its own process, on a temporary database."""
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "runs.sqlite3")
        for phase in ("start", "resume"):
            done = subprocess.run([sys.executable, __file__, phase, db], check=False)
            if done.returncode != 0:
                return done.returncode
    return 0


def main(argv: list[str]) -> int:
    if not argv:
        return both()
    if argv[0] == "start" and len(argv) == 2:
        return asyncio.run(start(argv[1]))
    if argv[0] == "resume" and len(argv) in (2, 3) and argv[2:] in ([], ["--decline"]):
        return asyncio.run(resume(argv[1], approve=argv[2:] != ["--decline"]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
