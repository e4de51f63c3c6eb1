"""Hostile sizes and encodings: a `WireError` or a defined result, never `RecursionError`,
`MemoryError` or a hang (the limits and their defaults are in docs/limits.md)."""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from toolnexus import ContentPart, ToolResult, WireError

DEEP = 100_000
#: The deepest JSON document `from_json` reads: 100 nested arrays and objects, counting the
#: document itself; the same limit in TypeScript and Rust (docs/limits.md, "One verdict").
MAX_PARSE_DEPTH = 100


def _nested_objects(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


def _nested_arrays(depth: int) -> str:
    return "[" * depth + "]" * depth


# -- nesting ------------------------------------------------------------------------------


@pytest.mark.parametrize("nest", [_nested_objects, _nested_arrays], ids=["objects", "arrays"])
@pytest.mark.parametrize("as_bytes", [False, True], ids=["str", "bytes"])
def test_metadata_nested_100000_deep_is_a_wire_error(nest: Any, as_bytes: bool) -> None:
    text = '{"output":"x","metadata":{"deep":' + nest(DEEP) + "}}"
    with pytest.raises(WireError) as info:
        ToolResult.from_json(text.encode() if as_bytes else text)
    assert info.value.path == "$"
    assert f"nested more than {MAX_PARSE_DEPTH} levels" in str(info.value)


def test_the_parse_depth_limit_is_exact_and_what_parses_re_emits() -> None:
    # The document is one object; metadata adds one more level per nested object.
    at_limit = '{"output":"x","metadata":' + _nested_objects(MAX_PARSE_DEPTH - 1) + "}"
    result = ToolResult.from_json(at_limit)
    assert (
        result.to_json()
        == '{"output":"x","isError":false,"metadata":' + _nested_objects(MAX_PARSE_DEPTH - 1) + "}"
    )
    over = '{"output":"x","metadata":' + _nested_objects(MAX_PARSE_DEPTH) + "}"
    with pytest.raises(WireError, match=f"nested more than {MAX_PARSE_DEPTH} levels") as info:
        ToolResult.from_json(over)
    assert info.value.path == "$"


def test_to_json_refuses_what_from_json_refuses_at_the_same_depth() -> None:
    at_limit = ToolResult(output="x", metadata=_deep_dict(MAX_PARSE_DEPTH - 2))  # 1 + 1 + 98 levels
    assert ToolResult.from_json(at_limit.to_json()) == at_limit
    over = ToolResult(output="x", metadata=_deep_dict(MAX_PARSE_DEPTH - 1))
    with pytest.raises(ValueError, match=f"nested more than {MAX_PARSE_DEPTH} levels"):
        over.to_json()


def _deep_dict(depth: int) -> dict[str, Any]:
    root: dict[str, Any] = {}
    node = root
    for _ in range(depth):
        child: dict[str, Any] = {}
        node["a"] = child
        node = child
    return root


def test_deep_metadata_built_in_python_is_kept_by_from_wire_and_to_wire() -> None:
    """`metadata` is free-form: validation does not walk it, so depth costs nothing until encoding."""
    meta = _deep_dict(DEEP)
    result = ToolResult.from_wire({"output": "x", "metadata": meta})
    assert _depth(result.metadata) == DEEP
    assert _depth(result.to_wire()["metadata"]) == DEEP
    merged = ToolResult.ok("x").with_metadata({"deep": meta}).metadata
    assert merged is not None and merged["deep"] is meta


def _depth(node: Any) -> int:
    """Nesting depth of a chain of `{"a": ...}` dicts, walked without recursion."""
    depth = 0
    while node:
        node = node["a"]
        depth += 1
    return depth


def test_to_json_of_too_deep_metadata_is_a_value_error_not_a_recursion_error() -> None:
    result = ToolResult(output="x", metadata=_deep_dict(DEEP))
    with pytest.raises(ValueError, match=f"nested more than {MAX_PARSE_DEPTH} levels") as info:
        result.to_json()
    assert not isinstance(info.value, WireError)  # encoding never raises WireError
    # The object is untouched and still usable.
    assert result.to_wire()["output"] == "x"


# -- size ---------------------------------------------------------------------------------


def test_a_100_mb_output_round_trips() -> None:
    big = "é" + "x" * (100 * 1024 * 1024)
    text = ToolResult.ok(big).to_json()
    assert len(text) == len(big) + len('{"output":"","isError":false}')
    back = ToolResult.from_json(text.encode("utf-8"))
    assert back.output == big
    del text, back


def test_100000_parts_round_trip_in_order() -> None:
    parts = [
        {"type": "file", "mimeType": "application/octet-stream", "data": "AAAA", "name": str(i)}
        for i in range(100_000)
    ]
    text = json.dumps({"output": "", "isError": False, "parts": parts}, separators=(",", ":"))
    result = ToolResult.from_json(text)
    assert len(result.parts) == 100_000
    assert [p.name for p in result.parts[:3]] == ["0", "1", "2"]
    assert result.parts[-1].name == "99999"
    assert result.to_json() == text


def test_a_bad_part_among_100000_is_named_by_its_index() -> None:
    parts = [{"type": "file", "mimeType": "a/b", "data": "AAAA"}] * 100_000
    parts = [*parts[:76_543], {"type": "file", "mimeType": "a/b", "data": "AAA"}, *parts[76_544:]]
    with pytest.raises(WireError) as info:
        ToolResult.from_json(json.dumps({"output": "", "parts": parts}))
    assert info.value.path == "$.parts[76543].data"


# -- encodings ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    ["!!!!", "AAA", "AAAAA", "AA=A", "A===", "AAAA\nAAAA", " AAAA", "AA-_", "AAAAAA=", "AAAA===="],
)
def test_data_that_is_not_padded_standard_base64_is_a_wire_error(data: str) -> None:
    doc = {"output": "", "parts": [{"type": "image", "mimeType": "image/png", "data": data}]}
    with pytest.raises(WireError) as info:
        ToolResult.from_wire(doc)
    assert info.value.path == "$.parts[0].data"
    with pytest.raises(WireError):
        ToolResult.from_json(json.dumps(doc))
    # Constructing one in Python is refused too, with pydantic's ValidationError (a ValueError):
    # WireError is the error of parsing, not of constructors.
    with pytest.raises(ValidationError):
        ContentPart("image", mime_type="image/png", data=data)


@pytest.mark.parametrize(
    "data",
    [
        b'{"output":"\xff"}',  # not UTF-8 at all
        b'{"output":"\xc3"}',  # a truncated two-byte sequence
        b'{"output":"\xed\xa0\x80"}',  # a UTF-8-encoded surrogate
        b'{"output":"\xc0\xaf"}',  # an overlong encoding
        b'\xfe\xff{"output":""}',  # a UTF-16 byte order mark
        '{"output":"x"}'.encode("utf-16"),
        b'{"output":"\\ud800"}',  # an escaped lone surrogate
    ],
)
def test_bytes_that_are_not_utf8_json_are_a_wire_error(data: bytes) -> None:
    with pytest.raises(WireError) as info:
        ToolResult.from_json(data)
    assert info.value.path == "$"


def test_a_lone_surrogate_built_in_python_encodes_to_text_that_is_not_utf8() -> None:
    """Python strings may hold lone surrogates; the wire cannot. `to_json` returns the text;
    encoding it to UTF-8 fails, and a peer refuses it (documented, not repaired)."""
    text = ToolResult.ok("\ud800").to_json()
    with pytest.raises(UnicodeEncodeError):
        text.encode("utf-8")
    with pytest.raises(WireError):
        ToolResult.from_json(text.encode("utf-8", "surrogatepass"))


# -- ContentPart.from_path: the bad inputs tests/wire/test_content_part.py does not cover -------


def test_a_symlink_loop_is_an_os_error_naming_the_path(tmp_path: Path) -> None:
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(OSError, match=r"a\.png") as info:
        ContentPart.from_path(a)
    assert info.value.errno == 40  # ELOOP


def test_a_dangling_symlink_is_file_not_found(tmp_path: Path) -> None:
    link = tmp_path / "gone.png"
    link.symlink_to(tmp_path / "missing.png")
    with pytest.raises(FileNotFoundError, match=r"gone\.png"):
        ContentPart.from_path(link)


def test_a_symlink_to_a_file_is_read_and_named_after_the_link(tmp_path: Path) -> None:
    target = tmp_path / "real.bin"
    target.write_bytes(b"%PDF-1.7\n")
    link = tmp_path / "doc.pdf"
    link.symlink_to(target)
    part = ContentPart.from_path(link)
    assert (part.name, part.mime_type, part.raw()) == ("doc.pdf", "application/pdf", b"%PDF-1.7\n")


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
def test_a_character_device_is_refused_without_reading() -> None:
    for device in ("/dev/null", "/dev/zero"):
        if os.path.exists(device):
            with pytest.raises(ValueError, match="not a regular file"):
                ContentPart.from_path(device)


@pytest.mark.skipif(sys.platform == "win32", reason="Unix sockets")
def test_a_unix_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        with pytest.raises(ValueError, match="not a regular file"):
            ContentPart.from_path(path)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux /proc")
def test_a_file_whose_size_lies_is_still_bounded_by_max_bytes() -> None:
    """/proc files report size 0 and then yield more: the read itself is capped."""
    with pytest.raises(ValueError, match="grew past the limit of 10 bytes"):
        ContentPart.from_path("/proc/self/status", max_bytes=10)
    part = ContentPart.from_path("/proc/self/status")
    assert part.raw().startswith(b"Name:")
    assert part.mime_type == "application/octet-stream"


def test_a_path_with_a_nul_byte_is_a_value_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="holds a NUL character"):
        ContentPart.from_path(str(tmp_path / "a\0b.png"))


def test_an_empty_file_with_a_zero_limit_and_no_extension(tmp_path: Path) -> None:
    path = tmp_path / "empty"
    path.write_bytes(b"")
    with pytest.raises(ValueError, match="is empty: a part carries content"):
        ContentPart.from_path(path, max_bytes=0)
    path.write_bytes(b"x")
    with pytest.raises(ValueError, match="over the limit of 0 bytes"):
        ContentPart.from_path(path, max_bytes=0)
