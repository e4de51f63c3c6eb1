"""Suspensions: a `ToolResult` whose `metadata["pending"]` is a `Request`."""

from __future__ import annotations

import secrets

from toolnexus_wire import check_url

from ._errors import UsageError, WireError
from ._result import Request, ToolResult

__all__ = ["DEFAULT_AUTH_PROMPT", "auth_required", "new_request_id", "pending", "pending_of"]

DEFAULT_AUTH_PROMPT = "Authorization required to continue"


def new_request_id() -> str:
    """`pnd-` and 128 random bits in hex: unique across processes without coordination."""
    return "pnd-" + secrets.token_hex(16)


def pending(request: Request) -> ToolResult:
    """A suspension asking `request` of the host.

    The result is an error (`is_error=True`) whose output is the prompt, followed
    by the url on a line of its own when there is one, so a host that knows
    nothing of suspensions still shows something sensible. An empty id is
    replaced with a fresh `pnd-…` id.

    A url, which a host shows a person as the link to follow, must be an `http` or
    `https` URL without control or bidi formatting characters (`toolnexus_wire.check_url`):
    `ValueError` otherwise (`javascript:`, `file:`, `data:`...). An empty url is no url.
    """
    if request.url:
        try:
            check_url(request.url)
        except ValueError as exc:
            raise UsageError(f"cannot ask {request.kind!r}: the request's url is refused: {exc}") from None
    if not request.id:
        request = request.model_copy(update={"id": new_request_id()})
    output = f"{request.prompt}\n{request.url}" if request.url else request.prompt
    return ToolResult(output=output, is_error=True, metadata={"pending": request.to_wire()})


def auth_required(url: str, prompt: str = "") -> ToolResult:
    """A suspension asking the person to authorize at `url`, an `http` or `https` URL
    (`ValueError` for any other, an empty one included)."""
    if not url:
        raise UsageError("auth_required needs the http or https URL to authorize at, got ''")
    return pending(Request(kind="authorization", prompt=prompt or DEFAULT_AUTH_PROMPT, url=url))


def pending_of(result: ToolResult) -> Request | None:
    """The `Request` a suspension carries, or None for any other result
    (including one whose `metadata["pending"]` is not a valid request)."""
    meta = result.metadata
    if not meta:
        return None
    value = meta.get("pending")
    if value is None:
        return None
    if isinstance(value, Request):
        return value
    try:
        return Request.from_wire(value)
    except WireError:
        return None
