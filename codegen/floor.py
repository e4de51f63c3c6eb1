"""Print the lowest versions pyproject.toml allows for the runtime dependencies, as pins
(`pydantic==2.11.0 orjson==3.11.7`), for `make test-floor`; with `--test-tools`, the dev
pins of the tools the floor tests need instead."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TEST_TOOLS = ("jsonschema", "pytest", "pytest-asyncio", "hypothesis")


def floor_pins(project: dict[str, Any]) -> list[str]:
    pins = []
    for spec in project["dependencies"]:
        m = re.match(r"^([A-Za-z0-9_.-]+)(?:\[[^]]*\])?\s*>=\s*([0-9][^,;\s]*)", spec)
        if not m:
            raise SystemExit(f"codegen/floor.py: {spec!r} has no `>=` floor")
        pins.append(f"{m.group(1)}=={m.group(2)}")
    return pins


def main() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    if sys.argv[1:] == ["--test-tools"]:
        dev = project["optional-dependencies"]["dev"]
        print(" ".join(d for d in dev if d.split("==")[0] in TEST_TOOLS))
    else:
        print(" ".join(floor_pins(project)))


if __name__ == "__main__":
    main()
