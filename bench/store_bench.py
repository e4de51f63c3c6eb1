"""The run-store figures both store benches take (`bench/durable.py`: `SqliteRunStore` against
raw `sqlite3`; `bench/postgres.py`: `PostgresRunStore` against raw psycopg), written once.

Each measurement is given a `Figure` (the bench's own `row`, and the figure's name, case and
target, which stay the bench's) and the two sides: for save and claim+resume, a factory of each
(a fresh store, and a fresh raw peer on tables of its own); for `pending()`, the listings of a
store and of a peer over the same rows. The two sides are timed in turn (`alternate`) and the
ratio is ours over the peer's.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from toolnexus import Answer, Request, RunResult, ToolCall, ToolContext, Toolkit, pending, tool

#: A bench's `row(figure, case, ratio, target, detail)`.
Record = Callable[[str, str, float, float | None, str], None]
#: A row of a report: the figure, the case, what was measured, the target shown, and whether it
#: was met (None: informative).
Row = tuple[str, str, str, str, bool | None]


@tool
def transfer(amount: int, ctx: ToolContext) -> object:
    """Moves money once a person confirms."""
    if ctx.answer is None:
        return pending(Request("confirm", f"transfer {amount}?"))
    return f"transferred {amount}"


@dataclass(frozen=True)
class Figure:
    """A row to come: the bench's `row`, and the figure's name, case and target."""

    row: Record
    name: str
    case: str
    target: float

    def record(self, ratio: float, detail: str) -> None:
        self.row(self.name, self.case, ratio, self.target, detail)


class Side(Protocol):
    """What both sides of a store figure do: the store, or its raw peer."""

    def save(self, run: RunResult) -> int: ...

    def save_many(self, runs: Sequence[RunResult]) -> list[int]: ...

    async def resume(self, kit: Toolkit, run_id: int, answer: Answer) -> RunResult: ...


class RawPeer:
    """A raw peer's `save_many`: its own `save`, run by run (untimed set-up only)."""

    def save(self, run: RunResult) -> int:
        raise NotImplementedError

    def save_many(self, runs: Sequence[RunResult]) -> list[int]:
        return [self.save(r) for r in runs]


def add_row(
    rows: list[Row],
    widths: tuple[int, int],
    figure: str,
    case: str,
    ratio: float,
    target: float | None,
    detail: str,
) -> None:
    """Append the row of `ratio` against `target` (none: informative) and print it, the figure and
    case padded to `widths`."""
    met = None if target is None else ratio <= target
    shown = f"≤ {target:g}×" if target is not None else "(informative)"
    rows.append((figure, case, f"{ratio:.2f}× ({detail})", shown, met))
    print(f"{figure:{widths[0]}} {case:{widths[1]}} {ratio:6.2f}×  {detail}", flush=True)


def results(rows: list[Row], not_met: str) -> list[str]:
    """A report's results: how many targets were met, then a table of `rows` (`not_met` marks a
    target missed)."""
    met = [r for r in rows if r[4] is not None]
    lines = [
        f"## Results: {sum(bool(r[4]) for r in met)} of {len(met)} targets met",
        "",
        "| figure | case | measured | target | met |",
        "|---|---|---|---|---|",
    ]
    for figure, case, measured, target, ok in rows:
        mark = "" if ok is None else "met" if ok else not_met
        lines.append(f"| {figure} | {case} | {measured} | {target} | {mark} |")
    return lines


def alternate(ours: Callable[[], float], peer: Callable[[], float], repeats: int) -> tuple[float, float]:
    """The medians of `ours()` and `peer()` (each returns its own seconds), run in turn."""
    a, b = [], []
    for _ in range(repeats):
        a.append(ours())
        b.append(peer())
    return statistics.median(a), statistics.median(b)


def runs_waiting(kit: Toolkit, n: int) -> list[RunResult]:
    """`n` runs of one `transfer` each, every one waiting on its confirmation."""

    async def make() -> list[RunResult]:
        return [await kit.run_calls([ToolCall("c1", "transfer", {"amount": i})]) for i in range(n)]

    return asyncio.run(make())


def _record_per_run(
    figure: Figure,
    n: int,
    sides: tuple[Callable[[], Side], Callable[[], Side]],
    work: Callable[[Side], float],
    repeats: int,
) -> None:
    """`work` (its seconds) on a fresh store against a fresh peer, in turn; recorded as `figure`,
    with each side's time a run of `n`."""
    a, b = alternate(lambda: work(sides[0]()), lambda: work(sides[1]()), repeats)
    figure.record(a / b, f"{a / n * 1e6:.0f} and {b / n * 1e6:.0f} µs a run")


def bench_save(
    figure: Figure,
    runs: Sequence[RunResult],
    sides: tuple[Callable[[], Side], Callable[[], Side]],
    repeats: int,
) -> None:
    """`save` of every run, one by one, on a fresh store against a fresh peer."""

    def saves(side: Side) -> float:
        t = time.perf_counter()
        for r in runs:
            side.save(r)
        return time.perf_counter() - t

    _record_per_run(figure, len(runs), sides, saves, repeats)


def bench_resume(
    figure: Figure,
    runs: Sequence[RunResult],
    sides: tuple[Callable[[], Side], Callable[[], Side]],
    toolkit: Callable[[], Toolkit],
    repeats: int,
) -> None:
    """The claim and resume of every saved run with its answer, one by one, on a fresh store
    against a fresh peer (the saves untimed)."""
    answers = [Answer(r.requests[0].id, True) for r in runs]

    def resumes(side: Side) -> float:
        ids = side.save_many(runs)
        kit = toolkit()

        async def go() -> float:
            t = time.perf_counter()
            for run_id, answer in zip(ids, answers, strict=True):
                await side.resume(kit, run_id, answer)
            return time.perf_counter() - t

        return asyncio.run(go())

    _record_per_run(figure, len(runs), sides, resumes, repeats)


def bench_pending(
    figure: Figure,
    listings: tuple[Callable[[], list[Any]], Callable[[], list[Any]]],
    n: int,
    note: str = "",
) -> tuple[float, float]:
    """The store's `pending()` against the peer's, both listing the same `n` waiting requests;
    the detail is `note` then the store's time a request. Returns each side's seconds a request."""
    number = max(1, 20_000 // n)

    def timed(listing: Callable[[], list[Any]]) -> Callable[[], float]:
        def once() -> float:
            t = time.perf_counter()
            for _ in range(number):
                listed = listing()
            assert len(listed) == n
            return (time.perf_counter() - t) / number

        return once

    a, b = alternate(timed(listings[0]), timed(listings[1]), 5)
    figure.record(a / b, f"{note}{a / n * 1e9:.0f} ns a request")
    return a / n, b / n
