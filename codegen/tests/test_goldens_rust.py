"""The Rust goldens build: each case's whole crate (support copies included), and the real
IDL's, compile and lint clean with every target, and re-emit their samples byte for byte."""

from __future__ import annotations

import os
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from codegen import rust_target
from codegen.common import assemble, support_files
from codegen.idl import load
from codegen.tests.lang_rust import ROOT, build_and_roundtrip, cargo_available
from codegen.tests.test_goldens import CASE_NAMES, CASES, samples

# Skipped where cargo is missing, except under CI=true, where such a test runs and fails.
needs_cargo = pytest.mark.skipif(
    not cargo_available() and os.environ.get("CI") != "true", reason="cargo is not installed"
)


@pytest.mark.slow
@needs_cargo
@pytest.mark.parametrize("case", CASE_NAMES)
def test_rust_golden_builds_and_round_trips(case: str, tmp_path: Path) -> None:
    crate = write_crate(CASES / case, tmp_path)
    build_and_roundtrip(crate, samples(CASES / case), INVALID.get(case))


# What each case's parser must reject, and where (samples.json holds only valid documents).
INVALID: dict[str, dict[str, list[tuple[str, str]]]] = {
    "all_required": {
        "Point": [
            ('{"x":1,"y":2,"label":"p","tags":[],"visible":true,"attrs":{},"z":0}', "$.z"),
            ('{"x":1,"y":2,"label":"p","tags":[],"visible":true}', "$"),
            ('{"x":1,"y":2,"label":"","tags":[],"visible":true,"attrs":{}}', "$.label"),
            ('{"x":"1","y":2,"label":"p","tags":[],"visible":true,"attrs":{}}', "$.x"),
        ]
    },
    "deep": {
        "Doc": [
            (
                '{"title":"T","sections":[{"heading":"H","paras":[{"spans":[],"grid":[[],[{"text":1}]]}]}]}',
                "$.sections[0].paras[0].grid[1][0].text",
            ),
            ('{"title":"T","lead":{"heading":"H"}}', "$.lead"),
            ('{"title":"T","lead":null}', "$.lead"),
        ],
        "Span": [('{"text":"a","style":"italic"}', "$.style")],
    },
    "enums": {
        "Light": [
            ('{"color":"blue"}', "$.color"),
            ('{"color":"red","mode":"off_line"}', "$.mode"),
            ('{"color":"red","cycle":["red","Red"]}', "$.cycle[1]"),
        ]
    },
    "minimal": {"Note": [('{"text":"a","author":""}', "$.author"), ('{"isPinned":true}', "$")]},
    "wire2": {
        "Piece": [
            ('{"type":"text","body":null}', "$.body"),
            ('{"type":"text"}', "$"),
            ('{"kind":"text","body":1}', "$"),
            ('{"type":"video","body":1}', "$.type"),
            ('{"type":"text","label":null,"body":1}', "$.label"),
        ],
        "Outcome": [
            ('{"summary":"s","result":null}', "$.result"),
            ('{"summary":"s","resultValue":1}', "$.resultValue"),
            ('{"summary":"s","note":null}', "$.note"),
            ('{"summary":"s","pieces":[{"type":"blob","body":null}]}', "$.pieces[0].body"),
        ],
    },
    "nested": {
        "Box": [('{"main":{"code":"a","size":"s"},"tags":[]}', "$.main.code")],
        "Item": [('{"code":"A","size":"s","count":1.5}', "$.count")],
    },
}


def write_crate(case: Path, dest: Path) -> Path:
    """The case's whole crate, as write_package(case, "rust", dest) writes it, from the Rust
    target alone (so a target being changed elsewhere cannot stop this test)."""
    idl = load(case / "idl")
    assemble(idl, rust_target.render(idl), dest)
    return dest / rust_target.CRATE


def _vectors() -> tuple[dict[str, list[str]], dict[str, list[tuple[str, str]]]]:
    """The valid vectors of idl/examples that are canonical themselves (no sidecar), and the
    invalid ones that are UTF-8, with the path of their error."""
    valid: dict[str, list[str]] = {}
    invalid: dict[str, list[tuple[str, str]]] = {}
    for path in sorted((ROOT / "idl" / "examples").glob("*/*/*.json")):
        type_name, kind = path.parent.parent.name, path.parent.name
        if kind == "valid" and not (path.parent.parent / "canonical" / path.name).exists():
            valid.setdefault(type_name, []).append(path.read_text(encoding="utf-8").removesuffix("\n"))
        elif kind == "invalid":
            try:
                doc = path.read_bytes().decode("utf-8")
            except UnicodeDecodeError:
                continue
            where = path.with_suffix(".path").read_text(encoding="utf-8").strip()
            invalid.setdefault(type_name, []).append((doc, where))
    return valid, invalid


@pytest.mark.slow
@needs_cargo
def test_the_real_crate_builds_and_round_trips(tmp_path: Path) -> None:
    crate = tmp_path / "rust"
    shutil.copytree(ROOT / "support" / "rust", crate, ignore=shutil.ignore_patterns("target", "Cargo.lock"))
    valid, invalid = _vectors()
    types = load(ROOT / "idl").types  # every wire type has vectors
    assert sorted(valid) == sorted(invalid) == sorted(t.name for t in types), (sorted(valid), sorted(invalid))
    build_and_roundtrip(crate, valid, invalid)


def test_the_crate_forces_no_serde_json_feature_and_pins_nothing() -> None:
    """Features are unified over a user's whole build, so serde_json's `preserve_order` and
    `arbitrary_precision` (which break f64s in a user's untagged and flattened types) are
    only behind the opt-in `lossless`; the one serde_json feature always on is
    `float_roundtrip`, which only makes float parsing exact. The runtime is a default
    feature, and every dependency of it is optional, so `default-features = false` leaves
    the wire types with their own. Requirements are caret, never `=` pins."""
    manifest = tomllib.loads(rust_target.render(load(ROOT / "idl"))["rust/Cargo.toml"])
    idl = load(ROOT / "idl")
    assert manifest["package"]["name"] == rust_target.PACKAGE_NAME == "toolnexus-contract"
    assert manifest["package"]["version"] == idl.version
    assert manifest["lib"]["name"] == "toolnexus"
    assert manifest["package"].get("publish", True) is True
    assert manifest["package"]["license"] == "MIT"
    assert manifest["features"]["default"] == ["runtime", "tokio"]
    assert manifest["features"]["lossless"] == ["serde_json/preserve_order", "serde_json/arbitrary_precision"]
    runtime_deps = {
        d.removeprefix("dep:")
        for feature in ("runtime", "tokio")
        for d in manifest["features"][feature]
        if d.startswith("dep:")
    }
    assert runtime_deps == {"fancy-regex", "hmac", "jsonschema", "serde_jcs", "sha2", "tokio"}
    for name, spec in manifest["dependencies"].items():
        dep = spec if isinstance(spec, dict) else {"version": spec}
        assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", dep["version"]), (name, dep)
        assert dep.get("optional", False) == (name in runtime_deps), (name, dep)
        if name == "serde_json":
            assert dep["features"] == ["float_roundtrip"], dep
    assert manifest["test"] and all(t["harness"] is False for t in manifest["test"])


def test_a_case_crate_gets_only_the_hand_written_modules_it_can_use() -> None:
    idl = load(CASES / "minimal" / "idl")
    files, modules = rust_target.render(idl), support_files(idl, "rust")
    assert "src/wire.rs" in modules
    assert not {"src/media.rs", "src/suspend.rs", "tests/seed_example_2.rs"} & set(modules)
    assert "getrandom" not in files["rust/Cargo.toml"] and "base64" not in files["rust/Cargo.toml"]
    assert "[[test]]" not in files["rust/Cargo.toml"]
    assert re.findall(r"^mod (\w+);", files["rust/src/lib.rs"], re.MULTILINE) == [
        "loop_data",
        "types",
        "wire",
    ]
    assert not {f"rust/{rel}" for rel in modules} & set(files)
