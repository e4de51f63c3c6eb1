# Generated from idl/ (nest schema 2.0.0, sha256 97126eb81160e4cbc9fbb0e6ef8c8b197963ea825c0f6c9aadd45fd2706b192f).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

from __future__ import annotations

from typing import Annotated, Any, Literal
from pydantic import BaseModel, ConfigDict, Field
from toolnexus_wire._base import given, wire_init
from toolnexus_wire._bases import BoxBase, ItemBase


class Item(ItemBase):
    """
    One item.

    Fields (wire key in brackets where it differs):
        code: Upper-case code.
        size: How big.
        count: How many.
        weight: Kilograms.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self,
        code: str,
        size: Literal["s", "m", "l"],
        count: int | None = None,
        weight: float | None = None,
    ) -> None:
        """A `Item` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(
            self, code=code, size=size, **given(count=count, weight=weight)
        )

    code: Annotated[str, Field(pattern="^[A-Z]+$")]
    """
    Upper-case code.
    """
    size: Literal["s", "m", "l"]
    """
    How big.
    """
    count: int | None = None
    """
    How many.
    """
    weight: float | None = None
    """
    Kilograms.
    """


class Box(BoxBase):
    """
    Items and labels.

    Fields (wire key in brackets where it differs):
        main: The main item.
        items: More items; omitted when empty.
        tags: Free labels.
        labels: Free-form JSON.

    Wire form: to_wire(), to_json(); parse: from_wire(obj), from_json(text).
    """

    model_config = ConfigDict(
        extra="allow",
    )

    @wire_init
    def __init__(
        self,
        main: Item,
        tags: list[str],
        items: list[Item] | None = None,
        labels: dict[str, Any] | None = None,
    ) -> None:
        """A `Box` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(
            self, main=main, tags=tags, **given(items=items, labels=labels)
        )

    main: Item
    """
    The main item.
    """
    items: Annotated[list[Item], Field(validate_default=True)] = []
    """
    More items; omitted when empty.
    """
    tags: list[str]
    """
    Free labels.
    """
    labels: dict[str, Any] | None = None
    """
    Free-form JSON.
    """
