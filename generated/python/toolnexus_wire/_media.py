# Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_media.py (hand-written, copied verbatim).
# codegen: copy; requires ContentPart
"""Content sniffing for `ContentPart.from_path`: the MIME type from the first bytes,
then from the file extension, then `application/octet-stream`."""

from __future__ import annotations

from typing import Literal

__all__ = ["SNIFF_BYTES", "kind_of", "sniff_mime"]

#: Bytes read from the head of a file to sniff its type.
SNIFF_BYTES = 64

_EXTENSIONS = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".bmp": "image/bmp",
    ".svg": "image/svg+xml",
    ".tif": "image/tiff",
    ".tiff": "image/tiff",
    ".ico": "image/vnd.microsoft.icon",
    ".pdf": "application/pdf",
    ".wav": "audio/wav",
    ".mp3": "audio/mpeg",
    ".ogg": "audio/ogg",
    ".oga": "audio/ogg",
    ".opus": "audio/ogg",
    ".flac": "audio/flac",
    ".m4a": "audio/mp4",
    ".aac": "audio/aac",
    ".mp4": "video/mp4",
    ".m4v": "video/mp4",
    ".mov": "video/quicktime",
    ".webm": "video/webm",
    ".mkv": "video/x-matroska",
    ".avi": "video/x-msvideo",
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".csv": "text/csv",
    ".html": "text/html",
    ".htm": "text/html",
    ".json": "application/json",
    ".xml": "application/xml",
    ".zip": "application/zip",
    ".gz": "application/gzip",
}


def _riff(head: bytes) -> str | None:
    form = head[8:12]
    return {b"WEBP": "image/webp", b"WAVE": "audio/wav", b"AVI ": "video/x-msvideo"}.get(form)


def _iso_media(head: bytes) -> str | None:
    if head[4:8] != b"ftyp":
        return None
    brand = head[8:12]
    if brand in (b"M4A ", b"M4B "):
        return "audio/mp4"
    if brand == b"qt  ":
        return "video/quicktime"
    return "video/mp4"


def sniff_mime(head: bytes, suffix: str) -> str:
    """The MIME type of content starting with `head`, in a file whose extension is `suffix`."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if head.startswith(b"RIFF") and (found := _riff(head)):
        return found
    if head.startswith(b"%PDF-"):
        return "application/pdf"
    if head.startswith(b"OggS"):
        return "audio/ogg"
    if head.startswith(b"fLaC"):
        return "audio/flac"
    if head.startswith(b"ID3") or (len(head) > 1 and head[0] == 0xFF and head[1] & 0xE6 == 0xE2):
        # An ID3 tag, or an MPEG audio frame header (sync bits set, layer III).
        return "audio/mpeg"
    if found := _iso_media(head):
        return found
    if head.startswith(b"\x1a\x45\xdf\xa3"):
        return "video/webm" if b"webm" in head else "video/x-matroska"
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return "image/tiff"
    if head.startswith(b"BM") and suffix == ".bmp":
        return "image/bmp"
    return _EXTENSIONS.get(suffix.lower(), "application/octet-stream")


def kind_of(mime_type: str) -> Literal["image", "audio", "file"]:
    """`image` or `audio` from the MIME family; `file` for everything else, video included
    (the upstream ports have no video kind)."""
    family = mime_type.split("/", 1)[0].strip().lower()
    if family == "image":
        return "image"
    if family == "audio":
        return "audio"
    return "file"
