"""Every example in examples/ runs, and every ```python block of the docs (README.md and the
pages under docs/, as `tests.doc_examples` lists them)."""

import os
import re
import subprocess
import sys

import pytest

from tests.conftest import REPO
from tests.doc_examples import blocks

# durable_host.py has its own test; mcp_server.py is a server, run by mcp_client.py;
# temporal_host.py runs in tests/temporal/test_temporal.py, against the Temporal server started there.
OWN_TESTS = {"durable_host.py", "mcp_server.py", "temporal_host.py"}
EXAMPLES = sorted(p for p in (REPO / "examples").glob("*.py") if p.name not in OWN_TESTS)


def _run(args, **kw):
    env = {**os.environ, "TOOLNEXUS_REPO": str(REPO)}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=120, **kw)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(path):
    proc = _run([str(path)], cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok: "), proc.stdout


DOC_BLOCKS = blocks("python")


def test_the_readme_and_the_guides_have_python_examples():
    pages = {b.page for b in DOC_BLOCKS}
    assert "README.md" in pages
    for guide in ("python", "providers", "decisions", "durable", "mcp", "frameworks"):
        assert f"docs/guides/{guide}.md" in pages, guide


GUIDES = ("python", "typescript", "rust", "providers", "decisions", "durable", "mcp")


def test_the_readme_is_short_and_links_to_every_guide_on_the_site():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert text.count("\n") <= 300
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if not link.startswith("https://")]
    missing = [link for link in local if not (REPO / link).exists()]
    assert not missing, f"README.md links to files that do not exist: {missing}"
    nav = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    for guide in GUIDES:
        assert f"docs/guides/{guide}.md" in local, f"README.md does not link the {guide} guide"
        assert f"- guides/{guide}.md" in nav, f"the site's nav lacks guides/{guide}.md"


@pytest.mark.parametrize("block", DOC_BLOCKS, ids=lambda b: b.name)
def test_doc_python_block_runs(block, tmp_path):
    script = tmp_path / "block.py"
    script.write_text(block.code, encoding="utf-8")
    proc = _run([str(script)], cwd=REPO)
    assert proc.returncode == 0, f"{block.name}:\n{proc.stderr}"


def test_the_seed_examples_are_all_here():
    assert [
        p.name
        for p in EXAMPLES
        if p.name in {"success_and_failure.py", "structured_output.py", "suspension.py", "parts.py"}
    ] == ["parts.py", "structured_output.py", "success_and_failure.py", "suspension.py"]
