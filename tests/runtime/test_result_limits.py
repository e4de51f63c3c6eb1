"""Results that fit the model (`toolnexus.Limit`, the cut in `toolnexus._engine._limits`, the spill
and `read_result` in `toolnexus._spill`): what the loop vectors (those of `idl/loop/` covering
`result limits`, run by every host in `tests/runtime/test_loop_vectors.py`) do not show: bad limits of
every kind, the tighter limit, a host's tokenizer, the spill's scopes and failures, metadata kept
from the model, the cut against a literal reading of the rule on random text, and a model paging
through a kept result (the transcript in docs/guides/result-limits.md)."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolnexus import (
    DirectorySpill,
    Limit,
    ToolCall,
    ToolCallResult,
    Toolkit,
    ToolResult,
    UsageError,
    define_tool,
    read_result,
    tool,
)
from toolnexus._engine._limits import fit, result_ref
from toolnexus._limit import CUT_FLOOR, estimate_tokens
from toolnexus._seal import idempotency_key, turn_digest
from toolnexus.adapters import anthropic_tool_result, mcp_call_tool_result, openai_chat_messages

DOCS = Path(__file__).resolve().parents[2] / "docs" / "guides" / "result-limits.md"


def lines(n: int, word: str = "ok") -> str:
    return "".join(f"row {i}: {word}\n" for i in range(1, n + 1))


def echo(text: str, **options: Any) -> Any:
    return define_tool("echo", "echo", None, lambda args, ctx: text, **options)


async def run(kit: Toolkit, *calls: ToolCall, **options: Any) -> list[ToolResult]:
    done = await kit.run_calls(list(calls), **options)
    assert done.status == "done"
    return [r.result for r in done.results]


# -- the limit ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({}, "a result limit counts at least one of chars, tokens and bytes"),
        ({"chars": 0}, "a result limit of 0 chars is refused: a limit is a whole number above zero"),
        ({"tokens": -1}, "a result limit of -1 tokens is refused: a limit is a whole number above zero"),
        ({"bytes": 2.0}, "a result limit of 2.0 bytes is refused: a limit is a whole number above zero"),
        ({"chars": True}, "a result limit of True chars is refused: a limit is a whole number above zero"),
        ({"tokens": 25}, "the cut marker alone may take 26 tokens, so a limit is at least 26"),
        ({"chars": 500, "bytes": 101}, "a result limit of 101 bytes is refused: the cut marker alone"),
    ],
)
def test_a_bad_limit_is_refused_with_its_reason(given: dict[str, Any], message: str) -> None:
    with pytest.raises(UsageError, match=re.escape(message)):
        Limit(**given)


def test_a_bad_limit_is_refused_where_it_is_set() -> None:
    with pytest.raises(UsageError, match="0 chars"):
        echo("x", limit={"chars": 0})

    def plain() -> str:
        """Plain text."""
        return "x"

    with pytest.raises(UsageError, match="0 chars"):
        tool(limit={"chars": 0})(plain)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="0 tokens"):
        Toolkit(limit={"tokens": 0})  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"not \['lines'\]"):
        Limit.of({"lines": 3})
    with pytest.raises(UsageError, match=r"a toolnexus\.Limit"):
        Toolkit(limit=300)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="tokenizer must be a function"):
        Toolkit(tokenizer="cl100k")  # type: ignore[arg-type]


def test_the_floor_is_the_widest_marker() -> None:
    assert CUT_FLOOR == {"chars": 98, "bytes": 102, "tokens": 26}
    assert Limit(chars=98) and Limit(bytes=102) and Limit(tokens=26)


def test_the_tighter_limit_wins_unit_by_unit() -> None:
    assert Limit(chars=200).tighter(Limit(chars=400, bytes=300)) == Limit(chars=200, bytes=300)
    assert Limit(tokens=500).tighter(None) == Limit(tokens=500)
    assert Limit(chars=900, tokens=100).to_wire() == {"chars": 900, "tokens": 100}


def test_the_token_estimate_is_utf8_bytes_over_four_rounded_up() -> None:
    assert [estimate_tokens(s) for s in ("", "a", "abcd", "abcde", "中", "😀😀")] == [0, 1, 1, 2, 1, 2]


# -- the cut, against the rule read literally -------------------------------------------------


def _literal_cut(text: str, chars: int | None, byte_cap: int | None, ref: str | None) -> str:
    """idl/loop/README.md's steps 4 to 7, by trying every length (slow, and plain)."""

    def size(s: str) -> int:
        return len(s.encode("utf-8", "surrogatepass"))

    def marker(n: int) -> str:
        kept = f'; the whole result is kept as "{ref}"' if ref else ""
        return f"\n[… {n} characters cut{kept} …]\n"

    def fits(s: str, c: int | None, b: int | None) -> bool:
        return (c is None or len(s) <= c) and (b is None or size(s) <= b)

    n = len(text)
    w = marker(n)
    c = None if chars is None else chars - len(w)
    b = None if byte_cap is None else byte_cap - size(w)
    half_c, half_b = (None if c is None else c // 2), (None if b is None else b // 2)
    h = max(k for k in range(n + 1) if fits(text[:k], half_c, half_b))
    line = max([k for k in range(1, h + 1) if text[k - 1] == "\n"], default=0)
    h = line if 2 * line >= h else h
    rest_c = None if c is None else c - h
    rest_b = None if b is None else b - size(text[:h])
    t = max(k for k in range(n - h + 1) if fits(text[n - k :], rest_c, rest_b))
    start = n - t
    if start > 0 and text[start - 1] != "\n":
        after = [j for j in range(start + 1, n + 1) if text[j - 1] == "\n"]
        if after and 2 * (n - after[0]) >= t:
            start = after[0]
    return text[:h] + marker(n - h - (n - start)) + text[start:]


@settings(max_examples=150, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from(["a", "b", "\n", "é", "中", "😀", " "]), min_size=0, max_size=400),
    chars=st.one_of(st.none(), st.integers(98, 300)),
    nbytes=st.one_of(st.none(), st.integers(102, 400)),
    kept=st.booleans(),
)
def test_the_cut_is_the_rule_read_literally(
    text: str, chars: int | None, nbytes: int | None, kept: bool
) -> None:
    if chars is None and nbytes is None:
        chars = 120
    limit = Limit(chars=chars, bytes=nbytes)
    ref = "result-0123456789abcdef" if kept else None
    fitted, cut = fit(ToolResult.ok(text), limit, ref)
    over = (chars is not None and len(text) > chars) or (nbytes is not None and len(text.encode()) > nbytes)
    assert cut == over
    if not over:
        assert fitted.output == text and fitted.metadata is None
        return
    assert fitted.output == _literal_cut(text, chars, nbytes, ref)
    assert chars is None or len(fitted.output) <= chars
    assert nbytes is None or len(fitted.output.encode()) <= nbytes
    marker = fitted.metadata["truncated"]  # type: ignore[index]
    (h0, h1), (t0, t1) = marker["kept"]
    assert fitted.output.startswith(text[h0:h1]) and fitted.output.endswith(text[t0:t1])
    assert marker["size"] == {
        "chars": len(text),
        "bytes": len(text.encode()),
        "tokens": estimate_tokens(text),
    }


def test_a_surrogate_is_a_code_point_of_three_bytes() -> None:
    text = "\ud800" * 200
    fitted, cut = fit(ToolResult.ok(text), Limit(bytes=300), None)
    assert cut and fitted.metadata["truncated"]["size"]["bytes"] == 600  # type: ignore[index]
    assert len(fitted.output.encode("utf-8", "surrogatepass")) <= 300


# -- a host's tokenizer ----------------------------------------------------------------------


def words(text: str) -> int:
    """A fake tokenizer: a token a word."""
    return len(text.split())


async def test_a_hosts_tokenizer_counts_the_limit_and_the_size() -> None:
    text = " ".join(f"w{i}" for i in range(1, 2001))  # 2,000 tokens by the tokenizer, 2,223 estimated
    kit = Toolkit([echo(text)], limit=Limit(tokens=300), tokenizer=words)
    [result] = await run(kit, ToolCall("c1", "echo", {}))
    assert words(result.output) <= 300
    assert result.output.startswith("w1 w2 ") and result.output.endswith(" w2000")
    marker = result.metadata["truncated"]  # type: ignore[index]
    assert marker["size"]["tokens"] == 2000 and marker["limit"] == {"tokens": 300}
    under = Toolkit([echo("a" * 1500)], limit=Limit(tokens=300), tokenizer=words)
    [whole] = await run(under, ToolCall("c1", "echo", {}))
    assert whole.output == "a" * 1500, "one word is one token by the tokenizer, though the estimate says 375"


# -- what the loop applies it to ---------------------------------------------------------------


async def test_a_tools_limit_and_the_toolkits_combine() -> None:
    @tool(limit=Limit(bytes=300))
    def wide() -> str:
        """Wide text."""
        return "中" * 400

    kit = Toolkit([wide, echo(lines(100))], limit=Limit(chars=200))
    a, b = await run(kit, ToolCall("a", "wide", {}), ToolCall("b", "echo", {}))
    assert a.metadata["truncated"]["limit"] == {"chars": 200, "bytes": 300}  # type: ignore[index]
    assert len(a.output.encode()) <= 300 and len(b.output) <= 200
    assert wide() == "中" * 400, "the function itself is not cut"


async def test_execute_is_the_tool_run_itself_and_cuts_nothing() -> None:
    kit = Toolkit([echo(lines(100))], limit=Limit(chars=200))
    assert (await kit.execute("echo", {})).output == lines(100)


async def test_the_truncated_marker_never_reaches_a_model() -> None:
    kit = Toolkit([echo(lines(100))], limit=Limit(chars=200), spill=None)
    [result] = await run(kit, ToolCall("c1", "echo", {}))
    assert "truncated" in (result.metadata or {})
    call = ToolCallResult("c1", "echo", result)
    for sent in (anthropic_tool_result(call), openai_chat_messages(call), mcp_call_tool_result(result)):
        text = json.dumps(sent, default=str)
        assert "characters cut" in text and "truncated" not in text and "kept" not in text


# -- the spill -------------------------------------------------------------------------------


async def test_a_cut_output_is_kept_under_the_calls_reference_for_its_scope(tmp_path: Path) -> None:
    spill = DirectorySpill(tmp_path / "kept")
    kit = Toolkit([echo(lines(100))], limit=Limit(chars=300), spill=spill, secret=b"k" * 32)
    done = await kit.run_calls([ToolCall("c1", "echo", {})], turn_id="t-1", principal="ann", session="s")
    result = done.results[0].result
    ref = result.metadata["truncated"]["ref"]  # type: ignore[index]
    assert ref == result_ref(idempotency_key(turn_digest(["c1"], "t-1"), "c1"))
    assert f'kept as "{ref}"' in result.output
    assert spill.get(("ann", "s"), ref) == lines(100)
    assert spill.get(("ann", None), ref) is None and spill.get(("bob", "s"), ref) is None
    assert [p.name for p in (tmp_path / "kept").iterdir() if p.name.startswith(".staged")] == []


async def test_a_call_outside_a_turn_is_kept_under_a_random_reference(tmp_path: Path) -> None:
    spill = DirectorySpill(tmp_path)
    kit = Toolkit([echo(lines(100))], limit=Limit(chars=300), spill=spill)
    first = await kit.perform(ToolCall("c1", "echo", {}))
    second = await kit.perform(ToolCall("c1", "echo", {}))
    refs = [r.metadata["truncated"]["ref"] for r in (first, second)]  # type: ignore[index]
    assert all(re.fullmatch(r"result-[0-9a-f]{16}", ref) for ref in refs) and refs[0] != refs[1]
    assert spill.get((None, None), refs[1]) == lines(100)


async def test_a_spill_that_fails_leaves_the_cut_without_a_reference(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Full:
        def put(self, scope: Any, ref: str, text: str) -> None:
            raise OSError("no space left on device")

        def get(self, scope: Any, ref: str) -> str | None:
            return None

    kit = Toolkit([echo(lines(100))], limit=Limit(chars=300), spill=Full())
    with caplog.at_level(logging.WARNING, "toolnexus"):
        [result] = await run(kit, ToolCall("c1", "echo", {}))
    assert "kept as" not in result.output and "ref" not in result.metadata["truncated"]  # type: ignore[index]
    assert "no space left on device" in caplog.text


async def test_read_result_without_a_spill_finds_nothing() -> None:
    kit = Toolkit([read_result])
    [result] = await run(kit, ToolCall("r", "read_result", {"ref": "result-0000000000000000"}))
    assert result.is_error and result.output.startswith('no result kept as "result-0000000000000000"')


async def test_read_result_refuses_what_its_schema_does_not_take(tmp_path: Path) -> None:
    kit = Toolkit([read_result], spill=DirectorySpill(tmp_path))
    bad = [{"ref": "r", "offset": -1}, {"ref": "r", "length": 0}, {"offset": 0}, {"ref": "r", "page": 2}]
    results = await run(kit, *[ToolCall(f"r{i}", "read_result", args) for i, args in enumerate(bad)])
    assert all(r.is_error and r.output.startswith("invalid arguments for read_result") for r in results)


# -- a model reads the marker and pages through the result -----------------------------------------

_MARKER = re.compile(r'\[… (\d+) characters cut; the whole result is kept as "(result-[0-9a-f]{16})" …\]')
_PAGE = re.compile(r"\[(result-[0-9a-f]{16}): characters (\d+) to (\d+) of (\d+)\]\n")


def build_log() -> str:
    """A build's log: 120 lines, one error among them, far from its head and its tail."""
    rows = [f"[{i:03}] compiled module_{i}.py" for i in range(1, 121)]
    rows[69] = "[070] ERROR module_70.py:14: name 'cfg' is not defined"
    return "\n".join(rows) + "\n"


async def transcript(tmp_path: Path) -> str:
    """A scripted model's turns: it runs the build, reads the marker, and pages through the kept
    log with `read_result` until it finds the error."""
    build = define_tool("build", "Run the build", None, lambda args, ctx: build_log())
    kit = Toolkit([build, read_result], limit=Limit(chars=700), spill=DirectorySpill(tmp_path))
    said: list[str] = []

    async def turn(number: int, call: ToolCall) -> str:
        said.append(f"model → {call.name}({json.dumps(call.arguments)})")
        done = await kit.run_calls([call], turn_id=f"turn-{number}", session="build-42")
        output = done.results[0].result.output
        said.append("tool  ← " + output.replace("\n", "\n        "))
        return output

    first = await turn(1, ToolCall("c1", "build", {}))
    found = _MARKER.search(first)
    assert found is not None, "the model finds the marker"
    ref, offset = found.group(2), found.start() - 1  # the head is all before the marker's line
    for number in range(2, 10):
        page = await turn(
            number, ToolCall(f"c{number}", "read_result", {"ref": ref, "offset": offset, "length": 600})
        )
        header = _PAGE.match(page)
        assert header is not None
        if "ERROR" in page:
            said.append("model → the build failed at line 70: name 'cfg' is not defined in module_70.py")
            break
        offset = int(header.group(3))
    else:
        raise AssertionError("the model never found the error")
    return "\n".join(line.rstrip() for line in "\n".join(said).splitlines()) + "\n"


async def test_a_model_pages_through_a_kept_result_as_the_guide_shows(tmp_path: Path) -> None:
    told = await transcript(tmp_path)
    doc = DOCS.read_text(encoding="utf-8")
    shown = doc.split("<!-- transcript -->\n```text\n", 1)[1].split("```\n", 1)[0]
    assert shown == told, "docs/guides/result-limits.md shows another transcript:\n" + told
