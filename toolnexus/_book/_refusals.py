"""Refusals: every `ResumeError` a host raises is made here, so a refusal reads the same from
every host."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import get_args

from .._engine import Ask, Unmatched, match, unfit_answer
from .._errors import ResumeError, ResumeReason, UsageError
from .._result import Answer

# -- refusals: every `ResumeError` a host raises is made here -----------------------------------
#
# The Toolkit, the store, the MCP bridge and the Temporal host check what they keep (a run, a
# row, a workflow's state) and refuse with these, so a refusal reads the same from every host.
# `what` names the thing refused ("the run", "the turn", "run 7"): the only word that differs.


def refuse_replayed(request_id: str) -> ResumeError:
    """`replayed`: an answer to `request_id` was taken already."""
    return ResumeError("replayed", f"request {request_id!r} was already answered")


def refuse_answering(request_id: str) -> ResumeError:
    """`replayed`: another process is taking an answer to `request_id` now."""
    return ResumeError("replayed", f"request {request_id!r} is being answered by another process")


def refuse_idle(answer_id: str, what: str = "the run") -> ResumeError:
    """`not_pending`: nothing waits, so the answer `answer_id` has no use."""
    return ResumeError("not_pending", f"{what} waits on no request, so answer {answer_id!r} has no use")


def refuse_lapsed(request_id: str) -> ResumeError:
    """`not_pending`: the request expired (and settled its call) before it was answered."""
    return ResumeError("not_pending", f"request {request_id!r} expired before it was answered")


def refuse_over(what: str, answer_ids: Sequence[str]) -> ResumeError:
    """`not_pending`: `what` ("turn 't1' has finished", "run 7 is done") takes no answers."""
    if len(answer_ids) == 1:
        return ResumeError("not_pending", f"{what}, so answer {answer_ids[0]!r} has no use")
    return ResumeError("not_pending", f"{what}, so the answers {list(answer_ids)} have no use")


def refuse_missing(what: str) -> ResumeError:
    """`not_pending`: there is no such run or turn (`what`: "run 7", "turn 't1' to answer")."""
    return ResumeError("not_pending", f"there is no {what}")


def refuse_expired(what: str = "the run") -> ResumeError:
    """`expired`: the time the run (or turn) allowed for answers has passed."""
    if what == "the run":
        return ResumeError("expired", "the run has expired: its seal's time to resume has passed")
    return ResumeError("expired", f"{what} has expired: its time to answer has passed")


def refuse_principal(principal: str | None, what: str = "the run") -> ResumeError:
    """`principal`: `what` is bound to a principal, and `principal` is not it (or None)."""
    who = "no principal was given" if principal is None else "the principal given is not it"
    return ResumeError("principal", f"{what} is bound to a principal, and {who}")


def refuse_unreadable(what: str, why: object) -> ResumeError:
    """`mismatch`: the answers (or a cancellation) given are not what `what` names ("an Answer")."""
    return ResumeError("mismatch", f"not {what}: {why}")


def refuse_wait_for(answer_id: str, request_id: str) -> ResumeError:
    """`mismatch`: a host's `wait_for` answered another request than the one it was given."""
    return ResumeError("mismatch", f"wait_for answered {answer_id!r}, but the request is {request_id!r}")


def check_answer(step: Ask, answer: Answer) -> None:
    """`mismatch`: `answer` does not fit the request of `step` (`_engine.unfit_answer`: an
    approval's data holding a key other than `arguments`); nothing is taken."""
    why = unfit_answer(step, answer)
    if why is not None:
        raise ResumeError("mismatch", why)


def refuse_seal(why: str) -> ResumeError:
    """`seal`: the run is not one this toolkit sealed, or was altered since (`why`)."""
    return ResumeError("seal", why)


def refusal(reason: str, message: str) -> ResumeError | None:
    """A refusal carried across a process boundary (its reason and message), read back; None
    for a reason that is not one (`RESUME_REASONS`)."""
    for known in get_args(ResumeReason):
        if reason == known:
            return ResumeError(known, message)
    return None


def pick_waiting(
    answers: Sequence[Answer],
    waiting: Sequence[tuple[str, str]],
    answered: Collection[tuple[str, str]],
    lapsed: Callable[[str], bool],
    what: str = "the run",
) -> list[int]:
    """Which of the `waiting` (call id, request id) pairs, in call order, each answer answers
    (`_engine.match`), for a host that keeps its waiting calls itself (the Temporal workflow);
    refused whole: `replayed` for an answer already taken (its pair, or its request id, among
    the pairs `answered`), `not_pending` for one whose request `lapsed` first or when nothing
    waits, `mismatch` otherwise."""
    asked = {request_id for _, request_id in waiting}
    for answer in answers:  # a request that waits no more: answered, or settled by its expiry
        if answer.id in asked:
            continue
        if any(request_id == answer.id for _, request_id in answered):
            raise refuse_replayed(answer.id)
        if lapsed(answer.id):
            raise refuse_lapsed(answer.id)
    if not waiting:
        raise refuse_idle(answers[0].id, what)
    return matched(
        answers,
        lambda request_id: [(i, call_id) for i, (call_id, r) in enumerate(waiting) if r == request_id],
        lambda call_id, request_id: (call_id, request_id) in answered,
        waiting[0][1],
    )


def matched(
    answers: Sequence[Answer],
    candidates: Callable[[str], Iterable[tuple[int, str]]],
    answered: Callable[[str, str], bool],
    first: str,
) -> list[int]:
    """`_engine.match`'s picks, or its refusal raised: `replayed`, or `mismatch` naming `first`."""
    picks = match(answers, candidates, answered)
    if isinstance(picks, Unmatched):
        if picks.replayed:
            raise refuse_replayed(picks.answer_id)
        raise ResumeError(
            "mismatch",
            f"answer {picks.answer_id!r} does not answer the pending request {first!r}"
            " nor any other request the run waits on",
        )
    return picks


def answers_of(answers: Answer | Iterable[Answer]) -> list[Answer]:
    """`answers` as a non-empty list of `Answer`s; `ValueError`/`TypeError` otherwise."""
    batch = [answers] if isinstance(answers, Answer) else list(answers)
    if not batch:
        raise UsageError("resume needs at least one Answer")
    for answer in batch:
        if not isinstance(answer, Answer):
            raise TypeError(f"resume takes Answers, got {type(answer).__name__}")
    return batch
