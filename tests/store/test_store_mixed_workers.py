"""Python and TypeScript workers on one PostgreSQL database (issue 33): 2 processes of each take
400 waiting runs and resume them until none is left; each run is claimed and finished by one
worker, its tool runs once under its key, and the database holds each done with its one answer;
the workers spread out, so few of their claims meet (`tests/store/mixed.py`;
`bench/postgres_mixed.py` is the same with 10,000 runs and 4 + 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.needs import missing
from tests.store.mixed import race, typescript_host


@pytest.fixture(scope="module")
def node_host() -> Path:
    try:
        return typescript_host()
    except FileNotFoundError as exc:
        missing(str(exc))


def test_python_and_typescript_workers_finish_each_run_once(
    postgres_dsn: str, node_host: Path, tmp_path: Path
):
    outcome = race(postgres_dsn, 400, python=2, typescript=2, folder=tmp_path, timeout=120)
    assert outcome.problems == []
    assert sum(outcome.finished.values()) == 400
    assert outcome.finished["python"] > 0 and outcome.finished["typescript"] > 0, outcome.finished
    # The workers spread out (each its share first), so few claims lose their race: 27 to 43 over
    # 400 runs here. When all listed the oldest page, 4 + 4 lost 3.4 races per run over 10,000.
    assert sum(outcome.lost.values()) < 200, outcome.lost
