"""The fast argument checks of `Tool.call` against the validators they stand in for.

- An explicit JSON Schema is checked first by `fast_acceptor` (pydantic-core), then, when
  it refuses, by `jsonschema`. The acceptor must never accept what `jsonschema` rejects:
  differential properties over generated schemas and hostile values pin that.
- A typed tool checks its arguments with a typed dict of the model's field validators; it
  must give the same values and errors as the model itself.
"""

from __future__ import annotations

import math
import os
from collections import OrderedDict
from types import MappingProxyType
from typing import Annotated, Any, Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

import toolnexus
from toolnexus._function_tool import _fields_check
from toolnexus._schema import fast_acceptor, validator_for

#: Left out by `make test-fast`: 1,500 generated schemas.
pytestmark = pytest.mark.slow

SCALE = int(os.environ.get("TOOLNEXUS_FUZZ_SCALE", "1"))

# --- schemas in (and slightly outside) the subset the acceptor compiles ----------------------------

names = st.sampled_from(["a", "b", "n", "tags", "mode", "x y", ""])
counts = st.integers(0, 4)
int_bounds = st.one_of(st.integers(-3, 3), st.just(2**53), st.just(-(2**63)))
num_bounds = st.one_of(
    int_bounds, st.floats(-3, 3), st.just(9007199254740992.0), st.just(0.5), st.just(1e308)
)


def _with(base: dict[str, Any], optional: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    return st.fixed_dictionaries(base, optional=optional)


leaf_schemas = st.one_of(
    st.just({}),
    st.just(True),
    _with({"type": st.just("string")}, {"minLength": counts, "maxLength": counts, "description": st.text()}),
    _with(
        {"type": st.just("string"), "enum": st.lists(st.sampled_from(["a", "b", "1", ""]), min_size=1)}, {}
    ),
    _with(
        {"type": st.just("integer")},
        {
            "minimum": int_bounds,
            "maximum": int_bounds,
            "exclusiveMinimum": num_bounds,
            "format": st.just("int32"),
        },
    ),
    _with(
        {"type": st.just("number")},
        {"minimum": num_bounds, "maximum": num_bounds, "exclusiveMaximum": num_bounds},
    ),
    st.just({"type": "boolean"}),
    st.just({"type": "null"}),
    # outside the subset: the acceptor must decline them, or compile them soundly
    st.just({"type": "string", "pattern": "^a$"}),
    st.just({"type": ["string", "null"]}),
    st.just({"type": ["integer", "string"], "minimum": 1, "maxLength": 1}),
    st.just({"type": ["number", "boolean"], "exclusiveMaximum": 2}),
    st.just({"anyOf": [{"type": "integer", "maximum": 0}, {"type": "string", "enum": ["a"]}]}),
    st.just({"anyOf": [{"type": "null"}, {"type": "array", "items": {"type": "boolean"}}], "default": None}),
    st.just({"enum": [1, True]}),
    st.just({"type": "string", "enum": ["a"], "minLength": 2}),
)


def _nested(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    objects = _with(
        {"type": st.just("object")},
        {
            "properties": st.dictionaries(names, children, max_size=3),
            "required": st.lists(names, max_size=3, unique=True),
            "additionalProperties": st.sampled_from([True, False]),
            "title": st.just("T"),
        },
    )
    arrays = _with({"type": st.just("array")}, {"items": children, "minItems": counts, "maxItems": counts})
    return st.one_of(objects, arrays)


schemas = st.recursive(leaf_schemas, _nested, max_leaves=8)
root_schemas = _with(
    {"type": st.just("object")},
    {
        "properties": st.dictionaries(names, schemas, max_size=4),
        "required": st.lists(names, max_size=3, unique=True),
        "additionalProperties": st.sampled_from([True, False]),
        "$schema": st.sampled_from(
            ["https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#"]
        ),
    },
)

# --- values: JSON and the Python look-alikes a caller might pass -----------------------------------

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([0, 1, -1, 3, 2**53, 2**53 + 1, -(2**63) - 1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1.0, -0.0, 0.5, 9007199254740992.0]),
    st.text(max_size=5),
    st.sampled_from(["a", "b", "1", "", "ab"]),
)
values = st.recursive(
    scalars,
    lambda kids: st.one_of(
        st.lists(kids, max_size=4),
        st.lists(kids, max_size=3).map(tuple),
        st.dictionaries(names, kids, max_size=4),
        st.dictionaries(names, kids, max_size=2).map(OrderedDict),
        st.dictionaries(names, kids, max_size=2).map(MappingProxyType),
    ),
    max_leaves=10,
)
arguments = st.dictionaries(names, values, max_size=4)


def _valid(schema: dict[str, Any], value: Any) -> bool:
    return bool(validator_for(schema)(schema).is_valid(value))


def _accepts(accept: Any, value: Any) -> bool:
    try:
        accept(value)
    except ValidationError:
        return False
    return True


@settings(max_examples=1500 * SCALE, deadline=None, suppress_health_check=list(HealthCheck))
@given(schema=root_schemas, data=st.data())
def test_the_fast_acceptor_never_accepts_what_jsonschema_rejects(schema: dict[str, Any], data: Any) -> None:
    validator_for(schema).check_schema(schema)  # the strategies write only valid schemas
    accept = fast_acceptor(schema)
    if accept is None:
        return
    for _ in range(5):
        value = data.draw(arguments)
        if _accepts(accept, value):
            assert _valid(schema, value), (schema, value)


# --- the fast path is actually taken for the schemas tools have -------------------------------------

TYPICAL = [
    (
        {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
            "additionalProperties": False,
        },
        {"a": 1, "b": 2},
    ),
    (
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "description": "Search the web",
            "properties": {
                "query": {"type": "string", "minLength": 1, "description": "what to look for"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
                "safe": {"type": "boolean"},
                "lang": {"type": "string", "enum": ["en", "fr", "de"]},
                "score": {"type": "number", "exclusiveMinimum": 0, "maximum": 1.5},
                "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
                "filters": {
                    "type": "object",
                    "properties": {"site": {"type": "string"}, "after": {"type": ["string", "null"]}},
                },
                "note": {"type": "null"},
                "when": {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0}]},
            },
            "required": ["query"],
        },
        {
            "query": "rust serde",
            "limit": 5,
            "safe": True,
            "lang": "fr",
            "score": 0.25,
            "tags": ["a", "b"],
            "filters": {"other": 1},
            "note": None,
            "when": 3,
            "unknown": [1, {"x": None}],
        },
    ),
    # The schema pydantic writes for `@tool` functions.
    (
        create_model("m", a=(int, ...), b=(str, "x"), c=(list[float], [])).model_json_schema(),
        {"a": 1, "c": [1.5, 2]},
    ),
]


@pytest.mark.parametrize(("schema", "args"), TYPICAL)
def test_typical_schemas_and_arguments_take_the_fast_path(
    schema: dict[str, Any], args: dict[str, Any]
) -> None:
    assert _valid(schema, args)
    accept = fast_acceptor(schema)
    assert accept is not None and _accepts(accept, args)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"s": {"type": "string", "pattern": "^a$"}}},
        {"type": "object", "anyOf": [{"required": ["a"]}]},
        {"type": "object", "additionalProperties": {"type": "string"}},
        {"type": "object", "properties": {"n": {"type": "integer", "minimum": math.inf}}},
        {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"},
        {"type": "object", "properties": {"t": {"type": ["string", "nothing"]}}},
        {"type": "object", "properties": {"t": {"anyOf": [{"type": "string"}], "maxLength": 2}}},
    ],
)
def test_schemas_beyond_the_subset_have_no_fast_path(schema: dict[str, Any]) -> None:
    assert fast_acceptor(schema) is None


async def test_what_the_fast_path_refuses_is_still_decided_by_jsonschema() -> None:
    async def handler(args: dict[str, Any], ctx: toolnexus.ToolContext) -> str:
        return repr(args["n"])

    t = toolnexus.define_tool(
        "t",
        "",
        {"type": "object", "properties": {"n": {"type": "integer", "maximum": 3}}, "required": ["n"]},
        handler,
    )
    assert (await t.call({"n": 2})).output == "2"
    assert (await t.call({"n": 2.0})).output == "2.0"  # an integer to JSON Schema, refused by the fast check
    bad = await t.call({"n": 4})
    assert bad.is_error and bad.output == "invalid arguments for t: $.n: 4 is greater than the maximum of 3"


# --- typed tools: the typed dict agrees with the model ------------------------------------------------


class Inner(BaseModel):
    x: int


FIELD_SETS: list[dict[str, Any]] = [
    {"a": (int, ...), "b": (int, ...)},
    {
        "s": (Annotated[str, Field(min_length=2)], "zz"),
        "f": (float | None, None),
        "m": (Literal["a", "b"], "a"),
    },
    {"xs": (list[int], ...), "d": (dict[str, bool], {})},
    {"inner": (Inner, ...)},  # nested model: the model's own validator is used
]
typed_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(allow_nan=False),
    st.sampled_from(["3", "x", "a", "zz"]),
    st.lists(st.sampled_from([1, "2", "x", True]), max_size=3),
    st.dictionaries(st.sampled_from(["x", "k"]), st.sampled_from([1, "1", True, "x"]), max_size=2),
)


@pytest.mark.parametrize("fields", FIELD_SETS, ids=["ints", "defaults", "containers", "nested"])
@settings(max_examples=300 * SCALE, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_typed_check_gives_what_the_model_gives(fields: dict[str, Any], data: Any) -> None:
    model = create_model("args", __config__=ConfigDict(extra="forbid"), **fields)
    check = _fields_check(model)
    keys = [*fields, "extra"]
    args = data.draw(st.dictionaries(st.sampled_from(keys), typed_values, max_size=len(keys)))
    got, problems = check(args)
    try:
        expected = model.model_validate(args)
    except ValidationError as exc:
        assert problems == [f"{toolnexus_path(e['loc'])}: {e['msg']}" for e in exc.errors()]
        assert got is args
    else:
        assert problems == []
        assert got == expected.__dict__


def toolnexus_path(loc: tuple[int | str, ...]) -> str:
    from toolnexus_wire import json_path

    return json_path(loc)
