# Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_links.py (hand-written, copied verbatim).
# codegen: copy
"""What the helpers let in: URLs by their scheme, MIME types, and names a person sees.

The same rules as the TypeScript package's `media.ts` and the Rust crate's `media.rs`, pinned
for all three by the helper vectors in `idl/helpers/`:

- A URL by reference (a part's `url`, a `Request`'s `url`) is `http://` or `https://` (any
  case) and something after it, without a control character (U+0000 to U+001F, U+007F to
  U+009F) or a bidi formatting character (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to
  U+2069; RFC 3987 forbids them in IRIs). `javascript:`, `file:`, `data:` and the rest are
  refused: a host shows such a URL as a link, or fetches it. (A `data:` URL given to
  `from_url` is decoded into the part's `data`, never kept as a link.)
- A MIME type is not empty, not only spaces, and holds no control character, so it cannot
  split a header line (`image/png\\r\\nX-Evil: 1`).
- A name taken from outside (a file's name, a name an MCP server sends) has each control and
  bidi formatting character replaced with U+FFFD: `invoice\\u202egpj.exe` would show as
  `invoiceexe.jpg`.

The wire itself carries any text in these fields, as upstream toolnexus does: these rules
apply where a URL, a MIME type or a name enters through a helper.
"""

from __future__ import annotations

import re

__all__ = ["check_mime_type", "check_url", "displayable"]

#: Control characters (Unicode category Cc) and bidi formatting characters (Bidi_Control).
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_HIDDEN_BUT_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: `http://` or `https://`, the scheme in any case (spelled out: IGNORECASE would let U+017F be `s`).
_WEB = re.compile(r"[Hh][Tt][Tt][Pp][Ss]?://")


def _hidden(text: str) -> str | None:
    """What is wrong with the first hidden character of `text`, or None."""
    found = _HIDDEN.search(text)
    if found is None:
        return None
    c = found.group()
    what = "a bidi formatting character" if c >= "\u061c" else "a control character"
    return f"{what} (U+{ord(c):04X}) at index {found.start()}"


def check_url(url: str) -> str:
    """`url`, when it is an `http` or `https` URL without control or bidi formatting
    characters; else `ValueError` saying what is wrong."""
    if not isinstance(url, str):
        raise TypeError(f"a URL is a str, got {type(url).__name__}")
    if (problem := _hidden(url)) is not None:
        raise ValueError(f"the URL {url!r} holds {problem}")
    scheme = _WEB.match(url)
    if scheme is None or scheme.end() == len(url):
        raise ValueError(
            f"the URL {url!r} is not an http or https URL (javascript:, file:, data: and others are refused)"
        )
    return url


def check_mime_type(mime_type: str) -> str:
    """`mime_type`, when it is not empty, not only spaces, and holds no control character;
    else `ValueError` saying what is wrong."""
    if not isinstance(mime_type, str):
        raise TypeError(f"a MIME type is a str, got {type(mime_type).__name__}")
    if not mime_type.strip(" "):
        raise ValueError(f"the MIME type {mime_type!r} is blank")
    found = re.search("[\x00-\x1f\x7f-\x9f]", mime_type)
    if found is not None:
        c, at = ord(found.group()), found.start()
        raise ValueError(f"the MIME type {mime_type!r} holds a control character (U+{c:04X}) at index {at}")
    return mime_type


def displayable(text: str, *, lines: bool = False) -> str:
    """`text` with each control character and bidi formatting character replaced with U+FFFD,
    so that what a person sees is what is there. With `lines`, line breaks and tabs are kept
    (a `\\r\\n` becomes `\\n`; a lone `\\r`, which moves a terminal's cursor back over the line,
    is replaced)."""
    if lines:
        return _HIDDEN_BUT_LINES.sub("\ufffd", text.replace("\r\n", "\n"))
    return _HIDDEN.sub("\ufffd", text)
