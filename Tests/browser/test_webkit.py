"""Parlor in a real WebKit (WebKitGTK, webkit.py): the engine of Safari and of every
browser on an iPhone. Chromium with moveBefore taken away stands in for Safari's live
bubbles elsewhere in this suite; here WebKit itself is checked where it has differed:

- every seed app starts, in the pane (session 41: none did, WebKit's policy check
  matching 'self' to nothing in a sandboxed page);
- a game of WenderPic from sign-up to the winning guess, between a desktop and a phone
  window: the invite, drawing with the pointer, the picture sent and shown;
- the Party list's live bubble keeps its page when the list changes (no moveBefore
  there: the row is kept in place), the rows stay in order, a tap opens the pane;
- a photo picked on a phone is drawn again smaller as a JPEG and sent (the canvas and
  image decoding an iPhone has), and a tap shows it whole.
"""

import urllib.request
from urllib.parse import quote

import pytest

from conftest import ProtocolPerson, red_png
from webkit import WATCH_ERRORS, WebKitPage, wait_for, webkit, xvfb_display  # noqa: F401 - fixtures

# Selenium's own, at each driver it starts
pytestmark = pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")

PANE = "#app-pane iframe"
BUBBLE = "#transcript iframe.live-frame"

# What each app shows once it has started, compact in the pane.
STARTED = {
    "Icon Store": "return document.querySelectorAll('.icon-row').length > 0",
    "The Daily Quote": "return !!document.querySelector('#quote-text')?.textContent.trim()",
    "Party list": "return [...document.querySelectorAll('button')].some(b => b.textContent.trim() === 'New party')",
    "Ice Cream Builder": "return document.querySelector('#history-title')?.textContent === 'Your sundaes'",
    "WenderPic": "return [...document.querySelectorAll('button')].some(b => b.textContent.trim() === 'New Game')",
}
APP_IDS = {"Icon Store": "iconstore", "The Daily Quote": "dailyquote", "Party list": "partylist",
           "Ice Cream Builder": "icecream", "WenderPic": "wenderpic"}


def signed_in_by_token(page: WebKitPage, base, token, conversation_id):
    """Opens the conversation as the account of `token` (kept as a sign-in would)."""
    page.open(base + "/")
    page.js("localStorage.setItem('parlor.token', arguments[0]);", token)
    page.open(base + f"/#/c/{conversation_id}")
    page.driver.refresh()
    page.js(WATCH_ERRORS)


def sign_up(page: WebKitPage, base, name, path="/"):
    """A new person through the welcome page (and, by an invite link, Join)."""
    page.open(base + path)
    field = wait_for(lambda: page.find("#welcome-name") if page.find("#welcome-name").is_displayed() else None, "the welcome page")
    field.click()
    field.send_keys(name)
    page.click("Continue")
    if "/join/" in path:
        page.click("Join", within=wait_for(lambda: page.find("#join-invite[open]"), "the invite's question"))
    recovery = wait_for(lambda: page.find("#recovery[open]"), "the recovery key")
    wait_for(lambda: page.find("#recovery-saved").is_displayed(), "the recovery key shown")
    page.find("#recovery-saved").click()
    page.click("Done", within=recovery)
    wait_for(lambda: not page.all("#recovery[open]"), "the recovery key put away")


def new_conversation(page: WebKitPage, title):
    """Creates a conversation; returns its invite link."""
    page.click("New conversation")
    field = wait_for(lambda: page.find("#new-conversation-input") if page.find("#new-conversation-input").is_displayed() else None, "the title field")
    field.send_keys(title)
    page.find("#new-conversation button[type=submit]").click()
    wait_for(lambda: page.all("#invite .invite-item"), "the invite")
    link = page.find("#invite-link").get_attribute("value")
    page.click("Done", within=page.find("#invite[open]"))
    wait_for(lambda: not page.all("#invite[open]"), "the invite dialog closed")
    return link


def pane(page, style):
    wait_for(lambda: page.all(f"#app-pane[data-style={style}]:not([hidden]):not(.mounting)"), f"the pane {style}")


def open_from_drawer(page, app):
    page.click("Apps")
    page.click(f"Open {app}", within=wait_for(lambda: page.find("#drawer"), "the drawer"))
    wait_for(lambda: page.all(f'#app-pane[aria-label="{app} app"]'), f"the pane for {app}")
    pane(page, "compact")


def bubble_caption(page):
    """The newest app bubble's caption, once its picture has loaded ('' before)."""
    return page.js("""const rows = document.querySelectorAll('#transcript .row[data-seq][data-kind=app]');
        const row = rows[rows.length - 1], img = row?.querySelector('.app-image img');
        return img && img.complete && img.naturalWidth > 0 ? row.querySelector('.caption').textContent : ''""")


def test_every_app_starts_in_webkit(webkit, server):
    ana = ProtocolPerson(server, "Ana")
    try:
        made = ana.call("conversations.create", title="All the apps")
        for app_id in APP_IDS.values():
            ana.call("apps.install", appId=app_id)
        page = webkit()
        signed_in_by_token(page, server.base, ana.token, made["conversation"]["id"])
        for app, started in STARTED.items():
            open_from_drawer(page, app)
            wait_for(lambda: page.in_frame(PANE, started), f"{app} to start in WebKit")
            assert page.in_frame(PANE, "return document.documentElement.dataset.presentationStyle") == "compact", app
        assert page.errors() == []
    finally:
        ana.close()


HOUSE = [(0.2, 0.8), (0.2, 0.45), (0.5, 0.2), (0.8, 0.45), (0.8, 0.8), (0.2, 0.8)]


def test_a_game_of_wenderpic_in_webkit_from_sign_up_to_the_winning_guess(webkit, server):
    ana = webkit(1200, 800)
    sign_up(ana, server.base, "Ana")
    link = new_conversation(ana, "Game night")
    ben = webkit(390, 844)
    sign_up(ben, server.base, "Ben", link.replace(server.base, ""))
    for page in (ana, ben):
        page.click("App Store", within=page.find(".chat-header"))
        store = wait_for(lambda: page.find("#app-store[open]"), "the App Store")
        page.click("Install WenderPic", within=store)
        wait_for(lambda: page.button("Remove WenderPic", store), "WenderPic installed")
        page.click("Done", within=store)

    open_from_drawer(ana, "WenderPic")
    ana.click_in_frame(PANE, "New Game")
    pane(ana, "expanded")
    word = wait_for(lambda: ana.in_frame(PANE, "return document.querySelector('#word')?.textContent.trim()"), "the word to draw")
    wait_for(lambda: ana.in_frame(PANE, "const c = document.querySelector('.board-canvas'); return c && c.width > 0"), "the paper")
    ana.stroke(PANE, ".board-canvas", HOUSE)
    ink = int(ana.in_frame(PANE, "return document.querySelector('#ink').getAttribute('aria-valuenow')"))
    assert 0 < ink < 100, f"drawing did not use ink: {ink}"
    ana.click_in_frame(PANE, "Done")
    pane(ana, "compact")
    ana.click("Send")
    for page in (ana, ben):
        wait_for(lambda: bubble_caption(page) == "Guess my WenderPic!", "the drawing's bubble, its picture loaded")

    ben.find("#transcript .row[data-kind=app] .app-bubble").click()
    pane(ben, "expanded")
    wait_for(lambda: ben.in_frame(PANE, "return !!document.querySelector('.board-canvas')"), "the drawing open to guess")
    ben.driver.switch_to.frame(ben.find(PANE))
    try:
        field = ben.find("input[aria-label='Your guess']")
        field.click()  # a tap: WebKitWebDriver types only into what has focus
        field.send_keys(word)
        ben.click("Guess")
    finally:
        ben.driver.switch_to.default_content()
    pane(ben, "compact")
    ben.click("Send")

    for page in (ana, ben):
        wait_for(lambda: bubble_caption(page).lower() == f"👍 {word.lower()}", "the winning guess on the bubble")
    assert ana.errors() == [] and ben.errors() == []


def party(items, version):
    return {"kind": "app", "appId": "partylist", "live": True, "summaryText": "a list",
            "url": "?name=" + quote("WebKit party") + "".join("&element=" + quote(i) for i in items),
            "layout": {"caption": "WebKit party", "subcaption": ", ".join(items)},
            "session": {"id": "webkit-party", "baseVersion": version}}


def test_the_live_bubble_keeps_its_page_in_webkit(webkit, server):
    john, kate = ProtocolPerson(server, "John"), ProtocolPerson(server, "Kate")
    try:
        made = john.call("conversations.create", title="Mussels night")
        kate.call("conversations.join", invite=made["invite"])
        cid = made["conversation"]["id"]
        for who in (john, kate):
            who.call("apps.install", appId="partylist")
        john.run(john.client.send_message(cid, party(["Mussels", "Fries"], 0)))
        page = webkit()
        signed_in_by_token(page, server.base, kate.token, cid)
        shows = lambda: page.in_frame(BUBBLE, "return document.querySelector('#live-title') ? document.body.innerText : ''")  # noqa: E731
        wait_for(lambda: "Fries" in shows(), "the Party list drawn in its bubble")
        page.in_frame(BUBBLE, "window.keptAcrossMessages = true")
        for i in range(3):
            john.send_text(cid, f"line {i}")
        john.run(john.client.send_message(cid, party(["Mussels", "Fries", "Andalouse sauce"], 1)))
        wait_for(lambda: "Andalouse" in shows(), "the changed list drawn")
        assert page.in_frame(BUBBLE, "return window.keptAcrossMessages === true"), "the bubble's page was loaded again"
        rows = page.js("return [...document.querySelectorAll('#transcript > [data-seq]')].map(r => r.dataset.kind || 'summary').join(' ')")
        assert rows == "summary text text text app"
        page.find("#transcript .live-open").click()
        wait_for(lambda: "Andalouse" in page.in_frame(PANE, "return document.querySelector('#elements') ? document.body.innerText : ''"),
                 "the list opened in the pane")
        assert page.errors() == []
    finally:
        john.close()
        kate.close()


def test_a_photo_picked_on_a_phone_goes_smaller_as_a_jpeg_in_webkit(webkit, server, tmp_path):
    ana, ben = ProtocolPerson(server, "Ana"), ProtocolPerson(server, "Ben")
    try:
        made = ana.call("conversations.create", title="Holiday")
        ben.call("conversations.join", invite=made["invite"])
        page = webkit(390, 844)
        signed_in_by_token(page, server.base, ana.token, made["conversation"]["id"])
        photo = tmp_path / "beach.png"
        photo.write_bytes(red_png(3000, 1500))
        # what the Photo button's picker fills in
        wait_for(lambda: page.find("#chat .composer input[type=file]"), "the message box").send_keys(str(photo))
        staged = wait_for(lambda: page.all(".staged-item[data-kind=attachment] img.thumb"), "the photo in the message box")
        assert "beach.png" in page.js("return document.querySelector('.staged-item').textContent")
        page.click("Send")
        shown = "const i = document.querySelector('.row[data-seq][data-kind=attachment] img'); " \
                "return i && i.complete && i.naturalWidth > 0 && i.src.includes('/blobs/') ? [i.naturalWidth, i.naturalHeight, i.src] : null"
        width, height, src = wait_for(lambda: page.js(shown), "the photo sent and shown from the server", 20)
        assert (width, height) == (2048, 1024) and staged
        with urllib.request.urlopen(src, timeout=10) as r:
            assert r.headers["Content-Type"] == "image/jpeg" and len(r.read()) < 1_000_000
        # a tap shows it whole, across the phone's width; Close puts it away
        page.click("View photo: beach.png")
        whole = "const i = document.querySelector('#photo-viewer[open] img'); " \
                "return i && i.complete ? [i.getBoundingClientRect().width, innerWidth] : null"
        width, window = wait_for(lambda: page.js(whole), "the photo shown whole")
        assert window - 30 <= width <= window, (width, window)
        page.click("Close", within=page.find("#photo-viewer"))
        wait_for(lambda: not page.all("#photo-viewer[open]"), "the photo put away")
        assert page.errors() == []
    finally:
        ana.close()
        ben.close()
