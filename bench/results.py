"""Results that fit the model (issue 36), for `make bench` (`bench/bench.py` calls `rows`).

- The cut of a 10 MB output (`fit`, the engine's rule: head, marker, tail, the sizes and the kept
  ranges), against copying the output once (`str.encode`, the copy any host makes to send it):
  an ASCII log under a `chars` limit, and a mixed text (é, 中, 😀) under a `bytes` limit, where
  the cut reads its UTF-8 form.
- Its growth: the cut's cost over a copy's at 10 MB (and at 100 MB with `TOOLNEXUS_BENCH_BIG=1`;
  a 100 MB text and its copy take some 300 MB) against the same at 1 MB: linear as a copy is.
- A call whose result is under the limit: `Toolkit.run_calls` of one call with a toolkit limit
  and a tool limit, against the same toolkit without them.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from toolnexus import Limit, ToolCall, Toolkit, ToolResult, define_tool
from toolnexus._engine._limits import fit

MB = 1024 * 1024


def _text(size: int, mixed: bool) -> str:
    line = "é中😀 row of a mixed log\n" if mixed else "[INFO] compiled module_42.py in 0.13 s\n"
    return line * (size // len(line.encode()))


def _median(fn: Callable[[], Any], repeats: int) -> float:
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _interleaved(fns: dict[str, Callable[[], Any]], repeats: int) -> dict[str, float]:
    samples: dict[str, list[float]] = {k: [] for k in fns}
    for fn in fns.values():
        fn()
    for _ in range(repeats):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            samples[name].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in samples.items()}


def cut_against_a_copy(quick: bool) -> list[tuple[str, float, str]]:
    """(case, the cut's time over one copy's, detail) for a 10 MB output."""
    out = []
    for case, mixed, limit in (
        ("ASCII log, chars limit", False, Limit(chars=40_000)),
        ("é中😀 text, bytes limit", True, Limit(bytes=40_000)),
    ):
        text = _text(10 * MB, mixed)
        result = ToolResult.ok(text)

        def cut(result: ToolResult = result, limit: Limit = limit) -> Any:
            return fit(result, limit, "result-0123456789abcdef")

        def copy(text: str = text) -> bytes:
            return text.encode()

        t = _interleaved({"cut": cut, "copy": copy}, 5 if quick else 15)
        out.append(
            (case, t["cut"] / t["copy"], f"cut {t['cut'] * 1e3:,.1f} ms, copy {t['copy'] * 1e3:,.1f} ms")
        )
    return out


def growth(quick: bool) -> tuple[float, str]:
    """How the cut grows from 1 MB (mixed text, bytes limit): its cost over a copy's at the
    largest size, over the same at 1 MB (a copy is linear in the bytes; the allocator's and the
    caches' effects on both are so divided out)."""
    sizes = [1 * MB, 10 * MB] + ([100 * MB] if os.environ.get("TOOLNEXUS_BENCH_BIG") == "1" else [])
    against: dict[int, float] = {}
    per_mb: dict[int, float] = {}
    for size in sizes:
        result = ToolResult.ok(_text(size, True))

        def cut(result: ToolResult = result) -> Any:
            return fit(result, Limit(bytes=40_000), None)

        def copy(result: ToolResult = result) -> bytes:
            return result.output.encode()

        t = _interleaved({"cut": cut, "copy": copy}, 3 if quick else 9)
        against[size], per_mb[size] = t["cut"] / t["copy"], t["cut"] / (size / MB)
        del result, cut, copy
    largest = sizes[-1]
    detail = ", ".join(f"{s // MB} MB: {per_mb[s] * 1e3:,.2f} ms/MB, {against[s]:.2f}× a copy" for s in sizes)
    return against[largest] / against[sizes[0]], f"1 → {largest // MB} MB; {detail}"


def under_the_limit(quick: bool) -> tuple[float, str]:
    """`run_calls` of one call under its limits, over the same without limits."""

    def kit(limited: bool) -> Toolkit:
        tool = define_tool(
            "add", "Add", None, lambda args, ctx: "the sum is 4", limit=Limit(chars=4000) if limited else None
        )
        return Toolkit([tool], limit=Limit(tokens=10_000) if limited else None)

    loop = asyncio.new_event_loop()
    kits = {"limit": kit(True), "none": kit(False)}
    calls = [ToolCall("c1", "add", {"a": 2, "b": 2})]
    batch = 200 if quick else 500

    def runs(k: Toolkit) -> Callable[[], None]:
        async def many() -> None:
            for _ in range(batch):
                await k.run_calls(calls)

        return lambda: loop.run_until_complete(many())

    try:
        t = _interleaved({name: runs(k) for name, k in kits.items()}, 7 if quick else 21)
    finally:
        loop.close()
    return t["limit"] / t[
        "none"
    ], f"{t['limit'] / batch * 1e6:,.1f} µs a call, {t['none'] / batch * 1e6:,.1f} µs without"


def rows(quick: bool) -> list[tuple[str, str, str, float, float, str]]:
    """(figure, case, peer, measured ratio, target ratio, detail) for bench.py's table."""
    out = [
        ("cut of a 10 MB output", case, "one copy (`str.encode`)", ratio, 2.0, detail)
        for case, ratio, detail in cut_against_a_copy(quick)
    ]
    ratio, detail = growth(quick)
    out.append(
        ("growth of the cut", "é中😀 text, bytes limit", "its ratio to a copy at 1 MB", ratio, 1.3, detail)
    )
    ratio, detail = under_the_limit(quick)
    out.append(("a call under its limit", "`run_calls`, one call", "no limit", ratio, 1.02, detail))
    return out
