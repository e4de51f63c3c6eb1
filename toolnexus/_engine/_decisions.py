"""Decisions: what a person decided about a waiting call (`Decision`, what a host logs), and
the decisions that reach beyond one call (an answer's scope, `Policy`): rules 9 and 10 of the
engine (see the package's docstring)."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal, cast

from toolnexus_wire import loop_data as texts  # the texts a model reads, and MESSAGE_LIMIT (idl/loop.json)

from .._result import Answer, Request, ToolCall, ToolResult
from .._tool import Tool
from ._steps import Ask, Run, Settle, _cut, gate, parse_time

# -- decisions: what a person decided, and decisions that reach beyond one call -------------------

#: How far an answer's decision reaches (`Answer.scope`); `session` carries the host's id.
ScopeKind = Literal["once", "turn", "session", "principal", "tool"]
#: What a person (or a policy) decided about a waiting call.
DecisionKind = Literal["approve", "edit", "decline", "respond", "expire"]


def scope_of(answer: Answer) -> tuple[ScopeKind, str]:
    """The scope an answer gives its decision, and the session id of a `session:<id>` scope."""
    scope = answer.scope or "once"
    if scope.startswith("session:"):
        return "session", scope[len("session:") :]
    assert scope in ("once", "turn", "principal", "tool"), scope  # the wire's pattern
    return cast("ScopeKind", scope), ""


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision about one waiting call, as a host logs it: what was decided (`approve`, `edit`:
    approved with other arguments, `decline`, `respond`: a question answered, `expire`), for
    which tool, call and request, the arguments asked and (an edit) approved, the scope, a
    refusal's reason and message, and the policy that decided it, when one did."""

    kind: DecisionKind
    tool: str
    call: str
    request: str | None
    arguments: Any
    approved: Any = None
    scope: str = "once"
    reason: str | None = None
    message: str | None = None
    policy: str | None = None

    def to_wire(self) -> dict[str, Any]:
        """The decision as JSON: every field, by its camelCase name."""
        return {
            "kind": self.kind,
            "tool": self.tool,
            "call": self.call,
            "request": self.request,
            "arguments": self.arguments,
            "approved": self.approved,
            "scope": self.scope,
            "reason": self.reason,
            "message": self.message,
            "policy": self.policy,
        }


def decided(step: Ask, answer: Answer | None, after: Run | Settle) -> Decision:
    """The decision `answer` (None: none came in time) made about `step`, which led to `after`."""
    call, request = step.call, step.request
    scope = "once" if answer is None else answer.scope or "once"
    if answer is None or (answer.ok and isinstance(after, Settle) and _declined(after.result)):
        return Decision(
            "expire", call.name, call.id, request.id, call.arguments, scope=scope, reason="expired"
        )
    if not answer.ok:
        reason = answer.reason or "declined"
        return Decision(
            "decline", call.name, call.id, request.id, call.arguments, None, scope, reason, answer.message
        )
    if not step.approval:
        return Decision("respond", call.name, call.id, request.id, call.arguments, scope=scope)
    if isinstance(after, Run) and after.call.arguments is not call.arguments:
        return Decision("edit", call.name, call.id, request.id, call.arguments, after.call.arguments, scope)
    return Decision("approve", call.name, call.id, request.id, call.arguments, scope=scope)


def _declined(result: ToolResult) -> bool:
    return isinstance((result.metadata or {}).get("declined"), dict)


def reached(earlier: Iterable[tuple[Ask, Answer]], step: Ask) -> Answer | None:
    """The answer an earlier decision of the same turn gives `step`, or None: an approval decided
    with a scope beyond `once` decides every later approval of the same tool in its turn alike,
    each by an answer of its own, for the turn (no edited arguments: an edit is one call's; and
    no policy again: the first answer made it)."""
    if not step.approval:
        return None
    for ask, answer in earlier:
        if ask.approval and ask.call.name == step.call.name and scope_of(answer)[0] != "once":
            return Answer(
                step.request.id, answer.ok, reason=answer.reason, message=answer.message, scope="turn"
            )
    return None


def reach(asks: Sequence[Ask], index: int, answer: Answer) -> list[tuple[int, Answer]]:
    """The other waiting calls of a run that `answer` to `asks[index]` decides with it
    (`reached`), each with its answer."""
    decided_ = [(asks[index], answer)]
    found = []
    for i, other in enumerate(asks):
        if i != index and (derived := reached(decided_, other)) is not None:
            found.append((i, derived))
    return found


@dataclass(frozen=True, slots=True)
class Policy:
    """A decision kept beyond its turn (`Answer.scope` `session:<id>`, `principal` or `tool`):
    every later call to `tool` that it covers is approved, or refused, without asking.

    `key` is the session id (`session`), the principal (`principal`), or empty (`tool`). It
    holds until `expires_at`, and the host can revoke it (by `id`). Which one decides when
    several cover a call is `applicable`'s rule."""

    id: str
    tool: str
    approve: bool
    scope: Literal["session", "principal", "tool"]
    key: str
    made_at: datetime
    expires_at: datetime
    made_by: str | None = None
    reason: str | None = None
    message: str | None = None

    def covers(self, tool: str, session: str | None, principal: str | None, now: datetime) -> bool:
        if self.tool != tool or now >= self.expires_at:
            return False
        if self.scope == "session":
            return session == self.key
        if self.scope == "principal":
            return principal == self.key
        return True

    def to_wire(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "tool": self.tool,
            "approve": self.approve,
            "scope": self.scope,
            "key": self.key,
            "madeAt": self.made_at.isoformat(),
            "expiresAt": self.expires_at.isoformat(),
            "madeBy": self.made_by,
            "reason": self.reason,
            "message": self.message,
        }

    @classmethod
    def from_wire(cls, doc: dict[str, Any]) -> Policy:
        return cls(
            doc["id"], doc["tool"], bool(doc["approve"]), doc["scope"], doc["key"],
            parse_time(doc["madeAt"]), parse_time(doc["expiresAt"]), doc.get("madeBy"),
            doc.get("reason"), doc.get("message"),
        )  # fmt: skip


def policy_of(
    step: Ask,
    answer: Answer,
    *,
    session: str | None,
    principal: str | None,
    now: datetime,
    lifetime: timedelta,
) -> Policy | None:
    """The policy an approval's answer makes, when its scope reaches beyond the turn. A
    `session` or `principal` scope needs the turn's session or principal: without one, the
    decision reaches no further than the turn."""
    kind, session_id = scope_of(answer)
    if not step.approval or kind in ("once", "turn"):
        return None
    key = session_id if kind == "session" else principal if kind == "principal" else ""
    if key is None or (kind == "session" and not key):
        return None
    return Policy(
        "pol-" + secrets.token_hex(8),
        step.call.name,
        answer.ok,
        cast("Literal['session', 'principal', 'tool']", kind),
        key,
        now,
        now + lifetime,
        principal,
        None if answer.ok else answer.reason or "declined",
        None if answer.ok else answer.message,
    )


def applicable(
    policies: Iterable[Policy], tool: str, session: str | None, principal: str | None, now: datetime
) -> Policy | None:
    """The policy that decides a call to `tool`, or None (the call is asked about).

    A refusal beats every approval (deny overrides): a call covered by any refusal is refused,
    however broad or narrow that refusal and the approvals that also cover it, and whichever
    came later; a call covered only by approvals is approved. So a later refusal is never lost
    to an earlier `always` approval, and an approval never lifts a refusal: revoke it instead."""
    approval = None
    for policy in policies:
        if not policy.covers(tool, session, principal, now):
            continue
        if not policy.approve:
            return policy
        approval = approval or policy
    return approval


def gated(
    tool: Tool | None,
    call: ToolCall,
    policies: Iterable[Policy],
    *,
    session: str | None,
    principal: str | None,
    now: datetime,
) -> tuple[Request | ToolResult | None, Decision | None]:
    """`gate`, with the host's policies: an approval a policy decides is not asked. Returns what
    `gate` does (None: the call runs) and the policy's decision, when one decided."""
    asked = gate(tool, call)
    if not isinstance(asked, Request):
        return asked, None
    return policed(call, asked, policies, session=session, principal=principal, now=now)


def policed(
    call: ToolCall,
    asked: Request,
    policies: Iterable[Policy],
    *,
    session: str | None,
    principal: str | None,
    now: datetime,
) -> tuple[Request | ToolResult | None, Decision | None]:
    """The second half of `gated`, for a host that learns of the approval `gate` asked for `call`
    elsewhere (the Temporal workflow: its activity gates): `asked` when no policy decides it,
    None when a policy approves it (the call runs), or the result of a policy's refusal; and the
    policy's decision, when one decided."""
    policy = applicable(policies, call.name, session, principal, now)
    if policy is None:
        return asked, None
    refused = by_policy(call, policy)
    kind: DecisionKind = "approve" if refused is None else "decline"
    reason, message = (None, None) if refused is None else (policy.reason or "declined", policy.message)
    scope = f"session:{policy.key}" if policy.scope == "session" else policy.scope
    decision = Decision(
        kind, call.name, call.id, None, call.arguments, None, scope, reason, message, policy.id
    )
    return refused, decision


def by_policy(call: ToolCall, policy: Policy) -> ToolResult | None:
    """What a policy makes of a call that needs an approval: None (approved: it runs), or the
    result of its refusal."""
    if policy.approve:
        return None
    marker: dict[str, Any] = {"policy": policy.id, "reason": policy.reason or "declined"}
    if policy.message:
        message = _cut(policy.message)  # kept whole in the policy, cut for the model
        marker["message"] = message
        output = texts.declined_with_message(message)
    else:
        output = texts.not_allowed_by_policy(tool=call.name, policy=policy.id)
    return ToolResult.error(output).with_metadata({"declined": marker})
