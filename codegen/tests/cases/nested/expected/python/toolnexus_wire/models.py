# Generated from idl/ (nest schema 2.0.0, sha256 9d9d9c3336abe30c1393e2927f3e7698f176b4ec0c3166ad1dd10ec4085a5ff4).
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
        share: Its part of the box, 0 to 1.

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
        share: float | None = None,
    ) -> None:
        """A `Item` from Python values; an optional field left as None is absent on the wire."""
        BaseModel.__init__(
            self, code=code, size=size, **given(count=count, weight=weight, share=share)
        )

    code: Annotated[str, Field(pattern="^[A-Z]+$")]
    """
    Upper-case code.
    """
    size: Literal["s", "m", "l"]
    """
    How big.
    """
    count: Annotated[int | None, Field(ge=0)] = None
    """
    How many.
    """
    weight: float | None = None
    """
    Kilograms.
    """
    share: Annotated[float | None, Field(ge=0.0, le=1.0)] = None
    """
    Its part of the box, 0 to 1.
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
