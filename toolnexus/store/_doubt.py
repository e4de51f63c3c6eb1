"""Calls in doubt: a call whose tool started under a claim, and whose outcome was not written when
the claim's lease ran out. The tool may have done its work (a payment made) or not; the store
cannot know, so it never runs such a call again by itself. A tool that declares `idempotent` in
its hints is not marked: running it again under the same idempotency key is safe, and a claim
whose holder died is given back as before.

Before the tools of a claim run, the claim's row records the calls about to run whose tools are
not idempotent, with the answers they run on (`runs.doubt`, JSON). The outcome's write clears it;
so does a release. A claimed row whose lease has run out with `doubt` set is in doubt: no one can
claim it, `pending()` leaves it out, and `in_doubt()` lists its calls.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._result import Answer, RunResult, ToolCall
from .._seal import idempotency_key, turn_digest

if TYPE_CHECKING:
    from .._toolkit import Toolkit
    from ._backend import Backend

#: What `runs.doubt` holds: the answers the claim took, the calls that started, and when.
_IN_DOUBT = (
    "SELECT id, lease, doubt FROM runs WHERE status = 'claimed' AND doubt IS NOT NULL AND lease_until < ?"
)


@dataclass(frozen=True, slots=True)
class InDoubt:
    """A call in doubt: the run it is of, the call (tool and arguments), the idempotency key it ran
    under, when it started (a Unix time) and the token of the lease that held it."""

    run_id: int
    call: ToolCall
    idempotency_key: str
    started_at: float
    lease: str

    @property
    def tool(self) -> str:
        return self.call.name

    @property
    def arguments(self) -> Any:
        return self.call.arguments


def started_calls(toolkit: Toolkit, run: RunResult, batch: list[Answer]) -> list[dict[str, Any]]:
    """The calls of `run` that `batch` answers and whose tools are not idempotent: what resuming
    is about to run, as `runs.doubt` keeps them."""
    ids = {a.id for a in batch}
    calls, requests = run.calls or [], run.requests or ([run.pending] if run.pending else [])
    digest = turn_digest(run.order or [], run.turn) if run.order else b""
    out = []
    for call, request in zip(calls, requests, strict=False):
        if request.id not in ids:
            continue
        tool = toolkit.get(call.name)
        hints = tool.hints if tool is not None else None
        if hints is not None and hints.idempotent:
            continue
        key = idempotency_key(digest, call.id) if digest else ""
        out.append({"call": call.to_wire(), "key": key})
    return out


class Doubts:
    """The calls in doubt of a store, and what a person does about them."""

    _db: Backend

    def _started(self, run_id: int, lease: str, batch: list[Answer], calls: list[dict[str, Any]]) -> None:
        """Record that `calls` start now under the claim `lease`, on the answers `batch`."""
        doubt = {"answers": [a.to_wire() for a in batch], "calls": calls, "started": time.time()}
        with self._db.transaction() as conn:
            conn.execute(
                "UPDATE runs SET doubt = ? WHERE id = ? AND status = 'claimed' AND lease = ?",
                (json.dumps(doubt, ensure_ascii=False), run_id, lease),
            )

    def in_doubt(self) -> list[InDoubt]:
        """Every call in doubt, oldest run first, each run's in call order."""
        rows = self._db.connection().execute(_IN_DOUBT + " ORDER BY id", (time.time(),)).fetchall()
        out = []
        for run_id, lease, text in rows:
            doubt = json.loads(text)
            for call in doubt["calls"]:
                out.append(
                    InDoubt(run_id, ToolCall.from_wire(call["call"]), call["key"], doubt["started"], lease)
                )
        return out
