# Generated from idl/ (nest schema 2.0.0, sha256 9d9d9c3336abe30c1393e2927f3e7698f176b4ec0c3166ad1dd10ec4085a5ff4).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
"""The fast paths of `to_json` and `from_json`, written out field by field from the IDL.

The rules they follow, and when they decline, are in `_speed`'s docstring.
"""

from __future__ import annotations

from typing import Any

from . import models
from ._speed import FLOAT_MAX as _FLOAT_MAX
from ._speed import FREE_DEPTH as _FREE_DEPTH
from ._speed import INT_MAX as _INT_MAX
from ._speed import INT_MIN as _INT_MIN
from ._speed import MISS as _MISS
from ._speed import check_for, install
from ._speed import number_json as _number_json
from ._number import int_number as _int_number
from ._speed import float_ok as _float_ok
from ._speed import new as _new
from ._speed import set_dict as _set_dict
from ._speed import set_extra as _set_extra
from ._speed import set_fields_set as _set_fields_set
from ._speed import set_private as _set_private
from ._speed import plain as _plain
from ._speed import plain_float as _plain_float
from ._speed import sound as _sound

__all__: list[str] = []

_PATTERN_0 = check_for("^[A-Z]+$")


def _decode_Item(d: Any, floats: bool | None) -> Any:
    """A `Item` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("code", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str or not _PATTERN_0(v):
        return None
    code = v
    fields_set.add("code")
    v = d.get("size", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str or v not in (
        "s",
        "m",
        "l",
    ):
        return None
    size = v
    fields_set.add("size")
    v = d.get("count", _MISS)
    if v is _MISS:
        count: Any = None
    else:
        if type(v) is not int or v < 0:
            return None
        count = v
        fields_set.add("count")
    v = d.get("weight", _MISS)
    if v is _MISS:
        weight: Any = None
    else:
        if not (type(v) is not int):
            weight = _int_number(v)
        elif type(v) is not float or not (floats and _float_ok(v)):
            return None
        else:
            weight = v
        fields_set.add("weight")
    v = d.get("share", _MISS)
    if v is _MISS:
        share: Any = None
    else:
        if not (type(v) is not int or v < 0 or v > 1):
            share = _int_number(v)
        elif type(v) is not float or not (floats and _float_ok(v)) or v < 0 or v > 1:
            return None
        else:
            share = v
        fields_set.add("share")
    values = {"code": code, "size": size, "count": count, "weight": weight, "share": share}
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_Item}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.Item)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_Item = frozenset({"code", "size", "count", "weight", "share"})


def _decode_Box(d: Any, floats: bool | None) -> Any:
    """A `Box` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("main", _MISS)
    if v is _MISS:
        return None
    main = _decode_Item(v, floats)
    if main is None:
        return None
    fields_set.add("main")
    v = d.get("items", _MISS)
    if v is _MISS:
        items: Any = []
    else:
        if type(v) is not list:
            return None
        items_a0: list[Any] = []
        for items_i0 in v:
            items_x0 = _decode_Item(items_i0, floats)
            if items_x0 is None:
                return None
            items_a0.append(items_x0)
        items = items_a0
        fields_set.add("items")
    v = d.get("tags", _MISS)
    if v is _MISS:
        return None
    if type(v) is not list:
        return None
    for tags_i0 in v:
        if type(tags_i0) is not str:
            return None
    tags = v
    fields_set.add("tags")
    v = d.get("labels", _MISS)
    if v is _MISS:
        labels: Any = None
    else:
        if type(v) is not dict or not _sound(v, _FREE_DEPTH, floats):
            return None
        labels = v
        fields_set.add("labels")
    values = {"main": main, "items": items, "tags": tags, "labels": labels}
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_Box}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.Box)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_Box = frozenset({"main", "items", "tags", "labels"})


def _json_Item(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    code_v = m.code
    if type(code_v) is not str:
        return None
    out["code"] = code_v
    size_v = m.size
    if type(size_v) is not str:
        return None
    out["size"] = size_v
    if m.count is not None:
        count_v = m.count
        if type(count_v) is not int or not _INT_MIN <= count_v <= _INT_MAX:
            return None
        out["count"] = count_v
    if m.weight is not None:
        weight_v = _number_json(m.weight)
        if weight_v is None:
            return None
        out["weight"] = weight_v
    if m.share is not None:
        share_v = _number_json(m.share)
        if share_v is None:
            return None
        out["share"] = share_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_Box(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    main_v = _json_Item(m.main)
    if main_v is None:
        return None
    out["main"] = main_v
    if m.items:
        items_v_a0: list[Any] = []
        for items_v_i0 in m.items:
            items_v_x0 = _json_Item(items_v_i0)
            if items_v_x0 is None:
                return None
            items_v_a0.append(items_v_x0)
        items_v = items_v_a0
        out["items"] = items_v
    tags_v = list(m.tags)
    for tags_v_i0 in tags_v:
        if type(tags_v_i0) is not str:
            return None
    out["tags"] = tags_v
    if m.labels is not None:
        labels_v = m.labels
        if type(labels_v) is not dict or not _plain(labels_v, _FREE_DEPTH):
            return None
        out["labels"] = labels_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


install(
    {models.Item: _decode_Item, models.Box: _decode_Box},
    {models.Item: _json_Item, models.Box: _json_Box},
)
