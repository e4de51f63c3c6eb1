"""A Temporal worker that runs turns and a toolkit's tools."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from temporalio.client import Client
from temporalio.worker import Worker

from .._toolkit import Toolkit
from ._activities import ToolActivities
from ._protocol import ToolPolicy
from ._workflow import TurnWorkflow

__all__ = ["worker_for"]


def worker_for(
    client: Client,
    toolkit: Toolkit,
    *,
    task_queue: str,
    policies: Mapping[str, ToolPolicy] | None = None,
    default: ToolPolicy | None = None,
    **worker_options: Any,
) -> Worker:
    """A Temporal `Worker` on `task_queue` that runs turns and `toolkit`'s tools.

    `policies` maps a tool name to its `ToolPolicy`; the others get `default`. Run it with
    `async with worker:` or `await worker.run()`. `worker_options` go to `Worker` as they are.
    """
    acts = ToolActivities(toolkit, policies or {}, default or ToolPolicy())
    return Worker(
        client,
        task_queue=task_queue,
        workflows=[TurnWorkflow],
        activities=[acts.run_tool, acts.tool_policies, acts.read_policies, acts.keep_policy],
        **worker_options,
    )
