"""`ContentPart.from_path` against a path swapped for a FIFO after the check, and a file name
that is not UTF-8."""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest

from toolnexus import (
    ContentPart,
    ToolResult,
)
from toolnexus.adapters import (
    mcp_call_tool_result,
)

# -- ContentPart.from_path: a path swapped for a FIFO, a name that is not UTF-8 --------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_from_path_never_blocks_on_a_fifo_swapped_in_after_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    regular = tmp_path / "regular.txt"
    regular.write_text("hello")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    real_stat = os.stat

    def swapped(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        # The check sees the regular file; the open that follows meets the FIFO.
        return real_stat(regular if os.fspath(path) == os.fspath(fifo) else path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", swapped)
    outcome: list[BaseException | ContentPart] = []

    def read() -> None:
        try:
            outcome.append(ContentPart.from_path(fifo))
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=read, daemon=True)
    worker.start()
    worker.join(timeout=5)
    blocked = worker.is_alive()
    if blocked:  # release the reader stuck in open(), so the test ends
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        worker.join(timeout=5)
    assert not blocked, "from_path blocked opening a FIFO"
    assert len(outcome) == 1 and isinstance(outcome[0], ValueError)
    assert "not a regular file" in str(outcome[0]) and str(fifo) in str(outcome[0])


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="needs a file system that takes any bytes")
def test_a_file_name_that_is_not_utf8_is_named_with_replacement_characters() -> None:
    with tempfile.TemporaryDirectory() as d:
        path = os.fsencode(d) + b"/report-\xff.txt"
        with open(path, "wb") as f:
            f.write(b"hi")
        part = ContentPart.from_path(os.fsdecode(path))
    assert part.name == "report-\ufffd.txt"
    text = part.to_json()
    text.encode("utf-8")
    assert ContentPart.from_json(text) == part
    mcp_call_tool_result(ToolResult(output="x", parts=[part]))
