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
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self, text: str, style: Literal["plain", "bold", "code"] | None = None
    ) -> None:
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
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(self, spans: list[Span], grid: list[list[Span]] | None = None) -> None:
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
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(self, heading: str, paras: list[Para]) -> None:
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
