# codegen: package; requires ContentPart
"""`ContentPart.from_text`, `from_bytes`, `from_path`, `from_url` and `raw`."""

from __future__ import annotations

import binascii
import os
import stat
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Self

from .. import _speed
from .._base import WireModel
from .._links import _hidden, check_mime_type, check_url, displayable
from .._media import SNIFF_BYTES, kind_of, sniff_mime

__all__ = ["DEFAULT_MAX_BYTES", "ContentPartHelpers"]

#: The default size limit of `ContentPart.from_path`: 20 MiB.
DEFAULT_MAX_BYTES = 20 * 1024 * 1024

_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # POSIX; Windows has no FIFOs to block on
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)  # Windows


def _check_regular(path: str, st: os.stat_result, max_bytes: int) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(21, "is a directory, not a file", path)
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"{path!r} is not a regular file (a FIFO, socket or device); not read")
    if st.st_size > max_bytes:
        raise ValueError(f"{path!r} is {st.st_size} bytes, over the limit of {max_bytes} bytes")


def _name_of(p: Path) -> str:
    """The file name of `p` as UTF-8 text a person can read: bytes that are not UTF-8 (kept by
    Python as lone surrogates) become U+FFFD, as Rust's `to_string_lossy` writes them, and so
    do control and bidi formatting characters (`displayable`)."""
    name = p.name
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        name = os.fsencode(name).decode("utf-8", "replace")
    return displayable(name)


def _data_url(url: str) -> tuple[str, bytes]:
    """The MIME type and the bytes of a `data:` URL (RFC 2397); `ValueError` saying what is wrong."""
    meta, comma, payload = url[len("data:") :].partition(",")
    if not comma:
        raise ValueError("a data: URL needs a comma between its media type and its data")
    params = [p.strip() for p in meta.split(";")]
    is_base64 = len(params) > 1 and params[-1].lower() == "base64"
    if is_base64:
        params.pop()
    mime_type = ";".join(params) if params[0] else "text/plain;charset=US-ASCII"
    raw = urllib.parse.unquote_to_bytes(payload)
    if not is_base64:
        return mime_type, raw
    try:
        return mime_type, binascii.a2b_base64(raw, strict_mode=True)
    except binascii.Error as exc:
        raise ValueError(f"the data: URL's base64 is not valid: {exc}") from None


def carries_nothing(part: Any) -> str | None:
    """Why `part` carries nothing (a `text` part without text, another without `data` or
    `url`), or None. Such a part is read (upstream writes `{"type":"text"}` for an empty text)
    and kept through a round trip, but never built, and adapters send a note in its place."""
    d = part.__dict__
    if d["kind"] == "text":
        return None if d["text"] else 'a "text" part needs "text"'
    return None if d["data"] or d["url"] else f'a "{d["kind"]}" part needs "data" or "url"'


class ContentPartHelpers(WireModel):
    """The constructors and accessors of `ContentPart` beyond its fields."""

    if TYPE_CHECKING:  # declared by the generated model; named here for the type checker only
        data: str

    def _check_built(self) -> None:
        """A part built in code must carry something (`ValueError`); one read from the wire
        (`from_wire`, `from_json`) may not, as upstream writes such parts (`wire_init`)."""
        if (why := carries_nothing(self)) is not None:
            raise ValueError(
                f"{why}: a part that carries nothing is never built (give it content, or no part)"
            )

    @staticmethod
    def kind_for(mime_type: str) -> Literal["image", "audio", "file"]:
        """The `kind` of a part holding `mime_type`: `image` or `audio` by its family, else `file`."""
        return kind_of(mime_type)

    @classmethod
    def _build(cls, mime_type: str | None, data: str, name: str | None, url: str = "") -> Self:
        if mime_type is None or mime_type == "":
            raise ValueError("a part needs a MIME type such as 'image/png'")
        check_mime_type(mime_type)
        wire: dict[str, Any] = {"type": kind_of(mime_type), "mimeType": mime_type, "data": data, "url": url}
        if name is not None:
            wire["name"] = displayable(name)
        # The fast decoder makes what the validator makes, or declines (`_speed`): the first
        # part of a process needs no validator built (`defer_build`).
        decode = _speed.decoder_for(cls)
        part = decode(wire, False) if decode is not None else None
        if part is not None:
            return part  # type: ignore[no-any-return]
        return cls.model_validate(wire, by_alias=True, by_name=False)

    @classmethod
    def from_text(cls, text: str) -> Self:
        """A `text` part holding `text`. (It is not named `text`, as the field is.)"""
        if not isinstance(text, str):
            raise TypeError(f"from_text takes a str, got {type(text).__name__}")
        if not text:
            raise ValueError("from_text needs a non-empty str: a part that carries nothing is never built")
        return cls.model_validate({"type": "text", "text": text}, by_alias=True, by_name=False)

    @classmethod
    def from_bytes(cls, raw: bytes, mime_type: str, *, name: str | None = None) -> Self:
        """A part holding `raw`; `kind` follows the MIME family (`image`, `audio`, else `file`).

        `ValueError` when `mime_type` is empty, blank or holds a control character (such as a
        line break), or `raw` is empty (an empty `data` is omitted from the wire, and a part that
        carries nothing is never built). Control and bidi formatting characters in
        `name` become U+FFFD.
        """
        if not raw and isinstance(raw, bytes | bytearray | memoryview):
            raise ValueError("from_bytes needs at least one byte: a part that carries nothing is never built")
        return cls._build(mime_type, binascii.b2a_base64(raw, newline=False).decode("ascii"), name)

    @classmethod
    def from_url(cls, url: str, mime_type: str | None = None, *, name: str | None = None) -> Self:
        """A part for the content at `url`.

        A `data:` URL is decoded: the part holds its bytes in `data`, with its media type
        (or `mime_type`, when given). Any other URL is kept as `url`, by reference: it must be
        an `http` or `https` URL, and needs `mime_type`, since nothing is fetched. `ValueError`
        says what is wrong: an empty URL, another scheme (`javascript:`, `file:`...), a control
        or bidi formatting character in the URL, a missing MIME type, or one that is blank or
        holds a control character.
        """
        if not isinstance(url, str) or not url:
            raise ValueError(f"from_url needs a non-empty URL, got {url!r}")
        if (problem := _hidden(url)) is not None:
            raise ValueError(f"the URL {url!r} holds {problem}")
        if url[:5].lower() == "data:":
            own, raw = _data_url(url)
            return cls.from_bytes(raw, own if mime_type is None or mime_type == "" else mime_type, name=name)
        check_url(url)
        if not mime_type:
            raise ValueError(
                f"a part by URL needs its MIME type, as nothing is fetched: from_url({url!r}, 'image/png')"
            )
        return cls._build(mime_type, "", name, url)

    @classmethod
    def from_path(cls, path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES) -> Self:
        """A part holding the file at `path`, named after it.

        The MIME type comes from the file's first bytes for common formats (PNG,
        JPEG, GIF, WebP, PDF, WAV, MP3, OGG, FLAC, MP4, WebM...), else from its
        extension, else `application/octet-stream`. Raises `FileNotFoundError` (also
        for an empty path), `NotADirectoryError` (a file's path with a trailing slash),
        `IsADirectoryError`, `PermissionError` or another `OSError` when the file
        cannot be read, and `ValueError` when it is not a regular file, is empty (a part
        carries content), is larger than `max_bytes`, or the path holds a NUL character;
        each message names the path. The path is given to the system as it is written, as
        the TypeScript and Rust helpers give it. The part's `name` is the file name, with
        U+FFFD for bytes of it that are not UTF-8 and for control and bidi formatting characters.
        """
        # As written: pathlib would drop a trailing slash ("note.txt/" is not a directory,
        # so the system refuses it) and read "" as ".".
        where = os.fspath(path)
        if "\x00" in where:
            raise ValueError(f"{where!r} holds a NUL character, which no file name can")
        p = Path(where)
        st = os.stat(where)  # follows links; raises for a missing file or a link loop
        _check_regular(where, st, max_bytes)  # a FIFO or a device is refused before it is opened
        # The path may be swapped between that check and the open (for a FIFO, whose open
        # blocks until a writer comes): open without blocking, then check what was opened.
        fd = os.open(where, os.O_RDONLY | _O_NONBLOCK | _O_CLOEXEC | _O_BINARY)
        try:
            f = open(fd, "rb")  # noqa: SIM115  (closed by the `with` below)
        except BaseException:
            os.close(fd)
            raise
        with f:
            _check_regular(where, os.fstat(fd), max_bytes)
            raw = f.read(max_bytes + 1)
        if len(raw) > max_bytes:
            raise ValueError(f"{where!r} grew past the limit of {max_bytes} bytes while being read")
        if not raw:
            raise ValueError(f"{where!r} is empty: a part carries content, and an empty one is refused")
        mime_type = sniff_mime(raw[:SNIFF_BYTES], p.suffix)
        encoded = binascii.b2a_base64(raw, newline=False)
        del raw  # freed before the text copy is made: the peak is two copies of the file, not three
        # Validated with the first four characters of its data (a part carries something).
        part = cls._build(mime_type, encoded[:4].decode("ascii"), _name_of(p))
        # Base64 written just now is valid by construction: set unchecked (assignment is
        # validated), as the data pattern's regex over a large file costs more than the encoding.
        part.__dict__["data"] = encoded.decode("ascii")
        return part

    def raw(self) -> bytes:
        """The decoded bytes of `data`."""
        return binascii.a2b_base64(self.data, strict_mode=True)
