"""A toolkit served over MCP's stdio transport: `python examples/mcp_server.py`.

Any MCP host can start this script as a server (`command: python`, `args: [path]`);
`examples/mcp_client.py` starts it and uses its tools through a `Toolkit`. The same
toolkit serves over streamable HTTP with `serve(toolkit, "http", port=8000)`.
"""

from toolnexus import Request, Toolkit, ToolResult, define_tool, pending, tool
from toolnexus.mcp import serve


@tool
async def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


async def delete_files(args, ctx):
    """A suspension: over MCP the client is asked (input_required, or an elicitation)."""
    if ctx.answer is None:
        return pending(Request("approval", f"Delete {len(args['paths'])} files?"))
    return ToolResult.ok(f"deleted {', '.join(args['paths'])}").with_metadata({"audit": "kept here"})


def count(args, ctx):
    """Progress: each report becomes an MCP progress notification."""
    for i in range(1, args["to"] + 1):
        ctx.progress(i / args["to"], f"{i} of {args['to']}")
    return str(args["to"])


PATHS = {
    "type": "object",
    "properties": {"paths": {"type": "array", "items": {"type": "string"}}},
    "required": ["paths"],
}
TO = {"type": "object", "properties": {"to": {"type": "integer", "minimum": 1}}, "required": ["to"]}

toolkit = Toolkit(
    [
        add,
        define_tool("delete_files", "Delete files, once approved", PATHS, delete_files),
        define_tool("count", "Count, reporting progress", TO, count),
    ]
)

if __name__ == "__main__":
    serve(toolkit)
