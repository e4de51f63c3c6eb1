"""The engine's steps and their transitions, driving one call, and the rules' parts (see the
package's docstring for the rules)."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from toolnexus_wire import MAX_DEPTH, dumps
from toolnexus_wire import loop_data as texts  # the texts a model reads, and MESSAGE_LIMIT (idl/loop.json)
from toolnexus_wire.loop_data import MESSAGE_LIMIT

from .._result import Answer, Request, RunResult, ToolCall, ToolResult
from .._suspend import pending_of
from .._tool import Tool, checked_arguments, normalize_tool_name

#: Ids of the approval requests the toolkit asks before a tool runs (`needs_approval`).
APPROVAL_PREFIX = "apr-"
#: The keys an approving answer to the toolkit's approval may hold in its `data`: the edited
#: arguments. Any other refuses the answer (`unfit_answer`).
APPROVAL_DATA = ("arguments",)

# -- the steps ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Run:
    """Run `call`'s handler with its arguments: a first run (`answer` None), gated by the
    tool's approval when `gate`, or a retry with `answer` to `request`."""

    call: ToolCall
    answer: Answer | None = None
    request: Request | None = None
    gate: bool = False


@dataclass(frozen=True, slots=True)
class Ask:
    """`call` waits for an answer to `request`."""

    call: ToolCall
    request: Request

    @property
    def approval(self) -> bool:
        """Whether `request` is the toolkit's own approval, asked before the handler ran."""
        return is_approval(self.call.name, self.request)


@dataclass(frozen=True, slots=True)
class Settle:
    """`call` is over, with `result`."""

    call: ToolCall
    result: ToolResult


# -- the transitions ------------------------------------------------------------------------


def start(call: ToolCall) -> Run:
    """A call's first step: its first run, gated by the tool's approval."""
    return Run(call, gate=True)


def ran(step: Run, result: ToolResult) -> Ask | Settle:
    """What follows `step`'s `result`: its settling, or (a first run that suspended) a wait."""
    request = pending_of(result)
    if step.answer is not None:  # a retry: one per question
        if request is not None:
            assert step.request is not None
            return Settle(step.call, ToolResult.error(texts.unresolved(step.request.prompt)))
        return Settle(step.call, result)
    if request is None:
        return Settle(step.call, result)
    problem = unstorable(step.call, request)
    if problem is not None:
        return Settle(step.call, ToolResult.error(texts.cannot_wait(problem)))
    return Ask(step.call, request)


def answered(step: Ask, answer: Answer | None, now: datetime) -> Run | Settle:
    """What follows `answer` to `step`'s request (None: the time ran out before one came)."""
    call, request = step.call, step.request
    ended = _verdict(call.name, request, answer, now)
    if ended is not None:
        return Settle(call, ended)
    assert answer is not None  # `_verdict` ends every call without one
    if not step.approval:
        return Run(call, answer, request)
    data = answer.data
    if not isinstance(data, dict) or "arguments" not in data:
        return Run(call)  # approved as asked
    edited = data["arguments"]
    if _same_json(edited, call.arguments):
        return Run(call)  # the arguments asked, sent back (a form's default): approved as asked
    if not isinstance(edited, dict):
        what = "null" if edited is None else f"a {_json_kind(edited)}"
        message = (
            f"invalid arguments for {call.name}: $: the approval's edited arguments are {what}, not an object"
        )
        return Settle(call, ToolResult.error(message))
    return Run(ToolCall(call.id, call.name, edited))  # the handler checks them against its schema


def timed(step: Ask, now: datetime) -> Settle | None:
    """The settling of `step` when its request has expired by `now`, else None."""
    return lapsed(step, now) if expired(step.request, now) else None


def lapsed(step: Ask, now: datetime) -> Settle:
    """The settling of `step` whose time ran out (its request's, or its whole run's sealed
    expiry) before an answer came: as a refusal, with reason `expired`."""
    ended = _verdict(step.call.name, step.request, None, now)
    assert ended is not None
    return Settle(step.call, ended)


def gate(tool: Tool | None, call: ToolCall) -> Request | ToolResult | None:
    """The approval `call` needs before its handler runs (`Request`), None when it needs none,
    or the error result that settles it when its arguments cannot be asked about or stored.

    Arguments that fail the input schema are not asked about: the call runs ungated and its
    run refuses them, before its handler (a person never approves what cannot run).
    `needs_approval` may be a rule over the checked arguments; a rule that raises asks (an
    approval too many is the safe side).
    """
    if tool is None or tool.needs_approval is False:
        return None
    arguments = call.arguments
    rule = tool.needs_approval
    try:
        checked = checked_arguments(tool, arguments) if isinstance(arguments, dict) else None
    except Exception:  # the run fails the same way, before its handler: nothing to approve
        return None
    if checked is None or isinstance(checked, ToolResult):
        return None
    if rule is not True:
        try:
            if not rule(checked):
                return None
        except Exception:
            pass
    try:  # a copy that shares nothing with the call: a later edit of one leaves the other
        copied = _copy_json(arguments, MAX_DEPTH)
    except (TypeError, ValueError) as exc:
        return ToolResult.error(texts.cannot_wait_for_approval(str(exc)))
    request = Request(
        kind="approval",
        prompt=texts.approval_prompt(tool.name),
        id=APPROVAL_PREFIX + secrets.token_hex(16),
        data={"tool": tool.name, "arguments": copied},
    )
    problem = unstorable(call, request)
    if problem is not None:
        return ToolResult.error(texts.cannot_wait_for_approval(problem))
    return request


@dataclass(frozen=True, slots=True)
class Unmatched:
    """`match`'s verdict on a list with an answer that answers no waiting call: `replayed` when
    it, or another in the list with its id, already took the call it would answer (the host
    refuses the whole list: `_book.matched`)."""

    answer_id: str
    replayed: bool


def match(
    answers: Sequence[Answer],
    candidates: Callable[[str], Iterable[tuple[int, str]]],
    answered: Callable[[str, str], bool],
) -> list[int] | Unmatched:
    """Which waiting call each answer answers (their indices), or `Unmatched` for the whole
    list: an answer goes to the first call, in call order, that waits on its request id and
    has not taken an answer (two calls may ask under one fixed id: each takes one answer).

    `candidates(request_id)` lists `(index, call id)` of the calls waiting on that id, in call
    order; `answered(call_id, request_id)` says whether that call took an answer to it before.
    """
    taken: set[str] = set()
    seen: set[str] = set()
    picks: list[int] = []
    for answer in answers:
        replayed = answer.id in seen
        seen.add(answer.id)
        found = None
        for index, call_id in candidates(answer.id):
            if call_id in taken:
                continue
            if answered(call_id, answer.id):
                replayed = True
                continue
            found = index
            taken.add(call_id)
            break
        if found is None:
            return Unmatched(answer.id, replayed)
        picks.append(found)
    return picks


def unfit_answer(step: Ask, answer: Answer) -> str | None:
    """Why `answer` does not fit `step`, or None when it does: an approving answer to the
    toolkit's approval holds only `APPROVAL_DATA` (`arguments`) in its data, so a misspelled
    key (`args`) is not silently ignored while the call runs as first asked. The book refuses
    such an answer (`check_answer`: `mismatch`, naming the key) before it takes any answer of
    the list, so nothing is taken and the call still waits."""
    if not answer.ok or not isinstance(answer.data, dict) or not step.approval:
        return None
    extra = [key for key in answer.data if key not in APPROVAL_DATA]
    if not extra:
        return None
    return (
        f"answer {answer.id!r} approves the call to {step.call.name} with data "
        f"holding {', '.join(repr(k) for k in extra)}: an approval's data holds only "
        f"'arguments' (the edited arguments); nothing was taken, the call still waits"
    )


def approval_form(request: Request) -> dict[str, Any] | None:
    """The form a person answers the toolkit's approval `request` with, as the JSON Schema of
    an MCP elicitation's `requestedSchema` (an object of text, number and boolean fields), or
    None for any other request. Its one field, `arguments`, is the arguments the call runs
    with, as JSON text, and the asked ones are its default: a person edits them there, and an
    answer that leaves them as they are approves the call as asked."""
    data = request.data
    if not isinstance(data, dict) or not isinstance(data.get("tool"), str):
        return None
    if not is_approval(data["tool"], request):
        return None
    field = {
        "type": "string",
        "title": "Arguments",
        "description": f"The arguments {data['tool']} runs with, as JSON: edit them to run it with others.",
        "default": dumps(data["arguments"]),
    }
    return {"type": "object", "properties": {"arguments": field}}


# -- driving one call -------------------------------------------------------------------------


class Stop:
    """What `Effects.ask` returns to leave the call waiting (the host stores the run)."""

    def __repr__(self) -> str:
        return "STOP"


STOP = Stop()


class Effects(Protocol):
    """What a host supplies: running a handler, waiting for an answer, and the time."""

    async def run(self, step: Run) -> ToolResult: ...

    async def ask(self, step: Ask) -> Answer | Stop | None:
        """The answer (None: the request expired first), or `STOP` to leave the call waiting."""
        ...

    def now(self) -> datetime: ...

    def decide(self, step: Ask, answer: Answer | None, after: Run | Settle) -> None:
        """Told each decision made in the call (`decided`): a host logs it and keeps policies."""
        ...


async def drive(step: Run | Ask | Settle, effects: Effects) -> Ask | Settle:
    """Perform `step` and the steps after it until the call settles, or waits on an `Ask` for
    which `effects.ask` returns `STOP`."""
    while True:
        if isinstance(step, Settle):
            return step
        if isinstance(step, Run):
            step = ran(step, await effects.run(step))
            continue
        ended = timed(step, effects.now())
        if ended is not None:
            effects.decide(step, None, ended)
            return ended
        answer = await effects.ask(step)
        if isinstance(answer, Stop):
            return step
        after = answered(step, answer, effects.now())
        effects.decide(step, answer, after)
        step = after


def cancelled(call: ToolCall) -> ToolResult:
    """The result of a call the host cancelled while it ran: a refusal with reason `cancelled`
    (its idempotency key stays the call's: a run again takes effect once)."""
    marker = {"declined": {"call": call.id, "reason": "cancelled"}}
    return ToolResult.error(texts.cancelled(call.name)).with_metadata(marker)


# -- the rules' parts -----------------------------------------------------------------------


def is_approval(tool_name: str, request: Request) -> bool:
    """Whether `request` is the toolkit's own approval of a call of `tool_name` (`gate`)."""
    data = request.data
    return (
        request.kind == "approval"
        and request.id.startswith(APPROVAL_PREFIX)
        and isinstance(data, dict)
        and data.keys() == {"tool", "arguments"}
        and data["tool"] == normalize_tool_name(tool_name)
    )


def _cut(message: str) -> str:
    """`message`, cut at `MESSAGE_LIMIT` code points, `…` added."""
    return message if len(message) <= MESSAGE_LIMIT else message[:MESSAGE_LIMIT] + "…"


def _verdict(tool_name: str, request: Request, answer: Answer | None, now: datetime) -> ToolResult | None:
    """The result that ends a call suspended on `request`, given `answer` (None: none came in
    time), or None when the call runs on."""
    if answer is not None and answer.ok and not expired(request, now):
        return None
    reason = "expired" if answer is None or answer.ok else answer.reason or "declined"
    marker: dict[str, Any] = {"request": request.id, "reason": reason}
    message = answer.message if answer is not None and not answer.ok else None
    if message:  # the person's words, for the model
        message = _cut(message)
        marker["message"] = message
        return ToolResult.error(texts.declined_with_message(message)).with_metadata({"declined": marker})
    if is_approval(tool_name, request):
        tail = "" if reason == "declined" else f" ({reason})"
        output = texts.not_approved(tool=tool_name, tail=tail)
        return ToolResult.error(output).with_metadata({"declined": marker})
    return ToolResult.error(texts.declined_or_expired(request.prompt)).with_metadata({"declined": marker})


#: RFC 3339's date-time: what `expiresAt` holds when a tool means an expiry the loop can read.
_RFC3339 = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})"
)
_FRACTION = re.compile(r"(\.\d{6})\d+")


def parse_time(text: str) -> datetime:
    """An RFC 3339 date-time as an aware datetime; `ValueError` for anything else."""
    if not _RFC3339.fullmatch(text):
        raise ValueError(f"not an RFC 3339 date-time: {text!r}")
    text = _FRACTION.sub(r"\1", text.upper().replace("Z", "+00:00"))
    when = datetime.fromisoformat(text)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def expired(request: Request, now: datetime) -> bool:
    """Whether `request.expiresAt` has passed by `now`; an unreadable time counts as passed,
    and an empty one as no expiry (as the upstream ports read it)."""
    if not request.expires_at:
        return False
    try:
        return parse_time(request.expires_at) <= now
    except ValueError:
        return True


def unstorable(call: ToolCall, request: Request) -> str | None:
    """Why a pending run holding `call`, waiting on `request`, could not be written (nesting
    past the wire's limit, a value with no JSON form), or None when it can."""
    run = RunResult.model_construct(
        status="pending", results=[], pending=request, calls=[call], requests=[request], order=[call.id]
    )
    try:
        run.to_json()
    except (TypeError, ValueError, RecursionError) as exc:
        return str(exc) or type(exc).__name__
    return None


def _same_json(a: Any, b: Any) -> bool:
    """Whether two JSON values write the same JSON, keys in any order (a number as written:
    `1` and `1.0` differ, as they do in every language's JSON)."""
    try:
        return dumps(a, sort_keys=True) == dumps(b, sort_keys=True)
    except (TypeError, ValueError):
        return False


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    return type(value).__name__


def _copy_json(value: Any, depth: int) -> Any:
    """A copy of the JSON value `value` (dicts and lists copied, nothing shared), iteratively;
    `ValueError` past `depth` levels, `TypeError` for a value with no JSON form."""
    dumps(value, max_depth=depth)  # refuses what no run could hold, without recursing in Python
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while stack:
        item, into, key = stack.pop()
        if isinstance(item, dict):
            copy: Any = dict.fromkeys(item)  # the keys in their order; the values filled below
            stack.extend((v, copy, k) for k, v in item.items())
        elif isinstance(item, list):
            copy = [None] * len(item)
            stack.extend((v, copy, i) for i, v in enumerate(item))
        else:
            copy = item
        into[key] = copy
    return root[0]
