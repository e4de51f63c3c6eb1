"""Where a host keeps the decisions that outlive a turn, and the log of every decision.

The rules (which policy decides a call, what an answer's scope makes, what a decision records)
are the engine's (`_engine`: `Policy`, `applicable`, `policy_of`, `Decision`); this module only
keeps them. `Toolkit(policy_store=..., decision_log=...)` takes any object with these methods:
`PolicyMemory` (in process, the default) or `SqliteRunStore` (durable, shared by the host's
processes, its log hash-chained).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Protocol

from ._engine import Ask, Decision, Policy, Run, Settle, decided, gated, policy_of
from ._errors import UsageError
from ._result import Answer, Request, ToolCall, ToolResult
from ._tool import Tool

__all__ = ["DecisionLog", "Decisions", "PolicyMemory", "PolicyStore"]


class PolicyStore(Protocol):
    """Keeps policies (`Policy`), which the toolkit consults before asking an approval."""

    def policies(self, tool: str | None = None) -> list[Policy]:
        """The policies kept (of `tool`, when given), expired ones too, oldest first."""
        ...

    def keep(self, policy: Policy) -> None: ...

    def revoke(self, policy_id: str) -> bool:
        """Remove a policy; False when there is none by that id."""
        ...


class DecisionLog(Protocol):
    """Takes every decision the loop makes, with who made it and when. A log may also have
    `record_many(decisions, *, principal, at)`, taking several decisions at once or none (the
    toolkit uses it for the decisions of one resume)."""

    def record(self, decision: Decision, *, principal: str | None, at: datetime) -> None: ...


class PolicyMemory:
    """Policies kept in this process (lost when it ends; `SqliteRunStore` keeps them durably)."""

    def __init__(self, policies: Iterable[Policy] = ()) -> None:
        self._lock = threading.Lock()
        self._by_id = {p.id: p for p in policies}

    def policies(self, tool: str | None = None) -> list[Policy]:
        with self._lock:
            return [p for p in self._by_id.values() if tool is None or p.tool == tool]

    def keep(self, policy: Policy) -> None:
        with self._lock:
            self._by_id[policy.id] = policy

    def revoke(self, policy_id: str) -> bool:
        with self._lock:
            return self._by_id.pop(policy_id, None) is not None


class Decisions:
    """A toolkit's decisions: its policy store and decision log, and the engine's rules applied
    to them (`gated` before a first run, `decided` and `policy_of` after an answer)."""

    __slots__ = ("_lifetime", "_log", "store")

    def __init__(self, store: PolicyStore | None, log: DecisionLog | None, lifetime: float) -> None:
        if not lifetime > 0:
            raise UsageError(f"policy_lifetime must be a positive number of seconds, got {lifetime!r}")
        self.store: PolicyStore = store if store is not None else PolicyMemory()
        self._log = log
        self._lifetime = timedelta(seconds=lifetime)

    def gate(
        self, tool: Tool | None, call: ToolCall, session: str | None, principal: str | None, now: datetime
    ) -> Request | ToolResult | None:
        """`_engine.gated` with the kept policies; a policy's decision is logged. The store is
        read only for a call that asks an approval (most calls ask none)."""
        asked, decision = gated(
            tool, call, self._kept(call.name), session=session, principal=principal, now=now
        )
        if decision is not None:
            self.record(decision, principal, now)
        return asked

    def _kept(self, tool: str) -> Iterator[Policy]:
        yield from self.store.policies(tool)

    def decide(
        self,
        ask: Ask,
        answer: Answer | None,
        step: Run | Settle,
        session: str | None,
        principal: str | None,
        now: datetime,
    ) -> None:
        """Log `answer`'s decision, and keep the policy it makes, if it makes one."""
        self.decide_all([(ask, answer, step)], session, principal, now)

    def decide_all(
        self,
        taken: Sequence[tuple[Ask, Answer | None, Run | Settle]],
        session: str | None,
        principal: str | None,
        now: datetime,
    ) -> None:
        """Keep the policies and log the decisions of `taken` (each call's ask, its answer, the
        step it led to) as one unit: all of them, or (when a write fails, which is raised) none.

        When the policy store and the log are one store's (SQLite or PostgreSQL), the unit is one transaction.
        Otherwise the policies are kept first and the log written after, with every entry in one
        `record_many` when the log has one; a write that fails revokes the policies kept in the
        unit, so the log never holds a decision whose policy was not kept. (A log without
        `record_many` that fails after taking some of several decisions keeps those.)"""
        decisions = [decided(ask, answer, step) for ask, answer, step in taken]
        made = [
            policy
            for ask, answer, _ in taken
            if answer is not None
            and (
                policy := policy_of(
                    ask, answer, session=session, principal=principal, now=now, lifetime=self._lifetime
                )
            )
            is not None
        ]
        unit = getattr(self.store, "_unit", None)
        together = unit is not None and unit is getattr(self._log, "_unit", None)
        kept: list[Policy] = []
        try:
            with unit.transaction() if unit is not None and together else contextlib.nullcontext():
                for policy in made:
                    self.store.keep(policy)
                    kept.append(policy)
                self.record_all(decisions, principal, now)
        except BaseException:
            if not together:
                for policy in kept:
                    with contextlib.suppress(Exception):
                        self.store.revoke(policy.id)
            raise

    def keep(
        self,
        ask: Ask,
        answer: Answer,
        session: str | None,
        principal: str | None,
        now: datetime,
        *,
        policy_id: str | None = None,
    ) -> Policy | None:
        """Keep the policy `answer` makes (`_engine.policy_of`), if it makes one, and return it.
        `policy_id` names it instead of a random id: a host that may keep it twice (a retried
        Temporal activity) keeps it once."""
        policy = policy_of(
            ask, answer, session=session, principal=principal, now=now, lifetime=self._lifetime
        )
        if policy is None:
            return None
        if policy_id is not None:
            policy = replace(policy, id=policy_id)
        self.store.keep(policy)
        return policy

    def record(self, decision: Decision, principal: str | None, now: datetime) -> None:
        if self._log is not None:
            self._log.record(decision, principal=principal, at=now)

    def record_all(self, decisions: Sequence[Decision], principal: str | None, now: datetime) -> None:
        """Log `decisions`, in one `record_many` when the log has one."""
        if self._log is None or not decisions:
            return
        many = getattr(self._log, "record_many", None)
        if many is not None:
            many(decisions, principal=principal, at=now)
            return
        for decision in decisions:
            self._log.record(decision, principal=principal, at=now)
