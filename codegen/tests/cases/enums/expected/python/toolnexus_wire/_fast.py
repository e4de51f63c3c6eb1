# Generated from idl/ (enums schema 1.2.0, sha256 1b3351d4174578732efb74c03e93d6509b883db9b5a81ef4d561b8dcdffd2475).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""Fast paths for `to_json` and `from_json`, written out field by field from the IDL.

`from_json` first parses with orjson and checks each field here with the same rules as
the pydantic model (strict types, enums, lengths and pydantic-core's own pattern
validators); on anything it is unsure of it returns None and the model's validator
decides, so errors and edge cases (big integers, deep nesting, `null`) are the model's.
`to_json` writes with orjson when every value is one it writes byte for byte as the
standard `json` module does, and with `json` otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

import orjson
from pydantic_core import SchemaValidator, core_schema

__all__ = ["DECODERS", "JSON_ENCODERS", "MISS", "decoder_for", "json_encoder_for", "register"]

Decoder = Callable[[Any], Any]
#: What `loads_sound` returns when the model's own parser must read the document.
MISS: Any = object()
_new = object.__new__
_set = object.__setattr__

#: The deepest a free-form value (metadata, unknown keys) may nest on the fast path;
#: deeper documents go to the model's validator, which owns the nesting limit.
FREE_DEPTH = 64
#: Floats the fast path passes through: 0 and |x| >= 1e-4 print the same in orjson and
#: `repr`; below 2**63 a float cannot be an integer orjson parsed as a float.
_FLOAT_MIN = 1e-4
_FLOAT_MAX = 9.2e18
_INT_MIN = -(2**63)
_INT_MAX = 2**64 - 1
_INF = float("inf")


def _plain(value: Any, depth: int) -> bool:
    """True when a dict or list `value` is JSON that orjson writes exactly as `json` does,
    no deeper than `depth`.

    Scalars are checked in the loop, and only containers recurse: most values are scalars.
    """
    if depth <= 0:
        return False
    if type(value) is dict:
        for k in value:
            if type(k) is not str:
                return False
        items = value.values()
    else:
        items = value
    for v in items:
        t = type(v)
        if t is str or t is bool or v is None:
            continue
        if t is int:
            if not _INT_MIN <= v <= _INT_MAX:
                return False
        elif t is float:
            if not (v == 0.0 or _FLOAT_MIN <= abs(v) < _INF):
                return False
        elif t is dict or t is list:
            if not _plain(v, depth - 1):
                return False
        else:
            return False
    return True


def _sound(value: Any, depth: int) -> bool:
    """True when a parsed dict or list `value` is what the model's JSON parser would give
    (no float that may have been a big integer), and no deeper than `depth`."""
    if depth <= 0:
        return False
    for v in value.values() if type(value) is dict else value:
        t = type(v)
        if t is float:
            if not abs(v) < _FLOAT_MAX:  # a bigger one may be an integer orjson made a float
                return False
        elif (t is dict or t is list) and not _sound(v, depth - 1):
            return False
    return True


def _pattern(pattern: str) -> Callable[[Any], bool]:
    """pydantic-core's check of `pattern`, the very one the model's field uses."""
    return SchemaValidator(core_schema.str_schema(pattern=pattern, strict=True)).isinstance_python


_BASE64_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _base64(value: str) -> bool:
    """The standard padded base64 pattern, checked without a regex: for a large part the
    regex costs more than parsing the JSON. A test pins it to pydantic-core's regex."""
    if len(value) % 4 or not value.isascii():
        return False
    rest = value.encode("ascii").translate(None, _BASE64_ALPHABET)  # what is not in the alphabet
    return not rest or (rest in (b"=", b"==") and value.endswith(rest.decode("ascii")))


def _make_Light(cls: type[Any], nested: Callable[[str], Decoder | None]) -> Decoder | None:

    def decode(d: Any) -> Any:
        if type(d) is not dict:
            return None
        fields_set: set[str] = set()
        v = d.get("color", MISS)
        if v is MISS:
            return None
        if type(v) is not str or v not in (
            "red",
            "amber",
            "green",
        ):
            return None
        color = v
        fields_set.add("color")
        v = d.get("mode", MISS)
        if v is MISS:
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
        v = d.get("cycle", MISS)
        if v is MISS:
            cycle: Any = []
        else:
            if type(v) is not list:
                return None
            for item in v:
                if type(item) is not str or item not in (
                    "red",
                    "amber",
                    "green",
                ):
                    return None
            cycle = v
            fields_set.add("cycle")
        values = {
            "color": color,
            "mode": mode,
            "cycle": cycle,
        }
        if len(d) > len(fields_set):
            extra = {k: v for k, v in d.items() if k not in _KNOWN_Light}
            if not _sound(extra, FREE_DEPTH):
                return None
            fields_set.update(extra)  # pydantic counts unknown keys as set fields too
        else:
            extra = {}
        obj = _new(cls)  # the four slots `model_construct` sets, without its overhead
        _set(obj, "__dict__", values)
        _set(obj, "__pydantic_fields_set__", fields_set)
        _set(obj, "__pydantic_extra__", extra)
        _set(obj, "__pydantic_private__", None)
        return obj

    return decode


_KNOWN_Light = frozenset({"color", "mode", "cycle"})


def _json_Light(m: Any) -> dict[str, Any] | None:
    """The wire form of `m`, as `_serde` writes it, or None when orjson would not write it
    byte for byte as `json` does."""
    out: dict[str, Any] = {}
    v = m.color
    if type(v) is not str:
        return None
    out["color"] = v
    if m.mode is not None:
        v = m.mode
        if type(v) is not str:
            return None
        out["mode"] = v
    if m.cycle:
        v = list(m.cycle)
        for item in v:
            if type(item) is not str:
                return None
        out["cycle"] = v
    extra = m.__pydantic_extra__
    if extra:
        if not _plain(extra, FREE_DEPTH):
            return None
        out.update(extra)
    return out


#: Per generated model, its JSON-ready encoder (see `_json_ToolResult`).
_JSON: dict[str, Callable[[Any], dict[str, Any] | None]] = {
    "Light": _json_Light,
}


#: Per generated model, the factory of its fast decoder: `(cls, nested) -> decoder`, where
#: `nested(field)` gives the decoder of the class `cls` declares for that field.
FACTORIES: dict[str, Callable[[type[Any], Callable[[str], Decoder | None]], Decoder | None]] = {
    "Light": _make_Light,
}


#: The classes with a fast decoder, each with the generated type it has the fields of:
#: the generated models and the runtime classes that register themselves. A subclass
#: of either is not listed, as it may add validators, and takes the validator's path.
_TYPES: dict[type[Any], str] = {}
#: The decoder of each class asked for so far (None: it has none); see `decoder_for`.
DECODERS: dict[type[Any], Decoder | None] = {}


#: The JSON-ready encoder of each class asked for so far; see `json_encoder_for`.
JSON_ENCODERS: dict[type[Any], Callable[[Any], dict[str, Any] | None]] = {}


def register(cls: type[Any], type_name: str) -> None:
    """Give `cls`, whose fields are exactly those of the wire type `type_name`, a fast decoder."""
    _TYPES[cls] = type_name
    DECODERS.clear()
    JSON_ENCODERS.clear()


def _none(m: Any) -> None:
    return None


def json_encoder_for(cls: type[Any]) -> Callable[[Any], dict[str, Any] | None]:
    """The JSON-ready encoder of `cls`: that of the nearest wire type it derives from, as
    for `to_wire` (a subclass's own fields are not on the wire)."""
    encoder = next((_JSON[_TYPES[base]] for base in cls.__mro__ if base in _TYPES), _none)
    JSON_ENCODERS[cls] = encoder
    return encoder


def _field_class(cls: type[Any], field: str) -> type[Any] | None:
    """The model class a field of `cls` holds (`X`, `X | None` or `list[X]`), or None."""
    annotation = cls.model_fields[field].annotation
    candidates = [a for a in (annotation, *get_args(annotation)) if isinstance(a, type) and a in _TYPES]
    return candidates[0] if len(candidates) == 1 else None


def decoder_for(cls: type[Any]) -> Decoder | None:
    """The fast decoder of `cls`, or None when it has none."""
    try:
        return DECODERS[cls]
    except KeyError:
        pass
    decoder = None
    if cls in _TYPES:

        def nested(field: str) -> Decoder | None:
            inner = _field_class(cls, field)
            return None if inner is None else decoder_for(inner)

        decoder = FACTORIES[_TYPES[cls]](cls, nested)
    DECODERS[cls] = decoder
    return decoder
