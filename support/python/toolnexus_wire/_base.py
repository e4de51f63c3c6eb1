# codegen: package
"""The base of every wire model: the wire encoders and the parse entry points."""

from __future__ import annotations

import functools
import inspect
import json
import sys
from collections.abc import Callable
from typing import Any, Self, TypeVar, cast

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    GetJsonSchemaHandler,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from . import _keys, _number, _speed
from ._errors import WireError
from ._number import JsonNumber
from .loop_data import MAX_DEPTH  # the same number in every language (idl/loop.json)

__all__ = [
    "MAX_DEPTH",
    "JsonNumber",
    "WireModel",
    "dumps",
    "given",
    "install_encoders",
    "install_schemas",
    "wire_init",
]

Encoder = Callable[[Any], dict[str, Any]]
_ENCODERS: dict[type[Any], Encoder] = {}
#: Each wire type's own JSON Schema from the IDL (a reference to another type is `#/$defs/<Name>`).
_SCHEMAS: dict[type[Any], dict[str, Any]] = {}
#: The wire types by name, to turn an IDL reference into pydantic's reference to the model.
_BY_NAME: dict[str, type[Any]] = {}
_DRAFT = "https://json-schema.org/draft/2020-12/schema"
_REF = "#/$defs/"


def install_schemas(classes: dict[type[Any], str], schemas: dict[str, dict[str, Any]]) -> None:
    """Called once by the generated `_schemas` module: each type's own JSON Schema from the IDL.
    The types it refers to are pydantic's to collect (under `$defs`, or OpenAPI's components)."""
    for cls, name in classes.items():
        _SCHEMAS[cls] = schemas[name]
        _BY_NAME[name] = cls


def _idl_schema(cls: type[Any]) -> dict[str, Any] | None:
    """The IDL schema of `cls`, or of the wire type it derives from."""
    return next((_SCHEMAS[b] for b in cls.__mro__ if b in _SCHEMAS), None)


def _with_model_refs(node: Any, ref: Callable[[type[Any]], dict[str, Any]]) -> Any:
    """A copy of the IDL schema `node` in which each reference to a wire type is `ref(model)`."""
    if isinstance(node, dict):
        target = node.get("$ref")
        if isinstance(target, str) and target.startswith(_REF) and target[len(_REF) :] in _BY_NAME:
            rest = {k: _with_model_refs(v, ref) for k, v in node.items() if k != "$ref"}
            return {**ref(_BY_NAME[target[len(_REF) :]]), **rest}
        return {k: _with_model_refs(v, ref) for k, v in node.items()}
    if isinstance(node, list):
        return [_with_model_refs(v, ref) for v in node]
    return node


def install_encoders(encoders: dict[type[Any], Encoder]) -> None:
    """Called once by the generated `_serde` module with its wire encoder per type."""
    _ENCODERS.update(encoders)


def _encoder(cls: type[Any]) -> Encoder:
    try:
        return _ENCODERS[cls]
    except KeyError:
        for base in cls.__mro__:  # a subclass is written as the wire type it derives from
            if base in _ENCODERS:
                _ENCODERS[cls] = _ENCODERS[base]
                return _ENCODERS[base]
        raise TypeError(f"{cls.__name__} is not a wire type") from None


_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
# `_JSON.encode` reaches the C encoder through Python-level set-up that costs more than
# encoding a small result; calling the C encoder directly, with the same arguments (and a
# fresh circular-reference memo each call), writes the same bytes for less.
_c_encoder = getattr(json.encoder, "c_make_encoder", None)


_JSON_SORTED = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False, sort_keys=True)


def _refuse_odd_trees(value: Any, max_depth: int | None) -> bool:
    """`ValueError` for an object key that is not a `str` (`json` would write a key `1` as
    `"1"`, beside a `"1"` already there) or for nesting deeper than `max_depth`. Walked without
    recursion, each container once (a cycle is the encoder's to report). True when `value`
    holds a `JsonNumber`, whose text only `_iterencode` writes."""
    if max_depth is None:
        try:
            orjson.dumps(value)  # in C: refuses a key that is not a `str`; nothing to walk then
            return False  # (and a `JsonNumber`, which is not a plain float, so there is none)
        except orjson.JSONEncodeError:
            pass  # that, or a value beyond orjson (deep, a big int, a lone surrogate): look closer
    numbers = False
    stack: list[tuple[Any, int]] = [(value, 1)]
    seen: set[int] = set()
    while stack:
        item, depth = stack.pop()
        if type(item) is JsonNumber:
            numbers = True
        elif isinstance(item, (dict, list, tuple)) and id(item) not in seen:
            if max_depth is not None and depth > max_depth:
                raise ValueError(f"nested more than {max_depth} levels")
            seen.add(id(item))
            if isinstance(item, dict):
                for key in item:
                    if not isinstance(key, str):
                        raise ValueError(f"an object key is not a string: {key!r}")
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)
    return numbers


def dumps(value: Any, *, sort_keys: bool = False, max_depth: int | None = None) -> str:
    """Compact JSON text, non-ASCII kept as is. `ValueError` for NaN or Infinity, for an object
    key that is not a `str`, and for nesting deeper than `max_depth` when it is given."""
    if _refuse_odd_trees(value, max_depth):  # numbers written with their own text
        return "".join(_iterencode(value, sort_keys))
    if _c_encoder is None or isinstance(value, str):  # no C accelerator (PyPy), or a bare string
        return (_JSON_SORTED if sort_keys else _JSON).encode(value)
    chunks = _c_encoder(
        {}, _JSON.default, json.encoder.encode_basestring, None, ":", ",", sort_keys, False, False
    )(value, 0)
    return "".join(chunks)


def _iterencode(value: Any, sort_keys: bool) -> Any:
    """`json`'s pure-Python encoder, the same options as `_JSON`, with the float spelling of
    `_number.float_text` (the C encoder spells a float subclass as a float)."""
    make = getattr(json.encoder, "_make_iterencode")  # noqa: B009  (private, stable since 3.1)
    return make(
        {},
        _JSON.default,
        json.encoder.py_encode_basestring,
        None,
        _number.float_text,
        ":",
        ",",
        sort_keys,
        False,
        True,
    )(value, 0)


_Init = TypeVar("_Init", bound=Callable[..., None])


def wire_init(init: _Init) -> _Init:
    """Mark a generated positional constructor as one that only adds positional arguments.

    pydantic calls a model's own `__init__` when it validates that model nested in another,
    which would bypass the by-alias, JSON-mode validation of `from_json`. Marked the way
    pydantic marks its own, the constructor is used only when user code calls it.

    A model that checks what code builds beyond what it reads (`ContentPart`: a part that
    carries nothing is read, never built) has `_check_built`, called after the constructor.
    """

    @functools.wraps(init)
    def built(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        # Looked up on the class: a miss on the instance goes through pydantic's `__getattr__`,
        # which costs more than the rest of a small model's construction.
        check = getattr(type(self), "_check_built", None)
        if check is not None:
            check(self)

    setattr(built, "__pydantic_base_init__", True)  # noqa: B010  (a plain attribute on a function)
    return cast(_Init, built)


def given(**fields: Any) -> dict[str, Any]:
    """The optional fields that were given: None means absent, and the wire refuses `null`."""
    return {k: v for k, v in fields.items() if v is not None}


#: The signature of each wire type's generated constructor (see `__pydantic_init_subclass__`).
_SIGNATURES: dict[type[Any], inspect.Signature] = {}


class WireModel(BaseModel):
    """A wire type: snake_case attributes over the wire's camelCase keys.

    Unknown keys are kept and written back after the known ones; a known key with the
    wrong type is a `WireError`. Constructors take the Python names (positionally too) and
    refuse any other keyword; `from_wire` and `from_json` take the wire names only.
    pydantic's own `model_dump`, `model_dump_json` and `model_json_schema` give the wire
    form too, so a web framework that returns a model sends valid wire JSON.
    """

    model_config = ConfigDict(
        strict=True,
        extra="allow",
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        validate_assignment=True,  # `result.output = 5` is refused, as the constructor refuses it
        # Each type's validator is built on its first use, not at import: the fast paths of
        # `from_json` and `to_json` need none, and `import toolnexus` stays cheap.
        defer_build=True,
    )

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if "__init__" in vars(cls):  # help() and inspect show the constructor, not the aliases
            sig = inspect.signature(cls.__init__)
            _SIGNATURES[cls] = sig.replace(parameters=list(sig.parameters.values())[1:])
            setattr(cls, "__signature__", _SIGNATURES[cls])  # noqa: B010

    @classmethod
    def model_rebuild(cls, *args: Any, **kwargs: Any) -> bool | None:
        """pydantic's, then the constructor's signature set again: the validator is built on
        first use (`defer_build`), and building it sets pydantic's own signature."""
        built = super().model_rebuild(*args, **kwargs)
        if cls in _SIGNATURES:
            setattr(cls, "__signature__", _SIGNATURES[cls])  # noqa: B010
        return built

    def to_wire(self) -> dict[str, Any]:
        """The wire form as plain JSON values; it shares `metadata` and unknown values with this object."""
        return _encoder(type(self))(self)

    @model_serializer(mode="wrap")
    def _serialize_as_wire(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        """`model_dump()` and `model_dump_json()` give the wire form: wire keys, absent optional
        fields left out, unknown keys kept. Asking for Python names (`by_alias=False`) or for a
        part (`include`, `exclude`) gets pydantic's own dump instead."""
        if info.by_alias is False or info.include is not None or info.exclude is not None:
            return handler(self)
        return _encoder(type(self))(self)

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """The type's JSON Schema is the IDL's, in validation and serialization mode alike (the
        wire is the same both ways; an optional field is absent, never `null`). pydantic asks
        here on every path: `model_json_schema`, `TypeAdapter`, a `GenerateJsonSchema`
        subclass, FastAPI's OpenAPI. Another wire type is a reference that pydantic makes (to
        `#/$defs/<Name>`, or `#/components/schemas/<Name>` in OpenAPI), so it is defined once.
        With `by_alias=False`, pydantic's own schema of the Python names, as `model_dump` does."""
        generator = getattr(handler, "generate_json_schema", None)
        own = _idl_schema(cls)
        if own is None or generator is None or getattr(generator, "by_alias", True) is False:
            return handler(core_schema)
        schema: JsonSchemaValue = _with_model_refs(
            own, lambda model: generator.generate_inner(model.__pydantic_core_schema__)
        )
        return schema

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """The type's JSON Schema from the IDL (wire keys; an optional field is never `null`),
        with the types it refers to under `$defs`, in either `mode`. The schema standing alone
        names its draft (`$schema`); with `by_alias=False`, pydantic's own schema."""
        schema = super().model_json_schema(*args, **kwargs)
        by_alias = kwargs.get("by_alias", args[0] if args else True)
        if by_alias is not False and _idl_schema(cls) is not None:
            schema = {"$schema": _DRAFT, **schema}
        return schema

    def to_json(self) -> str:
        """The wire form as compact UTF-8 JSON text.

        `ValueError` when a value is nested more than `MAX_DEPTH` levels (the document's own
        object is level 1), or is not JSON: NaN or Infinity, an object key that is not a string
        (set in place, or by `with_metadata`).
        """
        encode = _speed.json_encoder_for(type(self))
        if encode is not None:
            wire = encode(self)
            if wire is not None:  # orjson writes the very bytes `json` would
                try:
                    return orjson.dumps(wire).decode()
                except orjson.JSONEncodeError:  # a lone surrogate in a string: `json` writes it
                    pass
        return self._reference_json()

    def to_json_bytes(self) -> bytes:
        """The wire form as compact JSON, UTF-8 encoded: `to_json().encode()` without making the
        `str` first (for a large part, one copy of it fewer). Raises as `to_json` does, and
        `UnicodeEncodeError` for a string holding a lone surrogate, which UTF-8 cannot encode."""
        encode = _speed.json_encoder_for(type(self))
        if encode is not None:
            wire = encode(self)
            if wire is not None:
                try:
                    return orjson.dumps(wire)
                except orjson.JSONEncodeError:
                    pass
        return self._reference_json().encode()

    def _reference_json(self) -> str:
        """`to_json` by the `json` module: every value it writes, in the words of its errors."""
        try:  # MAX_DEPTH: the limit every language keeps (docs/limits.md)
            return dumps(self.to_wire(), max_depth=MAX_DEPTH)
        except ValueError as exc:
            raise ValueError(f"{type(self).__name__}: {exc}") from None
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
        """Parse JSON text; raises `WireError`.

        The verdict on the text is the same in every language (docs/limits.md): not JSON
        (NaN or Infinity, a lone surrogate escape, bytes that are not UTF-8), a number beyond
        the range of a double, nesting deeper than `MAX_DEPTH`, or an object that repeats a key
        is refused at `$`.
        """
        source, taken = data, None  # long strings taken out of a large text (`_speed.splice`)
        if _speed.ENABLED and isinstance(data, (bytes, bytearray)) and len(data) >= _speed.SPLICE_FROM:
            spliced = _speed.splice(data)
            if spliced is not None:
                data, taken = spliced
        try:
            try:
                doc = orjson.loads(data)
            except orjson.JSONDecodeError:
                if taken is None:
                    raise
                orjson.loads(source)  # raises: the message names the place in the text as given
                raise
        except orjson.JSONDecodeError as exc:
            # orjson stops at 1,024 levels: past MAX_DEPTH either way, and said alike.
            why = (
                f"nested more than {MAX_DEPTH} levels"
                if "depth limit" in str(exc)
                else f"not valid JSON: {exc}"
            )
            raise WireError(cls.__name__, [("$", why)]) from None
        except TypeError:
            raise WireError(cls.__name__, [("$", f"expected JSON text, got {type(data).__name__}")]) from None
        decode = _speed.decoder_for(cls)
        shape = None  # `_speed.nesting(doc)`, once it is needed
        if len(data) < _keys.COUNT_FROM and _speed.floats_as_written(data, doc):
            # Straight: a text exactly as orjson writes its parse repeats no key and holds no
            # `-0`, and its floats are as written; one decode answers, or the validator does.
            if taken is not None:
                doc = _speed.restore(doc, taken)
            if decode is not None:
                obj = decode(doc, True)
                if obj is not None:
                    return obj  # type: ignore[no-any-return]
        else:
            shape = _speed.nesting(doc)
            try:
                large = len(data) >= _keys.COUNT_FROM
                repeated = _keys.repeated_key(data, doc, None if large else False, shape[1])
            except RecursionError:  # a repeat may hide it from orjson's parse: read as written
                raise WireError(cls.__name__, [("$", f"nested more than {MAX_DEPTH} levels")]) from None
            if repeated is not None:
                key = json.dumps(repeated, ensure_ascii=False)
                raise WireError(cls.__name__, [("$", f"an object repeats the key {key}")])
            # A large text with floats may be as orjson writes it all the same (asked before the
            # long strings go back: `floats_as_written` writes the document again).
            written = large and shape[2] and _speed.floats_as_written(data, doc)
            if taken is not None:
                doc = _speed.restore(doc, taken)
            if decode is not None and not _number.may_hold_minus_zero(data):
                # A document with no float that nests within FREE_DEPTH below its own object
                # (`nesting` walked it all) leaves the decoder nothing to walk.
                plain = not shape[2] and shape[0] <= _speed.FREE_DEPTH + 1
                obj = decode(doc, None if plain else False)  # it leaves a float to the validator
                if obj is None and written:
                    obj = decode(doc, True)  # floats as Python writes them
                if obj is not None:
                    return obj  # type: ignore[no-any-return]
        if (shape or _speed.nesting(doc))[0] > MAX_DEPTH:
            raise WireError(cls.__name__, [("$", f"nested more than {MAX_DEPTH} levels")])
        try:  # valid JSON (orjson said so), read again keeping numbers' text
            doc = _number.loads(data)
        except RecursionError:  # called with little of the stack left
            raise WireError(cls.__name__, [("$", f"nested more than {MAX_DEPTH} levels")]) from None
        if taken is not None:
            doc = _speed.restore(doc, taken)
        try:
            return cls.model_validate(doc, by_alias=True, by_name=False)
        except ValidationError as exc:
            raise WireError.from_validation(cls.__name__, exc) from None
