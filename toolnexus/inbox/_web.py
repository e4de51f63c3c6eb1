"""`toolnexus inbox --web`: the inbox's actions in a local page (Starlette, served by uvicorn).

The page acts for whoever holds it, so it keeps to these rules (`docs/inbox.md` says why):

- **Loopback by default**: it binds to 127.0.0.1, and answers only requests whose `Host` is
  a name of that address (a DNS-rebinding page names its own host, and is refused).
- **A token**: the page asks for the token printed at start (or given); the token, compared in
  constant time, opens a session, kept in an HttpOnly, `SameSite=Strict` cookie.
- **Forms safe against cross-site requests**: every form carries the session's CSRF token, and
  a POST is taken only when its `Origin` is the page's own; a form without either is refused,
  and nothing is decided.
- **Every string escaped**: Jinja2's autoescape for HTML, and `shown`/`shown_json` for the
  characters HTML escaping leaves (bidirectional overrides, zero-width and control
  characters); a Content-Security-Policy with no script source, and no framing.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import secrets
import socket
import sys
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import partial
from importlib import resources
from typing import Any, Literal
from urllib.parse import quote

try:
    import uvicorn
    from jinja2 import Environment, PackageLoader, select_autoescape
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.datastructures import FormData, MutableHeaders
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.requests import Request as HttpRequest
    from starlette.responses import HTMLResponse, RedirectResponse, Response
    from starlette.routing import Route
    from starlette.types import ASGIApp, Message, Receive, Scope, Send
except ImportError as exc:  # pragma: no cover - exercised by tests/inbox/test_inbox.py
    raise ImportError(
        f"toolnexus inbox --web needs {exc.name}: install the extra, pip install 'toolnexus-contract[inbox]'"
    ) from exc

from .._errors import ResumeError
from ..adapters.mcp import form_defaults
from ..store import OutcomeNotStored
from ._inbox import Inbox, InboxError, Outcome, Waiting, parse_json_object
from ._text import shown, shown_json

__all__ = ["create_app", "serve"]

#: The shortest token the page takes when one is given (a made one is 43 characters).
MIN_TOKEN = 16
#: How long a session lasts (seconds), and how many the page keeps (the oldest goes first).
SESSION_LIFETIME = 12 * 3600
MAX_SESSIONS = 64
#: The largest form the page reads (bytes): edited arguments or a supplied result.
MAX_FORM = 1024 * 1024
#: The most fields a form may have, and the largest login form (bytes): a token and little else.
MAX_FIELDS = 16
MAX_LOGIN = 4096
#: The requests the list shows at a time; a "More" link pages on by keyset (`?after=RUN:POSITION`).
PAGE = 50
_SCOPES = ("once", "turn", "tool", "principal", "session")
_HEADERS = {
    # No script runs on the page at all; styles come from the page's own sheet.
    "content-security-policy": "default-src 'none'; style-src 'self'; form-action 'self';"
    " frame-ancestors 'none'; base-uri 'none'",
    "x-frame-options": "DENY",  # no page can frame the buttons and trick a click
    "x-content-type-options": "nosniff",
    # Same-origin: a POST from the page keeps its Origin (no-referrer would make it `null`).
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "cache-control": "no-store",
}


@dataclass
class _Session:
    csrf: str
    started: float
    notice: dict[str, Any] | None = field(default=None)


class _SecurityHeaders:
    """Adds `_HEADERS` to every response (refusals and redirects included)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in _HEADERS.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _Site:
    """The page's routes, over one `Inbox`."""

    def __init__(self, inbox: Inbox, token: str, cookie: str) -> None:
        self.inbox = inbox
        self.token = token
        self.cookie = cookie
        self.sessions: OrderedDict[str, _Session] = OrderedDict()
        self.templates = Environment(
            loader=PackageLoader("toolnexus.inbox", "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.style = (resources.files("toolnexus.inbox") / "templates" / "style.css").read_text("utf-8")

    # -- sessions ---------------------------------------------------------------------------

    def session(self, request: HttpRequest) -> _Session | None:
        sid = request.cookies.get(self.cookie)
        if not sid or (found := self.sessions.get(sid)) is None:
            return None
        if time.monotonic() - found.started > SESSION_LIFETIME:
            del self.sessions[sid]
            return None
        return found

    def signed_in(self, target: str) -> Response:
        """A new session, its cookie, and a redirect to `target` (so the token leaves the URL)."""
        sid = secrets.token_urlsafe(32)
        self.sessions[sid] = _Session(csrf=secrets.token_urlsafe(32), started=time.monotonic())
        while len(self.sessions) > MAX_SESSIONS:
            self.sessions.popitem(last=False)
        response = RedirectResponse(target, status_code=303)
        response.set_cookie(self.cookie, sid, httponly=True, samesite="strict", path="/")
        return response

    def token_ok(self, given: str | None) -> bool:
        return given is not None and _same(given, self.token)

    # -- pages --------------------------------------------------------------------------------

    def page(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        """The template `name`; the list and a request's page (signed in only) name the store."""
        store = shown(self.inbox.store.path) if name in ("list.html", "request.html") else None
        html = self.templates.get_template(name).render(store=store, **context)
        return HTMLResponse(html, status_code=status)

    def refused(self, why: str, status: int = 403) -> HTMLResponse:
        return self.page("refused.html", status, why=why)

    async def home(self, request: HttpRequest) -> Response:
        session = self.session(request)
        given = request.query_params.get("token")
        if given is not None:
            if not self.token_ok(given):
                return self.page("login.html", 403, error="That token is not this inbox's.")
            return self.signed_in("/")
        if session is None:
            return self.page("login.html", 401)
        after = _after(request.query_params.get("after"))
        if after is False:
            return self.page("gone.html", 404, why="That is not a page of this inbox.")
        notice, session.notice = session.notice, None
        items = await run_in_threadpool(partial(self.inbox.waiting, limit=PAGE + 1, after=after))
        more = f"{items[PAGE - 1].run_id}:{items[PAGE - 1].position}" if len(items) > PAGE else None
        rows = [_row(w) for w in items[:PAGE]]
        return self.page("list.html", items=rows, notice=notice, more=more, paged=after is not None)

    async def login(self, request: HttpRequest) -> Response:
        if (why := _foreign(request)) is not None:
            return self.refused(why)
        form = await _form(request, MAX_LOGIN, 4)
        if form is None:
            return self.refused("The form is too large.", 413)
        given = form.get("token")
        if not isinstance(given, str) or not self.token_ok(given.strip()):
            return self.page("login.html", 403, error="That token is not this inbox's.")
        return self.signed_in("/")

    async def detail(self, request: HttpRequest) -> Response:
        session = self.session(request)
        if session is None:
            return self.page("login.html", 401)
        run_id, request_id = request.query_params.get("run", ""), request.query_params.get("id", "")
        try:
            waiting = await run_in_threadpool(self.inbox.find, request_id, int(run_id))
        except ValueError as exc:  # InboxError is one, and so is a run that is not a number
            why = str(exc) if isinstance(exc, InboxError) else f"{run_id!r} is not a run id"
            return self.page("gone.html", 404, why=shown(why))
        return self.page("request.html", **self.request_context(waiting, session))

    def request_context(
        self, waiting: Waiting, session: _Session, *, error: str | None = None, form: FormData | None = None
    ) -> dict[str, Any]:
        """What `request.html` shows of `waiting`; after a refused form, its error and what was typed."""
        request = waiting.request
        data_edit = '{\n  "output": "",\n  "isError": false\n}' if waiting.asks == "result" else "{}"
        if waiting.asks != "result" and (offered := form_defaults(request)):  # its form's defaults
            data_edit = shown_json(offered, indent=2)
        typed = {k: v for k, v in (form or {}).items() if isinstance(v, str)}
        return {
            "w": _row(waiting),
            "asks": waiting.asks,
            "call_id": shown(waiting.call.id) if waiting.call else "?",
            "url": shown(request.url) if request.url else None,
            "expires": shown(request.expires_at) if request.expires_at else None,
            "arguments_pretty": shown_json(waiting.arguments, indent=2),
            "data": shown_json(request.data, indent=2)
            if request.data and waiting.asks != "approval"
            else None,
            "arguments_edit": typed.get("arguments", shown_json(waiting.arguments, indent=2)),
            "data_edit": typed.get("data", data_edit),
            "message": typed.get("message", ""),
            "csrf": session.csrf,
            "scopes": _SCOPES,
            "error": shown(error, keep="\n") if error else None,
        }

    async def answer(self, request: HttpRequest) -> Response:
        """POST /answer: approve, decline or respond, after the Origin, session and CSRF checks."""
        if (why := _foreign(request)) is not None:
            return self.refused(why)
        session = self.session(request)
        if session is None:
            return self.refused("This browser has no session here: open the inbox with its token first.")
        form = await _form(request)
        if form is None:
            return self.refused("The form is too large.", 413)
        csrf = form.get("csrf")
        if not isinstance(csrf, str) or not _same(csrf, session.csrf):
            return self.refused("The form has no valid CSRF token: it did not come from this page.")
        request_id = _text(form, "request")
        try:
            run_id = int(_text(form, "run"))
        except ValueError:
            return self.page("gone.html", 400, why="The form names no run.")
        try:
            waiting = await run_in_threadpool(self.inbox.find, request_id, run_id)
        except InboxError as exc:
            return self.page("gone.html", 409, why=shown(str(exc)))
        try:
            outcome = await self.act(waiting, form)
        except InboxError as exc:
            return self.page(
                "request.html", 400, **self.request_context(waiting, session, error=str(exc), form=form)
            )
        except (ResumeError, OutcomeNotStored) as exc:
            reason = f" ({exc.reason})" if isinstance(exc, ResumeError) else ""
            why = f"run {run_id} refused the answer{reason}: {exc}"
            return self.page("gone.html", 409, why=shown(why))
        session.notice = _notice(outcome)
        return RedirectResponse("/", status_code=303)

    async def act(self, waiting: Waiting, form: FormData) -> Outcome:
        action = _text(form, "action")
        if action == "approve":
            arguments = None
            typed = _text(form, "arguments").strip()
            if typed and waiting.asks == "approval":
                edited = parse_json_object(typed, "arguments")
                if _canonical(edited) != _canonical(waiting.arguments):  # unchanged: approved as asked
                    arguments = edited
            return await self.inbox.approve(waiting, arguments=arguments, scope=_scope(form))
        if action == "decline":
            reason: Literal["declined", "cancelled"] = (
                "cancelled" if _text(form, "reason") == "cancelled" else "declined"
            )
            message = _text(form, "message").strip() or None
            return await self.inbox.decline(waiting, reason=reason, message=message, scope=_scope(form))
        if action == "respond":
            return await self.inbox.respond(waiting, parse_json_object(_text(form, "data"), "data"))
        raise InboxError(f"no such action: {action!r}")

    async def stylesheet(self, request: HttpRequest) -> Response:
        return Response(self.style, media_type="text/css")


def _check_token(token: str) -> None:
    if len(token) < MIN_TOKEN:
        raise InboxError(f"the token must be {MIN_TOKEN} characters or more, got {len(token)}")


def create_app(inbox: Inbox, *, token: str, hosts: list[str], cookie: str = "toolnexus_inbox") -> Starlette:
    """The page as an ASGI app: `token` opens it; only requests whose `Host` is one of `hosts`
    are answered (`["*"]`: any, for a server bound to every address)."""
    _check_token(token)
    site = _Site(inbox, token, cookie)
    routes = [
        Route("/", site.home, methods=["GET"]),
        Route("/login", site.login, methods=["POST"]),
        Route("/request", site.detail, methods=["GET"]),
        Route("/answer", site.answer, methods=["POST"]),
        Route("/style.css", site.stylesheet, methods=["GET"]),
    ]
    middleware = [Middleware(_SecurityHeaders), Middleware(TrustedHostMiddleware, allowed_hosts=hosts)]
    return Starlette(routes=routes, middleware=middleware)


def serve(inbox: Inbox, *, host: str = "127.0.0.1", port: int = 8765, token: str | None = None) -> None:
    """Serve the page on `host`:`port` (0: a free port) until interrupted, printing its address
    (with the token, when it was made here)."""
    made = token is None
    token = secrets.token_urlsafe(32) if token is None else token
    _check_token(token)  # before the port is taken: a short token is refused wherever it would listen
    loopback = _is_loopback(host)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise InboxError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    # Listening before the address is printed: a browser that comes at once waits in the
    # backlog until uvicorn accepts, rather than being refused while uvicorn starts.
    sock.listen(128)
    port = sock.getsockname()[1]
    name = f"[{host}]" if ":" in host else host
    if loopback:  # the names a browser on this machine may use for it
        hosts = sorted({name, "localhost", "127.0.0.1", "[::1]"})
    elif host in ("0.0.0.0", "::"):
        hosts = ["*"]
    else:
        hosts = [name]
    app = create_app(inbox, token=token, hosts=hosts, cookie=f"toolnexus_inbox_{port}")
    url = f"http://{name}:{port}/"
    if not loopback:
        print(
            f"warning: serving on {host}, beyond this machine, over plain HTTP: the token and every"
            " answer cross the network unencrypted",
            file=sys.stderr,
        )
    print(f"toolnexus inbox: {url}?token={token}" if made else f"toolnexus inbox: {url} (the token you gave)")
    print("open it in a browser; Ctrl-C stops", flush=True)
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="off", proxy_headers=False, server_header=False
    )
    uvicorn.Server(config).run(sockets=[sock])


# -- the parts ----------------------------------------------------------------------------------


def _foreign(request: HttpRequest) -> str | None:
    """Why a POST is refused as cross-site (its `Origin` is not the page's own), or None."""
    origin = request.headers.get("origin")
    own = f"http://{request.headers.get('host', '')}"
    if origin is None:
        return "The form came without an Origin header, so it cannot be told from a forged one."
    if origin != own:
        return f"The form came from {shown(origin)}, not from this page ({shown(own)})."
    if request.headers.get("sec-fetch-site", "same-origin") != "same-origin":
        return "The browser says the form came from another site."
    return None


async def _form(request: HttpRequest, limit: int = MAX_FORM, fields: int = MAX_FIELDS) -> FormData | None:
    """The posted form, or None when its body is larger than `limit` bytes: a declared
    `Content-Length` over it is refused before anything is read, and a body sent without one
    (chunked) is read only up to the limit. More than `fields` fields is Starlette's 400."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    request._body = bytes(body)  # what `form()` parses: the body is read once, here
    return await request.form(max_files=0, max_fields=fields, max_part_size=limit)


def _same(given: str, secret: str) -> bool:
    """Whether `given` is `secret`, compared in constant time (any text a browser sends)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), secret.encode())


def _text(form: FormData, name: str) -> str:
    value = form.get(name)
    return value if isinstance(value, str) else ""


def _scope(form: FormData) -> str | None:
    scope = _text(form, "scope") or "once"
    if scope not in _SCOPES:
        raise InboxError(f"scope: {scope!r} is not one of {', '.join(_SCOPES)}")
    if scope == "session":
        session = _text(form, "session").strip()
        if not session:
            raise InboxError("scope: a session scope needs the session's id")
        return f"session:{session}"
    return None if scope == "once" else scope


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _after(value: str | None) -> tuple[int, int] | Literal[False] | None:
    """The list's `?after=RUN:POSITION` as a keyset pair; None without one, False when it is not one."""
    if value is None:
        return None
    run, sep, position = value.partition(":")
    if not (sep and run.isdigit() and position.isdigit() and len(value) <= 40):
        return False
    return int(run), int(position)


def _row(w: Waiting) -> dict[str, Any]:
    """A waiting request as the page shows it: every string made visible, and its link."""
    return {
        "run": w.run_id,
        "request": shown(w.request.id),
        "request_id": w.request.id,  # as it is, for the forms' hidden field (escaped there as HTML)
        "kind": shown(w.request.kind),
        "asks": w.asks,
        "tool": shown(w.tool or "?"),
        "prompt": shown(w.request.prompt, keep="\n"),
        "arguments": shown_json(w.arguments),
        "href": f"/request?run={w.run_id}&id={quote(w.request.id, safe='')}",
    }


def _notice(outcome: Outcome) -> dict[str, Any]:
    """What the list says after an answer: what was done, and the call's result when it has one."""
    result = outcome.result
    call = outcome.waiting.call
    return {
        "headline": shown(outcome.headline),
        "call": f"{shown(call.id)} {shown(call.name)}" if call is not None else None,
        "result": shown(result.output, keep="\n\t") if result is not None else None,
        "error": bool(result is not None and result.is_error),
    }


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
