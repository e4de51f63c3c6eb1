"""The loop vectors (`idl/loop/*.json`, format in `idl/loop/README.md`): loading them, the
scripted tools they describe, and the checks of what each step gave. The hosts that run them
are in `tests/runtime/test_loop_vectors.py`."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from toolnexus_wire import ContentPart, dumps

from toolnexus import (
    Answer,
    Limit,
    Request,
    Tool,
    ToolCall,
    ToolCallResult,
    ToolContext,
    ToolResult,
    auth_required,
    define_tool,
    pending,
    read_result,
)

LOOP = Path(__file__).resolve().parent.parent / "idl" / "loop"
#: The instant a vector's turn runs (its steps' `at` counts from it).
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
SECRET = b"loop-vectors-host-key-0123456789"


def names() -> list[str]:
    return sorted(p.stem for p in LOOP.glob("*.json"))


def load(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((LOOP / f"{name}.json").read_text(encoding="utf-8"))
    return doc


def canonical(value: Any) -> str:
    return dumps(value, sort_keys=True)


_FIELD = re.compile(r"\{(name|args|data|arg:[^{}]+)\}")


def fill(template: str, tool: str, args: dict[str, Any], answer: Answer | None) -> str:
    """A behaviour's text with its placeholders filled (see the format)."""

    def one(match: re.Match[str]) -> str:
        field_ = match.group(1)
        if field_ == "name":
            return tool
        if field_ == "args":
            return canonical(args)
        if field_ == "data":
            return canonical(answer.data if answer is not None else None)
        value = args.get(field_[4:])
        return value if isinstance(value, str) else canonical(value)

    return _FIELD.sub(one, template)


def text_of(pieces: str | list[Any], tool: str, args: dict[str, Any], answer: Answer | None) -> str:
    """A behaviour's `return` or `raise`: a TEMPLATE, or a list of pieces joined, each a TEMPLATE
    or `{"repeat": TEMPLATE, "times": N, "start"?: S}` (`{i}` the repetition's number)."""
    if isinstance(pieces, str):
        return fill(pieces, tool, args, answer)
    out = []
    for piece in pieces:
        if isinstance(piece, str):
            out.append(fill(piece, tool, args, answer))
            continue
        template, start = fill(piece["repeat"], tool, args, answer), piece.get("start", 1)
        out.extend(template.replace("{i}", str(i)) for i in range(start, start + piece["times"]))
    return "".join(out)


def toolkit_options(vector: dict[str, Any], spill: Any) -> dict[str, Any]:
    """The `Toolkit` keywords of the vector's `toolkit` (its limit; `spill`, the host's, when it
    keeps results)."""
    options = vector.get("toolkit", {})
    keeps = options.get("spill") or options.get("readResult")
    return {"limit": Limit.of(options.get("limit")), "spill": spill() if keeps else None}


def keeps_results(vector: dict[str, Any]) -> bool:
    """Whether the vector's host keeps cut outputs (their references name the host's turn)."""
    options = vector.get("toolkit", {})
    return bool(options.get("spill") or options.get("readResult"))


def calls_of(vector: dict[str, Any], step: dict[str, Any]) -> list[ToolCall]:
    """The calls a `run` step runs: its own, or the file's."""
    return [ToolCall(c["id"], c["name"], c["arguments"]) for c in step.get("calls", vector["calls"])]


def definition_refused(vector: dict[str, Any]) -> bool:
    """For a vector with `refused`: checks that defining its tools and toolkit is refused with
    exactly that message, and returns True; False for any other vector."""
    if "refused" not in vector:
        return False
    try:
        Script(vector, lambda: EPOCH).tools()
        toolkit_options(vector, lambda: None)
    except ValueError as exc:
        assert str(exc) == vector["refused"], f"refused with {str(exc)!r}, expected {vector['refused']!r}"
        return True
    raise AssertionError(f"the definition was not refused (expected {vector['refused']!r})")


@dataclass
class Ran:
    """One handler run, as the scripted tool saw it."""

    id: str
    arguments: Any
    retry: bool
    data: Any
    key: str


@dataclass
class Clock:
    """The host's clock: the vector's epoch plus the seconds its steps moved it."""

    at: float = 0.0

    def __call__(self) -> datetime:
        return EPOCH + timedelta(seconds=self.at)


@dataclass
class Script:
    """The tools of one vector, recording every run of their handlers in `log`."""

    vector: dict[str, Any]
    clock: Callable[[], datetime]
    log: list[Ran] = field(default_factory=list)

    def tools(self) -> list[Tool]:
        tools = [self._tool(spec) for spec in self.vector["tools"]]
        return [*tools, read_result] if self.vector.get("toolkit", {}).get("readResult") else tools

    def _tool(self, spec: dict[str, Any]) -> Tool:
        name = spec["name"]
        if spec.get("external"):  # a person supplies its results: no handler
            return define_tool(name, spec.get("description", name), spec.get("schema"), None,
                               output_schema=spec.get("outputSchema"))  # fmt: skip

        async def handler(args: dict[str, Any], ctx: ToolContext) -> Any:
            answer = ctx.answer
            data = answer.data if answer is not None else None
            self.log.append(
                Ran(ctx.call_id, json.loads(canonical(args)), answer is not None, data, ctx.idempotency_key)
            )
            behaviour = spec["first"] if answer is None else spec.get("retry", spec["first"])
            return await self._behave(name, behaviour, args, answer)

        needs = spec.get("needsApproval", False)
        rule: Any = needs
        if isinstance(needs, dict):
            argument, above = needs["argument"], needs["above"]

            def rule(args: dict[str, Any]) -> bool:
                return bool(args[argument] > above)

        return define_tool(
            name, spec.get("description", name), spec.get("schema"), handler, needs_approval=rule,
            limit=Limit.of(spec.get("limit")),
        )  # fmt: skip

    async def _behave(self, name: str, b: dict[str, Any], args: dict[str, Any], answer: Answer | None) -> Any:
        if "sleep" in b:
            await asyncio.sleep(b["sleep"] / 1000)
        if "raise" in b:
            raise RuntimeError(text_of(b["raise"], name, args, answer))
        if "authorize" in b:
            return auth_required(b["authorize"])
        if "ask" in b:
            a = b["ask"]
            expires = a.get("expiresAt")
            if "expiresIn" in a:
                expires = (
                    (self.clock() + timedelta(seconds=a["expiresIn"])).isoformat().replace("+00:00", "Z")
                )
            return pending(
                Request(
                    kind=a["kind"],
                    prompt=fill(a["prompt"], name, args, answer),
                    id=a.get("id", ""),
                    url=a.get("url"),
                    data=a.get("data"),
                    expires_at=expires,
                )
            )
        if b["return"] is None:  # returns nothing
            return None
        text = text_of(b["return"], name, args, answer)
        if "parts" not in b and "structuredContent" not in b:
            return text
        parts = [ContentPart.from_wire(p) for p in b.get("parts", [])]
        return ToolResult(output=text, parts=parts, structured_content=b.get("structuredContent"))


@dataclass
class Outcome:
    """What a host's step gave: a refusal, or a run's results and waiting calls."""

    error: str | None = None
    status: str | None = None
    results: list[ToolCallResult] = field(default_factory=list)
    waiting: list[tuple[ToolCall, Request]] = field(default_factory=list)
    message: str = ""  # a refusal's text
    #: The form each waiting call's person is shown, by call id, when the host shows one itself
    #: (MCP's requestedSchema); absent: the engine's `approval_form` of the request.
    forms: dict[str, Any] | None = None


def answers_of(specs: list[dict[str, Any]], waiting: list[tuple[ToolCall, Request]]) -> list[Answer]:
    """The step's answers, each to the request its call waits on now, or to a literal id."""
    asked = {call.id: request.id for call, request in waiting}
    out = []
    for spec in specs:
        request_id = spec["id"] if "id" in spec else asked.get(spec["to"], f"(no request of {spec['to']})")
        out.append(
            Answer(
                request_id,
                spec["ok"],
                data=spec.get("data"),
                reason=spec.get("reason"),
                message=spec.get("message"),
                scope=spec.get("scope"),
            )
        )
    return out


class Log:
    """A decision log kept in memory (`Toolkit(decision_log=...)`), for `expect.decisions`."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []

    def record(self, decision: Any, *, principal: str | None, at: datetime) -> None:
        self.entries.append({**decision.to_wire(), "by": principal, "at": at.isoformat()})


def tampered(wire: dict[str, Any], edits: list[dict[str, Any]]) -> dict[str, Any]:
    """`wire` with each JSON pointer set to its value."""
    for edit in edits:
        *path, last = [p.replace("~1", "/").replace("~0", "~") for p in edit["at"].split("/")[1:]]
        target: Any = wire
        for part in path:
            target = target[int(part)] if isinstance(target, list) else target[part]
        if isinstance(target, list):
            target[int(last)] = edit["set"]
        else:
            target[last] = edit["set"]
    return wire


class Checker:
    """Checks each step's outcome against its `expect`, and the idempotency-key labels across
    the whole vector."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.labels: dict[str, str] = {}  # label -> key
        self.keys: dict[str, str] = {}  # key -> label

    def check(
        self,
        index: int,
        expect: dict[str, Any],
        got: Outcome,
        runs: list[Ran],
        *,
        metadata: bool = True,
        kinds: bool = True,
        decisions: list[dict[str, Any]] | None = None,
        policies: list[Any] | None = None,
    ) -> None:
        """`metadata`: check the `declined` markers; `kinds`: check what a host knows of a waiting
        request besides its prompt (its kind, url, data, id, and the call's arguments)."""
        where = f"{self.name} step {index}"
        if "error" in expect:
            assert got.error == expect["error"], (
                f"{where}: expected the refusal {expect['error']!r}, got {got}"
            )
            if "errorIncludes" in expect:
                assert expect["errorIncludes"] in got.message, f"{where}: refusal {got.message!r}"
        else:
            assert got.error is None, f"{where}: refused ({got.error}), expected {expect}"
        if "status" in expect:
            assert got.status == expect["status"], (
                f"{where}: status {got.status!r}, expected {expect['status']!r}"
            )
        if "results" in expect:
            self._results(where, expect["results"], got.results, metadata)
        if "waiting" in expect:
            self._waiting(where, expect["waiting"], got.waiting, kinds)
            self._forms(where, expect["waiting"], got)
        if "ran" in expect:
            self._ran(where, expect["ran"], runs)
        if "decisions" in expect and decisions is not None:
            self._decisions(where, expect["decisions"], decisions)
        if "policies" in expect and policies is not None:
            got_policies = [
                {"tool": p.tool, "approve": p.approve, "scope": p.scope, "key": p.key} for p in policies
            ]
            assert got_policies == expect["policies"], f"{where}: policies {got_policies}"

    @staticmethod
    def _decisions(where: str, expected: list[dict[str, Any]], got: list[dict[str, Any]]) -> None:
        shown = [{k: d.get(k) for k in ("kind", "call", "scope", "policy", "by")} for d in got]
        assert len(got) == len(expected), f"{where}: decisions {shown}"
        for e, d in zip(
            sorted(expected, key=lambda x: x["call"]), sorted(got, key=lambda x: x["call"]), strict=True
        ):
            for key, value in e.items():
                if key == "policy":
                    assert (d["policy"] is not None) == value, f"{where}: decision {d}"
                else:
                    assert d.get(key) == value, (
                        f"{where}: decision {key} {d.get(key)!r}, expected {value!r} ({d})"
                    )

    def _results(
        self, where: str, expected: list[dict[str, Any]], got: list[ToolCallResult], metadata: bool
    ) -> None:
        assert [r.id for r in got] == [e["id"] for e in expected], (
            f"{where}: result ids {[r.id for r in got]}"
        )
        for e, item in zip(expected, got, strict=True):
            r = item.result
            at = f"{where}: result of {item.id}"
            if "output" in e:
                assert r.output == e["output"], f"{at}: output {r.output!r}, expected {e['output']!r}"
            if "outputStartsWith" in e:
                assert r.output.startswith(e["outputStartsWith"]), f"{at}: output {r.output!r}"
            assert r.is_error == e["isError"], f"{at}: isError {r.is_error}"
            if "parts" in e:
                assert [p.to_wire() for p in r.parts] == e["parts"], f"{at}: parts {r.parts}"
            if "structuredContent" in e:
                assert r.structured_content == e["structuredContent"], f"{at}: {r.structured_content}"
            if metadata:
                truncated = (r.metadata or {}).get("truncated")
                assert truncated == e.get("truncated"), (
                    f"{at}: truncated {truncated}, expected {e.get('truncated')}"
                )
                marker = (r.metadata or {}).get("declined")
                if "declined" in e:
                    assert isinstance(marker, dict) and marker.get("reason") == e["declined"], (
                        f"{at}: {r.metadata}"
                    )
                    decider = marker.get("request") or marker.get("policy")  # an answer's, or a policy's
                    assert isinstance(decider, str) and decider, f"{at}: {marker}"
                    if "declinedMessage" in e:
                        assert marker.get("message") == e["declinedMessage"], f"{at}: {marker}"
                else:
                    assert marker is None, f"{at}: unexpected declined marker {marker}"

    def _waiting(
        self, where: str, expected: list[dict[str, Any]], got: list[tuple[ToolCall, Request]], kinds: bool
    ) -> None:
        assert [c.id for c, _ in got] == [e["id"] for e in expected], (
            f"{where}: waiting {[c.id for c, _ in got]}"
        )
        for e, (call, request) in zip(expected, got, strict=True):
            at = f"{where}: waiting {call.id}"
            shown = request.prompt
            if not kinds and e["kind"] == "approval":  # MCP shows an approval's arguments after its prompt
                shown = shown.split("\n", 1)[0]
            assert shown == e["prompt"], f"{at}: prompt {request.prompt!r}"
            if kinds:
                assert request.kind == e["kind"], f"{at}: kind {request.kind!r}"
                if "url" in e:
                    assert request.url == e["url"], f"{at}: url {request.url!r}"
                if "data" in e:
                    assert request.data == e["data"], f"{at}: data {request.data!r}"
                if "requestId" in e:
                    assert request.id == e["requestId"], f"{at}: id {request.id!r}"
                if e["kind"] == "approval" and "requestId" not in e:
                    assert request.data == {"tool": call.name, "arguments": call.arguments}, (
                        f"{at}: {request.data}"
                    )
                    assert request.id.startswith("apr-"), f"{at}: id {request.id!r}"
            if "arguments" in e and kinds:
                assert call.arguments == e["arguments"], f"{at}: arguments {call.arguments}"

    @staticmethod
    def _forms(where: str, expected: list[dict[str, Any]], got: Outcome) -> None:
        from toolnexus._engine import approval_form

        for e, (call, request) in zip(expected, got.waiting, strict=True):
            if "form" in e:
                form = approval_form(request) if got.forms is None else got.forms.get(call.id)
                assert form == e["form"], f"{where}: waiting {call.id}: form {form}"

    def _ran(self, where: str, expected: list[dict[str, Any]], runs: list[Ran]) -> None:
        def key(r: dict[str, Any]) -> str:
            return r["id"]

        got = sorted(runs, key=lambda r: r.id)  # stable: in order within a call
        want = sorted(expected, key=key)
        shown = [(r.id, r.arguments, r.retry, r.data) for r in got]
        assert [r.id for r in got] == [w["id"] for w in want], f"{where}: runs {shown}"
        for w, r in zip(want, got, strict=True):
            at = f"{where}: run of {r.id}"
            assert r.arguments == w["arguments"], f"{at}: arguments {r.arguments}"
            assert r.retry == w.get("retry", False), f"{at}: retry {r.retry}"
            if w.get("retry"):
                assert r.data == w.get("data"), f"{at}: data {r.data}"
            assert r.key, f"{at}: no idempotency key"
            label = w["key"]
            if label in self.labels:
                assert self.labels[label] == r.key, f"{at}: key {r.key} differs from {label}'s earlier key"
            else:
                assert r.key not in self.keys, (
                    f"{at}: key {r.key} is {self.keys.get(r.key)}'s too, not {label}'s"
                )
                self.labels[label] = r.key
                self.keys[r.key] = label
