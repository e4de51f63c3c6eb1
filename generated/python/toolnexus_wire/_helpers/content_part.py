# Generated from idl/ (toolnexus schema 1.0.0, sha256 fba634dffffaefd970e0f3dc7e5ba5788254ff546fd625fdd1bdb0d5e3a8b159).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_helpers/content_part.py (hand-written, copied verbatim).
# codegen: copy; requires ContentPart
"""`ContentPart.from_path`, `from_bytes` and `raw`."""

from __future__ import annotations

import binascii
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from .._base import WireModel
from .._media import SNIFF_BYTES, kind_of, sniff_mime

__all__ = ["DEFAULT_MAX_BYTES", "ContentPartHelpers"]

#: The default size limit of `ContentPart.from_path`: 20 MiB.
DEFAULT_MAX_BYTES = 20 * 1024 * 1024

_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # POSIX; Windows has no FIFOs to block on
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)  # Windows


def _check_regular(p: Path, st: os.stat_result, max_bytes: int) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(21, "is a directory, not a file", str(p))
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"{str(p)!r} is not a regular file (a FIFO, socket or device); not read")
    if st.st_size > max_bytes:
        raise ValueError(f"{str(p)!r} is {st.st_size} bytes, over the limit of {max_bytes} bytes")


def _name_of(p: Path) -> str:
    """The file name of `p` as UTF-8 text: bytes that are not UTF-8 (kept by Python as lone
    surrogates) become U+FFFD, as Rust's `to_string_lossy` writes them."""
    name = p.name
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        name = os.fsencode(name).decode("utf-8", "replace")
    return name


class ContentPartHelpers(WireModel):
    """The constructors and accessors of `ContentPart` beyond its fields."""

    if TYPE_CHECKING:  # declared by the generated model; named here for the type checker only
        data: str

    @staticmethod
    def kind_for(mime_type: str) -> str:
        """The `kind` of a part holding `mime_type`: its family (`image`, `audio`, `video`) or `file`."""
        return kind_of(mime_type)

    @classmethod
    def _build(cls, mime_type: str, data: str, name: str | None) -> Self:
        wire: dict[str, Any] = {"kind": kind_of(mime_type), "mimeType": mime_type, "data": data}
        if name is not None:
            wire["name"] = name
        return cls.model_validate(wire, by_alias=True, by_name=False)

    @classmethod
    def from_bytes(cls, raw: bytes, mime_type: str, *, name: str | None = None) -> Self:
        """A part holding `raw`; `kind` follows the MIME family."""
        return cls._build(mime_type, binascii.b2a_base64(raw, newline=False).decode("ascii"), name)

    @classmethod
    def from_path(cls, path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES) -> Self:
        """A part holding the file at `path`, named after it.

        The MIME type comes from the file's first bytes for common formats (PNG,
        JPEG, GIF, WebP, PDF, WAV, MP3, OGG, FLAC, MP4, WebM...), else from its
        extension, else `application/octet-stream`. Raises `FileNotFoundError`,
        `IsADirectoryError`, `PermissionError` or another `OSError` when the file
        cannot be read, and `ValueError` when it is not a regular file or is larger
        than `max_bytes`; each message names the path. The part's `name` is the file
        name, with U+FFFD for bytes of it that are not UTF-8.
        """
        p = Path(path)
        st = os.stat(p)  # follows links; raises for a missing file or a link loop
        _check_regular(p, st, max_bytes)  # a FIFO or a device is refused before it is opened
        # The path may be swapped between that check and the open (for a FIFO, whose open
        # blocks until a writer comes): open without blocking, then check what was opened.
        fd = os.open(p, os.O_RDONLY | _O_NONBLOCK | _O_CLOEXEC | _O_BINARY)
        try:
            f = open(fd, "rb")  # noqa: SIM115  (closed by the `with` below)
        except BaseException:
            os.close(fd)
            raise
        with f:
            _check_regular(p, os.fstat(fd), max_bytes)
            raw = f.read(max_bytes + 1)
        if len(raw) > max_bytes:
            raise ValueError(f"{str(p)!r} grew past the limit of {max_bytes} bytes while being read")
        mime_type = sniff_mime(raw[:SNIFF_BYTES], p.suffix)
        encoded = binascii.b2a_base64(raw, newline=False)
        del raw  # freed before the text copy is made: the peak is two copies of the file, not three
        part = cls._build(mime_type, "", _name_of(p))
        # Base64 written just now is valid by construction: set unchecked (assignment is
        # validated), as the data pattern's regex over a large file costs more than the encoding.
        part.__dict__["data"] = encoded.decode("ascii")
        return part

    def raw(self) -> bytes:
        """The decoded bytes of `data`."""
        return binascii.a2b_base64(self.data, strict_mode=True)
