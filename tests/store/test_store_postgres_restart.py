"""PostgreSQL restarted in the middle of 1,000 resumes by two worker threads (issue #33): the
store reconnects, no answer is lost, no tool call runs twice, no claim stays past its lease."""

from __future__ import annotations

import asyncio
import subprocess
import threading
import time

import psycopg
import pytest

from tests.conftest import SECRET
from tests.needs import missing
from tests.postgres import _CLUSTER, _binary, cluster
from toolnexus import Answer, Request, ResumeError, ToolCall, ToolContext, Toolkit, pending, tool

pytestmark = pytest.mark.slow  # still run by `make test` (tests/run_all.sh), not `make test-fast`

RUNS, LEASE = 1000, 1.0


def test_a_restart_of_postgresql_mid_run_loses_no_answer_and_runs_no_call_twice() -> None:
    if _binary("initdb") is None or _binary("pg_ctl") is None:
        missing("PostgreSQL's initdb and pg_ctl are not installed (apt-get install postgresql)")
    from toolnexus.store import PostgresRunStore

    ran: dict[str, int] = {}
    lock = threading.Lock()

    @tool
    def transfer(amount: int, ctx: ToolContext) -> object:
        """Not idempotent: each key it runs under is counted."""
        if ctx.answer is None:
            return pending(Request("confirm", f"transfer {amount}?"))
        with lock:
            ran[ctx.idempotency_key] = ran.get(ctx.idempotency_key, 0) + 1
        return f"transferred {amount}"

    kit = Toolkit([transfer], secret=SECRET)
    session = dict(_CLUSTER)  # the session's cluster, should there be one: restored after
    with cluster() as dsn:
        here = dict(_CLUSTER)
        store = PostgresRunStore(dsn, lease=LEASE)
        turns = [asyncio.run(kit.run_calls([ToolCall("c1", "transfer", {"amount": i})])) for i in range(RUNS)]
        ids = store.save_many(turns)
        answers = {w.run_id: w.request.id for w in store.pending(limit=RUNS)}
        assert len(answers) == RUNS
        done: set[int] = set()
        errors = {"dropped": 0}
        stop = threading.Event()

        def worker(share: list[int]) -> None:
            async def go() -> None:
                for run_id in share:
                    while True:
                        try:
                            got = store.get(run_id)
                            if got is not None and got.status == "done":
                                break  # the outcome was written before the drop reached us
                            if any(d.run_id == run_id for d in store.in_doubt()):
                                break  # settled below from the effect's record
                            result = await store.resume(kit, run_id, Answer(answers[run_id], True))
                            assert result.status == "done"
                            with lock:
                                done.add(run_id)
                            break
                        except (psycopg.OperationalError, ResumeError, OSError) as exc:
                            with lock:
                                errors["dropped"] += 1
                            await asyncio.sleep(LEASE / 2 if isinstance(exc, ResumeError) else 0.05)

            asyncio.run(go())

        started = time.monotonic()
        threads = [threading.Thread(target=worker, args=(ids[k::2],)) for k in range(2)]
        for t in threads:
            t.start()
        while len(done) < RUNS * 3 // 10:
            time.sleep(0.01)
        subprocess.run(
            [*here["run_as"], here["pg_ctl"], "-D", here["data"], "-m", "fast", "-w", "restart"],
            check=True,
            stdout=subprocess.DEVNULL,
            env=here["env"],
        )
        restarted_at = len(done)
        for t in threads:
            t.join(timeout=120)
        stop.set()
        doubts = store.in_doubt()
        settled = retried = 0
        for d in doubts:
            if ran.get(d.idempotency_key):
                asyncio.run(store.settle(kit, d.run_id, f"transferred {d.arguments['amount']}"))
                settled += 1
            else:
                asyncio.run(store.retry(kit, d.run_id))
                retried += 1
        asyncio.run(store.expire(kit))
        now = time.time()
        elapsed = time.monotonic() - started
        stale = [i for i in store.ids("claimed") if (store.get(i) is not None)]
        print(
            f"\n{RUNS} runs, 1 restart at {restarted_at} done, {errors['dropped']} errors met,"
            f" {len(doubts)} in doubt ({settled} settled, {retried} retried),"
            f" duplicates {sum(n - 1 for n in ran.values())}, {elapsed:.1f} s"
        )
        assert stale == [], f"claims left: {stale} (now {now})"
        assert {store.get(i).status for i in ids} == {"done"}  # type: ignore[union-attr]
        outputs = sorted(int(store.get(i).run.results[0].result.output.split()[1]) for i in ids)  # type: ignore[union-attr]
        assert outputs == list(range(RUNS)), "every answer given is in its run's outcome"
        assert all(n == 1 for n in ran.values()) and len(ran) == RUNS, "each call ran exactly once"
    _CLUSTER.update(session)
