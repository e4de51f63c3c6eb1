"""The adapter vectors (`idl/adapters/`, format in its README): every case, through the Python
adapters. `tests/typescript/adapter_vectors.test.ts` runs the same files through the TypeScript ones.
The files are read with every number's text kept, as the TypeScript runner reads them: a
`structuredContent` read back into an output (`result_in`) is written with the text it came with."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from toolnexus_wire._number import loads

from toolnexus import ToolCallResult, ToolSpec, WireError
from toolnexus import adapters as a
from toolnexus.adapters import PartLimit

VECTORS = Path(__file__).resolve().parents[2] / "idl" / "adapters"
TARGETS = ("openai_chat", "openai_responses", "anthropic", "gemini", "mcp")

FUNCTIONS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "openai_chat": {
        "tools": a.openai_chat_tools,
        "calls": a.openai_chat_tool_calls,
        "result": a.openai_chat_messages,
    },
    "openai_responses": {
        "tools": a.openai_responses_tools,
        "calls": a.openai_responses_tool_calls,
        "result": a.openai_responses_output,
    },
    "anthropic": {
        "tools": a.anthropic_tools,
        "calls": a.anthropic_tool_calls,
        "result": a.anthropic_tool_result,
    },
    "gemini": {"tools": a.gemini_tools, "calls": a.gemini_tool_calls, "result": a.gemini_function_response},
    "mcp": {
        "tools": a.mcp_tools,
        "calls": a.mcp_tool_calls,
        "result": lambda call, **options: a.mcp_call_tool_result(call.result, **options),
        "result_in": a.from_mcp_call_tool_result,
    },
}

#: The Python SDK's snake_case keys that the TypeScript SDK (and the REST API) spell in camelCase.
_GEMINI_KEYS = {
    "function_declarations": "functionDeclarations",
    "parameters_json_schema": "parametersJsonSchema",
    "function_response": "functionResponse",
    "inline_data": "inlineData",
    "mime_type": "mimeType",
    "file_data": "fileData",
    "file_uri": "fileUri",
    "display_name": "displayName",
}


def _gemini_form(value: Any, opaque: bool = False) -> Any:
    """Python's Gemini output in the vectors' form: camelCase keys and base64 data, leaving the
    input schema and the `response` object as they are."""
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, list):
        return [_gemini_form(item) for item in value]
    if isinstance(value, dict) and not opaque:
        return {
            _GEMINI_KEYS.get(k, k): _gemini_form(v, opaque=k in ("parameters_json_schema", "response"))
            for k, v in value.items()
        }
    return value


def _cases() -> list[Any]:
    out = []
    for target in TARGETS:
        doc = loads((VECTORS / f"{target}.json").read_text(encoding="utf-8"))
        assert doc["target"] == target
        out += [pytest.param(target, case, id=f"{target}: {case['name']}") for case in doc["cases"]]
    return out


def _options(case: dict[str, Any]) -> dict[str, Any]:
    """A result case's `options` as the adapter's keyword arguments."""
    given = case.get("options", {})
    assert set(given) <= {"structured", "partLimits"}, case["name"]
    options: dict[str, Any] = {}
    if "structured" in given:
        options["structured"] = given["structured"]
    if "partLimits" in given:
        options["part_limits"] = {kind: PartLimit(**limit) for kind, limit in given["partLimits"].items()}
    return options


def test_every_target_has_a_file_and_every_function_a_case() -> None:
    assert sorted(p.stem for p in VECTORS.glob("*.json")) == sorted([*TARGETS, "limits"])
    for target in TARGETS:
        doc = json.loads((VECTORS / f"{target}.json").read_text(encoding="utf-8"))
        functions = {"tools", "calls", "result"} | ({"result_in"} if target == "mcp" else set())
        assert {case["function"] for case in doc["cases"]} == functions, target


def _refused(expected: dict[str, Any], got: dict[str, Any]) -> dict[str, Any]:
    """`got` as the vector writes it: with `outputStartsWith` when the vector has it."""
    prefix = expected.get("outputStartsWith")
    if prefix is None:
        return got
    assert got["result"]["isError"] is True
    output = got["result"]["output"]
    return {
        "id": got["id"],
        "name": got["name"],
        "outputStartsWith": prefix if output.startswith(prefix) else output,
    }


@pytest.mark.parametrize(("target", "case"), _cases())
def test_adapter_vector(target: str, case: dict[str, Any]) -> None:
    function = FUNCTIONS[target][case["function"]]
    given, expected = case["input"], case["expected"]
    if case["function"] == "tools":
        got: Any = function([ToolSpec.from_wire(spec) for spec in given])
    elif case["function"] == "result":
        got = function(ToolCallResult.from_wire(given), **_options(case))
    elif case["function"] == "result_in":
        try:
            got = loads(function(given).to_json())
        except WireError as exc:
            got = {"error": {"path": exc.path}}
    else:
        parsed = function(given)
        refused = [r.to_wire() for r in parsed.refused]
        got = {
            "calls": [c.to_wire() for c in parsed.calls],
            "refused": [_refused(e, r) for e, r in zip(expected["refused"], refused, strict=False)]
            + refused[len(expected["refused"]) :],
        }
    if target == "gemini":
        got = _gemini_form(got)
    assert json.loads(json.dumps(got)) == expected


def test_metadata_never_reaches_a_provider() -> None:
    """Every result case whose input has metadata: none of its keys or values is in the output."""
    for target in TARGETS:
        doc = json.loads((VECTORS / f"{target}.json").read_text(encoding="utf-8"))
        with_metadata = [
            c for c in doc["cases"] if c["function"] == "result" and "metadata" in c["input"]["result"]
        ]
        assert with_metadata, target
        for case in with_metadata:
            text = json.dumps(case["expected"])
            for key in case["input"]["result"]["metadata"]:
                assert f'"{key}"' not in text, (target, case["name"], key)
