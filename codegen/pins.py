"""Print pins from pyproject.toml for the Makefile, so the versions live in one place:

python codegen/pins.py floor          the lowest versions the runtime dependencies allow
                                      (`pydantic==2.11.0 orjson==3.11.7 ...`), for `make test-floor`
python codegen/pins.py extra NAME     the pins of one optional-dependency group (`gen`: what
                                      `make gen` installs, and nothing else)
python codegen/pins.py test-tools     the dev pins of the tools the floor tests need
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TEST_TOOLS = ("pytest", "pytest-asyncio", "pytest-xdist", "hypothesis")


def floor_pins(project: dict[str, Any]) -> list[str]:
    pins = []
    for spec in project["dependencies"]:
        m = re.match(r"^([A-Za-z0-9_.-]+)(?:\[[^]]*\])?\s*>=\s*([0-9][^,;\s]*)", spec)
        if not m:
            raise SystemExit(f"codegen/pins.py: {spec!r} has no `>=` floor")
        pins.append(f"{m.group(1)}=={m.group(2)}")
    return pins


def main(argv: list[str]) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    if argv == ["floor"]:
        print(" ".join(floor_pins(project)))
    elif len(argv) == 2 and argv[0] == "extra" and argv[1] in extras:
        print(" ".join(extras[argv[1]]))
    elif argv == ["test-tools"]:
        print(" ".join(d for d in extras["dev"] if d.split("==")[0] in TEST_TOOLS))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
