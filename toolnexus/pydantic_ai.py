"""toolnexus tools as pydantic-ai tools (`pip install 'toolnexus-contract[pydantic-ai]'`).

`ToolnexusToolset(tools)` is a pydantic-ai `FunctionToolset` of toolnexus `Tool`s (or of a
`Toolkit`'s tools): the same names, descriptions and input schemas (`strict` kept), each
call checked and run by `Tool.call`. What a call returns becomes what pydantic-ai expects:

- a result is a `ToolReturn`: its `return_value` is the `structured_content` when there is
  one, else the `output`; with parts, a list of that and each part (`BinaryContent`, or an
  `ImageUrl`, `AudioUrl`, `VideoUrl` or `DocumentUrl`); its `metadata` is the result's
  (host-only in both);
- an error result is `ToolFailed(output)`: the model reads it and adapts, and no retry
  budget is spent;
- `needs_approval` is `ApprovalRequired`: the run ends with `DeferredToolRequests.approvals`;
- a suspension is `CallDeferred` (kind `question` for `input` and `question` requests, else
  `external`): the run ends with `DeferredToolRequests.calls`.

Either way, the call's `Request` rides in `DeferredToolRequests.metadata[tool_call_id]`
(`"toolnexus"`), so the deferred requests can be stored and answered in another process.
`requests(deferred)` lists them; `await toolset.results(deferred, answers)` turns the host's
`Answer`s into the `DeferredToolResults` for the next `agent.run(...)`, by the loop's rules:
an approval is `True` (or `ToolApproved` with the answer's edited `data["arguments"]`), a
refusal `ToolDenied("declined: the call to <name> was not approved")`; an answered
suspension runs the tool again with `ctx.answer` (here, in `results`), and its result is the
call's, a second suspension being `unresolved: <prompt>`; a refused one is
`declined/expired: <prompt>`. A deferred call without an answer is left for a later round.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

try:
    from pydantic_ai import RunContext
    from pydantic_ai.exceptions import ApprovalRequired, CallDeferred, ToolFailed
    from pydantic_ai.messages import (
        AudioUrl,
        BinaryContent,
        DocumentUrl,
        ImageUrl,
        ToolReturn,
        VideoUrl,
    )
    from pydantic_ai.tools import (
        DeferredToolRequests,
        DeferredToolResults,
        ToolApproved,
        ToolDenied,
    )
    from pydantic_ai.tools import (
        Tool as PydanticAITool,
    )
    from pydantic_ai.toolsets import FunctionToolset
except ImportError as exc:  # pragma: no cover - exercised by the packaging tests
    raise ImportError(
        "toolnexus.pydantic_ai needs pydantic-ai: install the extra, "
        "pip install 'toolnexus-contract[pydantic-ai]'"
    ) from exc

from ._engine import Ask, Run, Settle, answered, gate, ran
from ._errors import UsageError
from ._result import Answer, ContentPart, Request, ToolCall, ToolResult
from ._suspend import pending, pending_of
from ._tool import Tool, ToolContext
from .adapters._common import for_model

if TYPE_CHECKING:
    from ._toolkit import Toolkit

__all__ = ["ToolnexusToolset", "requests"]

_KEY = "toolnexus"
_QUESTIONS = frozenset({"input", "question"})


def _content(part: ContentPart) -> Any:
    """A part as pydantic-ai content: bytes inline, or the URL class of its kind."""
    if part.kind == "text":
        return part.text
    if part.data:
        return BinaryContent(part.raw(), media_type=part.mime_type, identifier=part.name or None)
    if part.url:
        classes = {"image": ImageUrl, "audio": AudioUrl}
        cls = classes.get(part.kind) or (VideoUrl if part.mime_type.startswith("video/") else DocumentUrl)
        return cls(part.url, media_type=part.mime_type or None, identifier=part.name or None)
    return f"[{part.kind} {part.name!r} with no content]" if part.name else f"[{part.kind} with no content]"


def _returned(result: ToolResult) -> ToolReturn[Any]:
    """What pydantic-ai gets for a finished result (an error is raised as `ToolFailed` instead)."""
    if result.is_error:
        raise ToolFailed(result.output)
    value: Any = result.output if result.structured_content is None else result.structured_content
    parts = [part for part in result.parts if for_model(part)]  # not those for the user alone
    if parts:
        value = [
            *([value] if result.output or result.structured_content is not None else []),
            *map(_content, parts),
        ]
    return ToolReturn(value, metadata=result.metadata)


def _now() -> datetime:
    return datetime.now(UTC)


def _call_of(part: Any, name: str) -> ToolCall:
    """The toolnexus call of a deferred pydantic-ai call part (its arguments as an object)."""
    args = part.args_as_dict() if hasattr(part, "args_as_dict") else part.args
    return ToolCall(part.tool_call_id, name, args if isinstance(args, dict) else {})


def requests(deferred: DeferredToolRequests) -> list[Request]:
    """The toolnexus `Request` of each deferred call that a toolnexus tool made, in the order
    pydantic-ai lists them (approvals, then calls)."""
    out = []
    for part in [*deferred.approvals, *deferred.calls]:
        found = (deferred.metadata.get(part.tool_call_id) or {}).get(_KEY)
        if isinstance(found, dict) and "request" in found:
            out.append(Request.from_wire(found["request"]))
    return out


class ToolnexusToolset(FunctionToolset[Any]):
    """A pydantic-ai toolset of toolnexus tools; see the module docstring for the mapping."""

    def __init__(self, tools: Toolkit | Iterable[Tool], *, timeout: float | None = None) -> None:
        """`tools`: toolnexus `Tool`s, or a `Toolkit` (its tools). `timeout` (seconds) is each
        call's `ToolContext.timeout`."""
        from ._toolkit import Toolkit

        listed = tools.tools() if isinstance(tools, Toolkit) else list(tools)
        for t in listed:
            if not isinstance(t, Tool):
                raise TypeError(f"ToolnexusToolset takes toolnexus Tools, got {type(t).__name__}")
        self._by_name = {t.name: t for t in listed}
        self._timeout = timeout
        super().__init__([self._pydantic_tool(t) for t in listed])

    def _pydantic_tool(self, tool: Tool) -> PydanticAITool[Any]:
        async def run(ctx: RunContext[Any], **arguments: Any) -> Any:
            return await self._run(tool, ctx, arguments)

        made = PydanticAITool.from_schema(
            run, name=tool.name, description=tool.description, json_schema=tool.input_schema, takes_ctx=True
        )
        made.strict = tool.strict or None
        return made

    async def _run(self, tool: Tool, ctx: RunContext[Any], arguments: dict[str, Any]) -> Any:
        if not ctx.tool_call_approved:  # the loop's gate (`toolnexus._engine.gate`)
            asked = gate(tool, ToolCall(ctx.tool_call_id or "", tool.name, arguments))
            if isinstance(asked, Request):
                raise ApprovalRequired({_KEY: {"request": asked.to_wire()}})
            if asked is not None:  # arguments that could not wait for an approval
                return _returned(asked)
        result = await tool.call(
            arguments, ToolContext(timeout=self._timeout, call_id=ctx.tool_call_id or "")
        )
        request = pending_of(result)
        if request is not None:
            deferred = {_KEY: {"request": request.to_wire(), "arguments": arguments}}
            if request.kind in _QUESTIONS:
                raise CallDeferred(deferred, kind="question")
            raise CallDeferred(deferred, kind="external")
        return _returned(result)

    def requests(self, deferred: DeferredToolRequests) -> list[Request]:
        """`requests(deferred)`: the toolnexus requests the run stopped on."""
        return requests(deferred)

    async def results(
        self, deferred: DeferredToolRequests, answers: Answer | Iterable[Answer]
    ) -> DeferredToolResults:
        """The `DeferredToolResults` for the `Answer`s to the deferred requests of toolnexus
        tools (by request id; an answer to no such request is a `ValueError`). Answered
        suspensions run their tool again here, with the answer in its context."""
        given = {a.id: a for a in ([answers] if isinstance(answers, Answer) else answers)}
        out = DeferredToolResults()
        known: set[str] = set()
        for part in [*deferred.approvals, *deferred.calls]:
            found = (deferred.metadata.get(part.tool_call_id) or {}).get(_KEY)
            if not isinstance(found, dict) or "request" not in found:
                continue
            request = Request.from_wire(found["request"])
            known.add(request.id)
            answer = given.get(request.id)
            if answer is None:
                continue
            if part in deferred.approvals:
                out.approvals[part.tool_call_id] = self._approval_result(
                    _call_of(part, part.tool_name), request, answer
                )
            else:
                out.calls[part.tool_call_id] = await self._answered(
                    part.tool_name, request, found, answer, part
                )
        unknown = sorted(given.keys() - known)
        if unknown:
            raise UsageError(f"no deferred toolnexus request has the id {unknown[0]!r}")
        return out

    @staticmethod
    def _approval_result(
        call: ToolCall, request: Request, answer: Answer
    ) -> bool | ToolApproved | ToolDenied:
        """The loop's verdict on an approval (`toolnexus._engine.answered`), as pydantic-ai takes it."""
        step = answered(Ask(call, request), answer, _now())
        if isinstance(step, Settle):  # refused, expired, or edited into arguments that are not an object
            return ToolDenied(step.result.output)
        if step.call.arguments is call.arguments:
            return True
        return ToolApproved(override_args=step.call.arguments)

    async def _answered(
        self, name: str, request: Request, found: dict[str, Any], answer: Answer, part: Any
    ) -> ToolReturn[Any] | ToolFailed:
        """An answered suspension, by the loop's steps: refused or expired, its verdict; else the
        tool runs again with the answer, and a second suspension is `unresolved`."""
        call = ToolCall(part.tool_call_id, name, found.get("arguments", {}))
        step = answered(Ask(call, request), answer, _now())
        if isinstance(step, Run):
            tool = self._by_name.get(name)
            if tool is None:
                return ToolFailed(f"Unknown tool: {name}")
            ctx = ToolContext(
                timeout=self._timeout, answer=step.answer, request=step.request, call_id=call.id
            )
            settled = ran(step, await tool.call(call.arguments, ctx))
            step = settled if isinstance(settled, Settle) else Settle(call, pending(settled.request))
        try:
            return _returned(step.result)
        except ToolFailed as failed:
            return failed
