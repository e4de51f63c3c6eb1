"""The public errors of toolnexus, each documented against its nearest sibling.

    ToolnexusError            the root: catch it to catch any error toolnexus raises
    ├── WireError             a document is not valid wire data (parsing)
    └── ResumeError           a well-formed run or answer cannot be resumed (.reason)

`ToolnexusError` and `WireError` are defined by the wire package (parsing raises there too)
and re-exported here; `ResumeError` is the runtime's own. A tool failure is never any of
them: `Tool.call` and the toolkit turn it into an error result. Each is a `ValueError`.
"""

from __future__ import annotations

from toolnexus_wire import ToolnexusError, WireError
from toolnexus_wire.loop_data import RESUME_REASONS, ResumeReason  # why resume refuses (idl/loop.json)

__all__ = ["RESUME_REASONS", "ResumeError", "ResumeReason", "ToolnexusError", "WireError"]


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
