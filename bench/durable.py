"""`make bench`, the durable hosts: `SqliteRunStore` against raw `sqlite3`, and the Temporal
workflow against a bare workflow and activity, each doing the same work, in one run.

Every figure is a ratio of the two sides measured alternately (ours, the peer, ours, ...; the
median of each; Temporal's ours, bare, bare, ours, after an untimed warm-up of both). Writes
`bench/DURABLE.md`.

    python bench/durable.py [--quick] [--no-temporal]

The store's peer does, with a connection of its own (WAL, `synchronous=NORMAL`), the inserts,
updates and selects the store needs: a run's row and its waiting requests' rows in one
transaction per save; a claim (a compare-and-swap of the status) in one transaction, the
resume, and the outcome's write in another; the same join for what waits. Both sides write
the same JSON (`to_json`) and resume with the same `Toolkit`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT)]

import store_bench  # noqa: E402
from store_bench import Figure, RawPeer, runs_waiting, transfer  # noqa: E402

from toolnexus import Answer, Request, RunResult, ToolCall, ToolContext, Toolkit, ToolResult, pending, tool  # noqa: E402
from toolnexus.store import SqliteRunStore  # noqa: E402

QUICK = False
ROWS: list[store_bench.Row] = []
SECRET = b"bench-durable-host-secret-012345"


@tool
def balance(amount: int) -> str:
    """Reads a balance: a call that finishes without asking."""
    return f"balance {amount}"


def toolkit() -> Toolkit:
    return Toolkit([transfer, balance], secret=SECRET)


def row(figure: str, case: str, ratio: float, target: float | None, detail: str) -> None:
    store_bench.add_row(ROWS, (38, 28), figure, case, ratio, target, detail)


# -- the store ----------------------------------------------------------------------------------


class Raw(RawPeer):
    """The same rows as the store, by hand."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.executescript(
            "CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY AUTOINCREMENT, status TEXT NOT NULL,"
            " body TEXT NOT NULL, answered TEXT NOT NULL DEFAULT '[]', expires_at REAL, lease TEXT,"
            " lease_until REAL, reason TEXT, updated_at REAL NOT NULL);"
            "CREATE TABLE IF NOT EXISTS waiting (run_id INTEGER NOT NULL, position INTEGER NOT NULL,"
            " request_id TEXT NOT NULL, request TEXT NOT NULL, PRIMARY KEY (run_id, position)) WITHOUT ROWID;"
        )

    def save(self, run: RunResult) -> int:
        body = run.to_json()
        c = self.conn
        c.execute("BEGIN IMMEDIATE")
        run_id = c.execute(
            "INSERT INTO runs (status, body, updated_at) VALUES ('pending', ?, ?)", (body, time.time())
        ).lastrowid
        c.executemany(
            "INSERT INTO waiting VALUES (?, ?, ?, ?)",
            [(run_id, i, r.id, r.to_json()) for i, r in enumerate(run.requests)],
        )
        c.execute("COMMIT")
        assert run_id is not None
        return run_id

    async def resume(self, kit: Toolkit, run_id: int, answer: Answer) -> RunResult:
        c = self.conn
        c.execute("BEGIN IMMEDIATE")
        status, body = c.execute("SELECT status, body FROM runs WHERE id = ?", (run_id,)).fetchone()
        c.execute("UPDATE runs SET status = 'claimed', updated_at = ? WHERE id = ?", (time.time(), run_id))
        c.execute("COMMIT")
        assert status == "pending"
        resumed = await kit.resume(RunResult.from_json(body), answer)
        c.execute("BEGIN IMMEDIATE")
        c.execute(
            "UPDATE runs SET status = ?, body = ?, answered = ?, updated_at = ? WHERE id = ?",
            (resumed.status, resumed.to_json(), json.dumps([answer.id]), time.time(), run_id),
        )
        c.execute("DELETE FROM waiting WHERE run_id = ?", (run_id,))
        c.execute("COMMIT")
        return resumed

    def pending(self) -> list[tuple[int, str]]:
        return self.conn.execute(
            "SELECT w.run_id, w.request FROM waiting w JOIN runs r ON r.id = w.run_id"
            " WHERE r.status = 'pending' ORDER BY w.run_id, w.position"
        ).fetchall()


def bench_store(where: str, base: Path, sizes: list[int]) -> None:
    for n in sizes:
        _bench_store(where, base, n)
        shutil.rmtree(base, ignore_errors=True)
        base.mkdir(parents=True, exist_ok=True)


def _bench_store(where: str, base: Path, n: int) -> None:
    runs = runs_waiting(toolkit(), n)

    def fresh() -> Path:
        d = Path(tempfile.mkdtemp(dir=base))
        return d / "runs.sqlite3"

    sides = (lambda: SqliteRunStore(fresh()), lambda: Raw(fresh()))
    repeats = 3 if n <= 1000 else 1
    case = f"{n:,} runs, {where}"
    store_bench.bench_save(Figure(row, "store save, vs raw sqlite3", case, 3), runs, sides, repeats)
    store_bench.bench_resume(
        Figure(row, "store claim+resume, vs raw sqlite3", case, 4), runs, sides, toolkit, repeats
    )


def bench_pending(base: Path, sizes: list[int]) -> None:
    per = {n: _bench_pending(base, n) for n in sizes}
    low, high = min(sizes), max(sizes)
    ours = per[high][0] / per[low][0]
    raw = per[high][1] / per[low][1]
    row(
        "store pending(), per request",
        f"{low:,} → {high:,} waiting",
        ours / raw,
        1.2,
        f"its growth against the raw SELECT's: the cost per request grew {ours:.2f}× (raw: {raw:.2f}×)",
    )


def _bench_pending(base: Path, n: int) -> tuple[float, float]:
    path = base / f"pending-{n}.sqlite3"
    store = SqliteRunStore(path)
    for start in range(0, n, 5000):
        store.save_many(runs_waiting(toolkit(), min(5000, n - start)))
    raw = Raw(path)
    return store_bench.bench_pending(
        Figure(row, "store pending()", f"{n:,} waiting", 2),
        (store.pending, raw.pending),
        n,
        note="vs a raw SELECT of the same rows; ",
    )


def bench_processes(base: Path, n: int, procs: int) -> None:
    """`procs` processes resume the same `n` runs at once, each taking what it can claim."""
    path = base / "race.sqlite3"
    effects = base / "effects.sqlite3"
    SqliteRunStore(path).save_many(runs_waiting(toolkit(), n))
    with sqlite3.connect(effects) as conn:
        conn.execute("CREATE TABLE runs (key TEXT NOT NULL)")
    t = time.perf_counter()
    children = [
        subprocess.Popen([sys.executable, __file__, "--race", str(path), str(effects)], cwd=ROOT)
        for _ in range(procs)
    ]
    for child in children:
        assert child.wait(timeout=1800) == 0
    elapsed = time.perf_counter() - t
    with sqlite3.connect(effects) as conn:
        ran, keys = conn.execute("SELECT count(*), count(DISTINCT key) FROM runs").fetchone()
    store = SqliteRunStore(path)
    done, claimed = len(store.ids("done")), len(store.ids("claimed"))
    outputs = {store.get(i).run.results[0].result.output for i in store.ids("done")}  # type: ignore[union-attr]
    ok = ran == keys == done == n and claimed == 0 and outputs == {f"transferred {i}" for i in range(n)}
    ROWS.append(
        (
            f"{procs} processes resuming {n:,} runs",
            "one SQLite file",
            f"{ran:,} tool runs for {keys:,} keys, {done:,} done, {claimed} claimed, in {elapsed:.1f} s",
            "every tool once, none left claimed",
            ok,
        )
    )
    print(ROWS[-1], flush=True)


def _race(path: str, effects: str) -> None:
    store = SqliteRunStore(path)
    kit = toolkit()
    log = sqlite3.connect(effects, timeout=60, isolation_level=None, check_same_thread=False)

    @tool(name="transfer")
    def logged(amount: int, ctx: ToolContext) -> object:
        """`transfer`, noting each run."""
        if ctx.answer is None:
            return pending(Request("confirm", f"transfer {amount}?"))
        log.execute("INSERT INTO runs VALUES (?)", (ctx.idempotency_key,))
        return f"transferred {amount}"

    kit = Toolkit([logged], secret=SECRET)

    async def go() -> None:
        from toolnexus import ResumeError

        while waiting := store.pending():
            for one in waiting[os.getpid() % 7 :: 3] or waiting:
                try:
                    await store.resume(kit, one.run_id, Answer(one.request.id, True))
                except ResumeError:
                    continue

    asyncio.run(go())


# -- Temporal ------------------------------------------------------------------------------------

from temporalio import activity, workflow  # noqa: E402

#: The bare activity's toolkit, made once, as `worker_for` is given one (a `Toolkit` for every call
#: cost the bare side its key derivation on every activity).
BARE_TOOLKIT = toolkit()


@activity.defn(name="bare.tool")
async def bare_tool(payload: str) -> str:
    job = json.loads(payload)
    answer = None if job["answer"] is None else Answer.from_wire(job["answer"])
    result = await BARE_TOOLKIT.execute(job["name"], job["arguments"], ToolContext(answer=answer))
    return result.to_json()


@workflow.defn(name="bare.Turn", sandboxed=False)
class Bare:
    def __init__(self) -> None:
        self.answer: str | None = None
        self.asked = ""

    @workflow.run
    async def run(self, calls_json: str) -> str:
        from toolnexus import ToolResult, pending_of

        call = json.loads(calls_json)[0]
        job = {"name": call["name"], "arguments": call["arguments"], "answer": None}
        out = ToolResult.from_json(
            await workflow.execute_activity(
                "bare.tool", json.dumps(job), start_to_close_timeout=timedelta(seconds=60)
            )
        )
        asked = pending_of(out)
        if asked is not None:
            self.asked = asked.id
            await workflow.wait_condition(lambda: self.answer is not None)
            job["answer"] = json.loads(self.answer or "null")
            out = ToolResult.from_json(
                await workflow.execute_activity(
                    "bare.tool", json.dumps(job), start_to_close_timeout=timedelta(seconds=60)
                )
            )
        return out.to_json()

    @workflow.update(name="answer")
    async def answer_update(self, answer_json: str) -> None:
        self.answer = answer_json

    @workflow.query(name="asked")
    def asked_query(self) -> str:
        return self.asked


#: The order of the Temporal runs: each side goes first as often, so a warm-up the server still
#: does, or a change in the machine's load, weighs on both sides alike.
ABBA = ("ours", "bare", "bare", "ours")


def bench_temporal(turns: int, concurrency: int) -> None:
    from temporalio.client import Client
    from temporalio.worker import Worker

    from tests.conftest import connect_temporal, free_port, temporal_cli
    from toolnexus.temporal import ToolPolicy, TurnClient, worker_for

    shm = Path("/dev/shm") if Path("/dev/shm").is_dir() else Path(tempfile.gettempdir())
    where = Path(tempfile.mkdtemp(dir=shm))
    port = free_port()
    server = subprocess.Popen(
        [temporal_cli(), "server", "start-dev", "--headless", "--ip", "127.0.0.1", "--port", str(port),
         "--db-filename", str(where / "t.sqlite3"), "--log-level", "error"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip

    async def main() -> None:
        client: Client = await connect_temporal(f"127.0.0.1:{port}")
        queue = f"bench-{uuid.uuid4().hex[:6]}"
        kit = toolkit()
        ours_worker = worker_for(client, kit, task_queue=queue)
        bare_worker = Worker(client, task_queue=queue + "-bare", workflows=[Bare], activities=[bare_tool])
        policies = TurnClient(client, task_queue=queue, default=ToolPolicy())
        async with ours_worker, bare_worker:
            for kind in ("completes", "suspends"):  # a warm-up, untimed: the first turns of a queue
                for side in ("ours", "bare"):  # and of a worker are slower than the rest
                    await _turns(client, policies, queue, side, kind, concurrency, concurrency)
            for kind in ("completes", "suspends"):
                tallies: dict[str, list[float]] = {"ours": [], "bare": []}
                latencies: dict[str, list[float]] = {"ours": [], "bare": []}
                cpu = {"ours": [0.0, 0.0], "bare": [0.0, 0.0]}  # seconds: this process's, the server's
                for side in ABBA:
                    before = _cpu(server.pid)
                    elapsed, lat = await _turns(client, policies, queue, side, kind, turns, concurrency)
                    used = [b - a for a, b in zip(before, _cpu(server.pid), strict=True)]
                    cpu[side] = [a + b for a, b in zip(cpu[side], used, strict=True)]
                    tallies[side].append(turns / elapsed)
                    latencies[side].extend(lat)
                    print(f"  {side} {kind}: {turns / elapsed:.1f} turns/s", flush=True)
                ratio = statistics.median(tallies["ours"]) / statistics.median(tallies["bare"])
                per = {side: [ms * 1e3 / (turns * ABBA.count(side)) for ms in cpu[side]] for side in cpu}
                row(
                    "Temporal turns/s, vs bare",
                    f"a turn that {kind}",
                    ratio,
                    None,
                    f"{turns} turns at {concurrency} at once; CPU a turn: the workers and clients "
                    f"{per['ours'][0]:.1f} and {per['bare'][0]:.1f} ms, the server {per['ours'][1]:.1f} "
                    f"and {per['bare'][1]:.1f} ms",
                )
                ROWS[-1] = (*ROWS[-1][:3], "≥ 0.95×", ratio >= 0.95)
                if kind == "suspends":
                    for q in (50, 99):
                        ours_q = _percentile(latencies["ours"], q)
                        bare_q = _percentile(latencies["bare"], q)
                        target = 1.1 if q == 50 else None
                        row(
                            "Temporal answer-to-result",
                            f"p{q}",
                            ours_q / bare_q,
                            target,
                            f"{ours_q * 1e3:.0f} and {bare_q * 1e3:.0f} ms",
                        )
            await _bench_answered_elsewhere(
                client, policies, queue, f"127.0.0.1:{port}", 200 if QUICK else 1000
            )

    try:
        asyncio.run(main())
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(where, ignore_errors=True)


def _cpu(server: int) -> tuple[float, float]:
    """The CPU seconds used so far by this process (both workers and the clients) and by the
    server (the process `server`, from /proc; 0 where there is none)."""
    mine = os.times()
    try:
        fields = Path(f"/proc/{server}/stat").read_text().rsplit(")", 1)[1].split()
        theirs = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        theirs = 0.0
    return mine.user + mine.system, theirs


def _percentile(values: list[float], q: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


async def _turns(
    client: Any, turns_client: Any, queue: str, side: str, kind: str, n: int, concurrency: int
) -> tuple[float, list[float]]:
    """Run `n` turns of one call at `concurrency` at once; for `suspends`, answer each as soon as
    it waits and time the answer to the result."""
    name = "transfer" if kind == "suspends" else "balance"
    gate = asyncio.Semaphore(concurrency)
    latencies: list[float] = []

    async def one(i: int) -> None:
        async with gate:
            turn_id = f"{side}-{kind}-{uuid.uuid4().hex[:8]}"
            await _start(client, turns_client, queue, side, turn_id, name, i)
            if kind == "suspends":
                request_id = await _waiting(client, turns_client, side, turn_id)
                t = time.perf_counter()
                await _answer(client, turns_client, side, turn_id, Answer(request_id, True))
                await client.get_workflow_handle(turn_id).result()
                latencies.append(time.perf_counter() - t)
            else:
                await client.get_workflow_handle(turn_id).result()

    t = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(n)))
    return time.perf_counter() - t, latencies


async def _start(
    client: Any, turns_client: Any, queue: str, side: str, turn_id: str, name: str, i: int
) -> None:
    """Start a turn of one call to `name` (each side by its own client)."""
    args = {"amount": i}
    if side == "ours":
        await turns_client.start(turn_id, [ToolCall("c1", name, args)])
    else:
        await client.start_workflow(
            "bare.Turn", json.dumps([{"id": "c1", "name": name, "arguments": args}]), id=turn_id,
            task_queue=queue + "-bare",
        )  # fmt: skip


async def _answer(client: Any, turns_client: Any, side: str, turn_id: str, answer: Answer) -> None:
    """Answer the turn and return once it has taken the answer (each side by its own update)."""
    if side == "ours":
        await turns_client.answer(turn_id, answer)
    else:
        await client.get_workflow_handle(turn_id).execute_update("answer", answer.to_json())


async def _waiting(client: Any, turns_client: Any, side: str, turn_id: str) -> str:
    """The id of the request the turn waits on, once it waits (each side by its own query)."""
    from temporalio.service import RPCError

    for _ in range(1000):
        try:
            if side == "ours":
                requests = await turns_client.pending(turn_id)
                if requests:
                    return str(requests[0].id)
            else:
                asked = await client.get_workflow_handle(turn_id).query("asked", result_type=str)
                if asked:
                    return str(asked)
        except RPCError as exc:  # a query waits behind the turn's queued workflow task, and under
            if "Timeout" not in exc.message:  # a thousand new turns that wait may time out
                raise
        await asyncio.sleep(0.02)
    raise AssertionError(f"{turn_id} never waited")


async def _bench_answered_elsewhere(client: Any, turns_client: Any, queue: str, address: str, n: int) -> None:
    """`n` turns started, each waiting on a person, then answered from another process (with a
    client of its own, in random order): the time from the first start to every result."""
    times: dict[str, list[float]] = {"ours": [], "bare": []}
    for side in ABBA[:2] if QUICK else ABBA:
        times[side].append(await _answered_elsewhere(client, turns_client, queue, address, side, n))
        print(f"  {side} answered from another process: {times[side][-1]:.1f} s", flush=True)
    a, b = statistics.median(times["ours"]), statistics.median(times["bare"])
    row(
        "Temporal answered from another process",
        f"{n:,} suspended turns",
        a / b,
        1.2,
        f"{a:.1f} and {b:.1f} s from the first start to every result",
    )


async def _answered_elsewhere(
    client: Any, turns_client: Any, queue: str, address: str, side: str, n: int
) -> float:
    prefix = f"{side}-elsewhere-{uuid.uuid4().hex[:8]}"
    gate = asyncio.Semaphore(64)

    async def start(i: int) -> None:
        async with gate:
            await _start(client, turns_client, queue, side, f"{prefix}-{i}", "transfer", i)

    async def output(i: int) -> str:
        async with gate:
            text = await client.get_workflow_handle(f"{prefix}-{i}", result_type=str).result()
        if side == "ours":
            return str(RunResult.from_json(text).results[0].result.output)
        return ToolResult.from_json(text).output

    t = time.perf_counter()
    await asyncio.gather(*(start(i) for i in range(n)))
    answering = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--answer-many", address, side, queue, prefix, str(n), cwd=ROOT
    )
    assert await answering.wait() == 0
    outputs = await asyncio.gather(*(output(i) for i in range(n)))
    elapsed = time.perf_counter() - t
    assert outputs == [f"transferred {i}" for i in range(n)]
    return elapsed


def _answer_many(address: str, side: str, queue: str, prefix: str, n: int) -> None:
    """The other process: a client of its own answers the `n` turns `prefix-0...` in random order."""
    from temporalio.client import Client

    from toolnexus.temporal import TurnClient

    async def go() -> None:
        client = await Client.connect(address)
        turns_client = TurnClient(client, task_queue=queue)
        order = list(range(n))
        random.Random(7).shuffle(order)
        gate = asyncio.Semaphore(64)

        async def one(i: int) -> None:
            async with gate:
                turn_id = f"{prefix}-{i}"
                request_id = await _waiting(client, turns_client, side, turn_id)
                await _answer(client, turns_client, side, turn_id, Answer(request_id, True))

        await asyncio.gather(*(one(i) for i in order))

    asyncio.run(go())


# -- the report ---------------------------------------------------------------------------------


def write(elapsed: float) -> None:
    lines = [
        "# Benchmarks: the durable hosts",
        "",
        "Written by `make bench` (`bench/durable.py`); do not edit by hand.",
        "",
        f"- Machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores; shared with other work while measured.",
        f"- Python {platform.python_version()}; run: {'quick' if QUICK else 'full'}, {elapsed:.0f} s, {time.strftime('%Y-%m-%d')}.",
        "",
        "Every figure is a ratio of toolnexus to its peer measured alternately in this run (medians).",
        "The store's peer is raw `sqlite3` doing the same inserts, updates and selects (see the",
        "module's docstring); Temporal's is a bare workflow and activity doing the same work on the",
        "same dev server (tmpfs).",
        "",
        *store_bench.results(ROWS, "**not met**"),
    ]
    (HERE / "DURABLE.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    global QUICK
    if sys.argv[1:2] == ["--race"]:
        _race(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1:2] == ["--answer-many"]:
        address, side, queue, prefix, n = sys.argv[2:7]
        _answer_many(address, side, queue, prefix, int(n))
        # Without the interpreter's teardown, which temporalio's client threads may abort
        # (temporalio/sdk-python issue 300; examples/temporal_host.py says more).
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-temporal", action="store_true")
    args = parser.parse_args()
    QUICK = args.quick
    started = time.perf_counter()
    shm = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    sizes = [1000] if QUICK else [1000, 10_000]
    for where, root in (("tmpfs", shm), ("disk", Path(tempfile.gettempdir()))):
        if root is None:
            continue
        base = Path(tempfile.mkdtemp(dir=root))
        try:
            bench_store(where, base, sizes if where == "tmpfs" else sizes[:1])
        finally:
            shutil.rmtree(base, ignore_errors=True)
    base = Path(tempfile.mkdtemp(dir=shm))
    try:
        bench_pending(base, [1000, 10_000] if QUICK else [1000, 100_000])
        bench_processes(base, 1000 if QUICK else 10_000, 8)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    if not args.no_temporal:
        bench_temporal(50 if QUICK else 200, 20)
    write(time.perf_counter() - started)


if __name__ == "__main__":
    main()
