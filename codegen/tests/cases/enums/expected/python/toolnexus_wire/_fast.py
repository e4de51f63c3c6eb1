# Generated from idl/ (enums schema 1.2.0, sha256 1b3351d4174578732efb74c03e93d6509b883db9b5a81ef4d561b8dcdffd2475).
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


def _decode_Light(d: Any, floats: bool | None) -> Any:
    """A `Light` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("color", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str or v not in (
        "red",
        "amber",
        "green",
    ):
        return None
    color = v
    fields_set.add("color")
    v = d.get("mode", _MISS)
    if v is _MISS:
        mode: Any = None
    else:
        if type(v) is not str or v not in (
            "auto",
            "manual",
            "off-line",
        ):
            return None
        mode = v
        fields_set.add("mode")
    v = d.get("cycle", _MISS)
    if v is _MISS:
        cycle: Any = []
    else:
        if type(v) is not list:
            return None
        for cycle_i0 in v:
            if type(cycle_i0) is not str or cycle_i0 not in (
                "red",
                "amber",
                "green",
            ):
                return None
        cycle = v
        fields_set.add("cycle")
    values = {"color": color, "mode": mode, "cycle": cycle}
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_Light}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.Light)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_Light = frozenset({"color", "mode", "cycle"})


def _json_Light(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    color_v = m.color
    if type(color_v) is not str:
        return None
    out["color"] = color_v
    if m.mode is not None:
        mode_v = m.mode
        if type(mode_v) is not str:
            return None
        out["mode"] = mode_v
    if m.cycle:
        cycle_v = list(m.cycle)
        for cycle_v_i0 in cycle_v:
            if type(cycle_v_i0) is not str:
                return None
        out["cycle"] = cycle_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


install(
    {models.Light: _decode_Light},
    {models.Light: _json_Light},
)
