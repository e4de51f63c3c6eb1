"""Every loop vector (`idl/loop/`) through every Python host of the engine: the `Toolkit` in
process, the stores (`SqliteRunStore`, `PostgresRunStore`), and the MCP server through the MCP
SDK's own client. (Temporal runs them in `tests/temporal/test_temporal.py`, on its dev server.) A host
leaves out only what it cannot express, and says why (`skip`)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from toolnexus_wire import dumps

from tests import loop_vectors as lv
from tests.postgres import tamper
from toolnexus import Answer, DirectorySpill, ResumeError, RunResult, ToolCall, Toolkit
from toolnexus.store import RunStore

VECTORS = lv.names()


def test_there_are_vectors_for_every_row_of_the_loop() -> None:
    covered = {row for name in VECTORS for row in lv.load(name)["covers"]}
    assert len(VECTORS) >= 60
    rows = {
        "a tool returns", "a tool fails", "a question", "approval", "edited arguments", "refusal", "expiry",
        "unresolved", "several calls", "hostile answers", "replay", "storage", "seal", "sealed expiry",
        "principal", "idempotency keys", "scopes", "policies", "precedence", "results a person supplies",
        "decisions", "result limits",
    }  # fmt: skip
    assert rows <= covered, rows - covered


class ToolkitHost:
    """The `Toolkit` in process: the run a step returns is the one the next step answers."""

    name = "toolkit"

    def __init__(self, vector: dict[str, Any], clock: lv.Clock, script: lv.Script, **stores: Any) -> None:
        self.vector = vector
        self.log = stores.pop("decision_log", None) or lv.Log()
        options = lv.toolkit_options(vector, stores.pop("spill"))
        self.kit = Toolkit(
            script.tools(), secret=lv.SECRET, clock=clock, decision_log=self.log, **options, **stores
        )
        self.run: RunResult | None = None
        self.given: dict[int, tuple[RunResult, list[Answer]]] = {}
        self.turns = 0

    def skip(self) -> str | None:
        return None

    def decisions(self) -> list[dict[str, Any]]:
        """Every decision logged so far."""
        return list(self.log.entries)

    def policies(self) -> list[Any] | None:
        return self.kit.policies()

    async def start(self, step: dict[str, Any]) -> lv.Outcome:
        turn = self.vector.get("turn", {})
        calls = lv.calls_of(self.vector, step)
        self.turns += 1
        turn_id = turn.get("id") if self.turns == 1 else f"{turn.get('id', 'turn')}-{self.turns}"
        self.run = await self.kit.run_calls(
            calls,
            expires_in=turn.get("expiresIn"),
            principal=step.get("principal", turn.get("principal")),
            turn_id=turn_id,
            session=step.get("session"),
        )
        return _outcome(self.run)

    async def revoke(self, step: dict[str, Any]) -> lv.Outcome:
        for policy in self.kit.policies(step["tool"]):
            assert self.kit.revoke_policy(policy.id)
        assert self.run is not None
        return _outcome(self.run)

    def waiting(self) -> list[tuple[ToolCall, Any]]:
        assert self.run is not None
        return list(zip(self.run.calls, self.run.requests, strict=True))

    async def resume(self, index: int, step: dict[str, Any]) -> lv.Outcome:
        assert self.run is not None
        if "replay" in step:
            given, answers = self.given[step["replay"]]
        else:
            given, answers = self.run, lv.answers_of(step["answers"], self.waiting())
            if step.get("stored") or "tamper" in step:
                given = RunResult.from_json(dumps(lv.tampered(self.run.to_wire(), step.get("tamper", []))))
            self.given[index] = (given, answers)
        try:
            self.run = await self.kit.resume(
                given, answers, principal=step.get("principal"), session=step.get("session")
            )
        except ResumeError as exc:
            return lv.Outcome(error=exc.reason, message=str(exc))
        return _outcome(self.run)

    async def expire(self) -> lv.Outcome:
        assert self.run is not None
        self.run = await self.kit.expire(self.run)
        return _outcome(self.run)


class StoreHost(ToolkitHost):
    """A store (`SqliteRunStore`, `PostgresRunStore`): every run saved, every resume a claim of
    the stored row."""

    name = "store"

    def __init__(self, vector: dict[str, Any], clock: lv.Clock, script: lv.Script, store: RunStore) -> None:
        self.store = store
        super().__init__(
            vector, clock, script, policy_store=self.store.policies, decision_log=self.store.log,
            spill=lambda: self.store.results,
        )  # fmt: skip
        self.run_id = 0

    def decisions(self) -> list[dict[str, Any]]:
        return list(self.store.log.entries())

    async def start(self, step: dict[str, Any]) -> lv.Outcome:
        outcome = await super().start(step)
        assert self.run is not None
        self.run_id = self.store.save(self.run)
        return outcome

    async def resume(self, index: int, step: dict[str, Any]) -> lv.Outcome:
        if "replay" in step:
            answers = self.given[step["replay"]][1]
        else:
            answers = lv.answers_of(step["answers"], self.waiting())
            self.given[index] = (RunResult("done", []), answers)
            if "tamper" in step:
                stored = self.store.get(self.run_id)
                assert stored is not None
                body = dumps(lv.tampered(stored.run.to_wire(), step["tamper"]))
                with tamper(self.store) as conn:  # altered in the database, behind the store
                    conn.execute("UPDATE runs SET body = ? WHERE id = ?", (body, self.run_id))
        try:
            self.run = await self.store.resume(
                self.kit, self.run_id, answers, principal=step.get("principal"), session=step.get("session")
            )
        except ResumeError as exc:
            return lv.Outcome(error=exc.reason, message=str(exc))
        return _outcome(self.run)

    async def expire(self) -> lv.Outcome:
        await self.store.expire(self.kit)
        stored = self.store.get(self.run_id)
        assert stored is not None
        self.run = stored.run
        return _outcome(self.run)


#: What the MCP host cannot express, by the vector's features (a vector with one is not run there).
MCP_GAPS = {
    "turn-binding": "an MCP call has no expiry of its own, and its principal is the request's "
    "authentication (mcp_server(principal=...); tests/mcp/test_mcp_details.py), not a host's per step",
    "expire": "an MCP call keeps no run for the host to expire: a request's expiresAt applies when the "
    "retry comes",
    "tamper": "the SDK's RequestStateBoundary encrypts and seals requestState: an altered state is refused "
    "by the SDK before the toolkit sees it (tests/mcp/test_mcp_live.py)",
    "answer-list": "MCP answers one call per retry: a list of answers is neither taken nor refused whole",
    "reason-expired": "an ElicitResult has no 'expired' action (accept, decline, cancel): it arrives as "
    "cancelled",
    "nested-data": "MCP form content holds strings, numbers and booleans only (edited arguments go as JSON "
    "text)",
    "finished": "a finished MCP call returns no requestState, so there is nothing to retry it with",
    "decision-words": "an ElicitResult carries no refusal message and no scope (accept, decline, cancel and "
    "content only)",
    "turns": "each MCP tools/call is a turn of its own: a vector of several turns, or of policies across "
    "them, is not one MCP exchange",
    "text-part": "MCP has no text part: a text part is a text block, read back as part of the output "
    "(docs/providers.md)",
    "kept": "the bridge names each call (mcp-…) and its turn itself: a kept result's reference, from the "
    "call's idempotency key, is not the vector's",
}


class McpHost:
    """The MCP server (`mcp_server`), through the MCP SDK's own client, in process, at protocol
    2026-07-28: each call a `tools/call`, each answer a retry with `inputResponses` and the
    `requestState` the call returned. Results carry no metadata over MCP (it never leaves the
    process), so `declined` markers are not checked; nor are request kinds, which MCP's
    elicitations do not carry."""

    name = "mcp"

    def __init__(self, vector: dict[str, Any], clock: lv.Clock, script: lv.Script) -> None:
        self.vector = vector
        self.script = script
        self.log = lv.Log()
        options = lv.toolkit_options(vector, lambda: None)
        self.kit = Toolkit(script.tools(), secret=lv.SECRET, clock=clock, decision_log=self.log, **options)
        self.calls = [ToolCall(c["id"], c["name"], c["arguments"]) for c in vector["calls"]]
        self.settled: dict[str, Any] = {}
        self.asked: dict[str, tuple[str, Any, str]] = {}  # call id -> (request key, params, state)
        self.given: dict[int, list[tuple[ToolCall, dict[str, Any], str]]] = {}

    def skip(self) -> str | None:
        v = self.vector
        steps = v["steps"]
        if "expiresIn" in v.get("turn", {}) or "principal" in v.get("turn", {}):
            return MCP_GAPS["turn-binding"]
        if any(s["do"] == "expire" for s in steps):
            return MCP_GAPS["expire"]
        if lv.keeps_results(v):
            return MCP_GAPS["kept"]
        if any(s.get("expect", {}).get("error") == "not_pending" for s in steps):
            return MCP_GAPS["finished"]
        if any(p.get("type") == "text" for t in v["tools"] for p in t.get("first", {}).get("parts", [])):
            return MCP_GAPS["text-part"]
        if any("tamper" in s for s in steps):
            return MCP_GAPS["tamper"]
        answers = [a for s in steps for a in s.get("answers", [])]
        if any("message" in a or "scope" in a for a in answers):
            return MCP_GAPS["decision-words"]
        if sum(s["do"] == "run" for s in steps) > 1 or any(s["do"] == "revoke" for s in steps):
            return MCP_GAPS["turns"]
        if any(len(s.get("answers", [])) > 1 for s in steps):
            return MCP_GAPS["answer-list"]
        if any(a.get("reason") == "expired" for a in answers):
            return MCP_GAPS["reason-expired"]
        for a in answers:
            data = a.get("data") or {}
            rest = {k: v for k, v in data.items() if k != "arguments"}
            if any(isinstance(x, (dict, list)) for x in rest.values()) or (
                "arguments" in data and not _approval_of(v, a)
            ):
                return MCP_GAPS["nested-data"]
        return None

    async def __aenter__(self) -> McpHost:
        from mcp import Client

        from toolnexus.mcp import mcp_server

        self._client = Client(mcp_server(self.kit))
        await self._client.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self._client.__aexit__(*exc)

    async def _call(self, call: ToolCall, **retry: Any) -> Any:
        before, logged = len(self.script.log), len(self.log.entries)
        got = await self._client.session.call_tool(
            call.name, call.arguments, allow_input_required=True, **retry
        )
        for ran in self.script.log[before:]:  # the bridge names the call itself: the vector's id here
            ran.id = call.id
        for entry in self.log.entries[logged:]:
            entry["call"] = call.id
        return got

    def _take(self, call: ToolCall, got: Any) -> None:
        import mcp_types as types

        from toolnexus.adapters import from_mcp_call_tool_result

        if isinstance(got, types.InputRequiredResult):
            assert got.input_requests is not None and len(got.input_requests) == 1, got
            [(key, asked)] = got.input_requests.items()
            self.asked[call.id] = (key, asked.params, str(got.request_state))
            return
        self.asked.pop(call.id, None)
        self.settled[call.id] = from_mcp_call_tool_result(
            got.model_dump(by_alias=True, mode="json", exclude_none=True)
        )

    def _outcome(self) -> lv.Outcome:
        from toolnexus import Request, ToolCallResult

        results = [
            ToolCallResult(c.id, c.name, self.settled[c.id]) for c in self.calls if c.id in self.settled
        ]
        waiting = []
        forms = {}
        for c in self.calls:
            if c.id in self.asked:
                key, params, _ = self.asked[c.id]
                waiting.append((c, Request("input", params.message, id=key)))
                forms[c.id] = getattr(params, "requested_schema", None)
        return lv.Outcome(
            status="pending" if waiting else "done", results=results, waiting=waiting, forms=forms
        )

    def decisions(self) -> list[dict[str, Any]]:
        return list(self.log.entries)

    def policies(self) -> list[Any] | None:
        return None

    async def start(self, step: dict[str, Any]) -> lv.Outcome:
        for call in self.calls:
            self._take(call, await self._call(call))
        return self._outcome()

    def waiting(self) -> list[tuple[ToolCall, Any]]:
        return self._outcome().waiting

    async def resume(self, index: int, step: dict[str, Any]) -> lv.Outcome:
        import mcp_types as types

        if "replay" in step:
            retries = self.given[step["replay"]]
        else:
            retries = []
            for spec in step["answers"]:
                call = (
                    next(c for c in self.calls if c.id == spec.get("to"))
                    if "to" in spec
                    else self._by_key(spec["id"])
                )
                key, _, state = self.asked.get(call.id, ("", None, ""))
                response: dict[str, Any] = {"action": "accept"}
                if not spec["ok"]:
                    response = {"action": "cancel" if spec.get("reason") == "cancelled" else "decline"}
                elif "data" in spec:
                    data = dict(spec["data"])
                    if "arguments" in data:
                        data["arguments"] = dumps(data["arguments"])
                    response["content"] = data
                retries.append((call, {spec.get("id", key): response}, state))
            self.given[index] = retries
        for call, responses, state in retries:
            answers = {k: types.ElicitResult.model_validate(v) for k, v in responses.items()}
            got = await self._call(call, input_responses=answers, request_state=state)
            if isinstance(got, types.CallToolResult) and got.is_error and (refusal := _refusal(got)):
                return lv.Outcome(error=refusal, message=_text(got))
            self._take(call, got)
        return self._outcome()

    def _by_key(self, key: str) -> ToolCall:
        for call in self.calls:
            if call.id in self.asked and self.asked[call.id][0] == key:
                return call
        return next(c for c in self.calls if c.id in self.asked)  # an id no call was asked: to the first

    async def expire(self) -> lv.Outcome:
        raise AssertionError("left out: " + MCP_GAPS["expire"])


TEMPORAL_GAPS = {
    "clock": "the workflow's clock is Temporal's: a vector that moves the host's clock (`at`) cannot "
    "(nor, so, see a policy expire)",
    "expire": "a workflow timer settles each expiry on its own: there is no run to expire by hand",
    "tamper": "Temporal keeps the turn in its own history: there is no stored document to alter",
    "finished": "a finished turn is answered by the client (not_pending): tests/temporal/test_temporal.py",
    "deep": "TurnClient.start sends the calls as wire JSON: a call nested past the wire's limit is refused "
    "there (ValueError), before any tool runs",
    "kept": "each workflow's turn id is its own (the vector's and a random suffix): a kept result's "
    "reference, from the call's idempotency key, is not the vector's",
}


class TemporalHost:
    """The Temporal workflow (`toolnexus.temporal`) on the dev server: the vector's tools on a
    worker of their own, each answer list one Update, and the turn read back with the `state`
    query once no tool runs (`TurnClient.state`). Stored copies are moot: the turn is durable.
    Each `run` step is a turn of its own (a workflow); the policies are the worker's toolkit's."""

    name = "temporal"

    def __init__(self, vector: dict[str, Any], client: Any, script: lv.Script) -> None:
        import uuid

        from toolnexus.temporal import TurnClient, worker_for

        self.vector = vector
        self.queue = f"vectors-{uuid.uuid4().hex[:8]}"
        self.base = f"{vector.get('turn', {}).get('id', 'turn')}-{uuid.uuid4().hex[:8]}"
        self.turn_id = self.base
        self.kit = Toolkit(script.tools(), **lv.toolkit_options(vector, lambda: None))
        self.worker = worker_for(client, self.kit, task_queue=self.queue)
        self.turns = TurnClient(client, task_queue=self.queue)
        self.calls = [ToolCall(c["id"], c["name"], c["arguments"]) for c in vector["calls"]]
        self.given: dict[int, list[Answer]] = {}
        self.run: RunResult | None = None
        self.started = 0
        self.earlier: list[dict[str, Any]] = []  # the decisions of the turns before this one
        self.logged: list[dict[str, Any]] = []

    def skip(self) -> str | None:
        steps = self.vector["steps"]
        if any(s.get("at") for s in steps):
            return TEMPORAL_GAPS["clock"]
        if any(s["do"] == "expire" for s in steps):
            return TEMPORAL_GAPS["expire"]
        if any("tamper" in s for s in steps):
            return TEMPORAL_GAPS["tamper"]
        if lv.keeps_results(self.vector):
            return TEMPORAL_GAPS["kept"]
        if any(s.get("expect", {}).get("error") == "not_pending" for s in steps):
            return TEMPORAL_GAPS["finished"]
        try:
            for call in self.calls:
                call.to_json()
        except ValueError:
            return TEMPORAL_GAPS["deep"]
        return None

    async def _settled(self) -> lv.Outcome:
        """The turn once no tool runs: done, or waiting on every request it asked."""
        import asyncio

        for _ in range(400):
            run, running = await self.turns.state(self.turn_id)
            if running == 0 and (
                run.status == "done" or len(run.results) + len(run.calls) == len(self.calls)
            ):
                self.run = run
                self.logged = await self.turns.decisions(self.turn_id)
                return _outcome(run)
            await asyncio.sleep(0.05)
        raise AssertionError(f"turn {self.turn_id} did not settle")

    def decisions(self) -> list[dict[str, Any]]:
        return self.earlier + self.logged

    def policies(self) -> list[Any] | None:
        return self.kit.policies()

    async def start(self, step: dict[str, Any]) -> lv.Outcome:
        turn = self.vector.get("turn", {})
        self.started += 1
        if self.started > 1:  # a turn of its own: a workflow of its own
            self.turn_id = f"{self.base}-{self.started}"
            self.earlier += self.logged
            self.logged = []
        await self.turns.start(
            self.turn_id,
            self.calls,
            expires_in=turn.get("expiresIn"),
            principal=step.get("principal", turn.get("principal")),
            session=step.get("session"),
        )
        return await self._settled()

    async def revoke(self, step: dict[str, Any]) -> lv.Outcome:
        for policy in self.kit.policies(step["tool"]):
            assert self.kit.revoke_policy(policy.id)
        assert self.run is not None
        return _outcome(self.run)

    def waiting(self) -> list[tuple[ToolCall, Any]]:
        assert self.run is not None
        return list(zip(self.run.calls, self.run.requests, strict=True))

    async def resume(self, index: int, step: dict[str, Any]) -> lv.Outcome:
        answers = (
            self.given[step["replay"]] if "replay" in step else lv.answers_of(step["answers"], self.waiting())
        )
        self.given.setdefault(index, answers)
        try:
            await self.turns.answer(self.turn_id, answers, principal=step.get("principal"))
        except ResumeError as exc:
            return lv.Outcome(error=exc.reason, message=str(exc))
        return await self._settled()

    async def expire(self) -> lv.Outcome:
        raise AssertionError("left out: " + TEMPORAL_GAPS["expire"])


def _approval_of(vector: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Whether `answer` answers an approval (a call to a tool that needs one)."""
    needs = {t["name"]: t.get("needsApproval", False) for t in vector["tools"]}
    calls = {c["id"]: c["name"] for c in vector["calls"]}
    return bool(needs.get(calls.get(answer.get("to", ""), ""), False))


def _text(result: Any) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


def _refusal(result: Any) -> str | None:
    """The `ResumeError` reason an MCP error result stands for, when it is a refusal of the
    retry (the call still waits on its question) rather than the call's own result."""
    text = _text(result)
    for start, reason in (
        ("request ", "replayed"),
        ("answer ", "mismatch"),
        ("invalid InputResponses: $.inputResponses", "mismatch"),
        ("the run waits on no request", "not_pending"),
    ):
        if text.startswith(start) and (reason != "replayed" or "already answered" in text):
            return reason
    return None


def _outcome(run: RunResult) -> lv.Outcome:
    return lv.Outcome(
        status=run.status, results=list(run.results), waiting=list(zip(run.calls, run.requests, strict=True))
    )


async def play(
    host: Any, vector: dict[str, Any], name: str, clock: lv.Clock, script: lv.Script, **checks: Any
) -> None:
    """Run `vector`'s steps through `host`, checking each."""
    checker = lv.Checker(f"{name} ({host.name})")
    for index, step in enumerate(vector["steps"]):
        clock.at = step.get("at", clock.at)
        before = len(script.log)
        logged = len(host.decisions())
        if step["do"] == "run":
            got = await host.start(step)
        elif step["do"] == "resume":
            got = await host.resume(index, step)
        elif step["do"] == "revoke":
            got = await host.revoke(step)
        else:
            got = await host.expire()
        decisions = host.decisions()[logged:]
        policies = host.policies()
        checker.check(
            index, step.get("expect", {}), got, script.log[before:], decisions=decisions, policies=policies,
            **checks,
        )  # fmt: skip


@pytest.mark.parametrize("name", VECTORS)
async def test_toolkit(name: str, tmp_path: Path) -> None:
    vector = lv.load(name)
    if lv.definition_refused(vector):
        return
    clock = lv.Clock()
    script = lv.Script(vector, clock)
    host = ToolkitHost(vector, clock, script, spill=lambda: DirectorySpill(tmp_path / "kept"))
    await play(host, vector, name, clock, script)


@pytest.mark.parametrize("name", VECTORS)
async def test_store(name: str, new_store: Any) -> None:
    """Every vector on each store (the `backend` of `new_store`: SQLite, PostgreSQL)."""
    vector = lv.load(name)
    if lv.definition_refused(vector):
        return
    clock = lv.Clock()
    script = lv.Script(vector, clock)
    await play(StoreHost(vector, clock, script, new_store()), vector, name, clock, script)


@pytest.mark.parametrize("name", VECTORS)
async def test_mcp(name: str) -> None:
    vector = lv.load(name)
    if lv.definition_refused(vector):
        return
    clock = lv.Clock()
    script = lv.Script(vector, clock)
    host = McpHost(vector, clock, script)
    if (why := host.skip()) is not None:
        pytest.skip(why)
    async with host:
        await play(host, vector, name, clock, script, metadata=False, kinds=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", VECTORS)
async def test_temporal(name: str, temporal: str) -> None:
    from temporalio.client import Client

    vector = lv.load(name)
    if lv.definition_refused(vector):
        return
    clock = lv.Clock()
    script = lv.Script(vector, lambda: datetime.now(UTC))
    client = await Client.connect(temporal)
    host = TemporalHost(vector, client, script)
    if (why := host.skip()) is not None:
        pytest.skip(why)
    async with host.worker:
        await play(host, vector, name, clock, script)
        if host.run is not None and host.run.status == "done":
            final = await host.turns.result(host.turn_id)
            assert [r.to_wire() for r in final.results] == [r.to_wire() for r in host.run.results]


def test_the_vectors_are_valid_json_documents() -> None:
    for name in VECTORS:
        doc = json.loads((lv.LOOP / f"{name}.json").read_text(encoding="utf-8"))
        keys = {"description", "covers", "turn", "toolkit", "tools", "calls", "steps", "refused"}
        assert set(doc) <= keys, name
        assert all(s["do"] in ("run", "resume", "expire", "revoke") for s in doc["steps"]), name
        if "refused" in doc:  # a definition refused: nothing runs
            assert doc["calls"] == [] and doc["steps"] == [], name
        else:
            assert doc["steps"][0]["do"] == "run", name
