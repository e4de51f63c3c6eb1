"""The cross-language differential fuzzer (tests/fuzz): seeded slices through Python, TypeScript
and Rust must agree on every verdict and on the emitted bytes, with no error other than each
language's wire error; and the fuzzer's own parts (generator, comparer, crash narrowing)."""

from __future__ import annotations

import sys
import textwrap

import pytest

from tests import fuzz
from tests.fuzz.compare import Report, judge
from tests.fuzz.drivers import Outcome, _CliBatch, write_folder
from tests.fuzz.generate import CLASSES, Doc, documents, generate, types


def _assert_clean(report: Report) -> None:
    assert report.docs > 0
    if not report.ok:
        pytest.fail("\n" + report.text(show=10), pytrace=False)


def test_fuzz_small_slice():
    """About 200 documents: quick enough for `make test-fast`."""
    _assert_clean(fuzz.run(seed=20250612, count=200))


@pytest.mark.slow
def test_fuzz_slice():
    """About 2,000 documents of another seed."""
    _assert_clean(fuzz.run(seed=12, count=2000))


def test_generator_is_deterministic_per_document():
    a = [(d.type_name, d.cls, d.variant, d.raw) for d in documents(3, 60)]
    b = [(d.type_name, d.cls, d.variant, d.raw) for d in documents(3, 60)]
    assert a == b
    # document i depends on (seed, i) only: made alone, or as part of a later slice
    assert generate(3, 41).raw == a[41][3]
    assert [d.raw for d in documents(3, 10, start=50)] == [x[3] for x in a[50:60]]
    assert [d.raw for d in documents(4, 60)] != [x[3] for x in a]


def test_generator_covers_every_type_and_class():
    docs = list(documents(1, 600))
    assert {d.type_name for d in docs} == set(types())
    assert {d.cls for d in docs} == set(CLASSES)


def _doc(raw: bytes = b'{"output":"x"}', index: int = 0) -> Doc:
    return Doc(index, "ToolResult", "test", "v", raw)


def test_judge_classes():
    acc = Outcome("accept", emitted='{"output":"x","isError":false}')
    rej = Outcome("reject", error="no", path="$")
    esc = Outcome("escaped", error="TypeError: boom")
    doc = _doc()
    v = judge(doc, {"python": acc, "typescript": acc, "rust": acc})
    assert not v.failures and v.agreed == "accept" and v.compared
    v = judge(doc, {"python": rej, "typescript": acc, "rust": rej})
    assert [(f.kind, f.language) for f in v.failures] == [("verdict", "typescript")]
    other = Outcome("accept", emitted='{"isError":false,"output":"x"}')
    v = judge(doc, {"python": acc, "typescript": acc, "rust": other})
    assert [(f.kind, f.language) for f in v.failures] == [("bytes", "rust")]
    v = judge(doc, {"python": esc, "typescript": rej, "rust": rej})
    assert [(f.kind, f.language) for f in v.failures] == [("escaped", "python")]
    # numbers in any form: the bytes are compared too (the number rule, R6)
    v = judge(_doc(b'{"output":"x","m":1e5}'), {"python": acc, "typescript": acc, "rust": other})
    assert [(f.kind, f.language) for f in v.failures] == [("bytes", "rust")] and v.compared
    # a repeated key (R7): refused by all is agreement; accepted by all, or split, fails
    repeated = _doc(b'{"output":"x","m":1,"m":2}')
    v = judge(repeated, {"python": rej, "typescript": rej, "rust": rej})
    assert not v.failures and v.agreed == "reject" and v.repeats_a_key
    v = judge(repeated, {"python": acc, "typescript": acc, "rust": acc})
    assert [(f.kind, f.language) for f in v.failures] == [("verdict", "all")] and not v.compared
    v = judge(repeated, {"python": acc, "typescript": rej, "rust": acc})
    assert [(f.kind, f.language) for f in v.failures] == [("verdict", "typescript")]


FAKE_CLI = textwrap.dedent(
    """
    # A stand-in conformance CLI: answers every file like the real ones, but a file holding
    # CRASH kills it: with nothing printed (mode "all", like node's uncaught exception), or
    # after the lines so far (mode "ordered", like a Rust panic).
    import json, os, sys
    from pathlib import Path
    mode, root = sys.argv[1], Path(sys.argv[2])
    out = []
    for f in sorted(root.glob("*/valid/*.json")):
        name = f.relative_to(root).as_posix()
        if b"CRASH" in f.read_bytes():
            if mode == "ordered":
                sys.stdout.write("".join(out)); sys.stdout.flush()
            sys.stderr.write("boom on " + name)
            os._exit(134)
        out.append(json.dumps({"vector": name, "ok": True, "emitted": f.read_text()}) + "\\n")
    sys.stdout.write("".join(out))
    """
)


@pytest.mark.parametrize("mode", ["all", "ordered"])
def test_a_crash_is_narrowed_down_to_its_document(tmp_path, mode):
    script = tmp_path / "fake_cli.py"
    script.write_text(FAKE_CLI)
    docs = [_doc(b'{"output":"CRASH"}' if i in (3, 17, 18) else b'{"output":"%d"}' % i, i) for i in range(40)]
    folder = tmp_path / "batch"
    write_folder(docs, folder)
    cli = _CliBatch("fake", [sys.executable, str(script), mode], tmp_path)
    got = cli.finish(cli.start(folder), docs)
    assert sorted(got) == list(range(40))
    escaped = sorted(i for i, o in got.items() if o.kind == "escaped")
    assert escaped == [3, 17, 18]
    assert "boom on" in got[3].error and "exit status 134" in got[3].error
    assert all(got[i].emitted == f'{{"output":"{i}"}}' for i in range(40) if i not in escaped)
