"""The TypeScript goldens build: each case's whole package (support copies included, as
`make gen` writes it, but rendered by the TypeScript target alone, so that a failure of another
target does not fail these tests) compiles with the pinned tsc under `--strict`, and every document of the
case's samples.json parses and re-emits byte for byte through the compiled package. A few
documents per case pin what the case is about: defaults written, empty optional arrays
omitted, and where the parsers reject (the WireError path)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codegen import typescript_target
from codegen.common import assemble, support_files
from codegen.idl import load
from codegen.tests.lang_typescript import ROOT, build, build_and_roundtrip, check, run_node
from codegen.tests.test_goldens import CASE_NAMES, CASES, samples

# Per case, per type: (sent, re-emitted) pairs that are not already canonical.
REWRITES: dict[str, dict[str, list[tuple[str, str]]]] = {
    "minimal": {"Note": [('{"text":"a"}', '{"text":"a","isPinned":false}')]},
    "nested": {
        "Box": [
            (
                '{"main":{"code":"A","size":"s"},"items":[],"tags":[]}',
                '{"main":{"code":"A","size":"s"},"tags":[]}',
            )
        ]
    },
    "deep": {"Doc": [('{"title":"T","sections":[]}', '{"title":"T"}')]},
    "wire2": {
        "Piece": [
            ('{"body":1,"label":"","type":"text"}', '{"type":"text","body":1}'),
            ('{"type":"blob","body":[],"label":"x"}', '{"type":"blob","label":"x","body":[]}'),
        ],
        "Outcome": [('{"summary":"s","pieces":[],"note":""}', '{"summary":"s"}')],
    },
}
# Per case, per type: (document, the path of the WireError it raises).
REJECTS: dict[str, dict[str, list[tuple[str, str]]]] = {
    "minimal": {"Note": [('{"text":"a","author":""}', "$.author"), ('{"isPinned":true}', "$")]},
    "nested": {
        "Box": [
            ('{"main":{"code":"a","size":"s"},"tags":[]}', "$.main.code"),
            ('{"main":{"code":"A","size":"s"},"tags":[1]}', "$.tags[0]"),
            ('{"main":{"code":"A","size":"s","count":1.5},"tags":[]}', "$.main.count"),
        ]
    },
    "deep": {
        "Doc": [
            (
                '{"title":"T","sections":[{"heading":"H","paras":[{"spans":[],"grid":[[{"text":1}]]}]}]}',
                "$.sections[0].paras[0].grid[0][0].text",
            ),
            ('{"title":"T","lead":{"heading":"H"}}', "$.lead"),
        ]
    },
    "enums": {
        "Light": [
            ('{"color":"blue"}', "$.color"),
            ('{"color":"red","mode":"offline"}', "$.mode"),
            ('{"color":"red","cycle":["red","off"]}', "$.cycle[1]"),
        ]
    },
    "wire2": {
        "Piece": [
            ('{"type":"text","body":null}', "$.body"),
            ('{"type":"text"}', "$"),
            ('{"kind":"text","body":1}', "$"),
            ('{"type":"video","body":1}', "$.type"),
            ('{"type":"text","label":null,"body":1}', "$.label"),
            ('{"type":"text","label":1,"body":1}', "$.label"),
        ],
        "Outcome": [
            ('{"summary":"s","result":null}', "$.result"),
            ('{"summary":"s","resultValue":1}', "$"),
            ('{"summary":"s","note":null}', "$.note"),
            ('{"summary":"s","pieces":[{"type":"blob","body":null}]}', "$.pieces[0].body"),
        ],
    },
    "all_required": {
        "Point": [
            ('{"x":1,"y":2,"label":"p","tags":[],"visible":true,"attrs":{},"z":0}', "$"),
            ('{"x":1,"y":2,"label":"p","tags":[],"visible":true}', "$"),
            ('{"x":1,"y":2,"label":"","tags":[],"visible":true,"attrs":{}}', "$.label"),
        ]
    },
}


def test_every_case_has_pinned_documents() -> None:
    assert set(REWRITES) | set(REJECTS) <= set(CASE_NAMES)
    assert set(REJECTS) == set(CASE_NAMES)


def write_typescript_package(case: Path, dest: Path) -> Path:
    """`test_goldens.write_package(case, "typescript", dest)`, with the TypeScript target only."""
    idl = load(case / "idl")
    assemble(idl, typescript_target.render(idl), dest)
    return dest / "typescript"


def test_a_package_has_the_hand_written_modules_its_idl_has_what_they_require_for() -> None:
    """suspend.ts (`requires Request, ToolResult`) is in the real package and exported by index.ts;
    a case without those types gets the other hand-written modules only, and no export of it.
    Nothing hand-written is in what the generator writes."""
    real_idl, case_idl = load(ROOT / "idl"), load(CASES / "minimal" / "idl")
    real, case = support_files(real_idl, "typescript"), support_files(case_idl, "typescript")
    core = {"src/errors.ts", "src/json.ts", "src/check.ts"}
    assert core | {"src/suspend.ts"} <= set(real)
    assert core <= set(case) and "src/suspend.ts" not in case
    generated_real = typescript_target.render(real_idl)
    generated_case = typescript_target.render(case_idl)
    assert '"./suspend.js"' in generated_real["typescript/src/index.ts"]
    assert '"./suspend.js"' not in generated_case["typescript/src/index.ts"]
    assert not {f"typescript/{rel}" for rel in real} & set(generated_real)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASE_NAMES)
def test_typescript_golden_builds_and_round_trips(case: str, tmp_path: Path) -> None:
    pkg = write_typescript_package(CASES / case, tmp_path / "out")
    index = build(pkg, tmp_path)
    check(index, samples(CASES / case), rewrites=REWRITES.get(case), rejects=REJECTS.get(case))


# Canonical documents of the real IDL (keys in schema order, compact, empty arrays omitted).
REAL = {
    "ToolResult": [
        '{"output":"4","isError":false}',
        '{"output":"Delete 3 files?","isError":true,'
        '"metadata":{"pending":{"id":"pnd-1","kind":"approval","prompt":"Delete 3 files?"}}}',
        '{"output":"","isError":false,"parts":[{"type":"image","mimeType":"image/png","data":"AA=="},'
        '{"type":"text","text":"t"}],"structuredContent":{"t":[1.0]},"metadata":{"n":1.0,"x":[9007199254740993]},'
        '"later":true}',
    ],
    "Request": ['{"id":"pnd-2","kind":"authorization","prompt":"Sign in","url":"https://example.com/a"}'],
    "Answer": ['{"id":"pnd-2","ok":false,"reason":"declined"}'],
    "RunResult": ['{"status":"done","results":[]}'],
}


@pytest.mark.slow
def test_the_real_package_builds_and_round_trips() -> None:
    """build_and_roundtrip on the package itself (support/typescript, its generated half linked
    in), which it leaves unwritten."""
    build_and_roundtrip(ROOT / "support" / "typescript", REAL)


# A type that refers to itself nests as deep as the data does: the parsers and emitters refuse
# past MAX_DEPTH levels with a WireError (issue #12), never a RangeError, also for a cycle.
_RECURSIVE_NODE = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Node",
    "description": "A tree node.",
    "type": "object",
    "properties": {
        "name": {"description": "The name.", "type": "string"},
        "children": {
            "description": "The children.",
            "type": "array",
            "items": {"$ref": "Node.json"},
            "default": [],
        },
        "next": {"description": "The next node.", "$ref": "Node.json"},
    },
    "required": ["name"],
    "additionalProperties": True,
}

_RECURSIVE_CHECK = r"""
import { pathToFileURL } from "node:url";
const pkg = await import(pathToFileURL(process.argv[1]).href);
const out = [];
const what = (fn) => {
  try { fn(); return "ok"; }
  catch (e) {
    if (!(e instanceof pkg.WireError)) return `${e.constructor.name}: ${e.message}`;
    return `WireError ${e.path.slice(0, 12)} (${e.path.split(/[.[]/).length - 1} steps)`;
  }
};
// n nodes, each the only child (or the next) of the one above
const chain = (n, key) => {
  let node = { name: "n" };
  for (let i = 1; i < n; i++) {
    node = key === "next" ? { name: "n", next: node } : { name: "n", children: [node] };
  }
  return node;
};
for (let i = 0; i < 2000; i++) pkg.toJsonNode(pkg.fromJsonNode(JSON.stringify(chain(20, "next"))));
out.push(["next 100", what(() => pkg.toJsonNode(pkg.fromJsonNode(JSON.stringify(chain(100, "next")))))]);
out.push(["next 101 text", what(() => pkg.fromJsonNode(JSON.stringify(chain(101, "next"))))]);
out.push(["next 101 value", what(() => pkg.parseNode(chain(101, "next")))]);
out.push(["children 50 value", what(() => pkg.parseNode(chain(50, "children")))]);
out.push(["children 51 value", what(() => pkg.parseNode(chain(51, "children")))]);
out.push(["next 20000 value", what(() => pkg.parseNode(chain(20000, "next")))]);
out.push(["children 20000 emit", what(() => pkg.toJsonNode(chain(20000, "children")))]);
const cyc = { name: "c" }; cyc.next = cyc;
out.push(["cycle parse", what(() => pkg.parseNode(cyc))]);
out.push(["cycle emit", what(() => pkg.toJsonNode(cyc))]);
process.stdout.write(JSON.stringify(out));
"""


@pytest.mark.slow
def test_a_type_that_refers_to_itself_nests_at_most_max_depth_levels(tmp_path: Path) -> None:
    idl = tmp_path / "idl"
    idl.mkdir()
    (idl / "manifest.json").write_text(
        json.dumps({"name": "rec", "version": "0.1.0", "description": "A tree.", "types": ["Node"]}),
        encoding="utf-8",
    )
    (idl / "Node.json").write_text(json.dumps(_RECURSIVE_NODE), encoding="utf-8")
    pkg = write_typescript_package(idl.parent, tmp_path / "out")
    index = build(pkg, tmp_path)
    got = json.loads(run_node(_RECURSIVE_CHECK, str(index), cwd=tmp_path))
    assert got == [
        ["next 100", "ok"],
        ["next 101 text", "WireError $ (0 steps)"],
        ["next 101 value", "WireError $.next.next. (100 steps)"],
        ["children 50 value", "ok"],  # 99 levels: each node but the first is two levels down
        ["children 51 value", "WireError $.children[0 (100 steps)"],
        ["next 20000 value", "WireError $.next.next. (100 steps)"],
        ["children 20000 emit", "WireError $.children[0 (100 steps)"],
        ["cycle parse", "WireError $.next.next. (100 steps)"],
        ["cycle emit", "WireError $.next.next. (100 steps)"],
    ]
