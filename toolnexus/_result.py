"""The wire types as users meet them: the generated models plus their helpers."""

from __future__ import annotations

import binascii
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypeVar

import toolnexus_wire as wire
from toolnexus_wire import WireError
from toolnexus_wire._fast import register as register_fast

from ._media import SNIFF_BYTES, kind_of, sniff_mime

__all__ = [
    "DEFAULT_MAX_BYTES",
    "Answer",
    "ContentPart",
    "Request",
    "RunResult",
    "ToolCall",
    "ToolCallResult",
    "ToolResult",
    "ToolSpec",
    "WireError",
]

#: The default size limit of `ContentPart.from_path`: 20 MiB.
DEFAULT_MAX_BYTES = 20 * 1024 * 1024

_Init = TypeVar("_Init", bound=Callable[..., None])


def _positional(init: _Init) -> _Init:
    """Mark a constructor that only adds positional arguments on top of pydantic's.

    pydantic calls a model's own `__init__` when it validates that model nested in
    another, which would bypass the by-alias, JSON-mode validation of `from_json`.
    Marking the constructor the way pydantic marks its own keeps nested values on
    the fast, strict path; the constructor is then used only when user code calls it.
    """
    init.__pydantic_base_init__ = True  # type: ignore[attr-defined]
    return init


def _given(**fields: Any) -> dict[str, Any]:
    """The optional fields that were given: None means absent, and the wire refuses `null`."""
    return {k: v for k, v in fields.items() if v is not None}


class ContentPart(wire.ContentPart):
    """A non-text part of a result (image, audio, video or file), base64 inline."""

    @_positional
    def __init__(
        self,
        kind: Literal["image", "audio", "video", "file"],
        mime_type: str,
        data: str,
        name: str | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(kind=kind, mime_type=mime_type, data=data, **_given(name=name), **extra)

    @classmethod
    def from_bytes(cls, raw: bytes, mime_type: str, *, name: str | None = None) -> ContentPart:
        """A part holding `raw`; `kind` follows the MIME family."""
        data = binascii.b2a_base64(raw, newline=False).decode("ascii")
        return cls(kind_of(mime_type), mime_type, data, name)  # type: ignore[arg-type]

    @classmethod
    def from_path(cls, path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES) -> ContentPart:
        """A part holding the file at `path`, named after it.

        The MIME type comes from the file's first bytes for common formats (PNG,
        JPEG, GIF, WebP, PDF, WAV, MP3, OGG, FLAC, MP4, WebM...), else from its
        extension, else `application/octet-stream`. Raises `FileNotFoundError`,
        `IsADirectoryError`, `PermissionError` or another `OSError` when the file
        cannot be read, and `ValueError` when it is not a regular file or is larger
        than `max_bytes`; each message names the path.
        """
        p = Path(path)
        st = os.stat(p)  # follows links; raises for a missing file or a link loop
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(21, "is a directory, not a file", str(p))
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"{str(p)!r} is not a regular file (a FIFO, socket or device); not read")
        if st.st_size > max_bytes:
            raise ValueError(f"{str(p)!r} is {st.st_size} bytes, over the limit of {max_bytes} bytes")
        with open(p, "rb") as f:
            raw = f.read(max_bytes + 1)
        if len(raw) > max_bytes:
            raise ValueError(f"{str(p)!r} grew past the limit of {max_bytes} bytes while being read")
        mime_type = sniff_mime(raw[:SNIFF_BYTES], p.suffix)
        encoded = binascii.b2a_base64(raw, newline=False)
        del raw  # freed before the text copy is made: the peak is two copies of the file, not three
        part = cls(kind_of(mime_type), mime_type, "", p.name)  # type: ignore[arg-type]
        # Base64 written just now is valid by construction: assigned unchecked, as the data
        # pattern's regex over a large file costs more than the encoding itself.
        part.data = encoded.decode("ascii")
        return part

    def raw(self) -> bytes:
        """The decoded bytes of `data`."""
        return binascii.a2b_base64(self.data, strict_mode=True)


class ToolResult(wire.ToolResult):
    """The envelope every tool returns."""

    # Re-declared with the runtime item type, so parsing builds runtime objects (pydantic copies
    # the default per instance). The wire key and default are pinned by a test.
    parts: list[ContentPart] = []  # type: ignore[assignment]  # noqa: RUF012

    @classmethod
    def ok(cls, output: str) -> ToolResult:
        """A successful result with `output` for the model."""
        # The validator straight away, not `cls(...)`: the same checks without pydantic's
        # Python-level `__init__`; an explicit [] is cheaper than its copy of the default.
        return cls.__pydantic_validator__.validate_python({"output": output, "parts": []})  # type: ignore[no-any-return]

    @classmethod
    def error(cls, message: str) -> ToolResult:
        """A failed result; `message` is what the model reads."""
        return cls.__pydantic_validator__.validate_python(  # type: ignore[no-any-return]
            {"output": message, "isError": True, "parts": []}
        )

    def with_metadata(self, meta: dict[str, Any]) -> ToolResult:
        """A copy with `meta`'s keys added to the metadata (replacing keys it already has).

        The original is unchanged; its other metadata, such as a pending request, is kept.
        """
        merged = {**self.metadata, **meta} if self.metadata else dict(meta)
        return self.model_copy(update={"metadata": merged, "parts": list(self.parts)})


class Request(wire.Request):
    """What a suspended tool asks of the host (see `pending`)."""

    @_positional
    def __init__(
        self,
        kind: str,
        prompt: str,
        id: str = "",
        url: str | None = None,
        data: dict[str, Any] | None = None,
        expires_at: str | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(
            id=id, kind=kind, prompt=prompt, **_given(url=url, data=data, expires_at=expires_at), **extra
        )


class Answer(wire.Answer):
    """The host's reply to a `Request`."""

    @_positional
    def __init__(
        self,
        id: str,
        ok: bool,
        data: dict[str, Any] | None = None,
        reason: Literal["declined", "cancelled", "expired"] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(id=id, ok=ok, **_given(data=data, reason=reason), **extra)


class ToolSpec(wire.ToolSpec):
    """How a tool is declared to a model."""

    @_positional
    def __init__(
        self,
        name: str,
        description: str,
        input_schema: dict[str, Any],
        source: str | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(
            name=name, description=description, input_schema=input_schema, **_given(source=source), **extra
        )


class ToolCall(wire.ToolCall):
    """One tool call a model asked for."""

    @_positional
    def __init__(self, id: str, name: str, arguments: dict[str, Any], **extra: Any) -> None:
        super().__init__(id=id, name=name, arguments=arguments, **extra)


class ToolCallResult(wire.ToolCallResult):
    """The result of one `ToolCall`."""

    result: ToolResult

    @_positional
    def __init__(self, id: str, name: str, result: ToolResult, **extra: Any) -> None:
        super().__init__(id=id, name=name, result=result, **extra)


class RunResult(wire.RunResult):
    """The outcome of one turn of tool calls: `done`, or `pending` on a request."""

    results: list[ToolCallResult]  # type: ignore[assignment]
    pending: Request | None = None
    calls: list[ToolCall] = []  # type: ignore[assignment]  # noqa: RUF012
    requests: list[Request] = []  # type: ignore[assignment]  # noqa: RUF012

    @_positional
    def __init__(
        self,
        status: Literal["done", "pending"],
        results: list[ToolCallResult],
        pending: Request | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(status=status, results=results, **_given(pending=pending), **extra)  # type: ignore[arg-type]


# The runtime classes have the fields of their generated bases (a test pins it), so
# `from_json` may build them on the generated fast path.
for _cls in (ContentPart, Request, Answer, ToolResult, ToolSpec, ToolCall, ToolCallResult, RunResult):
    register_fast(_cls, _cls.__name__)
