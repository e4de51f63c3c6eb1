# Generated from idl/ (mini schema 0.1.0, sha256 48fd3a01ee3a8aeff58393457f1c5b3755201e6590414d3b8acb17333de67558).
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


def _decode_Note(d: Any, floats: bool | None) -> Any:
    """A `Note` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("text", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str:
        return None
    text = v
    fields_set.add("text")
    v = d.get("isPinned", _MISS)
    if v is _MISS:
        is_pinned: Any = False
    else:
        if type(v) is not bool:
            return None
        is_pinned = v
        fields_set.add("is_pinned")
    v = d.get("author", _MISS)
    if v is _MISS:
        author: Any = None
    else:
        if type(v) is not str or len(v) < 1:
            return None
        author = v
        fields_set.add("author")
    values = {"text": text, "is_pinned": is_pinned, "author": author}
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_Note}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.Note)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_Note = frozenset({"text", "isPinned", "author"})


def _json_Note(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    text_v = m.text
    if type(text_v) is not str:
        return None
    out["text"] = text_v
    is_pinned_v = m.is_pinned
    if type(is_pinned_v) is not bool:
        return None
    out["isPinned"] = is_pinned_v
    if m.author is not None:
        author_v = m.author
        if type(author_v) is not str:
            return None
        out["author"] = author_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


install(
    {models.Note: _decode_Note},
    {models.Note: _json_Note},
)
