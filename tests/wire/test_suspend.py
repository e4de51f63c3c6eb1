"""`pending`, `auth_required`, `pending_of` (DESIGN.md, suspension rules)."""

import json
import subprocess
import sys

import toolnexus_wire as wire

from toolnexus import Request, ToolResult, auth_required, pending, pending_of


def test_pending_is_an_error_whose_output_is_the_prompt_and_url():
    r = pending(Request(kind="authorization", prompt="Sign in", id="r1", url="https://x.test/a"))
    assert (r.is_error, r.output) == (True, "Sign in\nhttps://x.test/a")
    assert r.metadata == {
        "pending": {"id": "r1", "kind": "authorization", "prompt": "Sign in", "url": "https://x.test/a"}
    }


def test_an_empty_id_is_generated_and_a_given_one_kept():
    generated = pending_of(pending(Request(kind="approval", prompt="ok?")))
    assert generated is not None and generated.id.startswith("pnd-") and len(generated.id) == 36
    assert pending_of(pending(Request(kind="approval", prompt="ok?", id="mine"))).id == "mine"


def test_auth_required_uses_a_default_prompt_only_when_none_is_given():
    assert auth_required("https://x.test").output == "Authorization required to continue\nhttps://x.test"
    assert auth_required("https://x.test", "Log in to Drive").output == "Log in to Drive\nhttps://x.test"


def test_pending_of_reads_back_after_the_wire_and_ignores_other_results():
    r = pending(
        Request(
            kind="input",
            prompt="Name?",
            data={"schema": {"type": "string"}},
            expires_at="2030-01-01T00:00:00Z",
        )
    )
    back = pending_of(ToolResult.from_json(r.to_json()))
    assert back == pending_of(r)
    assert back.expires_at == "2030-01-01T00:00:00Z"
    assert pending_of(wire.ToolResult.from_json(r.to_json())) == back
    assert pending_of(ToolResult.error("boom")) is None
    assert pending_of(ToolResult.ok("x").with_metadata({"pending": "not a request"})) is None
    assert pending_of(ToolResult.ok("x").with_metadata({"other": 1})) is None


def test_ids_are_unique_across_processes():
    code = (
        "import json; from toolnexus import Request, pending, pending_of;"
        "print(json.dumps([pending_of(pending(Request(kind='a', prompt='p'))).id for _ in range(500)]))"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE) for _ in range(4)]
    ids = [i for p in procs for i in json.loads(p.communicate()[0])]
    assert len(ids) == 2000 and len(set(ids)) == 2000
