"""Checking a generated Python package and sending wire documents through it.

`build_and_roundtrip(package_dir, samples, invalid)` is for any package the Python target
writes (the folder that holds `toolnexus_wire/`): a golden case's
(`test_goldens.write_package(case, "python", tmp)`), the real IDL's (`generated/python`),
or one from an edited copy of `idl/`. It never writes into the package: mypy runs without
its cache and the documents go to a subprocess on its command line. It runs
`mypy --strict` on `toolnexus_wire`, then imports the package in a fresh interpreter with
PYTHONPATH set to the folder (so the `toolnexus_wire` installed in the venv, if any, is not
the one tested) and checks `<Type>.from_json(doc).to_json() == doc` for every sample, and
that every invalid document raises `toolnexus_wire.WireError` at its JSON path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

__all__ = ["PACKAGE", "build_and_roundtrip", "mypy_strict", "roundtrip"]

PACKAGE = "toolnexus_wire"

# argv[1]: {"samples": {type: [doc]}, "invalid": {type: [[doc, path]]}}. Prints one line
# per failure and exits 1 when there is any.
_CHECK = r"""
import json, sys
import toolnexus_wire as w

checks = json.loads(sys.argv[1])
failures = []
checked = 0


def wrong(name, doc, path, got):
    failures.append(f"{name}: sent {doc}\n  want a WireError at {path}\n  got  {got}")


if not w.__file__.startswith(sys.argv[2]):
    failures.append(f"imported {w.__file__}, not the package under {sys.argv[2]}")
for name, docs in checks["samples"].items():
    cls = getattr(w, name, None)
    if cls is None:
        failures.append(f"{name}: toolnexus_wire exports no {name}")
        continue
    for doc in docs:
        checked += 1
        try:
            got = cls.from_json(doc).to_json()
        except Exception as exc:
            failures.append(f"{name}: {type(exc).__name__}: {exc}\n  sent {doc}")
            continue
        if got != doc:
            failures.append(f"{name}: re-emitted differently\n  sent {doc}\n  got  {got}")
for name, cases in checks["invalid"].items():
    cls = getattr(w, name, None)
    if cls is None:
        failures.append(f"{name}: toolnexus_wire exports no {name}")
        continue
    for doc, path in cases:
        checked += 1
        try:
            got = cls.from_json(doc).to_json()
        except w.WireError as exc:
            if exc.path != path:
                wrong(name, doc, path, f"one at {exc.path}: {exc}")
        except Exception as exc:
            wrong(name, doc, path, f"{type(exc).__name__}: {exc}")
        else:
            failures.append(f"{name}: accepted {doc} (as {got}); want a WireError at {path}")
if failures:
    print("\n".join(failures))
    sys.exit(1)
print(f"{checked} documents checked")
"""


def _env(package_dir: Path) -> dict[str, str]:
    # Only the package folder on the path: no stale PYTHONPATH entry may shadow it.
    return {**os.environ, "PYTHONPATH": str(package_dir), "PYTHONDONTWRITEBYTECODE": "1"}


def mypy_strict(package_dir: Path) -> None:
    """`mypy --strict` on `toolnexus_wire` under `package_dir` (no config file, no cache)."""
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--cache-dir=/dev/null",
            "--config-file=",
            PACKAGE,
        ],
        capture_output=True,
        text=True,
        cwd=package_dir,
        env=_env(package_dir),
    )
    if run.returncode != 0:
        where = package_dir / PACKAGE
        raise AssertionError(
            f"mypy --strict failed on {where} (exit {run.returncode}):\n{run.stdout}{run.stderr}"
        )


def roundtrip(
    package_dir: Path,
    samples: dict[str, list[str]],
    invalid: dict[str, list[tuple[str, str]]] | None = None,
) -> str:
    """Imports the package under `package_dir` in a fresh interpreter and checks the documents;
    returns its report line ("N documents checked")."""
    checks = {"samples": samples, "invalid": {k: [list(p) for p in v] for k, v in (invalid or {}).items()}}
    run = subprocess.run(
        [sys.executable, "-c", _CHECK, json.dumps(checks, ensure_ascii=False), str(package_dir)],
        capture_output=True,
        text=True,
        cwd=package_dir,
        env=_env(package_dir),
    )
    if run.returncode != 0:
        where = package_dir / PACKAGE
        raise AssertionError(
            f"round trip through {where} failed (exit {run.returncode}):\n{run.stdout}{run.stderr}"
        )
    return run.stdout.strip()


def build_and_roundtrip(
    package_dir: Path,
    samples: dict[str, list[str]],
    invalid: dict[str, list[tuple[str, str]]] | None = None,
) -> None:
    """Type-check the package at `package_dir` (the folder holding `toolnexus_wire/`) with
    `mypy --strict`, then parse and emit each document of `samples` (type name -> canonical
    documents) through it, and parse each of `invalid` (type name -> (document, JSON path of
    the error)) expecting a `WireError` there; raises AssertionError with the output when
    any step fails."""
    package_dir = Path(package_dir).resolve()
    assert (package_dir / PACKAGE / "__init__.py").is_file(), f"{package_dir} has no {PACKAGE}/__init__.py"
    mypy_strict(package_dir)
    roundtrip(package_dir, samples, invalid)
