"""A run suspended and sealed in one language resumes in another: Python and Rust, both ways.

Rust's side is the loop host (`tests/rust/loop`, the crate's `Toolkit` with its default
features): `run <vector>` runs a loop vector's first step with its scripted tools, `resume
<vector>` resumes a run given on stdin, `relay` reads a run and writes it back. Both sides seal
with the key `k1` of `tests/seal_spec.py` and script the vector's tools the same way
(`idl/loop/README.md`). For every vector whose second step answers the stored run:

- Python suspends, Rust resumes, and the other way round: the result, the waiting calls and
  the handler runs (with their idempotency keys) are those of the suspending language resuming
  its own run, and the run that comes back still verifies there;
- a run altered in storage is refused (`seal`) by the other language;
- a replayed answer is refused: again by the same toolkit (`replayed`), and given with the run
  that the first resume returned, in the other language (the answered call no longer waits);
- a sealed run read and written again by the crate, in either feature set, still verifies in
  Python, or is refused as holding a value that cannot be sealed exactly.

The decision vectors of one turn cross too (a refusal's message, decisions for the turn,
results a person supplies); those of several turns do not (their policies live in a host's
store, not in the run: each language plays them whole in its own host).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests import loop_vectors as lv
from tests import seal_spec
from tests.needs import missing
from toolnexus import Answer, ResumeError, RunResult, ToolCall, Toolkit

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
LOOP_HOST = REPO / "tests" / "rust" / "loop"
K1 = bytes.fromhex(seal_spec.K1)
EPOCH_MS = int(lv.EPOCH.timestamp() * 1000)


def _paired(name: str) -> bool:
    """Whether the vector's second step answers the run its first step left."""
    steps = lv.load(name)["steps"]
    return len(steps) > 1 and steps[1]["do"] == "resume" and "answers" in steps[1]


def _several_turns(name: str) -> bool:
    """Whether the vector runs more than one turn, or revokes a policy between them."""
    steps = lv.load(name)["steps"]
    return sum(s["do"] == "run" for s in steps) > 1 or any(s["do"] == "revoke" for s in steps)


PAIRED = [
    n
    for n in lv.names()
    if _paired(n) and "tamper" not in lv.load(n)["steps"][1] and not _several_turns(n)
]
ALTERED = [n for n in lv.names() if _paired(n) and "tamper" in lv.load(n)["steps"][1]]
#: The decision vectors of one turn (issue 25), each played across the languages above.
DECISIONS = [
    "decline-with-a-message",
    "decline-message-cut-at-1000",
    "question-declined-with-a-message",
    "message-on-an-approval-is-ignored",
    "decisions-are-logged",
    "approval-for-the-turn",
    "refusal-for-the-turn",
    "turn-scope-does-not-carry-an-edit",
    "turn-scope-leaves-other-tools",
    "result-supplied-by-a-person",
    "result-supplied-with-parts",
    "result-supplied-declined",
    "result-supplied-that-is-not-a-result",
    "result-supplied-checked-against-its-schema",
]


@pytest.fixture(scope="module")
def hosts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The loop host built with the crate's default features and with `lossless`."""
    if shutil.which("cargo") is None:
        missing("cargo is not installed")
    target = os.environ.get("CARGO_TARGET_DIR") or str(REPO / "support" / "rust" / "target")
    env = {**os.environ, "CARGO_TARGET_DIR": target}
    out = tmp_path_factory.mktemp("loop-host")
    built = {}
    for config, flags in (("default", []), ("lossless", ["--features", "lossless"])):
        subprocess.run(
            ["cargo", "build", "--quiet", "--manifest-path", str(LOOP_HOST / "Cargo.toml"), *flags],
            check=True,
            env=env,
        )
        built[config] = out / f"toolnexus-loop-host-{config}"
        shutil.copy2(Path(target) / "debug" / "toolnexus-loop-host", built[config])
    return built


def _host(binary: Path, *args: str, stdin: Any = None) -> list[dict[str, Any]]:
    done = subprocess.run(
        [str(binary), *args],
        input=None if stdin is None else json.dumps(stdin),
        capture_output=True,
        text=True,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


# -- Python's side -----------------------------------------------------------------------------


class PythonHost:
    """A Python toolkit of a vector's tools, on the vectors' clock, sealing with `k1`."""

    def __init__(self, vector: dict[str, Any], at: float = 0.0) -> None:
        self.vector = vector
        self.clock = lv.Clock(at)
        self.script = lv.Script(vector, self.clock)
        self.kit = Toolkit(self.script.tools(), secrets={"k1": K1}, clock=self.clock)

    def run(self) -> RunResult:
        turn = self.vector.get("turn", {})
        calls = [ToolCall(c["id"], c["name"], c["arguments"]) for c in self.vector["calls"]]
        return asyncio.run(
            self.kit.run_calls(
                calls,
                expires_in=turn.get("expiresIn"),
                principal=turn.get("principal"),
                turn_id=turn.get("id"),
            )
        )

    def resume(
        self, run: RunResult, answers: list[Answer], principal: str | None, session: str | None = None
    ) -> dict[str, Any]:
        """As the Rust host prints a resume: `{"run", "ran"}` or `{"error", "ran"}`."""
        before = len(self.script.log)
        try:
            nxt = asyncio.run(self.kit.resume(run, answers, principal=principal, session=session))
        except ResumeError as exc:
            return {"error": exc.reason, "ran": self.ran(before)}
        return {"run": nxt.to_wire(), "ran": self.ran(before)}

    def ran(self, before: int = 0) -> list[dict[str, Any]]:
        return [
            {"id": r.id, "arguments": r.arguments, "retry": r.retry, "data": r.data, "key": r.key}
            for r in self.script.log[before:]
        ]


def _now_ms(step: dict[str, Any]) -> int:
    return EPOCH_MS + round(step.get("at", 0) * 1000)


def _answers(step: dict[str, Any], run: RunResult) -> list[Answer]:
    return lv.answers_of(step["answers"], list(zip(run.calls, run.requests, strict=True)))


def _tampered(run: RunResult, step: dict[str, Any]) -> RunResult:
    return RunResult.from_wire(lv.tampered(json.loads(run.to_json()), step.get("tamper", [])))


#: What a JSON Schema validator's text (of arguments, of structured output) and a wire error
#: start with; each language words the rest its own way (`idl/loop/README.md`: such texts are
#: matched by their start).
_VALIDATOR_TEXT = re.compile(
    r"(invalid arguments for [^:]*: \$[^ ]*: "
    r"|the tool's output does not match its output schema: \$[^ ]*: "
    r"|the result supplied for [^ ]* is not a ToolResult: ).*",
    re.DOTALL,
)


def _worded(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`results` with a validator's or the wire's wording cut after the place it names."""
    out = json.loads(json.dumps(results))
    for item in out:
        found = _VALIDATOR_TEXT.fullmatch(item["result"]["output"])
        if found:
            item["result"]["output"] = found.group(1)
    return out


def _same_outcome(got: dict[str, Any], want: dict[str, Any]) -> None:
    """The same refusal, or the same results, waiting calls and handler runs (fresh request
    ids and seals aside: a retry may ask anew)."""
    assert got.get("error") == want.get("error"), (got, want)
    assert got["ran"] == want["ran"]
    if "run" not in want:
        return
    g, w = got["run"], want["run"]
    assert g["status"] == w["status"]
    assert _worded(g.get("results", [])) == _worded(w.get("results", []))
    assert g.get("calls", []) == w.get("calls", [])
    shown = [(r["kind"], r["prompt"]) for r in g.get("requests", [])]
    assert shown == [(r["kind"], r["prompt"]) for r in w.get("requests", [])]


def _verifies_in_python(vector: dict[str, Any], wire: dict[str, Any], step: dict[str, Any]) -> None:
    """A pending run the other language returned verifies here: its waiting calls refused, in
    one resume (refusals run no tool), the run settles."""
    run = RunResult.from_wire(wire)
    if run.status != "pending":
        return
    refusals = [Answer(r.id, False) for r in run.requests]
    got = PythonHost(vector, step.get("at", 0)).resume(run, refusals, step.get("principal"))
    assert "error" not in got, got
    assert got["ran"] == []


# -- the pairs ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PAIRED)
def test_a_run_python_suspends_resumes_in_rust_as_in_python(name: str, hosts: dict[str, Path]) -> None:
    vector = lv.load(name)
    step = vector["steps"][1]
    first = PythonHost(vector)
    run = first.run()
    stored = RunResult.from_json(run.to_json())
    answers = _answers(step, stored)
    want = PythonHost(vector, step.get("at", 0)).resume(
        stored, answers, step.get("principal"), step.get("session")
    )
    request = {
        "run": stored.to_wire(),
        "answers": [a.to_wire() for a in answers],
        "principal": step.get("principal"),
        "session": step.get("session"),
        "now": _now_ms(step),
    }
    [got] = _host(hosts["default"], "resume", name, stdin=request)
    _same_outcome(got, want)
    keys = {r["id"]: r["key"] for r in first.ran()}
    for ran in got["ran"]:  # a call keeps its key across the languages
        assert ran["key"] == keys.get(ran["id"], ran["key"])
    if "run" in got:
        _verifies_in_python(vector, got["run"], step)


@pytest.mark.parametrize("name", PAIRED)
def test_a_run_rust_suspends_resumes_in_python_as_in_rust(name: str, hosts: dict[str, Path]) -> None:
    vector = lv.load(name)
    step = vector["steps"][1]
    [made] = _host(hosts["default"], "run", name, "--now", str(EPOCH_MS))
    stored = RunResult.from_json(json.dumps(made["run"]))
    answers = _answers(step, stored)
    request = {
        "run": made["run"],
        "answers": [a.to_wire() for a in answers],
        "principal": step.get("principal"),
        "session": step.get("session"),
        "now": _now_ms(step),
    }
    [want] = _host(hosts["default"], "resume", name, stdin=request)
    want.pop("message", None)
    got = PythonHost(vector, step.get("at", 0)).resume(
        stored, answers, step.get("principal"), step.get("session")
    )
    _same_outcome(got, want)
    keys = {r["id"]: r["key"] for r in made["ran"]}
    for ran in got["ran"]:
        assert ran["key"] == keys.get(ran["id"], ran["key"])
    if "run" in want:  # and the run Rust returns verifies in Python
        _verifies_in_python(vector, want["run"], step)


@pytest.mark.parametrize("name", ALTERED)
def test_a_run_altered_in_storage_is_refused_by_the_other_language(name: str, hosts: dict[str, Path]) -> None:
    vector = lv.load(name)
    step = vector["steps"][1]
    assert step["expect"]["error"] == "seal"
    # Sealed in Python, altered, refused in Rust.
    run = PythonHost(vector).run()
    altered = _tampered(run, step)
    request = {
        "run": altered.to_wire(),
        "answers": [a.to_wire() for a in _answers(step, run)],
        "principal": step.get("principal"),
        "now": _now_ms(step),
    }
    [got] = _host(hosts["default"], "resume", name, stdin=request)
    assert (got["error"], got["ran"]) == ("seal", [])
    # Sealed in Rust, altered, refused in Python.
    [made] = _host(hosts["default"], "run", name, "--now", str(EPOCH_MS))
    rust_run = RunResult.from_wire(made["run"])
    got = PythonHost(vector).resume(
        _tampered(rust_run, step), _answers(step, rust_run), step.get("principal")
    )
    assert (got["error"], got["ran"]) == ("seal", [])


def test_the_decision_vectors_of_one_turn_cross_and_those_of_several_do_not() -> None:
    assert set(DECISIONS) <= set(PAIRED), set(DECISIONS) - set(PAIRED)
    several = {n for n in lv.names() if _several_turns(n)}
    assert len(several) >= 9 and not several & set(PAIRED)


def test_a_replayed_answer_is_refused_in_both_languages(hosts: dict[str, Path]) -> None:
    name = "answer-replayed-from-a-stored-copy"
    vector = lv.load(name)
    step = vector["steps"][1]
    # Rust: the same stored copy and answer twice to one toolkit; the second is a replay.
    run = PythonHost(vector).run()
    request = {
        "run": run.to_wire(),
        "answers": [a.to_wire() for a in _answers(step, run)],
        "principal": None,
        "now": EPOCH_MS,
    }
    first, again = _host(hosts["default"], "resume", name, stdin=[request, request])
    assert first["run"]["status"] == "pending" and len(first["ran"]) == 1
    assert (again["error"], again["ran"]) == ("replayed", [])
    # Python, given the run Rust returned and the answer again: that call no longer waits.
    answered = RunResult.from_wire(first["run"])
    got = PythonHost(vector).resume(answered, _answers(step, run), None)
    assert (got["error"], got["ran"]) == ("mismatch", [])
    # Rust, given the run Python returned and the answer again.
    python = PythonHost(vector)
    nxt = python.resume(RunResult.from_json(run.to_json()), _answers(step, run), None)
    assert nxt["run"]["status"] == "pending"
    request = {**request, "run": nxt["run"]}
    [got] = _host(hosts["default"], "resume", name, stdin=request)
    assert (got["error"], got["ran"]) == ("mismatch", [])
    # Python: the same stored copy twice to one toolkit.
    twice = PythonHost(vector)
    assert "run" in twice.resume(RunResult.from_json(run.to_json()), _answers(step, run), None)
    assert twice.resume(RunResult.from_json(run.to_json()), _answers(step, run), None)["error"] == "replayed"


# -- a run through the crate's JSON, in both feature sets --------------------------------------


def _floats_run() -> RunResult:
    """A pending run sealed by Python whose results hold floats serde_json's own parser reads
    an ulp off, metadata keys out of sorted order, and keys beyond the BMP."""
    vector = {
        "tools": [
            {
                "name": "measure",
                "first": {"return": "measured", "structuredContent": {"😀": 1.0, "דּ": [100.0, 1e-7]}},
            },
            {"name": "ask_user", "first": {"ask": {"kind": "input", "prompt": "Which colour?"}}},
        ],
        "calls": [],
    }
    host = PythonHost(vector)
    metadata = {"z": 0.30000000000000004, "a": 9.977421578902324e-10, "m": [429455817.44877523, 1e21, -0.0]}
    calls = [
        ToolCall("c1", "measure", {"at": 6.502079276608593e-09}),
        ToolCall("c2", "ask_user", {"q": 2.5e-7}),
    ]
    run = asyncio.run(host.kit.run_calls(calls, turn_id="turn-floats"))
    results = [r.model_copy(update={"result": r.result.with_metadata(metadata)}) for r in run.results]
    # Sealed again over the metadata, as the document says (tests/seal_spec.py).
    wire = {**run.to_wire(), "results": [r.to_wire() for r in results]}
    del wire["seal"]
    wire["seal"] = seal_spec.seal(K1, "k1", wire, None, None)
    return RunResult.from_wire(wire)


@pytest.mark.parametrize("config", ["default", "lossless"])
def test_a_sealed_run_read_and_written_again_by_the_crate_still_verifies(
    config: str, hosts: dict[str, Path]
) -> None:
    run = _floats_run()
    [relayed] = _host(hosts[config], "relay", stdin=run.to_wire())
    back = RunResult.from_wire(relayed)
    kit = Toolkit([], secrets={"k1": K1}, clock=lambda: datetime(2026, 1, 1, tzinfo=UTC))
    done = asyncio.run(kit.resume(back, Answer(back.requests[0].id, False)))
    assert done.status == "done"
    assert done.results[0].result.metadata == run.results[0].result.metadata


@pytest.mark.parametrize("config", ["default", "lossless"])
def test_a_run_holding_an_integer_no_seal_can_hold_is_refused_as_such(
    config: str, hosts: dict[str, Path]
) -> None:
    run = _floats_run()
    wire = run.to_wire()
    wire["calls"][0]["arguments"]["n"] = 2**60  # beyond ±2**53: RFC 8785 has no exact form for it
    request = {"run": wire, "answers": [{"id": run.requests[0].id, "ok": False}], "principal": None}
    [got] = _host(hosts[config], "resume", "text-result", stdin=request)
    assert got["error"] == "seal"
    assert "cannot be sealed exactly" in got["message"] and "2**53" in got["message"]
