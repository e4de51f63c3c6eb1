# Generated from idl/ (wire2 schema 1.0.0, sha256 f6e9383411275297c30ab302ae6e2d5c71a68e0ad76b38167f649b072175702e).
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


def _decode_Piece(d: Any, floats: bool | None) -> Any:
    """A `Piece` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("type", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str or v not in (
        "text",
        "blob",
    ):
        return None
    kind = v
    fields_set.add("kind")
    v = d.get("label", _MISS)
    if v is _MISS:
        label: Any = ""
    else:
        if type(v) is not str:
            return None
        label = v
        fields_set.add("label")
    v = d.get("body", _MISS)
    if v is _MISS:
        return None
    if (
        v is None
        or (type(v) is float and not (floats and _float_ok(v)))
        or (type(v) in (dict, list) and not _sound(v, _FREE_DEPTH, floats))
    ):
        return None
    body = v
    fields_set.add("body")
    if kind in ("blob",) and not (label):
        return None
    values = {"kind": kind, "label": label, "body": body}
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_Piece}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.Piece)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_Piece = frozenset({"type", "label", "body"})


def _decode_Outcome(d: Any, floats: bool | None) -> Any:
    """A `Outcome` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("summary", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str:
        return None
    summary = v
    fields_set.add("summary")
    v = d.get("result", _MISS)
    if v is _MISS:
        result_value: Any = None
    else:
        if (
            v is None
            or (type(v) is float and not (floats and _float_ok(v)))
            or (type(v) in (dict, list) and not _sound(v, _FREE_DEPTH, floats))
        ):
            return None
        result_value = v
        fields_set.add("result_value")
    v = d.get("pieces", _MISS)
    if v is _MISS:
        pieces: Any = []
    else:
        if type(v) is not list:
            return None
        pieces_a0: list[Any] = []
        for pieces_i0 in v:
            pieces_x0 = _decode_Piece(pieces_i0, floats)
            if pieces_x0 is None:
                return None
            pieces_a0.append(pieces_x0)
        pieces = pieces_a0
        fields_set.add("pieces")
    v = d.get("note", _MISS)
    if v is _MISS:
        note: Any = ""
    else:
        if type(v) is not str:
            return None
        note = v
        fields_set.add("note")
    values = {"summary": summary, "result_value": result_value, "pieces": pieces, "note": note}
    if len(d) > len(fields_set):
        return None
    obj = _new(models.Outcome)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, None)
    _set_private(obj, None)
    return obj


_KNOWN_Outcome = frozenset({"summary", "result", "pieces", "note"})


def _json_Piece(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    kind_v = m.kind
    if type(kind_v) is not str:
        return None
    out["type"] = kind_v
    if m.label:
        label_v = m.label
        if type(label_v) is not str:
            return None
        out["label"] = label_v
    body_v = m.body
    if body_v is None or not _plain([body_v], _FREE_DEPTH + 1):
        return None
    out["body"] = body_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_Outcome(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    summary_v = m.summary
    if type(summary_v) is not str:
        return None
    out["summary"] = summary_v
    if m.result_value is not None:
        result_value_v = m.result_value
        if result_value_v is None or not _plain([result_value_v], _FREE_DEPTH + 1):
            return None
        out["result"] = result_value_v
    if m.pieces:
        pieces_v_a0: list[Any] = []
        for pieces_v_i0 in m.pieces:
            pieces_v_x0 = _json_Piece(pieces_v_i0)
            if pieces_v_x0 is None:
                return None
            pieces_v_a0.append(pieces_v_x0)
        pieces_v = pieces_v_a0
        out["pieces"] = pieces_v
    if m.note:
        note_v = m.note
        if type(note_v) is not str:
            return None
        out["note"] = note_v
    return out


install(
    {models.Piece: _decode_Piece, models.Outcome: _decode_Outcome},
    {models.Piece: _json_Piece, models.Outcome: _json_Outcome},
)
