"""Structured output: `output_schema` declared or inferred, `structured_content` filled and
checked, and the same value as JSON text in `output`."""

from __future__ import annotations

import dataclasses
import json

import pytest
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from toolnexus import ToolCall, ToolContext, Toolkit, ToolResult, define_tool, tool
from toolnexus.adapters import mcp_tools


class Weather(BaseModel):
    city: str
    temp_c: float = Field(alias="tempC")


@dataclasses.dataclass
class Point:
    x: int
    y: int


class Totals(TypedDict):
    count: int
    names: list[str]


@tool
def weather(city: str) -> Weather:
    """The weather in a city."""
    return Weather(city=city, tempC=21.5)


@tool
def origin() -> Point:
    """The origin."""
    return Point(0, 0)


@tool
def totals(names: list[str]) -> Totals:
    """Count names."""
    return {"count": len(names), "names": names}


@tool
def broken_totals() -> Totals:
    """Returns what its annotation does not describe."""
    return {"count": "many", "names": []}  # type: ignore[typeddict-item]


@tool
def plain(city: str) -> str:
    """Text only."""
    return city


async def test_a_pydantic_model_return_is_inferred_and_filled() -> None:
    schema = weather.output_schema
    assert schema is not None
    assert schema["properties"]["tempC"]["type"] == "number" and schema["required"] == ["city", "tempC"]
    result = await weather.call({"city": "Zürich"})
    assert not result.is_error
    assert result.structured_content == {"city": "Zürich", "tempC": 21.5}
    assert json.loads(result.output) == result.structured_content
    assert result.to_json() == (
        '{"output":"{\\"city\\":\\"Zürich\\",\\"tempC\\":21.5}","isError":false,'
        '"structuredContent":{"city":"Zürich","tempC":21.5}}'
    )


async def test_a_dataclass_and_a_typeddict_return_are_inferred() -> None:
    assert origin.output_schema is not None and origin.output_schema["required"] == ["x", "y"]
    assert (await origin.call({})).structured_content == {"x": 0, "y": 0}
    assert totals.output_schema is not None
    assert (await totals.call({"names": ["a", "b"]})).structured_content == {"count": 2, "names": ["a", "b"]}


async def test_data_that_does_not_match_the_inferred_schema_is_an_error_naming_the_path() -> None:
    result = await broken_totals.call({})
    assert result.is_error and result.structured_content is None
    assert result.output.startswith("the tool's output does not match its output schema: $.count:")


async def test_text_tools_have_no_output_schema() -> None:
    assert plain.output_schema is None and plain.spec().output_schema is None
    assert (await plain.call({"city": "Bern"})).structured_content is None


@tool
async def report(city: str) -> ToolResult:
    """Builds its own envelope, with structured data of a shape it does not declare."""
    return ToolResult(output="7.5 C", structured_content={"city": city, "celsius": 7.5})


async def test_a_tool_annotated_to_return_a_tool_result_declares_no_output_schema() -> None:
    # `-> ToolResult` is the envelope, not data: no outputSchema reaches MCP (whose client would
    # then refuse every result without structured content), and its own structured content
    # passes as the tool built it.
    assert report.output_schema is None and "outputSchema" not in mcp_tools([report])[0]
    result = await report.call({"city": "Oslo"})
    assert not result.is_error and result.output == "7.5 C"
    assert result.structured_content == {"city": "Oslo", "celsius": 7.5}


SCHEMA = {
    "type": "object",
    "properties": {"temp": {"type": "number"}, "unit": {"enum": ["C", "F"]}},
    "required": ["temp", "unit"],
}


async def test_define_tool_takes_an_explicit_output_schema() -> None:
    t = define_tool(
        "temp", "A temperature.", None, lambda a, c: {"temp": 3.5, "unit": "C"}, output_schema=SCHEMA
    )
    assert t.spec().output_schema == SCHEMA
    result = await t.call({})
    assert (
        result.structured_content == {"temp": 3.5, "unit": "C"} and result.output == '{"temp":3.5,"unit":"C"}'
    )


@pytest.mark.parametrize(
    ("returned", "problem"),
    [
        ({"temp": "warm", "unit": "C"}, "$.temp: 'warm' is not of type 'number'"),
        ({"temp": 1}, "$: 'unit' is a required property"),
        (ToolResult(output="x", structured_content={"temp": 1, "unit": "K"}), "$.unit: 'K' is not one of"),
        (None, "the tool returned None, but it declares an output schema"),
        ({"temp": float("nan"), "unit": "C"}, "not JSON"),
    ],
)
async def test_explicit_schema_mismatches_are_error_results(returned: object, problem: str) -> None:
    t = define_tool("temp", "A temperature.", None, lambda a, c: returned, output_schema=SCHEMA)
    result = await t.call({})
    assert result.is_error
    assert problem in result.output


async def test_a_tool_result_without_structured_content_passes_as_it_is() -> None:
    t = define_tool("temp", "t", None, lambda a, c: ToolResult.error("sensor offline"), output_schema=SCHEMA)
    result = await t.call({})
    assert result.is_error and result.output == "sensor offline"


def test_a_bad_output_schema_is_refused_when_the_tool_is_defined() -> None:
    with pytest.raises(ValueError, match="output_schema is not a valid JSON Schema"):
        define_tool("t", "t", None, lambda a, c: 1, output_schema={"type": "no-such-type"})
    with pytest.raises(TypeError, match="output_schema must be a dict"):
        define_tool("t", "t", None, lambda a, c: 1, output_schema=[])  # type: ignore[arg-type]


async def test_the_toolkit_and_mcp_declarations_carry_it() -> None:
    kit = Toolkit([weather, plain])
    run = await kit.run_calls([ToolCall("c1", "weather", {"city": "Bern"})])
    assert run.results[0].result.structured_content == {"city": "Bern", "tempC": 21.5}
    declared = mcp_tools(kit.tools())
    assert declared[0]["outputSchema"] == weather.output_schema
    assert "outputSchema" not in declared[1]


async def test_ctx_still_reaches_a_structured_tool() -> None:
    @tool
    def where(ctx: ToolContext) -> Point:
        """Where the call is."""
        return Point(len(ctx.call_id), 0)

    kit = Toolkit([where])
    run = await kit.run_calls([ToolCall("abc", "where", {})])
    assert run.results[0].result.structured_content == {"x": 3, "y": 0}


@pytest.mark.parametrize("value", [0, 5, -1, True, "s", [1, 2.5], {"n": 1}])
def test_structured_content_keeps_its_json_type_on_the_slow_path_too(value: object) -> None:
    # pydantic's float would make an integer 0.0; the field is `Any`, and only null is refused
    r = ToolResult(output="x", structured_content=value)
    assert ToolResult.from_json(r.to_json()).structured_content == value
    assert type(ToolResult.model_validate_json(r.to_json()).structured_content) is type(value)
