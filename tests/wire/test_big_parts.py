"""Big parts, in every language: the vectors of idl/examples/built.json (5, 20 and 50 MB of
base64 in one part, valid and not) parse, emit byte for byte, or are refused at the part's
`data`, in Python, TypeScript and Rust alike. TypeScript's check of the base64 pattern
overflowed V8's stack from about 5 MB (issue #28)."""

import functools

import pytest

from tests import conformance
from tests.vectors import built_vectors

VECTORS = built_vectors()


@functools.cache
def answers(language: str):
    return conformance.BUILT_SOURCES[language]()


def test_the_vectors_cover_5_20_and_50_mb_valid_and_not():
    sizes = {len(v.text()) // 1_000_000 for v in VECTORS if v.valid}
    assert {5, 20, 50} <= sizes
    assert {v.error_path for v in VECTORS if not v.valid} == {"$.parts[0].data"}


@pytest.mark.parametrize("language", list(conformance.BUILT_SOURCES))
def test_built_vectors(language):
    got = answers(language)
    failures = {
        v.name: why for v in VECTORS if (why := conformance.built_verdict(v, got.get(v.name))) != "pass"
    }
    assert failures == {}
