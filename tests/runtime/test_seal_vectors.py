"""Seal version 4 against its document (`docs/seal.md`), through the vectors every language runs
(`idl/seal/vectors.json`): the package's canonical forms are RFC 8785's, it accepts the seals the
document gives and refuses what it says to refuse, and the seals it writes are the document's.
The document's side is `tests/seal_spec.py`, written from the document alone."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from tests import seal_spec
from toolnexus import Answer, ResumeError, RunResult, Toolkit
from toolnexus._seal import canonical

DOC = json.loads(seal_spec.VECTORS.read_text(encoding="utf-8"))
SECRETS = {k: bytes.fromhex(v) for k, v in DOC["secrets"].items()}


def test_the_vectors_are_the_documents() -> None:
    assert seal_spec.build() == DOC, "idl/seal/vectors.json is stale: python -m tests.seal_spec"


@pytest.mark.parametrize("case", DOC["jcs"], ids=[c["name"] for c in DOC["jcs"]])
def test_the_canonical_form_is_rfc_8785(case: dict[str, Any]) -> None:
    assert canonical(json.loads(case["json"])).decode("utf-8") == case["canonical"]


def _kit(active: str, now_ms: int = 1_700_000_000_000) -> Toolkit:
    when = datetime.fromtimestamp(now_ms / 1000, UTC)
    return Toolkit([], secrets=SECRETS, active_key=active, clock=lambda: when)


@pytest.mark.parametrize("case", DOC["seals"], ids=[c["name"] for c in DOC["seals"]])
async def test_a_documented_seal_is_accepted_and_the_run_it_returns_is_sealed_as_documented(
    case: dict[str, Any],
) -> None:
    run = RunResult.from_wire(case["run"])
    kit = _kit(case["key"])
    step = await kit.resume(run, Answer(run.requests[0].id, False), principal=case["principal"])
    assert step.status == "pending" and step.seal is not None and [c.id for c in step.calls] == ["c3"]
    wire = step.to_wire()
    del wire["seal"]
    key = case["key"]
    assert step.seal == seal_spec.seal(SECRETS[key], key, wire, case["expires"], case["principal"])


@pytest.mark.parametrize("case", DOC["refused"], ids=[c["name"] for c in DOC["refused"]])
async def test_what_the_document_refuses_is_refused(case: dict[str, Any]) -> None:
    run = RunResult.from_json(case["text"]) if "text" in case else RunResult.from_wire(case["run"])
    kit = _kit("k1", case.get("now", 1_700_000_000_000))
    with pytest.raises(ResumeError) as info:
        await kit.resume(run, Answer(run.requests[0].id, False), principal=case.get("principal"))
    assert info.value.reason == case["reason"]
