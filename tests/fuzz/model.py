"""A JSON value model the generator can bend: number texts kept, duplicate keys, raw fragments.

- `None`, `True`, `False`: the literals;
- `Num`: a number, kept as its text (which need not be valid JSON: `NaN`, `01`, `1e`);
- `str`: a string, written escaped as the `Style` says (lone surrogates always as `\\uXXXX`);
- `RawStr`: a string whose bytes between the quotes are given verbatim (bad escapes, bad UTF-8);
- `list`: an array; `Obj`: an object, a list of `(key, value)` pairs (duplicates allowed),
  keys being `str` or `RawStr`;
- `Raw`: bytes written verbatim in place of a value (deep nesting, garbage).

`dump` never recurses deeper than the model does, and the generator builds deep nesting as
`Raw`, so writing a document 100,000 levels deep costs no recursion.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any


class Num(str):
    """A JSON number, as text."""


class Obj(list):  # type: ignore[type-arg]
    """A JSON object: `(key, value)` pairs in order; a key may repeat."""


@dataclass(frozen=True)
class RawStr:
    body: bytes  # the bytes between the quotes


@dataclass(frozen=True)
class Raw:
    data: bytes  # written as is


_SHORT = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


@dataclass
class Style:
    """How `dump` lays a value out."""

    rng: random.Random | None = None  # None: canonical (compact, minimal escapes)
    p_escape: float = 0.0  # chance a non-ASCII character is written as \\uXXXX
    p_space: float = 0.0  # chance of whitespace around a structural character
    slash: bool = False  # write "/" as "\\/"
    upper_hex: bool = False  # \\u00E9 rather than \\u00e9

    @classmethod
    def random(cls, rng: random.Random) -> Style:
        if rng.random() < 0.6:
            return cls()
        return cls(
            rng=rng,
            p_escape=rng.choice((0.0, 0.3, 1.0)),
            p_space=rng.choice((0.0, 0.2, 1.0)),
            slash=rng.random() < 0.2,
            upper_hex=rng.random() < 0.3,
        )

    def ws(self) -> str:
        if self.rng is None or self.p_space == 0.0 or self.rng.random() >= self.p_space:
            return ""
        return "".join(self.rng.choice(" \t\n\r") for _ in range(self.rng.randint(1, 3)))


def encode_string_body(s: str, style: Style) -> bytes:
    """The bytes between the quotes for `s`."""
    out = []
    fmt = "\\u{:04X}" if style.upper_hex else "\\u{:04x}"
    for ch in s:
        o = ord(ch)
        if ch in _SHORT:
            out.append(_SHORT[ch])
        elif o < 0x20 or 0xD800 <= o <= 0xDFFF:
            out.append(fmt.format(o))
        elif ch == "/" and style.slash:
            out.append("\\/")
        elif o >= 0x7F and style.rng is not None and style.p_escape and style.rng.random() < style.p_escape:
            if o > 0xFFFF:
                o -= 0x10000
                out.append(fmt.format(0xD800 + (o >> 10)) + fmt.format(0xDC00 + (o & 0x3FF)))
            else:
                out.append(fmt.format(o))
        else:
            out.append(ch)
    return "".join(out).encode("utf-8")


def dump(value: Any, style: Style | None = None) -> bytes:
    """The JSON text of `value` (see the module docstring)."""
    style = style or Style()
    parts: list[bytes] = []
    _dump(value, style, parts)
    return b"".join(parts)


def _dump(v: Any, style: Style, out: list[bytes]) -> None:
    if v is None:
        out.append(b"null")
    elif v is True:
        out.append(b"true")
    elif v is False:
        out.append(b"false")
    elif isinstance(v, Num):
        out.append(str(v).encode("utf-8", "surrogatepass"))
    elif isinstance(v, str):
        out.append(b'"' + encode_string_body(v, style) + b'"')
    elif isinstance(v, RawStr):
        out.append(b'"' + v.body + b'"')
    elif isinstance(v, Raw):
        out.append(v.data)
    elif isinstance(v, Obj):
        out.append(b"{" + style.ws().encode())
        for i, (k, item) in enumerate(v):
            if i:
                out.append(style.ws().encode() + b"," + style.ws().encode())
            _dump(k, style, out)
            out.append(style.ws().encode() + b":" + style.ws().encode())
            _dump(item, style, out)
        out.append(style.ws().encode() + b"}")
    elif isinstance(v, list):
        out.append(b"[" + style.ws().encode())
        for i, item in enumerate(v):
            if i:
                out.append(style.ws().encode() + b"," + style.ws().encode())
            _dump(item, style, out)
        out.append(style.ws().encode() + b"]")
    elif isinstance(v, int | float):  # plain Python numbers from hand-written pools
        out.append(json.dumps(v).encode())
    else:
        raise TypeError(f"not a model value: {type(v).__name__}")


def load(raw: bytes) -> Any:
    """Parse JSON text into the model, number texts kept (Python's `json`: lenient on
    lone surrogates and NaN, which come back as `str` and `Num`)."""
    return json.loads(
        raw.decode("utf-8"),
        object_pairs_hook=Obj,
        parse_int=Num,
        parse_float=Num,
        parse_constant=Num,
    )


def locations(value: Any) -> list[tuple[Any, int, int]]:
    """Every place a value sits below `value`: `(container, index, depth of the value)`, the
    document itself being depth 1; an `Obj`'s index is that of the pair."""
    found: list[tuple[Any, int, int]] = []
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Obj):
            for i, (_, item) in enumerate(node):
                found.append((node, i, depth + 1))
                stack.append((item, depth + 1))
        elif isinstance(node, list):
            for i, item in enumerate(node):
                found.append((node, i, depth + 1))
                stack.append((item, depth + 1))
    return found


def get_at(container: Any, i: int) -> Any:
    return container[i][1] if isinstance(container, Obj) else container[i]


def set_at(container: Any, i: int, value: Any) -> None:
    if isinstance(container, Obj):
        container[i] = (container[i][0], value)
    else:
        container[i] = value


def objects(value: Any) -> list[tuple[Obj, int]]:
    """Every object in `value` with its depth (the document being 1)."""
    out = [(value, 1)] if isinstance(value, Obj) else []
    out += [(get_at(c, i), d) for c, i, d in locations(value) if isinstance(get_at(c, i), Obj)]
    return out


def depth(value: Any) -> int:
    """How deep `value` nests, counting arrays and objects (a scalar is 0)."""
    if not isinstance(value, list):
        return 0
    return max([1] + [d for c, i, d in locations(value) if isinstance(get_at(c, i), list)])
