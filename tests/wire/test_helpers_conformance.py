"""The part and suspension helpers, every language: `from_path`, `from_url`, `from_bytes`,
`pending` and `auth_required` give the same part, result or error for each edge input of
idl/helpers (trailing slashes and empty paths, URL schemes, MIME types with line breaks, bidi
controls in names, fresh request ids), in Python, TypeScript and Rust."""

import functools

import pytest

from tests import helper_vectors

CASES = helper_vectors.cases()


@functools.cache
def answers(language: str):
    return helper_vectors.SOURCES[language]()


def test_every_helper_has_cases_of_both_outcomes():
    helpers = {c.helper for c in CASES}
    assert helpers == {"from_path", "from_url", "from_bytes", "pending", "auth_required"}
    for helper in helpers:
        mine = [c for c in CASES if c.helper == helper]
        assert any(c.error for c in mine) and any(c.error is None for c in mine), helper
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("language", list(helper_vectors.SOURCES))
def test_helper_vectors(language):
    got = answers(language)
    failures = {c.id: why for c in CASES if (why := helper_vectors.judge(c, got.get(c.id))) != "pass"}
    assert failures == {}
