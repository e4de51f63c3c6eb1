"""What a store hands out and keeps, the same for every backend: a stored run, a claim, a waiting
request, a call in doubt, and the row a run is written as."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .. import _seal
from .._engine import parse_time
from .._errors import ToolnexusError, UsageError
from .._result import Answer, Request, RunResult

#: What a stored run is: waiting for an answer, held by one resumer, finished, refused for
#: good (its seal did not hold: it was altered in the database), or quarantined (it is not a
#: valid run at all).
Status = Literal["pending", "claimed", "done", "refused", "quarantined"]


@dataclass(frozen=True, slots=True)
class StoredRun:
    """A run as stored: its id, its status and the run itself (None for a quarantined row,
    whose `reason` says why it is not a valid run; `reason` also says why a run was refused)."""

    id: int
    status: Status
    run: RunResult | None
    reason: str | None = None
    #: The host's JSON context kept with the run (`save(run, context=...)`), or None.
    context: Any = None
    #: Whose run it is and in which session, as saved (`save(run, principal=, session=)`), or None.
    principal: str | None = None
    session: str | None = None


@dataclass(frozen=True, slots=True)
class Claim:
    """A run taken by `RunStore.claim`, the token of its lease (for `finish`), and the host's
    context kept with it (`save(run, context=...)`; None when there is none)."""

    run: RunResult
    lease: str
    context: Any = None


class PendingRequest:
    """A request a stored run waits on: answer it with `store.resume(toolkit, run_id, …)`.

    `store.pending()` reads the request's JSON and parses it on first use of `request`, so
    listing many costs little more than the query."""

    __slots__ = ("_request", "_text", "position", "run_id")

    def __init__(self, run_id: int, request: Request | str, position: int = 0) -> None:
        self.run_id = run_id
        self.position = position  #: its place among the run's waiting requests (for `after=`)
        self._request: Request | None = None
        self._text: str | None = None
        if isinstance(request, str):  # a listing's row: one check, as a page makes thousands
            self._text = request
        elif isinstance(request, Request):
            self._request = request

    @property
    def request(self) -> Request:
        if self._request is None:
            assert self._text is not None
            self._request = Request.from_json(self._text)
        return self._request

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PendingRequest):
            return NotImplemented
        return self.run_id == other.run_id and self.request == other.request

    def __hash__(self) -> int:
        return hash((self.run_id, self.request.id))

    def __repr__(self) -> str:
        return f"PendingRequest(run_id={self.run_id!r}, request={self.request!r})"


class OutcomeNotStored(ToolnexusError):
    """`store.resume` ran the answered calls, but could not store what came of it.

    The tools have run; nothing of it is lost: `run` is the resumed run, `answers` the answers it
    took, and `lease` the claim it holds (until it runs out). Store it with
    `store.finish(run_id, answers, run, lease=lease)` once the database takes writes again; if
    the claim has run out meanwhile, the calls are in doubt (`store.in_doubt()`), and `finish`
    refuses when another process took the run since.
    It differs from `ResumeError`, which is raised before anything runs.
    """

    __module__ = "toolnexus.store"

    def __init__(
        self, run_id: int, run: RunResult, answers: list[Answer], lease: str, cause: BaseException
    ) -> None:
        self.run_id = run_id
        self.run = run
        self.answers = answers
        self.lease = lease
        self.cause = cause
        super().__init__(
            f"run {run_id} was resumed and its tools ran, but the outcome was not stored: {cause}"
        )


#: A waiting request as stored: its id, its JSON, the tool of its call, and its kind.
Waiting = tuple[str, str, str, str]
#: A run as stored: its status, its JSON, when something of it expires first, and its waiting
#: requests, in call order.
Row = tuple[str, str, float | None, list[Waiting]]


def row_of(run: RunResult) -> Row:
    """What a run is stored as: its status, its JSON, when something of it expires first, and
    its waiting requests (id, JSON, the call's tool, kind), in call order."""
    if not isinstance(run, RunResult):
        raise TypeError(f"the store keeps RunResults, got {type(run).__name__}")
    body = run.to_json()
    if run.status != "pending" or run.pending is None:
        return "done", body, None, []
    requests: Sequence[Request] = run.requests or [run.pending]
    times = [t for t in map(_expiry, requests) if t is not None]
    stamp = _seal.parse_stamp(run.seal) if run.seal else None
    if stamp is not None and stamp.expires is not None:
        times.append(stamp.expires / 1000)
    calls = run.calls or []
    tools = [c.name for c in calls] + [""] * (len(requests) - len(calls))
    waiting = [(r.id, r.to_json(), tool, r.kind) for r, tool in zip(requests, tools, strict=False)]
    return "pending", body, min(times, default=None), waiting


def _expiry(request: Request) -> float | None:
    """`expiresAt` as a Unix time; None for no expiry, 0 when unreadable (it counts as passed)."""
    if not request.expires_at:
        return None
    try:
        return parse_time(request.expires_at).timestamp()
    except ValueError:
        return 0.0


#: The most a run's context may be: its JSON text, in UTF-8 bytes (1 MiB).
CONTEXT_LIMIT = 1 << 20


class _Unchanged:
    def __repr__(self) -> str:
        return "UNCHANGED"


#: `context=` left out: the context kept with the run stays as it is.
UNCHANGED: Any = _Unchanged()


def context_text(context: Any, where: str) -> str | None:
    """`context` as the store keeps it (its JSON text), None for `UNCHANGED`; a `UsageError` naming
    `where` when it is not JSON or larger than `CONTEXT_LIMIT`."""
    if context is UNCHANGED:
        return None
    try:
        text = json.dumps(context, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise UsageError(f"the context of {where} is not JSON: {exc}") from None
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > CONTEXT_LIMIT:
        raise UsageError(f"the context of {where} is {size} bytes of JSON, over the limit of {CONTEXT_LIMIT}")
    return text


def context_of(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def answers_of(answers: Answer | Iterable[Answer]) -> list[Answer]:
    return [answers] if isinstance(answers, Answer) else list(answers)


def waiting_rows(
    run_id: int, waiting: list[Waiting], principal: str | None = None, session: str | None = None
) -> list[tuple[Any, ...]]:
    """The `waiting` rows of a run: its requests, each with the run's principal and session."""
    return [(run_id, i, *row, principal, session) for i, row in enumerate(waiting)]
