"""`toolnexus.adapters.PROVIDER_LIMITS` and what the result adapters do with it: the table is
`idl/adapters/limits.json`'s (which TypeScript's `providerLimits` is checked against too), bad
options are refused naming what, and the parts the vectors do not reach (by URL, unknown image
formats, counts across kinds) behave as documented."""

from __future__ import annotations

import base64
import json
import struct
from pathlib import Path
from typing import Any

import pytest

from toolnexus import ContentPart, ToolCallResult, ToolResult
from toolnexus._errors import UsageError
from toolnexus.adapters import (
    PROVIDER_LIMITS,
    PartLimit,
    anthropic_tool_result,
    gemini_function_response,
    mcp_call_tool_result,
    openai_chat_messages,
    openai_responses_output,
)
from toolnexus.adapters._limits import image_size

LIMITS = Path(__file__).resolve().parents[2] / "idl" / "adapters" / "limits.json"


def _png(width: int, height: int) -> str:
    header = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", width, height)
    return base64.b64encode(header + b"\x08\x02\x00\x00\x00").decode()


def _call(*parts: ContentPart, **result: Any) -> ToolCallResult:
    return ToolCallResult("call_1", "t", ToolResult(output="out", parts=list(parts), **result))


def test_the_table_is_the_json_file() -> None:
    doc = json.loads(LIMITS.read_text(encoding="utf-8"))["providers"]
    assert sorted(doc) == sorted(PROVIDER_LIMITS)
    for target, row in doc.items():
        ours = PROVIDER_LIMITS[target]
        assert ours.structured == row["structured"], target
        assert {k: PartLimit(**v) for k, v in row["parts"].items()} == dict(ours.parts), target
        assert row["text"] == dict(ours.text), target
        assert set(row["sources"]) == {"image", "audio", "file", "text"}, target
        assert all(source.strip() for source in row["sources"].values()), target


def test_every_number_has_a_source_and_every_missing_one_says_not_published() -> None:
    """A row whose kind has no number says why (not published, not applicable); one with a
    number names a page."""
    for target, row in json.loads(LIMITS.read_text(encoding="utf-8"))["providers"].items():
        for kind, source in row["sources"].items():
            numbers = row["text"] if kind == "text" else row["parts"][kind]
            if numbers:
                assert "not published" not in source and "(" in source, (target, kind)
            else:
                assert source.startswith(("not published", "not applicable")), (target, kind)


@pytest.mark.parametrize(
    "adapter",
    [openai_chat_messages, openai_responses_output, anthropic_tool_result, gemini_function_response],
)
def test_both_is_only_mcps(adapter: Any) -> None:
    with pytest.raises(UsageError, match=r"structured must be 'text' or 'structured' for .*, got 'both'"):
        adapter(_call(), structured="both")
    with pytest.raises(UsageError, match="got 'json'"):
        adapter(_call(), structured="json")


def test_mcp_refuses_an_unknown_choice_even_without_structured_content() -> None:
    with pytest.raises(UsageError, match="'text', 'structured' or 'both' for mcp, got 'json'"):
        mcp_call_tool_result(ToolResult(output="x"), structured="json")  # type: ignore[arg-type]


def test_bad_part_limits_are_refused() -> None:
    with pytest.raises(UsageError, match=r"PartLimit.bytes must be a positive integer or None, got 0"):
        PartLimit(bytes=0)
    with pytest.raises(UsageError, match=r"PartLimit.count must be a positive integer or None, got True"):
        PartLimit(count=True)
    with pytest.raises(
        UsageError, match="part_limits maps 'image', 'audio' or 'file' to a PartLimit, got 'video'"
    ):
        anthropic_tool_result(_call(), part_limits={"video": PartLimit(bytes=1)})


def test_a_part_by_url_is_not_measured() -> None:
    part = ContentPart.from_url("https://example.com/huge.png", "image/png")
    block = anthropic_tool_result(_call(part), part_limits={"image": PartLimit(bytes=1, pixels=1)})
    assert block["content"][1] == {
        "type": "image",
        "source": {"type": "url", "url": "https://example.com/huge.png"},
    }  # type: ignore[index]


def test_an_image_whose_size_cannot_be_read_is_sent() -> None:
    part = ContentPart.from_bytes(b"not an image header", "image/png")
    block = anthropic_tool_result(_call(part))
    assert block["content"][1]["type"] == "image"  # type: ignore[index]
    assert image_size(part.data) is None


def test_the_default_table_applies_without_options() -> None:
    """Anthropic's 8000 pixels a side, from the table: a 9000-pixel-wide PNG header is a note."""
    wide = ContentPart(kind="image", mime_type="image/png", data=_png(9000, 1), name="w.png")
    block = anthropic_tool_result(_call(wide))
    assert block["content"][1] == {  # type: ignore[index]
        "type": "text",
        "text": "[image 'w.png' (image/png, 29 bytes) not included: 9000x1 pixels,"
        " over Anthropic's limit of 8000 pixels a side]",
    }
    assert openai_chat_messages(_call(wide))[1]["role"] == "user"  # OpenAI publishes no side


def test_counts_are_per_kind_and_count_the_parts_sent() -> None:
    """An image over the byte limit is not counted: the next one under it is sent."""
    big = ContentPart(kind="image", mime_type="image/png", data=_png(10, 10), name="big.png")
    small = ContentPart.from_bytes(b"\x89PNG", "image/png", name="small.png")
    audio = ContentPart.from_bytes(b"RIFF", "audio/wav", name="a.wav")
    limits = {"image": PartLimit(bytes=10, count=1), "audio": PartLimit(count=1)}
    out = gemini_function_response(_call(big, small, audio), part_limits=limits)["function_response"]
    assert [p["inline_data"]["mime_type"] for p in out["parts"]] == ["image/png", "audio/wav"]  # type: ignore[index]
    assert "big.png" in out["response"]["output"] and "small.png" not in out["response"]["output"]  # type: ignore[index]


def test_structured_content_is_never_sent_twice_to_a_model() -> None:
    """With structured content, each model provider's message holds one of the two texts."""
    call = ToolCallResult("c", "t", ToolResult(output="summary", structured_content={"n": 1}))
    for structured, want in (("text", "summary"), ("structured", '{"n":1}')):
        chat = openai_chat_messages(call, structured=structured)[0]["content"]  # type: ignore[arg-type]
        responses = openai_responses_output(call, structured=structured)["output"]  # type: ignore[arg-type]
        claude = anthropic_tool_result(call, structured=structured)["content"]  # type: ignore[arg-type]
        assert chat == responses == claude == want
    gemini = gemini_function_response(call)["function_response"]["response"]  # type: ignore[index]
    assert gemini == {"output": {"n": 1}}
