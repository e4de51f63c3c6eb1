"""The document generator: seeded and deterministic, document `i` of seed `s` depends on
`(s, i)` only (so any one document can be made again on its own: `--only i`).

Each document is for one wire type (the type folders of idl/examples) and comes from one
class, built on that type's vectors:

- `mutate`: a vector (valid or invalid) changed one to three times: a key dropped,
  duplicated (same or other value) or the keys reordered, a value replaced by one of another
  JSON type, a known field set to a random value, a string field set to an edge string
  (a trailing newline after a pattern-checked value, full-width digits, case), an object
  emptied, another type's vector; then the bytes truncated, bytes inserted, deleted or
  replaced;
- `unicode`: one edge put into a string value, an existing key, a new key, a new value or a
  shadowed value (see below):
  escaped and raw non-ASCII, surrogate pairs, lone surrogate escapes (high, low, reversed,
  followed by a non-surrogate), raw and escaped control characters, U+2028/2029,
  noncharacters, bad escapes, invalid UTF-8 (stray continuation, overlong forms, encoded
  surrogates, beyond U+10FFFF, truncated sequences); or at document level: a BOM, UTF-16,
  raw non-ASCII or bad bytes between tokens;
- `number`: one number text (`NUMBERS`) in a free-form place, in a typed field, in an array,
  shadowed, or as the whole document;
- `nesting`: a value nested so that the document reaches a chosen depth (the document's
  object being level 1): 99 to 102 most often, also 128-130, 200, 1,000, 1,025, 5,000 and
  100,000; arrays, objects or both, leaves empty or not, siblings, unclosed, shadowed;
- `framing`: a valid vector with leading/trailing whitespace (JSON's four and others), trailing
  garbage, a second document, comments, or an empty / whitespace-only / scalar document.

"Shadowed": the edge sits under a key that comes again later in the same object with a plain
value. A parser keeping the last of two values would no longer hold the edge while the text
does; every language refuses the repeated key itself (R7 in docs/limits.md), whatever the edge.

Most documents are built to be accepted (unknown keys and free-form objects take the edges),
so that their emitted bytes can be compared too.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.fuzz.model import (
    Num,
    Obj,
    Raw,
    RawStr,
    Style,
    depth,
    dump,
    encode_string_body,
    get_at,
    load,
    locations,
    objects,
    set_at,
)

REPO = Path(__file__).resolve().parent.parent.parent
EXAMPLES = REPO / "idl" / "examples"
IDL = REPO / "idl"


@dataclass(frozen=True)
class Seed:
    type_name: str
    name: str
    valid: bool
    raw: bytes

    def tree(self) -> Any:
        """A fresh model of the vector, or None when it is not JSON."""
        try:
            return load(self.raw)
        except (ValueError, RecursionError):
            return None


@dataclass(frozen=True)
class Doc:
    index: int
    type_name: str
    cls: str  # the generator class
    variant: str  # what was done, e.g. "int-309-digits-beyond@free"
    raw: bytes

    @property
    def id(self) -> str:
        """Its vector name in a batch folder laid out like idl/examples."""
        return f"{self.type_name}/valid/{self.index:09d}.json"


@functools.cache
def seeds() -> dict[str, tuple[Seed, ...]]:
    out = {}
    for type_dir in sorted(p for p in EXAMPLES.iterdir() if p.is_dir()):
        found = []
        for kind in ("valid", "invalid"):
            for path in sorted((type_dir / kind).glob("*.json")):
                found.append(Seed(type_dir.name, path.name, kind == "valid", path.read_bytes()))
        out[type_dir.name] = tuple(found)
    return out


def types() -> tuple[str, ...]:
    return tuple(seeds())


@functools.cache
def shallow_valid(type_name: str) -> tuple[Seed, ...]:
    """The valid vectors of a type that nest at most 10 levels (a base for injected edges)."""
    return tuple(s for s in seeds()[type_name] if s.valid and (t := s.tree()) is not None and depth(t) <= 10)


@functools.cache
def known_keys(type_name: str) -> tuple[str, ...]:
    schema = json.loads((IDL / f"{type_name}.json").read_text(encoding="utf-8"))
    return tuple(schema.get("properties", {}))


@functools.cache
def all_known_keys() -> tuple[str, ...]:
    return tuple(sorted({k for t in types() for k in known_keys(t)}))


# --------------------------------------------------------------------------- pools

STRINGS = (
    "", "a", "pnd-1", "call_1", "sqrt", "image", "file", "audio", "video", "text", "done",
    "pending", "approval", "authorization", "cancelled", "declined", "expired", "text/plain",
    "aGk=", "aGk", "a\nb", "2025-06-30T12:00:00Z", "2025-06-30T12:00:00Z\n", "null", "true", "0",
    "Zoë", "日本語", "😀", "\u2028", "\u0000", "\x7f", "a" * 300,
)  # fmt: skip

# The number texts: (label, text). `int-*` integers, `dec-*` simple decimals, `exp-*` with an
# exponent, `bad-*` not JSON numbers at all.
_MAX = 2**1024 - 2**971  # the largest double, as an integer (309 digits)
_HALF = 2**1024 - 2**970  # half way to the next power: rounds to infinity (ties to even)


def _digits(rng: random.Random, n: int) -> str:
    return str(rng.randint(1, 9)) + "".join(rng.choice("0123456789") for _ in range(n - 1))


NUMBERS: tuple[tuple[str, Callable[[random.Random], str]], ...] = (
    ("int-0", lambda r: "0"),
    ("int-small", lambda r: str(r.randint(-1000, 1000))),
    ("int-neg-zero", lambda r: "-0"),
    ("int-2^53-1", lambda r: "9007199254740991"),
    ("int-2^53+1", lambda r: "9007199254740993"),
    ("int-2^63", lambda r: "9223372036854775808"),
    ("int-minus-2^63-1", lambda r: "-9223372036854775809"),
    ("int-2^64-1", lambda r: "18446744073709551615"),
    ("int-2^64", lambda r: "18446744073709551616"),
    ("int-30-digits", lambda r: _digits(r, 30)),
    ("int-100-digits", lambda r: _digits(r, 100)),
    ("int-308-digits", lambda r: r.choice(("", "-")) + _digits(r, 308)),
    ("int-309-digits-in-range", lambda r: r.choice(("", "-")) + str(r.randint(10**308, _MAX))),
    ("int-max-double", lambda r: r.choice(("", "-")) + str(_MAX)),
    ("int-half-way-minus-1", lambda r: r.choice(("", "-")) + str(_HALF - 1)),  # rounds to the max
    ("int-half-way", lambda r: r.choice(("", "-")) + str(_HALF)),  # rounds to infinity: beyond
    ("int-309-digits-beyond", lambda r: r.choice(("", "-")) + str(r.randint(_HALF, 10**309 - 1))),
    ("int-310-digits", lambda r: r.choice(("", "-")) + _digits(r, 310)),
    ("int-400-digits", lambda r: _digits(r, 400)),
    ("int-1000-digits", lambda r: _digits(r, 1000)),
    ("dec-simple", lambda r: r.choice(("0.5", "-12.75", "3.25", "0.1", "-0.25", "123.456", "1.5"))),
    ("dec-random", lambda r: repr(r.uniform(-1e6, 1e6))),
    ("dec-neg-zero", lambda r: r.choice(("-0.0", "-0.00"))),
    ("dec-trailing-zero", lambda r: r.choice(("1.50", "1.0", "0.0", "100.000", "-2.10"))),
    ("dec-long-mantissa", lambda r: r.choice(("0.1000000000000000055511151231257827", "3.141592653589793238"))),  # noqa: E501
    ("dec-big", lambda r: r.choice(("12345678901234567.5", "123456789012345678901234567890.5"))),
    ("dec-400-digits", lambda r: _digits(r, 400) + ".5"),
    ("dec-tiny", lambda r: "0." + "0" * r.choice((5, 20, 330, 400)) + "1"),
    ("exp-simple", lambda r: r.choice(("1e5", "1E5", "1e+5", "1e-5", "-2.5E-3", "0e0", "0E-0", "1.5e300",
                                       "-1.5e-300"))),
    ("exp-max", lambda r: r.choice(("1.7976931348623157e308", "-1.7976931348623157e+308", "1e308"))),
    ("exp-rounds-to-max", lambda r: "1.7976931348623158e308"),
    ("exp-rounds-to-inf", lambda r: r.choice(("1.7976931348623159e308", "1.8e308", "-1.8e308"))),
    ("exp-beyond", lambda r: r.choice(("2e308", "1e309", "1e400", "-1e400", "1e99999"))),
    ("exp-huge-exponent", lambda r: "1e" + "9" * 30),
    ("exp-subnormal", lambda r: r.choice(("5e-324", "4.9e-324", "2.2250738585072011e-308",
                                          "2.2250738585072014e-308"))),
    ("exp-underflow", lambda r: r.choice(("1e-400", "2.4e-324", "-1e-400", "1e-99999"))),
    ("exp-tiny-exponent", lambda r: "1e-" + "9" * 30),
    ("exp-big-mantissa-small-exponent", lambda r: "1" + "0" * 400 + "e-395"),
    ("bad-nan", lambda r: r.choice(("NaN", "-NaN", "nan"))),
    ("bad-infinity", lambda r: r.choice(("Infinity", "-Infinity", "+Infinity", "inf", "-inf"))),
    ("bad-syntax", lambda r: r.choice(("+1", "01", "-01", ".5", "5.", "1.e5", "1e", "1e+", "-", "--1", "0x10",
                                       "1_000", "1.5.5", "\u22121", "\u0661", "1 2", "0.", "-.5", "00"))),
)  # fmt: skip


FRAGMENTS: tuple[tuple[str, bytes], ...] = (
    # escaped and raw non-ASCII
    ("esc-bmp", b"\\u00e9"),
    ("esc-bmp-upper", b"\\u00E9\\u4E2D"),
    ("esc-ascii", b"\\u0041\\/"),
    ("esc-bom", b"\\ufeff"),
    ("esc-nonchar", b"\\uffff\\ufffe"),
    ("esc-nul", b"\\u0000"),
    ("esc-controls", b"\\n\\t\\r\\b\\f\\u0001\\u001F\\u007f"),
    ("esc-line-sep", b"\\u2028\\u2029"),
    ("raw-latin", "é".encode()),
    ("raw-cjk", "中文".encode()),
    ("raw-astral", "😀𝄞".encode()),
    ("raw-max", "\U0010ffff".encode()),
    ("raw-line-sep", "\u2028\u2029".encode()),
    ("raw-bom", "\ufeff".encode()),
    ("raw-nonchar", "\uffff\ufffe".encode()),
    ("raw-nel", "\u0085".encode()),
    ("raw-del", b"\x7f"),
    ("raw-combining", "e\u0301\u200d".encode()),
    # surrogates
    ("pair-escaped", b"\\ud83d\\ude00"),
    ("pair-escaped-upper", b"\\uD83D\\uDE00"),
    ("pair-escaped-max", b"\\udbff\\udfff"),
    ("lone-high", b"\\ud800"),
    ("lone-high-end", b"\\udbff"),
    ("lone-low", b"\\udc00"),
    ("lone-low-end", b"\\udfff"),
    ("pair-reversed", b"\\ude00\\ud83d"),
    ("high-then-ascii", b"\\ud83d\\u0041"),
    ("high-then-char", b"\\ud83dx"),
    ("high-high", b"\\ud800\\ud800"),
    ("high-then-raw-low", b"\\ud83d\xed\xb8\x80"),
    # control characters raw (not JSON)
    ("raw-nul", b"\x00"),
    ("raw-control", b"\x01\x1f"),
    ("raw-newline", b"\n"),
    ("raw-tab", b"\t"),
    # bad escapes (not JSON)
    ("bad-escape-x", b"\\x41"),
    ("bad-escape-short-u", b"\\u12"),
    ("bad-escape-hex", b"\\uZZZZ"),
    ("bad-escape-letter", b"\\a"),
    ("bad-escape-quote", b"\\'"),
    # invalid UTF-8
    ("utf8-ff", b"\xff"),
    ("utf8-fe", b"\xfe"),
    ("utf8-stray-continuation", b"\x80"),
    ("utf8-overlong-nul", b"\xc0\x80"),
    ("utf8-overlong-2", b"\xc1\xbf"),
    ("utf8-overlong-3", b"\xe0\x80\x80"),
    ("utf8-overlong-3b", b"\xe0\x9f\xbf"),
    ("utf8-overlong-4", b"\xf0\x80\x80\x80"),
    ("utf8-overlong-4b", b"\xf0\x8f\xbf\xbf"),
    ("utf8-surrogate-high", b"\xed\xa0\x80"),
    ("utf8-surrogate-low", b"\xed\xbf\xbf"),
    ("utf8-cesu-pair", b"\xed\xa0\xbd\xed\xb8\x80"),
    ("utf8-beyond-10ffff", b"\xf4\x90\x80\x80"),
    ("utf8-5-byte", b"\xf8\x88\x80\x80\x80"),
    ("utf8-truncated-2", b"\xc3"),
    ("utf8-truncated-3", b"\xe4\xb8"),
    ("utf8-truncated-4", b"\xf0\x9f\x98"),
    ("utf8-bad-continuation", b"\xc3\x28"),
)

FRAGMENT_PLACES = ("value", "value", "new-value", "new-key", "key", "shadowed")


# --------------------------------------------------------------------------- helpers


def _base(rng: random.Random, type_name: str) -> Any:
    """A fresh model of a shallow valid vector of the type."""
    return rng.choice(shallow_valid(type_name)).tree()


def _dump(rng: random.Random, tree: Any) -> bytes:
    return dump(tree, Style.random(rng))


def _new_key(rng: random.Random) -> str:
    return rng.choice(("x-fuzz", "x-a", "zz", "x-é", "x-0", "x-", "x-" + str(rng.randint(0, 99))))


def _inject(rng: random.Random, tree: Any, value: Any, shadow: bool = False) -> tuple[Obj, int, int]:
    """Add `value` under a new unknown key of an object in `tree` (which may be a free-form
    object); returns the object, the pair's index and the level `value` sits at (the
    document's object being level 1). With `shadow`, the same key comes again later in that
    object with a plain value, which would replace `value` in a parser keeping the last of
    two: the text holds `value`, such a parsed tree would not (every language refuses it)."""
    obj, level = rng.choice(objects(tree))
    at = len(obj) if rng.random() < 0.7 and not shadow else rng.randint(0, len(obj))
    key = _new_key(rng)
    obj.insert(at, (key, value))
    if shadow:
        plain: Any = rng.choice((Num("0.5"), Num("1"), "s", None, Obj(), []))
        obj.insert(rng.randint(at + 1, len(obj)), (key, plain))
    return obj, at, level + 1


def _rand_value(rng: random.Random, budget: int = 2) -> Any:
    kind = rng.choice(
        ("null", "bool", "num", "str", "str", "arr", "obj") if budget > 0 else ("null", "bool", "num", "str")
    )
    if kind == "null":
        return None
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "num":
        return Num(rng.choice(("0", "1", "-7", "0.5", "42", "9007199254740993", "-12.75")))
    if kind == "str":
        return rng.choice(STRINGS)
    if kind == "arr":
        return [_rand_value(rng, budget - 1) for _ in range(rng.randint(0, 3))]
    keys = (*all_known_keys(), "a", "b", "x-y")
    return Obj((rng.choice(keys), _rand_value(rng, budget - 1)) for _ in range(rng.randint(0, 3)))


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, Num):
        return "num"
    if isinstance(v, str | RawStr):
        return "str"
    if isinstance(v, Obj):
        return "obj"
    if isinstance(v, list):
        return "arr"
    return "raw"


def _edge_string(rng: random.Random, s: str) -> str:
    fullwidth = s.translate({ord(c): 0xFF10 + int(c) for c in "0123456789"})
    return rng.choice(
        (
            s + "\n", "\n" + s, s + " ", " " + s, s + "\r\n", s.upper(), s.lower(), s + "\x00",
            s[:-1], "", s + "é", s + s, fullwidth, s.replace("T", "t"), s + "\u2028", "\u0130" + s,
            s.replace("-", "\u2010"), s + "=", s.rstrip("="), s.replace("a", "A"),
        )
    )  # fmt: skip


# --------------------------------------------------------------------------- classes

_TREE_OPS = ("drop-key", "dup-key-same", "dup-key-other", "reorder-keys", "retype", "known-key",
             "edge-string", "empty-container")  # fmt: skip
_BYTE_OPS = ("truncate", "insert-bytes", "delete-bytes", "replace-byte")
_INSERTS = (b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b" ", b"\n", b"\x00", b"\xff", b"0",
            b"-", b"e", b"null", b",}", "é".encode(), b"\xc3", b"/*x*/")  # fmt: skip


def _tree_op(rng: random.Random, op: str, tree: Any, type_name: str) -> bool:
    """Apply `op` to `tree` in place; False when it found no place to."""
    locs = locations(tree)
    objs = [o for o, _ in objects(tree) if o]
    if op == "drop-key":
        if not objs:
            return False
        o = rng.choice(objs)
        del o[rng.randrange(len(o))]
    elif op in ("dup-key-same", "dup-key-other"):
        if not objs:
            return False
        o = rng.choice(objs)
        k, v = o[rng.randrange(len(o))]
        o.insert(rng.randint(0, len(o)), (k, v if op == "dup-key-same" else _rand_value(rng)))
    elif op == "reorder-keys":
        if not objs:
            return False
        rng.shuffle(rng.choice(objs))
    elif op == "retype":
        if not locs:
            return False
        c, i, _ = rng.choice(locs)
        old = _kind(get_at(c, i))
        new = _rand_value(rng)
        while _kind(new) == old:
            new = _rand_value(rng)
        set_at(c, i, new)
    elif op == "known-key":
        if not isinstance(tree, Obj):
            return False
        key = rng.choice(known_keys(type_name) or all_known_keys())
        value = _rand_value(rng)
        for i, (k, _) in enumerate(tree):
            if k == key:
                tree[i] = (k, value)
                break
        else:
            tree.append((key, value))
    elif op == "edge-string":
        strs = [(c, i) for c, i, _ in locs if isinstance(get_at(c, i), str)]
        if not strs:
            return False
        c, i = rng.choice(strs)
        set_at(c, i, _edge_string(rng, get_at(c, i)))
    elif op == "empty-container":
        conts = [(c, i) for c, i, _ in locs if isinstance(get_at(c, i), list)]
        if not conts:
            return False
        c, i = rng.choice(conts)
        set_at(c, i, Obj() if isinstance(get_at(c, i), Obj) else [])
    return True


def _byte_op(rng: random.Random, op: str, raw: bytes) -> bytes:
    at = rng.randint(0, len(raw))
    if op == "truncate":
        return raw[: rng.randint(0, max(len(raw) - 1, 0))]
    if op == "insert-bytes":
        ins = (
            rng.choice(_INSERTS)
            if rng.random() < 0.7
            else bytes(rng.randrange(256) for _ in range(rng.randint(1, 3)))
        )
        return raw[:at] + ins + raw[at:]
    if op == "delete-bytes":
        return raw[:at] + raw[at + rng.randint(1, 4) :]
    if at == len(raw):
        return raw
    return raw[:at] + bytes([rng.randrange(256)]) + raw[at + 1 :]


def gen_mutate(rng: random.Random, type_name: str) -> tuple[str, bytes]:
    if rng.random() < 0.08:  # another type's vector, as this type
        other = rng.choice([t for t in types() if t != type_name])
        seed = rng.choice([s for s in seeds()[other] if s.valid])
        return f"foreign:{other}/{seed.name}", seed.raw
    pool = seeds()[type_name]
    seed = rng.choice(pool) if rng.random() < 0.25 else rng.choice([s for s in pool if s.valid])
    tree = seed.tree()
    done = []
    raw = seed.raw
    if tree is not None and depth(tree) <= 10:
        for _ in range(rng.choice((1, 1, 2, 3))):
            op = rng.choice(_TREE_OPS)
            if _tree_op(rng, op, tree, type_name):
                done.append(op)
        raw = _dump(rng, tree)
    if rng.random() < 0.35 or not done:
        op = rng.choice(_BYTE_OPS)
        raw = _byte_op(rng, op, raw)
        done.append(op)
    return f"{'valid' if seed.valid else 'invalid'}/{seed.name}:" + "+".join(done), raw


def gen_unicode(rng: random.Random, type_name: str) -> tuple[str, bytes]:
    tree = _base(rng, type_name)
    style = Style.random(rng)
    if rng.random() < 0.12:  # document level
        raw = dump(tree, style)
        variant = rng.choice(("bom-start", "bom-end", "utf16-le-bom", "utf16-be", "utf32", "nbsp-between",
                              "raw-nonascii-between", "ff-between", "line-sep-between"))  # fmt: skip
        if variant == "bom-start":
            return variant, b"\xef\xbb\xbf" + raw
        if variant == "bom-end":
            return variant, raw + b"\xef\xbb\xbf"
        if variant == "utf16-le-bom":
            return variant, "\ufeff".encode("utf-16-le") + raw.decode().encode("utf-16-le")
        if variant == "utf16-be":
            return variant, raw.decode().encode("utf-16-be")
        if variant == "utf32":
            return variant, raw.decode().encode("utf-32-le")
        between = {"nbsp-between": "\u00a0".encode(), "raw-nonascii-between": "é".encode(),
                   "ff-between": b"\xff", "line-sep-between": "\u2028".encode()}[variant]  # fmt: skip
        at = raw.index(b",") + 1 if b"," in raw else 1
        return variant, raw[:at] + between + raw[at:]
    label, frag = rng.choice(FRAGMENTS)
    place = rng.choice(FRAGMENT_PLACES)
    locs = locations(tree)

    def body(s: str) -> RawStr:
        i = rng.randint(0, len(s))
        return RawStr(encode_string_body(s[:i], style) + frag + encode_string_body(s[i:], style))

    if place == "value":
        strs = [(c, i) for c, i, _ in locs if isinstance(get_at(c, i), str)]
        if strs:
            c, i = rng.choice(strs)
            set_at(c, i, body(get_at(c, i)))
        else:
            place = "new-value"
    if place == "key":
        keyed = [(o, i) for o, _ in objects(tree) for i in range(len(o))]
        if keyed:
            o, i = rng.choice(keyed)
            o[i] = (body(o[i][0]), o[i][1])
        else:
            place = "new-key"
    if place in ("new-value", "shadowed"):
        _inject(rng, tree, body(rng.choice(("", "x", "Zoë"))), shadow=place == "shadowed")
    if place == "new-key":
        o, at, _ = _inject(rng, tree, rng.choice(("v", Num("1"), None)))
        o[at] = (body(o[at][0]), o[at][1])
    return f"{label}@{place}", dump(tree, style)


def gen_number(rng: random.Random, type_name: str) -> tuple[str, bytes]:
    label, make = rng.choice(NUMBERS)
    num = Num(make(rng))
    tree = _base(rng, type_name)
    place = rng.choice(("free", "free", "free", "array", "typed", "top", "shadowed"))
    if place == "top" and rng.random() < 0.7:
        place = "free"
    if place == "top":
        return f"{label}@top", str(num).encode()
    if place == "typed":
        scalars = [(c, i) for c, i, _ in locations(tree) if _kind(get_at(c, i)) in ("str", "bool", "null")]
        if scalars:
            c, i = rng.choice(scalars)
            set_at(c, i, num)
        else:
            place = "free"
    if place == "array":
        _inject(rng, tree, [num, Num("1"), num] if rng.random() < 0.5 else [num])
    if place in ("free", "shadowed"):
        _inject(
            rng, tree, num if place == "free" or rng.random() < 0.5 else [num], shadow=place == "shadowed"
        )
    return f"{label}@{place}", _dump(rng, tree)


DEPTHS = (2, 50, 99, 99, 100, 100, 100, 100, 101, 101, 101, 101, 102, 102, 127, 128, 129, 130,
          200, 257, 1000, 1025, 5000, 100_000)  # fmt: skip


def _nest(rng: random.Random, n: int, shape: str, leaf: bytes | None) -> bytes:
    """`n` nested containers as bytes (n >= 1); `leaf` inside the innermost (None: empty)."""
    if shape == "arrays":
        kinds = "0" * n  # 0 an array, 1 an object
    elif shape == "objects":
        kinds = "1" * n
    elif shape == "alternating":
        kinds = ("01" * (n // 2 + 1))[:n]
    else:
        kinds = format(rng.getrandbits(n), f"0{n}b")
    outer, inner = kinds[:-1], kinds[-1]
    opens = outer.replace("1", '{"k":').replace("0", "[").encode()
    closes = outer[::-1].replace("1", "}").replace("0", "]").encode()
    if leaf is None:
        middle = b"[]" if inner == "0" else b"{}"
    else:
        middle = b"[" + leaf + b"]" if inner == "0" else b'{"k":' + leaf + b"}"
    return opens + middle + closes


def gen_nesting(rng: random.Random, type_name: str) -> tuple[str, bytes]:
    target = rng.choice(DEPTHS)
    shape = rng.choice(("arrays", "objects", "alternating", "mixed"))
    leaf = rng.choice((None, None, b"0", b'"s"', b"null", b"[]"))
    leaf_levels = 1 if leaf == b"[]" else 0  # a leaf that is itself a level: one container fewer
    style = rng.choice(("inject", "inject", "inject", "siblings", "unclosed", "top-array", "shadowed"))
    if style == "top-array":  # the whole document: never an object, always refused
        return f"depth-{target}-{shape}@top-array", _nest(rng, target - leaf_levels, shape, leaf)
    tree = _base(rng, type_name)
    base_depth = depth(tree)
    objs = [(o, d) for o, d in objects(tree) if d < target]
    obj, level = rng.choice(objs)
    n = target - level - leaf_levels  # containers below the new key so the deepest is `target`
    if n < 1:
        n, leaf = 1, None
    value = _nest(rng, n, shape, leaf)
    if style == "siblings" and n >= 2:  # as deep beside a level less, in an array
        inner = _nest(rng, n - 1, shape, leaf)
        value = b"[" + inner + b"," + _nest(rng, max(n - 2, 1), shape, leaf) + b"," + inner + b"]"
    at = len(obj) if rng.random() < 0.6 and style != "shadowed" else rng.randint(0, len(obj))
    key = _new_key(rng)
    obj.insert(at, (key, Raw(value)))
    if style == "shadowed":  # the same key again later: a last-wins parser drops the deep value
        obj.insert(rng.randint(at + 1, len(obj)), (key, rng.choice((Num("0.5"), "s", None, Obj(), []))))
    raw = dump(tree, Style.random(rng))
    actual = max(base_depth, level + n + (leaf_levels if leaf is not None else 0))
    if style == "unclosed":
        raw = raw[: raw.index(value) + len(value) // 2 + 1] if value in raw else raw[:-1]
    return f"depth-{actual}-{shape}@{style}", raw


_WS_OK = (b" ", b"\t", b"\n", b"\r", b"\r\n", b"  \n\t ")
_WS_BAD = (
    b"\x0c",
    b"\x0b",
    "\u00a0".encode(),
    "\u3000".encode(),
    "\u2028".encode(),
    "\ufeff".encode(),
    b"\x00",
    b"\x1c",
)
_GARBAGE = (b"x", b"}", b"]", b",", b"{}", b"[]", b"null", b"0", b'"', b"//c", b"/*c*/", b"#", b"\x00",
            b"\x1a", b"\xff", b" ,", b"\n}", b"true", b"-", b"1")  # fmt: skip


def gen_framing(rng: random.Random, type_name: str) -> tuple[str, bytes]:
    tree = _base(rng, type_name)
    raw = _dump(rng, tree)
    variant = rng.choice(("ws-ok", "ws-ok", "ws-bad", "garbage", "garbage", "two-docs", "ndjson",
                          "comment-before", "empty", "scalar", "pretty"))  # fmt: skip
    if variant == "ws-ok":
        return variant, rng.choice((b"", *_WS_OK)) + raw + rng.choice(_WS_OK)
    if variant == "ws-bad":
        ws = rng.choice(_WS_BAD)
        where = rng.choice(("before", "after"))
        return f"ws-bad-{where}:{ws!r}", ws + raw if where == "before" else raw + ws
    if variant == "garbage":
        g = rng.choice(_GARBAGE)
        return f"garbage:{g!r}", raw + rng.choice((b"", b" ", b"\n")) + g
    if variant == "two-docs":
        return variant, raw + rng.choice((b"", b" ", b"\n")) + _dump(rng, _base(rng, type_name))
    if variant == "ndjson":
        return variant, raw + b"\n" + raw + b"\n"
    if variant == "comment-before":
        return variant, rng.choice((b"//c\n", b"/*c*/", b"#c\n")) + raw
    if variant == "empty":
        return variant, rng.choice((b"", b" ", b"\n", b"\r\n\t "))
    if variant == "scalar":
        return variant, rng.choice((b"null", b"{}", b"[]", b'""', b"0", b"true", b"[{}]", b'"{}"'))
    return variant, dump(tree, Style(rng=rng, p_space=1.0))


CLASSES: dict[str, tuple[float, Callable[[random.Random, str], tuple[str, bytes]]]] = {
    "mutate": (0.35, gen_mutate),
    "unicode": (0.20, gen_unicode),
    "number": (0.20, gen_number),
    "nesting": (0.10, gen_nesting),
    "framing": (0.15, gen_framing),
}


def generate(seed: int, index: int) -> Doc:
    """Document `index` of `seed`."""
    rng = random.Random(f"toolnexus-fuzz/{seed}/{index}")
    type_name = rng.choice(types())
    names = list(CLASSES)
    cls = rng.choices(names, weights=[CLASSES[n][0] for n in names])[0]
    variant, raw = CLASSES[cls][1](rng, type_name)
    return Doc(index, type_name, cls, variant, raw)


def documents(seed: int, count: int, start: int = 0) -> Iterator[Doc]:
    for index in range(start, start + count):
        yield generate(seed, index)
