# Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""The base of every wire model, and the error that parsing raises."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, Self

import orjson
from pydantic import BaseModel, ConfigDict, ValidationError

from ._fast import DECODERS, JSON_ENCODERS, MISS, decoder_for, json_encoder_for

__all__ = ["ENCODERS", "WireError", "WireModel", "dumps"]

#: Wire encoder per generated model class; filled in by `_serde`.
ENCODERS: dict[type[Any], Callable[[Any], dict[str, Any]]] = {}


class WireError(ValueError):
    """Raised by `from_wire` and `from_json` when a document is not a valid wire value.

    `path` is the JSON path of the first offending place (`$` for the document
    itself, `$.parts[0].mimeType` for a nested key); `errors` lists every
    problem found as `(path, message)` pairs. It is the one error parsing
    raises: malformed JSON, bytes that are not UTF-8, a missing key and a key
    with the wrong type all end here. Encoding never raises it.
    """

    def __init__(self, type_name: str, errors: list[tuple[str, str]]) -> None:
        self.type_name = type_name
        self.errors = errors
        self.path = errors[0][0] if errors else "$"
        detail = "; ".join(f"{path}: {msg}" for path, msg in errors)
        super().__init__(f"invalid {type_name}: {detail}")

    @classmethod
    def from_validation(cls, type_name: str, exc: ValidationError) -> WireError:
        return cls(type_name, [(json_path(err["loc"]), err["msg"]) for err in exc.errors()])


def json_path(loc: tuple[int | str, ...]) -> str:
    """`('parts', 0, 'mimeType')` -> `$.parts[0].mimeType`."""
    out = ["$"]
    for part in loc:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif part.isidentifier():
            out.append(f".{part}")
        else:
            out.append(f"[{json.dumps(part, ensure_ascii=False)}]")
    return "".join(out)


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
# `_ENCODER.encode` reaches the C encoder through Python-level set-up that costs more than
# encoding a small result; calling the C encoder directly, with the same arguments (and a
# fresh circular-reference memo each call), writes the same bytes for less.
_c_encoder = json.encoder.c_make_encoder  # type: ignore[attr-defined]


def _encode_json(value: Any) -> str:
    if _c_encoder is None or isinstance(value, str):  # no C accelerator (PyPy), or a bare string
        return _ENCODER.encode(value)
    chunks = _c_encoder(
        {}, _ENCODER.default, json.encoder.encode_basestring, None, ":", ",", False, False, False
    )(value, 0)
    return "".join(chunks)


def dumps(value: Any) -> str:
    """Compact JSON text, non-ASCII kept as is, no NaN or Infinity."""
    return _encode_json(value)


def _encoder(cls: type[Any]) -> Callable[[Any], dict[str, Any]]:
    try:
        return ENCODERS[cls]
    except KeyError:
        for base in cls.__mro__:
            if base in ENCODERS:
                ENCODERS[cls] = ENCODERS[base]
                return ENCODERS[base]
        raise TypeError(f"{cls.__name__} is not a wire type") from None


class WireModel(BaseModel):
    """A wire type: snake_case attributes over the wire's camelCase keys.

    Unknown keys are kept and written back after the known ones; a known key
    with the wrong type is a `WireError`. Constructors take the Python names or
    the wire names; `from_wire` and `from_json` take the wire names only.
    """

    model_config = ConfigDict(
        strict=True,
        extra="allow",
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
    )

    def to_wire(self) -> dict[str, Any]:
        """The wire form as plain JSON values; it shares `metadata` and unknown values with this object."""
        return _encoder(type(self))(self)

    def to_json(self) -> str:
        """The wire form as compact UTF-8 JSON text; `ValueError` when a value is nested too deeply to encode."""
        cls = type(self)
        wire = (JSON_ENCODERS.get(cls) or json_encoder_for(cls))(self)
        if wire is not None:  # orjson writes the very bytes `json` would
            try:
                return orjson.dumps(wire).decode()
            except orjson.JSONEncodeError:  # a lone surrogate in a string: `json` writes it
                pass
        wire = (ENCODERS.get(cls) or _encoder(cls))(self)
        try:
            return _encode_json(wire)
        except RecursionError:
            raise ValueError(
                f"{type(self).__name__} is nested too deeply to encode as JSON "
                f"(over the interpreter's recursion limit of {sys.getrecursionlimit()})"
            ) from None

    @classmethod
    def from_wire(cls, obj: object) -> Self:
        """Parse an already-decoded JSON value; raises `WireError`."""
        try:
            return cls.model_validate(obj, by_alias=True, by_name=False)
        except ValidationError as exc:
            raise WireError.from_validation(cls.__name__, exc) from None

    @classmethod
    def from_json(cls, data: str | bytes | bytearray) -> Self:
        """Parse JSON text; raises `WireError`."""
        decode = DECODERS.get(cls, MISS)
        if decode is MISS:
            decode = decoder_for(cls)
        if decode is not None:  # the fast path; it leaves anything unusual to the validator
            try:
                doc = orjson.loads(data)
            except (TypeError, orjson.JSONDecodeError):
                pass  # not JSON orjson reads: the validator says why
            else:
                obj = decode(doc)
                if obj is not None:
                    return obj  # type: ignore[no-any-return]
        try:
            return cls.model_validate_json(data, by_alias=True, by_name=False)
        except ValidationError as exc:
            raise WireError.from_validation(cls.__name__, exc) from None
