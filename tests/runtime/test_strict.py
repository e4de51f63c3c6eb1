"""`strict=True`: schemas OpenAI's strict mode accepts, checked against the rules OpenAI
documents (written out here, apart from `toolnexus._strict`), and against the OpenAI Agents
SDK's own strict-schema writer, which must find nothing left to change."""

from __future__ import annotations

import copy
from enum import Enum
from typing import Annotated, Any, Literal

import pytest
from agents.strict_schema import ensure_strict_json_schema
from pydantic import BaseModel, Field

from toolnexus import ToolResult, define_tool, tool
from toolnexus.adapters import anthropic_tools, openai_chat_tools, openai_responses_tools

# --- OpenAI's documented rules (Structured Outputs, "Supported schemas") ---------------------------

TYPES = {"string", "number", "integer", "boolean", "object", "array", "null"}
STRING_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
KEYWORDS = {
    "common": {"type", "description", "title", "enum", "anyOf", "$ref", "$defs", "$comment"},
    "string": {"pattern", "format"},
    "number": {"multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"},
    "integer": {"multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"},
    "object": {"properties", "required", "additionalProperties"},
    "array": {"items", "minItems", "maxItems"},
}


def openai_strict_violations(schema: dict[str, Any]) -> list[str]:
    """Every place `schema` breaks a documented rule of OpenAI's strict mode."""
    found: list[str] = []
    counts = {"properties": 0, "enum": 0}

    def walk(node: Any, path: str, depth: int) -> None:
        if not isinstance(node, dict):
            found.append(f"{path}: not a schema object")
            return
        if "$ref" in node:
            if set(node) - {"$ref"}:
                found.append(f"{path}: $ref with siblings")
            return
        kinds = node.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds] if kinds else []
        allowed = set(KEYWORDS["common"])
        for kind in kinds:
            if kind not in TYPES:
                found.append(f"{path}: type {kind}")
            allowed |= KEYWORDS.get(kind, set())
        if "anyOf" not in node and "enum" not in node and not kinds:
            found.append(f"{path}: no type")
        for key in set(node) - allowed:
            found.append(f"{path}: keyword {key}")
        if node.get("format") is not None and node["format"] not in STRING_FORMATS:
            found.append(f"{path}: format {node['format']}")
        counts["enum"] += len(node.get("enum", []))
        for i, branch in enumerate(node.get("anyOf", [])):
            walk(branch, f"{path}.anyOf[{i}]", depth)
        if "object" in kinds:
            if depth + 1 > 10:
                found.append(f"{path}: nested past 10 levels")
            if node.get("additionalProperties") is not False:
                found.append(f"{path}: additionalProperties is not false")
            properties = node.get("properties", {})
            if sorted(node.get("required", [])) != sorted(properties):
                found.append(f"{path}: not every property is required")
            counts["properties"] += len(properties)
            for name, sub in properties.items():
                walk(sub, f"{path}.{name}", depth + 1)
        if "array" in kinds:
            walk(node.get("items"), f"{path}[*]", depth)

    if schema.get("type") != "object" or "anyOf" in schema:
        found.append("$: the root is not an object")
    walk({k: v for k, v in schema.items() if k != "$defs"}, "$", 0)
    for name, sub in schema.get("$defs", {}).items():
        walk(sub, f"$defs.{name}", 0)
    if counts["properties"] > 5000 or counts["enum"] > 1000:
        found.append("$: over the size limits")
    return found


# --- tools ------------------------------------------------------------------------------------------


class Colour(Enum):
    RED = "red"
    BLUE = "blue"


class Address(BaseModel):
    """Where a parcel goes."""

    street: str
    city: str = Field(description="City name")
    floor: int | None = None
    note: str = ""


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = 9


class Dog(BaseModel):
    kind: Literal["dog"]
    good: bool = True


@tool(strict=True)
def ship(
    to: Address,
    speed: Literal["slow", "fast"] = "slow",
    note: str | None = None,
    copies: int = 1,
    colour: Colour = Colour.RED,
    tags: Annotated[list[str], Field(max_length=3)] = [],  # noqa: B006
    name: Annotated[str, Field(min_length=1, max_length=20)] = "parcel",
    pet: Annotated[Cat | Dog, Field(discriminator="kind")] | None = None,
    back: Address | None = None,
) -> str:
    """Ship a parcel.

    Args:
        to: The address.
        copies: How many parcels.
    """
    return f"{to.city} {speed} {note} {copies} {colour.value} {tags} {name} {pet} {back}"


@tool(strict=True)
def simple(a: int, b: str = "x") -> str:
    """Simple."""
    return f"{a}{b}"


STRICT_TOOLS = [ship, simple]


@pytest.mark.parametrize("made", STRICT_TOOLS, ids=lambda t: t.name)
def test_the_strict_schema_keeps_openai_s_documented_rules(made: Any) -> None:
    assert made.strict
    assert openai_strict_violations(made.input_schema) == []


@pytest.mark.parametrize("made", STRICT_TOOLS, ids=lambda t: t.name)
def test_the_agents_sdk_finds_nothing_left_to_make_strict(made: Any) -> None:
    schema = copy.deepcopy(made.input_schema)
    assert ensure_strict_json_schema(schema) == made.input_schema


def test_the_strict_schema_is_pinned() -> None:
    assert simple.input_schema == {
        "additionalProperties": False,
        "properties": {"a": {"type": "integer"}, "b": {"type": ["string", "null"]}},
        "required": ["a", "b"],
        "type": "object",
    }
    props = ship.input_schema["properties"]
    address = ship.input_schema["$defs"]["Address"]
    # A described reference is the definition inlined: strict mode wants a $ref alone.
    assert props["to"] == {**address, "description": "The address."}
    assert props["back"] == {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}]}
    assert props["copies"] == {"description": "How many parcels.", "type": ["integer", "null"]}
    assert props["tags"] == {  # maxItems is in the subset
        "anyOf": [{"items": {"type": "string"}, "maxItems": 3, "type": "array"}, {"type": "null"}]
    }
    # Lengths are not: they move to the description, and the tool still checks them.
    assert props["name"] == {"description": "(maxLength 20, minLength 1)", "type": ["string", "null"]}
    assert props["pet"] == {  # a tagged union (oneOf) is an anyOf
        "anyOf": [{"anyOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]}, {"type": "null"}]
    }
    assert ship.input_schema["$defs"]["Cat"]["properties"]["kind"] == {"enum": ["cat"], "type": "string"}
    assert "default" not in str(ship.input_schema)
    assert address["required"] == ["street", "city", "floor", "note"]
    assert address["properties"]["floor"] == {"anyOf": [{"type": "integer"}, {"type": "null"}]}


async def test_a_strict_call_s_nulls_mean_the_defaults() -> None:
    args = {
        "to": {"street": "1 Main", "city": "Oslo", "floor": None, "note": None},
        "speed": None,
        "note": None,
        "copies": None,
        "colour": "blue",
        "tags": None,
        "name": None,
        "pet": {"kind": "dog", "good": None},
        "back": None,
    }
    result = await ship.call(args)
    assert not result.is_error, result.output
    assert result.output == "Oslo slow None 1 blue [] parcel kind='dog' good=True None"
    # A constraint moved to the description is still the tool's own check.
    long = await ship.call({**args, "name": "x" * 21})
    assert long.is_error and "$.name" in long.output
    assert await simple.call({"a": 1, "b": None}) == ToolResult.ok("1x")


def test_the_adapters_pass_strict_through() -> None:
    assert openai_chat_tools([simple])[0]["function"]["strict"] is True
    assert openai_responses_tools([simple])[0]["strict"] is True
    assert anthropic_tools([simple])[0]["strict"] is True

    @tool
    def loose(a: int) -> str:
        return ""

    assert "strict" not in openai_chat_tools([loose])[0]["function"]
    assert openai_responses_tools([loose])[0]["strict"] is False
    assert "strict" not in anthropic_tools([loose])[0]
    assert openai_responses_tools([loose.spec()])[0]["strict"] is False  # a ToolSpec is never strict


@pytest.mark.parametrize(
    ("annotation", "want"),
    [
        (dict[str, int], r"@tool 'odd': strict=True, but parameter 'x': a free-form object"),
        (tuple[int, str], r"@tool 'odd': strict=True, but parameter 'x': prefixItems is not supported"),
        (Any, r"@tool 'odd': strict=True, but parameter 'x': any value is allowed here"),
    ],
    ids=["dict", "tuple", "any"],
)
def test_a_signature_strict_mode_cannot_express_is_one_clear_error(annotation: Any, want: str) -> None:
    def odd(x: Any) -> str:
        return ""

    odd.__annotations__ = {"x": annotation, "return": str}
    with pytest.raises(TypeError, match=want):
        tool(strict=True)(odd)


def test_define_tool_strict_checks_the_given_schema() -> None:
    good = {
        "type": "object",
        "properties": {"q": {"type": "string"}, "n": {"type": ["integer", "null"]}},
        "required": ["q", "n"],
        "additionalProperties": False,
    }
    made = define_tool("find", "Find", good, lambda args, ctx: "", strict=True)
    assert made.strict and openai_chat_tools([made])[0]["function"]["strict"] is True
    bad = {"type": "object", "properties": {"q": {"type": "string", "minLength": 1}}, "required": []}
    with pytest.raises(ValueError, match=r"define_tool 'find': strict=True, but the input schema") as caught:
        define_tool("find", "Find", bad, lambda args, ctx: "", strict=True)
    message = str(caught.value)
    for problem in ("minLength is not supported", "additionalProperties must be false", "not: q"):
        assert problem in message
    with pytest.raises(ValueError, match="strict=True needs an input_schema"):
        define_tool("find", "Find", None, lambda args, ctx: "", strict=True)
