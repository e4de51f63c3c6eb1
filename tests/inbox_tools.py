"""The tools the inbox's tests suspend and answer, importable as `tests.inbox_tools:toolkit`
from the repository (by the tests, and by the inbox processes they start).

`refund` records each run (its arguments) in the file named by `INBOX_RAN`, so a test in
another process sees whether it ran, and with which arguments.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from toolnexus import Request, ToolCall, ToolContext, Toolkit, define_tool, pending, tool
from toolnexus.store import RunStore, SqliteRunStore

SECRET = b"inbox tests: a host secret of 16+ bytes"
#: What a model might put in a call's arguments, or a tool in its prompt: markup, quotes, a
#: right-to-left override (so `gnp.exe` would read `exe.png`), a zero-width space, a terminal escape.
HOSTILE = (
    '<script>window.__pwned=1</script>"\'><img src=x onerror="window.__pwned=2">\u202egnp.exe\u200b\x1b[31m'
)


@tool(needs_approval=True)
def refund(order: str, amount: int) -> str:
    """Refund an order; a person approves every refund."""
    with open(os.environ["INBOX_RAN"], "a", encoding="utf-8") as ran:
        ran.write(json.dumps({"order": order, "amount": amount}) + "\n")
    return f"refunded {amount} EUR on {order}"


@tool(needs_approval=True)
def note(text: str) -> str:
    """Keep a note."""
    return f"noted: {text}"


@tool
def ask(question: str, ctx: ToolContext) -> object:
    """Ask the user something."""
    if ctx.answer is None:
        return pending(Request("input", question))
    data: Any = ctx.answer.data or {}
    return f"the user said {data.get('text', '')}"


#: A tool whose results a person supplies (no handler): each call asks for its result.
lookup = define_tool(
    "lookup",
    "Look a customer up; a person supplies the answer",
    {"type": "object", "properties": {"email": {"type": "string"}}, "required": ["email"]},
    None,
)


def toolkit(store: RunStore) -> Toolkit:
    """The host's toolkit, keeping its policies and decision log in the store."""
    return Toolkit(
        [refund, note, ask, lookup], secret=SECRET, policy_store=store.policies, decision_log=store.log
    )


REFUND = [ToolCall("call_1", "refund", {"order": "A-17", "amount": 250})]
HOSTILE_CALLS = [
    ToolCall("call_1", "note", {"text": HOSTILE}),
    ToolCall("call_2", "ask", {"question": "Which colour? " + HOSTILE}),
]


async def suspend(path: str) -> list[int]:
    """Run the two turns the browser test answers, and store them: run 1 waits on the refund's
    approval, run 2 on a note's approval and a question, both full of hostile strings."""
    store = SqliteRunStore(path)
    kit = toolkit(store)
    return [store.save(await kit.run_calls(REFUND)), store.save(await kit.run_calls(HOSTILE_CALLS))]


if __name__ == "__main__":  # python -m tests.inbox_tools STORE: the first process of the browser test
    import asyncio

    print(json.dumps(asyncio.run(suspend(sys.argv[1]))))
