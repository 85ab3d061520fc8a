"""An app is an opaque origin however it is opened (issue 8, item 1): a link to an
app's page or to an SVG under /apps/ runs with no access to the host's token or
socket; and apps can be served from an origin of their own (--apps-origin)."""

import socket
import time

from playwright.sync_api import expect

from conftest import People, create_conversation, frame, install_app, open_from_drawer

PROBE = """async () => {
  const out = { origin: String(self.origin) };
  try { out.token = localStorage.getItem('parlor.token'); } catch (e) { out.storage = e.name; }
  out.socket = await new Promise((resolve) => {
    let ws;
    try { ws = new WebSocket(location.origin.replace(/^http/, 'ws') + '/ws', 'parlor.v1'); }
    catch (e) { resolve('threw ' + e.name); return; }
    ws.onopen = () => resolve('open');
    ws.onerror = () => resolve('refused');
  });
  return out;
}"""


def test_an_app_page_opened_top_level_is_an_opaque_origin(people):
    ana = people.join("Ana")
    token = ana.evaluate("localStorage.getItem('parlor.token')")
    assert token
    # the link a hostile app (or anyone) could send: the app's own page, top-level
    ana.goto(people.server.base + "/apps/example/index.html")
    got = ana.evaluate(PROBE)
    assert got["origin"] == "null", got
    assert got.get("storage") == "SecurityError" and "token" not in got, got
    # with Origin "null" the socket is refused at the handshake
    assert got["socket"] in ("refused", "threw SecurityError"), got
    # the server logs the refusal before it answers, but a thread reads its output:
    # wait (bounded) for that thread rather than race it
    deadline = time.monotonic() + 5
    while not any("origin not allowed" in line for line in people.server.log):
        assert time.monotonic() < deadline, "the refusal was not logged"
        time.sleep(0.05)
    people.errors.clear()  # the example app, opened outside a frame, complains of no host


def test_an_svg_under_apps_runs_no_script(people, tmp_path):
    ana = people.join("Ana")
    svg = people.server.public / "apps" / "example" / "evil.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg"><script>'
                   "document.title = 'ran:' + (function(){try{return localStorage.getItem('parlor.token')}"
                   "catch(e){return e.name}})()</script></svg>")
    try:
        ana.goto(people.server.base + "/apps/example/evil.svg")
        ana.wait_for_load_state("load")
        assert not ana.title().startswith("ran:"), ana.title()
    finally:
        svg.unlink()


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_apps_from_their_own_origin_work(browser, make_server):
    port = _free_port()
    server = make_server(extra_args=["--origin", f"http://127.0.0.1:{port}",
                                     "--apps-origin", f"http://localhost:{port}"], port=port)
    people = People(browser, server)
    try:
        ana = people.join("Ana")
        create_conversation(ana, "Other origin")
        install_app(ana, "Quick Poll")
        open_from_drawer(ana, "Quick Poll")
        src = ana.locator("#app-pane iframe").get_attribute("src")
        assert src.startswith(f"http://localhost:{port}/apps/example/"), src
        # the app runs there, with its lifecycle, through the bridge
        expect(frame(ana).get_by_role("heading", name="Ask the group")).to_be_visible()
        expect(frame(ana).locator("#lifecycle li", has_text="didBecomeActive")).to_have_count(1)
        # the apps origin serves no host page
        page = people.open(f"http://localhost:{port}/")
        assert "Parlor" not in page.content() or "only apps are served here" in page.content()
        assert not people.errors, people.errors
    finally:
        people.close()
