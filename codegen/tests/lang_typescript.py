"""Build a generated TypeScript package and round-trip wire documents through it.

`build_and_roundtrip(package_dir, samples)` works on any package the TypeScript target writes:
a golden case's (`test_goldens.write_package(case, "typescript", tmp)`), or the real IDL's
(`generated/typescript` copied to a scratch folder, or used in place: it is never written to).
The package is copied to a temporary folder, compiled there by the pinned tsc
(tests/typescript/node_modules, installed by `bash tests/typescript/run.sh install`) with its own
tsconfig and `--strict`, and a node script imports the compiled `dist/index.js` and checks that
`toJson<Type>(fromJson<Type>(doc)) === doc` for every document. Its parts, for more checks
on one build: `build(package_dir, work)` gives the compiled `dist/index.js`, and
`check(index, samples, rewrites=..., rejects=...)` also pins documents that are rewritten
(defaults written, empty arrays omitted) or rejected (the `WireError` path).
"""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

__all__ = ["ROOT", "TS_TESTS", "build", "build_and_roundtrip", "check", "ensure_toolchain", "run_node"]

ROOT = Path(__file__).resolve().parents[2]
#: Where the pinned npm packages (typescript, @types/node, ajv) are installed.
TS_TESTS = ROOT / "tests" / "typescript"
_SKIP = shutil.ignore_patterns("node_modules", "dist", ".cache")

# Reads the checks file named by argv[1] ({"samples", "rewrites", "rejects"}), imports the
# compiled package argv[2]; prints one line per failure and exits 1 when there is any.
_CHECK = r"""
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const { samples, rewrites, rejects } = JSON.parse(readFileSync(process.argv[1], "utf8"));
const pkg = await import(pathToFileURL(process.argv[2]).href);
const failures = [];
let checked = 0;
function codec(name) {
  const fromJson = pkg[`fromJson${name}`];
  const toJson = pkg[`toJson${name}`];
  if (typeof fromJson !== "function" || typeof toJson !== "function") {
    failures.push(`${name}: the package exports no fromJson${name}/toJson${name}`);
    return undefined;
  }
  return { fromJson, toJson };
}
function run(name, pairs, each) {
  const c = codec(name);
  for (const pair of c ? pairs : []) {
    checked += 1;
    try {
      each(c, ...pair);
    } catch (err) {
      failures.push(`${name}: ${err && err.name}: ${err && err.message}\n  sent ${pair[0]}`);
    }
  }
}
for (const [name, docs] of Object.entries(samples)) {
  run(name, docs.map((d) => [d, d]), ({ fromJson, toJson }, doc, want) => {
    const got = toJson(fromJson(doc));
    if (got !== want) failures.push(`${name}: re-emitted differently\n  sent ${doc}\n  got  ${got}`);
  });
}
for (const [name, pairs] of Object.entries(rewrites)) {
  run(name, pairs, ({ fromJson, toJson }, doc, want) => {
    const got = toJson(fromJson(doc));
    if (got !== want) failures.push(`${name}: sent ${doc}\n  want ${want}\n  got  ${got}`);
  });
}
for (const [name, pairs] of Object.entries(rejects)) {
  const c = codec(name);
  for (const [doc, path] of c ? pairs : []) {
    checked += 1;
    try {
      const got = c.toJson(c.fromJson(doc));
      failures.push(`${name}: accepted ${doc} (as ${got}); want a WireError at ${path}`);
    } catch (err) {
      if (!(err instanceof pkg.WireError) || err.path !== path) {
        const got = `${err && err.name} at ${err && err.path}: ${err && err.message}`;
        failures.push(`${name}: sent ${doc}\n  want a WireError at ${path}\n  got  ${got}`);
      }
    }
  }
}
if (failures.length > 0) {
  console.log(failures.join("\n"));
  process.exit(1);
}
console.log(`${checked} documents checked`);
"""


def _run(args: list[str], cwd: Path, what: str) -> str:
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise AssertionError(f"{what} failed (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def ensure_toolchain() -> Path:
    """The pinned tsc, installed with npm ci when tests/typescript/package-lock.json changed.

    A lock file keeps two test processes from running npm ci at once."""
    lock = Path(tempfile.gettempdir()) / "toolnexus-typescript-install.lock"
    with lock.open("w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        _run(["bash", str(TS_TESTS / "run.sh"), "install"], TS_TESTS, "npm ci in tests/typescript")
    return TS_TESTS / "node_modules" / ".bin" / "tsc"


def build(package_dir: Path, work: Path) -> Path:
    """Copies `package_dir` (without node_modules, dist) to `work/package`, compiles it there with
    its own tsconfig and `--strict`, and returns the compiled `dist/index.js`."""
    tsc = ensure_toolchain()
    pkg = work / "package"
    shutil.copytree(package_dir, pkg, ignore=_SKIP)
    # The runtime's dependencies (package.json "dependencies") and the SDKs the adapters are typed
    # with ("peerDependencies"), as tests/typescript pins them.
    manifest = json.loads((pkg / "package.json").read_text(encoding="utf-8"))
    for dep in [*manifest.get("dependencies", {}), *manifest.get("peerDependencies", {})]:
        link = pkg / "node_modules" / dep
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(TS_TESTS / "node_modules" / dep, target_is_directory=True)
    _run([str(tsc), "-p", str(pkg / "tsconfig.json"), "--strict"], pkg, f"tsc --strict on {package_dir.name}")
    index = pkg / "dist" / "index.js"
    if not index.is_file():
        raise AssertionError(f"tsc wrote no {index.relative_to(work)}")
    return index


def run_node(script: str, *args: str, cwd: Path) -> str:
    """Runs `script` as an ES module (node --input-type=module) and returns its stdout."""
    return _run(["node", "--input-type=module", "-e", script, "--", *args], cwd, "node")


def check(
    index: Path,
    samples: dict[str, list[str]],
    *,
    rewrites: dict[str, list[tuple[str, str]]] | None = None,
    rejects: dict[str, list[tuple[str, str]]] | None = None,
) -> str:
    """Checks documents against the compiled package `index` (from `build`), per type name:
    every `samples` document re-emits byte for byte; every `rewrites` pair `(doc, want)`
    re-emits as `want`; every `rejects` pair `(doc, path)` throws a `WireError` at `path`."""
    checks = {"samples": samples, "rewrites": rewrites or {}, "rejects": rejects or {}}
    file = index.parent.parent.parent / "checks.json"
    file.write_text(json.dumps(checks, ensure_ascii=False), encoding="utf-8")
    return run_node(_CHECK, str(file), str(index), cwd=index.parent)


def build_and_roundtrip(package_dir: Path, samples: dict[str, list[str]]) -> None:
    """Compiles the package under `--strict` and round-trips `samples` ({type name: [JSON text]}).

    Raises AssertionError with the compiler's or node's output on failure."""
    with tempfile.TemporaryDirectory(prefix="toolnexus-ts-") as tmp:
        check(build(Path(package_dir), Path(tmp)), samples)
