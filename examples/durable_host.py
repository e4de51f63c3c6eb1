"""A durable host: a run suspends, is stored in SQLite, and is resumed by another process.

    python examples/durable_host.py start DB               # process 1: run the turn, store it, exit
    python examples/durable_host.py resume DB [--decline]  # process 2: load it, answer, resume
    python examples/durable_host.py                        # both, each in its own process

Process 1 runs the model's tool calls without a `wait_for`: `delete_files` asks for
approval, so the run stops with a sealed, pending `RunResult`, which is stored as JSON.
Process 2 claims the stored run (so it is resumed once, however many processes try),
answers the request, resumes, and stores and prints the final results. Both processes
build the same tools and share the host secret that seals the run; a run altered in
the database is refused.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import tempfile
from contextlib import closing
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


def connect(db: str) -> sqlite3.Connection:
    conn = sqlite3.connect(db, isolation_level=None)  # autocommit; each statement is atomic
    conn.execute(
        "CREATE TABLE IF NOT EXISTS runs ("
        " id INTEGER PRIMARY KEY, status TEXT NOT NULL, pending_id TEXT, body TEXT NOT NULL)"
    )
    return conn


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
    with closing(connect(db)) as conn:
        cur = conn.execute(
            "INSERT INTO runs (status, pending_id, body) VALUES (?, ?, ?)",
            (run.status, run.pending.id, run.to_json()),
        )
    print(f"process 1: run {cur.lastrowid} is {run.status} on {run.pending.kind} {run.pending.prompt!r}")
    show(run)
    print("process 1: stored the run; exiting")
    return 0


async def resume(db: str, approve: bool) -> int:
    """Process 2: claim the stored run, answer it, resume, and store the outcome."""
    with closing(connect(db)) as conn:
        row = conn.execute("SELECT id FROM runs ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            print("process 2: no stored run")
            return 1
        run_id = row[0]
        # Claim it: only one process moves it from pending to resuming, so the tool re-runs
        # at most once. A crash after the claim leaves it `resuming`, for a person to look at.
        claimed = conn.execute(
            "UPDATE runs SET status = 'resuming' WHERE id = ? AND status = 'pending'", (run_id,)
        ).rowcount
        if claimed != 1:
            print(f"process 2: run {run_id} was already resumed")
            return 1
        body = conn.execute("SELECT body FROM runs WHERE id = ?", (run_id,)).fetchone()[0]
        run = RunResult.from_json(body)
        assert run.pending is not None
        print(f"process 2: loaded run {run_id}, pending on {run.pending.prompt!r}")
        if approve:
            answer = Answer(run.pending.id, True, data={"approvedBy": "ada"})
        else:
            answer = Answer(run.pending.id, False, reason="declined")
        print(f"process 2: answering {'yes' if approve else 'no'}")
        try:
            resumed = await toolkit().resume(run, answer)
        except ResumeError as exc:
            conn.execute("UPDATE runs SET status = 'refused' WHERE id = ?", (run_id,))
            print(f"process 2: refused ({exc.reason}): {exc}")
            return 1
        new_pending = resumed.pending.id if resumed.pending else None
        conn.execute(
            "UPDATE runs SET status = ?, pending_id = ?, body = ? WHERE id = ?",
            (resumed.status, new_pending, resumed.to_json(), run_id),
        )
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
