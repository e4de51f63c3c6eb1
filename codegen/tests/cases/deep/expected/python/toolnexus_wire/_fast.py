# Generated from idl/ (deep schema 0.3.0, sha256 4dc98f140ed7c0ffdcb8df9a9b23e58b0b4ab442c36ab15e0be5a35f0940376b).
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


def _decode_Span(d: Any, floats: bool | None) -> Any:
    """A `Span` from orjson's parse of its JSON, or None to let the validator decide;
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
    v = d.get("style", _MISS)
    if v is _MISS:
        style: Any = None
    else:
        if type(v) is not str or v not in (
            "plain",
            "bold",
            "code",
        ):
            return None
        style = v
        fields_set.add("style")
    values = {"text": text, "style": style}
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_Span}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.Span)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_Span = frozenset({"text", "style"})


def _decode_Para(d: Any, floats: bool | None) -> Any:
    """A `Para` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("spans", _MISS)
    if v is _MISS:
        return None
    if type(v) is not list:
        return None
    spans_a0: list[Any] = []
    for spans_i0 in v:
        spans_x0 = _decode_Span(spans_i0, floats)
        if spans_x0 is None:
            return None
        spans_a0.append(spans_x0)
    spans = spans_a0
    fields_set.add("spans")
    v = d.get("grid", _MISS)
    if v is _MISS:
        grid: Any = []
    else:
        if type(v) is not list:
            return None
        grid_a0: list[Any] = []
        for grid_i0 in v:
            if type(grid_i0) is not list:
                return None
            grid_x0_a1: list[Any] = []
            for grid_x0_i1 in grid_i0:
                grid_x0_x1 = _decode_Span(grid_x0_i1, floats)
                if grid_x0_x1 is None:
                    return None
                grid_x0_a1.append(grid_x0_x1)
            grid_x0 = grid_x0_a1
            grid_a0.append(grid_x0)
        grid = grid_a0
        fields_set.add("grid")
    values = {"spans": spans, "grid": grid}
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_Para}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.Para)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_Para = frozenset({"spans", "grid"})


def _decode_Section(d: Any, floats: bool | None) -> Any:
    """A `Section` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("heading", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str:
        return None
    heading = v
    fields_set.add("heading")
    v = d.get("paras", _MISS)
    if v is _MISS:
        return None
    if type(v) is not list:
        return None
    paras_a0: list[Any] = []
    for paras_i0 in v:
        paras_x0 = _decode_Para(paras_i0, floats)
        if paras_x0 is None:
            return None
        paras_a0.append(paras_x0)
    paras = paras_a0
    fields_set.add("paras")
    values = {"heading": heading, "paras": paras}
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_Section}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.Section)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_Section = frozenset({"heading", "paras"})


def _decode_Doc(d: Any, floats: bool | None) -> Any:
    """A `Doc` from orjson's parse of its JSON, or None to let the validator decide;
    `floats`: whether the text's floats are as Python writes them, None when the document
    holds none and nests within `_FREE_DEPTH` (see `_speed.sound`)."""
    if type(d) is not dict:
        return None
    fields_set: set[str] = set()
    v = d.get("title", _MISS)
    if v is _MISS:
        return None
    if type(v) is not str:
        return None
    title = v
    fields_set.add("title")
    v = d.get("sections", _MISS)
    if v is _MISS:
        sections: Any = []
    else:
        if type(v) is not list:
            return None
        sections_a0: list[Any] = []
        for sections_i0 in v:
            sections_x0 = _decode_Section(sections_i0, floats)
            if sections_x0 is None:
                return None
            sections_a0.append(sections_x0)
        sections = sections_a0
        fields_set.add("sections")
    v = d.get("lead", _MISS)
    if v is _MISS:
        lead: Any = None
    else:
        lead = _decode_Section(v, floats)
        if lead is None:
            return None
        fields_set.add("lead")
    values = {"title": title, "sections": sections, "lead": lead}
    if len(d) > len(fields_set):
        extra = {k: v for k, v in d.items() if k not in _KNOWN_Doc}
        if not _sound(extra, _FREE_DEPTH, floats):
            return None
        fields_set.update(extra)  # pydantic counts unknown keys as set fields too
    else:
        extra = {}
    obj = _new(models.Doc)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, extra)
    _set_private(obj, None)
    return obj


_KNOWN_Doc = frozenset({"title", "sections", "lead"})


def _json_Span(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    text_v = m.text
    if type(text_v) is not str:
        return None
    out["text"] = text_v
    if m.style is not None:
        style_v = m.style
        if type(style_v) is not str:
            return None
        out["style"] = style_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_Para(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    spans_v_a0: list[Any] = []
    for spans_v_i0 in m.spans:
        spans_v_x0 = _json_Span(spans_v_i0)
        if spans_v_x0 is None:
            return None
        spans_v_a0.append(spans_v_x0)
    spans_v = spans_v_a0
    out["spans"] = spans_v
    if m.grid:
        grid_v_a0: list[Any] = []
        for grid_v_i0 in m.grid:
            grid_v_x0_a1: list[Any] = []
            for grid_v_x0_i1 in grid_v_i0:
                grid_v_x0_x1 = _json_Span(grid_v_x0_i1)
                if grid_v_x0_x1 is None:
                    return None
                grid_v_x0_a1.append(grid_v_x0_x1)
            grid_v_x0 = grid_v_x0_a1
            grid_v_a0.append(grid_v_x0)
        grid_v = grid_v_a0
        out["grid"] = grid_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_Section(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    heading_v = m.heading
    if type(heading_v) is not str:
        return None
    out["heading"] = heading_v
    paras_v_a0: list[Any] = []
    for paras_v_i0 in m.paras:
        paras_v_x0 = _json_Para(paras_v_i0)
        if paras_v_x0 is None:
            return None
        paras_v_a0.append(paras_v_x0)
    paras_v = paras_v_a0
    out["paras"] = paras_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


def _json_Doc(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    title_v = m.title
    if type(title_v) is not str:
        return None
    out["title"] = title_v
    if m.sections:
        sections_v_a0: list[Any] = []
        for sections_v_i0 in m.sections:
            sections_v_x0 = _json_Section(sections_v_i0)
            if sections_v_x0 is None:
                return None
            sections_v_a0.append(sections_v_x0)
        sections_v = sections_v_a0
        out["sections"] = sections_v
    if m.lead is not None:
        lead_v = _json_Section(m.lead)
        if lead_v is None:
            return None
        out["lead"] = lead_v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, _FREE_DEPTH):
            return None
        out.update(extra)
    return out


install(
    {
        models.Span: _decode_Span,
        models.Para: _decode_Para,
        models.Section: _decode_Section,
        models.Doc: _decode_Doc,
    },
    {models.Span: _json_Span, models.Para: _json_Para, models.Section: _json_Section, models.Doc: _json_Doc},
)
