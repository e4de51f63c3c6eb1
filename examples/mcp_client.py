"""An MCP client: starts `examples/mcp_server.py` over stdio and uses its tools in a `Toolkit`.

`mcp_tools_from` turns the session's tools into `Tool`s; the server's question (a
suspension) is answered by `wait_for`, and its progress reaches `on_progress`. Any
other MCP server's tools are used the same way.
"""

import asyncio
import sys
from pathlib import Path

from mcp import Client, StdioServerParameters

from toolnexus import Answer, ToolCall, Toolkit
from toolnexus.mcp import mcp_tools_from

SERVER = StdioServerParameters(command=sys.executable, args=[str(Path(__file__).with_name("mcp_server.py"))])


async def main() -> None:
    progress = []
    asked = []

    def approve(request):
        asked.append(request.prompt)
        return Answer(request.id, True)

    async with Client(SERVER) as client:  # 2026-07-28 when the server speaks it, else the handshake
        tools = await mcp_tools_from(client.session)
        toolkit = Toolkit(tools, on_progress=lambda call_id, f, message: progress.append(message))
        run = await toolkit.run_calls(
            [
                ToolCall("1", "add", {"a": 2, "b": 40}),
                ToolCall("2", "delete_files", {"paths": ["a.txt", "b.txt"]}),
                ToolCall("3", "count", {"to": 3}),
                ToolCall("4", "add", {"a": "two"}),
            ],
            wait_for=approve,
        )
        version = client.protocol_version
    out = {item.id: item.result for item in run.results}
    assert [t.name for t in tools] == ["add", "delete_files", "count"]
    assert out["1"].output == "42"
    assert asked == ["Delete 2 files?"]
    assert out["2"].output == "deleted a.txt, b.txt" and out["2"].metadata is not None
    assert "audit" not in str(out["2"].metadata)  # the server's metadata stayed on the server
    assert out["3"].output == "3" and progress == ["1 of 3", "2 of 3", "3 of 3"]
    assert out["4"].is_error and out["4"].output.startswith("invalid arguments for add")
    print(f"ok: {len(tools)} tools over MCP {version}, asked {asked[0]!r}, progress {progress}")


asyncio.run(main())
