"""The toolkit the live MCP tests serve: `python toolkit_server.py [stdio | http PORT]`."""

from __future__ import annotations

import sys
from pathlib import Path

from toolnexus import (
    Annotations,
    ContentPart,
    Request,
    ToolHints,
    Toolkit,
    ToolResult,
    auth_required,
    define_tool,
    pending,
    tool,
)
from toolnexus.mcp import serve

FIXTURE = Path(__file__).resolve().parents[2] / "examples" / "media" / "fixture.png"
REASON = {"type": "object", "properties": {"reason": {"type": "string"}}, "required": ["reason"]}


@tool(hints=ToolHints(read_only=True, destructive=False, open_world=False))
async def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


WAV = b"RIFF\x24\x00\x00\x00WAVEfmt "
PDF = b"%PDF-1.4\n%toolnexus\n"


async def picture(args, ctx):
    return ToolResult(output="a picture", parts=[ContentPart.from_path(FIXTURE)])


async def files(args, ctx):
    sound = ContentPart.from_bytes(WAV, "audio/wav")
    document = ContentPart.from_bytes(PDF, "application/pdf", name="r 1.pdf")
    return ToolResult(output="", parts=[sound, document])


async def fail(args, ctx):
    raise ValueError(f"cannot do {args.get('what', 'it')}")


async def secret(args, ctx):
    return ToolResult.ok("visible").with_metadata({"secret": "s3cret-value"})


async def approve(args, ctx):
    if ctx.answer is None:
        return pending(Request("approval", f"Delete {args['n']} files?", data={"schema": REASON}))
    return f"deleted {args['n']} files: {ctx.answer.data['reason']} ({ctx.call_id})"


async def login(args, ctx):
    if ctx.answer is None:
        return auth_required("https://example.com/login", "Sign in to continue")
    return "signed in"


async def again(args, ctx):
    return pending(Request("input", "Again?"))


async def wipe(args, ctx):
    return f"wiped {args.get('disk', 'nothing')}"


def steps(args, ctx):  # sync: its progress comes from a worker thread
    for i in range(1, 5):
        ctx.progress(i / 4, f"step {i}")
    return "4 steps"


FORECAST = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "celsius": {"type": "number"}},
    "required": ["city", "celsius"],
}


async def forecast(args, ctx):
    return {"city": args["city"], "celsius": 21.5}


async def report(args, ctx):
    link = ContentPart.from_url("https://example.com/r/report.pdf", "application/pdf", name="report.pdf")
    link.title, link.description = "Quarterly report", "Revenue and costs for Q3"
    link.annotations = Annotations(audience=["user"], priority=0.5, last_modified="2026-07-28T10:00:00Z")
    note = ContentPart.from_text("shown to the person only")
    note.annotations = Annotations(audience=["user"], priority=1)
    return ToolResult(output="the report", parts=[link, note])


COUNT = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


def toolkit() -> Toolkit:
    return Toolkit(
        [
            add,
            define_tool("picture", "A picture", None, picture),
            define_tool("fail", "Always fails", None, fail),
            define_tool("secret", "Keeps a secret in metadata", None, secret),
            define_tool("approve", "Deletes files after an approval", COUNT, approve),
            define_tool("login", "Needs a sign-in", None, login),
            define_tool("again", "Suspends every time", None, again),
            define_tool("steps", "Reports progress", None, steps),
            define_tool("wipe", "Wipes a disk, once approved", None, wipe, needs_approval=True),
            define_tool("forecast", "The forecast for a city", None, forecast, output_schema=FORECAST),
            define_tool("report", "A report, by link", None, report),
            define_tool("files", "A sound and a document", None, files),
        ]
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["http"]:
        serve(toolkit(), "http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        serve(toolkit())
