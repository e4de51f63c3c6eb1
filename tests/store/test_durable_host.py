"""The durable host example, run as a host would: two processes and a SQLite file between them."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from toolnexus import RunResult

#: Left out by `make test-fast`: starts processes.
pytestmark = pytest.mark.slow

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "durable_host.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, encoding="utf-8", check=False
    )


def rows(db: Path) -> list[tuple[int, str, str | None, str]]:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute(
            "SELECT r.id, r.status,"
            " (SELECT request_id FROM waiting w WHERE w.run_id = r.id AND w.position = 0),"
            " r.body FROM runs r ORDER BY r.id"
        ).fetchall()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "runs.sqlite3"


def start(db: Path) -> None:
    first = run("start", str(db))
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines() == [
        "process 1: run 1 is pending on approval 'Delete 3 files?'",
        "  call_1 get_weather -> Sunny, 21 °C in Paris",
        "  call_2 delete_files waits",
        "process 1: stored the run; exiting",
    ]


def test_a_run_stored_by_one_process_is_resumed_by_another(db: Path):
    start(db)
    [(run_id, status, pending_id, body)] = rows(db)
    stored = RunResult.from_json(body)
    assert (run_id, status) == (1, "pending")
    assert stored.pending is not None and stored.pending.id == pending_id
    assert [c.id for c in stored.calls] == ["call_2"]
    assert stored.seal is not None, "the example runs with a secret"

    second = run("resume", str(db))
    assert second.returncode == 0, second.stderr
    assert second.stdout.splitlines() == [
        "process 2: loaded run 1, pending on 'Delete 3 files?'",
        "process 2: answering yes",
        "process 2: run 1 is done",
        "  call_1 get_weather -> Sunny, 21 °C in Paris",
        "  call_2 delete_files -> deleted a.txt, b.txt, c.txt (approved by ada)",
    ]
    [(_, status, pending_id, body)] = rows(db)
    assert (status, pending_id) == ("done", None)
    assert RunResult.from_json(body).status == "done"


def test_a_second_resume_is_refused(db: Path):
    start(db)
    assert run("resume", str(db)).returncode == 0
    again = run("resume", str(db))
    assert again.returncode == 1
    assert again.stdout.strip() == "process 2: run 1 was already resumed"
    assert rows(db)[0][1] == "done"


def test_a_declined_run_finishes_with_the_declined_error(db: Path):
    start(db)
    second = run("resume", str(db), "--decline")
    assert second.returncode == 0, second.stderr
    assert "  call_2 delete_files -> declined/expired: Delete 3 files? (error)" in second.stdout.splitlines()


def test_a_run_altered_in_the_database_is_refused(db: Path):
    start(db)
    with closing(sqlite3.connect(db)) as conn:
        body = json.loads(conn.execute("SELECT body FROM runs").fetchone()[0])
        body["calls"][0]["arguments"]["paths"] = ["/"]
        conn.execute("UPDATE runs SET body = ?", (json.dumps(body),))
        conn.commit()
    second = run("resume", str(db))
    assert second.returncode == 1
    assert "process 2: refused (seal): the run's seal does not match" in second.stdout
    assert "deleted" not in second.stdout
    assert rows(db)[0][1] == "refused"


def test_without_arguments_the_example_runs_both_processes():
    both = run()
    assert both.returncode == 0, both.stderr
    lines = both.stdout.splitlines()
    assert lines[0].startswith("process 1: run 1 is pending")
    assert lines[-1] == "  call_2 delete_files -> deleted a.txt, b.txt, c.txt (approved by ada)"
