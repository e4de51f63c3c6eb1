# Generated from idl/ (deep schema 0.3.0, sha256 4dc98f140ed7c0ffdcb8df9a9b23e58b0b4ab442c36ab15e0be5a35f0940376b).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

from __future__ import annotations

from typing import Annotated, Any, Literal
from pydantic import BaseModel, ConfigDict, Field
from toolnexus_wire._base import given, wire_init
from toolnexus_wire._bases import DocBase, ParaBase, SectionBase, SpanBase


class Span(SpanBase):
    """
    A run of text in one style.

    Fields (wire key in brackets where it differs):
        text: The text.
        style: How it is set.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self, text: str, style: Literal["plain", "bold", "code"] | None = None
    ) -> None:
        """A `Span` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(self, text=text, **given(style=style))

    text: str
    """
    The text.
    """
    style: Literal["plain", "bold", "code"] | None = None
    """
    How it is set.
    """


class Para(ParaBase):
    """
    A paragraph of spans.

    Fields (wire key in brackets where it differs):
        spans: The spans; always written.
        grid: Rows of spans: an array of arrays of references.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(self, spans: list[Span], grid: list[list[Span]] | None = None) -> None:
        """A `Para` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(self, spans=spans, **given(grid=grid))

    spans: list[Span]
    """
    The spans; always written.
    """
    grid: list[list[Span]] | None = None
    """
    Rows of spans: an array of arrays of references.
    """


class Section(SectionBase):
    """
    A section of paragraphs.

    Fields (wire key in brackets where it differs):
        heading: The section heading.
        paras: The paragraphs; always written.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(self, heading: str, paras: list[Para]) -> None:
        """A `Section` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(self, heading=heading, paras=paras)

    heading: str
    """
    The section heading.
    """
    paras: list[Para]
    """
    The paragraphs; always written.
    """


class Doc(DocBase):
    """
    A document of sections.

    Fields (wire key in brackets where it differs):
        title: The document's title.
        sections: The sections, in order; omitted when empty.
        lead: An optional first section.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self,
        title: str,
        sections: list[Section] | None = None,
        lead: Section | None = None,
    ) -> None:
        """A `Doc` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(self, title=title, **given(sections=sections, lead=lead))

    title: str
    """
    The document's title.
    """
    sections: Annotated[list[Section], Field(validate_default=True)] = []
    """
    The sections, in order; omitted when empty.
    """
    lead: Section | None = None
    """
    An optional first section.
    """
