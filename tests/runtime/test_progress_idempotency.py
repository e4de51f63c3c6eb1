"""ToolContext.progress reaches Toolkit(on_progress=...), and ToolContext.idempotency_key
stays the same for one call across its suspension, its retry and a resume elsewhere."""

from __future__ import annotations

import pytest

from toolnexus import (
    Answer,
    Request,
    ResumeError,
    RunResult,
    ToolCall,
    ToolContext,
    Toolkit,
    define_tool,
    pending,
)


def _progressing(args: dict, ctx: ToolContext) -> str:
    ctx.progress(0.0, "start")
    ctx.progress(0.5)
    ctx.progress(1, "done")
    return "ok"


async def test_progress_reaches_the_toolkit_hook_with_the_call_id() -> None:
    seen: list[tuple[str, float, str]] = []
    kit = Toolkit([define_tool("p", "reports", {}, _progressing)], on_progress=lambda *a: seen.append(a))
    run = await kit.run_calls([ToolCall("c1", "p", {}), ToolCall("c2", "p", {})])
    assert run.status == "done"
    assert sorted(seen) == sorted(
        [(c, f, m) for c in ("c1", "c2") for f, m in ((0.0, "start"), (0.5, ""), (1.0, "done"))]
    )


async def test_progress_without_a_listener_does_nothing_and_bad_fractions_are_refused() -> None:
    ToolContext().progress(0.3, "nobody listens")
    for bad in (-0.1, 1.5, float("nan"), True, "0.5"):
        with pytest.raises(ValueError, match="fraction from 0 to 1"):
            ToolContext().progress(bad)  # type: ignore[arg-type]


async def test_a_tool_reporting_a_bad_fraction_gets_an_error_result() -> None:
    def bad(args: dict, ctx: ToolContext) -> str:
        ctx.progress(7)
        return "never"

    kit = Toolkit([define_tool("b", "bad", {}, bad)], on_progress=lambda *a: None)
    run = await kit.run_calls([ToolCall("c", "b", {})])
    assert run.results[0].result.is_error
    assert "fraction from 0 to 1" in run.results[0].result.output


def _effects_tool(keys: list[str]):
    def handler(args: dict, ctx: ToolContext):
        keys.append(ctx.idempotency_key)
        if ctx.answer is None:
            return pending(Request(id="", kind="approval", prompt="go?"))
        return "done"

    return define_tool("charge", "charges once", {}, handler)


async def test_idempotency_key_is_stable_across_suspension_retry_and_a_stored_run() -> None:
    keys: list[str] = []
    secret = b"k" * 32
    kit = Toolkit([_effects_tool(keys)], secret=secret)
    calls = [ToolCall("a", "charge", {}), ToolCall("b", "charge", {})]
    run = await kit.run_calls(calls)
    stored = run.to_json()
    other = Toolkit([_effects_tool(keys)], secret=secret)  # another process: a fresh toolkit
    run2 = await other.resume(RunResult.from_json(stored), Answer(run.pending.id, True))
    run3 = await other.resume(run2, Answer(run2.pending.id, True))
    assert run3.status == "done"
    key_a, key_b = keys[0], keys[1]
    assert key_a != key_b and key_a.startswith("idk-") and len(key_a) == 36
    # first runs: a, b; then a's retry in the other toolkit, then b's retry
    assert keys[2:] == [key_a, key_b]


async def test_idempotency_key_differs_between_turns_and_is_empty_when_called_directly() -> None:
    keys: list[str] = []
    kit = Toolkit([_effects_tool(keys)])
    await kit.run_calls([ToolCall("a", "charge", {})])
    await kit.run_calls([ToolCall("a2", "charge", {})])
    assert keys[0] != keys[1]
    await _effects_tool(keys).call({})
    assert keys[2] == ""


async def test_two_turns_that_reuse_a_call_id_get_different_keys_and_answers() -> None:
    """Hosts that number calls per turn (`call_0`): the turn's own id keeps them apart."""
    keys: list[str] = []

    def asks(args: dict, ctx: ToolContext):
        keys.append(ctx.idempotency_key)
        if ctx.answer is None:
            return pending(Request(id="login", kind="approval", prompt="go?"))
        return "done"

    kit = Toolkit([define_tool("charge", "charges", {}, asks)], secret=b"k" * 32)
    first = await kit.run_calls([ToolCall("call_0", "charge", {})])
    second = await kit.run_calls([ToolCall("call_0", "charge", {})])
    assert first.turn and second.turn and first.turn != second.turn
    assert keys[0] != keys[1]
    assert (await kit.resume(first, Answer("login", True))).status == "done"
    # the second turn's call_0, asked under the same fixed id, is not a replay of the first's
    assert (await kit.resume(second, Answer("login", True))).status == "done"
    assert keys[2:] == [keys[0], keys[1]]


async def test_a_host_may_name_the_turn_and_the_seal_covers_it() -> None:
    kit = Toolkit([_effects_tool([])], secret=b"k" * 32)
    run = await kit.run_calls([ToolCall("a", "charge", {})], turn_id="conversation-7/turn-3")
    assert run.turn == "conversation-7/turn-3"
    forged = RunResult.from_json(run.to_json().replace("turn-3", "turn-4"))
    with pytest.raises(ResumeError) as refused:
        await Toolkit([_effects_tool([])], secret=b"k" * 32).resume(forged, Answer(run.pending.id, True))
    assert refused.value.reason == "seal"
    with pytest.raises(ValueError, match="turn_id must be a non-empty str"):
        await kit.run_calls([ToolCall("b", "charge", {})], turn_id="")
