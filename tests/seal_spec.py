"""The seal of `docs/seal.md` (version 4), written again from the document alone, with nothing
of `toolnexus` but the wire models: the independent side the package is checked against, and
the writer of `idl/seal/vectors.json` (`python -m tests.seal_spec`), which every language runs.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import rfc8785

VECTORS = Path(__file__).resolve().parent.parent / "idl" / "seal" / "vectors.json"


def jcs(value: Any) -> bytes:
    return rfc8785.dumps(value)


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _mac(key: bytes, data: bytes) -> bytes:
    return hmac.new(key, data, hashlib.sha256).digest()


def seal(secret: bytes, key_id: str, run: dict[str, Any], expires: int | None, principal: str | None) -> str:
    """The version-4 seal of the pending run `run` (its wire form, without `seal`)."""
    results_key = _mac(secret, b"toolnexus.RunResult.seal.v4.results")
    waiting_key = _mac(secret, b"toolnexus.RunResult.seal.v4.waiting")
    principal_key = _mac(secret, b"toolnexus.RunResult.seal.v4.principal")
    order = run["order"]
    position = {call_id: i for i, call_id in enumerate(order)}

    def digest(element: Any) -> bytes:
        return hashlib.sha256(jcs(element)).digest()

    results_sum = 0
    for item in run.get("results", []):
        term = _mac(results_key, position[item["id"]].to_bytes(8, "big") + digest(item))
        results_sum = (results_sum + int.from_bytes(term, "big")) % 2**256
    waiting_sum = 0
    for call, request in zip(run["calls"], run["requests"], strict=True):
        term = _mac(waiting_key, position[call["id"]].to_bytes(8, "big") + digest(call) + digest(request))
        waiting_sum = (waiting_sum + int.from_bytes(term, "big")) % 2**256
    tag = "" if principal is None else _b64(_mac(principal_key, principal.encode("utf-8"))[:18])
    clear = f"{key_id}.{'' if expires is None else expires}.{tag}"
    turn = run.get("turn", "")
    body = b"".join(
        [
            b"toolnexus.RunResult.seal.v4\n",
            clear.encode("ascii"),
            b"\npending\n",
            digest(run["pending"]),
            hashlib.sha256(jcs([turn, order] if turn else order)).digest(),
            len(run.get("results", [])).to_bytes(8, "big"),
            results_sum.to_bytes(32, "big"),
            len(run["calls"]).to_bytes(8, "big"),
            waiting_sum.to_bytes(32, "big"),
        ]
    )
    return f"v4.hmac-sha256.{clear}.{_b64(_mac(secret, body))}"


# -- the vectors ---------------------------------------------------------------------------------

#: "key one, thirty-two bytes long!!" and "rotated-in-key-2026!", in hex.
K1 = "6b6579206f6e652c207468697274792d74776f206279746573206c6f6e672121"
K3 = "726f74617465642d696e2d6b65792d3230323621"

JCS = [
    {
        "name": "rfc8785-3.2.2",
        "json": '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],'
        '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",'
        '"literals":[null,true,false]}',
    },
    {
        "name": "rfc8785-sorting",
        "json": '{"\\u20ac":"Euro Sign","\\r":"Carriage Return",'
        '"\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\\ud83d\\ude00":"Emoji: Grinning Face",'
        '"\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}',
    },
    {"name": "floats", "json": "[1.0,100.0,1e16,1e21,1e-7,1.5e-5,-0.0,0.1,5e-324,1.7976931348623157e308]"},
    {"name": "integers", "json": "[0,-1,9007199254740991,-9007199254740991,123456789]"},
    {"name": "escapes", "json": '["\\u0000\\u001f\\u007f\\u2028\\b\\f\\n\\r\\t","é"]'},
    {"name": "nested-empty", "json": '{"b":{},"a":[[],{}],"":null}'},
]


def _request(rid: str, prompt: str, **more: Any) -> dict[str, Any]:
    return {"id": rid, "kind": "input", "prompt": prompt, **more}


def _base_run() -> dict[str, Any]:
    asked = _request("pnd-00000000000000000000000000000001", "Which colour?")
    approval = {
        "id": "apr-00000000000000000000000000000002",
        "kind": "approval",
        "prompt": "Allow wipe to run with these arguments?",
        "data": {"tool": "wipe", "arguments": {"path": "reports/old"}},
    }
    return {
        "status": "pending",
        "results": [{"id": "c1", "name": "hello", "result": {"output": "hello", "isError": False}}],
        "pending": asked,
        "calls": [
            {"id": "c2", "name": "ask_user", "arguments": {"q": 1}},
            {"id": "c3", "name": "wipe", "arguments": {"path": "reports/old"}},
        ],
        "requests": [asked, approval],
        "order": ["c1", "c2", "c3"],
        "turn": "turn-7",
    }


def _floats_run() -> dict[str, Any]:
    run = _base_run()
    run["results"][0]["result"] = {
        "output": "measured",
        "isError": False,
        "structuredContent": {"\ud83d\ude00": 1.0, "\ufb33": [100.0, 1e-7, 0.1]},
        "metadata": {"\u20ac": 1e21, "z": -0.0},
    }
    return run


def _no_turn_run() -> dict[str, Any]:
    run = _base_run()
    del run["turn"]
    return run


SEALS: list[dict[str, Any]] = [
    {"name": "two-waiting-one-done", "key": "k1", "run": _base_run(), "expires": None, "principal": None},
    {
        "name": "expiry-and-principal",
        "key": "k1",
        "run": _base_run(),
        "expires": 1893456000000,
        "principal": "user-42",
    },
    {"name": "floats-and-astral-keys", "key": "k1", "run": _floats_run(), "expires": None, "principal": None},
    {"name": "no-turn", "key": "k1", "run": _no_turn_run(), "expires": None, "principal": "tenant-\u00e9"},
    {"name": "rotated-key", "key": "k3", "run": _base_run(), "expires": None, "principal": None},
]


def _secrets() -> dict[str, bytes]:
    return {"k1": bytes.fromhex(K1), "k3": bytes.fromhex(K3)}


def build() -> dict[str, Any]:
    """The vectors, computed from the document."""
    secrets = _secrets()
    seals = []
    for case in SEALS:
        run = json.loads(json.dumps(case["run"]))
        run["seal"] = seal(secrets[case["key"]], case["key"], run, case["expires"], case["principal"])
        seals.append({**case, "run": run})
    base = seals[0]["run"]
    bound = seals[1]["run"]

    def altered(path: list[Any], value: Any, source: dict[str, Any] = base) -> dict[str, Any]:
        doc = json.loads(json.dumps(source))
        target = doc
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value
        return doc

    def no(name: str, run: dict[str, Any], reason: str, **more: Any) -> dict[str, Any]:
        return {"name": name, "run": run, "reason": reason, **more}

    expiry = bound["seal"].replace(".1893456000000.", ".1893456000001.")
    refused = [
        no("output-altered", altered(["results", 0, "result", "output"], "hello, Mallory"), "seal"),
        no("arguments-altered", altered(["calls", 1, "arguments"], {"path": "/"}), "seal"),
        no("turn-altered", altered(["turn"], "turn-8"), "seal"),
        no("order-altered", altered(["order"], ["c1", "c3", "c2"]), "seal"),
        no("unknown-key", altered(["seal"], base["seal"].replace(".k1.", ".k9.")), "seal"),
        no("mac-altered", altered(["seal"], base["seal"][:-4] + "AAAA"), "seal"),
        no("expiry-altered", altered(["seal"], expiry, bound), "seal"),
        no("expired", bound, "expired", now=1893456000000, principal="user-42"),
        no("other-principal", bound, "principal", now=1700000000000, principal="user-7"),
        no("no-principal", bound, "principal", now=1700000000000),
    ]
    # A run whose sealed float 1e21 is rewritten as an integer that rounds to the same double:
    # as text, since the literal is what differs (a reader of doubles sees the same number).
    floats = next(s["run"] for s in seals if s["name"] == "floats-and-astral-keys")
    rewritten = json.dumps(floats).replace("1e+21", "1000000000000000000001")
    assert rewritten != json.dumps(floats)
    refused.append({"name": "float-rewritten-as-wide-integer", "text": rewritten, "reason": "seal"})
    return {
        "description": "Seal version 4 (docs/seal.md): RFC 8785 canonical forms, seals of pending runs "
        "under the secrets given (hex), and runs every toolkit refuses, with the ResumeError reason (a run "
        "given as `text` is read from that JSON text, whose number literals matter). `now` is the toolkit's "
        "clock in ms (absent: 1700000000000).",
        "secrets": {"k1": K1, "k3": K3},
        "jcs": [{**case, "canonical": jcs(json.loads(case["json"])).decode("utf-8")} for case in JCS],
        "seals": [{k: s[k] for k in ("name", "key", "expires", "principal", "run")} for s in seals],
        "refused": refused,
    }


if __name__ == "__main__":
    VECTORS.parent.mkdir(parents=True, exist_ok=True)
    VECTORS.write_text(json.dumps(build(), indent=2, ensure_ascii=True) + "\n", encoding="utf-8")
    print(f"wrote {VECTORS}")
