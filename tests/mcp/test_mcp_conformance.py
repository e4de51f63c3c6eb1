"""The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
tests/mcp_conformance/package-lock.json) against toolnexus.mcp, both ways.

Server: every server scenario of the suite (`--suite all`) against a `Toolkit` served by
`toolnexus.mcp.serve` over streamable HTTP on 127.0.0.1 (tests/mcp_conformance/server.py).
Client: each client scenario toolnexus takes part in, with tests/mcp_conformance/client.py
(`mcp_tools_from`, an `ElicitationRelay`, `Toolkit.run_calls` answering with an `Answer`) as
the client the suite runs. What is out of scope is in tests/mcp_conformance/expected-failures.yml
with the reason; the suite itself fails the run when a listed scenario passes or an unlisted one
fails, and this test reads each scenario's checks.json and asserts every check of every other
scenario passed (SUCCESS, or INFO for what is only reported).

The suite's CLI is built for Node 22 (`fs.globSync`); on Node 20 it runs with
tests/mcp_conformance/node20/register.mjs loaded first (`node --import`), which says how.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, SUMMARY, free_port, serving
from tests.needs import missing, npm_ci

# One worker runs them (`--dist loadgroup`): one `npm ci` into tests/mcp_conformance, and the
# client scenarios, one timed (sse-retry), do not compete with the server run.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("mcp_conformance")]

HERE = REPO / "tests" / "mcp_conformance"
CLI = HERE / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
#: Lets the CLI run on Node 20 (see the file); a no-op on Node 22 and later.
NODE20 = HERE / "node20" / "register.mjs"
BASELINE = HERE / "expected-failures.yml"
#: The client scenarios client.py plays (its CALLS); the suite's others are in the baseline.
CLIENT_SCENARIOS = ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"]
#: A check that only reports what happened (a request seen, an event received) is INFO.
PASSING = {"SUCCESS", "INFO"}
#: The suite names a scenario's results folder `[server-]<scenario>-<timestamp>`.
STAMP = re.compile(r"-\d{4}-\d{2}-\d{2}T[\d-]+Z$")


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "support" / "python")])}


def _baseline() -> dict[str, list[str]]:
    """The expected-failures file: `server:` and `client:`, each a list of `  - <scenario>`
    (comments and blank lines aside); anything else is an error naming the line."""
    out: dict[str, list[str]] = {}
    side: str | None = None
    for number, line in enumerate(BASELINE.read_text(encoding="utf-8").splitlines(), 1):
        text = line.split("#", 1)[0].rstrip()
        if not text:
            continue
        if m := re.fullmatch(r"(server|client):", text):
            side = m.group(1)
            out[side] = []
        elif (m := re.fullmatch(r"  - ([\w/.-]+)", text)) and side is not None:
            out[side].append(m.group(1))
        else:
            raise ValueError(f"{BASELINE.name}:{number}: not a `server:`/`client:` list item: {line!r}")
    return out


def _node(*args: str, timeout: float = 600, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["node", "--import", NODE20.as_uri(), str(CLI), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
        cwd=HERE,
        **kw,
    )


@pytest.fixture(scope="module")
def suite() -> None:
    """The pinned suite, installed with `npm ci` when package-lock.json changed."""
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            missing(f"the MCP conformance suite needs {tool} (Node 20 or later)")
    npm_ci(HERE)


def _listed(side: str) -> list[str]:
    done = _node("list", f"--{side}", timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return re.findall(r"^  - (\S+)", done.stdout, flags=re.MULTILINE)


@pytest.fixture
def served() -> Iterator[str]:
    """tests/mcp_conformance/server.py on 127.0.0.1, for the suite's server scenarios."""
    port = free_port()
    with serving([sys.executable, str(HERE / "server.py"), str(port)], port, _env(), "the server"):
        yield f"http://127.0.0.1:{port}/mcp"


def _results(folder: Path, prefix: str) -> dict[str, list[dict[str, Any]]]:
    """Each scenario's checks, from the checks.json files the suite wrote under `folder`."""
    out: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(folder.rglob("checks.json")):
        name = STAMP.sub("", path.relative_to(folder).parent.as_posix())
        out[name.removeprefix(prefix)] = json.loads(path.read_text(encoding="utf-8"))
    return out


def _judge(
    side: str,
    results: dict[str, list[dict[str, Any]]],
    expected: list[str],
    record: Callable[[str, object], None],
    *,
    not_run: int = 0,
) -> list[str]:
    """Print each scenario's checks, then the counts (recorded for the run's summaries, too);
    return what failed in scope."""
    in_scope = {"SUCCESS": 0, "FAILURE": 0, "WARNING": 0}
    baseline = {"SUCCESS": 0, "FAILURE": 0, "WARNING": 0}
    passed, failed, expected_failed, wrong = 0, 0, 0, []
    print(f"\n{side}: {len(results)} scenarios of the MCP conformance suite 0.1.16")
    for scenario, checks in results.items():
        statuses = [c["status"] for c in checks]
        counts = baseline if scenario in expected else in_scope
        for status in counts:
            counts[status] += statuses.count(status)
        shown = ", ".join(f"{statuses.count(s)} {s.lower()}" for s in sorted(set(statuses)))
        if scenario in expected:
            expected_failed += 1
            print(f"  ~ {scenario}: expected failure ({shown})")
            continue
        bad = [c for c in checks if c["status"] not in PASSING]
        ok = not bad and "SUCCESS" in statuses
        passed, failed = passed + ok, failed + (not ok)
        print(f"  {'✓' if ok else '✗'} {scenario}: {shown}")
        if not ok:
            wrong += [f"{scenario}: {c['id']} {c['status']}: {c.get('errorMessage', '')}" for c in bad] or [
                f"{scenario}: no check succeeded"
            ]
    outside = f", {not_run} out of scope and not run" if not_run else ""
    summary = (
        f"{side}: {passed} scenarios passed, {failed} failed, "
        f"{expected_failed} expected failures{outside}; "
        f"checks in scope: {in_scope['SUCCESS']} passed, {in_scope['FAILURE']} failed, "
        f"{in_scope['WARNING']} warnings; in the expected failures: {baseline['FAILURE']} failed, "
        f"{baseline['WARNING']} warnings"
    )
    print(summary)
    record(SUMMARY, f"MCP conformance suite 0.1.16, {summary}")
    return wrong


def test_a_served_toolkit_passes_the_suites_server_scenarios(
    suite: None, served: str, tmp_path: Path, record_property: Callable[[str, object], None]
) -> None:
    expected = _baseline()["server"]
    listed = _listed("server")
    assert set(expected) <= set(listed), (
        f"the baseline names scenarios the suite lacks: {set(expected) - set(listed)}"
    )
    done = _node(
        "server", "--url", served, "--suite", "all", "--expected-failures", str(BASELINE), "-o", str(tmp_path)
    )
    print(done.stdout[done.stdout.find("=== SUMMARY ===") :])
    results = _results(tmp_path, "server-")
    assert sorted(results) == sorted(listed), "every server scenario of the suite ran"
    wrong = _judge("server", results, expected, record_property)
    assert not wrong, "\n".join(wrong)
    for scenario in expected:  # (the suite says so too: a listed scenario that passes is stale)
        assert any(c["status"] not in PASSING for c in results[scenario]), f"{scenario} passes: unlist it"
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_mcp_tools_from_passes_the_suites_client_scenarios(
    suite: None, tmp_path: Path, record_property: Callable[[str, object], None]
) -> None:
    expected = _baseline()["client"]
    listed = _listed("client")
    # A scenario a newer pin adds shows up here: played by client.py, or listed with a reason.
    assert sorted(listed) == sorted(CLIENT_SCENARIOS + expected)
    command = f"{sys.executable} {HERE / 'client.py'}"  # the suite splits it on spaces
    assert " " not in sys.executable and " " not in str(HERE), (
        "the suite's --command cannot hold a path with spaces"
    )
    runs = {}
    for scenario in CLIENT_SCENARIOS:
        runs[scenario] = _node(
            "client",
            *("--command", command, "--scenario", scenario, "--timeout", "60000"),
            *("--expected-failures", str(BASELINE), "-o", str(tmp_path)),
            env=_env(),
        )
    results = _results(tmp_path, "")
    assert sorted(results) == sorted(CLIENT_SCENARIOS)
    wrong = _judge("client", results, expected, record_property, not_run=len(expected))
    assert not wrong, "\n".join(wrong)
    for scenario, done in runs.items():
        assert done.returncode == 0, f"{scenario}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


def test_the_node20_shims_glob_sync_finds_what_the_suite_asks_it_for(tmp_path: Path) -> None:
    """The one Node 22 function the suite's CLI imports, as the Node 20 shim gives it: the
    suite asks `globSync("**/checks.json", {cwd})` for the reports under a folder."""
    if shutil.which("node") is None:
        missing("the MCP conformance suite needs node (Node 20 or later)")
    for where in ("checks.json", "a/checks.json", "a/b/checks.json", "a/other.json", "c/checks.json.bak"):
        (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / where).write_text("[]", encoding="utf-8")
    shim = (HERE / "node20" / "fs-with-glob.mjs").as_uri()
    script = (
        f"import {{ globSync, readFileSync }} from {json.dumps(shim)};"
        f"console.log(JSON.stringify([globSync('**/checks.json', {{ cwd: {json.dumps(str(tmp_path))} }}),"
        " typeof readFileSync]));"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    found, read = json.loads(done.stdout)
    assert sorted(found) == ["a/b/checks.json", "a/checks.json", "checks.json"]
    assert read == "function"  # the rest of fs is fs
