"""`Tool.call` and the two ways to build a tool."""

import asyncio
import threading
from typing import Literal

import pytest
from pydantic import BaseModel, Field

from toolnexus import Answer, ToolContext, ToolResult, define_tool, tool


async def echo(args, ctx):
    return args["text"]


async def test_a_str_is_ok_and_a_tool_result_passes_through():
    assert (await define_tool("echo", "", None, echo).call({"text": "hi"})) == ToolResult.ok("hi")
    passthrough = ToolResult.error("custom").with_metadata({"exit": 2})

    async def handler(args, ctx):
        return passthrough

    assert (await define_tool("t", "", None, handler).call({})) is passthrough


@pytest.mark.parametrize(
    ("value", "output"),
    [({"a": [1, 2]}, '{"a":[1,2]}'), (42, "42"), ([], "[]"), ("ünï", "ünï")],
)
async def test_any_other_json_value_becomes_its_json_text(value, output):
    result = await define_tool("t", "", None, lambda args, ctx: value).call({})
    assert result == ToolResult.ok(output)


async def test_a_handler_that_returns_nothing_succeeds_with_an_empty_output():
    def touch(args, ctx):
        pass

    async def touch_async(args, ctx):
        return None

    for handler in (touch, touch_async):
        result = await define_tool("touch", "", None, handler).call({})
        assert result == ToolResult.ok("")
        assert result.to_wire() == {"output": "", "isError": False}


async def test_an_exception_is_an_error_result_with_its_message_or_class_name():
    def fail(args, ctx):
        raise KeyError("missing") if args.get("keyed") else RuntimeError()

    t = define_tool("fail", "", None, fail)
    assert await t.call({}) == ToolResult.error("RuntimeError")
    assert await t.call({"keyed": True}) == ToolResult.error("'missing'")


async def test_cancellation_propagates():
    started = asyncio.Event()

    async def slow(args, ctx):
        started.set()
        await asyncio.sleep(10)

    task = asyncio.ensure_future(define_tool("slow", "", None, slow).call({}))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_a_timeout_overrun_is_an_error_result():
    async def slow(args, ctx):
        await asyncio.sleep(10)

    result = await define_tool("slow", "", None, slow).call({}, ToolContext(timeout=0.01))
    assert result == ToolResult.error("slow timed out after 0.01 s")


async def test_a_handlers_own_timeout_error_is_its_own_message():
    async def fail(args, ctx):
        raise TimeoutError("upstream took too long")

    result = await define_tool("t", "", None, fail).call({}, ToolContext(timeout=5))
    assert result == ToolResult.error("upstream took too long")


async def test_a_sync_handler_runs_off_the_event_loop():
    loop_thread = threading.get_ident()
    seen = []
    t = define_tool("where", "", None, lambda args, ctx: seen.append(threading.get_ident()) or "done")
    assert (await t.call({})).output == "done"
    assert seen and seen[0] != loop_thread


async def test_the_context_reaches_the_handler():
    async def handler(args, ctx):
        return ctx.answer.id if ctx.answer else "none"

    t = define_tool("t", "", None, handler)
    assert (await t.call({})).output == "none"
    assert (await t.call({}, ToolContext(answer=Answer("pnd-1", True)))).output == "pnd-1"


async def test_explicit_schema_violations_are_listed_and_the_handler_is_not_called():
    calls = []
    schema = {
        "type": "object",
        "properties": {"n": {"type": "number"}, "unit": {"enum": ["m", "s"]}},
        "required": ["n"],
    }
    t = define_tool("measure", "", schema, lambda args, ctx: calls.append(args) or "ok")
    bad = await t.call({"unit": "kg"})
    assert bad.is_error
    assert "$: 'n' is a required property" in bad.output
    assert "$.unit: 'kg' is not one of ['m', 's']" in bad.output
    assert calls == []
    assert (await t.call({"n": 1.5, "unit": "m"})).output == "ok"
    assert (await t.call("not an object")).output.startswith("invalid arguments for measure: $:")


def test_an_invalid_schema_is_refused_when_the_tool_is_defined():
    with pytest.raises(ValueError, match="not a valid JSON Schema"):
        define_tool("t", "", {"type": "object", "properties": {"a": {"type": "nope"}}}, echo)


async def test_a_none_schema_accepts_any_object():
    t = define_tool("t", "", None, lambda args, ctx: sorted(args))
    assert t.input_schema == {"type": "object"}
    assert (await t.call({"x": 1, "y": {"z": None}})).output == '["x","y"]'


# --- @tool: schemas inferred by pydantic, pinned -------------------------------------------


@tool
async def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


class Address(BaseModel):
    street: str
    city: str = Field(description="City name")


@tool(name="ship", description="Ship a parcel.")
def ship(to: Address, speed: Literal["slow", "fast"] = "slow", note: str | None = None) -> dict:
    return {"city": to.city, "speed": speed, "note": note}


@tool
async def tag(items: list[str], ctx: ToolContext, limit: int = 3) -> list[str]:
    """Keep the first items."""
    return items[:limit] + (["answered"] if ctx.answer else [])


def test_the_inferred_schemas_are_pinned():
    assert (add.name, add.description) == ("add", "Add two integers.")
    assert add.input_schema == {
        "additionalProperties": False,
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
        "type": "object",
    }
    assert (ship.name, ship.description) == ("ship", "Ship a parcel.")
    assert ship.input_schema == {
        "$defs": {
            "Address": {
                "properties": {
                    "street": {"type": "string"},
                    "city": {"description": "City name", "type": "string"},
                },
                "required": ["street", "city"],
                "title": "Address",
                "type": "object",
            }
        },
        "additionalProperties": False,
        "properties": {
            "to": {"$ref": "#/$defs/Address"},
            "speed": {"default": "slow", "enum": ["slow", "fast"], "type": "string"},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        },
        "required": ["to"],
        "type": "object",
    }
    assert tag.input_schema == {
        "additionalProperties": False,
        "properties": {
            "items": {"items": {"type": "string"}, "type": "array"},
            "limit": {"default": 3, "type": "integer"},
        },
        "required": ["items"],
        "type": "object",
    }
    assert add.source == f"python:{__name__}.add"


async def test_typed_tools_get_validated_arguments():
    assert (await add.call({"a": 2, "b": 3})).output == "5"
    shipped = await ship.call({"to": {"street": "1 Main", "city": "Oslo"}, "speed": "fast"})
    assert shipped.output == '{"city":"Oslo","speed":"fast","note":null}'
    assert (await tag.call({"items": ["a", "b", "c", "d"]})).output == '["a","b","c"]'
    answered = await tag.call({"items": ["a"]}, ToolContext(answer=Answer("x", True)))
    assert answered.output == '["a","answered"]'


async def test_typed_tools_report_each_violation():
    bad = await ship.call({"to": {"street": "1 Main"}, "speed": "warp", "extra": 1})
    assert bad.is_error
    assert bad.output.startswith("invalid arguments for ship: ")
    for path in ("$.to.city", "$.speed", "$.extra"):
        assert path in bad.output
