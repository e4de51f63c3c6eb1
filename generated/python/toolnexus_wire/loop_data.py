# Generated from idl/ (toolnexus schema 3.0.0, sha256 7c02d43fec5c2c9bfa10d6191917dc130547ddb2023763bf62894f137966e7a2).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
"""The loop's data, from idl/loop.json (see codegen/loop_data.py)."""

from __future__ import annotations

from typing import Final, Literal

__all__ = [
    "EXTENSIONS",
    "MAX_DEPTH",
    "MESSAGE_LIMIT",
    "READ_RESULT_LENGTH",
    "RESUME_REASONS",
    "ResumeReason",
    "SNIFF_BYTES",
    "approval_prompt",
    "cancelled",
    "cannot_wait",
    "cannot_wait_for_approval",
    "cut",
    "cut_kept",
    "declined_or_expired",
    "declined_with_message",
    "limit_below_marker",
    "limit_empty",
    "limit_not_positive",
    "not_allowed_by_policy",
    "not_approved",
    "read_result_description",
    "read_result_page",
    "read_result_past_end",
    "read_result_unknown",
    "unresolved",
]

#: How deep a document may nest (arrays and objects, the outermost one at level 1); a deeper one is
#: refused at `$` when read, and refused when written.
MAX_DEPTH: Final = 100

#: The most of a refusal's message the model reads, in code points; a longer one is cut, and `…`
#: added.
MESSAGE_LIMIT: Final = 1000

#: How many bytes of a file's head `ContentPart.from_path` reads to tell its MIME type.
SNIFF_BYTES: Final = 64

#: How many code points of a kept result `read_result` returns when its call gives no `length`.
READ_RESULT_LENGTH: Final = 2000

#: Why a resume is refused (`ResumeError.reason`):
#: `mismatch`: The answer's id is not the id of a request the run waits on.
#: `replayed`: The request was already answered: the same answer again, or one to a call already settled.
#: `not_pending`: The run is not waiting: it is done, or holds no pending request.
#: `seal`: The stored run's seal does not match: it was altered, forged, or sealed under another key.
#: `expired`: The stored run expired before the answer came.
#: `principal`: The answer comes from another principal than the one the run belongs to.
ResumeReason = Literal["mismatch", "replayed", "not_pending", "seal", "expired", "principal"]
RESUME_REASONS: Final[tuple[ResumeReason, ...]] = (
    "mismatch",
    "replayed",
    "not_pending",
    "seal",
    "expired",
    "principal",
)

#: The MIME type of a file by its extension, lower case with its dot.
EXTENSIONS: Final[dict[str, str]] = {
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


def unresolved(prompt: str) -> str:
    """A call suspended again after it was answered; the prompt is the first request's, as every upstream port writes it."""
    return "unresolved: " + prompt


def declined_or_expired(prompt: str) -> str:
    """A tool's own request that was refused, or expired, or got no answer in time."""
    return "declined/expired: " + prompt


def declined_with_message(message: str) -> str:
    """A refusal that came with the person's words (cut at MESSAGE_LIMIT)."""
    return "declined: " + message


def not_approved(*, tool: str, tail: str) -> str:
    """A call the toolkit's approval gate did not let run; the tail names a reason other than `declined`, as ` (expired)`."""
    return "declined: the call to " + tool + " was not approved" + tail


def cancelled(tool: str) -> str:
    """A call the host cancelled while it ran."""
    return "declined: the call to " + tool + " was cancelled"


def not_allowed_by_policy(*, tool: str, policy: str) -> str:
    """A call a kept refusal (a policy) settles without asking."""
    return "declined: the call to " + tool + " is not allowed (policy " + policy + ")"


def cannot_wait(problem: str) -> str:
    """A suspension whose request cannot be kept (it cannot be sealed, or is not valid)."""
    return "the call cannot wait for an answer: " + problem


def cannot_wait_for_approval(problem: str) -> str:
    """A call whose approval request cannot be made (its arguments cannot be sealed)."""
    return "the call cannot wait for its approval: " + problem


def approval_prompt(tool: str) -> str:
    """The prompt of the toolkit's own approval request for a call."""
    return "Allow " + tool + " to run with these arguments?"


def cut(cut: str) -> str:
    """Where a call's output over its limit was cut, on a line of its own between the head and the tail kept (a line break before it and one after), when the host keeps no copy of the whole output; the count is in code points."""
    return "[… " + cut + " characters cut …]"


def cut_kept(*, cut: str, reference: str) -> str:
    """As `cut`, when the host keeps the whole output under `ref` (read_result reads it)."""
    return "[… " + cut + ' characters cut; the whole result is kept as "' + reference + '" …]'


def limit_empty() -> str:
    """A limit that sets no unit."""
    return "a result limit counts at least one of chars, tokens and bytes"


def limit_not_positive(*, value: str, unit: str) -> str:
    """A limit of zero, a negative one, or one that is not a whole number."""
    return "a result limit of " + value + " " + unit + " is refused: a limit is a whole number above zero"


def limit_below_marker(*, value: str, unit: str, floor: str) -> str:
    """A limit below the widest cut marker (a 20-digit count and a reference)."""
    return (
        "a result limit of "
        + value
        + " "
        + unit
        + " is refused: the cut marker alone may take "
        + floor
        + " "
        + unit
        + ", so a limit is at least "
        + floor
    )


def read_result_description() -> str:
    """The description of the built-in `read_result` tool."""
    return 'Read part of a tool result that was cut: `ref` is the name its cut marker gives ("result-…"), `offset` the first character to read (from 0), `length` how many characters (2000 unless given).'


def read_result_page(*, reference: str, start: str, end: str, total: str) -> str:
    """The first line of what `read_result` returns, naming the code points read (`end` excluded) and the whole result's length; the code points follow it after a line break."""
    return "[" + reference + ": characters " + start + " to " + end + " of " + total + "]"


def read_result_unknown(reference: str) -> str:
    """`read_result` of a reference this call may not read: none kept under it, or one kept for another session or principal (the two are not told apart)."""
    return (
        'no result kept as "'
        + reference
        + '" can be read here: a kept result is read in the session, and by the principal, it was kept for'
    )


def read_result_past_end(*, offset: str, reference: str, total: str) -> str:
    """`read_result` from an offset beyond the kept result's end."""
    return (
        "offset " + offset + ' is past the end of "' + reference + '", which is ' + total + " characters long"
    )
