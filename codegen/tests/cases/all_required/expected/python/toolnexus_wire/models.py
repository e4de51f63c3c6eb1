# Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

from __future__ import annotations

from typing import Annotated, Any, Literal
from pydantic import BaseModel, ConfigDict, Field
from toolnexus_wire._base import given, wire_init
from toolnexus_wire._bases import PointBase


class Point(PointBase):
    """
    A labelled point.

    Fields (wire key in brackets where it differs):
        x: Across.
        y: Down.
        label: Its name.
        tags: Labels, written even when empty.
        visible: Shown or not.
        attrs: Free-form JSON.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="forbid",
    )

    @wire_init
    def __init__(
        self,
        x: float,
        y: float,
        label: str,
        tags: list[str],
        visible: bool,
        attrs: dict[str, Any],
    ) -> None:
        """A `Point` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(
            self, x=x, y=y, label=label, tags=tags, visible=visible, attrs=attrs
        )

    x: float
    """
    Across.
    """
    y: float
    """
    Down.
    """
    label: Annotated[str, Field(min_length=1)]
    """
    Its name.
    """
    tags: list[str]
    """
    Labels, written even when empty.
    """
    visible: bool
    """
    Shown or not.
    """
    attrs: dict[str, Any]
    """
    Free-form JSON.
    """
