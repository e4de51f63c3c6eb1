"""The public errors of toolnexus, each documented against its nearest sibling.

    ToolnexusError                the root: catch it to catch any error toolnexus raises
    ├── WireError                 a document received is not valid wire data (parsing; .path)
    ├── ResumeError               a well-formed run or answer cannot be resumed (.reason)
    ├── UsageError                a developer's mistake: an argument an API does not take
    │   └── StrictSchemaError     a tool's schema is outside OpenAI's strict subset (.where)
    ├── store.OutcomeNotStored    the answered calls ran, but their outcome was not stored
    └── inbox.InboxError          the inbox cannot act as asked; nothing was answered

Runtime failures (`WireError`, `ResumeError`, `OutcomeNotStored`, `InboxError`) depend on
what arrives, and a host handles them; a `UsageError` is a bug in the calling code, raised at
once by the call that was given the argument, before anything runs or is stored.

`ToolnexusError` and `WireError` are defined by the wire package (parsing raises there too)
and re-exported here; the others are the runtime's own (`StrictSchemaError` in `_strict`,
`OutcomeNotStored` in `toolnexus.store`, `InboxError` in `toolnexus.inbox`, each built on the
classes here). A tool failure is never any of them: `Tool.call` and the toolkit turn it into
an error result. Each is a `ValueError`, so `except ValueError` still catches them.
"""

from __future__ import annotations

from toolnexus_wire import ToolnexusError, WireError
from toolnexus_wire.loop_data import RESUME_REASONS, ResumeReason  # why resume refuses (idl/loop.json)

__all__ = ["RESUME_REASONS", "ResumeError", "ResumeReason", "ToolnexusError", "UsageError", "WireError"]


class ResumeError(ToolnexusError):
    """Raised when an `Answer` cannot continue a run; the run is left as it was.

    You get it from `Toolkit.resume` (and from `Toolkit.run_calls` when `wait_for`
    answers a request other than the one it was given). `reason` names the check
    that failed:

    - `"mismatch"`: the answer's id is not the id of the request the run waits on;
    - `"replayed"`: this toolkit already took an answer to that request (the same
      answer given twice, or an old copy of the run resumed again);
    - `"not_pending"`: the run waits on nothing (`status` is `done`, or it has no
      `pending` request or no waiting call);
    - `"seal"`: the toolkit has a secret and the run's seal is missing, altered or
      forged, or names a key the toolkit no longer has (a rotated-out key), or the run
      is sealed and the toolkit has no secret to check it;
    - `"expired"`: the seal holds, and the time it allows for resuming
      (`run_calls(..., expires_in=...)`) has passed. It differs from a request's own
      `expiresAt`, which expires one question (that call's result is then
      `declined/expired: …`) and leaves the run resumable;
    - `"principal"`: the seal holds, and the run is bound to a principal
      (`run_calls(..., principal=...)`) other than the one `resume` was given (or none
      was given).

    It differs from `WireError`, which is raised while *parsing* a document that is
    not valid wire data: a run that parses cleanly can still be refused here. Neither
    is raised for a tool failure, which is always an error result.
    """

    __module__ = "toolnexus"

    def __init__(
        self,
        reason: ResumeReason,
        message: str,
    ) -> None:
        self.reason = reason
        super().__init__(message)


class UsageError(ToolnexusError):
    """Raised when toolnexus is called with an argument it does not take: a developer's mistake,
    not a runtime failure. A key too short, `expires_in` that is not a positive number, an empty
    list of answers, two tools registered under one name, a schema that is not a JSON Schema.
    It is raised at once, by the call that was given the argument, before anything runs or is
    stored: fix the call, do not retry it.

    It differs from `WireError`, raised for a *document received* that is not valid wire data,
    and from `ResumeError`, raised for a valid run or answer that cannot be resumed now: both
    depend on what arrives, and a host handles them. Wrong types stay `TypeError`.
    """

    __module__ = "toolnexus"
