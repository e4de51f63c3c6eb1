"""`ContentPart.from_path`, `from_bytes` and `raw`."""

import base64
import os

import pytest

from toolnexus import ContentPart, ToolResult

SAMPLES = {
    "a.png": (b"\x89PNG\r\n\x1a\n" + b"\0" * 16, "image/png", "image"),
    "a.jpg": (b"\xff\xd8\xff\xe0" + b"\0" * 16, "image/jpeg", "image"),
    "a.gif": (b"GIF89a" + b"\0" * 16, "image/gif", "image"),
    "a.webp": (b"RIFF\0\0\0\0WEBPVP8 " + b"\0" * 8, "image/webp", "image"),
    "a.pdf": (b"%PDF-1.7\n" + b"\0" * 8, "application/pdf", "file"),
    "a.wav": (b"RIFF\0\0\0\0WAVEfmt " + b"\0" * 8, "audio/wav", "audio"),
    "a.mp3": (b"ID3\x04\0" + b"\0" * 16, "audio/mpeg", "audio"),
    "b.mp3": (b"\xff\xfb\x90\x64" + b"\0" * 16, "audio/mpeg", "audio"),
    "a.ogg": (b"OggS\0\x02" + b"\0" * 16, "audio/ogg", "audio"),
    "a.mp4": (b"\0\0\0\x18ftypisom" + b"\0" * 8, "video/mp4", "file"),
    "a.webm": (b"\x1a\x45\xdf\xa3\x9f\x42\x82\x84webm", "video/webm", "file"),
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_type_comes_from_the_content(tmp_path, name):
    raw, mime, kind = SAMPLES[name]
    path = tmp_path / ("misnamed.bin" if name != "b.mp3" else name)
    path.write_bytes(raw)
    part = ContentPart.from_path(path)
    assert (part.mime_type, part.kind, part.name) == (mime, kind, path.name)
    assert part.raw() == raw
    assert part.data == base64.b64encode(raw).decode()


@pytest.mark.parametrize(
    ("name", "mime", "kind"),
    [
        ("notes.txt", "text/plain", "file"),
        ("clip.mov", "video/quicktime", "file"),
        ("blob.xyz", "application/octet-stream", "file"),
    ],
)
def test_the_extension_is_the_fallback(tmp_path, name, mime, kind):
    path = tmp_path / name
    path.write_bytes(b"plain bytes")
    part = ContentPart.from_path(path)
    assert (part.mime_type, part.kind) == (mime, kind)


def test_an_empty_file_is_no_part(tmp_path):
    # An empty `data` is omitted from the wire, so the part would carry nothing.
    path = tmp_path / "empty.png"
    path.write_bytes(b"")
    with pytest.raises(ValueError, match=r"empty\.png' is empty: a part carries content"):
        ContentPart.from_path(path)
    with pytest.raises(ValueError, match="at least one byte"):
        ContentPart.from_bytes(b"", "image/png")


def test_a_part_carries_something_when_built_and_is_kept_as_read():
    with pytest.raises(ValueError, match='a "text" part needs "text": a part that carries nothing is never'):
        ContentPart(kind="text")
    with pytest.raises(ValueError, match='a "image" part needs "data" or "url"'):
        ContentPart(kind="image", mime_type="image/png", name="a.png")
    with pytest.raises(ValueError, match="carries nothing"):
        ContentPart.from_text("")
    both = ContentPart(kind="image", mime_type="image/png", data="aGk=", url="https://e.x/a.png")
    assert ContentPart.from_json(both.to_json()) == both
    # What upstream writes for `ContentPart::text("")` and `from_bytes` of no bytes is read, and
    # written back as it came: a round trip loses nothing.
    upstream = (
        '{"output":"x","isError":false,"parts":[{"type":"text","text":"a"},{"type":"text"},'
        '{"type":"file","mimeType":"application/octet-stream"}]}'
    )
    read = ToolResult.from_json(upstream)
    assert [p.kind for p in read.parts] == ["text", "text", "file"] and read.to_json() == upstream


def test_bad_paths_raise_errors_that_name_the_path(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"nope\.png"):
        ContentPart.from_path(tmp_path / "nope.png")
    with pytest.raises(IsADirectoryError, match=str(tmp_path)):
        ContentPart.from_path(tmp_path)
    big = tmp_path / "big.bin"
    big.write_bytes(b"x" * 11)
    with pytest.raises(ValueError, match=r"big\.bin.* 11 bytes, over the limit of 10 bytes"):
        ContentPart.from_path(big, max_bytes=10)
    assert ContentPart.from_path(big, max_bytes=11).raw() == b"x" * 11


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="not a regular file"):
        ContentPart.from_path(fifo)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file_is_a_permission_error(tmp_path):
    path = tmp_path / "secret.png"
    path.write_bytes(b"x")
    path.chmod(0)
    with pytest.raises(PermissionError, match=r"secret\.png"):
        ContentPart.from_path(path)


def test_from_bytes_and_positional_construction():
    part = ContentPart.from_bytes(b"\x00\xffabc", "audio/wav", name="a.wav")
    assert part == ContentPart("audio", mime_type="audio/wav", data="AP9hYmM=", name="a.wav")
    assert part.to_json() == '{"type":"audio","mimeType":"audio/wav","data":"AP9hYmM=","name":"a.wav"}'
