"""`make bench` (`bench.py --only postgres_mixed`): 4 Python and 4 TypeScript worker processes on
one PostgreSQL database (a throwaway cluster, `tests.postgres.cluster`) finish 10,000 waiting runs
(`tests.store.mixed.race`: claim, resume, finish until nothing is left), timed from the go to the
last worker's end, then checked: each run claimed and finished once, its tool run once per key.

    python bench/postgres_mixed.py [--runs N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT)]

import psycopg  # noqa: E402

from tests.postgres import cluster  # noqa: E402
from tests.store.mixed import Outcome, race  # noqa: E402


def measure(runs: int, python: int = 4, typescript: int = 4) -> Outcome:
    with cluster() as server, tempfile.TemporaryDirectory(prefix="toolnexus-mixed-") as folder:
        name = f"b_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return race(f"{server} options='-c search_path={name}'", runs, python, typescript, Path(folder))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000)
    got = measure(parser.parse_args().runs)
    print(
        f"{got.runs} runs in {got.seconds:.1f} s: {got.per_second:.0f} runs/s; finished {got.finished},"
        f" lost races {got.lost}; problems: {got.problems or 'none'}"
    )


if __name__ == "__main__":
    main()
