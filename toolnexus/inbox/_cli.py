"""`toolnexus inbox`: the inbox from a terminal (click), and `--web` for the page.

Everything printed from a stored run goes through `shown`/`shown_json` first: a prompt or an
argument may hold terminal escapes or a right-to-left override, and is printed by code point.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, Literal

try:
    import click
except ImportError as exc:  # pragma: no cover - exercised by tests/inbox/test_inbox.py
    raise ImportError(
        "toolnexus inbox needs click: install the extra, pip install 'toolnexus-contract[inbox]'"
    ) from exc

from .._errors import ResumeError, ToolnexusError, WireError
from .._result import Answer, RunResult, ToolResult
from .._toolkit import Toolkit
from ..store import OutcomeNotStored, RunStore, open_store
from ._inbox import Inbox, InboxError, Outcome, Waiting, load_toolkit, parse_json_object
from ._text import shown, shown_json

__all__ = ["inbox", "main"]

#: How much of a prompt and of the arguments a row of `list` shows (`show` shows all).
_PROMPT_WIDTH = 48
_ARGUMENTS_WIDTH = 60
_SCOPE_HELP = "how far the decision reaches: once (the default), turn, tool, principal, or session:<id>"


class _JsonObject(click.ParamType[dict[str, Any], "str | dict[str, Any]"]):
    """A JSON object given on the command line; a clear error naming the option otherwise."""

    name = "JSON"

    def convert(
        self, value: str | dict[str, Any], param: click.Parameter | None, ctx: click.Context | None
    ) -> dict[str, Any]:
        if isinstance(value, dict):
            return value
        try:
            return parse_json_object(value, "the value")
        except InboxError as exc:
            self.fail(str(exc).removeprefix("the value: "), param, ctx)


class _Scope(click.ParamType[str, str]):
    """An `Answer.scope`, checked by the wire's own schema."""

    name = "SCOPE"

    def convert(self, value: str, param: click.Parameter | None, ctx: click.Context | None) -> str:
        try:
            Answer.from_wire({"id": "-", "ok": True, "scope": value})
        except WireError:
            self.fail(f"{value!r} is not once, turn, tool, principal or session:<id>", param, ctx)
        return value


@contextmanager
def _errors(run_id: int | None = None) -> Iterator[None]:
    """The inbox's and the run's refusals as a command-line error (exit status 1)."""
    try:
        yield
    except InboxError as exc:
        raise click.ClickException(shown(str(exc))) from None
    except ResumeError as exc:
        which = f"run {run_id}" if run_id is not None else "the run"
        raise click.ClickException(shown(f"{which} refused the answer ({exc.reason}): {exc}")) from None
    except OutcomeNotStored as exc:
        raise click.ClickException(shown(str(exc))) from None


class _State:
    """What the subcommands share: the store, the toolkit when one was named, and who decides."""

    def __init__(
        self, store: RunStore, toolkit: str | None, principal: str | None, session: str | None
    ) -> None:
        self.store = store
        self.toolkit_spec = toolkit
        self.principal = principal
        self.session = session

    def inbox(self, *, acting: bool) -> Inbox:
        """The inbox; with the toolkit loaded when it is to answer (listing needs none)."""
        toolkit = self.toolkit() if acting else None
        return Inbox(self.store, toolkit, principal=self.principal, session=self.session)

    def toolkit(self) -> Toolkit:
        if self.toolkit_spec is None:
            why = "answering runs the call: name the toolkit that holds the tools"
            raise click.UsageError(f"{why}, --toolkit module:attribute")
        with _errors():
            return load_toolkit(self.toolkit_spec, self.store)


def _store_option(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A postgresql:// URL as given; else the path of a SQLite file that exists."""
    if value.startswith(("postgresql://", "postgres://")):
        return value
    return str(click.Path(exists=True, dir_okay=False).convert(value, param, ctx))


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--store",
    "store_path",
    required=True,
    envvar="TOOLNEXUS_INBOX_STORE",
    callback=lambda ctx, param, value: _store_option(ctx, param, value),
    help="Where the host keeps its pending runs: a SqliteRunStore file, or a postgresql:// URL.",
)
@click.option(
    "--toolkit",
    envvar="TOOLNEXUS_INBOX_TOOLKIT",
    metavar="MODULE:ATTRIBUTE",
    help="The host's Toolkit, or a function making one (given the store when it takes an argument);"
    " needed to answer, since an approved call runs here.",
)
@click.option(
    "--principal",
    envvar="TOOLNEXUS_INBOX_PRINCIPAL",
    help="Who decides: kept in the decision log, and the principal a run bound to one needs.",
)
@click.option(
    "--session", help="The host's session id for the resumed turns (policies of scope session:<id>)."
)
@click.option("--web", is_flag=True, help="Serve the same actions as a local page.")
@click.option("--host", default="127.0.0.1", show_default=True, help="With --web: the address to bind.")
@click.option(
    "--port",
    default=8765,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="With --web: the port (0: any free one).",
)
@click.option(
    "--token",
    envvar="TOOLNEXUS_INBOX_TOKEN",
    help="With --web: the token the page asks for (16 characters or more);"
    " random, and printed, when not given.",
)
@click.pass_context
def inbox(
    ctx: click.Context,
    store_path: str,
    toolkit: str | None,
    principal: str | None,
    session: str | None,
    web: bool,
    host: str,
    port: int,
    token: str | None,
) -> None:
    """What the stored runs wait on, and a person's answers: list, show, approve, decline, respond;
    calls in doubt: doubts, retry, settle.

    Without a command, lists what waits (or, with --web, serves the page).
    """
    try:
        store = open_store(store_path)
    except ToolnexusError as exc:
        raise click.BadParameter(str(exc), param_hint="'--store'") from None
    state = _State(store, toolkit, principal, session)
    ctx.obj = state
    if web:
        if ctx.invoked_subcommand is not None:
            raise click.UsageError(f"--web serves the page; it takes no command ({ctx.invoked_subcommand})")
        try:
            from ._web import serve
        except ImportError as exc:  # starlette, uvicorn or jinja2 is missing: say which extra
            raise click.ClickException(str(exc)) from None
        with _errors():
            serve(state.inbox(acting=True), host=host, port=port, token=token)
        return
    if ctx.invoked_subcommand is None:
        ctx.invoke(list_)


@inbox.command("list")
@click.option("--json", "as_json", is_flag=True, help="One JSON array, for programs.")
@click.option("--for", "whose", metavar="PRINCIPAL", help="Only the runs saved with this principal.")
@click.option("--tool", help="Only the requests of calls to this tool.")
@click.option("--kind", help="Only the requests of this kind (confirm, input, result, ...).")
@click.option("--limit", type=click.IntRange(min=1), help="At most this many requests (a page).")
@click.option(
    "--after",
    metavar="RUN:POSITION",
    callback=lambda ctx, param, value: _keyset(value),
    help="Start past this request (the `more:` line of the page before prints it).",
)
@click.pass_obj
def list_(
    state: _State,
    as_json: bool,
    whose: str | None,
    tool: str | None,
    kind: str | None,
    limit: int | None,
    after: tuple[int, int] | None,
) -> None:
    """List what waits (every request, or a page of them): run, request, kind, tool, prompt,
    arguments."""
    items = state.inbox(acting=False).waiting(principal=whose, tool=tool, kind=kind, limit=limit, after=after)
    more = f"more: --after {items[-1].run_id}:{items[-1].position}" if limit and len(items) == limit else None
    if as_json:
        click.echo(json.dumps([_doc(w) for w in items], indent=2))
        return
    if not items:
        click.echo("nothing more waits" if after else "nothing waits")
        return
    rows = [("RUN", "REQUEST", "KIND", "TOOL", "PROMPT", "ARGUMENTS")]
    for w in items:
        rows.append(
            (
                str(w.run_id),
                shown(w.request.id),
                shown(w.request.kind),
                shown(w.tool or "?"),
                _cut(shown(w.request.prompt), _PROMPT_WIDTH),
                _cut(shown_json(w.arguments), _ARGUMENTS_WIDTH),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        click.echo(
            "  ".join([*(cell.ljust(width) for cell, width in zip(row, widths, strict=False)), row[-1]])
        )
    if more:
        click.echo(more)


@inbox.command()
@click.argument("request_id", metavar="REQUEST")
@click.option("--run", "run_id", type=int, help="The run, when the request id waits in several.")
@click.option("--json", "as_json", is_flag=True, help="As one JSON object, for programs.")
@click.pass_obj
def show(state: _State, request_id: str, run_id: int | None, as_json: bool) -> None:
    """Show one request: its tool, its arguments in full, and what can be done with it."""
    with _errors(run_id):
        w = state.inbox(acting=False).find(request_id, run_id)
    if as_json:
        click.echo(json.dumps(_doc(w), indent=2))
        return
    request = w.request
    lines = [
        ("run", str(w.run_id)),
        ("request", shown(request.id)),
        ("kind", f"{shown(request.kind)} ({_asks(w)})"),
        ("tool", f"{shown(w.tool or '?')} (call {shown(w.call.id) if w.call else '?'})"),
        ("prompt", shown(request.prompt)),
    ]
    if request.url:
        lines.append(("url", shown(request.url)))
    if request.expires_at:
        lines.append(("expires", shown(request.expires_at)))
    for label, value in lines:
        click.echo(f"{label + ':':<11}{value}")
    click.echo("arguments:")
    click.echo(_indented(shown_json(w.arguments, indent=2)))
    if w.asks != "approval" and request.data is not None:
        click.echo("data:")
        click.echo(_indented(shown_json(request.data, indent=2)))
    click.echo(f"{'answer:':<11}{_actions(w)}")


_RUN_OPTION = click.option("--run", "run_id", type=int, help="The run, when the request id waits in several.")
_SCOPE_OPTION = click.option("--scope", type=_Scope(), help=_SCOPE_HELP)


@inbox.command()
@click.argument("request_id", metavar="REQUEST")
@_RUN_OPTION
@click.option(
    "--arguments",
    type=_JsonObject(),
    help="Edited arguments for the call, as a JSON object (an approval only).",
)
@_SCOPE_OPTION
@click.pass_obj
def approve(
    state: _State, request_id: str, run_id: int | None, arguments: dict[str, Any] | None, scope: str | None
) -> None:
    """Approve a request (the call runs here), optionally with edited arguments."""
    _act(state, request_id, run_id, lambda box, w: box.approve(w, arguments=arguments, scope=scope))


@inbox.command()
@click.argument("request_id", metavar="REQUEST")
@_RUN_OPTION
@click.option(
    "--reason",
    type=click.Choice(["declined", "cancelled"]),
    default="declined",
    show_default=True,
    help="Why, for the host.",
)
@click.option("--message", help="Why, in words for the model: the result reads 'declined: <message>'.")
@_SCOPE_OPTION
@click.pass_obj
def decline(
    state: _State, request_id: str, run_id: int | None, reason: str, message: str | None, scope: str | None
) -> None:
    """Decline a request: the call does not run."""
    why: Literal["declined", "cancelled"] = "cancelled" if reason == "cancelled" else "declined"
    _act(state, request_id, run_id, lambda box, w: box.decline(w, reason=why, message=message, scope=scope))


@inbox.command()
@click.argument("request_id", metavar="REQUEST")
@_RUN_OPTION
@click.option(
    "--data",
    type=_JsonObject(),
    required=True,
    help="The answer's data as a JSON object; for a request of kind result, the call's result"
    ' (a ToolResult: {"output": "...", "isError": false}).',
)
@click.pass_obj
def respond(state: _State, request_id: str, run_id: int | None, data: dict[str, Any]) -> None:
    """Answer a question with data, or supply the result of a call whose result a person gives."""
    _act(state, request_id, run_id, lambda box, w: box.respond(w, data))


def _act(
    state: _State,
    request_id: str,
    run_id: int | None,
    action: Callable[[Inbox, Waiting], Coroutine[Any, Any, Outcome]],
) -> None:
    box = state.inbox(acting=True)
    with _errors(run_id):
        waiting = box.find(request_id, run_id)
    with _errors(waiting.run_id):
        outcome = asyncio.run(action(box, waiting))
    click.echo(shown(outcome.headline))
    if outcome.result is not None and waiting.call is not None:
        text = shown(outcome.result.output, keep="\n\t")
        click.echo(f"{shown(waiting.call.id)} {shown(waiting.tool or '?')}: {text}")


@inbox.command()
@click.option("--json", "as_json", is_flag=True, help="One JSON array, for programs.")
@click.pass_obj
def doubts(state: _State, as_json: bool) -> None:
    """List the calls in doubt: their tool started, and their outcome was never written (the
    process died). No one runs them again until a person retries or settles each."""
    items = state.store.in_doubt()
    docs = [
        {
            "run": d.run_id,
            "call": d.call.id,
            "tool": d.tool,
            "arguments": d.arguments,
            "idempotencyKey": d.idempotency_key,
            "startedAt": datetime.fromtimestamp(d.started_at, UTC).isoformat(timespec="seconds"),
        }
        for d in items
    ]
    if as_json:
        click.echo(json.dumps(docs, indent=2))
        return
    if not docs:
        click.echo("no call is in doubt")
        return
    rows: list[tuple[str, ...]] = [("RUN", "CALL", "TOOL", "STARTED", "ARGUMENTS")]
    for doc in docs:
        cells = (doc["run"], doc["call"], doc["tool"], doc["startedAt"])
        rows.append((*(shown(str(c)) for c in cells), _cut(shown_json(doc["arguments"]), _ARGUMENTS_WIDTH)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        click.echo("  ".join([*(c.ljust(w) for c, w in zip(row, widths, strict=False)), row[-1]]))
    click.echo("answer:    retry RUN (runs the call again, same idempotency key) | settle RUN --result JSON")


@inbox.command()
@click.argument("run_id", metavar="RUN", type=int)
@click.pass_obj
def retry(state: _State, run_id: int) -> None:
    """Run the call in doubt of a run again, under the same idempotency key (logged)."""
    toolkit = state.toolkit()
    with _errors(run_id):
        run = asyncio.run(
            state.store.retry(toolkit, run_id, principal=state.principal, session=state.session)
        )
    _report(f"retried run {run_id}: it is {run.status}", run)


@inbox.command()
@click.argument("run_id", metavar="RUN", type=int)
@click.option(
    "--result",
    type=_JsonObject(),
    required=True,
    help='What the call did, as a ToolResult: {"output": "...", "isError": false}.',
)
@click.pass_obj
def settle(state: _State, run_id: int, result: dict[str, Any]) -> None:
    """Record what the call in doubt of a run did, and continue the run without running it (logged)."""
    try:
        outcome = ToolResult.from_wire(result)
    except WireError as exc:
        raise click.BadParameter(shown(str(exc)), param_hint="'--result'") from None
    toolkit = state.toolkit()
    with _errors(run_id):
        run = asyncio.run(
            state.store.settle(toolkit, run_id, outcome, principal=state.principal, session=state.session)
        )
    _report(f"settled run {run_id}: it is {run.status}", run)


def _report(headline: str, run: RunResult) -> None:
    click.echo(shown(headline))
    for item in run.results:
        text = shown(item.result.output, keep="\n\t")
        click.echo(f"{shown(item.id)} {shown(item.name)}: {text}")


def _keyset(value: str | None) -> tuple[int, int] | None:
    """`--after RUN:POSITION` as the pair `Inbox.waiting(after=)` takes."""
    if value is None:
        return None
    run, sep, position = value.partition(":")
    if not (sep and run.isdigit() and position.isdigit()):
        raise click.BadParameter(f"{value!r} is not RUN:POSITION (two whole numbers, as in 12:0)")
    return int(run), int(position)


def _doc(w: Waiting) -> dict[str, Any]:
    """A waiting request as JSON, for `--json` (json.dumps escapes every non-ASCII character)."""
    doc: dict[str, Any] = {
        "run": w.run_id,
        "position": w.position,
        "request": w.request.id,
        "kind": w.request.kind,
        "asks": w.asks,
        "tool": w.tool,
        "call": w.call.id if w.call else None,
        "prompt": w.request.prompt,
        "arguments": w.arguments,
    }
    if w.request.data is not None and w.asks != "approval":
        doc["data"] = w.request.data
    if w.request.url:
        doc["url"] = w.request.url
    if w.request.expires_at:
        doc["expiresAt"] = w.request.expires_at
    return doc


def _asks(w: Waiting) -> str:
    tool = shown(w.tool or "?")
    if w.asks == "approval":
        return f"asked before {tool} runs"
    if w.asks == "result":
        return f"a person supplies the result of {tool}"
    return f"asked by {tool}"


def _actions(w: Waiting) -> str:
    if w.asks == "approval":
        return "approve [--arguments JSON] [--scope SCOPE] | decline [--message TEXT] [--scope SCOPE]"
    if w.asks == "result":
        return 'respond --data \'{"output": "...", "isError": false}\' | decline [--message TEXT]'
    return "respond --data JSON | approve | decline [--message TEXT]"


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _indented(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def toolnexus() -> None:
    """toolnexus: the envelope an LLM tool returns, and the suspend-and-resume protocol on it."""


toolnexus.add_command(inbox)


def main() -> None:
    """The `toolnexus` console script."""
    toolnexus()
