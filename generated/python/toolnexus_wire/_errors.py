# Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
# Source: support/python/toolnexus_wire/_errors.py (hand-written, copied verbatim).
# codegen: copy
"""The one error the wire package raises, the root of every toolnexus error, and the JSON path
it reports.

    ToolnexusError            the root: catch it to catch any error toolnexus raises
    ├── WireError             a document is not valid wire data (parsing)
    └── ResumeError           (toolnexus) a well-formed run or answer cannot be resumed
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError

__all__ = ["ToolnexusError", "WireError", "json_path"]

#: A `WireError` lists at most this many problems, each message cut to `_MAX_MESSAGE` characters,
#: so a document with a million bad parts does not make a message of a hundred megabytes.
_MAX_ERRORS = 50
_MAX_MESSAGE = 300


class ToolnexusError(ValueError):
    """The root of the errors toolnexus raises (`WireError`, `toolnexus.ResumeError`). A tool's
    own failure is never one: `Tool.call` and the toolkit make it an error result."""

    __module__ = "toolnexus_wire"


class WireError(ToolnexusError):
    """A document is not a valid wire value: raised by `from_wire` and `from_json`.

    `path` is the JSON path of the first offending place (`$` for the document
    itself, `$.parts[0].mimeType` for a nested key); `errors` lists the problems
    found as `(path, message)` pairs. It is the one error parsing raises: malformed
    JSON, bytes that are not UTF-8, a missing key and a key with the wrong type all
    end here. Encoding never raises it. It differs from `toolnexus.ResumeError`,
    which refuses a well-formed run or answer that cannot be resumed.
    """

    __module__ = "toolnexus_wire"

    def __init__(self, type_name: str, errors: list[tuple[str, str]]) -> None:
        self.type_name = type_name
        self.errors = errors
        self.path = errors[0][0] if errors else "$"
        shown = [f"{path}: {msg[:_MAX_MESSAGE]}" for path, msg in errors[:_MAX_ERRORS]]
        if len(errors) > _MAX_ERRORS:
            shown.append(f"and {len(errors) - _MAX_ERRORS} more")
        super().__init__(f"invalid {type_name}: {'; '.join(shown)}")

    @classmethod
    def from_validation(cls, type_name: str, exc: ValidationError) -> WireError:
        """The pydantic `exc` in wire terms: each error's location as a JSON path."""
        return cls(type_name, [(json_path(err["loc"]), err["msg"]) for err in exc.errors()])


def json_path(loc: tuple[int | str, ...]) -> str:
    """`('parts', 0, 'mimeType')` -> `$.parts[0].mimeType`."""
    out = ["$"]
    for part in loc:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif part.isidentifier():
            out.append(f".{part}")
        else:
            out.append(f"[{json.dumps(part, ensure_ascii=False)}]")
    return "".join(out)
