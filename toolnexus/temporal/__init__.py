"""Tool turns on Temporal: each call an activity, each suspension a durable wait (`toolnexus[temporal]`).

A turn is one Temporal workflow, its id the host's turn id. The workflow runs the turn's
calls concurrently as activities and applies the loop rule of `Toolkit.run_calls`: a call
that suspends waits, durably, for an `Answer` sent with a Temporal Update (`answer`);
`ok` runs the call once more with `ctx.answer` set, a second suspension becomes
`unresolved: <prompt>`, and a refusal or an `expiresAt` that passes (a workflow timer)
becomes `declined/expired: <prompt>`. Every suspended call waits at once, so its requests
can be answered in any order, from any process, hours later. The workflow's result is
the turn's `RunResult` (`done`).

    worker = worker_for(client, toolkit, task_queue="tools")   # runs the workflow and the tools
    turns = TurnClient(client, task_queue="tools")             # any process
    await turns.start("turn-1", calls)
    [request] = await turns.pending("turn-1")
    await turns.answer("turn-1", Answer(request.id, True))     # ResumeError when refused
    run = await turns.result("turn-1")

A tool's activity heartbeats while it runs, so when its worker dies the call is run again
on another worker once `ToolPolicy.heartbeat` seconds have passed without one (10 by
default). `ToolContext.idempotency_key` is derived from the turn id and the turn's call
ids, so it is the same on every attempt. Values cross the boundary as wire JSON text,
byte for byte what `to_json` writes.

The package's modules: `_protocol` (the names and the JSON the others exchange, `ToolPolicy`),
`_workflow` (`TurnWorkflow`, the engine's host), `_activities` (the tools' side of a worker),
`_worker` (`worker_for`) and `_client` (`TurnClient`). Every refusal they pass on is the
book's (`toolnexus._book`).
"""

from __future__ import annotations

try:
    import temporalio as _sdk  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised by tests/project/test_extras.py
    raise ImportError(
        "toolnexus.temporal needs temporalio: install the extra, pip install 'toolnexus-contract[temporal]'"
    ) from exc

from ._client import TurnClient
from ._protocol import PAYLOAD_LIMIT, WORKFLOW, ToolPolicy
from ._worker import worker_for
from ._workflow import TurnWorkflow  # noqa: F401  (importable, as before the split)

__all__ = ["PAYLOAD_LIMIT", "WORKFLOW", "ToolPolicy", "TurnClient", "worker_for"]
