"""The public names are pinned: every addition to the API is deliberate."""

import toolnexus


def test_all_is_pinned_and_sorted():
    assert toolnexus.__all__ == [
        "Answer",
        "ContentPart",
        "Request",
        "ResumeError",
        "RunResult",
        "Tool",
        "ToolCall",
        "ToolCallResult",
        "ToolContext",
        "ToolResult",
        "ToolSpec",
        "Toolkit",
        "WireError",
        "auth_required",
        "define_tool",
        "pending",
        "pending_of",
        "tool",
    ]
    assert toolnexus.__all__ == sorted(toolnexus.__all__)
    for name in toolnexus.__all__:
        assert getattr(toolnexus, name) is not None


def test_runtime_types_keep_the_wire_fields():
    """A runtime class that re-declares a field (to use a runtime type) keeps its wire key and default."""
    import toolnexus_wire as wire

    for name in [
        "Answer",
        "ContentPart",
        "Request",
        "RunResult",
        "ToolCall",
        "ToolCallResult",
        "ToolResult",
        "ToolSpec",
    ]:
        runtime, generated = getattr(toolnexus, name), getattr(wire, name)
        assert issubclass(runtime, generated)
        assert list(runtime.model_fields) == list(generated.model_fields), name
        for field, info in runtime.model_fields.items():
            base = generated.model_fields[field]
            assert (info.alias, info.is_required()) == (base.alias, base.is_required()), (name, field)
            if not info.is_required():
                assert info.get_default(call_default_factory=True) == base.get_default(
                    call_default_factory=True
                )
