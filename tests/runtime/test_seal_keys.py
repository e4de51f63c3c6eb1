"""Seal keys by id, rotation, expiry and a principal bound to a run."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from toolnexus import (
    Answer,
    Request,
    ResumeError,
    RunResult,
    ToolCall,
    ToolContext,
    Toolkit,
    ToolResult,
    define_tool,
    pending,
)

OLD = b"old-key-0123456789abcdef"
NEW = b"new-key-0123456789abcdef"


class Ask:
    def __init__(self) -> None:
        self.runs = 0
        self.tool = define_tool("ask", "", None, self.handler)

    async def handler(self, args: dict[str, Any], ctx: ToolContext) -> Any:
        self.runs += 1
        return "done" if ctx.answer else pending(Request("approval", "Go?"))


CALLS = [ToolCall("c1", "ask", {}), ToolCall("c2", "ask", {})]


async def stored_run(kit: Toolkit, **options: Any) -> RunResult:
    run = await kit.run_calls(CALLS, **options)
    return RunResult.from_json(run.to_json())


async def test_the_seal_names_its_key_and_secret_is_the_default_key() -> None:
    run = await stored_run(Toolkit([Ask().tool], secrets={"k2026": NEW}))
    assert run.seal is not None and run.seal.startswith("v4.hmac-sha256.k2026..")
    single = await stored_run(Toolkit([Ask().tool], secret=NEW))
    assert single.seal is not None and single.seal.startswith("v4.hmac-sha256.default..")
    same = Toolkit([Ask().tool], secrets={"default": NEW})
    assert (await same.resume(single, Answer(single.requests[1].id, True))).status == "pending"


async def test_rotation_old_runs_resume_until_their_key_is_removed() -> None:
    old_kit = Toolkit([Ask().tool], secrets={"k1": OLD})
    run = await stored_run(old_kit)
    assert run.pending is not None

    rotated = Toolkit([Ask().tool], secrets={"k1": OLD, "k2": NEW}, active_key="k2")
    fresh = await stored_run(rotated)
    assert fresh.seal is not None and ".k2." in fresh.seal, "new runs are sealed under the active key"
    step = await rotated.resume(run, Answer(run.requests[1].id, True))
    assert step.seal is not None and step.seal.startswith("v4.hmac-sha256.k2."), "resealed under the new key"

    retired = Toolkit([Ask().tool], secrets={"k2": NEW})
    later = await retired.resume(RunResult.from_json(step.to_json()), Answer(run.requests[0].id, True))
    assert later.status == "done"
    with pytest.raises(ResumeError, match="key 'k1'") as info:
        await retired.resume(RunResult.from_json(run.to_json()), Answer(run.pending.id, True))
    assert info.value.reason == "seal"


async def test_a_key_id_swapped_in_the_seal_is_refused() -> None:
    kit = Toolkit([Ask().tool], secrets={"k1": OLD, "k2": NEW}, active_key="k1")
    run = await stored_run(kit)
    assert run.seal is not None and run.pending is not None
    run.seal = run.seal.replace(".k1.", ".k2.")
    with pytest.raises(ResumeError) as info:
        await kit.resume(run, Answer(run.pending.id, True))
    assert info.value.reason == "seal"


async def test_expiry_is_sealed_and_checked() -> None:
    ask = Ask()
    kit = Toolkit([ask.tool], secret=NEW)
    run = await kit.run_calls(CALLS, expires_in=3600)
    assert run.seal is not None and run.pending is not None
    expires = int(run.seal.split(".")[3])
    assert abs(expires - (datetime.now(UTC).timestamp() + 3600) * 1000) < 60_000
    step = await kit.resume(RunResult.from_json(run.to_json()), Answer(run.requests[1].id, True))
    assert step.seal is not None and step.seal.split(".")[3] == str(expires), "the expiry is kept"

    tampered = RunResult.from_json(step.to_json())
    assert tampered.seal is not None
    parts = tampered.seal.split(".")
    parts[3] = str(expires + 10**9)
    tampered.seal = ".".join(parts)
    with pytest.raises(ResumeError) as info:
        await kit.resume(tampered, Answer(run.pending.id, True))
    assert info.value.reason == "seal", "the expiry is under the MAC"


async def test_an_expired_run_is_refused_stored_or_in_memory() -> None:
    ask = Ask()
    now = [datetime.now(UTC)]
    kit = Toolkit([ask.tool], secret=NEW, clock=lambda: now[0])
    run = await kit.run_calls(CALLS, expires_in=60)
    assert run.pending is not None
    now[0] += timedelta(seconds=61)
    for given in (run, RunResult.from_json(run.to_json())):
        with pytest.raises(ResumeError, match="expired") as info:
            await kit.resume(given, Answer(run.pending.id, True))
        assert info.value.reason == "expired"
    assert ask.runs == 2, "nothing ran again"


async def test_a_run_bound_to_a_principal_needs_that_principal() -> None:
    ask = Ask()
    kit = Toolkit([ask.tool], secret=NEW)
    run = await kit.run_calls(CALLS, principal="tenant-a")
    assert run.pending is not None
    assert run.seal is not None and "tenant-a" not in run.seal, "the principal is not written out"
    for given in (run, RunResult.from_json(run.to_json())):
        for who in ("tenant-b", None):
            with pytest.raises(ResumeError) as info:
                await kit.resume(given, Answer(run.pending.id, True), principal=who)
            assert info.value.reason == "principal"
    step = await kit.resume(
        RunResult.from_json(run.to_json()), Answer(run.pending.id, True), principal="tenant-a"
    )
    assert step.status == "pending" and step.pending is not None
    with pytest.raises(ResumeError) as info:  # still bound after a resume
        await kit.resume(step, Answer(step.pending.id, True), principal="tenant-b")
    assert info.value.reason == "principal"
    rotated = Toolkit([Ask().tool], secrets={"default": NEW, "b": OLD}, active_key="b")
    moved = await rotated.resume(
        RunResult.from_json(step.to_json()), Answer(step.pending.id, True), principal="tenant-a"
    )
    assert moved.status == "done"


async def test_a_bound_runs_principal_tag_cannot_be_swapped() -> None:
    kit = Toolkit([Ask().tool], secret=NEW)
    mine = await stored_run(kit, principal="tenant-a")
    theirs = await stored_run(kit, principal="tenant-b")
    assert mine.seal is not None and theirs.seal is not None and mine.pending is not None
    parts = mine.seal.split(".")
    parts[4] = theirs.seal.split(".")[4]
    mine.seal = ".".join(parts)
    with pytest.raises(ResumeError) as info:
        await kit.resume(mine, Answer(mine.pending.id, True), principal="tenant-b")
    assert info.value.reason == "seal"


async def test_an_unbound_run_resumes_for_anyone() -> None:
    kit = Toolkit([Ask().tool], secret=NEW)
    run = await stored_run(kit)
    assert run.pending is not None
    step = await kit.resume(run, Answer(run.pending.id, True), principal="whoever")
    assert step.status == "pending"


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"secret": NEW, "secrets": {"a": NEW}}, ValueError, "not both"),
        ({"secrets": {}}, ValueError, "non-empty"),
        ({"secrets": {"a": b"short"}}, ValueError, "at least 16"),
        ({"secrets": {"a": "a string, not bytes"}}, ValueError, "must be bytes"),
        ({"secrets": {"a.b": NEW}}, ValueError, "key id"),
        ({"secrets": {"": NEW}}, ValueError, "key id"),
        ({"secrets": {"a": NEW, "b": OLD}}, ValueError, "active_key must name"),
        ({"secrets": {"a": NEW}, "active_key": "z"}, ValueError, "not one of"),
        ({"active_key": "a"}, ValueError, "no secrets"),
        ({"secret": NEW, "active_key": "default"}, ValueError, "one key"),
        ({"secret": b"short"}, ValueError, "at least 16"),
    ],
)
def test_bad_key_arguments_are_refused(options: dict[str, Any], error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        Toolkit([], **options)


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"expires_in": 0}, ValueError, "positive"),
        ({"expires_in": -1}, ValueError, "positive"),
        ({"expires_in": float("inf")}, ValueError, "positive"),
        ({"expires_in": True}, ValueError, "positive"),
        ({"expires_in": "60"}, ValueError, "positive"),
        ({"expires_in": 1e30}, ValueError, "at most 100 years"),
        ({"principal": 7}, TypeError, "principal"),
    ],
)
async def test_bad_run_options_are_refused(
    options: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        await Toolkit([Ask().tool], secret=NEW).run_calls(CALLS, **options)


async def test_expiry_and_principal_need_a_key() -> None:
    for options in ({"expires_in": 60}, {"principal": "a"}):
        with pytest.raises(ValueError, match="need a toolkit with a key"):
            await Toolkit([Ask().tool]).run_calls(CALLS, **options)
    kit = Toolkit([Ask().tool], secret=NEW)
    run = await kit.run_calls(CALLS)
    assert run.pending is not None
    with pytest.raises(TypeError, match="principal"):
        await kit.resume(run, Answer(run.pending.id, True), principal=b"bytes")  # type: ignore[arg-type]


# A seal of version 1, 2 or 3 as those versions wrote them (their MACs are never reached: the
# version alone refuses the run).
RETIRED = {
    1: "v1.hmac-sha256.q5mN0Ww1oWZf3f6m1bO4x6gE8VjY2n2pR9oXgkAqV0s",
    2: "v2.hmac-sha256.q5mN0Ww1oWZf3f6m1bO4x6gE8VjY2n2pR9oXgkAqV0s",
    3: "v3.hmac-sha256.default...q5mN0Ww1oWZf3f6m1bO4x6gE8VjY2n2pR9oXgkAqV0s",
}


@pytest.mark.parametrize("version", [1, 2, 3])
async def test_a_run_sealed_by_a_retired_version_is_refused_and_says_which(version: int) -> None:
    """Seal versions 1 to 3 were written only by unreleased versions of this project (no package
    that wrote them was published): a run carrying one is refused as `seal`, naming the version,
    in every language, and nothing runs."""
    ask = Ask()
    kit = Toolkit([ask.tool], secrets={"new": NEW, "old": OLD}, active_key="new")
    run = await kit.run_calls(CALLS)
    assert run.pending is not None and ask.runs == 2
    old = RunResult.from_wire({**run.to_wire(), "seal": RETIRED[version]})
    with pytest.raises(ResumeError, match=f"seal version {version}, which no released package wrote") as info:
        await kit.resume(old, Answer(run.pending.id, True))
    assert info.value.reason == "seal" and ask.runs == 2, "nothing ran"
    with pytest.raises(ResumeError) as info:
        await kit.expire(old)
    assert info.value.reason == "seal"


async def test_an_integer_no_double_holds_cannot_be_sealed_and_says_so() -> None:
    """RFC 8785 writes numbers as doubles: an integer beyond ±2**53 has no exact canonical form,
    so a pending run that would hold one keeps, in its place, an error saying why."""
    big = 2**64

    async def reports(args: dict[str, Any], ctx: ToolContext) -> Any:
        return ToolResult.ok("counted").with_metadata({"count": big})

    async def asks(args: dict[str, Any], ctx: ToolContext) -> Any:
        return pending(Request("input", "which?")) if ctx.answer is None else "ok"

    kit = Toolkit([define_tool("count", "", None, reports), define_tool("ask", "", None, asks)], secret=NEW)
    run = await kit.run_calls([ToolCall("c1", "count", {}), ToolCall("c2", "ask", {"n": big})])
    assert run.status == "done", "the asking call's arguments cannot be sealed either"
    [counted, asked] = [r.result for r in run.results]
    assert counted.metadata == {"count": big}, "a run that is done is not sealed: kept as it is"
    assert asked.output.startswith(
        "the call cannot wait for an answer: its arguments or request cannot be sealed"
    )
    assert "2**53" in asked.output
    run = await kit.run_calls([ToolCall("c1", "count", {}), ToolCall("c2", "ask", {})])
    assert run.status == "pending" and run.seal is not None
    kept = run.results[0].result
    assert kept.is_error and kept.output.startswith(
        "the tool's metadata cannot be stored, so it is not kept: "
    )
    assert "2**53" in kept.output
    assert run.pending is not None
    done = await kit.resume(RunResult.from_json(run.to_json()), Answer(run.pending.id, True))
    assert done.status == "done"
