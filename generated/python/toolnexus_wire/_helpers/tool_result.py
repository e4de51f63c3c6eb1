# Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/tool_result.py (hand-written, copied verbatim).
# codegen: copy; requires ToolResult
"""`ToolResult.ok`, `error` and `with_metadata`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from .._base import WireModel

__all__ = ["ToolResultHelpers"]


class ToolResultHelpers(WireModel):
    """The constructors and copies of `ToolResult` beyond its fields."""

    if TYPE_CHECKING:  # declared by the generated model; named here for the type checker only
        parts: list[Any]
        metadata: dict[str, Any] | None

    @classmethod
    def ok(cls, output: str) -> Self:
        """A successful result with `output` for the model."""
        # The validator straight away, not `cls(...)`: the same checks without pydantic's
        # Python-level `__init__`; an explicit [] is cheaper than its copy of the default.
        result: Self = cls.__pydantic_validator__.validate_python({"output": output, "parts": []})
        return result

    @classmethod
    def error(cls, message: str) -> Self:
        """A failed result; `message` is what the model reads."""
        result: Self = cls.__pydantic_validator__.validate_python(
            {"output": message, "isError": True, "parts": []}
        )
        return result

    def with_metadata(self, meta: dict[str, Any]) -> Self:
        """A copy with `meta`'s keys added to the metadata (replacing keys it already has).

        The original is unchanged; its other metadata, such as a pending request, is kept.
        """
        merged = {**self.metadata, **meta} if self.metadata else dict(meta)
        return self.model_copy(update={"metadata": merged, "parts": list(self.parts)})
