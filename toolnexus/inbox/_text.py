"""Strings from a stored run, made safe to show a person: nothing in them can move the text
around it, hide itself, or drive the terminal.

A request's prompt and a call's arguments come from the tool, and the tool's arguments from
the model: any of them may hold a right-to-left override (U+202E, which makes `gnp.exe` read
as `exe.png`), zero-width characters, or terminal escape sequences. Both the command and the
page show such characters by their code point instead. HTML escaping is the page's own
(Jinja2's autoescape); this module only makes the invisible visible.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

__all__ = ["shown", "shown_json"]

#: The categories of characters that are never shown as themselves: controls (C0, C1), format
#: characters (the bidirectional overrides and isolates, zero-width joiners and spaces, the BOM),
#: private use, surrogates, unassigned code points, and the line and paragraph separators.
_HIDDEN = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


def shown(text: str, *, keep: str = "") -> str:
    """`text` with each character that is invisible or moves other text written as `<U+XXXX>`
    (the characters in `keep`, such as a newline, stay as they are; with a newline kept, a
    `\\r\\n` becomes `\\n`, and a lone `\\r`, which moves a terminal's cursor back, is shown).

    It differs from `toolnexus_wire.displayable`, which replaces such characters with U+FFFD:
    a person deciding on a call sees which character is there (a right-to-left override in a
    file name is a reason to decline)."""
    if text.isascii() and text.isprintable() and not keep:
        return text
    if "\n" in keep:
        text = text.replace("\r\n", "\n")
    return "".join(
        f"<U+{ord(c):04X}>" if c not in keep and unicodedata.category(c) in _HIDDEN else c for c in text
    )


def shown_json(value: Any, *, indent: int | None = None) -> str:
    """`value` as JSON text that parses back to the same value, with each invisible or moving
    character inside a string written as a JSON escape (`\\u202e`); `indent` as `json.dumps`."""
    separators = (", ", ": ") if indent is None else (",", ": ")
    text = json.dumps(value, ensure_ascii=False, indent=indent, separators=separators)
    if text.isascii() and "\x7f" not in text:
        return text  # json.dumps has escaped every other control character already
    return "".join(_json_escape(c) if unicodedata.category(c) in _HIDDEN and c != "\n" else c for c in text)


def _json_escape(c: str) -> str:
    code = ord(c)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # beyond the BMP: a surrogate pair, as JSON writes it
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
