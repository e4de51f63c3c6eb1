"""The loop, once: what happens to one tool call, from its first run to its last result.

A sans-IO engine. It runs nothing, waits for nothing and reads no clock: each function below
takes a call's state and an event (a run's result, an answer, the time) and returns the next
step, and the host performs it. The steps are data:

    Run(call, answer, request, gate)   run the handler (gate: ask the tool's approval first)
    Ask(call, request)                 wait for an answer to `request`
    Settle(call, result)               the call is over; `result` is its result

The rules, in the order a call meets them (each pinned by the loop vectors in `idl/loop/`):

1. **Approval before the run.** A first run is gated (`start`): a tool with `needs_approval`
   (True, or a rule over the checked arguments) does not run; it asks the toolkit's own
   approval (`gate`: kind `approval`, id `apr-…`, data `{"tool", "arguments"}`). Arguments
   that fail the tool's input schema are never put to a person: the call runs ungated, and
   its run refuses them (`invalid arguments for <tool>: …`), its handler unrun. The form a
   person answers an approval with (`approval_form`) holds the arguments, to edit.
2. **The answer to an approval** (`answered`): refused or expired, the call settles as
   `declined: the call to <tool> was not approved` and never runs; approved, the handler runs
   for the first time, with the person's edited arguments when the answer's
   `data["arguments"]` holds them (the same arguments as asked are no edit). Edited
   arguments must be an object: anything else (null, a list, a string, a number) settles the
   call as invalid arguments, unrun. An approving answer's data holds nothing else
   (`APPROVAL_DATA`): any other key, a misspelling such as `args`, refuses the answer
   (`unfit_answer`, refused by the book: `ResumeError("mismatch")` naming the key, nothing
   taken, the call still waits). A question's answer never changes the arguments.
3. **A question from the tool** (`ran`): a first run that suspends waits on its request. A
   call whose arguments or request cannot be stored settles instead as an error saying so,
   so the turn is always storable.
4. **The answer to a question**: refused or expired, the call settles as
   `declined/expired: <prompt>`; answered, the call runs once more with `ctx.answer`.
5. **One retry per question**: a retry that suspends again settles as
   `unresolved: <the first request's prompt>` (as every upstream port writes it).
6. **Expiry**: a request whose `expiresAt` has passed (by the host's clock) settles as if
   refused, with reason `expired` (`timed`); so does an `ok` that comes after it. A request
   that has expired when asked is settled at once: nothing waits on it.
7. **Which call an answer answers** (`match`): the first waiting call, in call order, asked
   under its id; a list of answers is taken or refused whole.
8. **A refusal's words**: an answer that refuses may carry `message`; the call then settles as
   `declined: <message>` (cut at `MESSAGE_LIMIT` characters, `…` added).
9. **Decisions that reach further** (`scope_of`, `reached`, `reach`, `policy_of`,
   `applicable`, `gated`, `policed`): an approval's `scope` beyond `once` decides the turn's other
   approvals of the same tool alike; `session:<id>`, `principal` and `tool` also make a
   `Policy`, which decides later approvals unasked; a refusal that covers a call beats every
   approval that does (deny overrides).
10. **What the host logs** (`decided`): every decision, as a `Decision`.
11. **Cancelling a running call** (`cancelled`): it settles as `declined: the call to <tool>
    was cancelled`, reason `cancelled`.

12. **Results that fit the model** (`fit`, in `_limits`): after each run the host fits the result
    to the call's `Limit` (the tighter of its tool's and its toolkit's): an output over it keeps
    its head and tail, cut on line and code-point boundaries, with a marker naming the code points
    cut and the reference the host keeps the whole output under (`result_ref`);
    `structured_content` and suspensions are never cut; `metadata["truncated"]` says what was.

Every refusal and expiry carries `metadata["declined"] = {"request": id, "reason": ...}`,
host-only, so a host tells a denial from a tool failure.

`drive` performs the steps of one call with the host's effects until the call settles, or
stops on an `Ask` the host does not wait for (it stores the run instead). Hosts: `Toolkit`
(in process; `resume` continues a stored run), the Temporal workflow (each run an activity,
each ask a durable wait), the MCP server (through `Toolkit`), `SqliteRunStore` (through
`Toolkit`).

The package: `_steps` (the steps, their transitions, driving one call, the rules' parts),
`_decisions` (rules 9 and 10) and `_limits` (rule 12; the toolkit applies it in `perform`, so
every host does).
"""

from toolnexus_wire.loop_data import MESSAGE_LIMIT

from ._decisions import (
    Decision,
    DecisionKind,
    Policy,
    ScopeKind,
    applicable,
    by_policy,
    decided,
    gated,
    policed,
    policy_of,
    reach,
    reached,
    scope_of,
)
from ._steps import (
    APPROVAL_DATA,
    APPROVAL_PREFIX,
    STOP,
    Ask,
    Effects,
    Run,
    Settle,
    Stop,
    Unmatched,
    answered,
    approval_form,
    cancelled,
    drive,
    expired,
    gate,
    is_approval,
    lapsed,
    match,
    parse_time,
    ran,
    start,
    timed,
    unfit_answer,
    unstorable,
)

__all__ = [
    "APPROVAL_DATA",
    "APPROVAL_PREFIX",
    "MESSAGE_LIMIT",
    "STOP",
    "Ask",
    "Decision",
    "DecisionKind",
    "Effects",
    "Policy",
    "Run",
    "ScopeKind",
    "Settle",
    "Stop",
    "Unmatched",
    "answered",
    "applicable",
    "approval_form",
    "by_policy",
    "cancelled",
    "decided",
    "drive",
    "expired",
    "gate",
    "gated",
    "is_approval",
    "lapsed",
    "match",
    "parse_time",
    "policed",
    "policy_of",
    "ran",
    "reach",
    "reached",
    "scope_of",
    "start",
    "timed",
    "unfit_answer",
    "unstorable",
]
