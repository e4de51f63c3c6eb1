"""JSON Schema validation with ECMA-262 regex semantics, as JSON Schema specifies.

Python's `re` differs from ECMA-262 in ways that matter to a validator: `$` also
matches before a final newline, and `\\d`/`\\w` match non-ASCII digits and letters.
`ecma_pattern` rewrites a pattern so Python's `re` reads it the ECMA way for the
constructs schemas use (anchors and the shorthand classes).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from functools import cache, lru_cache
from typing import Any

__all__ = ["ecma_matcher", "ecma_pattern", "fast_acceptor", "validator_for"]


@lru_cache(maxsize=1024)
def ecma_pattern(pattern: str) -> re.Pattern[str]:
    """Compile an ECMA-262 `pattern` for Python: `$` outside a class means the end of the input."""
    out: list[str] = []
    in_class = False
    chars = iter(pattern)
    for ch in chars:
        if ch == "\\":
            out.append(ch + next(chars, ""))
        elif in_class:
            in_class = ch != "]"
            out.append(ch)
        elif ch == "[":
            in_class = True
            out.append(ch)
        elif ch == "$":
            out.append(r"\Z")
        else:
            out.append(ch)
    return re.compile("".join(out), re.ASCII)


# Python's `re` backtracks, holding the GIL: `^(a+)+$` against 30 `a` and a `!` takes seconds,
# and no deadline or thread can interrupt it. A pattern within the subset below is matched by
# pydantic-core's Rust regex engine instead, in time linear in the input, with the meaning
# `ecma_pattern` gives it; anything else (lookaround, backreferences, flags, nested or POSIX
# classes, possessive quantifiers...) stays with `re`.
_RUST_CLASS = {"d": "0-9", "w": "0-9A-Za-z_", "s": "\\t\\n\\x0B\\x0C\\r "}
_RUST_ESCAPE = {
    "d": "[0-9]",
    "D": "[^0-9]",
    "w": "[0-9A-Za-z_]",
    "W": "[^0-9A-Za-z_]",
    "s": "[\\t\\n\\x0B\\x0C\\r ]",
    "S": "[^\\t\\n\\x0B\\x0C\\r ]",
    "b": "(?-u:\\b)",  # `\\B` is left to `re`: it never matches an empty string there
}
_QUANTIFIER = re.compile(r"\{[0-9]+(?:,[0-9]*)?\}")
_HEX = re.compile(r"x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}")


def _rust_escape(pattern: str, i: int, in_class: bool) -> tuple[str, int] | None:
    """The Rust form of the escape at `pattern[i]` (the backslash) and the index after it."""
    ch = pattern[i + 1 : i + 2]
    if not ch:
        return None
    if in_class and ch in _RUST_CLASS:
        if pattern[i - 1 : i] == "-" or pattern[i + 2 : i + 3] == "-":
            return None  # a range bound: an error for `re`
        return _RUST_CLASS[ch], i + 2
    if not in_class and ch in _RUST_ESCAPE:
        return _RUST_ESCAPE[ch], i + 2
    if ch in "ntrfv":
        return "\\" + ch, i + 2
    hexa = _HEX.match(pattern, i + 1)
    if hexa:
        return "\\" + hexa.group(), hexa.end()
    if ch.isascii() and not ch.isalnum() and ch not in "_<> " and ch.isprintable():
        return "\\" + ch, i + 2  # escaped punctuation (`\\<` and `\\>` are word bounds in Rust)
    return None


def _rust_pattern(pattern: str) -> str | None:
    """`pattern` (read as `ecma_pattern` reads it) in the Rust regex syntax, or None when it
    uses anything outside the subset whose meaning is the same in both engines."""
    out: list[str] = []
    i, n = 0, len(pattern)
    in_class = False
    state = 3  # 1: after a quantifier, 2: after a lazy one, 3: where nothing can be repeated
    while i < n:
        ch = pattern[i]
        if not in_class and ch in "*+?{":
            if state == 1 and ch == "?":
                state = 2
            elif state == 0:
                state = 1
            else:
                return None  # repeating a quantifier, or nothing: errors or possessive, read differently
        elif not in_class:
            state = 3 if ch in "(|^$" else 0
        if ch == "\\":
            escaped = _rust_escape(pattern, i, in_class)
            if escaped is None:
                return None
            if not in_class and pattern[i + 1] == "b":
                state = 3  # an assertion: nothing to repeat
            out.append(escaped[0])
            i = escaped[1]
            continue
        if in_class:
            if ch == "[" or pattern.startswith(("&&", "--", "~~"), i):
                return None  # a nested or POSIX class, or a set operation, in Rust only
            if ch == "]":
                in_class = False
        elif ch == "[":
            start = i + 2 if pattern.startswith("[^", i) else i + 1
            if pattern[start : start + 1] in ("]", ""):
                return None  # `[]...]` and `[^]...]`: read differently
            in_class = True
            out.append(pattern[i:start])
            i = start
            continue
        elif ch == "(":
            if pattern.startswith("(?", i) and not pattern.startswith("(?:", i):
                return None  # lookaround, named groups, flags, comments
        elif ch == "{":
            quantifier = _QUANTIFIER.match(pattern, i)
            if quantifier is None:
                return None  # a literal `{` for `re`, an error for Rust
            out.append(quantifier.group())
            i = quantifier.end()
            continue
        out.append(ch)
        i += 1
    return None if in_class else "".join(out)


@lru_cache(maxsize=1024)
def ecma_matcher(pattern: str) -> Callable[[str], bool]:
    """Whether a string contains a match of the ECMA-262 `pattern` (JSON Schema's `pattern`).

    The Rust engine (linear time) when the pattern is within its common subset, else `re`.
    """
    from pydantic_core import SchemaError, SchemaValidator
    from pydantic_core import core_schema as cs

    rust = _rust_pattern(pattern)
    if rust is not None:
        try:
            return SchemaValidator(cs.str_schema(pattern=rust, regex_engine="rust-regex")).isinstance_python
        except SchemaError:
            pass  # beyond what the Rust engine compiles: `re` decides
    search = ecma_pattern(pattern).search
    return lambda text: search(text) is not None


def _pattern(validator: Any, pattern: str, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
    import jsonschema

    if validator.is_type(instance, "string") and not ecma_matcher(pattern)(instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


def validator_for(schema: dict[str, Any]) -> Any:
    """The `jsonschema` validator class for `schema` (2020-12 when it names none), with ECMA patterns."""
    import jsonschema

    base = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return _extended(base)


@cache
def _extended(base: Any) -> Any:
    import jsonschema

    return jsonschema.validators.extend(base, {"pattern": _pattern, "multipleOf": _multiple_of})


def _multiple_of(validator: Any, multiple: Any, instance: Any, schema: Any) -> Iterator[Any]:
    """`multipleOf`, decimal-exact (`is_multiple_of`), in place of `jsonschema`'s float division."""
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "number") and not is_multiple_of(instance, multiple):
        yield ValidationError(f"{instance!r} is not a multiple of {multiple!r}")


def _decimal(number: float | int) -> tuple[int, int]:
    """The double `number` denotes as `(mantissa, exponent)`: the exact value of its shortest
    decimal (0.07 is `(7, -2)`); an integer too large for a double, exactly."""
    from decimal import Decimal

    try:
        text = float.__repr__(float(number))
    except OverflowError:
        return int(number), 0
    sign, digits, exponent = Decimal(text).as_tuple()
    mantissa = int("".join(map(str, digits)))
    return (-mantissa if sign else mantissa), int(exponent)


def is_multiple_of(value: float | int, multiple: float | int) -> bool:
    """Whether `value / multiple` is an integer, each read as the shortest decimal of the double
    it denotes (the rule of all three languages): 0.07 is a multiple of 0.01 and 0.3 of 0.1,
    where float division says no (7.000000000000001)."""
    if value == 0:
        return True
    a, p = _decimal(value)
    b, q = _decimal(multiple)
    if b == 0:
        return False
    scale: int = 10 ** abs(p - q)
    return (a * scale) % b == 0 if p >= q else a % (b * scale) == 0


# --- a fast acceptor for the common schemas --------------------------------------------------------

#: Keywords that never change what a schema accepts (format is an annotation unless asserted).
_ANNOTATIONS = frozenset(
    {"title", "description", "default", "examples", "$comment"}
    | {"deprecated", "readOnly", "writeOnly", "format"}
)
#: Drafts whose meaning of the keywords below is the same as 2020-12's.
_DRAFTS = frozenset(
    {
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2019-09/schema",
        "http://json-schema.org/draft-07/schema#",
        "http://json-schema.org/draft-07/schema",
        "http://json-schema.org/draft-06/schema#",
        "http://json-schema.org/draft-06/schema",
    }
)
_KEYWORDS: dict[str, frozenset[str]] = {
    "object": frozenset({"type", "properties", "required", "additionalProperties"}),
    "array": frozenset({"type", "items", "minItems", "maxItems"}),
    "string": frozenset({"type", "enum", "minLength", "maxLength"}),
    "integer": frozenset({"type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}),
    "number": frozenset({"type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}),
    "boolean": frozenset({"type"}),
    "null": frozenset({"type"}),
}


class _Unsupported(Exception):
    """A schema, or a part of it, outside what `fast_acceptor` compiles."""


def _is_count(value: Any) -> bool:
    return type(value) is int and value >= 0


_BOUNDS = {"minimum": "ge", "maximum": "le", "exclusiveMinimum": "gt", "exclusiveMaximum": "lt"}


def _number_check(kind: str, bounds: list[tuple[str, int | float]]) -> Callable[[Any], Any]:
    """A number (or an integer with non-integer bounds) compared exactly, as Python compares
    an int with a float: converting a big int to float first could let it pass a bound."""
    types = (int,) if kind == "integer" else (int, float)

    def check(value: Any) -> Any:
        if not isinstance(value, types) or isinstance(value, bool):
            raise ValueError(f"not an {kind}")
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError("not finite")
        for word, bound in bounds:
            if (
                (word == "minimum" and value < bound)
                or (word == "maximum" and value > bound)
                or (word == "exclusiveMinimum" and value <= bound)
                or (word == "exclusiveMaximum" and value >= bound)
            ):
                raise ValueError(f"out of bounds ({word} {bound})")
        return value

    return check


def _require_dict(value: Any) -> Any:
    if not isinstance(value, dict):  # what JSON Schema calls an object; pydantic takes any mapping
        raise ValueError("not a dict")
    return value


def _compile(node: Any, *, top: bool = False) -> Any:
    from pydantic_core import core_schema as cs

    if node is True or node == {}:
        return cs.any_schema()
    if not isinstance(node, dict):
        raise _Unsupported
    keys = node.keys() - _ANNOTATIONS
    kind = node.get("type")
    if keys == {"anyOf"} and isinstance(node["anyOf"], list) and node["anyOf"]:
        return cs.union_schema([_compile(sub) for sub in node["anyOf"]])
    if isinstance(kind, list) and kind and all(isinstance(k, str) for k in kind):
        # `"type": [...]`: each type with the keywords that apply to it (the others do not).
        allowed = frozenset().union(*(_KEYWORDS.get(k, frozenset()) for k in kind))
        if not all(k in _KEYWORDS for k in kind) or not keys <= allowed or "enum" in keys:
            raise _Unsupported
        members = [_compile({w: node[w] for w in keys & _KEYWORDS[k]} | {"type": k}) for k in kind]
        return members[0] if len(members) == 1 else cs.union_schema(members)
    if not isinstance(kind, str) or kind not in _KEYWORDS or not keys <= _KEYWORDS[kind]:
        raise _Unsupported
    if kind == "object":
        properties = node.get("properties", {})
        required = node.get("required", [])
        extra = node.get("additionalProperties", True)
        if (
            not isinstance(properties, dict)
            or not isinstance(required, list)
            or not all(isinstance(name, str) for name in required)
            or extra not in (True, False)
        ):
            raise _Unsupported
        fields = {
            name: cs.typed_dict_field(_compile(sub), required=name in required)
            for name, sub in properties.items()
        }
        for name in required:
            if name not in fields:
                if extra is False:  # required yet not allowed: nothing is valid; leave it to jsonschema
                    raise _Unsupported
                fields[name] = cs.typed_dict_field(cs.any_schema(), required=True)
        typed_dict = cs.typed_dict_schema(fields, extra_behavior="ignore" if extra is True else "forbid")
        # The arguments themselves are a dict already (`Tool.call` checks); a nested value may not be.
        return typed_dict if top else cs.no_info_before_validator_function(_require_dict, typed_dict)
    if kind == "array":
        lo, hi = node.get("minItems"), node.get("maxItems")
        if not all(v is None or _is_count(v) for v in (lo, hi)):
            raise _Unsupported
        return cs.list_schema(_compile(node.get("items", True)), min_length=lo, max_length=hi, strict=True)
    if kind == "string":
        lo, hi = node.get("minLength"), node.get("maxLength")
        if not all(v is None or _is_count(v) for v in (lo, hi)):
            raise _Unsupported
        if "enum" in node:
            values = node["enum"]
            if not isinstance(values, list) or not values or not all(type(v) is str for v in values):
                raise _Unsupported
            if lo is not None or hi is not None:
                raise _Unsupported
            return cs.literal_schema(values)
        return cs.str_schema(min_length=lo, max_length=hi, strict=True)
    if kind in ("integer", "number"):
        bounds = [(word, node[word]) for word in _BOUNDS if word in node]
        if not all(type(v) in (int, float) and math.isfinite(v) for _, v in bounds):
            raise _Unsupported
        if kind == "integer" and all(type(v) is int for _, v in bounds):
            return cs.int_schema(strict=True, **{_BOUNDS[word]: v for word, v in bounds})
        return cs.no_info_plain_validator_function(_number_check(kind, bounds))
    if kind == "boolean":
        return cs.bool_schema(strict=True)
    return cs.none_schema()


def fast_acceptor(schema: dict[str, Any]) -> Callable[[Any], Any] | None:
    """A pydantic-core validator that accepts only what `schema` accepts, or None.

    It covers the schemas tools usually have: objects of typed properties, `required`,
    `additionalProperties` true or false, arrays with `items`, string enums, lengths,
    numeric bounds, a list of types and `anyOf`. It may refuse some values the schema
    accepts (an integer written as `1.0`); a caller then asks the full validator, which
    also writes the error messages.
    The value given must be a dict, as a tool's arguments are.
    """
    from pydantic_core import SchemaValidator

    if schema.get("$schema", "https://json-schema.org/draft/2020-12/schema") not in _DRAFTS:
        return None
    root = {k: v for k, v in schema.items() if k != "$schema"}
    try:
        compiled = _compile(root, top=True)
    except _Unsupported:
        return None
    return SchemaValidator(compiled).validate_python
