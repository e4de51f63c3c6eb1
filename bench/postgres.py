"""`make bench`, the PostgreSQL store: `PostgresRunStore` against raw psycopg doing the same work,
and `store.wait` (LISTEN/NOTIFY) against a host polling the run every second, in one run, on a
throwaway cluster (`tests.postgres.cluster`: loopback, fsync off), and what a page of `pending()`
costs as the waiting runs grow from 10,000 to 1,000,000. Writes `bench/POSTGRES.md`.

    python bench/postgres.py [--quick]

The peer does, on a psycopg connection of its own (autocommit, each write one transaction), what
the store needs: a run's row and its waiting requests' rows in one transaction per save; a claim
(the row taken `FOR UPDATE SKIP LOCKED`, set `claimed` under a lease) in one transaction, the
calls about to run marked (`runs.doubt`, one statement and so a transaction of its own, as the
store does for a tool that is not idempotent), the same `Toolkit.resume`, and the outcome's write
in another; the same join for what waits, with the store's rule for a claim whose holder is gone
(a lease run out, no call in doubt: listed as pending). Both sides write the same JSON
(`to_json`) into the same tables (each in a schema of its own). The store does more than the
peer in a resume (it reads the waiting ids to refuse a replay, and notifies `store.wait`) and
runs its database work in a worker thread (three hand-offs a resume; the peer's statements run
on the event loop); it sends its outcome's writes in one pipeline (psycopg's), the peer does not.
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
sys.path[:0] = [str(HERE), str(ROOT)]

import psycopg  # noqa: E402
import store_bench  # noqa: E402
from store_bench import Figure, RawPeer, runs_waiting, transfer  # noqa: E402

from tests.postgres import cluster  # noqa: E402
from toolnexus import Answer, RunResult, Toolkit  # noqa: E402
from toolnexus.store import PostgresRunStore  # noqa: E402

ROWS: list[store_bench.Row] = []
SECRET = b"bench-postgres-store-secret-0123"


def toolkit() -> Toolkit:
    return Toolkit([transfer], secret=SECRET)


def row(figure: str, case: str, ratio: float, target: float | None, detail: str) -> None:
    store_bench.add_row(ROWS, (40, 22), figure, case, ratio, target, detail)


def schema(server: str) -> str:
    """A DSN of `server` whose tables are a new schema of their own."""
    name = f"b_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    return f"{server} options='-c search_path={name}'"


class Raw(RawPeer):
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
        c.execute(  # one statement: a transaction of its own, as the store's mark
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
            " WHERE (r.status = 'pending' OR (r.status = 'claimed' AND r.lease_until < %s AND r.doubt IS NULL))"
            " ORDER BY w.run_id, w.position",
            (time.time(),),
        ).fetchall()


def bench_work(server: str, n: int, repeats: int) -> None:
    runs = runs_waiting(toolkit(), n)
    sides = (lambda: PostgresRunStore(schema(server)), lambda: Raw(schema(server)))
    case = f"{n:,} runs"
    store_bench.bench_save(Figure(row, "store save, vs raw psycopg", case, 1.5), runs, sides, repeats)
    store_bench.bench_resume(
        Figure(row, "store claim+resume, vs raw psycopg", case, 1.5), runs, sides, toolkit, repeats
    )
    dsn = schema(server)
    store = PostgresRunStore(dsn)
    store.save_many(runs)
    raw = Raw(dsn)
    figure = Figure(row, "store pending(), vs raw psycopg", f"{n:,} waiting", 1.5)
    store_bench.bench_pending(figure, (store.pending, raw.pending), n)


def bench_latency(server: str, samples: int) -> None:
    """From an answer given (the resume called) to a waiting host knowing its outcome: `wait`
    (LISTEN/NOTIFY) against a host that reads the run every second."""
    store = PostgresRunStore(schema(server))
    runs = runs_waiting(toolkit(), 2 * samples)
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


def bench_scale(server: str, sizes: tuple[int, int], samples: int) -> None:
    """A page of 50 of what waits for one principal (the first, and one deep in), and a page of
    everything deep in, on a database of `sizes[0]` runs waiting against one of `sizes[1]`,
    measured alternately: the same page should cost the same (keyset pagination on the indexes),
    and the first page for one principal at most 10 ms.

    In each database a hundred runs are saved through the store, one principal each (`p0` to
    `p99`); the rest are copies of their rows made by PostgreSQL itself (`INSERT ... SELECT`), each
    with the principal of its seed, so every principal has `size / 100` runs and every page is full."""

    def filled(size: int) -> PostgresRunStore:
        dsn = schema(server)
        store = PostgresRunStore(dsn)
        for i, run in enumerate(runs_waiting(toolkit(), 100)):
            store.save(run, principal=f"p{i}")
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(
                "INSERT INTO runs (status, body, answered, expires_at, updated_at, principal, session)"
                " SELECT r.status, r.body, r.answered, r.expires_at, r.updated_at, r.principal, r.session"
                " FROM runs r CROSS JOIN generate_series(1, %s) g WHERE r.id <= 100 ORDER BY g, r.id",
                (size // 100 - 1,),
            )
            conn.execute(
                "INSERT INTO waiting (run_id, position, request_id, request, tool, kind, principal, session)"
                " SELECT r.id, w.position, w.request_id, w.request, w.tool, w.kind, r.principal, r.session"
                " FROM runs r JOIN waiting w ON w.run_id = 1 + (r.id - 1) % 100 WHERE r.id > 100"
            )
            conn.execute("ANALYZE runs")
            conn.execute("ANALYZE waiting")
        return store

    def pages(store: PostgresRunStore, size: int) -> dict[str, Callable[[], list[Any]]]:
        mid_of_p7 = store.pending(principal="p7", limit=size // 200)[-1]
        return {
            "first page of 50, one principal": lambda: store.pending(principal="p7", limit=50),
            "a page of 50 deep in, one principal": lambda: store.pending(
                principal="p7", limit=50, after=mid_of_p7
            ),
            "a page of 50 deep in, everyone's": lambda: store.pending(limit=50, after=(size // 2, 0)),
        }

    def timed(call: Callable[[], list[Any]]) -> float:
        started = time.perf_counter()
        assert len(call()) == 50
        return time.perf_counter() - started

    small, large = sizes
    stores = (filled(small), filled(large))
    both = (pages(stores[0], small), pages(stores[1], large))
    for case in both[0]:
        timed(both[0][case]), timed(both[1][case])  # the pages it reads are cached, as an inbox's would be
        a, b = [], []
        for _ in range(samples):
            a.append(timed(both[0][case]))
            b.append(timed(both[1][case]))
        before, after = statistics.median(a), statistics.median(b)
        row(
            "pending() page cost as runs grow",
            case,
            after / before,
            1.3,
            f"{before * 1e3:.2f} ms at {small:,}, {after * 1e3:.2f} ms at {large:,}",
        )
        if case.startswith("first"):
            first = after
    row(
        "pending() first page, against 10 ms",
        f"{large:,} waiting",
        first / 0.010,
        1.0,
        f"{first * 1e3:.2f} ms",
    )
    for store in stores:
        store.close()


def write(elapsed: float, quick: bool) -> None:
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
        *store_bench.results(ROWS, "NOT met"),
    ]
    (HERE / "POSTGRES.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs and samples")
    args = parser.parse_args()
    started = time.monotonic()
    with cluster() as server:
        bench_work(server, 200 if args.quick else 1000, 1 if args.quick else 3)
        bench_latency(server, 5 if args.quick else 20)
        bench_scale(server, (10_000, 100_000) if args.quick else (10_000, 1_000_000), 50)
    write(time.monotonic() - started, args.quick)


if __name__ == "__main__":
    main()
