"""`@tool` as the peers' decorators behave: an optional context, docstring parameter
descriptions (Google, NumPy, Sphinx), no generated titles, the function still callable,
and one clear error for a signature that cannot become a schema."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Annotated, Any, Optional

import pytest
from pydantic import BaseModel, Field

from toolnexus import Answer, Tool, ToolCall, ToolContext, Toolkit, define_tool, tool


@pytest.mark.parametrize("default", [True, False])
@pytest.mark.parametrize("style", ["union", "optional"])
async def test_an_optional_context_parameter(default: bool, style: str) -> None:
    annotation: Any = ToolContext | None if style == "union" else Optional[ToolContext]  # noqa: UP045

    def search(query: str, ctx: Any = None) -> str:
        """Search."""
        return f"{query} answered={ctx is not None and ctx.answer is not None}"

    search.__annotations__ = {"query": str, "ctx": annotation, "return": str}
    if not default:
        search.__defaults__ = None
    made = tool(search)
    assert made.input_schema["properties"] == {"query": {"type": "string"}}
    answered = await made.call({"query": "q"}, ToolContext(answer=Answer("x", True)))
    assert answered.output == "q answered=True"
    assert made("q") == "q answered=False" if default else made("q", None) == "q answered=False"


async def test_a_context_parameter_with_a_context_default() -> None:
    @tool
    def where(ctx: ToolContext = ToolContext(call_id="none")) -> str:  # noqa: B008
        """Which call."""
        return ctx.call_id or "direct"

    assert where.input_schema["properties"] == {}
    assert (await where.call({}, ToolContext(call_id="c1"))).output == "c1"
    assert where() == "none"


def test_two_context_parameters_are_refused() -> None:
    with pytest.raises(TypeError, match=r"@tool 'both': parameters 'a' and 'b' both take the context"):

        @tool
        def both(a: ToolContext, b: ToolContext | None = None) -> str:
            return ""


GOOGLE = """Find documents.

    Ranked by relevance.

    Args:
        query: The words to look for.
        limit: How many documents at most.

    Returns:
        The documents' titles.
    """
NUMPY = """Find documents.

    Ranked by relevance.

    Parameters
    ----------
    query : str
        The words to look for.
    limit : int, optional
        How many documents at most.
    """
SPHINX = """Find documents.

    Ranked by relevance.

    :param query: The words to look for.
    :param limit: How many documents at most.
    :returns: The documents' titles.
    """


@pytest.mark.parametrize("doc", [GOOGLE, NUMPY, SPHINX], ids=["google", "numpy", "sphinx"])
def test_docstring_parameter_descriptions(doc: str) -> None:
    def find(query: str, limit: int = 5) -> list[str]:
        return []

    find.__doc__ = doc
    made = tool(find)
    assert made.description == "Find documents.\n\nRanked by relevance."
    assert made.input_schema == {
        "additionalProperties": False,
        "properties": {
            "query": {"description": "The words to look for.", "type": "string"},
            "limit": {"default": 5, "description": "How many documents at most.", "type": "integer"},
        },
        "required": ["query"],
        "type": "object",
    }


def test_an_annotated_description_wins_over_the_docstring() -> None:
    @tool
    def find(query: Annotated[str, Field(description="From the annotation.")]) -> str:
        """Find.

        Args:
            query: From the docstring.
        """
        return query

    assert find.input_schema["properties"]["query"]["description"] == "From the annotation."


def test_a_docstring_without_sections_is_the_description_whole() -> None:
    @tool
    def note(text: str) -> str:
        """Keep a note.

        Notes are kept for a day; a longer text is cut.
        """
        return text

    assert note.description == "Keep a note.\n\nNotes are kept for a day; a longer text is cut."
    assert note.input_schema["properties"] == {"text": {"type": "string"}}


class Point(BaseModel):
    x: int
    y: int = 0


def test_no_generated_titles_but_model_names_stay() -> None:
    @tool
    def move(to: Point, speed: float = 1.0, label: str | None = None) -> str:
        return ""

    schema = move.input_schema
    assert "title" not in schema
    for prop in [*schema["properties"].values(), *schema["$defs"]["Point"]["properties"].values()]:
        assert "title" not in prop
    assert schema["$defs"]["Point"]["title"] == "Point"


async def test_the_decorated_function_stays_callable() -> None:
    @tool
    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    @tool(name="plus")
    async def add_async(a: int, b: int, ctx: ToolContext) -> int:
        """Add."""
        return a + b

    assert isinstance(add, Tool)
    assert add(2, 3) == 5 and add(a=2, b=3) == 5
    assert await add_async(2, 3, ToolContext()) == 5
    assert (await add.call({"a": 2, "b": 3})).output == "5"
    assert add.__wrapped__.__name__ == "add"

    async def handler(args: dict[str, Any], ctx: ToolContext) -> str:
        return str(args["n"])

    defined = define_tool("echo", "Echo", None, handler)
    assert await defined({"n": 1}, ToolContext()) == "1"


class Opaque:
    """A class pydantic knows no schema for."""


@pytest.mark.parametrize(
    ("annotation", "want"),
    [
        (Opaque, r"@tool 'bad': parameter 'thing' \(Opaque\) cannot become a JSON Schema: "),
        (Callable[[int], int], r"@tool 'bad': parameter 'thing' \(.*Callable.*\) cannot become a JSON"),
    ],
    ids=["class", "callable"],
)
def test_a_signature_that_cannot_become_a_schema_is_one_clear_error(annotation: Any, want: str) -> None:
    def bad(n: int, thing: Any) -> str:
        return ""

    bad.__annotations__ = {"n": int, "thing": annotation, "return": str}
    with pytest.raises(TypeError, match=want) as caught:
        tool(bad)
    assert len(str(caught.value).splitlines()) == 1
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_unreadable_type_hints_name_the_tool() -> None:
    def odd(n: NotDefinedAnywhere) -> str:  # type: ignore[name-defined]  # noqa: F821
        return ""

    with pytest.raises(TypeError, match=r"@tool 'odd': its type hints cannot be read: name 'NotDefined"):
        tool(odd)


def test_a_tool_with_nothing_to_describe_it_is_warned_of_where_it_is_defined():
    with pytest.warns(UserWarning) as caught:

        @tool
        def ping(host, count=1):
            return host

    [warning] = caught
    text = str(warning.message)
    assert text.startswith("@tool 'ping': the model is told nothing of what it does: no description")
    assert "no type hint for 'host', 'count'" in text
    assert warning.filename == __file__
    assert ping.description == ""
    assert ping.input_schema["properties"] == {"host": {}, "count": {"default": 1}}


def test_a_parameter_without_a_type_hint_is_warned_of_and_any_says_it_is_meant():
    untyped = r"^@tool 'lookup': no type hint for 'key', which so take any JSON value"
    with pytest.warns(UserWarning, match=untyped):

        @tool
        def lookup(key, ctx: ToolContext):
            """Look a key up."""

    with warnings.catch_warnings():
        warnings.simplefilter("error")

        @tool(description="")
        def quiet() -> None:
            pass

        @tool
        def anything(value: Any) -> None:
            """Take anything."""

    assert quiet.description == "" and anything.input_schema["properties"] == {"value": {}}


async def test_tool_called_on_a_function_keeps_its_keywords() -> None:
    def wipe(path: str) -> str:
        """Delete a folder."""
        return f"wiped {path}"

    made = tool(wipe, name="wipe_folder", needs_approval=True, description="Wipe it.")
    assert (made.name, made.description, made.needs_approval) == ("wipe_folder", "Wipe it.", True)
    run = await Toolkit([made]).run_calls([ToolCall("c1", "wipe_folder", {"path": "tmp"})])
    assert run.status == "pending" and run.requests[0].kind == "approval", run
