"""`make bench`, the PostgreSQL store: `PostgresRunStore` against raw psycopg doing the same work,
and `store.wait` (LISTEN/NOTIFY) against a host polling the run every second, in one run, on a
throwaway cluster (`tests.postgres.cluster`: loopback, fsync off). Writes `bench/POSTGRES.md`.

    python bench/postgres.py [--quick]

The peer does, on a psycopg connection of its own (autocommit, each write one transaction), what
the store needs: a run's row and its waiting requests' rows in one transaction per save; a claim
(the row taken `FOR UPDATE SKIP LOCKED`, set `claimed` under a lease) in one transaction, the
calls about to run marked (`runs.doubt`, as the store does for a tool that is not idempotent),
the same `Toolkit.resume`, and the outcome's write in another; the same join for what waits.
Both sides write the same JSON (`to_json`) into the same tables (each in a schema of its own).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import statistics
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT)]

import psycopg  # noqa: E402

from tests.postgres import cluster  # noqa: E402
from toolnexus import Answer, Request, RunResult, ToolCall, ToolContext, Toolkit, pending, tool  # noqa: E402
from toolnexus.store import PostgresRunStore  # noqa: E402

ROWS: list[tuple[str, str, str, str, bool | None]] = []
SECRET = b"bench-postgres-store-secret-0123"


@tool
def transfer(amount: int, ctx: ToolContext) -> object:
    """Moves money once a person confirms."""
    if ctx.answer is None:
        return pending(Request("confirm", f"transfer {amount}?"))
    return f"transferred {amount}"


def toolkit() -> Toolkit:
    return Toolkit([transfer], secret=SECRET)


def row(figure: str, case: str, ratio: float, target: float | None, detail: str) -> None:
    met = None if target is None else ratio <= target
    shown = f"≤ {target:g}×" if target is not None else "(informative)"
    ROWS.append((figure, case, f"{ratio:.2f}× ({detail})", shown, met))
    print(f"{figure:40} {case:22} {ratio:6.2f}×  {detail}", flush=True)


def alternate(ours: Callable[[], float], peer: Callable[[], float], repeats: int) -> tuple[float, float]:
    """The medians of `ours()` and `peer()` (each returns its own seconds), run in turn."""
    a, b = [], []
    for _ in range(repeats):
        a.append(ours())
        b.append(peer())
    return statistics.median(a), statistics.median(b)


def schema(server: str) -> str:
    """A DSN of `server` whose tables are a new schema of their own."""
    name = f"b_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    return f"{server} options='-c search_path={name}'"


class Raw:
    """The same rows as the store, by hand, on the store's tables (made by opening a store)."""

    def __init__(self, dsn: str) -> None:
        PostgresRunStore(dsn).close()  # the tables, as the store makes them
        self.conn = psycopg.connect(dsn, autocommit=True)

    def save(self, run: RunResult) -> int:
        body = run.to_json()
        with self.conn.transaction():
            (run_id,) = self.conn.execute(
                "INSERT INTO runs (status, body, updated_at) VALUES ('pending', %s, %s) RETURNING id",
                (body, time.time()),
            ).fetchone()  # type: ignore[misc]
            with self.conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO waiting (run_id, position, request_id, request, tool, kind)"
                    " VALUES (%s, %s, %s, %s, %s, %s)",
                    [(run_id, i, r.id, r.to_json(), "transfer", r.kind) for i, r in enumerate(run.requests)],
                )
        return int(run_id)

    async def resume(self, kit: Toolkit, run_id: int, answer: Answer) -> RunResult:
        c, now = self.conn, time.time()
        with c.transaction():
            status, body = c.execute(
                "SELECT status, body FROM runs WHERE id = %s FOR UPDATE SKIP LOCKED", (run_id,)
            ).fetchone()  # type: ignore[misc]
            c.execute(
                "UPDATE runs SET status = 'claimed', lease = 'x', lease_until = %s, updated_at = %s WHERE id = %s",
                (now + 30, now, run_id),
            )
        assert status == "pending"
        run = RunResult.from_json(body)
        with c.transaction():
            c.execute(
                "UPDATE runs SET doubt = %s WHERE id = %s", (json.dumps({"calls": [answer.id]}), run_id)
            )
        resumed = await kit.resume(run, answer)
        with c.transaction():
            c.execute("SELECT answered FROM runs WHERE id = %s FOR UPDATE", (run_id,))
            c.execute(
                "UPDATE runs SET status = %s, body = %s, answered = %s, lease = NULL, lease_until = NULL,"
                " doubt = NULL, updated_at = %s WHERE id = %s",
                (resumed.status, resumed.to_json(), json.dumps([answer.id]), time.time(), run_id),
            )
            c.execute("DELETE FROM waiting WHERE run_id = %s", (run_id,))
        return resumed

    def pending(self) -> list[tuple[int, str, int]]:
        return self.conn.execute(
            "SELECT w.run_id, w.request, w.position FROM waiting w JOIN runs r ON r.id = w.run_id"
            " WHERE r.status = 'pending' ORDER BY w.run_id, w.position"
        ).fetchall()


def _runs(n: int) -> list[RunResult]:
    kit = toolkit()

    async def make() -> list[RunResult]:
        return [await kit.run_calls([ToolCall("c1", "transfer", {"amount": i})]) for i in range(n)]

    return asyncio.run(make())


def bench_work(server: str, n: int, repeats: int) -> None:
    runs = _runs(n)
    answers = [Answer(r.requests[0].id, True) for r in runs]

    def ours_save() -> float:
        store = PostgresRunStore(schema(server))
        t = time.perf_counter()
        for r in runs:
            store.save(r)
        return time.perf_counter() - t

    def raw_save() -> float:
        raw = Raw(schema(server))
        t = time.perf_counter()
        for r in runs:
            raw.save(r)
        return time.perf_counter() - t

    a, b = alternate(ours_save, raw_save, repeats)
    row(
        "store save, vs raw psycopg",
        f"{n:,} runs",
        a / b,
        1.5,
        f"{a / n * 1e6:.0f} and {b / n * 1e6:.0f} µs a run",
    )

    def ours_resume() -> float:
        store = PostgresRunStore(schema(server))
        ids = store.save_many(runs)
        kit = toolkit()

        async def go() -> float:
            t = time.perf_counter()
            for run_id, answer in zip(ids, answers, strict=True):
                await store.resume(kit, run_id, answer)
            return time.perf_counter() - t

        return asyncio.run(go())

    def raw_resume() -> float:
        raw = Raw(schema(server))
        ids = [raw.save(r) for r in runs]
        kit = toolkit()

        async def go() -> float:
            t = time.perf_counter()
            for run_id, answer in zip(ids, answers, strict=True):
                await raw.resume(kit, run_id, answer)
            return time.perf_counter() - t

        return asyncio.run(go())

    a, b = alternate(ours_resume, raw_resume, repeats)
    row(
        "store claim+resume, vs raw psycopg",
        f"{n:,} runs",
        a / b,
        1.5,
        f"{a / n * 1e6:.0f} and {b / n * 1e6:.0f} µs a run",
    )

    dsn = schema(server)
    store, raw = PostgresRunStore(dsn), None
    store.save_many(runs)
    raw = Raw(dsn)
    number = max(1, 20_000 // n)

    def timed(listing: Callable[[], list[Any]]) -> Callable[[], float]:
        def once() -> float:
            t = time.perf_counter()
            for _ in range(number):
                listed = listing()
            assert len(listed) == n
            return (time.perf_counter() - t) / number

        return once

    a, b = alternate(timed(store.pending), timed(raw.pending), 5)
    row("store pending(), vs raw psycopg", f"{n:,} waiting", a / b, 1.5, f"{a / n * 1e9:.0f} ns a request")


def bench_latency(server: str, samples: int) -> None:
    """From an answer given (the resume called) to a waiting host knowing its outcome: `wait`
    (LISTEN/NOTIFY) against a host that reads the run every second."""
    store = PostgresRunStore(schema(server))
    runs = _runs(2 * samples)
    ids = store.save_many(runs)
    kit = toolkit()

    def notified(run_id: int, woken: list[float]) -> None:
        assert store.wait(run_id, 30) is not None
        woken.append(time.perf_counter())

    def polled(run_id: int, woken: list[float]) -> None:
        while True:
            found = store.get(run_id)
            if found is not None and found.status == "done":
                woken.append(time.perf_counter())
                return
            time.sleep(1.0)

    def one(waiter: Callable[[int, list[float]], None], run_id: int, run: RunResult) -> float:
        woken: list[float] = []
        thread = threading.Thread(target=waiter, args=(run_id, woken))
        thread.start()
        time.sleep(0.2 + (run_id % 10) / 10)  # the waiter is waiting; an answer comes at any moment
        given = time.perf_counter()
        asyncio.run(store.resume(kit, run_id, Answer(run.requests[0].id, True)))
        thread.join()
        return woken[0] - given

    listened, polling = [], []
    for i in range(samples):
        listened.append(one(notified, ids[2 * i], runs[2 * i]))
        polling.append(one(polled, ids[2 * i + 1], runs[2 * i + 1]))
    a, b = statistics.median(listened), statistics.median(polling)
    row(
        "answer-to-outcome, wait vs polling 1 s",
        f"p50, {samples} answers",
        a / b,
        0.1,
        f"{a * 1e3:.1f} and {b * 1e3:.0f} ms",
    )
    a, b = sorted(listened)[-1], sorted(polling)[-1]
    row(
        "answer-to-outcome, wait vs polling 1 s",
        f"max, {samples} answers",
        a / b,
        None,
        f"{a * 1e3:.1f} and {b * 1e3:.0f} ms",
    )


def write(elapsed: float, quick: bool) -> None:
    met = [r for r in ROWS if r[4] is not None]
    lines = [
        "# Benchmarks: the PostgreSQL store",
        "",
        "Written by `make bench` (`bench/postgres.py`); do not edit by hand.",
        "",
        f"- Machine: {platform.system()} {platform.machine()}, shared with other work while measured.",
        f"- Python {platform.python_version()}; run: {'quick' if quick else 'full'}, {elapsed:.0f} s,"
        f" {time.strftime('%Y-%m-%d')}.",
        "- PostgreSQL: a throwaway cluster on loopback (`tests.postgres.cluster`), fsync off.",
        "",
        "Every figure is a ratio of toolnexus to its peer measured alternately in this run (medians);",
        "the peer is raw psycopg doing the same statements (see the module's docstring), and, for",
        "the latency, a host reading the run every second.",
        "",
        f"## Results: {sum(bool(r[4]) for r in met)} of {len(met)} targets met",
        "",
        "| figure | case | measured | target | met |",
        "|---|---|---|---|---|",
    ]
    for figure, case, measured, target, ok in ROWS:
        lines.append(
            f"| {figure} | {case} | {measured} | {target} | {'' if ok is None else 'met' if ok else 'NOT met'} |"
        )
    (HERE / "POSTGRES.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs and samples")
    args = parser.parse_args()
    started = time.monotonic()
    with cluster() as server:
        bench_work(server, 200 if args.quick else 1000, 1 if args.quick else 3)
        bench_latency(server, 5 if args.quick else 20)
    write(time.monotonic() - started, args.quick)


if __name__ == "__main__":
    main()
