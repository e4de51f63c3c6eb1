"""The toolkit the MCP conformance suite's server scenarios call, served by `toolnexus.mcp` over
streamable HTTP on loopback: `python server.py PORT` (then http://127.0.0.1:PORT/mcp).

Each tool is the one a scenario names (`test_simple_text`, `test_tool_with_logging`, ...; see
`conformance list` and the scenario's description), written as any toolkit's tool is: a
result, parts, `ctx.log`, `ctx.progress`, a suspension the server asks as an elicitation.
What a `Toolkit` does not serve has no tool here and is listed, with the reason, in
expected-failures.yml: resources, prompts and completion (a toolkit serves tools), and
sampling (a tool that needs a model is the host's business, not the served toolkit's). SSE
polling (SEP-1699) is listed too: `serve` has no event store, so `test_reconnection` answers
on its POST stream without the priming event and `retry` field the scenario looks for.
"""

from __future__ import annotations

import asyncio
import io
import json
import sys
import wave
from pathlib import Path
from typing import Any

from toolnexus import ContentPart, Request, Toolkit, ToolResult, define_tool, pending
from toolnexus.mcp import serve

PNG = (Path(__file__).resolve().parents[2] / "examples" / "media" / "fixture.png").read_bytes()
NO_ARGUMENTS: dict[str, Any] = {"type": "object", "properties": {}}


def _wav() -> bytes:
    """A tenth of a second of silence: 8 kHz, 16-bit, mono."""
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"\x00\x00" * 800)
    return out.getvalue()


async def simple_text(args: dict[str, Any], ctx: Any) -> str:
    return "This is a simple text response for testing."


async def image(args: dict[str, Any], ctx: Any) -> ToolResult:
    return ToolResult(output="", parts=[ContentPart.from_bytes(PNG, "image/png")])


async def audio(args: dict[str, Any], ctx: Any) -> ToolResult:
    return ToolResult(output="", parts=[ContentPart.from_bytes(_wav(), "audio/wav")])


async def embedded(args: dict[str, Any], ctx: Any) -> ToolResult:
    # A part with data that is neither an image nor audio is an embedded resource over MCP.
    text = b"This is an embedded resource content."
    return ToolResult(output="", parts=[ContentPart.from_bytes(text, "text/plain", name="embedded.txt")])


async def mixed(args: dict[str, Any], ctx: Any) -> ToolResult:
    data = json.dumps({"test": "data", "value": 123}).encode()
    parts = [ContentPart.from_bytes(PNG, "image/png"), ContentPart.from_bytes(data, "application/json")]
    return ToolResult(output="Multiple content types test:", parts=parts)


async def with_logging(args: dict[str, Any], ctx: Any) -> str:
    ctx.log("info", "Tool execution started")
    await asyncio.sleep(0.05)
    ctx.log("info", "Tool processing data")
    await asyncio.sleep(0.05)
    ctx.log("info", "Tool execution completed")
    return "Tool with logging executed successfully"


async def error(args: dict[str, Any], ctx: Any) -> str:
    raise RuntimeError("This tool intentionally returns an error for testing")


async def with_progress(args: dict[str, Any], ctx: Any) -> str:
    for fraction in (0.0, 0.5, 1.0):
        ctx.progress(fraction, f"{int(fraction * 100)}%")
        if fraction < 1.0:
            await asyncio.sleep(0.05)
    return "Tool with progress executed successfully"


def _asks(schema: dict[str, Any], prompt: str | None = None) -> Any:
    """A tool that asks the client for `schema` (an elicitation, on a handshake-era
    connection) and says what came back."""

    async def handler(args: dict[str, Any], ctx: Any) -> str | ToolResult:
        answer = ctx.answer
        if answer is None:
            return pending(Request("input", prompt or args["message"], data={"schema": schema}))
        action = "accept" if answer.ok else (answer.reason or "cancel")
        return f"Elicitation completed: action={action}, content={json.dumps(answer.data or {})}"

    return handler


CONTACT = {
    "type": "object",
    "properties": {
        "username": {"type": "string", "description": "User's response"},
        "email": {"type": "string", "description": "User's email address"},
    },
    "required": ["username", "email"],
}
DEFAULTS = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "User name", "default": "John Doe"},
        "age": {"type": "integer", "description": "User age", "default": 30},
        "score": {"type": "number", "description": "User score", "default": 95.5},
        "status": {
            "type": "string",
            "description": "User status",
            "enum": ["active", "inactive", "pending"],
            "default": "active",
        },
        "verified": {"type": "boolean", "description": "Verification status", "default": True},
    },
}
ENUMS = {
    "type": "object",
    "properties": {
        "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
        "titledSingle": {
            "type": "string",
            "oneOf": [
                {"const": "value1", "title": "First Option"},
                {"const": "value2", "title": "Second Option"},
                {"const": "value3", "title": "Third Option"},
            ],
        },
        "legacyEnum": {
            "type": "string",
            "enum": ["opt1", "opt2", "opt3"],
            "enumNames": ["Option One", "Option Two", "Option Three"],
        },
        "untitledMulti": {
            "type": "array",
            "items": {"type": "string", "enum": ["option1", "option2", "option3"]},
        },
        "titledMulti": {
            "type": "array",
            "items": {
                "anyOf": [
                    {"const": "value1", "title": "First Choice"},
                    {"const": "value2", "title": "Second Choice"},
                    {"const": "value3", "title": "Third Choice"},
                ]
            },
        },
    },
}
SCHEMA_2020_12 = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {
        "address": {
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
        }
    },
    "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
    "additionalProperties": False,
}


async def echo_schema(args: dict[str, Any], ctx: Any) -> str:
    return f"got {json.dumps(args)}"


async def reconnection(args: dict[str, Any], ctx: Any) -> str:
    return "Reconnection test completed successfully"


def toolkit() -> Toolkit:
    message = {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]}
    return Toolkit(
        [
            define_tool("test_simple_text", "Returns a line of text", NO_ARGUMENTS, simple_text),
            define_tool("test_image_content", "Returns a PNG image", NO_ARGUMENTS, image),
            define_tool("test_audio_content", "Returns a WAV sound", NO_ARGUMENTS, audio),
            define_tool("test_embedded_resource", "Returns a text file", NO_ARGUMENTS, embedded),
            define_tool(
                "test_multiple_content_types", "Returns text, an image and a file", NO_ARGUMENTS, mixed
            ),
            define_tool("test_tool_with_logging", "Logs three lines as it runs", NO_ARGUMENTS, with_logging),
            define_tool("test_error_handling", "Always fails", NO_ARGUMENTS, error),
            define_tool(
                "test_tool_with_progress", "Reports progress as it runs", NO_ARGUMENTS, with_progress
            ),
            define_tool("test_elicitation", "Asks the user for a name and an email", message, _asks(CONTACT)),
            define_tool(
                "test_elicitation_sep1034_defaults",
                "Asks with a default for every field",
                NO_ARGUMENTS,
                _asks(DEFAULTS, "Accept or change the defaults"),
            ),
            define_tool(
                "test_elicitation_sep1330_enums",
                "Asks with every kind of enum",
                NO_ARGUMENTS,
                _asks(ENUMS, "Pick from each list"),
            ),
            define_tool(
                "json_schema_2020_12_tool",
                "Tool with JSON Schema 2020-12 features",
                SCHEMA_2020_12,
                echo_schema,
            ),
            define_tool("test_reconnection", "Answers over its SSE stream", NO_ARGUMENTS, reconnection),
        ]
    )


if __name__ == "__main__":
    serve(toolkit(), "http", host="127.0.0.1", port=int(sys.argv[1]))
