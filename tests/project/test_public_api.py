"""The public names are pinned: every addition to the API is deliberate.

The wire types' names come from the IDL, so a type added to `idl/` must show up here
through `make gen` and the runtime's re-exports, not through an edit of this list.
"""

import inspect
from pathlib import Path

import pytest
import toolnexus_wire

import toolnexus
from codegen.idl import load

IDL = load(Path(__file__).resolve().parents[2] / "idl")
WIRE_TYPES = [t.name for t in IDL.types]

RUNTIME_NAMES = [
    "DirectorySpill",
    "Limit",
    "ResultSpill",
    "ResumeError",
    "Tool",
    "ToolContext",
    "Toolkit",
    "ToolnexusError",
    "UsageError",
    "WireError",
    "auth_required",
    "define_tool",
    "pending",
    "pending_of",
    "read_result",
    "tool",
]


def test_all_is_the_wire_types_and_the_runtime_names_sorted():
    assert toolnexus.__all__ == sorted(WIRE_TYPES + RUNTIME_NAMES)
    for name in toolnexus.__all__:
        assert getattr(toolnexus, name) is not None


def test_the_wire_package_exports_the_idl_types_and_its_base():
    assert toolnexus_wire.__all__ == sorted(
        [
            *WIRE_TYPES,
            *("JsonNumber", "MAX_DEPTH", "SCHEMA_VERSION", "ToolnexusError", "WireError", "WireModel"),
            *("dumps", "json_path", "check_mime_type", "check_url", "displayable"),
        ]
    )
    assert IDL.version == toolnexus_wire.SCHEMA_VERSION


def test_one_class_per_wire_type():
    """`toolnexus.X` is the generated model itself: no second class, no re-declared field."""
    for name in WIRE_TYPES:
        cls = getattr(toolnexus, name)
        assert cls is getattr(toolnexus_wire, name), name
        assert cls.__module__ == "toolnexus_wire.models", name
        wire_keys = next(t for t in IDL.types if t.name == name).fields
        assert [f.alias or k for k, f in cls.model_fields.items()] == [f.wire_name for f in wire_keys], name


def test_errors_name_their_public_package():
    assert toolnexus.WireError is toolnexus_wire.WireError
    assert toolnexus.WireError.__module__ == "toolnexus_wire"
    assert toolnexus.ResumeError.__module__ == "toolnexus"


def test_one_error_tree():
    """`ToolnexusError` is the root of every error toolnexus raises, each a `ValueError`, as
    `toolnexus/_errors.py` draws it."""
    from toolnexus._errors import __doc__ as drawn
    from toolnexus._strict import StrictSchemaError
    from toolnexus.inbox import InboxError
    from toolnexus.store import OutcomeNotStored

    assert toolnexus.ToolnexusError is toolnexus_wire.ToolnexusError
    tree = {
        toolnexus.WireError: toolnexus.ToolnexusError,
        toolnexus.ResumeError: toolnexus.ToolnexusError,
        toolnexus.UsageError: toolnexus.ToolnexusError,
        StrictSchemaError: toolnexus.UsageError,
        OutcomeNotStored: toolnexus.ToolnexusError,
        InboxError: toolnexus.ToolnexusError,
    }
    for error, parent in tree.items():
        assert error.__bases__ == (parent,), error
        assert issubclass(error, ValueError), error
        assert error.__name__ in drawn, f"{error.__name__} is not drawn in the tree"
    for a in tree:
        for b in tree:
            if a is not b and tree.get(a) is not b and tree[b] is not a:
                assert not issubclass(a, b), (a, b)


def test_a_developers_mistake_is_a_usage_error_and_still_a_value_error():
    with pytest.raises(toolnexus.UsageError, match="at least 16") as info:
        toolnexus.Toolkit(secret=b"short")
    assert isinstance(info.value, ValueError)
    kit = toolnexus.Toolkit([toolnexus.define_tool("t", "", None, lambda a, c: "ok")])
    with pytest.raises(toolnexus.UsageError, match="already registered"):
        kit.register(toolnexus.define_tool("t", "", None, lambda a, c: "ok"))
    with pytest.raises(ValueError, match="timeout"):
        toolnexus.ToolContext(timeout=float("nan"))


def test_the_runtime_imports_only_public_names_of_the_wire_package():
    root = Path(toolnexus.__file__).parent
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "toolnexus_wire._" not in text, path
        assert "type: ignore" not in text, path


def test_the_positional_constructor_is_the_generated_class_own():
    """Required fields first, in schema order; a constructor default (Request.id) moves a field after them."""
    for name, want in [
        (
            "ContentPart",
            [
                *("self", "kind", "text", "mime_type", "data", "url", "name"),
                *("title", "description", "annotations"),
            ],
        ),
        ("Request", ["self", "kind", "prompt", "id", "url", "data", "expires_at"]),
        ("Answer", ["self", "id", "ok", "data", "reason", "message", "scope"]),
        ("RunResult", ["self", "status", "results", "pending", "calls", "requests", "order", "turn", "seal"]),
    ]:
        cls = getattr(toolnexus, name)
        assert "__init__" in vars(cls), name
        assert list(inspect.signature(cls.__init__).parameters) == want, name


def test_the_version_is_the_package_s_and_the_schema_s() -> None:
    import importlib.metadata

    assert toolnexus.__version__ == toolnexus_wire.SCHEMA_VERSION == IDL.version
    assert toolnexus.__version__ == importlib.metadata.version("toolnexus-contract")
