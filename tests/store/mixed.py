"""Python and TypeScript worker processes on one PostgreSQL database (issue 33): `race` saves runs
that each wait on one `approve` call, starts workers of both languages that take what waits and
resume it (claim, run the tool, finish) until nothing is left, and checks from the database, the
workers' reports and the tool's runs that every run was claimed and finished once and its tool
ran once. `tests/store/test_store_mixed_workers.py` runs it small; `bench/postgres_mixed.py`
runs it with 10,000 runs and times it.

A Python worker is this module (`python -m tests.store.mixed <dsn> <i> <n>`); a TypeScript worker
is `tests/typescript/store-host.ts work <dsn> <i> <n>`: worker `i` of `n`. Both print `ready`, wait
for a line on stdin (the go, given to all at once, so start-up is not timed), and end by printing
`{"finished": [run ids], "lost": n}`: the runs they finished, and how often another worker took a
run first. Each run of the tool appends `pid key` to the worker's own log
(`$TOOLNEXUS_STORE_TEST_LOG`).

The workers spread out, so that few claims meet: worker `i` of `n` walks the keyset of what waits
in pages of `PAGE * n` and answers the runs whose id is `i` modulo `n` (its share), then helps with
what is left (the shares of workers still at theirs) from its far end: a page from a random run id
in the newer half of what waits, and another random place each time it finds a run taken. When
every worker listed the oldest 64 and claimed them in a random order, three claims in four lost
their race (33,767 over 10,000 runs).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tests.conftest import REPO
from tests.store.test_store import RUNS_LOG, toolkit
from toolnexus import Answer, ResumeError, RunResult, ToolCall
from toolnexus.store import PendingRequest, PostgresRunStore

TS_DIR = REPO / "tests" / "typescript"
HOST = TS_DIR / ".cache" / "store-host.js"
LANGUAGES = ("python", "typescript")
#: How many runs of its own a worker answers from one page of what waits (the page lists `PAGE`
#: times the number of workers).
PAGE = 64


def typescript_host() -> Path:
    """The compiled TypeScript store host, built again when its source is newer (or absent).
    Raises FileNotFoundError when Node.js is not installed."""
    if shutil.which("node") is None:
        raise FileNotFoundError("Node.js is not installed (the TypeScript store runs on it)")
    source = TS_DIR / "store-host.ts"
    if not HOST.exists() or HOST.stat().st_mtime < source.stat().st_mtime:
        subprocess.run(["bash", "run.sh", "build"], cwd=TS_DIR, check=True, stdout=subprocess.DEVNULL)
    return HOST


@dataclass
class Outcome:
    """What a race did: runs saved, seconds from the go to the last worker's end, runs finished
    and races lost by each language's workers, and what did not hold (empty: all did)."""

    runs: int
    seconds: float
    finished: dict[str, int]
    lost: dict[str, int]
    problems: list[str] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        return self.runs / self.seconds


async def _turns(count: int) -> list[RunResult]:
    kit = toolkit()
    return [await kit.run_calls([ToolCall("c0", "approve", {"what": str(i)})]) for i in range(count)]


def race(dsn: str, runs: int, python: int, typescript: int, folder: Path, timeout: float = 600) -> Outcome:
    """Save `runs` runs in `dsn`'s database, let `python` and `typescript` workers finish them
    (their logs in `folder`), and check that each was claimed, run and finished once."""
    store = PostgresRunStore(dsn)
    made = asyncio.run(_turns(runs))
    ids = store.save_many(made)
    expected = {
        run_id: (run.requests[0].id, f"did {i}")
        for i, (run_id, run) in enumerate(zip(ids, made, strict=True))
    }
    host = typescript_host() if typescript else None
    workers: list[tuple[str, Path, subprocess.Popen[str]]] = []
    try:
        for language, count in zip(LANGUAGES, (python, typescript), strict=True):
            for n in range(count):
                log = folder / f"{language}-{n}.log"
                log.touch()
                place = [str(len(workers)), str(python + typescript)]  # worker i of n
                argv = (
                    [sys.executable, "-m", "tests.store.mixed", dsn, *place]
                    if language == "python"
                    else ["node", str(host), "work", dsn, *place]
                )
                proc = subprocess.Popen(
                    argv,
                    cwd=REPO,
                    env={**os.environ, RUNS_LOG: str(log)},
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=(folder / f"{language}-{n}.err").open("w"),
                    text=True,
                )
                workers.append((language, log, proc))
        for language, _, proc in workers:
            assert proc.stdout is not None and proc.stdin is not None
            line = proc.stdout.readline()
            if line != "ready\n":
                raise RuntimeError(f"a {language} worker did not start: {line!r} (see {folder})")
        started = time.perf_counter()
        for _, _, proc in workers:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.close()
            proc.stdin = None  # given: `communicate` reads the report alone
        outs = [proc.communicate(timeout=timeout)[0] for _, _, proc in workers]
        seconds = time.perf_counter() - started
    finally:
        for _, _, proc in workers:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    outcome = Outcome(runs, seconds, dict.fromkeys(LANGUAGES, 0), dict.fromkeys(LANGUAGES, 0))
    problems = outcome.problems
    finished: Counter[int] = Counter()
    keys: Counter[str] = Counter()
    for (language, log, proc), out in zip(workers, outs, strict=True):
        if proc.returncode != 0:
            err = (folder / f"{log.stem}.err").read_text()[-2000:]
            problems.append(f"a {language} worker exited {proc.returncode}: {err}")
            continue
        report = json.loads(out.splitlines()[-1])
        ran = [line.split()[1] for line in log.read_text().splitlines()]
        if len(ran) != len(report["finished"]):
            problems.append(f"{log.name}: the tool ran {len(ran)} times for {len(report['finished'])} runs")
        finished.update(report["finished"])
        keys.update(ran)
        outcome.finished[language] += len(report["finished"])
        outcome.lost[language] += report["lost"]
    if twice := sorted(r for r, n in finished.items() if n > 1):
        problems.append(f"{len(twice)} runs finished by more than one worker: {twice[:10]}")
    if left := sorted(set(expected) - set(finished)):
        problems.append(f"{len(left)} runs finished by no worker: {left[:10]}")
    if stray := sorted(set(finished) - set(expected)):
        problems.append(f"runs finished that were not saved: {stray[:10]}")
    if again := sorted(k for k, n in keys.items() if n > 1):
        problems.append(f"{len(again)} idempotency keys the tool ran under more than once: {again[:5]}")
    if len(keys) != runs:
        problems.append(f"the tool ran under {len(keys)} keys for {runs} runs")
    problems.extend(_check_rows(dsn, expected))
    return outcome


def _check_rows(dsn: str, expected: dict[int, tuple[str, str]]) -> list[str]:
    """What the database holds: every run done with its output, its one request answered once,
    no lease, nothing in doubt, nothing waiting."""
    import psycopg

    problems = []
    with psycopg.connect(dsn) as conn:
        rows = conn.execute("SELECT id, status, answered, body, lease, doubt FROM runs").fetchall()
        (waiting,) = conn.execute("SELECT count(*) FROM waiting").fetchone()  # type: ignore[misc]
    if waiting:
        problems.append(f"{waiting} requests still waiting")
    if {r[0] for r in rows} != set(expected):
        problems.append(f"{len(rows)} runs in the database for {len(expected)} saved")
    wrong = []
    for run_id, status, answered, body, lease, doubt in rows:
        request, output = expected.get(run_id, ("", ""))
        run = RunResult.from_json(body) if status == "done" else None
        outputs = [r.result.output for r in run.results] if run is not None else []
        if json.loads(answered) != [request] or outputs != [output] or lease or doubt:
            wrong.append(run_id)
    if wrong:
        problems.append(f"{len(wrong)} runs not done once with their one answer: {sorted(wrong)[:10]}")
    return problems


async def _work(dsn: str, index: int, count: int) -> dict[str, object]:
    store, kit = PostgresRunStore(dsn), toolkit()
    finished: list[int] = []
    lost = 0

    async def take(waiting: PendingRequest) -> bool:
        """Resume the run with its one answer; False when another worker had taken it."""
        nonlocal lost
        try:
            run = await store.resume(kit, waiting.run_id, Answer(waiting.request.id, ok=True))
        except ResumeError:
            lost += 1
            return False
        if run.status != "done":
            raise RuntimeError(f"run {waiting.run_id} is {run.status} after its one answer")
        finished.append(waiting.run_id)
        return True

    # Its share, page after page; `high`: the last run id listed.
    high = 0
    after: PendingRequest | None = None
    while page := store.pending(limit=PAGE * count, after=after):
        high, after = page[-1].run_id, page[-1]
        for waiting in page:
            if waiting.run_id % count == index:
                await take(waiting)
    # What is left, from its far end (the workers still at their shares come up from the oldest):
    # a page from a random place in the newer half, and another place after a race lost.
    while first := store.pending(limit=1):
        lowest = first[0].run_id
        high = max(high, lowest)
        start = random.randint((lowest + high) // 2, high)
        if not (page := store.pending(limit=PAGE, after=(start, -1))):
            high = start - 1  # nothing waits from `start` on
            continue
        for waiting in page:
            if not await take(waiting):
                break  # another worker is here: go elsewhere
    store.close()
    return {"finished": finished, "lost": lost}


def main(dsn: str, index: int, count: int) -> None:
    print("ready", flush=True)
    sys.stdin.readline()
    print(json.dumps(asyncio.run(_work(dsn, index, count))), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
