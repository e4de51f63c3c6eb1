"""The client the MCP conformance suite runs for its client scenarios: `python client.py URL`,
with the scenario's name in `MCP_CONFORMANCE_SCENARIO` (the suite appends the URL of the test
server it started for the scenario and sets the variable).

It is what a host of toolnexus writes: an MCP session whose elicitations go through an
`ElicitationRelay`, the server's tools taken with `mcp_tools_from` into a `Toolkit`, and a
turn run with `Toolkit.run_calls`, whose `wait_for` answers each question with a toolnexus
`Answer` (here: accepted as offered, so the relay fills in the form's defaults, SEP-1034).
The suite's scenarios speak the handshake-era protocol (2025-06-18, 2025-11-25), so the
session connects in `legacy` mode.

Out of scope (listed in expected-failures.yml): the `auth/*` scenarios, which test an OAuth
client (the MCP SDK's transport authenticates, and a host passes it in; `mcp_tools_from` takes
the session as it is given).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from mcp import Client

from toolnexus import Answer, Request, ToolCall, Toolkit
from toolnexus.mcp import ElicitationRelay, mcp_tools_from

#: What each scenario has the toolkit call: (tool, arguments); None: connect and list only.
CALLS: dict[str, tuple[str, dict[str, Any]] | None] = {
    "initialize": None,
    "tools_call": ("add_numbers", {"a": 5, "b": 3}),
    "elicitation-sep1034-client-defaults": ("test_client_elicitation_defaults", {}),
    "sse-retry": ("test_reconnection", {}),
}


def accept_as_offered(request: Request) -> Answer:
    """A person who accepts the form as it is shown, typing nothing."""
    print(f"asked ({request.kind}): {request.prompt}", file=sys.stderr)
    return Answer(request.id, True, {})


async def main(url: str, scenario: str) -> int:
    if scenario not in CALLS:
        print(
            f"client.py: no client for the scenario {scenario!r} (known: {', '.join(CALLS)})", file=sys.stderr
        )
        return 2
    relay = ElicitationRelay()
    async with Client(url, mode="legacy", elicitation_callback=relay) as client:
        toolkit = Toolkit(await mcp_tools_from(client.session, elicitations=relay))
        print(f"tools: {', '.join(t.name for t in toolkit.tools())}")
        call = CALLS[scenario]
        if call is None:
            return 0
        run = await toolkit.run_calls([ToolCall("c1", *call)], wait_for=accept_as_offered)
        result = run.results[0].result
        print(json.dumps({"status": run.status, "output": result.output, "is_error": result.is_error}))
        return 1 if run.status != "done" or result.is_error else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: MCP_CONFORMANCE_SCENARIO=<scenario> python client.py <server url>", file=sys.stderr)
        sys.exit(2)
    sys.exit(asyncio.run(main(sys.argv[1], os.environ.get("MCP_CONFORMANCE_SCENARIO", ""))))
