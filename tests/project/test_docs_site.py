"""The docs site: it builds with broken links and anchors as errors, and a real browser
(Debian's headless Chromium) reads it: a wire type page renders, the search finds
`structuredContent`, an in-page link moves to its target, the API page of Toolkit shows its
methods. Screenshots go to dist/screenshots/.

Without Chromium the browser test is skipped, except under CI (`CI=true`), where it fails:
.ci/run installs it (`apt-get install chromium`).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.needs import missing, npm_ci

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "tests" / "docs"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SHOTS = ROOT / "dist" / "screenshots"

pytestmark = pytest.mark.slow


def _mkdocs(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    built = _mkdocs("--site-dir", str(out))
    assert built.returncode == 0, built.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def test_a_wire_type_page_has_every_field_and_the_reference_pages_are_all_there(site: Path) -> None:
    idl = json.loads((ROOT / "idl" / "manifest.json").read_text(encoding="utf-8"))
    for name in idl["types"]:
        page = (site / "reference" / "wire" / name / "index.html").read_text(encoding="utf-8")
        schema = json.loads((ROOT / "idl" / f"{name}.json").read_text(encoding="utf-8"))
        for key in schema["properties"]:
            assert f'id="{key}"' in page, f"{name}: no section for {key}"
    api = (site / "api" / "adapters" / "index.html").read_text(encoding="utf-8")
    for function in ("openai_chat_messages", "anthropic_tool_result", "gemini_function_response"):
        assert function in api, f"the adapters' API page lacks {function}"


def test_the_site_reads_in_a_browser(served: str) -> None:
    if not Path(CHROMIUM).exists():
        missing(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    npm_ci(HERE)
    done = subprocess.run(
        ["node", str(HERE / "site.mjs"), served, str(SHOTS)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    failed = [c for c in report["checks"] if not c["ok"]]
    assert not failed, json.dumps(failed, indent=1)
    assert len(report["checks"]) >= 7
    for path in report["screenshots"]:
        assert Path(path).stat().st_size > 10_000, f"{path} is (nearly) empty"


def test_a_broken_link_or_anchor_fails_the_build(tmp_path: Path) -> None:
    """The build's strictness is real: the same configuration over a copy of docs/ with one
    broken link and one broken anchor fails, naming both."""
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    with (docs / "limits.md").open("a", encoding="utf-8") as f:
        f.write("\nSee [nothing](no-such-page.md) and [no anchor](providers.md#no-such-anchor).\n")
    config = tmp_path / "mkdocs.yml"
    # The same configuration, on the copy; the Python API pages are left to mkdocstrings'
    # absence (their `:::` lines are text here) so that only the links are in question.
    lines = [f"INHERIT: {ROOT / 'mkdocs.yml'}", f"docs_dir: {docs}", f"site_dir: {tmp_path / 'site'}"]
    config.write_text("\n".join([*lines, "plugins:", "  - search", ""]), encoding="utf-8")
    built = _mkdocs("--config-file", str(config))
    assert built.returncode != 0
    assert "no-such-page.md" in built.stderr
    assert "no-such-anchor" in built.stderr
    # And the copy without the two links builds: nothing else made it fail.
    shutil.copy(ROOT / "docs" / "limits.md", docs / "limits.md")
    assert _mkdocs("--config-file", str(config)).returncode == 0
