# Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

from __future__ import annotations

from typing import Annotated, Any
from pydantic import ConfigDict, Field
from toolnexus_wire._base import WireModel


class Point(WireModel):
    """
    A labelled point.
    """

    model_config = ConfigDict(
        extra="forbid",
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
