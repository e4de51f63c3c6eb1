"""`toolnexus.inbox`: what waits, the answers a person gives (through `SqliteRunStore.resume`, so
the engine's rules), and the `toolnexus inbox` command. The page is in test_inbox_web.py."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests import inbox_tools
from tests.conftest import REPO
from tests.inbox_tools import HOSTILE, REFUND, toolkit
from tests.postgres import location
from toolnexus import Request, ResumeError, ToolCall, ToolContext, Toolkit, define_tool, pending, tool
from toolnexus.inbox import Inbox, InboxError, load_toolkit, parse_json_object, shown, shown_json
from toolnexus.inbox._cli import toolnexus
from toolnexus.store import RunStore, SqliteRunStore

SPEC = "tests.inbox_tools:toolkit"


@pytest.fixture
def ran(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file `refund` writes each run to."""
    path = tmp_path / "ran.jsonl"
    monkeypatch.setenv("INBOX_RAN", str(path))
    return path


@pytest.fixture
def store(new_store: Any) -> RunStore:
    """A store of each database (SQLite, PostgreSQL): the inbox's tests of a `store` run on both."""
    return new_store()


def runs_of(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


async def saved(store: RunStore, calls: list[ToolCall], **kw: object) -> int:
    return store.save(await toolkit(store).run_calls(calls, **kw))  # type: ignore[arg-type]


def saved_now(store: RunStore, calls: list[ToolCall], **kw: object) -> int:
    """`saved`, from a test that is not async (the command runs its own event loop)."""
    return asyncio.run(saved(store, calls, **kw))


# -- what waits ---------------------------------------------------------------------------------


async def test_waiting_lists_each_request_with_its_call(store: RunStore) -> None:
    first = await saved(store, REFUND)
    second = await saved(
        store,
        [ToolCall("c1", "ask", {"question": "Which size?"}), ToolCall("c2", "lookup", {"email": "a@b.c"})],
    )
    items = Inbox(store).waiting()
    assert [(w.run_id, w.asks, w.tool, w.arguments) for w in items] == [
        (first, "approval", "refund", {"order": "A-17", "amount": 250}),
        (second, "question", "ask", {"question": "Which size?"}),
        (second, "result", "lookup", {"email": "a@b.c"}),
    ]
    assert items[0].request.id.startswith("apr-") and items[0].request.kind == "approval"
    assert items[1].request.prompt == "Which size?"
    assert items[2].request.kind == "result" and items[2].call is not None and items[2].call.id == "c2"


async def test_a_decided_request_leaves_the_list(store: RunStore, ran: Path) -> None:
    await saved(store, REFUND)
    box = Inbox(store, toolkit(store))
    [waiting] = box.waiting()
    await box.approve(waiting)
    assert box.waiting() == []
    with pytest.raises(InboxError, match="waits"):
        box.find(waiting.request.id)


# -- approving, declining, responding ----------------------------------------------------------------


async def test_approve_with_edited_arguments_runs_the_call_with_them(store: RunStore, ran: Path) -> None:
    run_id = await saved(store, REFUND)
    box = Inbox(store, toolkit(store), principal="ana")
    waiting = box.find(box.waiting()[0].request.id)
    outcome = await box.approve(waiting, arguments={"order": "A-17", "amount": 200}, scope="turn")
    assert outcome.result is not None and outcome.result.output == "refunded 200 EUR on A-17"
    assert runs_of(ran) == [{"order": "A-17", "amount": 200}]
    stored = store.get(run_id)
    assert stored is not None and stored.status == "done"
    assert (
        outcome.headline
        == f"approved {waiting.request.id} (refund) with edited arguments (scope turn): run {run_id} is done"
    )
    [entry] = store.log.entries()
    assert (entry["kind"], entry["by"], entry["scope"]) == ("edit", "ana", "turn")
    assert entry["arguments"] == {"order": "A-17", "amount": 250}
    assert entry["approved"] == {"order": "A-17", "amount": 200}
    assert store.log.verify() is None


async def test_approve_as_asked_is_logged_as_an_approval(store: RunStore, ran: Path) -> None:
    await saved(store, REFUND)
    box = Inbox(store, toolkit(store))
    outcome = await box.approve(box.waiting()[0])
    assert outcome.result is not None and outcome.result.output == "refunded 250 EUR on A-17"
    assert [e["kind"] for e in store.log.entries()] == ["approve"]


async def test_edited_arguments_that_fail_the_schema_are_the_engines_error(
    store: RunStore, ran: Path
) -> None:
    await saved(store, REFUND)
    box = Inbox(store, toolkit(store))
    outcome = await box.approve(box.waiting()[0], arguments={"order": "A-17", "amount": "lots"})
    assert outcome.result is not None and outcome.result.is_error
    assert outcome.result.output.startswith("invalid arguments for refund")
    assert runs_of(ran) == []


async def test_decline_with_a_message_and_a_tool_scope_keeps_a_policy(store: RunStore, ran: Path) -> None:
    await saved(store, REFUND)
    box = Inbox(store, toolkit(store))
    outcome = await box.decline(box.waiting()[0], message="refunds go through finance", scope="tool")
    assert outcome.result is not None and outcome.result.output == "declined: refunds go through finance"
    assert outcome.run.status == "done" and runs_of(ran) == []
    [policy] = store.policies.policies("refund")
    assert policy.approve is False and policy.scope == "tool"
    # The engine applies the policy to the next call: it is refused, unasked, and never waits.
    again = await toolkit(store).run_calls(REFUND)
    assert again.status == "done" and again.results[0].result.output == "declined: refunds go through finance"


async def test_decline_cancelled_without_a_message(store: RunStore, ran: Path) -> None:
    await saved(store, REFUND)
    box = Inbox(store, toolkit(store))
    outcome = await box.decline(box.waiting()[0], reason="cancelled")
    assert outcome.result is not None
    assert outcome.result.output == "declined: the call to refund was not approved (cancelled)"
    assert outcome.headline.startswith("cancelled apr-")


async def test_respond_answers_a_question(store: RunStore) -> None:
    await saved(store, [ToolCall("c1", "ask", {"question": "Which size?"})])
    box = Inbox(store, toolkit(store))
    outcome = await box.respond(box.waiting()[0], {"text": "M"})
    assert outcome.result is not None and outcome.result.output == "the user said M"


async def test_respond_supplies_a_result(store: RunStore) -> None:
    await saved(store, [ToolCall("c1", "lookup", {"email": "a@b.c"})])
    box = Inbox(store, toolkit(store))
    [waiting] = box.waiting()
    with pytest.raises(InboxError, match=r"not a ToolResult: .*output"):
        await box.respond(waiting, {"outptu": "Ada"})
    assert box.waiting() == [waiting], "a mistyped result is refused before anything is answered"
    outcome = await box.respond(waiting, {"output": "Ada Lovelace, customer since 1843", "isError": False})
    assert outcome.result is not None and outcome.result.output == "Ada Lovelace, customer since 1843"
    assert outcome.headline.startswith("supplied the result of res-")


async def test_an_action_that_does_not_fit_the_request_answers_nothing(store: RunStore) -> None:
    await saved(store, [*REFUND, ToolCall("call_2", "ask", {"question": "Which size?"})])
    box = Inbox(store, toolkit(store))
    approval, question = box.waiting()
    with pytest.raises(InboxError, match="cannot change the call's arguments"):
        await box.approve(question, arguments={"question": "other"})
    with pytest.raises(InboxError, match=r"approve it .* or decline it"):
        await box.respond(approval, {"text": "yes"})
    with pytest.raises(InboxError, match=r"\$\.scope"):
        await box.approve(approval, scope="forever")
    with pytest.raises(InboxError, match="needs the toolkit"):
        await Inbox(store).approve(approval)
    assert box.waiting() == [approval, question]
    assert list(store.log.entries()) == []


async def test_the_runs_refusal_is_passed_on(store: RunStore) -> None:
    run_id = await saved(store, REFUND, principal="user-42")
    box = Inbox(store, toolkit(store), principal="mallory")
    with pytest.raises(ResumeError) as caught:
        await box.approve(box.waiting()[0])
    assert caught.value.reason == "principal"
    stored = store.get(run_id)
    assert stored is not None and stored.status == "pending"


@tool
def confirm(ctx: ToolContext) -> object:
    """Ask under a fixed id (two runs may wait on one id)."""
    return pending(Request("approval", "Go on?", id="confirm"))


async def test_find_names_the_run_when_one_id_waits_in_several(store: RunStore) -> None:
    kit = Toolkit([confirm])
    first = store.save(await kit.run_calls([ToolCall("c1", "confirm", {})]))
    second = store.save(await kit.run_calls([ToolCall("c1", "confirm", {})]))
    box = Inbox(store, kit)
    with pytest.raises(InboxError, match=f"waits in runs {first}, {second}: say which run"):
        box.find("confirm")
    assert box.find("confirm", second).run_id == second
    with pytest.raises(InboxError, match="no request 'nope' waits"):
        box.find("nope")


async def test_waiting_pages_by_keyset_and_filters_like_the_store(store: RunStore) -> None:
    kit = Toolkit([confirm])
    ids = [store.save(await kit.run_calls([ToolCall("c1", "confirm", {})]), principal=who) for who in "abab"]
    two = await saved(
        store,
        [ToolCall("c1", "ask", {"question": "Which size?"}), ToolCall("c2", "lookup", {"email": "a@b.c"})],
    )
    box = Inbox(store, kit)
    every = box.waiting()
    assert [(w.run_id, w.position) for w in every] == [*((i, 0) for i in ids), (two, 0), (two, 1)]
    pages, after = [], None
    while page := box.waiting(limit=2, after=after):
        pages.append(page)
        after = page[-1]
    assert [len(p) for p in pages] == [2, 2, 2], "the question and the result of one run split nowhere"
    assert [w for p in pages for w in p] == every
    assert box.waiting(limit=3, after=(ids[1], 0)) == every[2:5]
    assert [w.run_id for w in box.waiting(principal="b")] == [ids[1], ids[3]]
    assert [w.tool for w in box.waiting(kind="result")] == ["lookup"]
    assert [w.tool for w in box.waiting(tool="ask")] == ["ask"]
    assert box.waiting(after=every[-1]) == []


async def test_find_in_a_named_run_reads_that_run_alone(store: RunStore) -> None:
    kit = Toolkit([confirm])
    run_id = store.save(await kit.run_calls([ToolCall("c1", "confirm", {})]))

    class Counting:
        def __init__(self, inner: RunStore) -> None:
            self.inner, self.listed = inner, 0

        def pending(self, **kw: Any) -> Any:
            self.listed += 1
            return self.inner.pending(**kw)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

    counting = Counting(store)
    box = Inbox(counting, kit)  # type: ignore[arg-type]
    assert box.find("confirm", run_id).run_id == run_id
    with pytest.raises(InboxError, match=f"no request 'confirm' waits in run {run_id + 1}"):
        box.find("confirm", run_id + 1)
    assert counting.listed == 0, "a named run is read by id, not found in the list of every run"


# -- the toolkit, and what is typed --------------------------------------------------------------------


def test_load_toolkit_takes_a_toolkit_or_a_function_making_one(store: RunStore) -> None:
    made = load_toolkit(SPEC, store)
    assert [t.name for t in made.tools()] == ["refund", "note", "ask", "lookup"]
    inbox_tools.plain = Toolkit([inbox_tools.note])  # type: ignore[attr-defined]
    inbox_tools.without_store = lambda: Toolkit([inbox_tools.ask])  # type: ignore[attr-defined]
    try:
        assert load_toolkit("tests.inbox_tools:plain", store) is inbox_tools.plain  # type: ignore[attr-defined]
        assert [t.name for t in load_toolkit("tests.inbox_tools:without_store", store).tools()] == ["ask"]
    finally:
        del inbox_tools.plain, inbox_tools.without_store  # type: ignore[attr-defined]


@pytest.mark.filterwarnings("ignore:coroutine .* was never awaited")
@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("tests.inbox_tools", "wants module:attribute"),
        ("tests.no_such_module:toolkit", "cannot import 'tests.no_such_module'"),
        ("tests.inbox_tools:nothing", "has no attribute 'nothing'"),
        ("tests.inbox_tools:SECRET", "is a bytes, not a Toolkit"),
        ("tests.inbox_tools:suspend", "returned a coroutine, not a Toolkit"),
    ],
)
def test_load_toolkit_says_what_is_wrong(store: RunStore, spec: str, says: str) -> None:
    with pytest.raises(InboxError, match=says):
        load_toolkit(spec, store)


def test_parse_json_object_names_the_place() -> None:
    assert parse_json_object('{"a": [1, 2.5, null]}', "data") == {"a": [1, 2.5, None]}
    with pytest.raises(
        InboxError, match=r"^arguments: not valid JSON: Expecting ',' delimiter at line 2, column 3$"
    ):
        parse_json_object('{"a": 1\n  "b": 2}', "arguments")
    with pytest.raises(InboxError, match="a JSON object is needed, not an array"):
        parse_json_object("[1]", "data")
    with pytest.raises(InboxError, match="NaN is not a JSON value"):
        parse_json_object('{"a": NaN}', "data")


def test_shown_makes_the_invisible_visible() -> None:
    assert shown("plain text") == "plain text"
    assert shown("a\u202egnp.exe") == "a<U+202E>gnp.exe"
    assert shown("\x1b[31mred\x7f\u200b\u2028") == "<U+001B>[31mred<U+007F><U+200B><U+2028>"
    assert shown("two\nlines", keep="\n") == "two\nlines" and shown("two\nlines") == "two<U+000A>lines"
    assert shown("\U000f0000 privé") == "<U+F0000> privé"


@pytest.mark.parametrize("value", [{"t": HOSTILE}, {"astral": "\U000f0001", "del": "\x7f"}, ["é", 1, None]])
def test_shown_json_is_json_of_the_same_value_with_nothing_hidden(value: object) -> None:
    for indent in (None, 2):
        text = shown_json(value, indent=indent)
        assert json.loads(text) == value
        assert shown(text, keep="\n") == text, "every hidden character is a JSON escape"


# -- the command -----------------------------------------------------------------------------------------


def cli(store: RunStore, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        toolnexus, ["inbox", "--store", location(store), *args], catch_exceptions=False
    )
    return result.exit_code, result.output


def test_list_shows_what_waits(store: RunStore) -> None:
    assert cli(store) == (0, "nothing waits\n")
    run_id = saved_now(store, [*REFUND, ToolCall("call_2", "ask", {"question": "Which colour? " + HOSTILE})])
    code, out = cli(store)
    assert code == 0 and cli(store, "list") == (0, out)
    header, approval, question = out.splitlines()
    assert header.split() == ["RUN", "REQUEST", "KIND", "TOOL", "PROMPT", "ARGUMENTS"]
    assert approval.startswith(f"{run_id}    apr-") and "refund" in approval
    assert approval.endswith('{"order": "A-17", "amount": 250}')
    assert "Which colour? <script>" in question and question.endswith("…")
    assert "\x1b" not in out and "\u202e" not in out
    code, out = cli(store, "list", "--json")
    docs = json.loads(out)
    assert [(d["run"], d["asks"], d["tool"], d["arguments"]) for d in docs] == [
        (run_id, "approval", "refund", {"order": "A-17", "amount": 250}),
        (run_id, "question", "ask", {"question": "Which colour? " + HOSTILE}),
    ]
    assert out.isascii(), "--json escapes every character that is not ASCII"


def test_list_pages_and_filters_from_the_command(store: RunStore) -> None:
    kit = Toolkit([confirm])
    ids = [asyncio.run(kit.run_calls([ToolCall("c1", "confirm", {})])) for _ in range(3)]
    ids = [store.save(run, principal=who) for run, who in zip(ids, "aba", strict=True)]
    code, out = cli(store, "list", "--limit", "2")
    assert code == 0 and out.splitlines()[-1] == f"more: --after {ids[1]}:0"
    assert [line.split()[0] for line in out.splitlines()[1:-1]] == [str(ids[0]), str(ids[1])]
    code, out = cli(store, "list", "--limit", "2", "--after", f"{ids[1]}:0")
    assert code == 0 and [line.split()[0] for line in out.splitlines()[1:]] == [str(ids[2])]
    assert cli(store, "list", "--after", f"{ids[2]}:0") == (0, "nothing more waits\n")
    code, out = cli(store, "list", "--for", "a", "--json")
    assert [(d["run"], d["position"]) for d in json.loads(out)] == [(ids[0], 0), (ids[2], 0)]
    for bad in ("12", "x:1", "1:-1", "1:2:3"):
        result = CliRunner().invoke(toolnexus, ["inbox", "--store", location(store), "list", "--after", bad])
        assert result.exit_code == 2 and f"{bad!r} is not RUN:POSITION" in result.output, result.output
    result = CliRunner().invoke(toolnexus, ["inbox", "--store", location(store), "list", "--limit", "0"])
    assert result.exit_code == 2 and "--limit" in result.output


def test_show_prints_one_request_in_full_and_nothing_raw(store: RunStore) -> None:
    saved_now(store, [ToolCall("call_1", "note", {"text": HOSTILE})])
    [waiting] = Inbox(store).waiting()
    code, out = cli(store, "show", waiting.request.id)
    assert code == 0, out
    assert f"request:   {waiting.request.id}" in out
    assert "kind:      approval (asked before note runs)" in out
    assert "tool:      note (call call_1)" in out
    assert '"text": "<script>window.__pwned=1</script>' in out
    assert "\\u202egnp.exe\\u200b\\u001b[31m" in out
    assert "\x1b" not in out and "\u202e" not in out and "\u200b" not in out
    assert "approve [--arguments JSON] [--scope SCOPE]" in out
    assert json.loads(cli(store, "show", waiting.request.id, "--json")[1])["arguments"] == {"text": HOSTILE}


def test_approve_decline_respond_from_the_command(store: RunStore, ran: Path) -> None:
    first = saved_now(store, REFUND)
    second = saved_now(store, [ToolCall("c1", "ask", {"question": "Which size?"})])
    third = saved_now(store, [ToolCall("c1", "lookup", {"email": "a@b.c"})])
    fourth = saved_now(store, [ToolCall("c1", "note", {"text": "hi"})])
    approval, question, result, note = Inbox(store).waiting()
    kit = ["--toolkit", SPEC, "--principal", "ana"]
    code, out = cli(
        store, *kit, "approve", approval.request.id, "--arguments", '{"order": "A-17", "amount": 200}'
    )
    assert (code, out) == (
        0,
        f"approved {approval.request.id} (refund) with edited arguments: run {first} is done\n"
        "call_1 refund: refunded 200 EUR on A-17\n",
    )
    code, out = cli(store, *kit, "respond", question.request.id, "--data", '{"text": "M"}')
    assert (code, out.splitlines()[-1]) == (0, "c1 ask: the user said M")
    code, out = cli(
        store, *kit, "respond", result.request.id, "--data", '{"output": "Ada", "isError": false}'
    )
    assert (code, out.splitlines()[-1]) == (0, "c1 lookup: Ada")
    code, out = cli(
        store, *kit, "decline", note.request.id, "--message", "not today", "--scope", "session:s-1"
    )
    assert code == 0 and out.splitlines() == [
        f"declined {note.request.id} (note) (scope session:s-1): run {fourth} is done",
        "c1 note: declined: not today",
    ]
    assert all(store.get(i).status == "done" for i in (first, second, third, fourth))  # type: ignore[union-attr]
    assert [(e["kind"], e["by"]) for e in store.log.entries()] == [
        ("edit", "ana"),
        ("respond", "ana"),
        ("respond", "ana"),
        ("decline", "ana"),
    ]
    assert runs_of(ran) == [{"order": "A-17", "amount": 200}]


def test_the_command_says_what_is_wrong(store: RunStore, ran: Path) -> None:
    saved_now(store, REFUND)
    [waiting] = Inbox(store).waiting()
    rid = waiting.request.id
    code, out = cli(store, "--toolkit", SPEC, "approve", rid, "--arguments", '{"amount": 200')
    assert (
        code == 2
        and "Invalid value for '--arguments': not valid JSON: Expecting ',' delimiter at line 1, column 15"
        in out
    )
    code, out = cli(store, "--toolkit", SPEC, "approve", rid, "--arguments", '"x"')
    assert code == 2 and "a JSON object is needed, not a string" in out
    code, out = cli(store, "--toolkit", SPEC, "approve", rid, "--scope", "forever")
    assert code == 2 and "Invalid value for '--scope': 'forever' is not once, turn, tool" in out
    code, out = cli(store, "approve", rid)
    assert code == 2 and "name the toolkit that holds the tools, --toolkit module:attribute" in out
    code, out = cli(store, "--toolkit", "tests.inbox_tools:nothing", "approve", rid)
    assert code == 1 and "has no attribute 'nothing'" in out
    assert cli(store, "--toolkit", "tests.inbox_tools:nothing", "list")[0] == 0, "listing loads no toolkit"
    code, out = cli(store, "--toolkit", SPEC, "respond", rid, "--data", "{}")
    assert code == 1 and "asks to approve a call to refund before it runs" in out
    code, out = cli(store, "show", "apr-nope")
    assert code == 1 and "Error: no request 'apr-nope' waits" in out
    code, out = cli(store, "--web", "list")
    assert code == 2 and "--web serves the page; it takes no command" in out
    code, out = cli(store, "--toolkit", SPEC, "--web", "--port", "0", "--token", "short")
    assert code == 1 and "the token must be 16 characters or more" in out
    assert Inbox(store).waiting() == [waiting] and runs_of(ran) == []
    result = CliRunner().invoke(toolnexus, ["inbox", "--store", str(Path(store.path).parent / "none.db")])
    assert result.exit_code == 2 and "does not exist" in result.output


def test_the_command_shows_the_runs_refusal(store: RunStore) -> None:
    run_id = saved_now(store, REFUND, principal="user-42")
    [waiting] = Inbox(store).waiting()
    code, out = cli(store, "--toolkit", SPEC, "--principal", "mallory", "approve", waiting.request.id)
    assert code == 1 and f"Error: run {run_id} refused the answer (principal):" in out


@pytest.mark.slow
def test_the_run_suspends_in_one_process_and_finishes_in_another(tmp_path: Path) -> None:
    """`python -m toolnexus.inbox` and the `toolnexus` console script, as separate processes."""
    db = tmp_path / "runs.sqlite3"
    env = {**os.environ, "INBOX_RAN": str(tmp_path / "ran.jsonl")}
    made = subprocess.run(
        [sys.executable, "-m", "tests.inbox_tools", str(db)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    first, _ = json.loads(made.stdout)
    script = Path(sys.executable).parent / "toolnexus"
    listing = subprocess.run(
        [str(script), "inbox", "--store", str(db), "list", "--json"], cwd=REPO, capture_output=True, text=True
    )
    assert listing.returncode == 0, listing.stderr
    refund_request = next(d["request"] for d in json.loads(listing.stdout) if d["tool"] == "refund")
    inbox = [sys.executable, "-m", "toolnexus.inbox", "--store", str(db), "--toolkit", SPEC]
    done = subprocess.run(
        [*inbox, "approve", refund_request, "--arguments", '{"order": "A-17", "amount": 200}'],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("call_1 refund: refunded 200 EUR on A-17\n")
    stored = SqliteRunStore(db).get(first)
    assert stored is not None and stored.status == "done" and stored.run is not None
    assert stored.run.results[0].result.output == "refunded 200 EUR on A-17"
    assert runs_of(tmp_path / "ran.jsonl") == [{"order": "A-17", "amount": 200}]


BLOCK = """
import runpy, sys

class Missing:
    def find_spec(self, name, path=None, target=None):
        if name == {blocked!r} or name.startswith({blocked!r} + "."):
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Missing())
sys.argv = ["toolnexus", *{args!r}]
runpy.run_module({module!r}, run_name="__main__")
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("module", "blocked", "args", "says"),
    [
        ("toolnexus.inbox", "click", ["--help"], "toolnexus inbox needs click"),
        ("toolnexus", "click", ["inbox", "--help"], "toolnexus inbox needs click"),
        (
            "toolnexus.inbox",
            "starlette",
            ["--store", "{db}", "--toolkit", SPEC, "--web"],
            "--web needs starlette",
        ),
    ],
)
def test_a_missing_extra_is_named(
    tmp_path: Path, module: str, blocked: str, args: list[str], says: str
) -> None:
    db = SqliteRunStore(tmp_path / "runs.sqlite3").path
    code = BLOCK.format(blocked=blocked, module=module, args=[a.format(db=db) for a in args])
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert says in done.stderr
    assert done.stderr.strip().endswith("install the extra, pip install 'toolnexus-contract[inbox]'"), (
        done.stderr
    )


#: A tool's name with a right-to-left override and a terminal escape (a host's own toolkit may
#: name a tool so: `define_tool` takes any name).
ODD_NAME = "notes\u202etxt.exe\x1b[2J"


def test_a_tools_name_is_shown_by_code_point(store: RunStore) -> None:
    def asks(a: dict[str, object], c: ToolContext) -> object:
        return pending(Request("question", "ok?")) if c.answer is None else "x"

    odd = define_tool(ODD_NAME, "N", None, asks)
    store.save(asyncio.run(Toolkit([odd]).run_calls([ToolCall("c1", ODD_NAME, {})])))
    [w] = Inbox(store).waiting()
    code, listed = cli(store, "list")
    _, one = cli(store, "show", w.request.id)
    for out in (listed, one):
        assert code == 0 and "notes<U+202E>txt.exe<U+001B>[2J" in out, out
        assert "\x1b" not in out and "\u202e" not in out


# -- calls in doubt ------------------------------------------------------------------------------


def cut_off(store: RunStore, run_id: int) -> None:
    """Take the run's approval and start its call, then end the claim's lease with no outcome
    written: what a process killed while the tool ran leaves behind."""
    from tests.postgres import tamper
    from toolnexus import Answer
    from toolnexus.store._lease import started_calls

    [waiting] = [w for w in store.pending() if w.run_id == run_id]
    answer = Answer(waiting.request.id, True)
    claim = store.claim(run_id, answer)
    store._started(run_id, claim.lease, [answer], started_calls(toolkit(store), claim.run, [answer]))
    with tamper(store) as conn:
        conn.execute("UPDATE runs SET lease_until = 0 WHERE id = ?", (run_id,))


def test_calls_in_doubt_are_listed_settled_and_retried_from_the_command(store: RunStore, ran: Path) -> None:
    first = saved_now(store, REFUND)
    second = saved_now(store, [ToolCall("call_9", "refund", {"order": "B-2", "amount": 5})])
    assert cli(store, "doubts") == (0, "no call is in doubt\n")
    cut_off(store, first)
    cut_off(store, second)
    code, out = cli(store, "doubts")
    header, one, two, hint = out.splitlines()
    assert code == 0 and header.split() == ["RUN", "CALL", "TOOL", "STARTED", "ARGUMENTS"]
    assert one.startswith(f"{first}    call_1  refund") and one.endswith('{"order": "A-17", "amount": 250}')
    assert two.startswith(f"{second}    call_9  refund") and "retry RUN" in hint and "settle RUN" in hint
    docs = json.loads(cli(store, "doubts", "--json")[1])
    assert [(d["run"], d["call"], d["idempotencyKey"]) for d in docs] == [
        (d.run_id, d.call.id, d.idempotency_key) for d in store.in_doubt()
    ]
    assert [d["run"] for d in docs] == [first, second] and docs[0]["idempotencyKey"] != docs[1][
        "idempotencyKey"
    ]
    assert cli(store) == (0, "nothing waits\n"), "a run in doubt waits on no one"
    kit = ["--toolkit", SPEC, "--principal", "ana"]
    code, out = cli(
        store, *kit, "settle", str(first), "--result", '{"output": "refunded by hand", "isError": false}'
    )
    assert (code, out) == (0, f"settled run {first}: it is done\ncall_1 refund: refunded by hand\n")
    assert runs_of(ran) == [], "settled: the tool did not run"
    code, out = cli(store, *kit, "retry", str(second))
    assert (code, out.splitlines()[-1]) == (0, "call_9 refund: refunded 5 EUR on B-2")
    assert runs_of(ran) == [{"order": "B-2", "amount": 5}], "retried: the tool ran, once"
    assert [
        (e["kind"], e["by"], e["call"]) for e in store.log.entries() if e["kind"] in ("retry", "settle")
    ] == [
        ("settle", "ana", "call_1"),
        ("retry", "ana", "call_9"),
    ]
    code, out = cli(store, *kit, "retry", str(first))
    assert code == 1 and f"run {first} has no call in doubt" in out
    assert cli(store, "doubts") == (0, "no call is in doubt\n")
