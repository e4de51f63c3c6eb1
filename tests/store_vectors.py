"""The store vectors (`idl/store/*.json`, format in `idl/store/README.md`): loading them, and a
Python host that plays one file's steps on one store (`SqliteRunStore` or `PostgresRunStore`) and
checks what each step gave. `tests/store/test_store_vectors.py` runs every file on both databases.

A step is data: `do` names a method of `Host` (`save` → `Host.save`), which returns what the
step gave as a dict of the same keys `expect` uses; `check` compares the two. A runner in another
language is the same three parts: the vectors' loader, a host per store, the comparison.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolnexus_wire import dumps

from tests import loop_vectors as lv
from toolnexus import (
    Answer,
    ResumeError,
    RunResult,
    ToolCall,
    ToolHints,
    Toolkit,
    UsageError,
)
from toolnexus.store import OutcomeNotStored, PendingRequest, RunStore

STORE = Path(__file__).resolve().parent.parent / "idl" / "store"


def names() -> list[str]:
    return sorted(p.stem for p in STORE.glob("*.json"))


def load(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((STORE / f"{name}.json").read_text(encoding="utf-8"))
    return doc


class Crash(asyncio.CancelledError):
    """The host stops while a tool runs: raised in the tool, it crosses the tool and the resume as
    a cancellation does (and leaves the store as a killed process would, once its lease lapsed)."""


class Script(lv.Script):
    """The loop vectors' scripted tools, plus what a store vector does while a tool runs: the
    steps of `while`, then a crash or the tool's own behaviour."""

    during: Callable[[], Any] | None = None

    async def _behave(self, name: str, b: dict[str, Any], args: dict[str, Any], answer: Answer | None) -> Any:
        during, self.during = self.during, None
        if during is not None:
            await during()
        return await super()._behave(name, b, args, answer)


@dataclass
class Taken:
    """A claim a `claim` step took: its lease, the run it handed out and the answers it took."""

    run: RunResult
    lease: str
    answers: list[Answer]


class Comparison:
    """What a step gave against its `expect` (see the format), with the idempotency-key labels
    of the whole file. `label(run_id)` names a run by the label it was saved under."""

    def __init__(self, name: str, own_version: int, label: Callable[[int], str]) -> None:
        self.checker = lv.Checker(name)
        self.own_version = own_version
        self.label = label

    def check(self, where: str, expect: dict[str, Any], got: dict[str, Any], ran: list[lv.Ran]) -> None:
        if "error" in expect:
            assert got.get("error") == expect["error"], f"{where}: expected {expect['error']!r}, got {got}"
            for text in _texts(expect.get("errorIncludes")):
                assert text in got["message"], f"{where}: {got['message']!r} lacks {text!r}"
            if expect.get("namesOwnVersion"):
                assert re.search(rf"\b{self.own_version}\b", got["message"]), f"{where}: {got['message']!r}"
        else:
            assert "error" not in got, f"{where}: refused ({got.get('error')}: {got.get('message')})"
        outcome = lv.Outcome(
            status=got.get("status"), results=got.get("results", []), waiting=got.get("waiting", [])
        )
        loop = {k: expect[k] for k in ("status", "results", "waiting", "ran") if k in expect}
        if loop:
            self.checker.check(0, loop, outcome, ran)
        for key in ("found", "crashed", "context", "principal", "session", "settled", "runs", "policies"):
            if key in expect:
                assert got.get(key) == expect[key], (
                    f"{where}: {key} {got.get(key)!r}, expected {expect[key]!r}"
                )
        if "reasonIncludes" in expect:
            assert expect["reasonIncludes"] in (got.get("reason") or ""), (
                f"{where}: reason {got.get('reason')!r}"
            )
        if "requests" in expect:
            assert got["requests"] == expect["requests"], f"{where}: requests {got['requests']}"
        if "calls" in expect:
            self._doubts(where, expect["calls"], got["calls"])
        if "entries" in expect:
            self._entries(where, expect["entries"], got["entries"])
        for key in ("verify", "verifyWithKey"):
            if key in expect:
                assert got[key] == expect[key], f"{where}: {key} {got[key]!r}, expected {expect[key]!r}"

    def _doubts(self, where: str, expected: list[dict[str, Any]], got: list[dict[str, Any]]) -> None:
        assert [(g["run"], g["call"]) for g in got] == [(e["run"], e["call"]) for e in expected], (
            f"{where}: {got}"
        )
        for e, g in zip(expected, got, strict=True):
            for key in ("tool", "arguments", "startedAt"):
                if key in e:
                    assert g[key] == e[key], f"{where}: in doubt {key} {g[key]!r}, expected {e[key]!r}"
            if "key" in e:  # a label of the `ran` expectations: the key the cut-off run ran under
                self._key(where, e["key"], g["key"])

    def _key(self, where: str, label: str, key: Any) -> None:
        """`key` is the one `label` names (the first use of a label names it, as in `ran`)."""
        labels, keys = self.checker.labels, self.checker.keys
        if label not in labels:
            assert key not in keys, f"{where}: key {key} is {keys.get(key)}'s, not {label}'s"
            labels[label], keys[key] = key, label
        assert labels[label] == key, f"{where}: key {key} is not {label}'s ({labels[label]})"

    def _entries(self, where: str, expected: list[dict[str, Any]], got: list[dict[str, Any]]) -> None:
        shown = [{k: g.get(k) for k in ("seq", "kind", "call", "by")} for g in got]
        assert len(got) == len(expected), f"{where}: entries {shown}"
        for e, g in zip(expected, got, strict=True):
            for key, value in e.items():
                have = g.get(key)
                if key == "run":
                    have = self.label(have) if isinstance(have, int) else have
                if key == "idempotencyKey":
                    self._key(where, value, have)
                    continue
                if key == "policy":
                    assert (have is not None) == value, f"{where}: entry {g}"
                    continue
                assert have == value, f"{where}: entry {g.get('seq')}: {key} {have!r}, expected {value!r}"


class DatabaseSteps:
    """The steps on what a store keeps beside its runs (policies, the decision log), and those
    that reach the database behind the store's back (`tamper`, `tamperLog`, `reopen`)."""

    store: RunStore
    kit: Toolkit
    _raw: Callable[[RunStore], Any]
    _set_version: Callable[[RunStore, int], None]
    _open: Callable[[], RunStore]

    if TYPE_CHECKING:  # the host's

        def _id(self, label: str) -> int: ...
        def _label(self, run_id: int) -> str: ...
        def _toolkit(self) -> Toolkit: ...

    async def quarantined(self, step: dict[str, Any]) -> dict[str, Any]:
        return {"runs": [self._label(i) for i, _ in self.store.quarantined()]}

    async def tamper(self, step: dict[str, Any]) -> dict[str, Any]:
        run_id = self._id(step["run"])
        if "body" in step:
            body = step["body"]
        else:
            stored = self.store.get(run_id)
            assert stored is not None and stored.run is not None
            body = dumps(lv.tampered(stored.run.to_wire(), step["set"]))
        with self._raw(self.store) as conn:  # altered in the database, behind the store
            conn.execute("UPDATE runs SET body = ? WHERE id = ?", (body, run_id))
        return {}

    async def policies(self, step: dict[str, Any]) -> dict[str, Any]:
        kept = self.store.policies.policies()
        return {
            "policies": [{"tool": p.tool, "approve": p.approve, "scope": p.scope, "key": p.key} for p in kept]
        }

    async def revoke(self, step: dict[str, Any]) -> dict[str, Any]:
        for policy in self.store.policies.policies(step["tool"]):
            assert self.store.policies.revoke(policy.id)
        return {}

    async def log(self, step: dict[str, Any]) -> dict[str, Any]:
        entries = list(self.store.log.entries())
        return {
            "entries": entries,
            "verify": self.store.log.verify(),
            "verifyWithKey": self.store.log.verify(lv.SECRET),
        }

    async def tamperLog(self, step: dict[str, Any]) -> dict[str, Any]:
        with self._raw(self.store) as conn:
            if "remove" in step:
                conn.execute("DELETE FROM decisions WHERE seq = ?", (step["remove"],))
                return {}
            (text,) = conn.execute("SELECT entry FROM decisions WHERE seq = ?", (step["seq"],)).fetchone()
            entry = lv.tampered(json.loads(text), step["set"])
            conn.execute("UPDATE decisions SET entry = ? WHERE seq = ?", (json.dumps(entry), step["seq"]))
        return {}

    async def reopen(self, step: dict[str, Any]) -> dict[str, Any]:
        if "schemaVersion" in step:
            self._set_version(self.store, step["schemaVersion"])
        self.store.close()
        self.store = self._open()
        self.kit = self._toolkit()
        return {}


class Host(DatabaseSteps):
    """One vector's steps on one store. `open_store(clock=..., lease=...)` opens the store (again,
    on the same database, for `reopen`); `set_version(store, n)` writes the schema version behind
    its back; `raw(store)` is a connection of the database's own (`tests.postgres.tamper`)."""

    def __init__(
        self,
        name: str,
        vector: dict[str, Any],
        open_store: Callable[..., RunStore],
        set_version: Callable[[RunStore, int], None],
        raw: Callable[[RunStore], Any],
        own_version: int,
    ) -> None:
        self.name, self.vector = name, vector
        self.clock = lv.Clock()
        self._open = lambda: open_store(
            clock=lambda: self.clock().timestamp(), lease=float(vector.get("lease", 30))
        )
        self._set_version, self._raw = set_version, raw
        self.script = Script(vector, self.clock)
        self.store = self._open()
        self.kit = self._toolkit()
        self.runs: dict[str, int] = {}  # label -> run id
        self.claims: dict[str, list[Taken]] = {}
        self.page: list[PendingRequest] = []  # what the last `pending` step returned
        self.compare = Comparison(name, own_version, self._label)

    def _toolkit(self) -> Toolkit:
        tools = self.script.tools()
        idempotent = {t["name"] for t in self.vector["tools"] if t.get("idempotent")}
        for tool in tools:
            if tool.name in idempotent:
                tool.hints = ToolHints(idempotent=True)
        return Toolkit(
            tools,
            secret=lv.SECRET,
            clock=self.clock,
            policy_store=self.store.policies,
            decision_log=self.store.log,
        )

    async def play(self) -> None:
        for index, step in enumerate(self.vector["steps"]):
            await self.step(f"step {index}", step)

    async def step(self, where: str, step: dict[str, Any]) -> None:
        if "at" in step:
            assert step["at"] >= self.clock.at, f"{self.name} {where}: the clock goes forward only"
            self.clock.at = step["at"]
        before = len(self.script.log)
        action = getattr(self, _method(step["do"]))
        try:
            got = await action(step)
        except ResumeError as exc:
            got = {"error": exc.reason, "message": str(exc)}
        except UsageError as exc:
            got = {"error": "usage", "message": str(exc)}
        except OutcomeNotStored as exc:
            got = {"error": "outcome_not_stored", "message": str(exc)}
        except NotClaimed as exc:
            got = {"error": "not_claimed", "message": str(exc)}
        ran = self.script.log[before:]
        self.compare.check(f"{self.name} {where} ({step['do']})", step.get("expect", {}), got, ran)

    # -- the steps ------------------------------------------------------------------------------

    async def save(self, step: dict[str, Any]) -> dict[str, Any]:
        run = await self._run_calls(step)
        run_id = self.store.save(
            run, context=_context(step), principal=step.get("principal"), session=step.get("session")
        )
        self.runs[step["as"]] = run_id
        return _outcome(run)

    async def saveMany(self, step: dict[str, Any]) -> dict[str, Any]:
        runs = [await self._run_calls(spec) for spec in step["runs"]]
        ids = self.store.save_many(
            runs,
            contexts=[_context(s) for s in step["runs"]],
            principals=[s.get("principal") for s in step["runs"]],
            sessions=[s.get("session") for s in step["runs"]],
        )
        for spec, run_id in zip(step["runs"], ids, strict=True):
            self.runs[spec["as"]] = run_id
        return {}

    async def get(self, step: dict[str, Any]) -> dict[str, Any]:
        found = self.store.get(self._id(step["run"]))
        if found is None:
            return {"found": False}
        got: dict[str, Any] = _outcome(found.run) if found.run is not None else {}
        got.update(found=True, status=found.status, reason=found.reason)  # the stored status, not the run's
        got.update(context=found.context, principal=found.principal, session=found.session)
        return got

    async def pending(self, step: dict[str, Any]) -> dict[str, Any]:
        after = None
        if step.get("after") == "page":
            assert self.page, f"{self.name}: 'after: page' with no page before"
            after = self.page[-1]
        filters = {k: step[k] for k in ("principal", "session", "tool", "kind", "limit") if k in step}
        self.page = self.store.pending(**filters, after=after)
        return {"requests": [self._request(p) for p in self.page]}

    async def claim(self, step: dict[str, Any]) -> dict[str, Any]:
        run_id = self._id(step["run"])
        answers = self._answers(step)
        taken = self.store.claim(run_id, answers)
        self.claims.setdefault(step["run"], []).append(Taken(taken.run, taken.lease, answers))
        return {"context": taken.context}

    async def finish(self, step: dict[str, Any]) -> dict[str, Any]:
        claims = self.claims.get(step["run"], [])
        assert claims, f"{self.name}: finish of {step['run']} with no claim"
        taken = claims[step.get("claim", -1)]
        # resumed in process by a toolkit of its own, as by another host: this one's memory of the
        # answers it took (a replay guard) is not what is checked here, the store's lease is
        resumed = await self._toolkit().resume(taken.run, taken.answers)
        try:
            self.store.finish(
                self._id(step["run"]),
                taken.answers,
                resumed,
                lease=taken.lease,
                **({"context": step["context"]} if "context" in step else {}),
            )
        except ValueError as exc:
            if isinstance(exc, UsageError):
                raise
            raise NotClaimed(str(exc)) from None
        return _outcome(resumed)

    async def release(self, step: dict[str, Any]) -> dict[str, Any]:
        self.store.release(self._id(step["run"]), step.get("status", "pending"), reason=step.get("reason"))
        return {}

    async def resume(self, step: dict[str, Any]) -> dict[str, Any]:
        run_id = self._id(step["run"])
        options = {k: step[k] for k in ("principal", "session", "context") if k in step}
        return await self._cut_short(
            step, lambda: self.store.resume(self.kit, run_id, self._answers(step), **options)
        )

    async def retry(self, step: dict[str, Any]) -> dict[str, Any]:
        run_id = self._id(step["run"])
        return await self._cut_short(
            step, lambda: self.store.retry(self.kit, run_id, principal=step.get("principal"))
        )

    async def settle(self, step: dict[str, Any]) -> dict[str, Any]:
        run_id = self._id(step["run"])
        run = await self.store.settle(self.kit, run_id, step["result"], principal=step.get("principal"))
        return _outcome(run)

    async def expire(self, step: dict[str, Any]) -> dict[str, Any]:
        settled = await self.store.expire(self.kit)
        return {"settled": [self._label(i) for i in settled]}

    async def inDoubt(self, step: dict[str, Any]) -> dict[str, Any]:
        calls = []
        for d in self.store.in_doubt():
            calls.append(
                {
                    "run": self._label(d.run_id),
                    "call": d.call.id,
                    "tool": d.tool,
                    "arguments": d.arguments,
                    "key": d.idempotency_key,
                    "startedAt": d.started_at - lv.EPOCH.timestamp(),
                }
            )
        return {"calls": calls}

    # -- what the steps share -------------------------------------------------------------------

    async def _run_calls(self, spec: dict[str, Any]) -> RunResult:
        turn = spec.get("turn", {})
        calls = [ToolCall(c["id"], c["name"], c["arguments"]) for c in spec["calls"]]
        return await self.kit.run_calls(
            calls,
            expires_in=turn.get("expiresIn"),
            principal=turn.get("principal"),
            turn_id=turn.get("id"),
            session=spec.get("session"),
        )

    async def _cut_short(self, step: dict[str, Any], resume: Callable[[], Any]) -> dict[str, Any]:
        """Run `resume()`, doing the step's `while` steps while its first tool runs, and crashing
        there (`crash`) when asked."""
        if "while" in step or step.get("crash"):

            async def during() -> None:
                for i, inner in enumerate(step.get("while", [])):
                    await self.step(f"while step {i}", inner)
                if step.get("crash"):
                    raise Crash

            self.script.during = during
        try:
            run = await resume()
        except asyncio.CancelledError:
            if not step.get("crash"):
                raise
            self.kit = self._toolkit()  # the host that stopped is gone, and what it held in memory
            return {"crashed": True}
        finally:
            self.script.during = None
        return {"crashed": False, **_outcome(run)}

    def _id(self, label: str) -> int:
        return self.runs.get(label, 10**9)  # a label never saved: a run that is not there

    def _label(self, run_id: int) -> str:
        return next((k for k, v in self.runs.items() if v == run_id), f"(run {run_id})")

    def _answers(self, step: dict[str, Any]) -> list[Answer]:
        if all("id" in a for a in step["answers"]):  # literal ids: the run is not read (it may not be one)
            return lv.answers_of(step["answers"], [])
        stored = self.store.get(self._id(step["run"]))
        run = stored.run if stored is not None else None
        waiting = list(zip(run.calls or [], run.requests or [], strict=False)) if run is not None else []
        return lv.answers_of(step["answers"], waiting)

    def _request(self, item: PendingRequest) -> dict[str, Any]:
        stored = self.store.get(item.run_id)
        call = None
        if stored is not None and stored.run is not None:
            pairs = zip(stored.run.calls or [], stored.run.requests or [], strict=False)
            call = next((c.id for c, r in pairs if r.id == item.request.id), None)
        request = item.request
        return {"run": self._label(item.run_id), "call": call, "kind": request.kind, "prompt": request.prompt}


class NotClaimed(Exception):
    """`finish` refused: the run is not claimed under the lease given (Python: a ValueError)."""


def _method(do: str) -> str:
    if not re.fullmatch(r"[a-z][A-Za-z]*", do) or do in ("play", "step", "compare", "store", "kit"):
        raise AssertionError(f"{do!r} is not a step of the store vectors")
    return do


def _texts(value: Any) -> list[str]:
    return [] if value is None else [value] if isinstance(value, str) else list(value)


def _context(spec: dict[str, Any]) -> Any:
    """The step's context: `context` as it is, or `contextBytes`: a JSON string whose JSON text is
    that many bytes."""
    if "contextBytes" in spec:
        return "x" * (spec["contextBytes"] - 2)
    return spec.get("context")


def _outcome(run: RunResult) -> dict[str, Any]:
    waiting = list(zip(run.calls or [], run.requests or [], strict=False))
    return {"status": run.status, "results": list(run.results), "waiting": waiting}
