"""JSON Schema validation with ECMA-262 regex semantics, as JSON Schema specifies.

Python's `re` differs from ECMA-262 in ways that matter to a validator: `$` also
matches before a final newline, and `\\d`/`\\w` match non-ASCII digits and letters.
`ecma_pattern` rewrites a pattern so Python's `re` reads it the ECMA way for the
constructs schemas use (anchors and the shorthand classes).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache, lru_cache
from typing import Any

__all__ = ["ecma_pattern", "validator_for"]


@lru_cache(maxsize=1024)
def ecma_pattern(pattern: str) -> re.Pattern[str]:
    """Compile an ECMA-262 `pattern` for Python: `$` outside a class means the end of the input."""
    out: list[str] = []
    in_class = False
    chars = iter(pattern)
    for ch in chars:
        if ch == "\\":
            out.append(ch + next(chars, ""))
        elif in_class:
            in_class = ch != "]"
            out.append(ch)
        elif ch == "[":
            in_class = True
            out.append(ch)
        elif ch == "$":
            out.append(r"\Z")
        else:
            out.append(ch)
    return re.compile("".join(out), re.ASCII)


def _pattern(validator: Any, pattern: str, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
    import jsonschema

    if validator.is_type(instance, "string") and not ecma_pattern(pattern).search(instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


def validator_for(schema: dict[str, Any]) -> Any:
    """The `jsonschema` validator class for `schema` (2020-12 when it names none), with ECMA patterns."""
    import jsonschema

    base = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return _extended(base)


@cache
def _extended(base: Any) -> Any:
    import jsonschema

    return jsonschema.validators.extend(base, {"pattern": _pattern})
