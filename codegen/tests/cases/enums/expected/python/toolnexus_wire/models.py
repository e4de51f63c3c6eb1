# Generated from idl/ (enums schema 1.2.0, sha256 1b3351d4174578732efb74c03e93d6509b883db9b5a81ef4d561b8dcdffd2475).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

from __future__ import annotations

from typing import Annotated, Any, Literal
from pydantic import BaseModel, ConfigDict, Field
from toolnexus_wire._base import given, wire_init
from toolnexus_wire._bases import LightBase


class Light(LightBase):
    """
    A traffic light.

    Fields (wire key in brackets where it differs):
        color: What it shows now.
        mode: How it runs, when set.
        cycle: The colours it steps through.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self,
        color: Literal["red", "amber", "green"],
        mode: Literal["auto", "manual", "off-line"] | None = None,
        cycle: list[Literal["red", "amber", "green"]] | None = None,
    ) -> None:
        """A `Light` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(self, color=color, **given(mode=mode, cycle=cycle))

    color: Literal["red", "amber", "green"]
    """
    What it shows now.
    """
    mode: Literal["auto", "manual", "off-line"] | None = None
    """
    How it runs, when set.
    """
    cycle: list[Literal["red", "amber", "green"]] | None = None
    """
    The colours it steps through.
    """
