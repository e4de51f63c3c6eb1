"""Every vector, every language: valid ones re-emit byte for byte, invalid ones are rejected at their path."""

import functools

import pytest

from tests import conformance
from tests.vectors import vectors

VECTORS = vectors()


@functools.cache
def answers(source: str):
    return conformance.SOURCES[source]()


@pytest.mark.parametrize("source", list(conformance.SOURCES))
def test_conformance(source):
    got = answers(source)
    parser = source in conformance.PARSERS
    failures = {
        v.id: why for v in VECTORS if (why := conformance.verdict(v, got.get(v.id), parser)) != "pass"
    }
    assert failures == {}
    assert len(got) == len(VECTORS)
