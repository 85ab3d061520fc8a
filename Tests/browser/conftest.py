"""Browser tests: the real server (a fresh data directory, --port 0) and
Debian's Chromium driven by Playwright's sync API.

The server binary is $PARLOR_BIN, else .build/debug/parlor. Screenshots go to
test-artifacts/ at the repository root (ignored by git).
"""

from contextlib import contextmanager
import asyncio
import json
import os
import queue
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import warnings
import zlib
from pathlib import Path

import pytest
from playwright.sync_api import expect

# the integration suite's test-server flags (open registration, limits off)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
from server import relaxed_args  # noqa: E402

expect.set_options(timeout=10_000)

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = ROOT / "Public"
ARTIFACTS = ROOT / "test-artifacts"
BIN = Path(os.environ.get("PARLOR_BIN", ROOT / ".build" / "debug" / "parlor"))
CHROMIUM = os.environ.get("PARLOR_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_SHELL = os.environ.get("PARLOR_CHROMIUM_SHELL", "/usr/bin/chromium-headless-shell")
LISTENING = re.compile(r"listening on http://127\.0\.0\.1:(\d+)")
STARTUP_TIMEOUT = 15.0


class Server:
    """One `parlor serve` process; stop() and start() again keep the data and the port."""

    def __init__(self, data: Path, public: Path, extra_args=(), port=0):
        self.data = data
        self.public = public
        self.extra_args = list(extra_args)
        self.port = port
        self.proc = None
        self.log = []

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        cmd = [str(BIN), "serve", "--host", "127.0.0.1", "--port", str(self.port),
               "--data", str(self.data), "--public", str(self.public),
               *relaxed_args(self.extra_args), *self.extra_args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines: "queue.Queue[str | None]" = queue.Queue()

        def pump(stream, sink):
            for line in stream:
                sink.put(line)
                self.log.append(line)
            sink.put(None)

        threading.Thread(target=pump, args=(self.proc.stdout, lines), daemon=True).start()
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.kill()
                raise RuntimeError("the server did not say where it listens:\n" + "".join(self.log[-20:]))
            try:
                line = lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                raise RuntimeError("the server exited:\n" + "".join(self.log[-20:]))
            m = LISTENING.search(line)
            if m:
                self.port = int(m.group(1))
                return self

    def stop(self):
        """A clean stop (SIGTERM), waited for."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def kill(self):
        """kill -9: nothing acknowledged may be lost."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


def public_with_apps(tmp: Path, extra_apps: dict) -> Path:
    """A copy of Public/ with test-only apps added (and listed in apps/index.json)."""
    target = tmp / "public"
    shutil.copytree(PUBLIC, target)
    import json
    index = json.loads((target / "apps" / "index.json").read_text())
    for app_id, source in extra_apps.items():
        shutil.copytree(source, target / "apps" / app_id)
        index.append(app_id)
    (target / "apps" / "index.json").write_text(json.dumps(index))
    return target


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report ends with its server's last log lines (what it refused, a
    send it stored or not): an app's move that never showed left nothing else to go on."""
    outcome = yield
    rep = outcome.get_result()
    if rep.when != "call" or not rep.failed:
        return
    people = item.funcargs.get("people")
    server = getattr(people, "server", None) or item.funcargs.get("server")
    if isinstance(server, Server):
        rep.sections.append(("server log, last 40 lines", "".join(server.log[-40:])))
    if isinstance(people, People):
        rep.sections.append(("each page at the failure", people.snapshot()))


# What a page held when a test failed: an app's move that never showed (sent? in the
# outbox? refused? staged?) is told apart by it (the suite's intermittent app flows).
PAGE_SNAPSHOT = """() => {
    const line = (el) => el.innerText.replace(/\\s+/g, ' ').slice(0, 90);
    const pane = document.getElementById('app-pane');
    const rows = [...document.querySelectorAll('#transcript .row')].slice(-6)
        .map((r) => `  ${r.dataset.seq ?? 'not stored'} ${r.dataset.kind ?? ''} [${r.className}] ${line(r)}`);
    const kept = Object.entries(localStorage).filter(([k]) => /^parlor\\.(outbox|refused)\\./.test(k))
        .map(([k, v]) => `  ${k.split('.')[1]}: ${v.slice(0, 400)}`);
    const banner = document.getElementById('offline-banner');
    return [location.href, `offline banner: ${!banner || banner.hidden ? 'hidden' : line(banner)}`,
        `pane: ${!pane || pane.hidden ? 'hidden' : pane.dataset.style} [${pane?.className ?? ''}]`
            + `, frame ${pane?.querySelector('iframe')?.style.display === 'none' ? 'hidden by the host' : 'shown'}`
            + `, dialog ${document.querySelector('dialog[open]')?.id || 'none'}, focus ${document.activeElement?.id || document.activeElement?.className || document.activeElement?.tagName}`,
        `staged: ${[...document.querySelectorAll('.staged-item')].map(line).join(' | ') || 'nothing'}`,
        `Send disabled: ${document.querySelector('.send-button')?.disabled}`, ...kept, 'last rows:', ...rows].join('\\n');
}"""

# What an app's frame showed (its view and notice: a move refused or overtaken says so there).
APP_SNAPSHOT = """() => `app frame ${location.pathname}: style ${document.documentElement.dataset.presentationStyle ?? '?'}`
    + `, focus ${document.hasFocus() ? (document.activeElement?.id || document.activeElement?.tagName) : 'elsewhere'}`
    + `, shows: ${(document.body?.innerText ?? '').replace(/\\s+/g, ' ').slice(0, 300)}`"""


@pytest.fixture
def make_server():
    """Starts servers on fresh data directories; all are stopped at the end."""
    if not BIN.exists():
        pytest.skip(f"no server binary at {BIN} (build it first)")
    started = []
    dirs = []

    def make(public: Path = PUBLIC, extra_args=(), port=0) -> Server:
        d = Path(tempfile.mkdtemp(prefix="parlor-browser-"))
        dirs.append(d)
        s = Server(d / "data", public, extra_args, port).start()
        started.append(s)
        return s

    yield make
    for s in started:
        s.stop()
    for d in dirs:
        shutil.rmtree(d, ignore_errors=True)
    # a page that was refused one of its files fails somewhere later, unexplained
    refused = [line for s in started for line in s.log if "files refused" in line]
    assert not refused, f"the server refused files to the pages: {refused[:3]}"


@pytest.fixture
def people_with_fixture_apps(browser, make_server, tmp_path):
    """People on a fresh server whose Public/ also holds test-only apps from fixtures/."""
    made = []

    def make(*names):
        fixtures = Path(__file__).parent / "fixtures"
        p = People(browser, make_server(public_with_apps(tmp_path, {n: fixtures / n for n in names})))
        made.append(p)
        return p

    yield make
    for p in made:
        p.close()


@pytest.fixture
def server(make_server) -> Server:
    return make_server()


# Most tests run in Chromium's headless shell (Debian's chromium-headless-shell: the same
# Blink and V8, without the browser's own UI layers): the suite is bound by Chromium's
# CPU, and the shell spends about a third less of it (BENCHMARKS.md, "The browser
# suite"). What the shell lacks — notifications (always "denied" there) and the
# compositor's hit-testing of a frame that is still moving — is tested in the whole
# browser: mark those tests `full_chromium`.
def pytest_configure(config):
    config.addinivalue_line("markers", "full_chromium: run in the whole Chromium, not the headless shell")


@pytest.fixture(scope="session")
def _browsers():
    from playwright.sync_api import sync_playwright

    launched = {}
    with sync_playwright() as p:
        def launch(full):
            path = CHROMIUM if full or not Path(CHROMIUM_SHELL).exists() else CHROMIUM_SHELL
            if path not in launched:
                if not Path(path).exists():
                    pytest.skip(f"no Chromium at {path}")
                launched[path] = p.chromium.launch(executable_path=path)
            return launched[path]
        yield launch
        for b in launched.values():
            b.close()


@pytest.fixture
def browser(request, _browsers):
    return _browsers(request.node.get_closest_marker("full_chromium") is not None)


# A stress mode for finding races (PARLOR_BROWSER_LATE_TIMERS=ms): every page's timers
# run at least that late, as on a loaded phone, where input is handled ahead of them.
LATE_TIMERS_MS = int(os.environ.get("PARLOR_BROWSER_LATE_TIMERS", "0") or 0)
LATE_TIMERS = """(() => {
  const later = window.setTimeout.bind(window);
  window.setTimeout = (f, ms, ...a) => later(f, Math.max(ms || 0, %d), ...a);
})()"""


class People:
    """Browser contexts, one per person, with their page errors collected."""

    def __init__(self, browser, server):
        self.browser = browser
        self.server = server
        self.contexts = []
        self.errors = []
        self.console = {}  # page → its console lines (the first 200)
        self.protocol = []  # ProtocolPerson, closed with the pages

    def open(self, path="/", *, viewport=(1200, 800), dark=False, mobile=False):
        ctx = self.browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]},
            color_scheme="dark" if dark else "light",
            is_mobile=mobile, has_touch=mobile,
            base_url=self.server.base,
        )
        ctx.set_default_timeout(10_000)
        if LATE_TIMERS_MS:
            ctx.add_init_script(LATE_TIMERS % LATE_TIMERS_MS)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(f"{e}"))
        console = self.console.setdefault(page, [])
        page.on("console", lambda m: console.append(f"{m.type}: {m.text}"[:300]) if len(console) < 200 else None)
        page.goto(path if path.startswith("http") else self.server.base + path)
        return page

    def join(self, name, path="/", **kw):
        """A new person: opens the page, picks a name, waits until signed in.
        Through an invite link (a path with /join/), they then say Join when asked."""
        page = self.open(path, **kw)
        page.fill("#welcome-name", name)
        page.get_by_role("button", name="Continue").click()
        page.locator(".me .name", has_text=name).wait_for(state="attached")
        page.locator("#welcome").wait_for(state="hidden")
        if "/join/" in path:
            answer_invite(page, "Join")
        saved_recovery_key(page)
        return page

    def on_protocol(self, name):
        """A new person on the protocol, not in a browser, closed with the pages."""
        person = ProtocolPerson(self.server, name)
        self.protocol.append(person)
        return person

    def close(self):
        for c in self.contexts:
            close_within(c, CLOSE_TIMEOUT)
        for person in self.protocol:
            person.close()

    def snapshot(self):
        """Each page's state (PAGE_SNAPSHOT) and its last console lines, each read within
        5 s: a page stuck at the failure must not hold the report."""
        out = []
        for ctx in self.contexts:
            for page in ctx.pages:
                try:
                    state = ctx._sync(asyncio.wait_for(page._impl_obj.evaluate(PAGE_SNAPSHOT, None), 5))
                except Exception as e:  # noqa: BLE001 - a closed or stuck page says so
                    state = f"{page.url}: not read ({type(e).__name__}: {e})"
                for app in page.frames[1:]:
                    try:
                        state += "\n" + ctx._sync(asyncio.wait_for(app._impl_obj.evaluate(APP_SNAPSHOT, None), 5))
                    except Exception as e:  # noqa: BLE001 - likewise
                        state += f"\napp frame {app.url}: not read ({type(e).__name__}: {e})"
                console = self.console.get(page, [])[-12:]
                out.append(state + ("\nconsole:\n  " + "\n  ".join(console) if console else ""))
        return "\n\n".join(out)


# Chromium now and then never answers a context's disposal (Target.disposeBrowserContext;
# seen once in about a thousand teardowns here, and once in CI, where it held the suite
# until CI's time ran out): Playwright's close() has no timeout, so one is put on it.
CLOSE_TIMEOUT = 15.0


def close_within(ctx, seconds):
    """Closes a browser context, giving up after `seconds` (said as a warning: the
    context is left to the browser's own close at the end of the run)."""
    try:
        ctx._sync(asyncio.wait_for(ctx._impl_obj.close(reason=None), seconds))
    except (asyncio.TimeoutError, TimeoutError):
        pages = ", ".join(p.url for p in ctx.pages) or "no page"
        warnings.warn(f"a browser context did not close within {seconds:.0f} s (Chromium; its pages: {pages}); left open")


def watched_people(browser, server):
    """People in `browser`, for a fixture to yield from: closed after the test, whose
    pages must have shown no error."""
    p = People(browser, server)
    yield p
    p.close()
    assert not p.errors, f"errors on the page: {p.errors}"


@pytest.fixture
def people(browser, server):
    yield from watched_people(browser, server)


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def red_png(w, h):
    """A plain red PNG of w × h."""
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\xdc\x28\x28" * w for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


class ProtocolPerson:
    """Someone on the protocol, not in a browser (Tests/integration/client.py on a loop of
    its own): fills a conversation with hundreds of messages in a second, where the page
    would take minutes."""

    def __init__(self, server, name):
        from client import Client  # noqa: E402 - the integration tests' client

        self.server = server
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.client = self.run(Client.connect(server.base.replace("http", "ws") + "/ws", label=name, origin=server.base))
        registered = self.run(self.client.call("register", name=name))
        self.user, self.token = registered["user"], registered["token"]

    def run(self, coro, timeout=30):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def call(self, type_, **fields):
        return self.run(self.client.call(type_, **fields))

    def send_text(self, conversation_id, text):
        return self.run(self.client.send_text(conversation_id, text))

    def upload_picture(self, w, h):
        """Uploads a plain red PNG of w × h as this person; returns its hash."""
        upload = urllib.request.Request(self.server.base + "/blobs", data=red_png(w, h),
                                        headers={"Authorization": f"Bearer {self.token}"}, method="POST")
        with urllib.request.urlopen(upload, timeout=10) as r:
            return json.loads(r.read())["hash"]

    def close(self):
        self.run(self.client.close())
        self.loop.call_soon_threadsafe(self.loop.stop)


# ---- actions a person takes, shared by the tests -------------------------------------------

def create_conversation(page, title):
    """Creates a conversation; returns its invite link (from the invite dialog)."""
    page.get_by_role("button", name="New conversation").click()
    page.fill("#new-conversation-input", title)
    page.locator("#new-conversation button[type=submit]").click()
    page.locator("#invite[open]").wait_for()
    link = page.input_value("#invite-link")
    # the list of invites fills in after the dialog opens and moves Done down: a click
    # aimed before that landed on the list, and the dialog stayed open (a loaded run here)
    expect(page.locator("#invite .invite-item")).to_have_count(1)
    page.locator("#invite").get_by_role("button", name="Done").click()
    expect(page.locator("#invite[open]")).to_have_count(0)
    page.locator("#chat-title", has_text=title).wait_for()
    return link


def saved_recovery_key(page):
    """After sign-up the recovery key is shown once (#11): say it was saved."""
    dialog = page.locator("#recovery[open]")
    dialog.wait_for()
    page.locator("#recovery-saved").check()
    dialog.get_by_role("button", name="Done").click()
    expect(dialog).to_have_count(0)


def answer_invite(page, button):
    """The question an invite link asks before joining: "Join" or "Not now"."""
    ask = page.locator("#join-invite[open]")
    ask.get_by_role("button", name=button, exact=True).click()
    expect(ask).to_have_count(0)


def open_conversation(page, title):
    """Opens a conversation from the list, and waits until it is the one shown. The
    switch runs on the page's hashchange, after the click returns: text typed before it
    was the previous conversation's draft, and the Enter after it sent nothing."""
    page.locator(".conv-item", has_text=title).locator("a").click()
    expect(page.locator("#chat-title")).to_have_text(title)


def send_text(page, text):
    """Types `text` and sends it: Enter on a computer, Send on a touch screen (where
    return starts a new line)."""
    page.fill("#composer-input", text)
    if page.evaluate("matchMedia('(pointer: coarse)').matches"):
        press_send_button(page)
    else:
        page.keyboard.press("Enter")


def install_app(page, app_name):
    page.locator(".chat-header").get_by_role("button", name="App Store").click()
    page.locator("#app-store[open]").wait_for()
    page.get_by_role("button", name=f"Install {app_name}").click()
    page.get_by_role("button", name=f"Remove {app_name}").wait_for()
    page.locator("#app-store").get_by_role("button", name="Done").click()


def open_from_drawer(page, app_name):
    page.get_by_role("button", name="Apps", exact=True).click()
    page.locator("#drawer").get_by_role("button", name=f"Open {app_name}").click()
    # Opened over another app's compact pane, the pane shows that one until the new app's
    # participants come back from the server: waited for as it was, it was "ready" with
    # the frame about to be replaced (a loaded run: the new frame not yet attached).
    page.locator(f'#app-pane[aria-label="{app_name} app"]').wait_for()
    pane_ready(page, "compact")


def pane_ready(page, style):
    """The pane shows `style`, and the browser sends input by where it is now
    (input_follows_pane)."""
    page.locator(f"#app-pane[data-style={style}]:not([hidden]):not(.mounting)").wait_for()
    input_follows_pane(page)


# Whether the app's document got a pointer move since the flag was last cleared.
WATCH_POINTER = """() => {
    window.pointerFelt = false;
    if (window.pointerWatched) return;
    window.pointerWatched = true;
    document.addEventListener('pointermove', () => { window.pointerFelt = true; }, true);
}"""

# Whether the host's page got a pointer move, not on a frame, since the flag was last cleared.
WATCH_HOST_POINTER = """() => {
    window.hostPointerFelt = false;
    if (window.hostPointerWatched) return;
    window.hostPointerWatched = true;
    document.addEventListener('pointermove', (e) => { if (!(e.target instanceof HTMLIFrameElement)) window.hostPointerFelt = true; }, true);
}"""

# Where input_follows_pane feels the pointer: `app`, near the top of the app's frame
# (outside where the compact pane was, when it is expanded); `host`, a point of the
# conversation clear of that frame by more than the focus guard's edge (frame.js) and
# of any other frame (a live bubble), or null (the pane covers it). Null when the frame
# takes no pointer: a modal question (a hostile app's send), hidden by the host, not
# started, an opening note.
PANE_POINTS = """() => {
    const f = document.querySelector('#app-pane iframe');
    if (!f || document.querySelector('dialog[open]') || f.style.display === 'none' || f.closest('[inert]')
        || document.querySelector('#app-pane .pane-note')) return null;
    const r = f.getBoundingClientRect();
    if (r.width < 4 || r.height < 4) return null;
    const away = (x, y) => y < r.top - 48 || y > r.bottom + 48 || x < r.left - 48 || x > r.right + 48;
    const clear = (x, y) => {
        const el = document.elementFromPoint(x, y);
        return !!el && !(el instanceof HTMLIFrameElement) && !el.closest('#app-pane') && away(x, y);
    };
    const t = document.getElementById('transcript')?.getBoundingClientRect();
    const host = !t ? null : [[0.5, 0.5], [0.03, 0.5], [0.03, 0.2], [0.5, 0.2]]
        .map(([fx, fy]) => ({ x: t.left + t.width * fx, y: t.top + t.height * fy })).find((p) => clear(p.x, p.y)) ?? null;
    return { app: { x: r.left + r.width / 2, y: r.top + Math.min(r.height / 2, 30) }, host };
}"""

# A modal question or a host that hid the frame: the frame can take no pointer now.
NO_POINTER_FOR_APP = """() => { const f = document.querySelector('#app-pane iframe');
    return !f || !!document.querySelector('dialog[open]') || f.style.display === 'none'; }"""


def input_follows_pane(page):
    """Waits until the browser sends the pointer by the pane as it is now: into the
    app's frame where the frame is, to the page where the frame no longer is. The
    frame is another process, and the browser sends input into it by where the
    compositor last drew it, which lags the page's layout: on a loaded machine a
    click made at once after the pane changed went by the pane as it was (shown by a
    probe that made the compositor slow: 24 of 30 clicks in a pane just expanded
    went to the page behind, 4 of 30 on the composer just uncovered went into the
    app). So Done did nothing, and Send did not send (1 run in many here and in
    CI). A person taps what they see drawn; a test must wait for it too. The mouse
    ends over the conversation when the pane is compact, away from the frame's edge,
    where the focus guard would count it as heading into the app."""
    points = page.evaluate(PANE_POINTS)
    if not points:
        return
    app = app_frame(page)
    app.evaluate(WATCH_POINTER)
    if not mouse_until_felt(page, points["app"]["x"], points["app"]["y"], "() => window.pointerFelt", "the app's frame",
                            unless=NO_POINTER_FOR_APP):
        return
    if points["host"]:
        page.evaluate(WATCH_HOST_POINTER)
        mouse_until_felt(page, points["host"]["x"], points["host"]["y"], "() => window.hostPointerFelt", "the conversation",
                         where=page.main_frame)


def app_feels_pointer(page):
    """Moves the mouse to the middle of the app's frame until the app gets it (see
    input_follows_pane): a change of the window's size lags in the same way."""
    # nothing to touch under a modal dialog (a hostile app's send question) or when hidden
    if not page.evaluate("""() => { const f = document.querySelector('#app-pane iframe');
            return !!f && !document.querySelector('dialog[open]') && f.style.display !== 'none' && !f.closest('[inert]'); }"""):
        return
    app = app_frame(page)
    app.evaluate(WATCH_POINTER)
    box = page.locator("#app-pane iframe").bounding_box()
    assert box and box["width"] > 0 and box["height"] > 0, box
    mouse_until_felt(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, "() => window.pointerFelt", "the app's frame")


def mouse_until_felt(page, x, y, felt, what, where=None, unless=None):
    """Moves the mouse to (x, y), a pixel to and fro, until `felt` (evaluated in
    `where`, by default the app's frame) is true: the pointer got there (see
    input_follows_pane). Returns False, not waiting more, once `unless` (evaluated
    in the page) is true."""
    where = where or app_frame(page)
    deadline = time.monotonic() + 10
    nudge = 0
    while True:
        page.mouse.move(x + nudge % 2, y)
        if where.evaluate(felt):
            return True
        if unless and page.evaluate(unless):
            return False
        if time.monotonic() > deadline:
            there = page.evaluate(AT_POINT, [x, y])
            raise AssertionError(f"{what} never got the pointer at ({x:.0f}, {y:.0f}), where the page has {there}")
        nudge += 1
        time.sleep(0.05)


# What the host's page has at a point (for a pointer that never got where it was sent).
AT_POINT = """([x, y]) => { const el = document.elementFromPoint(x, y);
    return el ? `${el.tagName.toLowerCase()}#${el.id}.${el.className}` : 'nothing'; }"""


def lifecycle(page):
    """The hooks the example app has seen, in order (it lists them in its page)."""
    return page.frame_locator("#app-pane iframe").locator("#lifecycle li").all_text_contents()


def frame(page):
    """The open app's frame."""
    return page.frame_locator("#app-pane iframe")


def app_frame(page):
    """The open app's frame, to evaluate script in."""
    return page.locator("#app-pane iframe").element_handle().content_frame()


def holding_in_app_frames(event_type, held_when="true"):
    """An init script: app frames (not the host) hold back their `event_type` events
    for which `held_when` (JavaScript of the event `e`) is true, from `holdEvents()` to
    `releaseEvents()` (which delivers them and says how many), as a loaded machine or a
    slow phone's app process does."""
    return """
if (window.top !== window) {
  const held = [];
  let holding = false;
  window.holdEvents = () => { holding = true; };
  window.releaseEvents = () => {
    holding = false;
    const n = held.length;
    held.splice(0).forEach((deliver) => deliver());
    return n;
  };
  const add = window.addEventListener.bind(window);
  window.addEventListener = (type, fn, ...rest) => add(type, type !== "%s" ? fn : (e) => {
    if (holding && (%s)) held.push(() => fn(e)); else fn(e);
  }, ...rest);
}
""" % (event_type, held_when)


# App frames opened after `hear_did_transition_late(page)` hold didTransition back while
# in `did_transition_held(page)`: the app's view has switched at willTransition and the
# pane has its new size, `presentationStyle` not yet.
LATE_DID_TRANSITION = holding_in_app_frames("message", 'e.data && e.data.name === "didTransition"')


def app_hearing_did_transition_late(people, app_name, title):
    """Ana in a new conversation, `app_name` open, its didTransition held back when asked
    (`did_transition_held`)."""
    ana = people.join("Ana")
    create_conversation(ana, title)
    ana.context.add_init_script(LATE_DID_TRANSITION)
    install_app(ana, app_name)
    open_from_drawer(ana, app_name)
    return ana


@contextmanager
def did_transition_held(page):
    """What the block does comes before the app hears of the one transition made in it."""
    app_frame(page).evaluate("holdEvents()")
    yield
    # else the test proves nothing. The block's last tap may start a transition back
    # (Done collapses the pane), whose didTransition is held too when it got that far
    # before the block ended: 2 on a loaded machine, 1 in many runs.
    assert app_frame(page).evaluate("releaseEvents()") >= 1, "the transition made in the block was held until its end"


def app_rows(page):
    """The current (not superseded) app bubbles in the transcript."""
    return page.locator("#transcript .row[data-seq][data-kind=app]")


def press_send_button(page):
    page.get_by_role("button", name="Send", exact=True).click()


@pytest.fixture
def app_console_errors(people):
    """Errors an app logs (a hook that threw, a refused call) fail the test too."""
    errors = []
    opened = people.open

    def open_and_watch(*args, **kwargs):
        page = opened(*args, **kwargs)
        page.on("console", lambda m: errors.append(f"{m.location.get('url', '')}: {m.text}") if m.type == "error" else None)
        return page

    people.open = open_and_watch
    yield errors
    assert not errors, f"console errors: {errors}"



def confirm_app_send(page, outcome):
    """An app's send() goes out at once with proof that the user acted in the app,
    else the host asks first (its own dialog, once per send: an app sending twice on
    one click is asked about twice): say Send to each question until `outcome` (a
    locator that shows the sends happened) appears."""
    ask = page.locator("#app-send[open]")
    deadline = time.monotonic() + 15
    while not outcome.count():  # a frame locator cannot go in or_: poll both, bounded
        assert time.monotonic() < deadline, "neither the host's question nor the send's outcome appeared"
        if ask.count():
            ask.get_by_role("button", name="Send").click()
        else:
            page.wait_for_timeout(50)
    expect(outcome.first).to_be_visible()


# What has the focus inside the app's frame: its id, or its name; "" when the frame does not have it.
FOCUSED = """() => { const a = document.activeElement;
  return !document.hasFocus() || !a || a === document.body ? "" : a.id || a.getAttribute("aria-label") || a.textContent.trim(); }"""


def focused(page):
    return app_frame(page).evaluate(FOCUSED)


def two_with_app(people, title, app):
    """Ana and Ben in a new conversation, both with `app`; Ana has it open (compact)."""
    ana = people.join("Ana")
    link = create_conversation(ana, title)
    ben = people.join("Ben", link.replace(people.server.base, ""))
    for page in (ana, ben):
        install_app(page, app)
    open_from_drawer(ana, app)
    return ana, ben


def keyboard_into_app(people, name, title, app):
    """Someone with `app` open (compact) in a new conversation, who Tabs from the
    pane's Close button into the app's frame."""
    page = people.join(name)
    create_conversation(page, title)
    install_app(page, app)
    open_from_drawer(page, app)
    page.locator("#app-pane .pane-bar").get_by_role("button", name=f"Close {app}").focus()
    page.keyboard.press("Tab")
    return page


def expect_focus(page, wanted):
    """Waits (bounded) until `wanted` has the focus in the app's frame."""
    app_frame(page).wait_for_function(f"wanted => ({FOCUSED})() === wanted", arg=wanted, timeout=5000)


def route_socket(page, from_page=None, from_server=None):
    """Routes the page's WebSocket through the test. Playwright routes the sockets of
    pages loaded after this, so the page reloads (and signs in again). `from_page(frame,
    message, ws, server)` sees each frame the page sends (parsed, and as sent) and
    `from_server(message, ws)` each the server sends; each returns True when it answered
    or kept the frame itself, else the frame goes on."""

    def route(ws):
        server = ws.connect_to_server()

        def page_side(message):
            if not (from_page and from_page(json.loads(message), message, ws, server)):
                server.send(message)

        def server_side(message):
            if not (from_server and from_server(message, ws)):
                ws.send(message)

        ws.on_message(page_side)
        server.on_message(server_side)

    page.context.route_web_socket(re.compile(r"/ws$"), route)
    page.reload()


class HeldAnswers:
    """A WebSocket route on people's pages (`watch`): while holding, what the server says
    back is kept, in the order it came, and the Sends that reach the server are counted;
    `release` lets it through. A slow network's late acknowledgement, or Sends pressed
    "at the same moment" whatever the machine's load."""

    def __init__(self):
        self.holding = False
        self.held = []  # (page side, frame) from the server, in order
        self.sends = 0  # sends seen while holding

    def from_page(self, frame, message, ws, server):
        if self.holding and frame.get("type") == "send":
            self.sends += 1
        return False

    def from_server(self, message, ws):
        if not self.holding:
            return False
        self.held.append((ws, message))
        return True

    def watch(self, page, title):
        route_socket(page, self.from_page, self.from_server)
        expect(page.locator("#chat-title")).to_have_text(title)
        expect(page.locator("html")).to_have_attribute("data-connection", "online")

    def hold(self):
        self.holding, self.sends = True, 0

    def wait_for_sends(self, page, n):
        deadline = time.monotonic() + 10
        while self.sends < n:
            assert time.monotonic() < deadline, f"{self.sends} of {n} Sends reached the server"
            page.wait_for_timeout(20)

    def release(self):
        self.holding = False
        held, self.held = self.held, []
        for ws, message in held:
            ws.send(message)
