"""What a phone opening Parlor or an app again waits for: nothing from the network but
the page itself. The host page and the apps' pages name each script by version (an
import map each page's policy lets run by its hash), so Chromium keeps the scripts and
stylesheets for good and a page opened again works without asking for them; a new
version of a file is fetched whole."""

from playwright.sync_api import expect

from conftest import app_frame, create_conversation, install_app, open_from_drawer, send_text

SCRIPTS = """() => performance.getEntriesByType("resource")
    .filter((e) => /^\\/(js|sdk|css|apps)\\/.*\\.(js|css)$/.test(new URL(e.name).pathname))
    .map((e) => ({ url: e.name, network: e.transferSize > 0 }))"""


def test_a_page_opened_again_loads_its_scripts_from_the_browsers_cache(people):
    ana = people.join("Ana", viewport=(390, 844), mobile=True)
    errors = []
    ana.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    create_conversation(ana, "Again")
    send_text(ana, "before the reload")
    first = ana.evaluate(SCRIPTS)
    # the first load came over the network, every script by its version: the import map
    # applied to the modules' own relative imports (the SDK's two included)
    assert any(s["network"] and "/js/main.js?v=" in s["url"] for s in first), first
    assert any("/sdk/protocol.js?v=" in s["url"] for s in first), first
    assert [s["url"] for s in first if "?v=" not in s["url"]] == []

    ana.reload()
    expect(ana.locator(".bubble", has_text="before the reload")).to_be_visible()
    send_text(ana, "after the reload")
    again = ana.evaluate(SCRIPTS)
    assert [s["url"] for s in again if s["network"]] == [], "a script or stylesheet was asked for again"
    assert not [e for e in errors if "Content Security Policy" in e or "importmap" in e.lower()], errors


def test_an_app_loads_the_sdk_and_its_own_scripts_by_version(people):
    """An app's frame is of an opaque origin, so its loads are cross-origin and their
    sizes hidden from it: what shows the import map ran there (under the app's own
    policy) is that every script and stylesheet it loaded was named by version."""
    ana = people.join("Ana", viewport=(390, 844), mobile=True)
    create_conversation(ana, "Drawing")
    install_app(ana, "WenderPic")
    open_from_drawer(ana, "WenderPic")
    loaded = app_frame(ana).evaluate(SCRIPTS)
    urls = [s["url"] for s in loaded]
    assert any("/sdk/index.js?v=" in u for u in urls) and any("/apps/wenderpic/game.js?v=" in u for u in urls), urls
    assert [u for u in urls if "?v=" not in u] == []
