"""Properties of every wire type, with strategies derived from the IDL itself.

1. A valid instance of every IDL type survives emit -> parse -> emit unchanged.
2. Arbitrary JSON documents and arbitrary bytes fed to `from_json` raise only `WireError`.

The example counts are the floor the suite runs on every `make test`; `make fuzz` raises
them with `TOOLNEXUS_FUZZ_SCALE` (a multiplier) and prints how many cases ran.
"""

from __future__ import annotations

import json
import math
import os
import string
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolnexus
from codegen.idl import Field, Idl, TypeRef, WireType, load
from tests.conftest import REPO
from toolnexus import WireError

#: Left out by `make test-fast`: property tests over generated documents.
pytestmark = pytest.mark.slow

IDL: Idl = load(REPO / "idl")
MODELS: dict[str, type[Any]] = {t.name: getattr(toolnexus, t.name) for t in IDL.types}

SCALE = int(os.environ.get("TOOLNEXUS_FUZZ_SCALE", "1"))
#: Floors from issue 6: at least 1,000 examples per type for the round trip, and at least
#: 10,000 in all for hostile input (5,000 JSON documents + 5,000 byte strings).
ROUND_TRIP_EXAMPLES = 1_000 * SCALE
HOSTILE_JSON_EXAMPLES = 5_000 * SCALE
HOSTILE_BYTES_EXAMPLES = 5_000 * SCALE

CASES: Counter[str] = Counter()


def _settings(max_examples: int) -> settings:
    return settings(
        max_examples=max_examples,
        deadline=None,
        database=None,  # nothing written into the working tree
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@pytest.fixture(scope="module", autouse=True)
def _report_cases() -> Iterator[None]:
    yield
    total = sum(CASES.values())
    lines = [f"  {name}: {count} cases" for name, count in sorted(CASES.items())]
    print("\nproperty cases run:\n" + "\n".join(lines) + f"\n  total: {total} cases")


# -- strategies from the IDL --------------------------------------------------------------

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
#: Any JSON value: what `metadata`, `arguments` and unknown keys may hold.
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
JSON_OBJECTS = st.dictionaries(st.text(max_size=6), JSON_VALUES, max_size=3)

_TYPE_STRATEGIES: dict[str, st.SearchStrategy[dict[str, Any]]] = {}


def _field_strategy(ref: TypeRef) -> st.SearchStrategy[Any]:
    if ref.kind == "string":
        if ref.enum is not None:
            return st.sampled_from(ref.enum)
        if ref.pattern is not None:
            return st.from_regex(ref.pattern, fullmatch=True).filter(
                lambda s: len(s) >= (ref.min_length or 0)
            )
        return st.text(min_size=ref.min_length or 0, max_size=24)
    if ref.kind == "boolean":
        return st.booleans()
    if ref.kind == "integer":
        low = -(2**63) if ref.minimum is None else int(ref.minimum)
        high = 2**63 - 1 if ref.maximum is None else int(ref.maximum)
        return st.integers(min_value=low, max_value=high)
    if ref.kind == "number":  # a float, or an integer (which keeps its digits), within the bounds
        floats = st.floats(
            min_value=ref.minimum, max_value=ref.maximum, allow_nan=False, allow_infinity=False
        )
        low = -(2**63) if ref.minimum is None else math.ceil(ref.minimum)
        high = 2**63 - 1 if ref.maximum is None else math.floor(ref.maximum)
        return floats | st.integers(min_value=low, max_value=high)
    if ref.kind == "map":
        return JSON_OBJECTS
    if ref.kind == "any":  # any JSON value but null
        return JSON_VALUES.filter(lambda v: v is not None)
    if ref.kind == "ref":
        assert ref.ref is not None
        return st.deferred(lambda: wire_documents(IDL.type(ref.ref)))  # type: ignore[arg-type]
    if ref.kind == "array":
        assert ref.items is not None
        return st.lists(_field_strategy(ref.items), max_size=2)
    raise AssertionError(f"no strategy for {ref.kind}")


def _meets_requirements(t: WireType, doc: dict[str, Any]) -> bool:
    """Whether `doc` meets `t`'s requirements (the IDL's `allOf`): when the enum field holds
    one of the values, one of the fields is a string that is not empty."""
    for r in t.requires:
        if doc.get(r.when) in r.values and not any(isinstance(doc.get(f), str) and doc[f] for f in r.any_of):
            return False
    return True


def wire_documents(t: WireType) -> st.SearchStrategy[dict[str, Any]]:
    """Valid wire documents of `t`: required fields, any subset of optional ones, and (for an
    open type) unknown keys that a newer peer might send."""
    if t.name not in _TYPE_STRATEGIES:
        required = {f.wire_name: _field_strategy(f.type) for f in t.fields if f.required}
        optional = {f.wire_name: _field_strategy(f.type) for f in t.fields if not f.required}
        known = st.fixed_dictionaries(required, optional=optional)
        if t.open:
            names = {f.wire_name for f in t.fields}
            unknown = st.dictionaries(
                st.text(alphabet=string.ascii_letters + "_-", min_size=1, max_size=10).filter(
                    lambda k: k not in names
                ),
                JSON_VALUES,
                max_size=2,
            )
            known = st.tuples(known, unknown).map(lambda pair: {**pair[0], **pair[1]})
        if t.requires:  # the type's own requirements (a part carries something)
            known = known.filter(lambda doc, t=t: _meets_requirements(t, doc))
        _TYPE_STRATEGIES[t.name] = known
    return _TYPE_STRATEGIES[t.name]


def _normalised(t: WireType, doc: dict[str, Any]) -> dict[str, Any]:
    """`doc` as the encoder writes it: schema order, defaults written or empty arrays omitted."""
    out: dict[str, Any] = {}
    by_name: dict[str, Field] = {f.wire_name: f for f in t.fields}
    for f in t.fields:
        if f.wire_name in doc:
            value = doc[f.wire_name]
            if f.type.kind == "ref":
                value = _normalised(IDL.type(f.type.ref), value)  # type: ignore[arg-type]
            elif f.type.kind == "array" and f.type.items is not None and f.type.items.kind == "ref":
                value = [_normalised(IDL.type(f.type.items.ref), v) for v in value]  # type: ignore[arg-type]
        elif f.emit == "always" and not f.required:
            value = f.default
        else:
            continue
        if f.emit == "if_nonempty" and not value:
            continue
        out[f.wire_name] = value
    out.update({k: v for k, v in doc.items() if k not in by_name})
    return out


# -- 1. emit -> parse -> emit -------------------------------------------------------------


@pytest.mark.parametrize("wire_type", IDL.types, ids=lambda t: t.name)
def test_every_type_survives_emit_parse_emit(wire_type: WireType) -> None:
    model = MODELS[wire_type.name]

    @_settings(ROUND_TRIP_EXAMPLES)
    @given(wire_documents(wire_type))
    def round_trip(doc: dict[str, Any]) -> None:
        CASES[f"round trip {wire_type.name}"] += 1
        value = model.from_wire(doc)
        first = value.to_json()
        again = model.from_json(first)
        assert again == value
        assert again.to_json() == first
        assert model.from_json(first.encode("utf-8")).to_json() == first
        # Nothing lost, nothing added: the wire form is the document in schema order.
        assert again.to_wire() == _normalised(wire_type, doc)
        assert list(again.to_wire()) == list(_normalised(wire_type, doc))

    round_trip()
    assert CASES[f"round trip {wire_type.name}"] >= ROUND_TRIP_EXAMPLES


# -- 2. hostile input raises WireError and nothing else ----------------------------------


#: The valid wire vectors of `idl/examples`, the seeds that hostile input is made from.
VECTORS: list[bytes] = sorted(p.read_bytes() for p in (REPO / "idl" / "examples").glob("*/valid/*.json"))


def _near_miss() -> st.SearchStrategy[Any]:
    """A valid vector with one key dropped, retyped or set to null: close enough to reach
    the field validators rather than failing on the first check."""

    def mutate(pair: tuple[dict[str, Any], Any, int]) -> Any:
        doc, junk, choice = pair
        if not doc:
            return junk
        key = sorted(doc)[choice % len(doc)]
        mutated = dict(doc)
        if choice % 3 == 0:
            del mutated[key]
        else:
            mutated[key] = junk if choice % 3 == 1 else None
        return mutated

    docs = st.sampled_from(VECTORS).map(json.loads)
    return st.tuples(docs, JSON_VALUES, st.integers(0, 1_000)).map(mutate)


HOSTILE_DOCUMENTS = st.one_of(JSON_VALUES, _near_miss())


def _check_only_wire_errors(model: type[Any], data: str | bytes) -> None:
    try:
        value = model.from_json(data)
    except WireError as exc:
        assert exc.path.startswith("$")
        assert exc.errors
        return
    # Accepted: it must then be a valid value that re-emits and parses back to itself.
    assert model.from_json(value.to_json()) == value


@_settings(HOSTILE_JSON_EXAMPLES)
@given(st.sampled_from(IDL.types), HOSTILE_DOCUMENTS)
def test_arbitrary_json_raises_only_wire_error(wire_type: WireType, doc: Any) -> None:
    CASES["hostile JSON documents"] += 1
    _check_only_wire_errors(MODELS[wire_type.name], json.dumps(doc, ensure_ascii=False))


def _bytes_strategy() -> st.SearchStrategy[bytes]:
    valid = st.sampled_from(VECTORS)

    def corrupt(pair: tuple[bytes, int, bytes]) -> bytes:
        data, at, junk = pair
        at %= len(data) + 1
        return data[:at] + junk + data[at + len(junk) :]

    return st.one_of(
        st.binary(max_size=200),
        st.tuples(valid, st.integers(0, 10_000), st.binary(min_size=1, max_size=4)).map(corrupt),
        valid.map(lambda b: b[: len(b) // 2]),
    )


@_settings(HOSTILE_BYTES_EXAMPLES)
@given(st.sampled_from(IDL.types), _bytes_strategy())
def test_arbitrary_bytes_raise_only_wire_error(wire_type: WireType, data: bytes) -> None:
    CASES["hostile bytes"] += 1
    _check_only_wire_errors(MODELS[wire_type.name], data)
    _check_only_wire_errors(MODELS[wire_type.name], bytearray(data))


@_settings(50)
@given(st.data())
def test_the_strategies_cover_every_field_of_every_type(data: st.DataObject) -> None:
    """A guard on the derivation: every IDL field gets a strategy without a hand-written case,
    and what it draws is a value the field's own type accepts (a document of just that field,
    with the type's required fields drawn too, parses)."""
    for t in IDL.types:
        doc = data.draw(wire_documents(t), label=t.name)
        for f in t.fields:
            value = data.draw(_field_strategy(f.type), label=f"{t.name}.{f.wire_name}")
            changed = {**doc, f.wire_name: value}
            if _meets_requirements(t, changed):  # a field changed alone may leave a part empty
                MODELS[t.name].from_wire(changed)
