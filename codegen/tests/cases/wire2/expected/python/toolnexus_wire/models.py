# Generated from idl/ (wire2 schema 1.0.0, sha256 f6e9383411275297c30ab302ae6e2d5c71a68e0ad76b38167f649b072175702e).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

from __future__ import annotations

from typing import Annotated, Any, Literal
from pydantic import BaseModel, ConfigDict, Field
from toolnexus_wire._base import given, wire_init
from toolnexus_wire._bases import OutcomeBase, PieceBase


class Piece(PieceBase):
    """
    One piece of an outcome.

    Fields (wire key in brackets where it differs):
        kind [type]: What the piece is; `kind` in the APIs.
        label: A label; omitted when empty.
        body: The piece itself: any JSON value but null.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self, kind: Literal["text", "blob"], body: Any, label: str = ""
    ) -> None:
        """A `Piece` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(self, kind=kind, label=label, body=body)

    kind: Annotated[Literal["text", "blob"], Field(alias="type")]
    """
    What the piece is; `kind` in the APIs.
    """
    label: str = ""
    """
    A label; omitted when empty.
    """
    body: Any
    """
    The piece itself: any JSON value but null.
    """


class Outcome(OutcomeBase):
    """
    A summary, a value and pieces; no other keys.

    Fields (wire key in brackets where it differs):
        summary: What happened.
        result_value [result]: The value, when there is one: any JSON but null; `resultValue` in the APIs.
        pieces: The pieces; omitted when empty.
        note: A note; omitted when empty.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="forbid",
    )

    @wire_init
    def __init__(
        self,
        summary: str,
        result_value: Any | None = None,
        pieces: list[Piece] | None = None,
        note: str = "",
    ) -> None:
        """A `Outcome` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(
            self,
            summary=summary,
            note=note,
            **given(result_value=result_value, pieces=pieces),
        )

    summary: str
    """
    What happened.
    """
    result_value: Annotated[Any | None, Field(alias="result")] = None
    """
    The value, when there is one: any JSON but null; `resultValue` in the APIs.
    """
    pieces: Annotated[list[Piece], Field(validate_default=True)] = []
    """
    The pieces; omitted when empty.
    """
    note: str = ""
    """
    A note; omitted when empty.
    """
