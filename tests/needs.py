"""What a test needs from the machine (a toolchain, a server, a browser), and what happens when
it is missing: on a developer's machine the test is skipped with the reason; under `CI=true`
(`.ci/run`, which installs everything) it fails, so a missing install step is never a green run."""

from __future__ import annotations

import fcntl
import os
import subprocess
import tempfile
from pathlib import Path
from typing import NoReturn

import pytest

__all__ = ["in_ci", "missing", "npm_ci"]


def in_ci() -> bool:
    """Whether this run is CI's (`CI=true`), where nothing a test needs may be missing."""
    return os.environ.get("CI") == "true"


def missing(reason: str) -> NoReturn:
    """Skip the calling test because `reason` (what is missing, and how to install it); under
    CI=true fail it instead."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: a test that cannot run fails)", pytrace=False)
    pytest.skip(reason)


def npm_ci(folder: Path) -> None:
    """The npm packages pinned by `folder`'s package-lock.json, installed into its node_modules
    with `npm ci`, once for each lock (node_modules/.lock-stamp is the lock they came from).

    One install at a time on the machine (a lock file): installs run side by side from several
    test workers share npm's cache, and npm then fails now and then with ENOENT in the middle of
    unpacking (CI saw `mkdir node_modules/express`)."""
    lock, stamp = folder / "package-lock.json", folder / "node_modules" / ".lock-stamp"
    if stamp.exists() and stamp.read_bytes() == lock.read_bytes():
        return
    # A download that stalls gives up after a minute and is retried by npm; a whole install
    # that still hangs or fails is run again, at most three times.
    argv = ["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"]
    argv += ["--fetch-timeout=60000", "--fetch-retries=4", "--fetch-retry-maxtimeout=20000"]
    with open(Path(tempfile.gettempdir()) / "toolnexus-npm-ci.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if stamp.exists() and stamp.read_bytes() == lock.read_bytes():
            return
        for attempt in range(3):
            try:
                subprocess.run(argv, cwd=folder, check=True, stdout=subprocess.DEVNULL, timeout=420)
                break
            except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
                if attempt == 2:
                    raise
        stamp.write_bytes(lock.read_bytes())
