# Generated from idl/ (mini schema 0.1.0, sha256 48fd3a01ee3a8aeff58393457f1c5b3755201e6590414d3b8acb17333de67558).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

from __future__ import annotations

from typing import Annotated, Any, Literal
from pydantic import BaseModel, ConfigDict, Field
from toolnexus_wire._base import given, wire_init
from toolnexus_wire._bases import NoteBase


class Note(NoteBase):
    """
    A note.

    Fields (wire key in brackets where it differs):
        text: What it says.
        is_pinned [isPinned]: Pinned to the top.
        author: Who wrote it.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self, text: str, is_pinned: bool = False, author: str | None = None
    ) -> None:
        """A `Note` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(self, text=text, is_pinned=is_pinned, **given(author=author))

    text: str
    """
    What it says.
    """
    is_pinned: Annotated[bool, Field(alias="isPinned")] = False
    """
    Pinned to the top.
    """
    author: Annotated[str | None, Field(min_length=1)] = None
    """
    Who wrote it.
    """
