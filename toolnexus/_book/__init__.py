"""The pending-run book: what a toolkit keeps of its turns and of the runs it hands out.

The engine (`_engine`) decides what happens to each call; the book turns a turn's outcomes
into the plain data a host stores, and back. It owns, behind four calls:

    turn = book.begin(calls, turn_id, expires_in, principal)   # ids checked, keys derived
    run = book.close(turn, outcomes)                           # done, or pending and sealed
    opening = book.open(run, answers, principal)               # checked, answers picked
    run = book.advance(opening, outcomes)                      # the answered calls settled

- **turn state**: the turn's call order, its id (`RunResult.turn`) and each call's
  `ToolContext.idempotency_key` (`Turn.idempotency_key`);
- **seal assembly**: version 4 (`_seal`): keyed sums over the results and the waiting calls,
  kept per turn (`_seal.Turn.terms`), so settling any one waiting call is one term less;
- **tracking**: a pending run it returned and that comes back as the same object is
  continued from what it kept (`Track`), without reading it again; any other run is read
  and checked in full once (`verify`: its seal by `_seal.check`, the order of its lists, its
  sealed expiry and principal);
- **replay memory**: the last 10,000 answers taken, by turn, call and request.

The package: `_runbook` (the book), `_track` (tracking and the check of a run from outside) and
`_refusals` (every refusal a host raises).
"""

from __future__ import annotations

from ._refusals import (
    answers_of,
    check_answer,
    matched,
    pick_waiting,
    refusal,
    refuse_answering,
    refuse_expired,
    refuse_idle,
    refuse_lapsed,
    refuse_missing,
    refuse_over,
    refuse_principal,
    refuse_replayed,
    refuse_seal,
    refuse_unreadable,
    refuse_wait_for,
)
from ._runbook import (
    Opening,
    Pick,
    RunBook,
)
from ._track import (
    Track,
    check_stamp,
    track_of,
    verify,
)

__all__ = [
    "Opening",
    "Pick",
    "RunBook",
    "Track",
    "answers_of",
    "check_answer",
    "check_stamp",
    "matched",
    "pick_waiting",
    "refusal",
    "refuse_answering",
    "refuse_expired",
    "refuse_idle",
    "refuse_lapsed",
    "refuse_missing",
    "refuse_over",
    "refuse_principal",
    "refuse_replayed",
    "refuse_seal",
    "refuse_unreadable",
    "refuse_wait_for",
    "track_of",
    "verify",
]
