"""No merge left half done: no tracked text file holds a conflict's opening or closing marker
(a line starting `<<<<<<< ` or `>>>>>>> `), which a merge leaves where it could not join two
changes and which no build or docs test catches (docs/guides/result-limits.md held one)."""

from __future__ import annotations

import subprocess

from tests.conftest import REPO

MARKERS = ("<<<<<<< ", ">>>>>>> ")


def test_no_tracked_file_holds_a_merge_conflict_marker() -> None:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    found = []
    for name in filter(None, listed.decode().split("\0")):
        path = REPO / name
        if path.is_symlink() or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:
            continue  # binary
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            if line.startswith(MARKERS):
                found.append(f"{name}:{number}: {line[:40]}")
    assert not found, "conflict markers left by a merge:\n" + "\n".join(found)
