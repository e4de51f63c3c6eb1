"""toolnexus tools as OpenAI Agents SDK tools (`pip install 'toolnexus-contract[openai-agents]'`).

`function_tool(tool)` is an Agents SDK `FunctionTool` running a toolnexus `Tool`: the same
name, description and input schema (`strict_json_schema` is the tool's `strict`), each call
checked and run by `Tool.call`. `function_tools(toolkit_or_tools)` makes one per tool.

- `needs_approval` is the SDK's own: `True`, or a rule over the checked arguments (asked, as
  `Toolkit` asks it, only when the arguments pass the tool's check), so the run stops with an
  approval interruption (`RunState.approve()` / `reject()`) before the tool runs.
- What the model reads: the output text; with parts, a list of `ToolOutputText`,
  `ToolOutputImage` (an image inline as a data URL, or its URL) and `ToolOutputFileContent`
  (a file inline as `file_data`, with its name, or its `file_url`); a part the Responses API
  does not take in a tool output (audio, a part with no content) is a text note naming it.
- What the host reads: the whole result survives in the output item's `custom_data`
  (`ToolCallOutputItem.custom_data["toolnexus_result"]`, the result's wire form), so
  `result_of(item)` gives back the `ToolResult`, its `structured_content`, parts and
  host-only `metadata` (which never reaches the model).
- An error result is its text, as the SDK sends any tool error to the model.
- A suspension: the SDK's run can stop only before a tool runs, not in it. With
  `wait_for(request) -> Answer` (sync or async) the call follows the loop's rule in place: an
  answer that is `ok` runs the tool again with `ctx.answer`, a second suspension is
  `unresolved: <prompt>`, a refusal `declined/expired: <prompt>`. Without it the model reads
  the suspension's prompt as an error, and `result_of` has the `Request` (`pending_of`).
- Arguments that are not a JSON object are an error the model reads
  (`invalid arguments for <name>: $: ...`), as `Tool.call` words any refused arguments.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeAlias

try:
    from agents import FunctionTool, RunContextWrapper, ToolCallOutputItem
    from agents.tool import (
        FunctionToolCustomDataContext,
        ToolOutputFileContent,
        ToolOutputImage,
        ToolOutputText,
    )
    from agents.tool_context import ToolContext as AgentsToolContext
except ImportError as exc:  # pragma: no cover - exercised by the packaging tests
    raise ImportError(
        "toolnexus.openai_agents needs the OpenAI Agents SDK: install the extra, "
        "pip install 'toolnexus-contract[openai-agents]'"
    ) from exc

from ._book import refuse_wait_for
from ._engine import STOP, Ask, Run, Settle, Stop, drive, gate
from ._errors import ResumeError
from ._result import Answer, ContentPart, Request, ToolCall, ToolResult
from ._suspend import pending
from ._tool import Tool, ToolContext
from .adapters._common import data_url, file_name, for_model, omitted, shape
from .adapters.calls import _arguments

if TYPE_CHECKING:
    from ._toolkit import Toolkit

__all__ = ["WaitFor", "function_tool", "function_tools", "result_of"]

#: Answers a suspension in place: sync or async, `Request -> Answer`.
WaitFor: TypeAlias = Callable[[Request], "Answer | Awaitable[Answer]"]
_KEY = "toolnexus_result"
_IMAGES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
ToolOutput: TypeAlias = "str | list[ToolOutputText | ToolOutputImage | ToolOutputFileContent]"


def _output(result: ToolResult) -> ToolOutput:
    """What the model reads for `result`: its text, or the text and each part (but a part whose
    annotations name the user as its only audience)."""
    if not any(for_model(part) for part in result.parts):
        return result.output
    items: list[ToolOutputText | ToolOutputImage | ToolOutputFileContent] = []
    if result.output:
        items.append(ToolOutputText(text=result.output))
    for i, part in enumerate(result.parts):
        if for_model(part):
            items.append(_part(part, i))
    return items


def _part(part: ContentPart, index: int) -> ToolOutputText | ToolOutputImage | ToolOutputFileContent:
    form = shape(part)
    if form == "text":
        return ToolOutputText(text=part.text)
    if part.kind == "image" and form in ("inline", "url") and (part.mime_type in _IMAGES or form == "url"):
        return ToolOutputImage(image_url=data_url(part) if form == "inline" else part.url)
    if part.kind == "file" and form == "inline":
        return ToolOutputFileContent(file_data=data_url(part), filename=file_name(part, index))
    if part.kind == "file" and form == "url":
        return ToolOutputFileContent(file_url=part.url, filename=part.name or None)
    return ToolOutputText(text=omitted(part, "the OpenAI Agents SDK"))


def result_of(item: ToolCallOutputItem) -> ToolResult | None:
    """The toolnexus `ToolResult` behind an output item of a tool from `function_tool`, or None
    for an item of another tool."""
    data = item.custom_data or {}
    return ToolResult.from_wire(data[_KEY]) if _KEY in data else None


def _approval_rule(
    tool: Tool,
) -> bool | Callable[[RunContextWrapper[Any], dict[str, Any], str], Awaitable[bool]]:
    """The SDK's `needs_approval` for `tool`: the loop's gate (`toolnexus._engine.gate`)."""
    if isinstance(tool.needs_approval, bool):
        return tool.needs_approval

    async def needs(ctx: RunContextWrapper[Any], arguments: dict[str, Any], call_id: str) -> bool:
        return gate(tool, ToolCall(call_id, tool.name, arguments)) is not None

    return needs


class _InPlace:
    """The bridge's effects for the loop's steps of one call: the tool run here, each question
    asked of `wait_for` (or left unasked: the model then reads its prompt), the wall clock."""

    def __init__(self, tool: Tool, wait_for: WaitFor | None, timeout: float | None) -> None:
        self._tool, self._wait_for, self._timeout = tool, wait_for, timeout

    async def run(self, step: Run) -> ToolResult:
        ctx = ToolContext(
            timeout=self._timeout, answer=step.answer, request=step.request, call_id=step.call.id
        )
        return await self._tool.call(step.call.arguments, ctx)

    async def ask(self, step: Ask) -> Answer | Stop | None:
        if self._wait_for is None:
            return STOP
        answer = self._wait_for(step.request)
        if inspect.isawaitable(answer):
            answer = await answer
        if not isinstance(answer, Answer):
            raise TypeError(f"wait_for returned {type(answer).__name__}, not an Answer")
        if answer.id != step.request.id:
            raise refuse_wait_for(answer.id, step.request.id)
        return answer

    def now(self) -> datetime:
        return datetime.now(UTC)

    def decide(self, step: Ask, answer: Answer | None, after: Run | Settle) -> None:
        """The Agents SDK keeps its own record of a run: no log here."""


def function_tool(
    tool: Tool, *, wait_for: WaitFor | None = None, timeout: float | None = None
) -> FunctionTool:
    """An Agents SDK `FunctionTool` that runs `tool`; see the module docstring. `timeout`
    (seconds) is each call's `ToolContext.timeout`."""
    if not isinstance(tool, Tool):
        raise TypeError(f"function_tool takes a toolnexus Tool, got {type(tool).__name__}")
    results: dict[str, ToolResult] = {}

    async def run(ctx: AgentsToolContext[Any], text: str) -> ToolOutput:
        arguments = _arguments(text, True)
        if isinstance(arguments, str):
            result = ToolResult.error(f"invalid arguments for {tool.name}: $: {arguments}")
        else:
            result = await _call(tool, arguments, ctx.tool_call_id, wait_for, timeout)
        results[ctx.tool_call_id] = result
        return _output(result)

    def custom_data(context: FunctionToolCustomDataContext) -> Mapping[str, Any] | None:
        result = results.pop(context.tool_context.tool_call_id, None)
        return None if result is None else {_KEY: result.to_wire()}

    return FunctionTool(
        name=tool.name,
        description=tool.description,
        params_json_schema=tool.input_schema,
        on_invoke_tool=run,
        strict_json_schema=tool.strict,
        needs_approval=_approval_rule(tool),
        custom_data_extractor=custom_data,
    )


async def _call(
    tool: Tool, arguments: dict[str, Any], call_id: str, wait_for: WaitFor | None, timeout: float | None
) -> ToolResult:
    """One call by the loop's steps (`toolnexus._engine.drive`), approved already by the SDK."""
    try:
        outcome = await drive(Run(ToolCall(call_id, tool.name, arguments)), _InPlace(tool, wait_for, timeout))
    except ResumeError as exc:
        return ToolResult.error(str(exc))
    return outcome.result if isinstance(outcome, Settle) else pending(outcome.request)


def function_tools(
    tools: Toolkit | Iterable[Tool], *, wait_for: WaitFor | None = None, timeout: float | None = None
) -> list[FunctionTool]:
    """A `FunctionTool` for each of `tools` (toolnexus `Tool`s, or a `Toolkit`'s tools)."""
    from ._toolkit import Toolkit

    listed = tools.tools() if isinstance(tools, Toolkit) else list(tools)
    return [function_tool(t, wait_for=wait_for, timeout=timeout) for t in listed]
