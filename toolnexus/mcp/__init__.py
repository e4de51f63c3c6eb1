"""MCP, live: serve a `Toolkit` as an MCP server, and use an MCP server's tools as `Tool`s.

Built on the official MCP Python SDK (`pip install toolnexus-contract[mcp]`); the
protocol is the SDK's, and every shape crossing it is mapped by
`toolnexus.adapters` (`mcp_tools`, `mcp_call_tool_result`, `from_mcp_call_tool_result`,
`mcp_input_required`, `answer_from_mcp`, `mcp_input_responses`).

- Serving (`mcp_server`, `serve`, `serve_async`; `toolnexus/mcp/_server.py`): a host of the
  toolkit's loop, behind an MCP server.
- Consuming (`mcp_tools_from`, `ElicitationRelay`; `toolnexus/mcp/_client.py`): an MCP
  server's tools as `Tool`s.
"""

from __future__ import annotations

try:
    import mcp as _sdk  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised by the packaging tests
    raise ImportError(
        "toolnexus.mcp needs the MCP SDK: install the extra, pip install 'toolnexus-contract[mcp]'"
    ) from exc

from ._client import ElicitationRelay, TaskSupport, mcp_tools_from
from ._server import mcp_server, serve, serve_async
from ._tasks import TASKS_EXTENSION

__all__ = [
    "TASKS_EXTENSION",
    "ElicitationRelay",
    "TaskSupport",
    "mcp_server",
    "mcp_tools_from",
    "serve",
    "serve_async",
]
