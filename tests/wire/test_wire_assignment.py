"""Assignment is checked and nothing invalid is emitted: an invalid assignment is refused,
metadata with a key that is not a string is never written, and a handler that returns one gets
an error result."""

from __future__ import annotations

from typing import Any

import pytest

from toolnexus import (
    ContentPart,
    ToolContext,
    ToolResult,
    define_tool,
)

# -- assignment is checked; nothing invalid is emitted -------------------------------------------


def test_an_invalid_assignment_is_refused() -> None:
    r = ToolResult.ok("x")
    with pytest.raises(ValueError):
        r.output = 5  # type: ignore[assignment]
    with pytest.raises(ValueError):
        r.is_error = "yes"  # type: ignore[assignment]
    with pytest.raises(ValueError):
        r.metadata = {1: "a"}  # type: ignore[dict-item]
    p = ContentPart("image", mime_type="image/png", data="AAAA")
    with pytest.raises(ValueError):
        p.data = "not base64!"
    assert r.to_json() == '{"output":"x","isError":false}'
    assert p.to_json() == ContentPart("image", mime_type="image/png", data="AAAA").to_json()
    r.output = "y"  # a valid one is taken
    assert r.to_json() == '{"output":"y","isError":false}'


@pytest.mark.parametrize(
    "meta", [{1: "int key", "1": "str key"}, {None: 0}, {True: 1}, {"a": [{2: "nested"}]}], ids=repr
)
def test_metadata_with_a_key_that_is_not_a_string_is_never_emitted(meta: dict[Any, Any]) -> None:
    r = ToolResult.ok("x").with_metadata(meta)
    with pytest.raises(ValueError, match="not a string"):
        r.to_json()


async def test_a_handler_returning_a_dict_with_a_key_that_is_not_a_string_gets_an_error_result() -> None:
    async def handler(args: dict[str, Any], ctx: ToolContext) -> Any:
        return {1: "a", "1": "b"}

    result = await define_tool("t", "", None, handler).call({})
    assert result.is_error and result.output.startswith("the tool returned a value that is not JSON: ")
