"""A throwaway PostgreSQL cluster for the tests (`initdb` and `pg_ctl`, as this unprivileged
user, on loopback, on a free port, in a temporary folder, stopped at the end), a fresh schema of
it for each test, and the store fixtures that run one set of store tests on both databases."""

from __future__ import annotations

import contextlib
import getpass
import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.needs import missing
from toolnexus.store import RunStore, SqliteRunStore

#: The databases every store test runs on.
BACKENDS = ("sqlite", "postgres")


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))  # Debian's, not on PATH
    return candidates[-1] if candidates else None


def _has_user(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The conninfo of a PostgreSQL cluster made for this session (`cluster`)."""
    if _binary("initdb") is None or _binary("pg_ctl") is None:
        missing("PostgreSQL's initdb and pg_ctl are not installed (apt-get install postgresql)")
    with cluster() as conninfo:
        yield conninfo


@contextlib.contextmanager
def cluster() -> Iterator[str]:
    """The conninfo of a throwaway PostgreSQL cluster (its `postgres` database), as this user (or,
    run as root, as `postgres`: PostgreSQL refuses root), on 127.0.0.1 and a free port, in a
    temporary folder; stopped and removed at the end (the tests' and `bench/postgres.py`'s)."""
    from tests.conftest import free_port

    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise FileNotFoundError("PostgreSQL's initdb and pg_ctl are not installed (apt-get postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="toolnexus-pg-"))
    data, user, port, run_as = folder / "data", getpass.getuser(), free_port(), list[str]()
    env = {**os.environ, "LC_ALL": "C"}
    started = False
    try:
        if os.geteuid() == 0:
            user = "postgres" if _has_user("postgres") else "nobody"
            shutil.chown(folder, user)
            run_as = ["runuser", "-u", user, "--"]
        init = ["-D", str(data), "-U", user, "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"]
        subprocess.run([*run_as, initdb, *init], check=True, stdout=subprocess.DEVNULL, env=env)
        # fsync and full-page writes off: a test cluster, thrown away, never needs them
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -F -c full_page_writes=off"
        start = ["-D", str(data), "-l", str(folder / "log"), "-o", options, "-w", "-t", "60", "start"]
        subprocess.run([*run_as, pg_ctl, *start], check=True, stdout=subprocess.DEVNULL, env=env)
        started = True
        _CLUSTER.update(pg_ctl=pg_ctl, data=str(data), run_as=run_as, env=env)
        yield f"host=127.0.0.1 port={port} dbname=postgres user={user}"
    finally:
        _CLUSTER.clear()
        if started:
            stop = [*run_as, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]
            subprocess.run(stop, stdout=subprocess.DEVNULL, env=env)
        shutil.rmtree(folder, ignore_errors=True)


#: The session's cluster, for `restart_postgres`.
_CLUSTER: dict[str, Any] = {}


def restart_postgres() -> None:
    """Restart the session's cluster (`pg_ctl restart -m fast`): every connection to it drops."""
    cluster = _CLUSTER
    subprocess.run(
        [*cluster["run_as"], cluster["pg_ctl"], "-D", cluster["data"], "-m", "fast", "-w", "restart"],
        check=True,
        stdout=subprocess.DEVNULL,
        env=cluster["env"],
    )


def stop_postgres() -> None:
    """Stop the session's cluster (`pg_ctl stop -m fast`); `start_postgres` starts it again."""
    cluster = _CLUSTER
    subprocess.run(
        [*cluster["run_as"], cluster["pg_ctl"], "-D", cluster["data"], "-m", "fast", "-w", "stop"],
        check=True,
        stdout=subprocess.DEVNULL,
        env=cluster["env"],
    )


def start_postgres() -> None:
    """Start the session's cluster stopped by `stop_postgres`, on its options (`pg_ctl restart`
    of a stopped server starts it with those it last ran with)."""
    cluster = _CLUSTER
    subprocess.run(
        [*cluster["run_as"], cluster["pg_ctl"], "-D", cluster["data"], "-w", "restart"],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=cluster["env"],
    )


@pytest.fixture
def postgres_dsn(postgres_server: str) -> str:
    """A DSN of the session's cluster whose tables are a schema made for this test alone."""
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return f"{postgres_server} options='-c search_path={schema}'"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def new_store(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Callable[..., RunStore]:
    """A store of this test's database, opened again on each call (with the options given)."""
    if backend == "sqlite":
        return lambda **options: SqliteRunStore(tmp_path / "runs.sqlite3", **options)
    from toolnexus.store import PostgresRunStore

    dsn = request.getfixturevalue("postgres_dsn")
    return lambda **options: PostgresRunStore(dsn, **options)


@pytest.fixture
def store(new_store: Callable[..., RunStore]) -> RunStore:
    return new_store()


class _Raw:
    """Statements run on a store's database behind its back (`?` placeholders, committed each)."""

    def __init__(self, conn: Any, postgres: bool) -> None:
        self._conn, self._postgres = conn, postgres

    def execute(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        if self._postgres:
            return self._conn.execute(sql.replace("?", "%s"), args or None)
        cur = self._conn.execute(sql, args)
        self._conn.commit()
        return cur


@contextlib.contextmanager
def tamper(store: RunStore) -> Iterator[_Raw]:
    """A connection of the store's database of its own, as someone altering it would have."""
    if isinstance(store, SqliteRunStore):
        import sqlite3

        with contextlib.closing(sqlite3.connect(store.path)) as conn:
            yield _Raw(conn, False)
        return
    import psycopg

    from toolnexus.store._postgres import PostgresBackend

    assert isinstance(store._db, PostgresBackend)
    with psycopg.connect(store._db.dsn, autocommit=True) as conn:
        yield _Raw(conn, True)


def location(store: RunStore) -> str:
    """Where `store` is, as `toolnexus inbox --store` takes it: a file's path, or a
    `postgresql://` URL (with the search path of the test's schema)."""
    if isinstance(store, SqliteRunStore):
        return store.path
    from urllib.parse import quote

    from psycopg import conninfo

    from toolnexus.store._postgres import PostgresBackend

    assert isinstance(store._db, PostgresBackend)
    info = conninfo.conninfo_to_dict(store._db.dsn)
    options = quote(str(info.get("options", "")), safe="")
    return f"postgresql://{info['user']}@{info['host']}:{info['port']}/{info['dbname']}?options={options}"
