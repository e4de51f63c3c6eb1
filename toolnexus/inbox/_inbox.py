"""What the command and the page share: the requests a store's runs wait on, each with the call
it belongs to, and a person's answer to one of them, resumed through the store."""

from __future__ import annotations

import importlib
import inspect
import json
import os
import sys
from dataclasses import dataclass
from typing import Any, Literal

from .._engine import is_approval
from .._errors import ToolnexusError, WireError
from .._result import Answer, Request, RunResult, ToolCall, ToolResult
from .._toolkit import Toolkit
from ..store import RunStore

__all__ = ["Asks", "Inbox", "InboxError", "Outcome", "Waiting", "load_toolkit", "parse_json_object"]

#: What a waiting request asks of a person: to let a call run (`approval`, the toolkit's own,
#: asked before the handler runs: approve, with edited arguments or not, or decline), to supply
#: a call's result (`result`, a tool with no handler: respond with the result, or decline), or
#: to answer what a tool asked (`question`: respond with data, approve as asked, or decline).
Asks = Literal["approval", "result", "question"]


class InboxError(ToolnexusError):
    """The inbox cannot act as asked, and nothing was answered: no request by that id waits (or
    it waits in several runs and none was named), the action does not fit the request (edited
    arguments for a question, a supplied result for an approval), the input is not what the
    action needs (JSON that is not an object, a scope the wire does not know), or `--toolkit`
    names nothing that makes a `Toolkit`.

    It differs from `ResumeError`, which the run itself raises when it refuses an answer that
    was sent (already answered, altered in storage, bound to another principal): the inbox
    passes that one on as it is.
    """

    __module__ = "toolnexus.inbox"


@dataclass(frozen=True, slots=True)
class Waiting:
    """A request a stored run waits on, and the call waiting on it: the tool and the arguments
    it runs with when the answer lets it, as the (sealed) run holds them. `call` is None only
    for a run stored by an early version that kept no waiting calls."""

    run_id: int
    request: Request
    call: ToolCall | None
    #: Its place among the run's waiting requests: `(run_id, position)` is where the next page of
    #: `Inbox.waiting(after=...)` starts.
    position: int = 0

    @property
    def tool(self) -> str | None:
        return None if self.call is None else self.call.name

    @property
    def arguments(self) -> Any:
        return None if self.call is None else self.call.arguments

    @property
    def asks(self) -> Asks:
        """What the request asks of a person (see `Asks`)."""
        if self.call is not None and is_approval(self.call.name, self.request):
            return "approval"
        return "result" if self.request.kind == "result" else "question"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an answer did: the answer sent, the run as the store now holds it, and the answered
    call's result when it settled (None when the call waits again, on a question it asked
    after its approval)."""

    waiting: Waiting
    answer: Answer
    run: RunResult
    result: ToolResult | None

    @property
    def still_waiting(self) -> int:
        """How many requests the run still waits on."""
        if self.run.status != "pending":
            return 0
        return len(self.run.requests) or (1 if self.run.pending is not None else 0)

    @property
    def headline(self) -> str:
        """What was done, in one line of plain text (not yet made safe to show: see `shown`)."""
        w, answer = self.waiting, self.answer
        how = ""
        if not answer.ok:
            done = "declined" if answer.reason in (None, "declined") else str(answer.reason)
        elif w.asks == "approval":
            done = "approved"
            if isinstance(answer.data, dict) and "arguments" in answer.data:
                how = " with edited arguments"
        else:
            done = "supplied the result of" if w.asks == "result" else "answered"
        scope = f" (scope {answer.scope})" if answer.scope and answer.scope != "once" else ""
        left = self.still_waiting
        state = f"run {w.run_id} is done" if not left else f"run {w.run_id} waits on {left} more"
        return f"{done} {w.request.id} ({w.tool}){how}{scope}: {state}"


class Inbox:
    """The requests the pending runs of `store` wait on, and the answers a person gives them.

    Each answer goes through `store.resume(toolkit, run_id, answer, principal=..., session=...)`:
    the store hands the run to one resumer, and the toolkit's engine decides what the answer
    does (runs the call, with the edited arguments, or settles it as declined), so every rule of
    the loop is the engine's. `principal` is who decides (the decision log records it, and a run
    bound to a principal needs it); `session` is the host's session for the resumed turn.
    """

    def __init__(
        self,
        store: RunStore,
        toolkit: Toolkit | None = None,
        *,
        principal: str | None = None,
        session: str | None = None,
    ) -> None:
        self.store = store
        self.toolkit = toolkit
        self.principal = principal
        self.session = session

    def waiting(
        self,
        *,
        principal: str | None = None,
        tool: str | None = None,
        kind: str | None = None,
        limit: int | None = None,
        after: Waiting | tuple[int, int] | None = None,
    ) -> list[Waiting]:
        """The requests that wait, oldest run first, each run's in call order.

        Without arguments, every one. `principal`, `tool` and `kind` keep the requests of the runs
        saved with that principal (`store.save(run, principal=)`), of that tool or of that kind;
        `limit` returns at most that many, and `after` (the last `Waiting` of the page before, or
        its `(run_id, position)`) starts past it: the store's `pending` pages by keyset, so a page
        reads its own rows and its runs, wherever it starts."""
        start = (after.run_id, after.position) if isinstance(after, Waiting) else after
        rows = self.store.pending(principal=principal, tool=tool, kind=kind, limit=limit, after=start)
        runs: dict[int, list[Waiting]] = {}
        found: list[Waiting] = []
        for row in rows:
            if row.run_id not in runs:
                runs[row.run_id] = self._of_run(row.run_id)
            found += [w for w in runs[row.run_id] if w.position == row.position]
        return found

    def find(self, request_id: str, run_id: int | None = None) -> Waiting:
        """The request `request_id` waits on (in run `run_id`, when given: that run alone is read);
        `InboxError` when none does, or when it waits in several runs and `run_id` was not given."""
        if run_id is None:
            runs = sorted({p.run_id for p in self.store.pending() if p.request.id == request_id})
        else:
            runs = [run_id]
        where = "" if run_id is None else f" in run {run_id}"
        if len(runs) > 1:
            raise InboxError(
                f"request {request_id!r} waits in runs {', '.join(map(str, runs))}: say which run"
            )
        for waiting in self._of_run(runs[0]) if runs else []:
            if waiting.request.id == request_id:
                return waiting
        raise InboxError(f"no request {request_id!r} waits{where} (answered already, or never asked)")

    def _of_run(self, run_id: int) -> list[Waiting]:
        stored = self.store.get(run_id)
        if stored is None or stored.status != "pending" or stored.run is None:
            return []
        run = stored.run
        requests = run.requests or ([run.pending] if run.pending is not None else [])
        calls: list[ToolCall | None] = [*run.calls]
        calls += [None] * (len(requests) - len(calls))
        return [
            Waiting(run_id, request, call, position)
            for position, (request, call) in enumerate(zip(requests, calls, strict=False))
        ]

    async def approve(
        self, waiting: Waiting, *, arguments: dict[str, Any] | None = None, scope: str | None = None
    ) -> Outcome:
        """Approve, or answer as asked (`ok`). `arguments` are edited arguments for the call (an
        approval only: the call runs with them, checked against the tool's input schema);
        `scope` how far the decision reaches (`Answer.scope`)."""
        data: dict[str, Any] | None = None
        if arguments is not None:
            if waiting.asks != "approval":
                raise InboxError(
                    f"request {waiting.request.id!r} is a {waiting.asks} of {waiting.tool}, not the approval"
                    " asked before it runs: its answer cannot change the call's arguments"
                )
            if not isinstance(arguments, dict):
                raise InboxError(f"edited arguments must be a JSON object, not {_kind(arguments)}")
            data = {"arguments": arguments}
        return await self._answer(waiting, {"ok": True, "data": data, "scope": scope})

    async def decline(
        self,
        waiting: Waiting,
        *,
        reason: Literal["declined", "cancelled"] = "declined",
        message: str | None = None,
        scope: str | None = None,
    ) -> Outcome:
        """Refuse: the call does not run. `message` is for the model (the result reads
        `declined: <message>`); `scope` how far the refusal reaches (`Answer.scope`)."""
        if reason not in ("declined", "cancelled"):
            raise InboxError(f"a refusal's reason is 'declined' or 'cancelled', not {reason!r}")
        return await self._answer(
            waiting, {"ok": False, "reason": reason, "message": message or None, "scope": scope}
        )

    async def respond(self, waiting: Waiting, data: dict[str, Any]) -> Outcome:
        """Answer with `data`: what a question asked for, or (a request of kind `result`) the
        call's result, in a `ToolResult`'s wire form."""
        if waiting.asks == "approval":
            raise InboxError(
                f"request {waiting.request.id!r} asks to approve a call to {waiting.tool} before it runs:"
                " approve it (with edited arguments or not) or decline it"
            )
        if not isinstance(data, dict):
            raise InboxError(f"the data of an answer is a JSON object, not {_kind(data)}")
        if waiting.asks == "result":
            try:  # a mistyped result is refused here, before it settles the call for good
                ToolResult.from_wire(data)
            except WireError as exc:
                raise InboxError(
                    f"the result supplied for {waiting.tool} is not a ToolResult: {exc}"
                ) from None
        return await self._answer(waiting, {"ok": True, "data": data})

    async def _answer(self, waiting: Waiting, fields: dict[str, Any]) -> Outcome:
        if self.toolkit is None:
            raise InboxError("answering needs the toolkit that holds the tools (--toolkit module:attribute)")
        doc = {"id": waiting.request.id, **{k: v for k, v in fields.items() if v is not None}}
        try:
            answer = Answer.from_wire(doc)
        except WireError as exc:
            raise InboxError(str(exc)) from None
        run = await self.store.resume(
            self.toolkit, waiting.run_id, answer, principal=self.principal, session=self.session
        )
        result = None
        if waiting.call is not None:
            result = next((r.result for r in run.results if r.id == waiting.call.id), None)
        return Outcome(waiting, answer, run, result)


def load_toolkit(spec: str, store: RunStore) -> Toolkit:
    """The `Toolkit` that `spec` (`module:attribute`, the attribute may be dotted) names: a
    `Toolkit`, or a function that makes one, called with `store` when it takes an argument
    (so the toolkit can keep its policies and decision log there) and with none otherwise.
    The working directory is on the import path, as for `python -m`. `InboxError` says what
    is wrong."""
    module_name, colon, attribute = spec.partition(":")
    if not colon or not module_name or not attribute:
        raise InboxError(f"--toolkit wants module:attribute (such as myapp.tools:toolkit), got {spec!r}")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise InboxError(f"--toolkit {spec}: cannot import {module_name!r}: {exc}") from exc
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise InboxError(f"--toolkit {spec}: {module_name!r} has no attribute {attribute!r}") from None
    if isinstance(target, Toolkit):
        return target
    if not callable(target):
        raise InboxError(
            f"--toolkit {spec} is a {type(target).__name__}, not a Toolkit or a function making one"
        )
    try:
        takes_store = bool(inspect.signature(target).parameters)
    except (TypeError, ValueError):
        takes_store = False
    made = target(store) if takes_store else target()
    if not isinstance(made, Toolkit):
        raise InboxError(f"--toolkit {spec} returned a {type(made).__name__}, not a Toolkit")
    return made


def parse_json_object(text: str, what: str) -> dict[str, Any]:
    """`text` parsed as a JSON object; `InboxError` naming `what` and the place otherwise (NaN
    and Infinity are not JSON, so they are refused too)."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InboxError(
            f"{what}: not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except ValueError as exc:
        raise InboxError(f"{what}: not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise InboxError(f"{what}: a JSON object is needed, not {_kind(value)}")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return f"a {type(value).__name__}"
