"""tools/call per second through the MCP SDK's transports (issue 37): a Toolkit served by
`toolnexus.mcp.mcp_server` against the SDK's own `MCPServer` serving the same function, both
driven by the SDK's `mcp.Client`, in process (its in-memory transport) and over streamable HTTP
(each server in a uvicorn thread of this process on loopback). `bench.py`'s "MCP tools/call"
rows; run alone for the figures, or `--profile` for cProfile of one server's calls.

    python bench/mcp_serve.py [--quick] [--profile ours|sdk] [--http]
"""

from __future__ import annotations

import asyncio
import contextlib
import cProfile
import logging
import pstats
import socket
import statistics
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parent.parent)]

import mcp  # noqa: E402
from mcp.server import MCPServer  # noqa: E402

import toolnexus  # noqa: E402
from toolnexus.mcp import mcp_server  # noqa: E402


def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


async def add_async(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


#: The cases: the function each server serves, as `add`.
FUNCTIONS = {"def add": add, "async def add": add_async}


def servers(fn: Any) -> dict[str, Any]:
    """`fn` served as the tool `add` by each: ours (`mcp_server(Toolkit([tool(fn)]))`) and the
    SDK's (`MCPServer().tool(name="add")(fn)`)."""
    sdk = MCPServer("sdk")
    sdk.tool(name="add")(fn)
    ours = mcp_server(toolnexus.Toolkit([toolnexus.tool(fn, name="add")]))
    return {"ours": ours, "sdk": sdk}


@contextlib.contextmanager
def _http(server: Any) -> Iterator[str]:
    """`server`'s streamable HTTP app, served by uvicorn on a loopback port in a thread of
    this process, for the time of the block; yields its URL."""
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = server.streamable_http_app(streamable_http_path="/mcp", host="127.0.0.1")
    web = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=lambda: asyncio.run(web.serve(sockets=[sock])), daemon=True)
    thread.start()
    while not web.started:
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        web.should_exit = True
        thread.join(10)
        sock.close()


@contextlib.asynccontextmanager
async def clients(servers_: dict[str, Any], http: bool) -> AsyncIterator[dict[str, mcp.Client]]:
    """One open `mcp.Client` session to each server (in process, or over HTTP)."""
    with contextlib.ExitStack() as stack:
        targets = {k: stack.enter_context(_http(s)) if http else s for k, s in servers_.items()}
        async with contextlib.AsyncExitStack() as astack:
            opened = {k: await astack.enter_async_context(mcp.Client(t)) for k, t in targets.items()}
            for client in opened.values():
                got = await client.call_tool("add", {"a": 1, "b": 2})
                assert not got.is_error and got.content[0].text == "3", got  # type: ignore[union-attr]
            yield opened


async def _batch(client: mcp.Client, calls: int) -> tuple[float, float]:
    """Seconds (wall, CPU time of this process) per call of `calls` calls."""
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(calls):
        await client.call_tool("add", {"a": i, "b": 1})
    return (time.perf_counter() - t0) / calls, (time.process_time() - c0) / calls


async def measure(fn: Any, http: bool, calls: int, repeats: int) -> dict[str, tuple[float, float]]:
    """Per server: median seconds per call (wall, CPU), batches of `calls` calls taken in turn,
    `repeats` times each, after a warm-up batch of each; and under "ratio" the median over the
    rounds of the SDK's time over ours (wall, CPU), each round's two batches side by side: the
    machine's load drifts slower than a round takes."""
    samples: dict[str, list[tuple[float, float]]] = {}
    async with clients(servers(fn), http) as opened:
        for client in opened.values():
            await _batch(client, calls)
        for _ in range(repeats):
            for name, client in opened.items():
                samples.setdefault(name, []).append(await _batch(client, calls))
    got = {
        k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
        for k, v in samples.items()
    }
    pairs = list(zip(samples["ours"], samples["sdk"], strict=True))
    got["ratio"] = (
        statistics.median(s[0] / o[0] for o, s in pairs),
        statistics.median(s[1] / o[1] for o, s in pairs),
    )
    return got


#: (calls a batch, rounds) by (over HTTP, quick).
BATCHES = {(False, False): (25, 81), (False, True): (25, 21), (True, False): (10, 41), (True, True): (10, 11)}


def rows(quick: bool) -> list[tuple[str, dict[str, tuple[float, float]]]]:
    """(case, per server (wall, CPU) seconds per call) for each function, in process and over
    HTTP."""
    for name in ("httpx", "httpx2"):  # a line per request, at INFO (`MCPServer` sets up logging)
        logging.getLogger(name).setLevel(logging.WARNING)
    out = []
    for http in (False, True):
        calls, repeats = BATCHES[http, quick]
        for label, fn in FUNCTIONS.items():
            got = asyncio.run(measure(fn, http, calls, repeats))
            out.append(
                (f"`{label}(a: int, b: int) -> int`, {'streamable HTTP' if http else 'in process'}", got)
            )
    return out


async def _profile(which: str, fn: Any, http: bool, calls: int) -> pstats.Stats:
    async with clients({which: servers(fn)[which]}, http) as opened:
        await _batch(opened[which], 100)
        profile = cProfile.Profile()
        profile.enable()
        await _batch(opened[which], calls)
        profile.disable()
    return pstats.Stats(profile)


def main() -> None:
    quick = "--quick" in sys.argv
    if "--profile" in sys.argv:
        which = sys.argv[sys.argv.index("--profile") + 1]
        stats = asyncio.run(_profile(which, add_async, "--http" in sys.argv, 2000))
        stats.sort_stats("cumulative").print_stats(50)
        return
    for case, got in rows(quick):
        wall, cpu = got["ratio"]
        print(
            f"{case}: ours/SDK calls per second {cpu:.2f}× (CPU), {wall:.2f}× (wall); "
            f"ours {1 / got['ours'][1]:,.0f}, SDK {1 / got['sdk'][1]:,.0f} calls per CPU second"
        )


if __name__ == "__main__":
    main()
