"""Approval before a tool runs: `needs_approval` on `define_tool` and `@tool`, and every path
an approval can take through `Toolkit.run_calls` and `Toolkit.resume`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import SECRET
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
    pending_of,
    tool,
)
from toolnexus.adapters import anthropic_tool_result, openai_chat_messages

SCHEMA = {
    "type": "object",
    "properties": {"path": {"type": "string"}, "force": {"type": "boolean"}},
    "required": ["path"],
    "additionalProperties": False,
}


class Deleter:
    """A tool that needs approval; it records the arguments and answers of every run."""

    def __init__(self, needs_approval: Any = True, asks: bool = False) -> None:
        self.runs: list[tuple[dict[str, Any], Answer | None]] = []
        self.asks = asks
        self.tool = define_tool(
            "delete", "Delete a file", SCHEMA, self.handler, needs_approval=needs_approval
        )

    async def handler(self, args: dict[str, Any], ctx: ToolContext) -> Any:
        self.runs.append((args, ctx.answer))
        if self.asks and ctx.answer is None:
            return pending(Request("input", "Why?"))
        why = f" because {ctx.answer.data['why']}" if ctx.answer and ctx.answer.data else ""
        return f"deleted {args['path']}{why}"


def call(path: str = "a.txt", call_id: str = "c1") -> ToolCall:
    return ToolCall(call_id, "delete", {"path": path})


@pytest.fixture(params=[None, SECRET], ids=["unsealed", "sealed"])
def secret(request: pytest.FixtureRequest) -> bytes | None:
    return request.param  # type: ignore[no-any-return]


async def test_the_toolkit_asks_before_the_handler_runs(secret: bytes | None) -> None:
    d = Deleter()
    run = await Toolkit([d.tool], secret=secret).run_calls([call()])
    assert run.status == "pending" and d.runs == [], "the handler has not run"
    request = run.pending
    assert request is not None and request.kind == "approval" and request.id.startswith("apr-")
    assert request.data == {"tool": "delete", "arguments": {"path": "a.txt"}}
    assert run.requests == [request]


async def test_approve_runs_the_handler_once_with_the_calls_arguments(secret: bytes | None) -> None:
    d = Deleter()
    kit = Toolkit([d.tool], secret=secret)
    run = await kit.run_calls([call()])
    assert run.pending is not None
    done = await kit.resume(RunResult.from_json(run.to_json()), Answer(run.pending.id, True))
    assert done.status == "done" and done.results[0].result == ToolResult.ok("deleted a.txt")
    assert d.runs == [({"path": "a.txt"}, None)], "one run, as a first run: ctx.answer is None"


async def test_edited_arguments_are_what_the_handler_gets(secret: bytes | None) -> None:
    d = Deleter()
    kit = Toolkit([d.tool], secret=secret)
    run = await kit.run_calls([call("/etc/passwd")])
    assert run.pending is not None
    edited = Answer(run.pending.id, True, data={"arguments": {"path": "tmp/a.txt"}})
    done = await kit.resume(run, edited)
    assert done.results[0].result.output == "deleted tmp/a.txt"
    assert d.runs == [({"path": "tmp/a.txt"}, None)]


@pytest.mark.parametrize(
    ("arguments", "path"),
    [
        ({"path": 7}, "$.path"),
        ({"path": "a", "rm": "-rf"}, "$"),
        ({}, "$"),
    ],
    ids=["wrong-type", "extra-key", "missing"],
)
async def test_edited_arguments_that_fail_the_schema_are_an_error_and_the_handler_does_not_run(
    secret: bytes | None, arguments: Any, path: str
) -> None:
    d = Deleter()
    kit = Toolkit([d.tool], secret=secret)
    run = await kit.run_calls([call()])
    assert run.pending is not None
    done = await kit.resume(run, Answer(run.pending.id, True, data={"arguments": arguments}))
    result = done.results[0].result
    assert result.is_error and result.output.startswith(f"invalid arguments for delete: {path}")
    assert d.runs == []
    assert kit.error_count == 1, "a refused argument set is a tool failure, not a denial"
    assert result.metadata is None


@pytest.mark.parametrize(
    ("arguments", "what"),
    [(None, "null"), ("a.txt", "a string"), (["a.txt"], "a list"), (7, "a number")],
    ids=["null", "string", "list", "number"],
)
async def test_edited_arguments_that_are_not_an_object_never_run_the_handler(
    secret: bytes | None, arguments: Any, what: str
) -> None:
    # An approver that sends `null` for "unchanged" must not run the call with every parameter
    # at its default: the answer is invalid, and the loop says so without a tool run.
    d = Deleter()
    kit = Toolkit([d.tool], secret=secret)
    run = await kit.run_calls([call()])
    assert run.pending is not None
    done = await kit.resume(run, Answer(run.pending.id, True, data={"arguments": arguments}))
    result = done.results[0].result
    assert result == ToolResult.error(
        f"invalid arguments for delete: $: the approval's edited arguments are {what}, not an object"
    )
    assert d.runs == []
    assert kit.error_count == 0, "no tool ran: the loop itself refused the answer"


@pytest.mark.parametrize("reason", [None, "declined", "cancelled"])
async def test_decline_never_runs_the_handler_and_is_marked_for_the_host(
    secret: bytes | None, reason: str | None
) -> None:
    d = Deleter()
    kit = Toolkit([d.tool], secret=secret)
    run = await kit.run_calls([call()])
    assert run.pending is not None
    done = await kit.resume(run, Answer(run.pending.id, False, reason=reason))
    result = done.results[0].result
    assert result.is_error and result.output.startswith("declined")
    assert result.metadata == {"declined": {"request": run.pending.id, "reason": reason or "declined"}}
    assert d.runs == [] and kit.error_count == 0, "a denial is not a tool failure"
    # The model sees the text only; the marker is host-only.
    assert "metadata" not in str(anthropic_tool_result(done.results[0]))
    assert "request" not in str(openai_chat_messages(done.results[0]))
    assert ToolResult.from_json(result.to_json()).metadata == result.metadata, "it survives the wire"


async def test_a_function_decides_from_the_checked_arguments() -> None:
    seen: list[dict[str, Any]] = []

    def risky(args: dict[str, Any]) -> bool:
        seen.append(args)
        return bool(args.get("force"))

    d = Deleter(needs_approval=risky)
    kit = Toolkit([d.tool])
    run = await kit.run_calls(
        [ToolCall("c1", "delete", {"path": "a"}), ToolCall("c2", "delete", {"path": "b", "force": True})]
    )
    assert [r.id for r in run.results] == ["c1"] and run.results[0].result.output == "deleted a"
    assert [c.id for c in run.calls] == ["c2"] and run.pending is not None and run.pending.kind == "approval"
    assert {"path": "b", "force": True} in seen


async def test_a_function_that_raises_asks_and_arguments_that_fail_are_not_asked_about() -> None:
    def broken(args: dict[str, Any]) -> bool:
        raise RuntimeError("no idea")

    d = Deleter(needs_approval=broken)
    kit = Toolkit([d.tool])
    run = await kit.run_calls([call(), ToolCall("c2", "delete", {"path": 3})])
    assert [c.id for c in run.calls] == ["c1"], "the failing rule asks: the safe side"
    assert run.results[0].result.output.startswith("invalid arguments for delete: $.path")


async def test_wait_for_answers_approvals_in_place() -> None:
    d = Deleter()
    asked: list[Request] = []

    def approve(request: Request) -> Answer:
        asked.append(request)
        return Answer(request.id, True, data={"arguments": {"path": "b.txt"}})

    run = await Toolkit([d.tool]).run_calls([call()], wait_for=approve)
    assert run.status == "done" and run.results[0].result.output == "deleted b.txt"
    assert [r.kind for r in asked] == ["approval"]


async def test_a_handler_that_asks_after_its_approval_is_asked_in_turn(secret: bytes | None) -> None:
    d = Deleter(asks=True)
    kit = Toolkit([d.tool], secret=secret)
    run = await kit.run_calls([call("x")])
    assert run.pending is not None and run.pending.kind == "approval"
    edited = Answer(run.pending.id, True, data={"arguments": {"path": "y"}})
    second = await kit.resume(RunResult.from_json(run.to_json()), edited)
    assert second.status == "pending" and second.pending is not None and second.pending.kind == "input"
    assert second.calls[0].arguments == {"path": "y"}, "it waits with the approved arguments"
    done = await kit.resume(
        RunResult.from_json(second.to_json()), Answer(second.pending.id, True, data={"why": "asked"})
    )
    assert done.results[0].result.output == "deleted y because asked"
    assert [args for args, _ in d.runs] == [{"path": "y"}, {"path": "y"}]

    d2 = Deleter(asks=True)  # the same through wait_for: the approval, then the handler's question
    answers = iter([Answer("", True), Answer("", True, data={"why": "waited"})])

    def answer(request: Request) -> Answer:
        return next(answers).model_copy(update={"id": request.id})

    waited = await Toolkit([d2.tool]).run_calls([call("z")], wait_for=answer)
    assert waited.results[0].result.output == "deleted z because waited"


async def test_an_approval_cannot_be_edited_in_storage() -> None:
    d = Deleter()
    kit = Toolkit([d.tool], secret=SECRET)
    run = await kit.run_calls([call()])
    wire = run.to_wire()
    wire["calls"][0]["arguments"]["path"] = "/"
    with pytest.raises(ResumeError) as info:
        await kit.resume(RunResult.from_wire(wire), Answer(run.pending.id, True))  # type: ignore[union-attr]
    assert info.value.reason == "seal"
    assert d.runs == []


async def test_a_replayed_approval_is_refused() -> None:
    d = Deleter()
    kit = Toolkit([d.tool], secret=SECRET)
    run = await kit.run_calls([call()])
    assert run.pending is not None
    await kit.resume(run, Answer(run.pending.id, True))
    with pytest.raises(ResumeError) as info:
        await kit.resume(RunResult.from_json(run.to_json()), Answer(run.pending.id, True))
    assert info.value.reason == "replayed"
    assert len(d.runs) == 1


def test_needs_approval_on_the_decorator_and_its_type_is_checked() -> None:
    @tool(needs_approval=True)
    async def wipe(disk: str) -> str:
        """Wipe a disk."""
        return f"wiped {disk}"

    assert wipe.needs_approval is True
    assert define_tool("t", "", None, lambda a, c: "").needs_approval is False
    with pytest.raises(TypeError, match="needs_approval"):
        define_tool("t", "", None, lambda a, c: "", needs_approval="yes")  # type: ignore[arg-type]


async def test_a_decorated_tool_suspends_before_it_runs() -> None:
    ran: list[str] = []

    @tool(needs_approval=lambda args: args["disk"] != "scratch")
    async def wipe(disk: str) -> str:
        """Wipe a disk."""
        ran.append(disk)
        return f"wiped {disk}"

    kit = Toolkit([wipe])
    run = await kit.run_calls(
        [ToolCall("c1", "wipe", {"disk": "scratch"}), ToolCall("c2", "wipe", {"disk": "sda"})]
    )
    assert ran == ["scratch"] and run.pending is not None
    assert pending_of(pending(run.pending)) == run.pending
    assert run.pending.data == {"tool": "wipe", "arguments": {"disk": "sda"}}
    done = await kit.resume(run, Answer(run.pending.id, False))
    assert done.results[1].result.output == "declined: the call to wipe was not approved"
    assert ran == ["scratch"]
