# Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
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


def _decode_Point(d: Any, floats: bool | None) -> Any:
    """A `Point` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("x", _MISS)
    if v is _MISS:
        return None
    if not (type(v) is not int):
        x = _int_number(v)
    elif type(v) is not float or not (floats and _float_ok(v)):
        return None
    else:
        x = v
    fields_set.add("x")
    v = d.get("y", _MISS)
    if v is _MISS:
        return None
    if not (type(v) is not int):
        y = _int_number(v)
    elif type(v) is not float or not (floats and _float_ok(v)):
        return None
    else:
        y = v
    fields_set.add("y")
    v = d.get("label", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str or len(v) < 1:
        return None
    label = v
    fields_set.add("label")
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
    v = d.get("visible", _MISS)
    if v is _MISS:
        return None
    if type(v) is not bool:
        return None
    visible = v
    fields_set.add("visible")
    v = d.get("attrs", _MISS)
    if v is _MISS:
        return None
    if type(v) is not dict or not _sound(v, _FREE_DEPTH, floats):
        return None
    attrs = v
    fields_set.add("attrs")
    values = {"x": x, "y": y, "label": label, "tags": tags, "visible": visible, "attrs": attrs}
    if len(d) > len(fields_set):
        return None
    obj = _new(models.Point)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, None)
    _set_private(obj, None)
    return obj


_KNOWN_Point = frozenset({"x", "y", "label", "tags", "visible", "attrs"})


def _json_Point(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    x_v = _number_json(m.x)
    if x_v is None:
        return None
    out["x"] = x_v
    y_v = _number_json(m.y)
    if y_v is None:
        return None
    out["y"] = y_v
    label_v = m.label
    if type(label_v) is not str:
        return None
    out["label"] = label_v
    tags_v = list(m.tags)
    for tags_v_i0 in tags_v:
        if type(tags_v_i0) is not str:
            return None
    out["tags"] = tags_v
    visible_v = m.visible
    if type(visible_v) is not bool:
        return None
    out["visible"] = visible_v
    attrs_v = m.attrs
    if type(attrs_v) is not dict or not _plain(attrs_v, _FREE_DEPTH):
        return None
    out["attrs"] = attrs_v
    return out


install(
    {models.Point: _decode_Point},
    {models.Point: _json_Point},
)
