"""The Python runtime findings of issue #12, "nothing but a wire error escapes".

Each test states the documented behaviour (docs/limits.md, the rules of `call` and the loop
rule in DESIGN.md) for one finding, with the reproducer's input.
"""

from __future__ import annotations

import asyncio
import cProfile
import itertools
import json
import math
import os
import pstats
import random
import re
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
import toolnexus_wire
from pydantic import BaseModel, ConfigDict

from toolnexus import (
    Answer,
    ContentPart,
    Request,
    ResumeError,
    RunResult,
    ToolCall,
    ToolCallResult,
    ToolContext,
    ToolResult,
    WireError,
    define_tool,
    pending,
)
from toolnexus._toolkit import Toolkit
from toolnexus.adapters import (
    anthropic_tool_result,
    from_mcp_call_tool_result,
    mcp_call_tool_result,
    openai_chat_messages,
)

SECRET = b"k" * 32


async def _ok(args: dict[str, Any], ctx: ToolContext) -> str:
    return "ok"


def _nested(depth: int) -> dict[str, Any]:
    """What a model could send against a recursive schema: {"child": {"child": ... {"oops": 1}}}."""
    value: dict[str, Any] = {"oops": 1}
    for _ in range(depth):
        value = {"child": value}
    return value


# -- a recursive schema and arguments nested past the recursion limit -----------------------------

RECURSIVE = {"type": "object", "properties": {"child": {"$ref": "#"}}, "additionalProperties": False}


@pytest.mark.parametrize("depth", [300, 5000])
async def test_arguments_nested_past_the_recursion_limit_are_an_error_result(depth: int) -> None:
    tree = define_tool("tree", "walks a tree", RECURSIVE, _ok)
    result = await tree.call(_nested(depth))
    assert result.is_error
    assert result.output.startswith("invalid arguments for tree: ")
    assert "nested too deeply" in result.output
    run = await Toolkit([tree]).run_calls([ToolCall("c1", "tree", _nested(depth))])
    assert run.status == "done" and run.results[0].result == result


async def test_arguments_nested_past_the_limit_without_a_schema_are_an_error_result() -> None:
    value: Any = {}
    for _ in range(5000):
        value = {"a": value}
    result = await define_tool("t", "", None, _ok).call(value)
    assert result.is_error and "nested too deeply" in result.output


# -- what crosses `call`: cancellation and interpreter exits, nothing else ---------------------------


class _Handle:
    pass


class _Report(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)
    handle: _Handle


class _LazyDict(dict[str, Any]):
    def items(self) -> Any:
        raise KeyError("backing store gone")


class _LazyList(list[Any]):
    def __iter__(self) -> Any:
        raise LookupError("backing store gone")


class _ToolAbort(BaseException):  # a library's own BaseException, not an interpreter exit
    pass


def _edited_result() -> Any:
    r = toolnexus_wire.ToolResult(output="x")  # the generated model, as another package returns it
    r.output = 42  # type: ignore[assignment]
    return r


ESCAPED = [
    ("a pydantic model that cannot serialize", lambda: _Report(handle=_Handle())),
    ("a dict subclass whose items() raises KeyError", lambda: _LazyDict(a=1)),
    ("a list subclass whose iteration raises LookupError", lambda: _LazyList([1])),
    ("a generated ToolResult given an invalid value", _edited_result),
]
RAISED: list[tuple[str, BaseException]] = [
    ("a custom BaseException subclass", _ToolAbort("stop")),
    ("GeneratorExit", GeneratorExit()),
    ("a BaseExceptionGroup", BaseExceptionGroup("two stopped", [_ToolAbort("a"), GeneratorExit()])),
    ("an ExceptionGroup", ExceptionGroup("two failed", [ValueError("a"), KeyError("b")])),
]


def _both(body: Any) -> list[Any]:
    async def async_handler(args: dict[str, Any], ctx: ToolContext) -> Any:
        return body()

    def sync_handler(args: dict[str, Any], ctx: ToolContext) -> Any:
        return body()

    return [async_handler, sync_handler]


def _raising(exc: BaseException) -> Any:
    def body() -> Any:
        raise exc

    return body


@pytest.mark.parametrize("sync", [False, True], ids=["async", "sync"])
@pytest.mark.parametrize(("case", "body"), ESCAPED, ids=[c for c, _ in ESCAPED])
async def test_a_value_that_fails_to_become_a_result_is_an_error_result(
    case: str, body: Any, sync: bool
) -> None:
    result = await define_tool("t", "", None, _both(body)[sync]).call({})
    assert isinstance(result, ToolResult) and result.is_error and result.output


@pytest.mark.parametrize("sync", [False, True], ids=["async", "sync"])
@pytest.mark.parametrize(("case", "exc"), RAISED, ids=[c for c, _ in RAISED])
async def test_every_other_exception_becomes_an_error_result(
    case: str, exc: BaseException, sync: bool
) -> None:
    result = await define_tool("t", "", None, _both(_raising(exc))[sync]).call({})
    assert isinstance(result, ToolResult) and result.is_error
    assert result.output == (str(exc) or type(exc).__name__)


CROSSING: list[tuple[str, BaseException]] = [
    ("CancelledError", asyncio.CancelledError()),
    ("KeyboardInterrupt", KeyboardInterrupt()),
    ("SystemExit", SystemExit(3)),
    ("a group holding KeyboardInterrupt", BaseExceptionGroup("g", [ValueError("a"), KeyboardInterrupt()])),
    ("a group holding CancelledError", BaseExceptionGroup("g", [asyncio.CancelledError()])),
]


@pytest.mark.parametrize(("case", "exc"), CROSSING, ids=[c for c, _ in CROSSING])
async def test_cancellation_and_interpreter_exits_cross_call(case: str, exc: BaseException) -> None:
    with pytest.raises(type(exc)):
        await define_tool("t", "", None, _both(_raising(exc))[0]).call({})


# -- a wire model other than ToolResult never leaks metadata -------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda inner: ToolCallResult("inner-1", "query", inner),
        lambda inner: RunResult("done", [ToolCallResult("inner-1", "query", inner)]),
    ],
    ids=["ToolCallResult", "RunResult"],
)
async def test_a_returned_wire_model_never_sends_its_metadata_to_the_model(make: Any) -> None:
    secret = "internal-db-password-123"
    inner = ToolResult.ok("42 rows").with_metadata({"dsn": f"postgres://admin:{secret}@db"})

    async def delegate(args: dict[str, Any], ctx: ToolContext) -> Any:
        return make(inner)

    result = await define_tool("delegate", "", None, delegate).call({})
    assert result.is_error and "not a ToolResult" in result.output
    call = ToolCallResult("c1", "delegate", result)
    assert secret not in result.to_json()
    assert secret not in json.dumps(anthropic_tool_result(call))
    assert secret not in json.dumps(openai_chat_messages(call))


# -- sealing never loses a turn ------------------------------------------------------------------


async def _ask(args: dict[str, Any], ctx: ToolContext) -> Any:
    return "done" if ctx.answer else pending(Request("approval", "ok?"))


def _reporter(meta: dict[Any, Any]) -> Any:
    async def handler(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        return ToolResult.ok("done").with_metadata(meta)

    return handler


@pytest.mark.parametrize(
    "meta",
    [
        {"ratio": float("nan")},
        {"tags": {"a"}},
        {1: "a", "b": 2},
        {"v": float("inf")},
    ],
    ids=["NaN", "set", "int and str keys", "Infinity"],
)
async def test_a_result_whose_metadata_is_not_json_does_not_lose_the_turn(meta: Any) -> None:
    kit = Toolkit(
        [
            define_tool("ask", "", None, _ask),
            define_tool("rep", "", None, _reporter(meta)),
            define_tool("ok", "", None, _ok),
        ],
        secret=SECRET,
    )
    calls = [ToolCall("c0", "ok", {}), ToolCall("c1", "rep", {}), ToolCall("c2", "ask", {})]
    run = await kit.run_calls(calls)
    assert run.status == "pending" and run.seal is not None
    assert [r.id for r in run.results] == ["c0", "c1"]
    assert run.results[0].result == ToolResult.ok("ok")
    bad = run.results[1].result
    assert bad.is_error and bad.output.startswith("the tool's metadata is not JSON")
    stored = RunResult.from_json(run.to_json())  # storable, and resumable from storage
    assert run.pending is not None
    done = await kit.resume(stored, Answer(run.pending.id, True))
    assert done.status == "done" and [r.id for r in done.results] == ["c0", "c1", "c2"]
    assert done.results[2].result == ToolResult.ok("done")


async def test_a_waiting_call_whose_arguments_are_not_json_is_settled_as_an_error() -> None:
    kit = Toolkit([define_tool("ask", "", None, _ask)], secret=SECRET)
    run = await kit.run_calls([ToolCall("c1", "ask", {"n": float("nan")}), ToolCall("c2", "ask", {})])
    assert run.status == "pending" and [c.id for c in run.calls] == ["c2"]
    assert run.results[0].result.is_error and "not JSON" in run.results[0].result.output


async def test_resuming_a_stored_run_that_holds_a_value_that_is_not_json_is_a_resume_error() -> None:
    kit = Toolkit([define_tool("ask", "", None, _ask)], secret=SECRET)
    run = await kit.run_calls([ToolCall("c1", "ask", {})])
    tampered = run.model_copy(update={"calls": [ToolCall("c1", "ask", {"n": float("inf")})]})
    assert tampered.pending is not None
    with pytest.raises(ResumeError) as info:
        await kit.resume(tampered, Answer(tampered.pending.id, True))
    assert info.value.reason == "seal"


# -- two calls that suspend with the same explicit request id ------------------------------------


async def test_two_calls_suspending_with_one_fixed_request_id_are_each_answered() -> None:
    async def delete(args: dict[str, Any], ctx: ToolContext) -> Any:
        if ctx.answer is None:
            return pending(Request("approval", f"Delete {args['path']}?", id="confirm-delete"))
        return f"deleted {args['path']}"

    for secret in (None, SECRET):
        kit = Toolkit([define_tool("delete", "", None, delete)], secret=secret)
        run = await kit.run_calls(
            [ToolCall("c1", "delete", {"path": "a"}), ToolCall("c2", "delete", {"path": "b"})]
        )
        assert run.pending is not None
        first = await kit.resume(run, Answer(run.pending.id, True))
        assert first.status == "pending" and first.pending is not None
        done = await kit.resume(first, Answer(first.pending.id, True))
        assert done.status == "done"
        assert [r.result.output for r in done.results] == ["deleted a", "deleted b"]
        with pytest.raises(ResumeError) as info:  # the first answer, again: still a replay
            await kit.resume(run, Answer(run.pending.id, True))
        assert info.value.reason == "replayed"


# -- handlers get a copy of the arguments --------------------------------------------------------


async def test_a_handler_that_changes_its_arguments_changes_no_one_elses() -> None:
    seen: list[Any] = []

    async def transfer(args: dict[str, Any], ctx: ToolContext) -> Any:
        amount = args.pop("amount", None)
        args["to"].append("mallory")
        seen.append((amount, list(args["to"])))
        if ctx.answer is None:
            return pending(Request("approval", f"Transfer {amount}?"))
        return f"transferred {amount}"

    kit = Toolkit([define_tool("transfer", "", None, transfer)], secret=SECRET)
    call = ToolCall("c1", "transfer", {"amount": 100, "to": ["bob"]})
    run = await kit.run_calls([call])
    assert call.arguments == {"amount": 100, "to": ["bob"]}
    assert run.calls[0].arguments == {"amount": 100, "to": ["bob"]}
    assert run.pending is not None
    done = await kit.resume(RunResult.from_json(run.to_json()), Answer(run.pending.id, True))
    assert done.results[0].result.output == "transferred 100"
    assert seen == [(100, ["bob", "mallory"]), (100, ["bob", "mallory"])]

    mine = {"amount": 5, "to": ["eve"]}
    await define_tool("transfer", "", None, transfer).call(mine)
    assert mine == {"amount": 5, "to": ["eve"]}


# -- ContentPart.from_path: a path swapped for a FIFO, a name that is not UTF-8 --------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_from_path_never_blocks_on_a_fifo_swapped_in_after_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    regular = tmp_path / "regular.txt"
    regular.write_text("hello")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    real_stat = os.stat

    def swapped(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        # The check sees the regular file; the open that follows meets the FIFO.
        return real_stat(regular if os.fspath(path) == os.fspath(fifo) else path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", swapped)
    outcome: list[BaseException | ContentPart] = []

    def read() -> None:
        try:
            outcome.append(ContentPart.from_path(fifo))
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=read, daemon=True)
    worker.start()
    worker.join(timeout=5)
    blocked = worker.is_alive()
    if blocked:  # release the reader stuck in open(), so the test ends
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        worker.join(timeout=5)
    assert not blocked, "from_path blocked opening a FIFO"
    assert len(outcome) == 1 and isinstance(outcome[0], ValueError)
    assert "not a regular file" in str(outcome[0]) and str(fifo) in str(outcome[0])


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="needs a file system that takes any bytes")
def test_a_file_name_that_is_not_utf8_is_named_with_replacement_characters() -> None:
    with tempfile.TemporaryDirectory() as d:
        path = os.fsencode(d) + b"/report-\xff.txt"
        with open(path, "wb") as f:
            f.write(b"hi")
        part = ContentPart.from_path(os.fsdecode(path))
    assert part.name == "report-\ufffd.txt"
    text = part.to_json()
    text.encode("utf-8")
    assert ContentPart.from_json(text) == part
    mcp_call_tool_result(ToolResult(output="x", parts=[part]))


# -- MCP: hostile CallToolResult payloads ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "path"),
    [
        (
            '{"content":[{"type":"resource","resource":{"uri":"http://[","blob":"AAAA"}}]}',
            "$.content[0].resource.uri",
        ),
        ('{"content":[],"structuredContent":{"score":NaN}}', "$.structuredContent"),
        ('{"content":[],"structuredContent":[Infinity]}', "$.structuredContent"),
    ],
    ids=["bad IPv6 host", "NaN", "Infinity"],
)
def test_hostile_mcp_payloads_are_wire_errors_naming_the_path(text: str, path: str) -> None:
    with pytest.raises(WireError) as info:
        from_mcp_call_tool_result(json.loads(text))
    assert info.value.path == path


@pytest.mark.parametrize(
    "tail",
    ["..%2F..%2F.ssh%2Fauthorized_keys", "..", "%2E%2E", "a%5C..%5C..%5Cwin.ini", "x/..%2f", "..%2F"],
)
def test_a_part_name_from_a_resource_uri_is_never_a_path(tail: str) -> None:
    uri = f"toolnexus://parts/0/{tail}"
    doc = {
        "content": [{"type": "resource", "resource": {"uri": uri, "blob": "AAAA", "mimeType": "text/plain"}}]
    }
    name = from_mcp_call_tool_result(doc).parts[0].name
    assert name is None or ("/" not in name and "\\" not in name and name not in (".", ".."))


# -- the deadline covers checking the arguments ----------------------------------------------------


async def _stalls(coro: Any) -> tuple[Any, float, float]:
    """The coroutine's value, its duration, and the longest the event loop went without a tick."""
    stamps: list[float] = []

    async def ticker() -> None:
        while True:
            stamps.append(time.monotonic())
            await asyncio.sleep(0.01)

    tick = asyncio.ensure_future(ticker())
    await asyncio.sleep(0.03)
    t0 = time.monotonic()
    value = await coro
    took = time.monotonic() - t0
    await asyncio.sleep(0.03)
    tick.cancel()
    return value, took, max(b - a for a, b in itertools.pairwise(stamps))


async def test_a_backtracking_pattern_neither_stalls_the_loop_nor_outlives_the_timeout() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "^(a+)+$"}}}
    t = define_tool("p", "", schema, _ok)
    result, took, stall = await _stalls(t.call({"a": "a" * 28 + "!"}, ToolContext(timeout=0.1)))
    assert result.is_error
    assert took < 1 and stall < 0.5


async def test_a_slow_argument_check_ends_at_the_timeout() -> None:
    schema = {"type": "object", "properties": {"xs": {"type": "array", "uniqueItems": True}}}
    t = define_tool("u", "", schema, _ok)
    xs = [{"k": i} for i in range(900)]  # jsonschema compares these pairwise: seconds
    result, took, _ = await _stalls(t.call({"xs": xs}, ToolContext(timeout=0.1)))
    assert result == ToolResult.error("u timed out after 0.1 s")
    assert took < 1


_TOKENS = [
    *("a", "b", "0", ".", "\\d", "\\w", "\\s", "\\D", "\\W", "\\S", "\\b", "\\B", "[ab]", "[^a]"),
    *("[\\d]", "[a-c]", "[\\w-]", "(a|b)", "(?:ab)", "*", "+", "?", "{2}", "{1,3}", "{2,}", "*?"),
    *("^", "$", "\\.", "\\-", "é", "\\x41", "[$]", "|", "(", ")", "\\n", "[\\s]", "[.]", "(?=a)"),
    *("[[:alpha:]]", "[a&&b]", "\\1", "a{,2}", "{", "\\<"),
]
_TEXT = [*"ab01 _-\n!é٣\t\x0b\x0c\rA\u2028", "a", "a", "a"]


def test_patterns_read_by_the_rust_engine_mean_what_they_mean_to_re() -> None:
    from toolnexus._schema import _rust_pattern, ecma_matcher, ecma_pattern

    rng = random.Random(12)
    compared = 0
    for _ in range(3000):
        pattern = "".join(rng.choice(_TOKENS) for _ in range(rng.randint(1, 6)))
        try:
            with warnings.catch_warnings():  # `re` warns of `[[` and `&&`, which Rust reads otherwise
                warnings.simplefilter("ignore", FutureWarning)
                reference = ecma_pattern(pattern)
        except re.error:
            continue
        match = ecma_matcher(pattern)
        compared += _rust_pattern(pattern) is not None
        for _ in range(20):
            text = "".join(rng.choice(_TEXT) for _ in range(rng.randint(0, 8)))
            assert match(text) == (reference.search(text) is not None), (pattern, text)
    assert compared > 500


# -- assignment is checked; nothing invalid is emitted -------------------------------------------


def test_an_invalid_assignment_is_refused() -> None:
    r = ToolResult.ok("x")
    with pytest.raises(ValueError):
        r.output = 5  # type: ignore[assignment]
    with pytest.raises(ValueError):
        r.is_error = "yes"  # type: ignore[assignment]
    with pytest.raises(ValueError):
        r.metadata = {1: "a"}  # type: ignore[dict-item]
    p = ContentPart("image", mime_type="image/png", data="AAAA")
    with pytest.raises(ValueError):
        p.data = "not base64!"
    assert r.to_json() == '{"output":"x","isError":false}'
    assert p.to_json() == ContentPart("image", mime_type="image/png", data="AAAA").to_json()
    r.output = "y"  # a valid one is taken
    assert r.to_json() == '{"output":"y","isError":false}'


@pytest.mark.parametrize(
    "meta", [{1: "int key", "1": "str key"}, {None: 0}, {True: 1}, {"a": [{2: "nested"}]}], ids=repr
)
def test_metadata_with_a_key_that_is_not_a_string_is_never_emitted(meta: dict[Any, Any]) -> None:
    r = ToolResult.ok("x").with_metadata(meta)
    with pytest.raises(ValueError, match="not a string"):
        r.to_json()


async def test_a_handler_returning_a_dict_with_a_key_that_is_not_a_string_gets_an_error_result() -> None:
    async def handler(args: dict[str, Any], ctx: ToolContext) -> Any:
        return {1: "a", "1": "b"}

    result = await define_tool("t", "", None, handler).call({})
    assert result.is_error and result.output.startswith("the tool returned a value that is not JSON: ")


# -- timeout NaN, a seal that is not ASCII, a generated Answer from wait_for -----------------------


def test_a_wire_error_for_many_bad_parts_has_a_bounded_message() -> None:
    """Every problem is kept in `errors`; the message shows the first 50 (a million bad parts
    once made a 118 MB message)."""
    parts = ",".join('{"type":"image","mimeType":"image/png","data":"!!"}' for _ in range(20_000))
    with pytest.raises(WireError) as info:
        ToolResult.from_json('{"output":"x","parts":[%s]}' % parts)  # noqa: UP031
    assert len(info.value.errors) == 20_000 and info.value.path == "$.parts[0].data"
    assert len(str(info.value)) < 20_000 and str(info.value).endswith("; and 19950 more")


def test_a_stored_run_holding_a_number_beyond_a_double_is_refused_when_read() -> None:
    """R2: the text of a stored run holding `1e400` (or an integer of thousands of digits,
    past Python's own limit of 4,300) is a `WireError` at `$`, so `resume` never sees it."""
    run = RunResult("done", [ToolCallResult("c1", "f", ToolResult.ok("x"))])
    for number in ("1e400", "1" + "0" * 5000):
        text = run.to_json().replace('"isError":false', f'"isError":false,"metadata":{{"n":{number}}}')
        with pytest.raises(WireError) as info:
            RunResult.from_json(text)
        assert info.value.path == "$" and "double" in str(info.value)


def test_a_nan_timeout_is_refused() -> None:
    with pytest.raises(ValueError, match="timeout"):
        ToolContext(timeout=math.nan)
    assert ToolContext(timeout=math.inf).timeout == math.inf


@pytest.mark.parametrize("seal", ["\udcff", "v2.hmac-sha256.\udcff", "v1.hmac-sha256.é"])
async def test_a_seal_that_is_not_ascii_is_a_seal_error(seal: str) -> None:
    kit = Toolkit([define_tool("ask", "", None, _ask)], secret=SECRET)
    run = await kit.run_calls([ToolCall("c1", "ask", {})])
    forged = RunResult.from_wire({**run.to_wire(), "seal": "x"})
    forged.seal = seal
    assert forged.pending is not None
    with pytest.raises(ResumeError) as info:
        await kit.resume(forged, Answer(forged.pending.id, True))
    assert info.value.reason == "seal"


async def test_wait_for_may_return_the_generated_answer() -> None:
    assert toolnexus_wire.Answer is Answer
    kit = Toolkit([define_tool("ask", "", None, _ask)])
    run = await kit.run_calls([ToolCall("c1", "ask", {})], lambda r: toolnexus_wire.Answer(r.id, True))
    assert run.status == "done" and run.results[0].result == ToolResult.ok("done")


# -- answering N suspended calls: the same Python work per answer at any N ----------------------


async def _answer_all(n: int, secret: bytes | None, profile: cProfile.Profile) -> None:
    kit = Toolkit([define_tool("ask", "", None, _ask)], secret=secret)
    run = await kit.run_calls([ToolCall(f"c{i}", "ask", {}) for i in range(n)])
    profile.enable()
    while run.status == "pending":
        assert run.pending is not None
        run = await kit.resume(run, Answer(run.pending.id, True))
    profile.disable()
    assert [r.id for r in run.results] == [f"c{i}" for i in range(n)]
    assert all(r.result.output == "done" for r in run.results)


def _calls_per_answer(n: int, secret: bytes | None) -> float:
    profile = cProfile.Profile()
    asyncio.run(_answer_all(n, secret, profile))
    return float(pstats.Stats(profile).total_calls) / n  # type: ignore[attr-defined]


@pytest.mark.parametrize("secret", [SECRET, None], ids=["sealed", "unsealed"])
def test_one_resume_per_answer_does_the_same_python_work_at_any_size(secret: bytes | None) -> None:
    """Counted, not timed: the function calls per answer at 2,000 waiting calls are those at
    250 (a binary search's log N aside). Rereading or resealing the run at each answer, as
    before, made them grow with N (the issue measured 1,000 answers in 10.7 s)."""
    small, large = _calls_per_answer(250, secret), _calls_per_answer(2000, secret)
    assert large < small * 1.1, (small, large)


async def test_a_run_changed_in_memory_is_checked_in_full() -> None:
    kit = Toolkit([define_tool("ask", "", None, _ask)], secret=SECRET)
    run = await kit.run_calls([ToolCall("c1", "ask", {}), ToolCall("c2", "ask", {})])
    run.calls = [ToolCall("c1", "ask", {"forged": True}), run.calls[1]]  # a new list: not the run returned
    assert run.pending is not None
    with pytest.raises(ResumeError) as info:
        await kit.resume(run, Answer(run.pending.id, True))
    assert info.value.reason == "seal"


async def test_a_stored_run_whose_results_were_reordered_is_refused() -> None:
    kit = Toolkit([define_tool("ask", "", None, _ask), define_tool("ok", "", None, _ok)], secret=SECRET)
    run = await kit.run_calls([ToolCall("c1", "ok", {}), ToolCall("c2", "ok", {}), ToolCall("c3", "ask", {})])
    wire = json.loads(run.to_json())
    wire["results"].reverse()
    reordered = RunResult.from_wire(wire)
    assert reordered.pending is not None
    with pytest.raises(ResumeError) as info:
        await kit.resume(reordered, Answer(reordered.pending.id, True))
    assert info.value.reason == "seal"


async def test_a_run_sealed_by_version_1_still_resumes() -> None:
    kit = Toolkit([define_tool("ask", "", None, _ask), define_tool("ok", "", None, _ok)], secret=SECRET)
    run = await kit.run_calls(
        [ToolCall("c1", "ok", {}), ToolCall("c2", "ask", {}), ToolCall("c3", "ask", {})]
    )
    old = RunResult.from_wire({k: v for k, v in run.to_wire().items() if k != "seal"})
    assert kit._key is not None
    old.seal = kit._key.seal_v1(old)
    assert old.seal.startswith("v1.hmac-sha256.") and old.pending is not None
    nxt = await kit.resume(RunResult.from_json(old.to_json()), Answer(old.pending.id, True))
    assert nxt.seal is not None and nxt.seal.startswith("v3.hmac-sha256.") and nxt.pending is not None
    done = await kit.resume(RunResult.from_json(nxt.to_json()), Answer(nxt.pending.id, True))
    assert [r.result.output for r in done.results] == ["ok", "done", "done"]
