"""`make bench`: toolnexus against its peers, every figure a ratio measured in one run.

The machines are shared and noisy, so no figure is an absolute time: each row times
toolnexus and its peers interleaved (one batch of each, in turn, repeated), takes the
median batch of each, and reports the ratio. Writes `bench/RESULTS.md`.

    python bench/bench.py [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import json
import os
import platform
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT)]

import orjson  # noqa: E402
import peers  # noqa: E402
import pydantic  # noqa: E402
from toolnexus_wire import _speed  # noqa: E402

import toolnexus  # noqa: E402

QUICK = False


@dataclass
class Row:
    figure: str
    case: str
    measured: str
    target: str
    met: bool | None  # None: informative, no target


ROWS: list[Row] = []
NOTES: list[str] = []


def row(
    figure: str,
    case: str,
    ratios: dict[str, tuple[float, float]],
    detail: str = "",
    *,
    at_least: bool = False,
) -> None:
    """`ratios`: peer -> (measured ratio, target ratio). The target is a ceiling (a time, a
    size: ours at most `target` times the peer's), or with `at_least` a floor (a rate: ours at
    least `target` times the peer's)."""
    sign = "≥" if at_least else "≤"
    measured = ", ".join(f"{r:.2f}× {peer}" for peer, (r, _) in ratios.items())
    target = ", ".join(f"{sign} {t:g}× {peer}" for peer, (_, t) in ratios.items())
    met = all(r >= t if at_least else r <= t for r, t in ratios.values())
    ROWS.append(Row(figure, case, measured + (f" ({detail})" if detail else ""), target, met))
    print(f"{figure} [{case}]: {measured} | target {target} | {'met' if met else 'NOT MET'}", flush=True)


def interleaved(fns: dict[str, Callable[[], Any]], number: int, repeats: int) -> dict[str, float]:
    """Median seconds per call of each fn, batches of `number` calls taken in turn."""
    samples: dict[str, list[float]] = {k: [] for k in fns}
    for fn in fns.values():  # warm up
        fn()
    for _ in range(repeats):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            for _ in range(number):
                fn()
            samples[name].append((time.perf_counter() - t0) / number)
    return {k: statistics.median(v) for k, v in samples.items()}


def _number(seconds_per_call: float, batch: float = 0.01) -> int:
    return max(1, int(batch / max(seconds_per_call, 1e-9)))


def _estimate(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    n = 0
    while time.perf_counter() - t0 < 0.02:
        fn()
        n += 1
    return (time.perf_counter() - t0) / n


def us(seconds: float) -> str:
    return f"{seconds * 1e6:,.1f} µs" if seconds < 1e-2 else f"{seconds * 1e3:,.1f} ms"


# --- wire round trip -----------------------------------------------------------------------------

#: Per payload: peer -> target ratio (issue 29). msgspec is shown beside them, as the ceiling.
ROUND_TRIP_TARGETS: dict[str, dict[str, float]] = {
    "small": {"MCP CallToolResult": 0.3, "hand-written pydantic+orjson": 1.1},
    "medium": {"MCP CallToolResult": 0.6, "hand-written pydantic+orjson": 1.2},
    "image": {"MCP CallToolResult": 0.6},
}
_PEER_KEYS = {"MCP CallToolResult": "mcp", "hand-written pydantic+orjson": "pydantic"}


def bench_round_trip() -> None:
    repeats = 7 if QUICK else 21
    for case, doc in peers.PAYLOADS.items():
        rt = peers.RoundTrips(doc)
        # Two parts of ours on their own, to show what bounds it: the JSON text to and from
        # plain dicts (orjson), and building the pydantic object from the parsed dict.
        wire, parsed = rt.ours.to_wire(), orjson.loads(rt.ours.to_json())
        fast = _speed.decoder_for(toolnexus.ToolResult)
        assert fast is not None

        def decode(doc: Any, fast: Any = fast) -> Any:  # as `from_json` runs it: floats taken as written
            return fast(doc, True)

        assert decode(parsed) == rt.ours
        fns = {
            "ours": rt.rt_ours,
            "msgspec": rt.rt_ms,
            "mcp": rt.rt_mcp,
            "pydantic": rt.rt_pd,
            "dataclass": rt.rt_dc,
            "json": lambda wire=wire: orjson.loads(orjson.dumps(wire)),
            "build": lambda decode=decode, parsed=parsed: decode(parsed),
        }
        t = interleaved(fns, _number(_estimate(rt.rt_ours)), repeats)
        row(
            "wire round trip",
            case,
            {
                peer: (t["ours"] / t[_PEER_KEYS[peer]], target)
                for peer, target in ROUND_TRIP_TARGETS[case].items()
            },
            f"ours {us(t['ours'])}; {t['ours'] / t['msgspec']:.2f}× msgspec, "
            f"{t['ours'] / t['pydantic']:.2f}× hand-written pydantic+orjson; of ours, orjson to and from "
            f"plain dicts is {t['json'] / t['msgspec']:.2f}× msgspec and building the checked pydantic object "
            f"{t['build'] / t['msgspec']:.2f}×; dataclass+json is {t['dataclass'] / t['msgspec']:.2f}× msgspec",
        )


def bench_growth() -> None:
    """How the round trip grows with the output size and the number of parts (no targets)."""
    repeats = 5 if QUICK else 9
    lines = ["| payload | toolnexus | msgspec | ratio | toolnexus per unit |", "|---|---|---|---|---|"]
    series = [
        (f"output {n:,} B", peers.payload(output_bytes=n), n / 1024, "KB")
        for n in (1024, 10 * 1024, 100 * 1024, 1024 * 1024, 10 * 1024 * 1024)
    ]
    series += [
        (f"{n} parts of 1 KiB", peers.payload(parts=n, part_bytes=1024), max(n, 1), "part")
        for n in (0, 1, 10, 100)
    ]
    per_unit: dict[str, float] = {}
    for label, doc, units, unit in series:
        rt = peers.RoundTrips(doc)
        t = interleaved({"ours": rt.rt_ours, "msgspec": rt.rt_ms}, _number(_estimate(rt.rt_ours)), repeats)
        per_unit[label] = t["ours"] / units
        lines.append(
            f"| {label} | {us(t['ours'])} | {us(t['msgspec'])} | {t['ours'] / t['msgspec']:.2f}× "
            f"| {us(t['ours'] / units)}/{unit} |"
        )
        print(lines[-1], flush=True)
    GROWTH.extend(lines)
    small, large = per_unit["output 1,048,576 B"], per_unit["output 10,485,760 B"]
    ROWS.append(
        Row(
            "growth of the round trip",
            "output 1 MB → 10 MB",
            f"{large / small:.2f}× the cost per KB ({us(small)}/KB and {us(large)}/KB)",
            "≤ 1.3× the cost per KB",
            large / small <= 1.3,
        )
    )
    print(ROWS[-1], flush=True)


GROWTH: list[str] = []


# --- worst-case documents -----------------------------------------------------------------------


def bench_worst_case() -> None:
    """`from_json` of documents hard on the wire rules, against `json.loads` of the same bytes,
    at 1 MB and at 4 MB (the cost per byte must not grow)."""
    import json

    repeats = 3 if QUICK else 7
    for shape, make in peers.WORST_CASES.items():
        t: dict[int, dict[str, float]] = {}
        for size in (1 << 20, 4 << 20):
            data = make(size)
            fns: dict[str, Callable[[], Any]] = {
                "ours": lambda data=data: toolnexus.ToolResult.from_json(data),
                "json": lambda data=data: json.loads(data),
                "orjson": lambda data=data: orjson.loads(data),
            }
            t[size] = {k: v / len(data) for k, v in interleaved(fns, 1, repeats).items()}
        small, large = t[1 << 20], t[4 << 20]
        growth = large["ours"] / small["ours"]
        row(
            "`from_json` of a worst-case document",
            shape,
            {
                "json.loads (1 MB)": (small["ours"] / small["json"], 3.0),
                "the cost per byte at 1 MB, at 4 MB": (growth, 1.3),
            },
            f"{small['ours'] / small['orjson']:.1f}× orjson.loads; ours {us(small['ours'] * (1 << 20))} a MB",
        )


# --- a large part --------------------------------------------------------------------------------

BIG_PART_PROBE = """
import sys, time
path, how = sys.argv[1], sys.argv[2]
if how == "ours":
    from toolnexus import ContentPart, ToolResult
    def run():
        result = ToolResult("x", parts=[ContentPart.from_path(path, max_bytes=1 << 30)])
        text = result.to_json_bytes() if hasattr(result, "to_json_bytes") else result.to_json()
        del result
        return ToolResult.from_json(text)
else:
    import base64, orjson
    def run():
        with open(path, "rb") as f:
            raw = f.read()
        data = base64.b64encode(raw).decode("ascii")
        del raw
        text = orjson.dumps({"output": "x", "parts": [{"type": "image", "mimeType": "image/png", "data": data, "name": "blob.png"}]})
        del data
        return orjson.loads(text)
def status(key):  # bytes, from the kernel's view of this process
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # reset the peak (VmHWM) to the current RSS
before = status("VmRSS")
t0 = time.perf_counter()
value = run()
elapsed = time.perf_counter() - t0
print(elapsed, status("VmHWM") - before)
"""


def bench_big_part() -> None:
    """A 100 MiB file as a part: `from_path` → `to_json` (bytes) → `from_json`, in a child
    process, against base64 and orjson by hand (read, encode, dump, load; no checks)."""
    size = 100 * 1024 * 1024
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "blob.png"
        head = b"\x89PNG\r\n\x1a\n"
        path.write_bytes(head + os.urandom(size - len(head)))
        samples: dict[str, list[tuple[float, float]]] = {"ours": [], "by hand": []}
        for _ in range(2 if QUICK else 5):
            for how in samples:
                out = subprocess.run(
                    [sys.executable, "-c", BIG_PART_PROBE, str(path), how],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                elapsed, grown = map(float, out.stdout.split())
                samples[how].append((elapsed, grown))
    time_ = {k: statistics.median(s[0] for s in v) for k, v in samples.items()}
    rss = {k: statistics.median(s[1] for s in v) for k, v in samples.items()}
    row(
        "a 100 MiB file part",
        "`from_path` → `to_json` → `from_json`, in a child process",
        {
            "the file (peak RSS growth)": (rss["ours"] / size, 3.0),
            "base64+orjson by hand (time)": (time_["ours"] / time_["by hand"], 1.1),
        },
        f"ours {us(time_['ours'])} and {rss['ours'] / 2**20:.0f} MiB; by hand {us(time_['by hand'])} "
        f"and {rss['by hand'] / 2**20:.0f} MiB ({rss['by hand'] / size:.2f}× the file)",
    )


# --- TypeScript ----------------------------------------------------------------------------------

TS_BENCH = HERE / "typescript"
#: Per payload: the target ratio to the MCP TypeScript SDK's `CallToolResultSchema`.
TS_TARGETS = {"small": 1.0, "medium": 1.0, "image": 1.0}


def bench_typescript() -> None:
    """The npm package's round trip against the MCP TypeScript SDK's `CallToolResultSchema`
    (zod), in Node.js: same payloads, the image one of 0.5 MiB; and its `Tool.call` against the
    AI SDK's execution of a tool call, the same zod schema on both sides."""
    lock, stamp = TS_BENCH / "package-lock.json", TS_BENCH / "node_modules" / ".lock-stamp"
    if not stamp.exists() or stamp.read_bytes() != lock.read_bytes():
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
            cwd=TS_BENCH,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        stamp.write_bytes(lock.read_bytes())
    subprocess.run(
        ["bash", str(ROOT / "tests" / "typescript" / "run.sh"), "build"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    import json

    docs = {**peers.PAYLOADS, "image": peers.payload(parts=1, part_bytes=512 * 1024)}
    payloads = {
        name: {
            "ours": json.dumps(doc, separators=(",", ":"), ensure_ascii=False),
            "mcp": json.dumps(peers.mcp_form(doc), separators=(",", ":"), ensure_ascii=False),
        }
        for name, doc in docs.items()
    }
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "payloads.json"
        path.write_text(json.dumps(payloads), encoding="utf-8")
        out = subprocess.run(
            ["node", str(TS_BENCH / "roundtrip.mjs"), str(path), "7" if QUICK else "21"],
            capture_output=True,
            text=True,
            check=True,
        )
        call = subprocess.run(
            ["node", str(TS_BENCH / "toolcall.mjs"), "7" if QUICK else "21"],
            capture_output=True,
            text=True,
            check=True,
        )
    t = json.loads(out.stdout)
    for case, target in TS_TARGETS.items():
        r = t[case]
        row(
            "TypeScript round trip",
            case if case != "image" else "image (0.5 MiB)",
            {"MCP SDK CallToolResultSchema (zod)": (r["ours"] / r["mcp"], target)},
            f"ours {us(r['ours'])}; {r['ours'] / r['json']:.2f}× JSON.parse+JSON.stringify alone; "
            f"readJson's checks over JSON.parse {us(max(0.0, r['readJson'] - r['JSON.parse']))}"
            + (
                f"; checking the part, its data as strict base64 {us(r['part'])} (twice: parse and emit)"
                if "part" in r
                else ""
            ),
        )
    med, img = t["medium"], t["image"]
    NOTES.append(
        f"TypeScript round trip, medium: readJson's own checks over JSON.parse (repeated keys, key order, "
        f"exact numbers, lone surrogates, depth: the wire's JSON rules) took {us(med['readJson'] - med['JSON.parse'])} "
        f"of ours' {us(med['ours'])}; the MCP SDK's {us(med['mcp'])}. JSON.parse alone "
        "keeps the last of two values for one key, moves integer-like keys first and rounds numbers a double "
        "cannot hold; zod's schema checks none of that. The rules are kept, not loosened."
    )
    NOTES.append(
        f"TypeScript round trip, image: checking the part (its 0.7 MB of data as strict base64, padded, nothing "
        f"but the alphabet: `atob` in slices of 64 KiB after refusing whitespace and misplaced padding, which "
        f"`atob` would take) took {us(img['part'])}, done twice (parse and emit); the MCP SDK runs `atob` once "
        "over the whole of it, which takes whitespace and missing padding."
    )
    c = json.loads(call.stdout)
    row(
        "TypeScript tool.call, zod schema",
        "`add(a: int, b: int)` from its arguments' JSON text",
        {"the AI SDK's tool execution (ai)": (c["ours"] / c["ai"], 1.0)},
        f"ours {us(c['ours'])}, ai {us(c['ai'])}; {c['ours'] / c['direct']:.2f}× awaiting the handler directly",
    )


# --- Toolkit.resume ------------------------------------------------------------------------------

RESUME: list[str] = []


@contextlib.contextmanager
def _heap_frozen() -> Any:
    """The heap made before timing (the modules, the run set up) is left out of the collector's
    full passes while timing: such a pass costs the size of the whole process, once every 25%
    of growth, and whether 1,000 answers reach the first one decides their figure."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def bench_resume() -> None:
    """Answering N suspended calls of one turn (sealed), against N direct re-runs of the tool."""

    async def ask(args: dict[str, Any], ctx: toolnexus.ToolContext) -> Any:
        return "done" if ctx.answer else toolnexus.pending(toolnexus.Request("input", "Which?"))

    tool = toolnexus.define_tool("ask", "asks once", None, ask)
    secret = b"bench-secret-0123456789abcdef012"

    async def fresh(n: int) -> tuple[toolnexus.Toolkit, toolnexus.RunResult]:
        kit = toolnexus.Toolkit([tool], secret=secret)
        return kit, await kit.run_calls([toolnexus.ToolCall(f"c{i}", "ask", {}) for i in range(n)])

    async def direct(n: int) -> float:
        answer = toolnexus.Answer("pnd-x", True)
        ctx = toolnexus.ToolContext(answer=answer)
        with _heap_frozen():
            t0 = time.perf_counter()
            for _ in range(n):
                await tool.call({}, ctx)
            return time.perf_counter() - t0

    async def at_once(n: int, stored: bool) -> float:
        kit, run = await fresh(n)
        answers = [toolnexus.Answer(r.id, True) for r in reversed(run.requests)]  # any order
        text = run.to_json()
        with _heap_frozen():
            t0 = time.perf_counter()
            given = toolnexus.RunResult.from_json(text) if stored else run
            done = await kit.resume(given, answers)
            took = time.perf_counter() - t0
        assert done.status == "done" and len(done.results) == n
        return took

    async def one_at_a_time(n: int, profile: cProfile.Profile | None = None) -> float:
        kit, run = await fresh(n)
        requests = list(run.requests)
        with _heap_frozen():
            if profile is not None:
                profile.enable()
            t0 = time.perf_counter()
            for request in requests:
                run = await kit.resume(run, toolnexus.Answer(request.id, True))
            took = time.perf_counter() - t0
            if profile is not None:
                profile.disable()
        assert run.status == "done" and len(run.results) == n
        return took

    def calls_per_answer(n: int) -> float:
        """Python function calls (and C functions called from Python) per answer."""
        profile = cProfile.Profile()
        asyncio.run(one_at_a_time(n, profile))
        return pstats.Stats(profile).total_calls / n  # type: ignore[attr-defined,no-any-return]

    modes: dict[str, Callable[[int], Any]] = {
        "all at once, the run returned": lambda n: at_once(n, False),
        "all at once, from stored JSON": lambda n: at_once(n, True),
        "one `resume` per answer, the run returned": one_at_a_time,
    }
    lines = [
        "| answers | how | total | per answer | vs N direct `tool.call` re-runs |",
        "|---|---|---|---|---|",
    ]
    per: dict[tuple[str, int], float] = {}
    sizes = (1_000, 10_000)
    for fn in (direct, *modes.values()):  # warm up: the first runs of a process pay for more
        asyncio.run(fn(1_000))
    for n in sizes:
        repeats = 1 if QUICK else 3
        base = statistics.median([asyncio.run(direct(n)) for _ in range(repeats)])
        for how, fn in modes.items():
            took = statistics.median([asyncio.run(fn(n)) for _ in range(repeats)])
            per[how, n] = took / n
            lines.append(f"| {n:,} | {how} | {us(took)} | {us(took / n)} | {took / base:.1f}× |")
            print(lines[-1], flush=True)
    RESUME.extend(lines)
    for how in list(modes)[:2]:
        growth = per[how, 10_000] / per[how, 1_000]
        ROWS.append(
            Row(
                "Toolkit.resume, N answers (sealed)",
                how,
                f"{growth:.2f}× the cost per answer at 10,000 as at 1,000 "
                f"({us(per[how, 1_000])} and {us(per[how, 10_000])} per answer)",
                "≤ 1.5× (linear in all)",
                growth <= 1.5,
            )
        )
        print(ROWS[-1], flush=True)
    # One `resume` per answer returns N runs of N entries each: Θ(N²) of output however it is
    # made, so its Python work per answer is what can stay flat; the lists are copied in C.
    how = "one `resume` per answer, the run returned"
    calls = {n: calls_per_answer(n) for n in sizes}
    growth = calls[10_000] / calls[1_000]
    copy_ns = (per[how, 10_000] - per[how, 1_000]) / (10_000 - 1_000) * 1e9
    ROWS.append(
        Row(
            "Toolkit.resume, N answers (sealed)",
            how,
            f"{growth:.2f}× the Python calls per answer at 10,000 as at 1,000 ({calls[1_000]:.0f} and "
            f"{calls[10_000]:.0f}); time {us(per[how, 1_000])} and {us(per[how, 10_000])} per answer, "
            f"the copy of the run's lists {copy_ns:.0f} ns per call of the turn",
            "≤ 1.1× Python calls (a binary search's log N aside)",
            growth <= 1.1,
        )
    )
    print(ROWS[-1], flush=True)


# --- Tool.call -----------------------------------------------------------------------------------


def bench_tool_call() -> None:
    async def add(a: int, b: int) -> str:
        return str(a + b)

    async def add_args(args: dict[str, Any], ctx: toolnexus.ToolContext) -> str:
        return str(args["a"] + args["b"])

    typed = toolnexus.tool(add)
    explicit = toolnexus.define_tool(
        "add",
        "Add two integers",
        {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
            "additionalProperties": False,
        },
        add_args,
    )
    validated = pydantic.validate_call(add)
    args = {"a": 1, "b": 2}
    ctx = toolnexus.ToolContext()
    number = 500 if QUICK else 2000
    repeats = 7 if QUICK else 21

    def batch(make: Callable[[], Any]) -> Callable[[], Any]:
        async def run() -> None:
            for _ in range(number):
                await make()

        return run

    async def ok_only() -> toolnexus.ToolResult:
        return toolnexus.ToolResult.ok("3")

    cases = {
        "ok": batch(ok_only),
        "direct": batch(lambda: add(**args)),
        "direct_args": batch(lambda: add_args(args, ctx)),
        "typed": batch(lambda: typed.call(args)),
        "explicit": batch(lambda: explicit.call(args)),
        "validate_call": batch(lambda: validated(**args)),
    }

    async def main() -> dict[str, float]:
        assert (await typed.call(args)).output == "3" and (await explicit.call(args)).output == "3"
        samples: dict[str, list[float]] = {k: [] for k in cases}
        for _ in range(repeats):
            for name, run in cases.items():
                t0 = time.perf_counter()
                await run()
                samples[name].append((time.perf_counter() - t0) / number)
        return {k: statistics.median(v) for k, v in samples.items()}

    t = asyncio.run(main())
    row(
        "Tool.call, schema from type hints",
        "`async def add(a: int, b: int) -> str`",
        {
            "pydantic.validate_call": (t["typed"] / t["validate_call"], 1.0),
        },
        f"{t['typed'] / t['direct']:.2f}× awaiting directly; {us(t['typed'])} a call; direct {us(t['direct'])}; building the `ToolResult` alone "
        f"(`ToolResult.ok`) is {t['ok'] / t['direct']:.2f}× awaiting directly",
    )
    row(
        "Tool.call, explicit JSON-Schema dict",
        "same",
        {"awaiting directly": (t["explicit"] / t["direct_args"], 5)},
        f"{us(t['explicit'])} a call; direct {us(t['direct_args'])}",
    )


# --- the loop against the agent frameworks (issue 37) -------------------------------------------

#: The tables and the plot of the "Framework overhead" section of RESULTS.md.
OVERHEAD: list[str] = []
PLOT = ROOT / "docs" / "assets" / "bench-overhead.svg"
UPSTREAM_PYTHON = ROOT / ".venv-upstream" / "bin" / "python"
CALLS_IN_TURN = (1, 10, 100)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _upstream() -> Any:
    """The upstream port's child, or None with a note saying why it is not measured."""
    import frameworks

    if not UPSTREAM_PYTHON.exists():
        NOTES.append(
            "The upstream toolnexus port is not measured: `.venv-upstream` is missing (`make bench` makes it)."
        )
        return None
    try:
        upstream = frameworks.Upstream(UPSTREAM_PYTHON)
        upstream.turns(1, 1)
        return upstream
    except (OSError, RuntimeError) as e:
        NOTES.append(f"The upstream toolnexus port is not measured: its loop did not run ({e}).")
        return None


def bench_overhead() -> None:
    """One turn of 1, 10 and 100 calls of a trivial tool, from the mock model's recorded response
    to the next request's messages (`bench/frameworks.py`): per call, p50 and p99 over the turns,
    the frameworks taken in turn, batch by batch."""
    import frameworks
    import plot

    turns = {1: 40, 10: 12, 100: 3} if QUICK else {1: 100, 10: 30, 100: 6}
    rounds = 3 if QUICK else 8
    peers_ = frameworks.make_frameworks()
    upstream = _upstream()
    samples: dict[tuple[str, int], list[float]] = {}

    async def measure() -> None:
        for fw in peers_:  # warm up
            for n in CALLS_IN_TURN:
                await fw.turn(n)
        for _ in range(rounds):
            for n in CALLS_IN_TURN:
                for fw in peers_:
                    gc.collect()
                    got = samples.setdefault((fw.name, n), [])
                    got += [await fw.turn(n) / n for _ in range(turns[n])]
                if upstream is not None:
                    got = samples.setdefault((upstream.name, n), [])
                    got += [t / n for t in upstream.turns(n, turns[n])]

    # Frozen as for the resume rows: a full pass of the collector over this process (every
    # framework imported) would cost more than over the upstream port's small child.
    with _heap_frozen():
        asyncio.run(measure())
    if upstream is not None:
        upstream.close()
    names = [fw.name for fw in peers_] + ([upstream.name] if upstream is not None else [])
    p50 = {k: statistics.median(v) for k, v in samples.items()}
    p99 = {k: _percentile(v, 0.99) for k, v in samples.items()}
    OVERHEAD.extend(
        [
            "| framework | calls in the turn | p50 per call | p99 per call | p50 against toolnexus |",
            "|---|---|---|---|---|",
        ]
    )
    for name in names:
        for n in CALLS_IN_TURN:
            OVERHEAD.append(
                f"| {name} | {n} | {us(p50[name, n])} | {us(p99[name, n])} | {p50[name, n] / p50['toolnexus', n]:.2f}× |"
            )
            print(OVERHEAD[-1], flush=True)
    for n in CALLS_IN_TURN:
        fastest = min((p for p in names if p != "toolnexus"), key=lambda p: p50[p, n])
        others = ", ".join(
            f"{p50['toolnexus', n] / p50[p, n]:.2f}× {p}" for p in names if p not in ("toolnexus", fastest)
        )
        row(
            "framework overhead per tool call",
            f"{n} call{'s' if n > 1 else ''} in the turn, mock model, p50",
            {f"the fastest peer ({fastest})": (p50["toolnexus", n] / p50[fastest, n], 0.1)},
            f"ours {us(p50['toolnexus', n])} a call, p99 {us(p99['toolnexus', n])}; {others}",
        )
    series = {name: {n: p50[name, n] for n in CALLS_IN_TURN} for name in names}
    plot.overhead_svg(
        series,
        PLOT,
        f"One agent turn, mock model ({platform.python_version()}, {os.cpu_count()} shared cores)",
    )
    print(f"wrote {PLOT}", flush=True)


def bench_run_calls() -> None:
    """`Toolkit.run_calls` of N calls against N awaits of `Tool.call`, per call, and a profile of
    where the rest goes."""
    kit = toolnexus.Toolkit([toolnexus.tool(frameworks_add())])
    tool = kit.get("add")
    assert tool is not None
    loop = asyncio.new_event_loop()
    repeats = 7 if QUICK else 21
    ratios: dict[str, tuple[float, float]] = {}
    detail = []
    for n in CALLS_IN_TURN:
        calls = [toolnexus.ToolCall(f"c{i}", "add", {"a": i, "b": 2}) for i in range(n)]

        async def run_calls(calls: list[toolnexus.ToolCall] = calls) -> None:
            await kit.run_calls(calls)

        async def each(calls: list[toolnexus.ToolCall] = calls) -> None:
            for c in calls:
                await tool.call(c.arguments)

        t = _interleaved_async(loop, {"run_calls": run_calls, "call": each}, repeats)
        ratios[f"Tool.call ({n} call{'s' if n > 1 else ''})"] = (t["run_calls"] / t["call"], 5)
        detail.append(f"{n}: {us(t['run_calls'] / n)} and {us(t['call'] / n)} a call")
    row("Toolkit.run_calls per call", "N calls of `async def add` in one turn", ratios, "; ".join(detail))
    profile = cProfile.Profile()
    calls = [toolnexus.ToolCall(f"c{i}", "add", {"a": i, "b": 2}) for i in range(10)]
    profile.enable()
    for _ in range(100 if QUICK else 400):
        loop.run_until_complete(kit.run_calls(calls))
    profile.disable()
    loop.close()
    stats = pstats.Stats(profile)
    total = sum(v[2] for v in stats.stats.values())  # type: ignore[attr-defined]
    top = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:12]  # type: ignore[attr-defined]
    RUN_CALLS_PROFILE.extend(["| function | own time | calls per tool call |", "|---|---|---|"])
    for (file, line, fn), (_, ncalls, own, _, _) in top:
        where = f"{Path(file).name}:{line} `{fn}`" if file != "~" else f"`{fn}`"
        per_call = ncalls / (10 * (100 if QUICK else 400))
        RUN_CALLS_PROFILE.append(f"| {where} | {own / total:.0%} | {per_call:.1f} |")


RUN_CALLS_PROFILE: list[str] = []


def _interleaved_async(
    loop: asyncio.AbstractEventLoop, fns: dict[str, Callable[[], Any]], repeats: int
) -> dict[str, float]:
    """As `interleaved`, for coroutine functions: each batch awaited in one task of `loop`."""

    async def batch(fn: Callable[[], Any], number: int) -> float:
        t0 = time.perf_counter()
        for _ in range(number):
            await fn()
        return (time.perf_counter() - t0) / number

    number = {k: max(1, int(0.01 / loop.run_until_complete(batch(fn, 20)))) for k, fn in fns.items()}
    samples: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            samples[name].append(loop.run_until_complete(batch(fn, number[name])))
    return {k: statistics.median(v) for k, v in samples.items()}


def frameworks_add() -> Callable[..., Any]:
    import frameworks

    return frameworks.add


def bench_approval() -> None:
    """The approval round trip (`bench/approval.py`): suspend, serialize, parse in a fresh
    process, resume with the answer, against pydantic-ai's deferred tools and the Agents SDK's
    `RunState`."""
    import approval

    got = approval.round_trips(10 if QUICK else 20, 2 if QUICK else 5)
    ours = got["toolnexus (sealed)"]
    peers_ = {k: v for k, v in got.items() if k != "toolnexus (sealed)"}
    fastest = min(peers_, key=lambda k: peers_[k]["total"])
    parts = "; ".join(
        f"{k}: suspend {us(v['suspend'])}, resume {us(v['resume'])}, first resume of a process {us(v['first resume'])}"
        for k, v in got.items()
    )
    others = ", ".join(f"{ours['total'] / v['total']:.2f}× {k}" for k, v in peers_.items() if k != fastest)
    row(
        "approval round trip",
        "one call: suspend, serialize, parse in a fresh process, resume approved",
        {f"the fastest peer ({fastest})": (ours["total"] / peers_[fastest]["total"], 0.5)},
        f"{others}; {parts}",
    )


# --- cold import ---------------------------------------------------------------------------------

IMPORT_PROBE = "import time; t0 = time.perf_counter(); {stmt}; print(time.perf_counter() - t0)"


def bench_import() -> None:
    stmts = {
        "ours": "import toolnexus",
        "pydantic": "from pydantic import BaseModel, TypeAdapter",
        "mcp_types": "import mcp_types",
        # What bounds ours: the first model class in a process loads the rest of pydantic
        # (fields, types, the plugin loader and its entry-point scan), which the bare import does not.
        "one_model": "from pydantic import BaseModel; type('M', (BaseModel,), {'__annotations__': {'x': int}})",
    }
    try:
        import mcp.types  # noqa: F401  (the full SDK, when it is installed)

        stmts["mcp.types"] = "import mcp.types"
    except ImportError:
        pass
    # Installed packages carry bytecode (pip compiles it at install), pydantic's included; a checkout
    # under PYTHONDONTWRITEBYTECODE has none, and `import toolnexus` would be timed compiling its
    # own source while its peers are not. Compile it first (into the ignored __pycache__ dirs).
    import compileall

    for package in (ROOT / "toolnexus", ROOT / "support" / "python" / "toolnexus_wire"):
        compileall.compile_dir(package, quiet=1)
    samples: dict[str, list[float]] = {k: [] for k in stmts}
    for _ in range(10):
        for name, stmt in stmts.items():
            out = subprocess.run(
                [sys.executable, "-c", IMPORT_PROBE.format(stmt=stmt)],
                capture_output=True,
                text=True,
                check=True,
            )
            samples[name].append(float(out.stdout))
    t = {k: statistics.median(v) for k, v in samples.items()}
    peer = "mcp.types" if "mcp.types" in t else "mcp_types"
    detail = f"ours {us(t['ours'])}, pydantic {us(t['pydantic'])}, mcp_types {us(t['mcp_types'])}"
    if "mcp.types" in t:
        detail += (
            f", mcp.types {us(t['mcp.types'])}; ours is {t['ours'] / t['mcp_types']:.2f}× `import mcp_types`"
        )
    detail += f"; defining one trivial model is {t['one_model'] / t['pydantic']:.2f}× pydantic alone"
    row(
        "cold `import toolnexus`",
        "fresh interpreter, median of 10",
        {
            "pydantic BaseModel+TypeAdapter": (t["ours"] / t["pydantic"], 1.6),
            f"`import {peer}`": (t["ours"] / t[peer], 0.25),
        },
        detail,
    )


# --- ContentPart.from_path -----------------------------------------------------------------------

FROM_PATH_PROBE = """
import sys, time
path, how = sys.argv[1], sys.argv[2]
if how == "ours":
    from toolnexus import ContentPart
    run = lambda: ContentPart.from_path(path)
else:
    import base64
    def run():
        with open(path, "rb") as f:
            return base64.b64encode(f.read()).decode("ascii")
def status(key):  # kB, from the kernel's view of this process
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # reset the peak (VmHWM) to the current RSS
before = status("VmRSS")
t0 = time.perf_counter()
value = run()
elapsed = time.perf_counter() - t0
print(elapsed, status("VmHWM") - before)
"""


def bench_from_path() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "blob.png"
        head = b"\x89PNG\r\n\x1a\n"
        path.write_bytes(head + os.urandom(20 * 1024 * 1024 - len(head)))
        samples: dict[str, list[tuple[float, float]]] = {"ours": [], "by hand": []}
        for _ in range(3 if QUICK else 7):
            for how in samples:
                out = subprocess.run(
                    [sys.executable, "-c", FROM_PATH_PROBE, str(path), how],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                elapsed, grown = map(float, out.stdout.split())
                samples[how].append((elapsed, grown))
    time_ = {k: statistics.median(s[0] for s in v) for k, v in samples.items()}
    rss = {k: statistics.median(s[1] for s in v) for k, v in samples.items()}
    row(
        "`ContentPart.from_path`",
        "20 MiB file, in a child process",
        {
            "by hand (time)": (time_["ours"] / time_["by hand"], 1.3),
            "by hand (peak RSS growth)": (rss["ours"] / rss["by hand"], 1.3),
        },
        f"ours {us(time_['ours'])} and {rss['ours'] / 2**20:.0f} MiB; by hand {us(time_['by hand'])} "
        f"and {rss['by hand'] / 2**20:.0f} MiB",
    )


# --- big parts in three languages (idl/examples/built.json) -------------------------------------

#: The table of the "Big parts" section of RESULTS.md.
BIG_PARTS: list[str] = []


def _big_part_times_python() -> dict[str, tuple[float, float]]:
    """{vector: (parse ms, emit ms)} of the valid built vectors, in this process."""
    from tests.vectors import built_vectors

    out: dict[str, tuple[float, float]] = {}
    for v in built_vectors():
        if not v.valid:
            continue
        text = v.text()
        t0 = time.perf_counter()
        value = getattr(toolnexus, v.type_name).from_json(text)
        t1 = time.perf_counter()
        emitted = value.to_json()
        t2 = time.perf_counter()
        assert emitted == text, v.name
        out[v.name] = ((t1 - t0) * 1e3, (t2 - t1) * 1e3)
    return out


def _big_part_times_cli(cmd: list[str], cwd: Path) -> dict[str, tuple[float, float]]:
    """{vector: (parse ms, emit ms)} of the valid built vectors, from a conformance CLI's lines."""
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=True, timeout=900)
    out: dict[str, tuple[float, float]] = {}
    for line in filter(None, done.stdout.split("\n")):
        row = json.loads(line)
        if row["ok"]:
            assert row["same"], row["vector"]
            out[row["vector"]] = (row["parseMs"], row["emitMs"])
    return out


def bench_big_parts() -> None:
    """A part of 5, 20 and 50 MB of base64 parsed and emitted in Python, TypeScript (Node.js)
    and Rust (release build, with `lossless`), each in its own process, median of the runs.
    The rows' targets: each language's time grows linearly (50 MB within 1.5 times ten times
    the 5 MB time), and TypeScript within 4 times Python."""
    built = ROOT / "idl" / "examples" / "built.json"
    ts_dir = ROOT / "tests" / "typescript"
    if not (ts_dir / ".cache" / "conformance.js").exists():
        subprocess.run(["bash", "run.sh", "build"], cwd=ts_dir, check=True, capture_output=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "support" / "rust" / "target"))
    manifest = ROOT / "tests" / "rust" / "conformance" / "Cargo.toml"
    subprocess.run(
        ["cargo", "build", "--quiet", "--release", "--manifest-path", str(manifest)],
        check=True,
        env={**os.environ, "CARGO_TARGET_DIR": str(target)},
    )
    runs: dict[str, Callable[[], dict[str, tuple[float, float]]]] = {
        "TypeScript": lambda: _big_part_times_cli(
            ["node", ".cache/conformance.js", "--built", str(built)], ts_dir
        ),
        "Python": _big_part_times_python,
        "Rust": lambda: _big_part_times_cli(
            [str(target / "release" / "toolnexus-conformance"), "--built", str(built)], ROOT
        ),
    }
    samples: dict[str, list[dict[str, tuple[float, float]]]] = {k: [] for k in runs}
    for _ in range(2 if QUICK else 5):
        for language, run in runs.items():
            samples[language].append(run())
            gc.collect()
    sizes = {"part-5MB": "5 MB", "part-20MB": "20 MB", "part-50MB": "50 MB"}
    median: dict[str, dict[str, tuple[float, float]]] = {
        language: {
            v: (statistics.median(s[v][0] for s in got), statistics.median(s[v][1] for s in got))
            for v in sizes
        }
        for language, got in samples.items()
    }
    BIG_PARTS.extend(
        [
            "| part (base64) | " + " | ".join(f"{lang} parse / emit" for lang in runs) + " |",
            "|---|" + "---|" * len(runs),
        ]
    )
    for v, label in sizes.items():
        cells = [f"{median[lang][v][0]:,.0f} / {median[lang][v][1]:,.0f} ms" for lang in runs]
        BIG_PARTS.append(f"| {label} | " + " | ".join(cells) + " |")
        print(
            f"big part {label}: " + ", ".join(f"{lang} {c}" for lang, c in zip(runs, cells, strict=True)),
            flush=True,
        )
    total = {lang: {v: sum(median[lang][v]) for v in sizes} for lang in runs}
    for language in runs:
        growth = total[language]["part-50MB"] / total[language]["part-5MB"] / 10
        row(
            "Big part, parse + emit",
            f"{language}: 50 MB against ten times 5 MB",
            {"linear": (growth, 1.5)},
            f"{total[language]['part-5MB']:,.0f} ms and {total[language]['part-50MB']:,.0f} ms",
        )
    row(
        "Big part, parse + emit",
        "TypeScript against Python, 50 MB",
        {"Python": (total["TypeScript"]["part-50MB"] / total["Python"]["part-50MB"], 4)},
    )


# --- make gen ------------------------------------------------------------------------------------


def bench_gen() -> None:
    from codegen.python_target import DATAMODEL_CODEGEN_ARGS

    schema = ROOT / "generated" / "jsonschema" / "toolnexus.schema.json"
    with tempfile.TemporaryDirectory() as tmp:
        commands = {
            # All outputs rendered in memory, as `make gen` does before writing them
            # (writing is left out so the bench never touches generated/).
            "ours": [sys.executable, "-c", "from codegen.__main__ import render_all; render_all()"],
            "datamodel-codegen": [
                sys.executable,
                "-m",
                "datamodel_code_generator",
                f"--input={schema}",
                f"--output={Path(tmp) / 'models.py'}",
                *DATAMODEL_CODEGEN_ARGS,
            ],
        }
        samples: dict[str, list[float]] = {k: [] for k in commands}
        for _ in range(2 if QUICK else 3):
            for name, cmd in commands.items():
                t0 = time.perf_counter()
                done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
                samples[name].append(time.perf_counter() - t0)
                if done.returncode:
                    last = (done.stderr.strip().splitlines() or ["?"])[-1]
                    NOTES.append(f"`make gen` timing: {name} failed ({last}); its row is not meaningful.")
                    ROWS.append(
                        Row(
                            "`make gen` (all outputs)",
                            "the project's IDL",
                            f"{name} failed: {last}",
                            "≤ 3× datamodel-codegen",
                            None,
                        )
                    )
                    print(f"make gen: {name} failed: {last}", flush=True)
                    return
    t = {k: statistics.median(v) for k, v in samples.items()}
    row(
        "`make gen` (all outputs)",
        "the project's IDL, fresh process",
        {"datamodel-codegen alone": (t["ours"] / t["datamodel-codegen"], 3)},
        f"ours {us(t['ours'])}, datamodel-codegen {us(t['datamodel-codegen'])}",
    )


# --- report --------------------------------------------------------------------------------------


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def _node_version() -> str:
    try:
        return subprocess.run(
            ["node", "--version"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "not installed"


def _npm_version(name: str) -> str:
    import json

    path = TS_BENCH / "node_modules" / name / "package.json"
    return json.loads(path.read_text())["version"] if path.exists() else "not installed"


def write_results(elapsed: float) -> None:
    cpu = (
        next(
            (
                line.split(":", 1)[1].strip()
                for line in Path("/proc/cpuinfo").read_text().splitlines()
                if "model name" in line
            ),
            platform.processor() or "?",
        )
        if Path("/proc/cpuinfo").exists()
        else platform.processor()
    )
    versions = ", ".join(
        f"{d} {_version(d)}"
        for d in (
            "toolnexus-contract",
            "pydantic",
            "pydantic-core",
            "orjson",
            "msgspec",
            "mcp-types",
            "mcp",
            "jsonschema",
            "datamodel-code-generator",
            "pydantic-ai-slim",
            "openai-agents",
            "langgraph",
            "langgraph-prebuilt",
            "langchain-core",
            "matplotlib",
        )
    )
    if UPSTREAM_PYTHON.exists():
        versions += (
            ", the upstream toolnexus port "
            + subprocess.run(
                [
                    str(UPSTREAM_PYTHON),
                    "-c",
                    "from importlib.metadata import version; print(version('toolnexus'))",
                ],
                capture_output=True,
                text=True,
            ).stdout.strip()
        )
    met = sum(r.met is True for r in ROWS)
    out = [
        "# Benchmarks",
        "",
        "Written by `make bench` (`bench/bench.py`); do not edit by hand.",
        "",
        f"- Machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores ({cpu}); shared with other builds while measured.",
        f"- Python {platform.python_version()} ({platform.python_implementation()}); {versions}.",
        f"- Run: {'quick' if QUICK else 'full'}, {elapsed:.0f} s, {time.strftime('%Y-%m-%d')}.",
        "",
        "## Method",
        "",
        "Every figure is a ratio to a peer measured in the same run, never an absolute time.",
        "In-process rows time batches of calls (about 10 ms each) of toolnexus and each peer in turn,",
        "repeated, and compare the median batch of each. Cold import, `from_path` and `make gen` run",
        "fresh interpreters, alternating toolnexus and its peer, and compare medians (import: 10 each,",
        "timed inside the child around the import statement; `from_path`: time and `ru_maxrss` growth",
        "inside the child; `make gen`: wall time of the whole process).",
        "",
        "A round trip is: encode a typed object to JSON, decode the JSON back to the typed object.",
        "toolnexus: `ToolResult.from_json(r.to_json())`; msgspec: a `Struct` (camelCase, omitted",
        "defaults) with a cached `Encoder`/`Decoder`; MCP: `CallToolResult.model_validate_json(",
        "r.model_dump_json(by_alias=True, exclude_none=True))` with the output as a `TextContent` and",
        "each part as an `ImageContent`, metadata as `_meta`; hand-written pydantic+orjson: a",
        "`BaseModel` with the same fields and aliases, `orjson.dumps(m.model_dump(by_alias=True,",
        "exclude_none=True))` and `model_validate(orjson.loads(text))`; dataclass: a hand-written",
        '`to_wire`/`from_wire` with `json.dumps`/`json.loads`. Payloads: small (`output:"4"`), medium',
        "(2 KB output, metadata with 5 keys including a pending `Request`), image (one 1 MiB part).",
        "",
        "TypeScript (Node.js "
        + _node_version()
        + ", the MCP SDK "
        + _npm_version("@modelcontextprotocol/sdk")
        + ", zod "
        + _npm_version("zod")
        + ", ai "
        + _npm_version("ai")
        + "): the npm package's `toJsonToolResult(fromJsonToolResult(text))`",
        "against `JSON.stringify(CallToolResultSchema.parse(JSON.parse(text)))` of the same content",
        "as an MCP result, the image payload of 0.5 MiB (`bench/typescript/roundtrip.mjs`). Its",
        "`Tool.call` of a tool made by `defineTool` with a zod schema, from the arguments' JSON text,",
        "against the AI SDK's own execution of a tool call of `tool({inputSchema, execute})` with the",
        "same schema, as `generateText` runs it (`safeParseJSON` with the schema, then `executeTool`;",
        "`bench/typescript/toolcall.mjs`). Node.js batches are timed in the CPU time of the process",
        "(`process.cpuUsage`), not charged for the time other processes hold the cores.",
        "",
        "Worst-case documents: `ToolResult.from_json` of about 1 MB and 4 MB of bytes whose `metadata`",
        "holds one shape many times (`bench/peers.py`, `WORST_CASES`), against `json.loads` of the",
        "same bytes; linear when the cost per byte at 4 MB is at most 1.3× that at 1 MB. The 100 MiB",
        'part: `ToolResult("x", parts=[ContentPart.from_path(p)]).to_json_bytes()` then `from_json`,',
        "against reading, `base64` and `orjson.dumps`/`orjson.loads` by hand, in child processes",
        "(peak RSS growth over the file's size, and time).",
        "",
        "Framework overhead: one agent turn of 1, 10 or 100 calls of `async def add(a: int, b: int) -> str`,",
        "timed from the moment the mock model hands back its recorded response to the moment the",
        "framework asks it again with the next request's messages, over the number of calls (p50 and",
        "p99 over the turns; `bench/frameworks.py` says how each framework runs, each from its own",
        "documented API and the mock its docs recommend for tests). The approval round trip: one call",
        "that needs approval suspends, the state is serialized, a fresh process parses it and resumes",
        "approved, up to the next request's messages (`bench/approval.py`; medians of suspend and of",
        "resume, added; the first resume of each process, which pays for its imports' lazy work, apart).",
        "The heap made before the overhead rows is frozen (`gc.freeze`), as for the resume rows below:",
        "this process imports every framework, and the upstream port runs in a small process of its own.",
        "",
        "MCP tools/call per second (`bench/mcp_serve.py`): the same function served by",
        "`toolnexus.mcp.mcp_server(Toolkit([tool(add)]))` and by the SDK's `MCPServer` (`@tool()`),",
        "each called by one session of the SDK's `mcp.Client`, in process (its in-memory transport)",
        "and over streamable HTTP (both servers in uvicorn threads of this process, on loopback).",
        "Batches of calls to each in turn; the ratio is of calls per CPU second of the process",
        "(client, transport and server all run in it), the median over the rounds of each round's",
        "pair of batches; a rate, so the target is a floor (≥).",
        "",
        f"## Results: {met} of {sum(r.met is not None for r in ROWS)} targets met",
        "",
        "| figure | case | measured | target | met |",
        "|---|---|---|---|---|",
    ]
    for r in ROWS:
        verdict = "—" if r.met is None else ("met" if r.met else "**not met**")
        out.append(f"| {r.figure} | {r.case} | {r.measured} | {r.target} | {verdict} |")
    if OVERHEAD:
        out += [
            "",
            "## Framework overhead per tool call",
            "",
            "![Framework time per tool call against the calls in the turn](../docs/assets/bench-overhead.svg)",
            "",
            *OVERHEAD,
        ]
    if RUN_CALLS_PROFILE:
        out += [
            "",
            "## Where `Toolkit.run_calls` spends its time",
            "",
            "cProfile of `run_calls` of 10 calls of `async def add` (no key), by own time; a coroutine",
            "counts a call each time it is resumed. Most of it is asyncio's: each call runs in a task of",
            "its own (the turn's calls run concurrently), and its handler in a second one that",
            "`Toolkit.cancel` can cancel and abandon after `cancel_grace` without stopping the turn.",
            "",
            *RUN_CALLS_PROFILE,
        ]
    out += ["", "## Growth of the round trip", "", *GROWTH, ""]
    if BIG_PARTS:
        out += [
            "## Big parts in three languages",
            "",
            "The valid vectors of `idl/examples/built.json` (one part of 5, 20 or 50 MB of base64),",
            "parsed and emitted byte for byte by each language in its own process: TypeScript through",
            "`conformance.js --built` on Node.js, Rust through `toolnexus-conformance --built` built",
            "`--release` (feature `lossless`), Python in this process. Medians of the runs.",
            "",
            *BIG_PARTS,
            "",
        ]
    if RESUME:
        out += [
            "## Resuming N suspended calls",
            "",
            "One turn of N calls that each suspend, sealed; the answers given in reverse call order",
            "(all at once) or in call order (one `resume` each). The last column divides by N direct",
            "`tool.call` re-runs with an answer: the tool work alone, the floor. Median of 3 runs each.",
            "The heap made before timing (modules, the run set up) is frozen (`gc.freeze`): a full",
            "collection's pass over it costs the size of the process, not of the resume. The",
            "collector's passes over what the resume makes are part of the time.",
            "",
            "All at once is linear. One `resume` per answer returns a new run each time, and each",
            "holds an entry per call of the turn (the run given must stay as it was), so N such",
            "resumes write N² entries in all, whatever the toolkit does: their Python work per",
            "answer stays flat (counted with cProfile in the targets above), and the copying of the",
            "lists, in C, is what grows. Answer together when many wait.",
            "",
            *RESUME,
            "",
        ]
    if NOTES:
        out += ["## Notes", "", *(f"- {n}" for n in NOTES), ""]
    (HERE / "RESULTS.md").write_text("\n".join(out), encoding="utf-8")
    print(f"wrote {HERE / 'RESULTS.md'}")


def bench_mcp_serve() -> None:
    """tools/call per second through the MCP SDK's transports (issue 37, `bench/mcp_serve.py`):
    a Toolkit served by `toolnexus.mcp.mcp_server` against the SDK's own `MCPServer` serving the
    same function, each driven by one session of the SDK's `mcp.Client`, in process (its
    in-memory transport) and over streamable HTTP (both servers in uvicorn threads of this
    process, on loopback). Batches of calls to each, in turn; the ratio is of calls per second
    of this process's CPU time (the client's, the transport's and the server's; the machine is
    shared), the median over the rounds of each round's two batches, the wall-clock ratio
    beside it."""
    import mcp_serve

    for case, got in mcp_serve.rows(QUICK):
        (_, ours_cpu), (_, sdk_cpu), (wall, cpu) = got["ours"], got["sdk"], got["ratio"]
        row(
            "MCP tools/call per second",
            case,
            {"the SDK's `MCPServer`": (cpu, 1.0)},
            f"{wall:.2f}× by the wall clock; ours {1 / ours_cpu:,.0f} and the SDK's"
            f" {1 / sdk_cpu:,.0f} calls a CPU second",
            at_least=True,
        )


def bench_result_limits() -> None:
    """Results that fit the model (issue 36): `bench/results.py`."""
    import results

    for figure, case, peer, ratio, target, detail in results.rows(QUICK):
        row(figure, case, {peer: (ratio, target)}, detail)


def bench_postgres_mixed() -> None:
    """4 Python and 4 TypeScript workers finishing 10,000 waiting runs on one PostgreSQL database
    (`bench/postgres_mixed.py`); the target is that each run was claimed and finished once."""
    import postgres_mixed

    got = postgres_mixed.measure(1000 if QUICK else 10_000)
    measured = (
        f"{got.per_second:.0f} runs/s ({got.runs:,} runs in {got.seconds:.1f} s; finished by Python"
        f" {got.finished['python']:,}, TypeScript {got.finished['typescript']:,}; races lost"
        f" {got.lost['python']:,} and {got.lost['typescript']:,}"
        + (f"; {'; '.join(got.problems)}" if got.problems else "")
        + ")"
    )
    ROWS.append(
        Row(
            "mixed workers on PostgreSQL",
            f"{got.runs:,} runs, 4 Python + 4 TypeScript",
            measured,
            "each run claimed and finished once, its tool run once",
            not got.problems,
        )
    )
    print(f"mixed workers on PostgreSQL: {measured}", flush=True)


#: The TypeScript stores' figures (issue 33): each at most this times its raw driver's.
TS_STORE_TARGET = 1.5


def bench_ts_store() -> None:
    """The TypeScript run stores against their raw drivers doing the same work
    (`bench/typescript/store.mjs`, whose header says what each side does): `SqliteRunStore`
    against better-sqlite3 on a temporary file, `PostgresRunStore` against `pg` on a throwaway
    cluster (`tests.postgres.cluster`); save, claim+resume and `pending()` of 1,000 runs, fresh
    tables for each batch, the two sides' batches in turn, medians. The ratio is by the wall
    clock (the database's own work counts); node's CPU time is beside it."""
    from tests.postgres import cluster

    subprocess.run(
        ["bash", str(ROOT / "tests" / "typescript" / "run.sh"), "build"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    n, repeats = (200, 1) if QUICK else (1000, 3)
    script = str(TS_BENCH / "store.mjs")
    with tempfile.TemporaryDirectory(prefix="toolnexus-ts-store-") as tmp, cluster() as server:
        lines = []
        for db, where in (("sqlite", tmp), ("postgres", server)):
            out = subprocess.run(
                ["node", script, db, where, str(n), str(repeats)], capture_output=True, text=True, check=True
            )
            lines += [json.loads(x) for x in out.stdout.splitlines() if x.strip()]
    peers_of = {"sqlite": "raw better-sqlite3", "postgres": "raw pg"}
    names = {"save": "save", "claim+resume": "claim+resume", "pending": "pending()"}
    for got in lines:
        unit, scale = ("ns a request", 1e9) if got["figure"] == "pending" else ("µs a run", 1e6)
        case = f"{got['n']:,} {'waiting' if got['figure'] == 'pending' else 'runs'}, {got['db']}"
        row(
            f"TypeScript store {names[got['figure']]}",
            case,
            {peers_of[got["db"]]: (got["ours"] / got["peer"], TS_STORE_TARGET)},
            f"{got['ours'] * scale:,.0f} and {got['peer'] * scale:,.0f} {unit}; node's CPU time"
            f" {got['oursCpu'] / got['peerCpu']:.2f}×",
        )


def update_results(only: str) -> None:
    """After `--only`: the rows measured replace those of the same figure and case in
    `bench/RESULTS.md` (a new one goes after the last of its figure, or at the end of the table),
    the count of targets met is made again, and a line under the header says which rows were
    measured since the full run, when. The rest of the file stays as the full run wrote it."""
    path = HERE / "RESULTS.md"
    lines = path.read_text(encoding="utf-8").splitlines()

    def key(line: str) -> tuple[str, str]:
        cells = line.split(" | ")
        return cells[0].removeprefix("| "), cells[1]

    def verdict(r: Row) -> str:
        return "—" if r.met is None else ("met" if r.met else "**not met**")

    start = next(i for i, x in enumerate(lines) if x.startswith("## Results: "))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    table = [
        i for i in range(start, end) if lines[i].startswith("| ") and not lines[i].startswith("| figure |")
    ]
    for r in ROWS:
        text = f"| {r.figure} | {r.case} | {r.measured} | {r.target} | {verdict(r)} |"
        same = [i for i in table if key(lines[i]) == (r.figure, r.case)]
        if same:
            lines[same[0]] = text
            continue
        kin = [i for i in table if key(lines[i])[0] == r.figure] or table
        lines.insert(kin[-1] + 1, text)
        table = [i if i <= kin[-1] else i + 1 for i in table] + [kin[-1] + 1]
    rows = [lines[i] for i in table]
    met = sum(line.endswith(" | met |") for line in rows)
    counted = sum(not line.endswith(" | — |") for line in rows)
    lines = [
        f"## Results: {met} of {counted} targets met" if x.startswith("## Results: ") else x for x in lines
    ]
    since = (
        f"- Measured again since, by `bench.py --only {only}` ({time.strftime('%Y-%m-%d')}): "
        + "; ".join(sorted({r.figure for r in ROWS}))
        + " (how: the docstrings of the benches in `bench/bench.py` and the scripts they run; the"
        + " method below is the full run's)."
    )
    lines = [x for x in lines if not x.startswith(f"- Measured again since, by `bench.py --only {only}`")]
    at = next(i for i, x in enumerate(lines) if x.startswith("- Run: "))
    lines.insert(at + 1, since)
    mark = f"(`--only {only}`) "
    lines = [x for x in lines if not x.startswith("- " + mark)]
    if NOTES:
        if "## Notes" not in lines:
            lines += ["", "## Notes", ""]
        at = lines.index("## Notes") + 2
        while at < len(lines) and lines[at].startswith("- "):
            at += 1
        lines[at:at] = [f"- {mark}{n}" for n in NOTES]
    path.write_text("\n".join(lines).rstrip("\n") + "\n", encoding="utf-8")
    print(f"updated {path} ({len(ROWS)} rows, {len(NOTES)} notes)")


def main() -> None:
    global QUICK
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, for trying things out")
    parser.add_argument("--only", help="run only the benches whose name contains this")
    args = parser.parse_args()
    QUICK = args.quick
    t0 = time.perf_counter()
    benches = (
        bench_round_trip,
        bench_typescript,
        bench_tool_call,
        bench_run_calls,
        bench_overhead,
        bench_approval,
        bench_import,
        bench_from_path,
        bench_big_part,
        bench_worst_case,
        bench_gen,
        bench_growth,
        bench_resume,
        bench_big_parts,
        bench_result_limits,
        bench_mcp_serve,
        bench_postgres_mixed,
        bench_ts_store,
    )
    for bench in benches:
        if args.only is None or args.only in bench.__name__:
            bench()
    if args.only is None:
        write_results(time.perf_counter() - t0)
    elif ROWS:
        update_results(args.only)


if __name__ == "__main__":
    main()
