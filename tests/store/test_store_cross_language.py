"""The durable store across languages (issue 33, item 3): a run saved by Python's store is listed,
claimed and resumed by TypeScript's (`toolnexus-contract/store`), and the other way round, on
SQLite and on PostgreSQL, on the same tables and under one seal key; a claim held in one language
is exclusive against the other; a call left in doubt by one is listed and settled by the other; a
run saved with a principal and session by one is listed by them in the other; and on PostgreSQL an
outcome TypeScript writes wakes Python's `store.wait` (`NOTIFY toolnexus_runs`), and one Python
writes wakes TypeScript's `store.wait` on both databases; and an output one language's toolkit cut
and kept in `store.results` is paged through by the other's `read_result`, for its scope alone.

TypeScript's side is `tests/typescript/store-host.ts` (one store command per process, JSON out),
built by `bash tests/typescript/run.sh build`. Its toolkit is `tests/store/test_store.py`'s: `approve`
asks before doing `what`, and each run of it after an answer appends a line to the runs log, so a
test sees how often the tool really ran, in either language.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, SECRET
from tests.needs import missing
from tests.postgres import tamper
from tests.store.test_store import RUNS_LOG, toolkit
from toolnexus import Answer, Limit, ResumeError, RunResult, ToolCall, Toolkit, define_tool, read_result
from toolnexus.store import PostgresRunStore, RunStore, SqliteRunStore, StoredRun

TS_DIR = REPO / "tests" / "typescript"
HOST = TS_DIR / ".cache" / "store-host.js"


@pytest.fixture(scope="module")
def node_host() -> Path:
    if shutil.which("node") is None:
        missing("Node.js is not installed (the TypeScript store runs on it)")
    if not HOST.exists():
        subprocess.run(["bash", "run.sh", "build"], cwd=TS_DIR, check=True, stdout=subprocess.DEVNULL)
    return HOST


@pytest.fixture
def runs_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    log = tmp_path / "runs.log"
    log.touch()
    monkeypatch.setenv(RUNS_LOG, str(log))
    return log


def where(store: RunStore) -> str:
    """What the TypeScript host opens: the SQLite file, or the test's PostgreSQL DSN."""
    if isinstance(store, SqliteRunStore):
        return store.path
    from toolnexus.store._postgres import PostgresBackend

    assert isinstance(store._db, PostgresBackend)
    return store._db.dsn


def ts(node_host: Path, command: str, *args: object) -> Any:
    proc = subprocess.run(
        ["node", str(node_host), command, *map(str, args)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, f"store-host {command}: exit {proc.returncode}\n{proc.stderr}"
    return json.loads(proc.stdout)


def ran(log: Path) -> list[str]:
    """The idempotency keys of the tool runs logged, in order."""
    return [line.split()[1] for line in log.read_text().splitlines()]


async def test_saved_by_python_listed_claimed_and_resumed_by_typescript(
    store: RunStore, node_host: Path, runs_log: Path
):
    kit = toolkit()
    run = await kit.run_calls(
        [ToolCall("a", "approve", {"what": "A"}), ToolCall("b", "approve", {"what": "B"})]
    )
    run_id = store.save(run, context={"messages": [{"role": "user", "content": "from python"}]})
    listed = ts(node_host, "pending", where(store))
    assert [(p["runId"], p["position"], p["prompt"]) for p in listed] == [
        (run_id, 0, "A?"),
        (run_id, 1, "B?"),
    ]
    assert [p["id"] for p in listed] == [r.id for r in run.requests]

    first = ts(node_host, "resume", where(store), run_id, listed[0]["id"])
    assert first == {"status": "pending", "outputs": ["did A"]}
    assert [p.request.prompt for p in store.pending()] == ["B?"]  # Python sees what TypeScript stored
    done = await store.resume(kit, run_id, Answer(listed[1]["id"], ok=True))  # and finishes it
    assert done.status == "done" and [r.result.output for r in done.results] == ["did A", "did B"]
    stored = ts(node_host, "get", where(store), run_id)
    assert stored == {
        "status": "done",
        "outputs": ["did A", "did B"],
        "context": {"messages": [{"role": "user", "content": "from python"}]},
        "principal": None,
        "session": None,
    }
    assert len(ran(runs_log)) == 2 and len(set(ran(runs_log))) == 2


async def test_saved_by_typescript_listed_claimed_and_resumed_by_python(
    store: RunStore, node_host: Path, runs_log: Path
):
    run_id = ts(node_host, "save", where(store), "A", "B")["runId"]
    waiting = store.pending()
    assert [(p.run_id, p.request.prompt) for p in waiting] == [(run_id, "A?"), (run_id, "B?")]
    kit = toolkit()  # the same key: TypeScript's seal holds here
    run = await store.resume(kit, run_id, Answer(waiting[0].request.id, ok=True))
    assert run.status == "pending" and [r.result.output for r in run.results] == ["did A"]
    assert store.get(run_id).context == {"messages": [{"role": "user", "content": "from typescript"}]}

    last = ts(node_host, "resume", where(store), run_id, waiting[1].request.id)  # TypeScript finishes
    assert last == {"status": "done", "outputs": ["did A", "did B"]}
    stored = store.get(run_id)
    assert stored.status == "done" and [r.result.output for r in stored.run.results] == ["did A", "did B"]
    # each request answered once, whichever language took it
    with pytest.raises(ResumeError) as refused:
        store.claim(run_id, Answer(waiting[0].request.id, ok=True))
    assert refused.value.reason == "replayed"
    assert len(ran(runs_log)) == 2


async def test_a_claim_held_by_python_is_exclusive_against_typescript(store: RunStore, node_host: Path):
    kit = toolkit()
    run = await kit.run_calls([ToolCall("a", "approve", {"what": "A"})])
    run_id = store.save(run)
    claim = store.claim(run_id, Answer(run.pending.id, ok=True))
    refused = ts(node_host, "claim", where(store), run_id, run.pending.id)
    assert refused["refused"] == "replayed" and "being answered by another process" in refused["message"]
    assert ts(node_host, "pending", where(store)) == []  # a claimed run is not listed
    store.release(run_id)
    taken = ts(node_host, "claim", where(store), run_id, run.pending.id)
    assert len(taken["lease"]) == 16 and claim.lease != taken["lease"]


async def test_a_claim_held_by_typescript_is_exclusive_against_python(store: RunStore, node_host: Path):
    run_id = ts(node_host, "save", where(store), "A")["runId"]
    (waiting,) = store.pending()
    held = ts(node_host, "claim", where(store), run_id, waiting.request.id)  # and the process ends
    assert held["context"] == {"messages": [{"role": "user", "content": "from typescript"}]}
    with pytest.raises(ResumeError) as refused:
        await store.resume(toolkit(), run_id, Answer(waiting.request.id, ok=True))
    assert refused.value.reason == "replayed"
    assert store.get(run_id).status == "claimed" and store.pending() == []
    with tamper(store) as raw:  # its lease runs out: the claim is given back, and Python takes it
        raw.execute("UPDATE runs SET lease_until = 0 WHERE id = ?", (run_id,))
    done = await store.resume(toolkit(), run_id, Answer(waiting.request.id, ok=True))
    assert [r.result.output for r in done.results] == ["did A"]


async def test_a_call_left_in_doubt_by_python_is_settled_by_typescript(
    store: RunStore, node_host: Path, runs_log: Path
):
    kit = toolkit()
    run = await kit.run_calls([ToolCall("a", "approve", {"what": "pay"})])
    run_id = store.save(run)
    claim = store.claim(run_id, Answer(run.pending.id, ok=True))
    calls = [{"call": run.calls[0].to_wire(), "key": "idk-python"}]
    store._started(run_id, claim.lease, [Answer(run.pending.id, ok=True)], calls)
    with tamper(store) as raw:  # the process died while the tool ran: its lease ran out
        raw.execute("UPDATE runs SET lease_until = 0 WHERE id = ?", (run_id,))
    (doubt,) = store.in_doubt()
    listed = ts(node_host, "in-doubt", where(store))
    assert listed == [
        {
            "runId": run_id,
            "tool": "approve",
            "arguments": {"what": "pay"},
            "key": "idk-python",
            "lease": claim.lease,
        }
    ]
    assert doubt.lease == claim.lease
    settled = ts(node_host, "settle", where(store), run_id, "paid by hand")
    assert settled["status"] == "done" and settled["outputs"] == ["paid by hand"]
    assert ran(runs_log) == []  # the tool did not run again
    entry = settled["log"][-1]
    assert (entry["kind"], entry["run"], entry["result"], entry["by"]) == (
        "settle",
        run_id,
        "paid by hand",
        "ts-operator",
    )
    assert store.in_doubt() == [] and store.get(run_id).status == "done"
    assert store.log.verify() is None  # TypeScript's entry extends Python's chain


def test_one_decision_log_written_by_both_languages_verifies_in_both(store: RunStore, node_host: Path):
    """Python's entries, then TypeScript's (its head MAC'd under the same key), then Python's again:
    each language's `verify` holds the whole chain, with the key and without; a changed entry is
    found at its `seq` by both. The entries hold numbers the two languages write differently
    (Python `1.0` and `1e-07`, TypeScript `5e-7`): each entry is hashed as its writer wrote it."""
    store.log.use_key("k1", SECRET)
    decision = {
        "kind": "approve",
        "tool": "approve",
        "call": "c0",
        "request": None,
        "arguments": {"what": "x", "amount": 1.0, "rate": 1e-07, "big": 2**70},
        "run": 1,
    }
    at = datetime(2026, 1, 1, tzinfo=UTC)
    store.log.record_entries([decision], principal="ann", at=at)
    head = ts(node_host, "log", where(store), "bob", "c1", "c2")["head"]
    assert head["seq"] == 3 and head["key"] == "k1"
    assert store.log.verify() is None and store.log.verify(SECRET) is None
    store.log.record_entries([{**decision, "call": "c3"}], principal="ann", at=at)
    assert store.log.verify(SECRET) is None and store.log.verify({"k1": SECRET}) is None
    assert ts(node_host, "verify", where(store)) == {"verify": None, "verifyWithKey": None, "byId": None}
    assert store.log.verify(SECRET, head=head) == 4  # past the head TypeScript wrote
    with tamper(store) as raw:
        (text,) = raw.execute("SELECT entry FROM decisions WHERE seq = 2").fetchone()
        raw.execute("UPDATE decisions SET entry = ? WHERE seq = 2", (text.replace('"bob"', '"mallory"'),))
    assert store.log.verify() == 2
    assert ts(node_host, "verify", where(store)) == {"verify": 2, "verifyWithKey": 2, "byId": 2}


#: Needs an approval before paying: its answers make policies (store-host.ts's `pay`).
pay = define_tool(
    "pay", "Pays `amount`.", None, lambda args, ctx: f"paid {args['amount']}", needs_approval=True
)


async def test_a_policy_made_in_one_language_decides_the_others_calls(store: RunStore, node_host: Path):
    """Each language's toolkit keeps its policies and logs its decisions in the store
    (`store.policies`, `store.log`): an answer for the tool in Python decides TypeScript's next
    call of it unasked, and after it is revoked, one in TypeScript decides Python's. The policy
    row TypeScript writes is the one Python writes, and the log both wrote verifies in both."""
    kit = Toolkit([pay], secret=SECRET, policy_store=store.policies, decision_log=store.log)
    run = await kit.run_calls([ToolCall("p1", "pay", {"amount": 5})], principal="ann")
    run_id = store.save(run)
    done = await store.resume(kit, run_id, Answer(run.requests[0].id, True, scope="tool"), principal="ann")
    assert [r.result.output for r in done.results] == ["paid 5"]

    assert ts(node_host, "policies", where(store)) == [
        {"tool": "pay", "approve": True, "scope": "tool", "key": "", "madeBy": "ann"}
    ]
    assert ts(node_host, "pay", where(store), "p2", 6) == {"status": "done", "outputs": ["paid 6"]}

    for policy in store.policies.policies("pay"):
        assert store.policies.revoke(policy.id)
    asked = ts(node_host, "pay", where(store), "p3", 7)
    assert asked["status"] == "pending", "revoked in Python: TypeScript asks again"
    answered = ts(node_host, "answer", where(store), asked["runId"], asked["request"], "tool")
    assert answered == {"status": "done", "outputs": ["paid 7"]}
    [policy] = store.policies.policies("pay")
    assert (policy.tool, policy.approve, policy.scope, policy.made_by) == ("pay", True, "tool", "bob")
    with tamper(store) as raw:
        (body, expires_at) = raw.execute("SELECT body, expires_at FROM policies").fetchone()
    assert body == json.dumps(policy.to_wire()), "the body Python writes"
    assert expires_at == policy.expires_at.isoformat()

    later = await kit.run_calls([ToolCall("p4", "pay", {"amount": 8})], principal="ann")
    assert later.status == "done" and later.results[0].result.output == "paid 8", "decided by bob's policy"

    entries = list(store.log.entries())
    assert [(e["kind"], e["call"], e["by"], e["policy"] is not None) for e in entries] == [
        ("approve", "p1", "ann", False),
        ("approve", "p2", "bob", True),
        ("approve", "p3", "bob", False),
        ("approve", "p4", "ann", True),
    ]
    assert store.log.verify() is None and store.log.verify(SECRET) is None
    assert ts(node_host, "verify", where(store)) == {"verify": None, "verifyWithKey": None, "byId": None}


async def test_a_call_left_in_doubt_by_typescript_is_retried_by_python_once(
    store: RunStore, node_host: Path, runs_log: Path, monkeypatch: pytest.MonkeyPatch
):
    run_id = ts(node_host, "save", where(store), "pay")["runId"]
    (waiting,) = store.pending()
    monkeypatch.setenv("TOOLNEXUS_STORE_TEST_DIE", "1")  # TypeScript dies while the tool runs
    proc = subprocess.run(
        ["node", str(node_host), "resume", where(store), str(run_id), waiting.request.id],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 137, proc.stderr
    monkeypatch.delenv("TOOLNEXUS_STORE_TEST_DIE")
    assert store.in_doubt() == []  # its lease still holds
    with tamper(store) as raw:  # then runs out
        raw.execute("UPDATE runs SET lease_until = 0 WHERE id = ?", (run_id,))
    (doubt,) = store.in_doubt()
    assert (doubt.run_id, doubt.tool, doubt.arguments) == (run_id, "approve", {"what": "pay"})
    with pytest.raises(ResumeError, match="has a call in doubt"):
        await store.resume(toolkit(), run_id, Answer(waiting.request.id, ok=True))
    assert store.pending() == [] and ran(runs_log) == []
    done = await store.retry(toolkit(), run_id, principal="ops")
    assert [r.result.output for r in done.results] == ["did pay"]
    assert ran(runs_log) == [doubt.idempotency_key]  # once, under the key TypeScript recorded
    assert [e["kind"] for e in store.log.entries()] == ["retry"]


async def test_whose_run_and_which_session_are_kept_across_languages(store: RunStore, node_host: Path):
    alices = ts(node_host, "save-as", where(store), "alice", "s1", "A", "B")["runId"]
    nobodys = ts(node_host, "save", where(store), "C")["runId"]
    listed = [(p.run_id, p.request.prompt) for p in store.pending(principal="alice")]
    assert listed == [(alices, "A?"), (alices, "B?")]
    assert [p.run_id for p in store.pending(session="s1", limit=1)] == [alices]
    assert store.pending(principal="bob") == [] and len(store.pending()) == 3
    assert (store.get(alices).principal, store.get(alices).session) == ("alice", "s1")
    assert (store.get(nobodys).principal, store.get(nobodys).session) == (None, None)
    (first, _) = store.pending(principal="alice")
    ts(node_host, "resume", where(store), alices, first.request.id)  # TypeScript's outcome keeps them
    assert [p.request.prompt for p in store.pending(principal="alice", session="s1")] == ["B?"]

    run = await toolkit().run_calls([ToolCall("a", "approve", {"what": "D"})])
    bobs = store.save(run, principal="bob", session="s2")
    stored = ts(node_host, "get", where(store), bobs)
    assert (stored["principal"], stored["session"]) == ("bob", "s2")


def build_log(args: object, ctx: object) -> str:
    """store-host.ts's `build`, line for line (non-ASCII, so both write one UTF-8 text)."""
    return "".join(f"[{i:03}] compiled módulo_{i}.py ✓\n" for i in range(1, 121))


def cut_ref(run: RunResult) -> str:
    """The reference the marker of `run`'s first (cut) result names."""
    metadata = run.results[0].result.metadata
    assert metadata is not None, "the output was not cut"
    return str(metadata["truncated"]["ref"])


async def test_a_result_one_language_keeps_in_store_results_is_read_by_the_other(
    store: RunStore, node_host: Path
) -> None:
    build = define_tool("build", "Run the build", None, build_log, limit=Limit(chars=700))
    kit = Toolkit([build, read_result], spill=store.results, secret=SECRET)
    whole = build_log(None, None)

    async def page(
        principal: str | None, session: str | None, ref: str, offset: int, length: int
    ) -> tuple[str, bool]:
        args = {"ref": ref, "offset": offset, "length": length}
        done = await kit.run_calls(
            [ToolCall("r1", "read_result", args)], principal=principal, session=session
        )
        return done.results[0].result.output, done.results[0].result.is_error

    # Python keeps, TypeScript reads: the same page Python's read_result gives, for that scope alone.
    done = await kit.run_calls(
        [ToolCall("c1", "build", {})], principal="ålice", session="s-1", turn_id="turn-py"
    )
    ref = cut_ref(done)
    assert len(done.results[0].result.output) <= 700 < len(whole)
    ours = await page("ålice", "s-1", ref, 1000, 80)
    assert ours[1] is False and ours[0].endswith(whole[1000:1080])
    assert ts(node_host, "read-result", where(store), "ålice", "s-1", ref, 1000, 80) == {
        "output": ours[0],
        "isError": False,
    }
    for principal, session in [("ålice", "s-2"), ("bob", "s-1"), ("-", "s-1"), ("ålice", "-")]:
        elsewhere = ts(node_host, "read-result", where(store), principal, session, ref, 0, 80)
        assert elsewhere["isError"] is True and ref in elsewhere["output"], (principal, session)

    # TypeScript keeps (the same turn names its reference alike), Python reads.
    kept = ts(node_host, "build", where(store), "ålice", "-", "turn-ts")
    theirs = await kit.run_calls([ToolCall("c1", "build", {})], principal="x", turn_id="turn-ts")
    assert kept["ref"] == cut_ref(theirs) != ref
    assert kept["output"] == theirs.results[0].result.output
    text, is_error = await page("ålice", None, kept["ref"], 3000, 500)
    assert is_error is False and text.endswith(whole[3000:3500])
    assert text == ts(node_host, "read-result", where(store), "ålice", "-", kept["ref"], 3000, 500)["output"]
    assert (await page("ålice", "s-1", kept["ref"], 0, 80))[1] is True  # another session reads nothing
    assert store.results.get(("ålice", None), kept["ref"]) == whole  # kept whole, as Python keeps it
    assert store.results.purge(time.time() - 3600) == 0  # nothing was kept an hour ago
    assert store.results.purge(time.time() + 1) == 3  # TypeScript's kept_at is a Unix time too
    assert ts(node_host, "read-result", where(store), "ålice", "-", kept["ref"], 0, 80)["isError"] is True


def test_an_outcome_typescript_writes_wakes_a_python_wait_on_postgres(postgres_dsn: str, node_host: Path):
    import psycopg

    store = PostgresRunStore(postgres_dsn)
    run_id = ts(node_host, "save", postgres_dsn, "A")["runId"]
    (waiting,) = store.pending()
    saved = store.get(run_id)
    assert saved is not None
    heard: list[StoredRun | None] = []
    waiter = threading.Thread(target=lambda: heard.append(store.wait(run_id, 600, since=saved.run)))
    with psycopg.connect(postgres_dsn, autocommit=True) as listener:
        listener.execute("LISTEN toolnexus_runs")
        waiter.start()
        with tamper(store) as raw:  # the wait's LISTEN is in place before TypeScript writes
            while not raw.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE query = 'LISTEN toolnexus_runs' AND pid <> ?",
                (listener.info.backend_pid,),
            ).fetchone()[0]:
                assert waiter.is_alive()
                time.sleep(0.01)
            assert ts(node_host, "resume", postgres_dsn, run_id, waiting.request.id)["status"] == "done"
            notes = [n.payload for n in listener.notifies(timeout=30, stop_after=1)]
            waiter.join(60)  # it waits up to 600 s for a NOTIFY: heard, it returns at once
            if waiter.is_alive():  # not heard: let it go, then fail
                raw.execute(f"NOTIFY toolnexus_runs, '{run_id}'")
                waiter.join()
                pytest.fail("Python's store.wait did not hear TypeScript's outcome")
    assert notes == [str(run_id)]  # TypeScript's NOTIFY, with the run's id
    (moved,) = heard
    assert moved is not None and moved.status == "done"
    assert [r.result.output for r in moved.run.results] == ["did A"]


async def test_an_outcome_python_writes_wakes_a_typescript_wait(
    store: RunStore, node_host: Path, runs_log: Path
):
    kit = toolkit()
    run_id = store.save(await kit.run_calls([ToolCall("a", "approve", {"what": "W"})]))
    (waiting,) = store.pending()
    host = ["node", str(node_host), "wait", where(store), str(run_id), "600"]
    with subprocess.Popen(host, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        try:
            assert proc.stdout is not None and json.loads(proc.stdout.readline()) == {"waiting": True}
            time.sleep(0.5)  # past the wait's first read of the run: what it hears comes after
            done = await store.resume(kit, run_id, Answer(waiting.request.id, ok=True))
            out, err = proc.communicate(timeout=60)  # it waits up to 600 s: heard, it returns at once
        finally:
            proc.kill()
    assert proc.returncode == 0, err
    heard = json.loads(out)
    assert done.status == "done"
    assert (heard["status"], heard["outputs"]) == ("done", ["did W"])
    assert heard["waitedMs"] >= 400, "it was waiting when Python wrote the outcome"


def test_typescript_refuses_tables_of_a_newer_schema_naming_both_versions(store: RunStore, node_host: Path):
    with tamper(store) as raw:
        if isinstance(store, SqliteRunStore):
            raw.execute("PRAGMA user_version = 9")
        else:
            raw.execute("UPDATE toolnexus_schema SET version = 9")
    proc = subprocess.run(
        ["node", str(node_host), "pending", where(store)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 1
    assert (
        "has schema version 9, newer than this toolnexus's 6: open it with a newer toolnexus" in proc.stderr
    )
    with tamper(store) as raw:  # and left it as it was
        version = (
            raw.execute("PRAGMA user_version").fetchone()[0]
            if isinstance(store, SqliteRunStore)
            else raw.execute("SELECT version FROM toolnexus_schema").fetchone()[0]
        )
    assert version == 9


def test_typescript_store_tests_on_postgres(postgres_server: str, node_host: Path):
    """tests/typescript/store.test.ts, which runs on SQLite alone otherwise, on this cluster too
    (each of its tests in a schema of its own)."""
    test = TS_DIR / ".cache" / "store.test.js"
    proc = subprocess.run(
        ["node", "--test", "--test-reporter=tap", str(test)],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "TOOLNEXUS_TEST_POSTGRES": postgres_server},
        cwd=TS_DIR,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "# Subtest: the postgres store" in proc.stdout
    counts = dict(re.findall(r"^# (tests|pass|fail|skipped) (\d+)$", proc.stdout, re.M))
    assert counts["fail"] == counts["skipped"] == "0" and counts["pass"] == counts["tests"] != "0", counts


def test_typescript_store_vectors_on_postgres(postgres_server: str, node_host: Path):
    """tests/typescript/store_vectors.test.ts (idl/store/ on the TypeScript stores) on this cluster
    too: every vector it can express passes on PostgreSQL, the others are its declared skips."""
    test = TS_DIR / ".cache" / "store_vectors.test.js"
    proc = subprocess.run(
        ["node", "--test", "--test-reporter=tap", str(test)],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "TOOLNEXUS_TEST_POSTGRES": postgres_server},
        cwd=TS_DIR,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "# Subtest: on the postgres store" in proc.stdout
    ran = re.findall(r"^        ok \d+ - (\S+\.json)$", proc.stdout, re.M)  # run, not skipped
    assert len(ran) == 2 * len(set(ran)) and "save-and-get.json" in ran, ran  # on both stores
    counts = dict(re.findall(r"^# (tests|pass|fail) (\d+)$", proc.stdout, re.M))
    assert counts["fail"] == "0", counts
