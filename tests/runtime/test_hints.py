"""Tool hints (issue #11 item 3): `{readOnly, destructive, openWorld}` on the wire as upstream
toolnexus 0.22 writes them, declared with `define_tool`/`@tool`, carried by `ToolSpec`, sent to
MCP as tool annotations, and to no model."""

from __future__ import annotations

import json

import pytest
from mcp import types as mcp_types

from toolnexus import ToolContext, ToolHints, ToolSpec, WireError, define_tool, tool
from toolnexus.adapters import (
    anthropic_tools,
    gemini_tools,
    mcp_tools,
    openai_chat_tools,
    openai_responses_tools,
)

READ_ONLY = ToolHints(read_only=True, destructive=False, open_world=False)


async def _handler(args: dict[str, object], ctx: ToolContext) -> str:
    return "ok"


def test_hints_are_upstream_wire_keys() -> None:
    assert READ_ONLY.to_json() == '{"readOnly":true,"destructive":false,"openWorld":false}'
    upstream = '{"readOnly":false,"destructive":true,"openWorld":true}'
    assert ToolHints.from_json(upstream).to_json() == upstream


def test_define_tool_and_the_decorator_take_hints_into_the_spec() -> None:
    listed = define_tool("ls", "List files", None, _handler, hints=READ_ONLY)

    @tool(hints=ToolHints(read_only=False, destructive=True, open_world=False))
    async def rm(path: str) -> str:
        """Remove a file."""
        return path

    assert listed.hints == READ_ONLY and listed.spec().hints == READ_ONLY
    assert json.loads(rm.spec().to_json())["hints"] == {
        "readOnly": False,
        "destructive": True,
        "openWorld": False,
    }
    plain = define_tool("echo", "", None, _handler)
    assert plain.hints is None and "hints" not in plain.spec().to_wire()
    assert ToolSpec.from_json(rm.spec().to_json()) == rm.spec()


def test_hints_of_another_type_are_refused_when_the_tool_is_made() -> None:
    with pytest.raises(TypeError, match="hints must be a ToolHints"):
        define_tool("ls", "", None, _handler, hints={"readOnly": True})  # type: ignore[arg-type]


def test_mcp_gets_them_as_tool_annotations_checked_by_the_sdk() -> None:
    listed = define_tool("ls", "List files", None, _handler, hints=READ_ONLY)
    (declared,) = mcp_tools([listed])
    sdk = mcp_types.Tool.model_validate(declared)
    assert sdk.annotations is not None
    hints = sdk.annotations
    assert (hints.read_only_hint, hints.destructive_hint, hints.open_world_hint) == (True, False, False)
    assert "annotations" not in mcp_tools([define_tool("echo", "", None, _handler)])[0]


def test_no_model_declaration_carries_them() -> None:
    listed = define_tool("ls", "List files", None, _handler, hints=READ_ONLY)
    for declare in (openai_chat_tools, openai_responses_tools, anthropic_tools, gemini_tools):
        text = json.dumps(declare([listed]))
        assert "readOnly" not in text and "hints" not in text and "openWorld" not in text, declare.__name__


def test_the_constructor_defaults_are_mcp_s_and_the_wire_still_requires_all_three() -> None:
    # The README's form: one hint given, the others MCP's cautious defaults.
    assert ToolHints(read_only=True).to_json() == '{"readOnly":true,"destructive":true,"openWorld":true}'
    assert ToolHints() == ToolHints(read_only=False, destructive=True, open_world=True)
    closed = {"readOnly": False, "destructive": True, "openWorld": False}
    assert ToolHints(open_world=False).to_wire() == closed
    with pytest.raises(WireError) as missing:  # not a wire change: a peer's document names all three
        ToolHints.from_json('{"readOnly":true}')
    assert missing.value.path == "$.destructive"
