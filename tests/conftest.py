from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def repo() -> Path:
    return REPO


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`--dist loadgroup`), the tests that use the Temporal dev server run
    in one worker, so one server (a session fixture) serves them all."""
    for item in items:
        if "temporal" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("temporal"))
