"""Results kept whole: where a toolkit puts the output of a call it cut (`ResultSpill`: a directory,
or a store's database), what it applies after each run (`ResultLimits`), and the built-in
`read_result` tool a host may add to its toolkit so that the model pages through a kept result.

A kept result is bound to the scope of the turn that kept it, its principal and its session:
`read_result` in a turn of another principal or another session finds nothing under the
reference, as if none were kept (idl/loop/README.md, "The reference, the spill and read_result").
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import secrets
import tempfile
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Protocol, TypeAlias

from toolnexus_wire import loop_data as texts
from toolnexus_wire.loop_data import READ_RESULT_LENGTH

from ._engine._limits import fit, result_ref
from ._limit import REF_PREFIX, Limit, Tokenizer
from ._result import ToolResult
from ._tool import Tool, ToolContext, define_tool

__all__ = ["DirectorySpill", "ResultLimits", "ResultSpill", "Scope", "read_result", "scope_key"]

logger = logging.getLogger("toolnexus")

#: Who may read a kept result: the principal and the session of the turn that kept it.
Scope: TypeAlias = tuple[str | None, str | None]


def scope_key(scope: Scope) -> str:
    """`scope` as one string, for a table's key or a file's name (JSON: `[principal, session]`)."""
    return json.dumps(list(scope), ensure_ascii=False)


class ResultSpill(Protocol):
    """Where a toolkit keeps the whole output of a call whose output it cut (`Toolkit(spill=...)`):
    `put` keeps `text` under `ref` for `scope`, replacing what was there; `get` returns it, or None
    when nothing is kept under `ref` for that scope (another scope's is never returned)."""

    def put(self, scope: Scope, ref: str, text: str) -> None: ...

    def get(self, scope: Scope, ref: str) -> str | None: ...


class DirectorySpill:
    """A `ResultSpill` in a directory (made when missing): one UTF-8 file a kept result, named by a
    digest of its scope and reference, written whole before it is renamed into place."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)

    def __repr__(self) -> str:
        return f"<DirectorySpill {str(self.path)!r}>"

    def _file(self, scope: Scope, ref: str) -> Path:
        digest = hashlib.sha256(f"{scope_key(scope)}\n{ref}".encode("utf-8", "surrogatepass")).hexdigest()
        return self.path / f"{digest[:32]}.txt"

    def put(self, scope: Scope, ref: str, text: str) -> None:
        target = self._file(scope, ref)
        fd, staged = tempfile.mkstemp(dir=self.path, prefix=".staged-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", errors="surrogatepass", newline="") as out:
                out.write(text)
            os.replace(staged, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(staged)
            raise

    def get(self, scope: Scope, ref: str) -> str | None:
        try:
            return self._file(scope, ref).read_text(encoding="utf-8", errors="surrogatepass")
        except FileNotFoundError:
            return None


#: The spill and scope of the call running now, for `read_result` (set by `ResultLimits.running`).
_READING: ContextVar[tuple[ResultSpill | None, Scope]] = ContextVar("toolnexus_reading")


class ResultLimits:
    """What a toolkit applies after each run of a call: the tighter of the tool's limit and its
    own, the cut (`_engine._limits.fit`), and the whole output kept in `spill` when it was cut."""

    __slots__ = ("_combined", "limit", "spill", "tokenizer")

    def __init__(self, limit: Limit | None, spill: ResultSpill | None, tokenizer: Tokenizer | None) -> None:
        self.limit = Limit.of(limit)
        #: By a tool's limit (its id; the limit kept, so the id is not another's): the tighter of
        #: it and this one.
        self._combined: dict[int, tuple[Limit, Limit]] = {}
        self.spill = spill
        if tokenizer is not None and not callable(tokenizer):
            raise TypeError(f"tokenizer must be a function of a text, got {type(tokenizer).__name__}")
        self.tokenizer = tokenizer

    @contextlib.contextmanager
    def running(self, scope: Scope) -> Iterator[None]:
        """Around a run: `read_result` reads this toolkit's spill, for `scope`."""
        token = _READING.set((self.spill, scope))
        try:
            yield
        finally:
            _READING.reset(token)

    def apply(self, tool: Tool | None, result: ToolResult, key: str, scope: Scope) -> ToolResult:
        """`result` of a run of `tool`, fitted to its limit; a cut output kept whole under its
        reference (the call's idempotency key's, `key`), unless it is a page `read_result` read
        (a tool of that name)."""
        own = tool.limit if tool is not None else None
        limit = self.limit
        if own is not None:
            known = self._combined.get(id(own))
            if known is None or known[0] is not own:
                known = self._combined[id(own)] = (own, own.tighter(self.limit))
            limit = known[1]
        if limit is None or (
            len(result.output) <= limit.sure
            and result.structured_content is None
            and (self.tokenizer is None or limit.tokens is None)
        ):  # nothing to cut, by the output's length alone (`fit` says the same, counting more)
            return result
        keeps = self.spill is not None and (tool is None or tool.name != read_result.name)
        ref = None
        if keeps:
            ref = result_ref(key) if key else REF_PREFIX + secrets.token_hex(8)
        fitted, cut = fit(result, limit, ref, self.tokenizer)
        if cut and ref is not None and self.spill is not None:
            try:
                self.spill.put(scope, ref, result.output)
            except Exception as exc:  # the model still reads the cut, and the marker names no copy
                logger.warning("the whole output of %s could not be kept (%s): cut without a copy", ref, exc)
                fitted, _ = fit(result, limit, None, self.tokenizer)
        return fitted


_READ_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "ref": {"type": "string", "description": "The reference the cut marker names (result-…)."},
        "offset": {"type": "integer", "minimum": 0, "description": "The first character to read, from 0."},
        "length": {"type": "integer", "minimum": 1, "description": "How many characters to read."},
    },
    "required": ["ref"],
    "additionalProperties": False,
}


async def _read(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    spill, scope = _READING.get((None, (None, None)))
    ref = args["ref"]
    text = spill.get(scope, ref) if spill is not None else None
    if text is None:
        return ToolResult.error(texts.read_result_unknown(reference=ref))
    start, total = args.get("offset", 0), len(text)
    if start > total:
        return ToolResult.error(
            texts.read_result_past_end(offset=str(start), reference=ref, total=str(total))
        )
    end = min(start + args.get("length", READ_RESULT_LENGTH), total)
    head = texts.read_result_page(reference=ref, start=str(start), end=str(end), total=str(total))
    return ToolResult.ok(head + "\n" + text[start:end])


#: The built-in tool that reads a kept result, a page at a time: add it to a toolkit that keeps
#: results (`Toolkit([..., read_result], spill=...)`). Its pages are cut to the toolkit's limit
#: like any output, and never kept again.
read_result: Tool = define_tool("read_result", texts.read_result_description(), _READ_SCHEMA, _read)
