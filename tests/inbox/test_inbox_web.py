"""`toolnexus inbox --web`: the page's rules through Starlette's test client, then the whole
path in a real headless Chromium (Debian's package): a tool suspends in one process, the page
(another process) lists it, a click approves it with an edited argument, and the run is done
in the store; a wrong token, forged forms and hostile strings are refused or shown escaped."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape
from starlette.testclient import TestClient

from tests.conftest import REPO, free_port
from tests.inbox_tools import HOSTILE, suspend, toolkit
from tests.needs import missing
from toolnexus import Request, ToolCall, ToolContext, Toolkit, define_tool, pending
from toolnexus.inbox import Inbox, Waiting
from toolnexus.inbox._web import create_app
from toolnexus.store import SqliteRunStore

TOKEN = "a-test-token-that-is-long-enough"
ORIGIN = "http://testserver"
SPEC = "tests.inbox_tools:toolkit"
INBOX = [sys.executable, "-m", "toolnexus.inbox"]


@dataclass
class Site:
    client: TestClient
    store: SqliteRunStore
    ran: Path

    def waiting(self) -> list[Waiting]:
        return Inbox(self.store).waiting()

    def csrf(self, w: Waiting) -> str:
        page = self.client.get("/request", params={"run": w.run_id, "id": w.request.id})
        assert page.status_code == 200, page.text
        found = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert found is not None
        return found.group(1)

    def post(self, w: Waiting, fields: dict[str, str], *, origin: str | None = ORIGIN, **kw: Any) -> Any:
        form = {"run": str(w.run_id), "request": w.request.id, **fields}
        headers = {} if origin is None else {"origin": origin}
        return self.client.post("/answer", data=form, headers={**headers, **kw.pop("headers", {})}, **kw)


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    ran = tmp_path / "ran.jsonl"
    monkeypatch.setenv("INBOX_RAN", str(ran))
    store = SqliteRunStore(tmp_path / "runs.sqlite3")
    asyncio.run(suspend(store.path))
    app = create_app(Inbox(store, toolkit(store), principal="ana"), token=TOKEN, hosts=["testserver"])
    with TestClient(app, follow_redirects=False) as client:
        yield Site(client, store, ran)


def signed_in(site: Site) -> Site:
    assert site.client.get("/", params={"token": TOKEN}).status_code == 303
    return site


def the(site: Site, tool: str) -> Waiting:
    return next(w for w in site.waiting() if w.tool == tool)


def decided(store: SqliteRunStore) -> list[str]:
    return [e["kind"] for e in store.log.entries()]


# -- the token, the session, the headers -------------------------------------------------------------


def test_the_token_opens_a_session_in_a_strict_cookie(site: Site) -> None:
    assert site.client.get("/").status_code == 401
    wrong = site.client.get("/", params={"token": "not-the-token-at-all"})
    assert wrong.status_code == 403 and "That token is not this inbox" in wrong.text
    assert "set-cookie" not in wrong.headers and "refund" not in wrong.text
    assert "runs.sqlite3" not in wrong.text, "the store is named to a signed-in person only"
    opened = site.client.get("/", params={"token": TOKEN})
    assert opened.status_code == 303 and opened.headers["location"] == "/", "the token leaves the URL"
    cookie = opened.headers["set-cookie"]
    assert re.match(r"toolnexus_inbox=[\w-]{43}; HttpOnly; Path=/; SameSite=strict$", cookie), cookie
    listing = site.client.get("/")
    assert listing.status_code == 200 and "refund" in listing.text


def test_the_login_form_takes_the_token_from_this_page_only(site: Site) -> None:
    refused = site.client.post("/login", data={"token": TOKEN})
    assert refused.status_code == 403 and "without an Origin" in refused.text
    wrong = site.client.post("/login", data={"token": "guess" * 8}, headers={"origin": ORIGIN})
    assert wrong.status_code == 403 and "set-cookie" not in wrong.headers
    assert site.client.post("/login", data={"token": TOKEN}, headers={"origin": ORIGIN}).status_code == 303
    assert site.client.get("/").status_code == 200


def test_every_response_carries_the_security_headers(site: Site) -> None:
    responses = [site.client.get("/"), site.client.get("/", params={"token": TOKEN}), site.client.get("/")]
    responses += [site.client.get("/style.css"), site.client.post("/answer", data={})]
    for response in responses:
        csp = response.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src" not in csp, "no script runs on the page"
        assert "frame-ancestors 'none'" in csp and response.headers["x-frame-options"] == "DENY"
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "same-origin"
        assert response.headers["cache-control"] == "no-store"


def test_a_request_for_another_host_is_refused(site: Site) -> None:
    """A DNS-rebinding page reaches 127.0.0.1 under its own name, and is refused."""
    assert site.client.get("/", headers={"host": "evil.test"}).status_code == 400
    assert site.client.get("/", params={"token": TOKEN}, headers={"host": "evil.test:80"}).status_code == 400


# -- forms that did not come from the page ----------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "says"),
    [
        ("no origin", "without an Origin header"),
        ("another origin", "came from http://evil.test, not from this page"),
        ("another site", "came from another site"),
        ("no csrf token", "no valid CSRF token"),
        ("a wrong csrf token", "no valid CSRF token"),
        ("no session", "no session here"),
    ],
)
def test_a_forged_form_is_refused_and_decides_nothing(site: Site, case: str, says: str) -> None:
    signed_in(site)
    w = the(site, "refund")
    fields = {"action": "approve", "arguments": '{"order": "A-17", "amount": 1}', "csrf": site.csrf(w)}
    kw: dict[str, Any] = {}
    if case == "no origin":
        kw["origin"] = None
    elif case == "another origin":
        kw["origin"] = "http://evil.test"
    elif case == "another site":
        kw["headers"] = {"sec-fetch-site": "cross-site"}
    elif case == "no csrf token":
        del fields["csrf"]
    elif case == "a wrong csrf token":
        fields["csrf"] = "x" * 43
    else:
        site.client.cookies.clear()
    refused = site.post(w, fields, **kw)
    assert refused.status_code == 403 and says in refused.text and "Nothing was decided." in refused.text
    assert the(site, "refund") == w and decided(site.store) == [] and not site.ran.exists()


# -- how much a form may hold -------------------------------------------------------------------------


def _chunked(head: bytes, fields: int, size: int) -> Iterator[bytes]:
    """A form body sent in pieces, so with no Content-Length: `head`, then `fields` fields of `size` bytes."""
    yield head
    for i in range(fields):
        yield b"&f%d=" % i + b"a" * size


@pytest.mark.parametrize("fields", [2, 9])
def test_a_chunked_form_over_the_limit_is_refused_and_decides_nothing(site: Site, fields: int) -> None:
    signed_in(site)
    w = the(site, "refund")
    head = f"csrf={site.csrf(w)}&run={w.run_id}&request={w.request.id}&action=decline&message=x".encode()
    refused = site.client.post(
        "/answer",
        content=_chunked(head, fields, 1024 * 1023),
        headers={"origin": ORIGIN, "content-type": "application/x-www-form-urlencoded"},
    )
    assert refused.status_code == 413 and "too large" in refused.text
    assert the(site, "refund") == w and decided(site.store) == []
    small = site.client.post(  # a chunked form within the limit is read as any other
        "/answer",
        content=_chunked(head, 1, 10),
        headers={"origin": ORIGIN, "content-type": "application/x-www-form-urlencoded"},
    )
    assert small.status_code == 303 and decided(site.store) == ["decline"]


def test_the_login_form_is_small_chunked_or_not(site: Site) -> None:
    headers = {"origin": ORIGIN, "content-type": "application/x-www-form-urlencoded"}
    body = f"token={TOKEN}".encode()
    big = site.client.post("/login", content=_chunked(body, 1, 64 * 1024), headers=headers)
    assert big.status_code == 413 and "set-cookie" not in big.headers
    declared = site.client.post("/login", content=body + b"&pad=" + b"a" * 8192, headers=headers)
    assert declared.status_code == 413 and "set-cookie" not in declared.headers
    assert site.client.post("/login", content=_chunked(body, 1, 10), headers=headers).status_code == 303


def test_a_tools_name_is_shown_by_code_point(tmp_path: Path) -> None:
    name = "notes\u202etxt.exe\x1b[2J"
    store = SqliteRunStore(tmp_path / "odd.sqlite3")

    def asks(a: dict[str, object], c: ToolContext) -> object:
        return pending(Request("question", "ok?")) if c.answer is None else "x"

    odd = define_tool(name, "N", None, asks)
    kit = Toolkit([odd])
    store.save(asyncio.run(kit.run_calls([ToolCall("c1", name, {})])))
    app = create_app(Inbox(store, kit), token=TOKEN, hosts=["testserver"])
    with TestClient(app, follow_redirects=False) as c:
        c.get("/", params={"token": TOKEN})
        [w] = Inbox(store).waiting()
        pages = [c.get("/").text, c.get("/request", params={"run": w.run_id, "id": w.request.id}).text]
        csrf = re.search(r'name="csrf" value="([^"]+)"', pages[1])
        assert csrf is not None
        answered = {"run": str(w.run_id), "request": w.request.id, "action": "respond", "data": "{}"}
        c.post("/answer", data={**answered, "csrf": csrf.group(1)}, headers={"origin": ORIGIN})
        pages.append(c.get("/").text)  # the notice after the answer names the call's tool
    for html in pages:
        assert "notes&lt;U+202E&gt;txt.exe&lt;U+001B&gt;[2J" in html
        assert "\u202e" not in html and "\x1b" not in html


# -- what the page shows, and what it does ----------------------------------------------------------


def test_the_list_shows_a_page_at_a_time_and_pages_on(tmp_path: Path) -> None:
    from toolnexus.inbox._web import PAGE

    store = SqliteRunStore(tmp_path / "runs.sqlite3")
    kit = Toolkit([define_tool("go", "Go on.", None, lambda a, c: pending(Request("approval", "Go on?")))])
    runs = [asyncio.run(kit.run_calls([ToolCall("c1", "go", {})])) for _ in range(PAGE + 3)]
    ids = store.save_many(runs)
    app = create_app(Inbox(store, kit, principal="ana"), token=TOKEN, hosts=["testserver"])
    with TestClient(app, follow_redirects=False) as client:
        assert client.get("/", params={"token": TOKEN}).status_code == 303
        first = client.get("/")
        shown_runs = re.findall(r'<td class="run">(\d+)</td>', first.text)
        assert shown_runs == [str(i) for i in ids[:PAGE]]
        more = re.search(r'<a href="/\?after=([\d:]+)" id="more">', first.text)
        assert more is not None and more.group(1) == f"{ids[PAGE - 1]}:0"
        second = client.get("/", params={"after": more.group(1)})
        assert re.findall(r'<td class="run">(\d+)</td>', second.text) == [str(i) for i in ids[PAGE:]]
        assert 'id="more"' not in second.text
        past = client.get("/", params={"after": f"{ids[-1]}:0"})
        assert past.status_code == 200 and "Nothing more waits." in past.text
        for bad in ("1", "a:b", "1:2:3", "9" * 50 + ":0"):
            refused = client.get("/", params={"after": bad})
            assert refused.status_code == 404 and "not a page of this inbox" in refused.text


def test_every_string_is_escaped(site: Site) -> None:
    signed_in(site)
    pages = [site.client.get("/").text]
    pages += [
        site.client.get("/request", params={"run": w.run_id, "id": w.request.id}).text for w in site.waiting()
    ]
    for html in pages:
        assert "<script" not in html and "<img" not in html
        assert "\u202e" not in html and "\u200b" not in html and "\x1b" not in html
    listing = pages[0]
    assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;\\&#34;&#39;&gt;&lt;img src=x onerror=" in listing
    assert "\\u202egnp.exe\\u200b\\u001b[31m" in listing  # the arguments, as JSON escapes
    assert "&lt;U+202E&gt;gnp.exe&lt;U+200B&gt;&lt;U+001B&gt;[31m" in listing  # the prompt, by code point


def test_approving_with_edited_arguments(site: Site) -> None:
    signed_in(site)
    w = the(site, "refund")
    done = site.post(
        w, {"action": "approve", "csrf": site.csrf(w), "arguments": '{"order":"A-17","amount":200}'}
    )
    assert done.status_code == 303 and done.headers["location"] == "/"
    listing = site.client.get("/").text
    assert f"approved {w.request.id} (refund) with edited arguments: run 1 is done" in listing
    assert "refunded 200 EUR on A-17" in listing and w.request.id not in listing.split("</section>")[1]
    assert decided(site.store) == ["edit"] and json.loads(site.ran.read_text()) == {
        "order": "A-17",
        "amount": 200,
    }
    assert site.post(w, {"action": "approve", "csrf": "", "arguments": ""}).status_code == 403


def test_unchanged_arguments_approve_as_asked(site: Site) -> None:
    signed_in(site)
    w = the(site, "refund")
    pretty = json.dumps(w.arguments, indent=2).replace("\n", "\r\n")  # as a browser sends a textarea
    assert site.post(w, {"action": "approve", "csrf": site.csrf(w), "arguments": pretty}).status_code == 303
    assert decided(site.store) == ["approve"]


def test_a_form_answered_twice_is_refused_the_second_time(site: Site) -> None:
    signed_in(site)
    w = the(site, "refund")
    fields = {"action": "approve", "csrf": site.csrf(w), "arguments": ""}
    assert site.post(w, fields).status_code == 303
    again = site.post(w, fields)
    assert again.status_code == 409 and "answered already, or never asked" in again.text
    assert decided(site.store) == ["approve"]


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        (
            {"arguments": '{"amount": 200'},
            "arguments: not valid JSON: Expecting &#39;,&#39; delimiter at line 1, column 15",
        ),
        ({"arguments": "[200]"}, "arguments: a JSON object is needed, not an array"),
        ({"arguments": "", "scope": "session", "session": " "}, "a session scope needs the session&#39;s id"),
        ({"arguments": "", "scope": "forever"}, "scope: &#39;forever&#39; is not one of"),
    ],
)
def test_bad_input_is_named_and_the_form_kept(site: Site, fields: dict[str, str], says: str) -> None:
    signed_in(site)
    w = the(site, "refund")
    page = site.post(w, {"action": "approve", "csrf": site.csrf(w), **fields})
    assert page.status_code == 400 and says in page.text
    if fields["arguments"]:
        assert f">{escape(fields['arguments'])}</textarea>" in page.text, "what was typed stays"
    assert the(site, "refund") == w and decided(site.store) == []


def test_declining_and_responding(site: Site) -> None:
    signed_in(site)
    note, question = (the(site, "note"), the(site, "ask"))
    fields = {"action": "decline", "csrf": site.csrf(note), "message": "no notes today", "scope": "session"}
    assert site.post(note, {**fields, "session": "s-1"}).status_code == 303
    assert "declined: no notes today" in site.client.get("/").text
    data = '{"text": "teal"}'
    assert (
        site.post(question, {"action": "respond", "csrf": site.csrf(question), "data": data}).status_code
        == 303
    )
    listing = site.client.get("/").text
    assert "the user said teal" in listing and "Nothing waits" not in listing  # the refund still waits
    assert [(e["kind"], e["scope"], e["by"]) for e in site.store.log.entries()] == [
        ("decline", "session:s-1", "ana"),
        ("respond", "once", "ana"),
    ]


def test_supplying_a_result(site: Site) -> None:
    signed_in(site)
    run_id = site.store.save(
        asyncio.run(toolkit(site.store).run_calls([ToolCall("c1", "lookup", {"email": "a@b"})]))
    )
    w = the(site, "lookup")
    page = site.client.get("/request", params={"run": run_id, "id": w.request.id}).text
    assert "Supply the result" in page and "&#34;isError&#34;: false" in page
    bad = site.post(w, {"action": "respond", "csrf": site.csrf(w), "data": '{"outptu": "x"}'})
    assert bad.status_code == 400 and "is not a ToolResult" in bad.text
    good = site.post(
        w, {"action": "respond", "csrf": site.csrf(w), "data": '{"output": "Ada", "isError": false}'}
    )
    assert good.status_code == 303 and "Ada" in site.client.get("/").text


def test_a_request_that_no_longer_waits(site: Site) -> None:
    signed_in(site)
    gone = site.client.get("/request", params={"run": "1", "id": "apr-nope"})
    assert gone.status_code == 404 and "no request &#39;apr-nope&#39; waits in run 1" in gone.text
    assert site.client.get("/request", params={"run": "x", "id": "y"}).status_code == 404


# -- in a real browser ---------------------------------------------------------------------------------

#: The flags Chromium starts with here (Playwright adds --headless and an empty --user-data-dir).
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@dataclass
class Served:
    base: str  # http://127.0.0.1:PORT/
    token: str
    db: Path
    ran: Path
    runs: list[int]


@pytest.fixture(scope="module")
def chromium() -> str:
    found = shutil.which("chromium")
    if found is None:
        missing("the inbox's browser test needs Debian's Chromium: apt-get install chromium")
    return found


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """Process 1 suspends two turns into a store; process 2 serves the inbox's page over it."""
    tmp = tmp_path_factory.mktemp("inbox-web")
    db, ran = tmp / "runs.sqlite3", tmp / "ran.jsonl"
    env = {**os.environ, "INBOX_RAN": str(ran)}
    made = subprocess.run(
        [sys.executable, "-m", "tests.inbox_tools", str(db)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    server = subprocess.Popen(
        [*INBOX, "--store", str(db), "--toolkit", SPEC, "--principal", "ana", "--web", "--port", "0"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    watchdog = threading.Timer(60, server.kill)  # a server that never says where it is
    watchdog.start()
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        watchdog.cancel()
        found = re.fullmatch(r"toolnexus inbox: (http://127\.0\.0\.1:\d+/)\?token=([\w-]{43})\n", line)
        assert found is not None, (line, server.stderr.read() if server.poll() is not None else "")  # type: ignore[union-attr]
        yield Served(found.group(1), found.group(2), db, ran, json.loads(made.stdout))
    finally:
        watchdog.cancel()
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go: $TOOLNEXUS_INBOX_SCREENSHOTS, or a temporary folder."""
    where = os.environ.get("TOOLNEXUS_INBOX_SCREENSHOTS")
    path = Path(where) if where else tmp_path_factory.mktemp("inbox-shots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def opened(browser: Any, served: Served) -> Any:
    """A page in a new browser context, signed in with the printed link; it fails the test on
    any dialog (an `alert` would mean a hostile string ran)."""
    context = browser.new_context(viewport={"width": 1280, "height": 760})
    page = context.new_page()
    page.on("dialog", lambda dialog: pytest.fail(f"a dialog opened: {dialog.message!r}"))
    response = page.goto(f"{served.base}?token={served.token}")
    assert response is not None and response.ok and page.url == served.base, "the token leaves the URL"
    return page


def waiting_in(served: Served, tool: str) -> Waiting:
    return next(w for w in Inbox(SqliteRunStore(served.db)).waiting() if w.tool == tool)


@pytest.mark.slow
def test_a_click_approves_with_an_edited_argument_and_the_run_completes(
    browser: Any, served: Served, shots: Path
) -> None:
    from playwright.sync_api import expect

    page = opened(browser, served)
    rows = page.locator("#waiting tbody tr")
    expect(rows).to_have_count(3)
    refund = rows.filter(has_text="refund")
    expect(refund.locator("td.arguments")).to_have_text('{"order": "A-17", "amount": 250}')
    expect(refund.locator("td.kind")).to_have_text("approval")
    page.screenshot(path=shots / "inbox-list.png", full_page=True)

    refund.locator("td.request a").click()
    expect(page.locator("h1")).to_have_text("May refund run?")
    expect(page.locator("#arguments")).to_have_text('{\n  "order": "A-17",\n  "amount": 250\n}')
    page.locator("#edit-arguments").fill('{\n  "order": "A-17",\n  "amount": 200\n}')
    page.screenshot(path=shots / "inbox-request.png", full_page=True)
    page.locator("#approve").click()

    expect(page.locator("#notice .headline")).to_contain_text("(refund) with edited arguments: run 1 is done")
    expect(page.locator("#notice .result")).to_have_text("refunded 200 EUR on A-17")
    expect(rows).to_have_count(2)  # the decided request has left the list
    expect(rows.filter(has_text="refund")).to_have_count(0)
    page.screenshot(path=shots / "inbox-approved.png", full_page=True)

    # This process (a third one) reads the store: the run is done, and the tool ran with the edit.
    store = SqliteRunStore(served.db)
    stored = store.get(served.runs[0])
    assert stored is not None and stored.status == "done" and stored.run is not None
    assert stored.run.results[0].result.output == "refunded 200 EUR on A-17"
    assert [json.loads(line) for line in served.ran.read_text().splitlines()] == [
        {"order": "A-17", "amount": 200}
    ]
    [entry] = [e for e in store.log.entries() if e["tool"] == "refund"]
    assert (entry["kind"], entry["by"], entry["approved"]) == (
        "edit",
        "ana",
        {"order": "A-17", "amount": 200},
    )
    assert store.log.verify() is None
    page.context.close()


@pytest.mark.slow
def test_a_bad_token_is_refused(browser: Any, served: Served) -> None:
    from playwright.sync_api import expect

    context = browser.new_context()
    page = context.new_page()
    response = page.goto(f"{served.base}?token=not-this-inbox-token-{'x' * 20}")
    assert response is not None and response.status == 403
    expect(page.locator(".error")).to_have_text("That token is not this inbox's.")
    assert context.cookies() == []
    response = page.goto(served.base)
    assert response is not None and response.status == 401
    expect(page.locator("h1")).to_have_text("Sign in")
    assert page.locator("#waiting").count() == 0 and "apr-" not in page.content()
    page.locator("#token").fill("a wrong token, typed")
    page.locator("button[type=submit]").click()
    expect(page.locator(".error")).to_have_text("That token is not this inbox's.")
    page.locator("#token").fill(served.token)  # the right one, typed into the same form
    page.locator("button[type=submit]").click()
    expect(page.locator("#waiting")).to_be_visible()
    context.close()


@pytest.mark.slow
def test_forged_forms_are_refused_and_decide_nothing(browser: Any, served: Served) -> None:
    from playwright.sync_api import expect

    page = opened(browser, served)  # the person is signed in; other pages try to act for them
    target = waiting_in(served, "note")
    answer = f"{served.base}answer"
    forged = (
        f'<form id="f" method="post" action="{answer}">'
        f'<input name="run" value="{target.run_id}"><input name="request" value="{target.request.id}">'
        '<input name="action" value="approve"><input name="csrf" value="guessed"></form>'
        '<script>document.getElementById("f").submit()</script>'
    )
    # Another site, and another port of this host (same-site: the strict cookie is sent there).
    for origin in ("http://evil.test", f"http://127.0.0.1:{free_port()}"):
        page.route(
            f"{origin}/**", lambda route: route.fulfill(status=200, content_type="text/html", body=forged)
        )
        with page.expect_response(answer) as refused:
            page.goto(f"{origin}/")
        assert refused.value.status == 403
        expect(page.locator(".error")).to_contain_text(f"The form came from {origin}, not from this page")

    # The page's own form, with its CSRF token taken out, or replaced.
    for token in (None, "x" * 43):
        page.goto(f"{served.base}request?run={target.run_id}&id={target.request.id}")
        csrf = page.locator("form.approve input[name=csrf]")
        if token is None:
            csrf.evaluate("input => input.remove()")
        else:
            csrf.evaluate("(input, token) => { input.value = token; }", token)
        with page.expect_response(answer) as refused:
            page.locator("#approve").click()
        assert refused.value.status == 403
        expect(page.locator(".error")).to_have_text(
            "The form has no valid CSRF token: it did not come from this page."
        )

    # The right CSRF token, sent with the session's cookie, but from no page, or from another origin.
    page.goto(f"{served.base}request?run={target.run_id}&id={target.request.id}")
    csrf_token = page.locator("form.approve input[name=csrf]").get_attribute("value")
    form = {"run": str(target.run_id), "request": target.request.id, "action": "approve", "csrf": csrf_token}
    for headers, says in (({}, "without an Origin header"), ({"origin": "http://evil.test"}, "evil.test")):
        sent = page.request.post(answer, form=form, headers=headers)
        assert sent.status == 403 and says in sent.text()

    assert waiting_in(served, "note") == target, "nothing was decided"
    assert not [e for e in SqliteRunStore(served.db).log.entries() if e["tool"] == "note"]
    page.context.close()


@pytest.mark.slow
def test_hostile_strings_are_shown_escaped_and_never_run(browser: Any, served: Served) -> None:
    from playwright.sync_api import expect

    page = opened(browser, served)
    rows = page.locator("#waiting tbody tr")
    note_args = rows.filter(has_text="note").locator("td.arguments")
    expect(note_args).to_have_text(  # JSON, with the invisible characters as escapes
        r"""{"text": "<script>window.__pwned=1</script>\"'><img src=x onerror=\"window.__pwned=2\">"""
        r"""\u202egnp.exe\u200b\u001b[31m"}"""
    )
    assert json.loads(note_args.inner_text()) == {"text": HOSTILE}
    prompt = rows.filter(has_text="Which colour?").locator("td.prompt")
    expect(prompt).to_have_text(
        'Which colour? <script>window.__pwned=1</script>"\'><img src=x onerror="window.__pwned=2">'
        "<U+202E>gnp.exe<U+200B><U+001B>[31m"
    )
    assert page.evaluate("window.__pwned") is None
    assert page.locator("main script, main img").count() == 0
    text = page.locator("main").inner_text()
    assert not {"\u202e", "\u200b", "\x1b"} & set(text)

    note = waiting_in(served, "note")
    page.goto(f"{served.base}request?run={note.run_id}&id={note.request.id}")
    assert json.loads(page.locator("#arguments").inner_text()) == {"text": HOSTILE}
    assert json.loads(page.locator("#edit-arguments").input_value()) == {"text": HOSTILE}
    assert page.evaluate("window.__pwned") is None and page.locator("main script, main img").count() == 0
    page.context.close()


def test_a_questions_form_is_pre_filled_with_its_defaults(tmp_path: Path) -> None:
    from toolnexus import Request, Toolkit, define_tool, pending

    schema = {
        "type": "object",
        "properties": {
            "size": {"type": "string", "default": "M"},
            "gift": {"type": "boolean", "default": True},
        },
    }

    def shirt(args: dict[str, Any], ctx: ToolContext) -> Any:
        if ctx.answer is None:
            return pending(Request("input", "Which size?", data={"schema": schema}))
        return f"size {ctx.answer.data}"

    store = SqliteRunStore(tmp_path / "runs.sqlite3")
    kit = Toolkit([define_tool("shirt", "Order a shirt", None, shirt)])
    with ThreadPoolExecutor(1) as pool:  # a loop of its own: a browser test may hold this thread's
        store.save(pool.submit(asyncio.run, kit.run_calls([ToolCall("c1", "shirt", {})])).result())
    app = create_app(Inbox(store, kit, principal="ana"), token=TOKEN, hosts=["testserver"])
    with TestClient(app, follow_redirects=False) as client:
        assert client.get("/", params={"token": TOKEN}).status_code == 303
        [w] = Inbox(store).waiting()
        page = client.get("/request", params={"run": w.run_id, "id": w.request.id}).text
    found = re.search(r'<textarea id="edit-data" name="data"[^>]*>(.*?)</textarea>', page, re.DOTALL)
    assert found is not None
    assert json.loads(unescape(found.group(1))) == {"size": "M", "gift": True}
