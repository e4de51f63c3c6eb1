"""The wire types' JSON Schema on every pydantic path, and in a real FastAPI app.

Every path (FastAPI's OpenAPI, `TypeAdapter`, a `GenerateJsonSchema` subclass,
`model_json_schema(mode=...)`, a user model holding a wire type) gives the IDL's schema, in
validation and serialization mode alike, with `null` nowhere (the wire refuses it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import toolnexus_wire
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import GenerateJsonSchema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from toolnexus import RunResult, ToolCall, Toolkit, ToolResult, tool

ROOT = Path(__file__).resolve().parents[2]
BUNDLE_PATH = ROOT / "generated" / "jsonschema" / "toolnexus.schema.json"
BUNDLE: dict[str, Any] = json.loads(BUNDLE_PATH.read_text())["$defs"]
WIRE_TYPES = list(BUNDLE)
MODES = ["validation", "serialization"]


def _rebased(node: Any, prefix: str) -> Any:
    """The bundle's schema with its `#/$defs/` references under `prefix` instead."""
    if isinstance(node, dict):
        return {k: prefix + v[8:] if k == "$ref" else _rebased(v, prefix) for k, v in node.items()}
    if isinstance(node, list):
        return [_rebased(v, prefix) for v in node]
    return node


def _nulls(node: Any, path: str = "$") -> list[str]:
    """Where a schema lets `null` in: a `null` type, or a `null` among the listed types."""
    found: list[str] = []
    if isinstance(node, dict):
        kind = node.get("type")
        if kind == "null" or (isinstance(kind, list) and "null" in kind):
            found.append(path)
        for k, v in node.items():
            found += _nulls(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            found += _nulls(v, f"{path}[{i}]")
    return found


@tool
def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


kit = Toolkit([add])
app = FastAPI()


@app.post("/call", response_model=ToolCall)
async def echo_call(call: ToolCall) -> ToolCall:
    return call


@app.post("/run")
async def run(call: ToolCall) -> RunResult:
    return await kit.run_calls([call])


@app.post("/result")
async def echo_result(result: ToolResult) -> ToolResult:
    return result


@app.get("/result")
async def get_result() -> ToolResult:
    return ToolResult.ok("hi").with_metadata({"n": 1.5})


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(app)


@pytest.fixture(scope="module")
def components(client: TestClient) -> dict[str, Any]:
    spec = client.get("/openapi.json").json()
    schemas: dict[str, Any] = spec["components"]["schemas"]
    return schemas


def test_openapi_components_are_the_idl_schemas(components: dict[str, Any]) -> None:
    # One component per wire type the app uses, input and output alike (no ToolCall-Input/-Output).
    used = {"ContentPart", "Request", "RunResult", "ToolCall", "ToolCallResult", "ToolResult"}
    assert used <= components.keys()
    assert not [name for name in components if name.endswith(("-Input", "-Output"))]
    for name in used:
        assert components[name] == _rebased(BUNDLE[name], "#/components/schemas/"), name
        assert _nulls(components[name]) == [], name


def test_a_real_request_and_response_match_the_published_schema(
    client: TestClient, components: dict[str, Any]
) -> None:
    resource = Resource(contents={"components": {"schemas": components}}, specification=DRAFT202012)
    registry: Registry[Any] = Registry().with_resource("urn:openapi", resource)

    def check(name: str, doc: Any) -> None:
        jsonschema.Draft202012Validator(
            {"$ref": f"urn:openapi#/components/schemas/{name}"}, registry=registry
        ).validate(doc)

    body = {"id": "c1", "name": "add", "arguments": {"a": 1, "b": 2}}
    check("ToolCall", body)
    response = client.post("/run", json=body)
    assert response.status_code == 200
    assert response.text == (
        '{"status":"done","results":[{"id":"c1","name":"add","result":{"output":"3","isError":false}}]}'
    )
    check("RunResult", response.json())
    assert RunResult.from_json(response.text).results[0].result.output == "3"

    echoed = client.post("/call", json=body)
    assert echoed.status_code == 200 and echoed.json() == body

    got = client.get("/result")
    assert got.text == ToolResult.ok("hi").with_metadata({"n": 1.5}).to_json()
    check("ToolResult", got.json())


@pytest.mark.parametrize("field", ["metadata", "structuredContent"])
def test_null_is_refused_by_the_app_and_by_the_published_schema(
    client: TestClient, components: dict[str, Any], field: str
) -> None:
    doc = {"output": "x", field: None}
    response = client.post("/result", json=doc)
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"][:2] == ["body", field]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(
            {**components["ToolResult"], "$defs": {}},
        ).validate(doc)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", WIRE_TYPES)
def test_every_pydantic_path_gives_the_idl_schema(name: str, mode: Any) -> None:
    cls = getattr(toolnexus_wire, name)
    want = BUNDLE[name]

    from_model = cls.model_json_schema(mode=mode)
    assert from_model["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert {k: v for k, v in from_model.items() if k not in ("$schema", "$defs")} == want
    for ref, schema in from_model.get("$defs", {}).items():
        assert schema == BUNDLE[ref]

    from_adapter = TypeAdapter(cls).json_schema(mode=mode)
    assert {k: v for k, v in from_adapter.items() if k != "$defs"} == want

    class Generator(GenerateJsonSchema):
        """A host's own generator, as FastAPI and others subclass it."""

    from_generator = cls.model_json_schema(mode=mode, schema_generator=Generator)
    assert {k: v for k, v in from_generator.items() if k not in ("$schema", "$defs")} == want
    assert _nulls(from_model) == []


@pytest.mark.parametrize("mode", MODES)
def test_a_wire_type_inside_a_user_model_is_a_reference_to_the_idl_schema(mode: Any) -> None:
    class Reply(BaseModel):
        result: ToolResult
        calls: list[ToolCall] = []

    schema = Reply.model_json_schema(mode=mode)
    assert schema["properties"]["result"] == {"$ref": "#/$defs/ToolResult"}
    assert schema["$defs"]["ToolResult"] == BUNDLE["ToolResult"]
    assert schema["$defs"]["ContentPart"] == BUNDLE["ContentPart"]
    assert "$schema" not in schema  # a user model's schema is pydantic's document, not ours


def test_pydantic_own_schema_of_the_python_names_with_by_alias_false() -> None:
    schema = ToolResult.model_json_schema(by_alias=False)
    assert "is_error" in schema["properties"] and "$schema" not in schema
