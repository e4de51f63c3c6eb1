"""Semver of the packages: a minor version of the schema adds a field, and users' code keeps
compiling. A scratch copy of the IDL gets an optional field at the end of every type and a
minor version (3.0.0 -> 3.1.0); `make breaking` grades it additive, and the user code in
tests/semver/ (a Rust crate, a TypeScript module) compiles against the packages generated
from both. A struct literal of a Rust wire type, which such a field would break, does not
compile at all (E0639); Python's additions are keyword arguments with defaults.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from codegen import breaking
from codegen.__main__ import render_all
from codegen.common import assemble
from codegen.idl import load

ROOT = Path(__file__).resolve().parents[2]
USERS = ROOT / "tests" / "semver"
TS_TESTS = ROOT / "tests" / "typescript"
#: The shared target folder of the generated crate (its dependencies are built once).
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "support" / "rust" / "target"))

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def next_version(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A checkout-like folder whose idl/ adds `addedLater` to every type, its generated/, and its
    packages under support/."""
    root = tmp_path_factory.mktemp("next")
    shutil.copytree(ROOT / "idl", root / "idl")
    manifest = json.loads((root / "idl" / "manifest.json").read_text(encoding="utf-8"))
    major, minor, _ = manifest["version"].split(".")
    manifest["version"] = f"{major}.{int(minor) + 1}.0"
    (root / "idl" / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    for name in manifest["types"]:
        path = root / "idl" / f"{name}.json"
        schema = json.loads(path.read_text(encoding="utf-8"))
        schema["properties"]["addedLater"] = {
            "description": "A field a minor version adds.",
            "type": "string",
        }
        path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    files = render_all(root)
    for rel, text in files.items():
        dest = root / "generated" / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text, encoding="utf-8")
    # Each package whole, as its tree in a checkout is: the generated half and the hand-written one.
    assemble(load(root / "idl"), files, root / "support")
    return root


def test_the_change_is_additive_and_a_minor_version(next_version: Path) -> None:
    old, new = load(ROOT / "idl"), load(next_version / "idl")
    changes = breaking.compare(old, new)
    assert {c.rule for c in changes} == {"added-field"}
    assert len(changes) == len(new.types)
    status, lines = breaking.run(old, new, "this version")
    assert status == 0 and lines[-1].endswith(
        "needs a minor version: " + f"{old.version} -> {new.version} is one"
    )


def _cargo(crate: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["cargo", *args, "--manifest-path", str(crate / "Cargo.toml")],
        env={**os.environ, "CARGO_TARGET_DIR": str(TARGET)},
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )


def _user_crate(tmp: Path, rust_package: Path) -> Path:
    crate = tmp / "semver-user"
    shutil.copytree(USERS / "rust", crate)
    # The versions the crate's own tests built: its dependencies are then found built in TARGET.
    shutil.copy(ROOT / "support" / "rust" / "Cargo.lock", crate / "Cargo.lock")
    manifest = crate / "Cargo.toml"
    text = manifest.read_text(encoding="utf-8")
    pinned = re.sub(r'path = "[^"]+"', f'path = "{rust_package}"', text, count=1)
    assert pinned != text
    manifest.write_text(pinned, encoding="utf-8")
    return crate


@pytest.mark.parametrize("version", ["this", "next"])
def test_a_rust_users_crate_compiles_and_runs(version: str, next_version: Path, tmp_path: Path) -> None:
    crate = _user_crate(tmp_path, (ROOT if version == "this" else next_version) / "support" / "rust")
    ran = _cargo(crate, "run", "--quiet")
    assert ran.returncode == 0, ran.stderr[-4000:]
    assert ran.stdout.startswith("ok: a chart error=false parts=2")


def test_a_struct_literal_of_a_wire_type_does_not_compile(tmp_path: Path) -> None:
    crate = _user_crate(tmp_path, ROOT / "support" / "rust")
    built = _cargo(crate, "build", "--example", "exhaustive_literal")
    assert built.returncode != 0
    assert "E0639" in built.stderr, built.stderr[-2000:]
    assert "non-exhaustive" in built.stderr


@pytest.mark.parametrize("version", ["this", "next"])
def test_a_typescript_users_module_compiles(version: str, next_version: Path, tmp_path: Path) -> None:
    tsc = TS_TESTS / "node_modules" / ".bin" / "tsc"
    if not tsc.exists():
        subprocess.run(["bash", str(TS_TESTS / "run.sh"), "install"], check=True)
    package = (ROOT if version == "this" else next_version) / "support" / "typescript" / "src"
    config = {
        "compilerOptions": {
            "strict": True,
            "noEmit": True,
            "target": "es2022",
            "module": "nodenext",
            "moduleResolution": "nodenext",
            "exactOptionalPropertyTypes": True,
            "noUncheckedIndexedAccess": True,
            "skipLibCheck": True,
            "types": ["node"],
            "typeRoots": [str(TS_TESTS / "node_modules" / "@types")],
            "paths": {"toolnexus-contract": [str(package / "index.ts")]},
        },
        "files": [str(USERS / "typescript" / "user.ts")],
    }
    (tmp_path / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    done = subprocess.run(
        [str(tsc), "-p", str(tmp_path / "tsconfig.json")], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout[-3000:]
    if version == "next":
        types = (package / "types.ts").read_text(encoding="utf-8")
        assert types.count("addedLater?: string") == len(load(ROOT / "idl").types)


def test_python_gains_keyword_arguments_with_defaults(next_version: Path) -> None:
    models = (next_version / "generated" / "python" / "toolnexus_wire" / "models.py").read_text(
        encoding="utf-8"
    )
    now = (ROOT / "generated" / "python" / "toolnexus_wire" / "models.py").read_text(encoding="utf-8")
    # The new parameter comes last in every constructor, with a default: positional calls
    # written for this version keep their meaning.
    signatures = re.findall(r"def __init__\(\n(.*?)\) -> None:", models, re.S)
    assert signatures and all(
        s.rstrip().rstrip(",").endswith("added_later: str | None = None") for s in signatures
    )
    assert len(re.findall(r"def __init__\(", now)) == len(signatures)
