"""Accessibility (#13 item 8): axe-core on every screen a person meets, in
light and dark, on a desktop and a touch phone: the welcome, the recovery key,
the empty list, New conversation, the invite, the App Store, a transcript
with a bubble of each seed app (and a friend's text), each app's pane compact
and expanded (axe runs inside the app's own frame too), members and account.
No serious or critical finding is allowed; every screen is screenshotted.

One walk through the screens per size (a phone is a touch device: another
browser context); at each screen the page is checked in both schemes, switched
in place (page.emulate_media). Light and dark are CSS alone (prefers-color-scheme
media queries; no script reads the scheme), so a switched page is the page that
was loaded in that scheme: each check first waits until the host and every app
frame match the scheme and no CSS transition (a background fading to the new
colour) is still running, so axe reads the final colours.
"""

import re

import pytest
from playwright.sync_api import expect

from a11y import axe_findings, switch_scheme
from conftest import app_rows, frame, open_from_drawer, pane_ready, saved_recovery_key, send_text, shot
from test_app_wenderpic import HOUSE, draw_mouse, drawn

SEED_APPS = ["Ice Cream Builder", "Party list", "The Daily Quote", "Icon Store", "WenderPic"]
SIZES = {"desktop": {"viewport": (1280, 800)}, "phone": {"viewport": (390, 844), "mobile": True}}


SCHEMES = ("light", "dark")


# Text fields shown with text under 16px: Safari on an iPhone zooms the page into one as
# it takes the focus (and leaves it zoomed).
SMALL_FIELDS = """() => [...document.querySelectorAll('input, textarea, select')]
    .filter((el) => !['checkbox', 'radio', 'range', 'file', 'hidden'].includes(el.type) && el.getClientRects().length
        && parseFloat(getComputedStyle(el).fontSize) < 16)
    .map((el) => `${location.pathname} ${el.id || el.className || el.tagName} ${getComputedStyle(el).fontSize}`)"""


class Screens:
    """Checks each screen in both schemes on one page; `also` (a function of the page)
    runs in each scheme too, and what it returns is collected."""

    def __init__(self, page, size):
        self.page = page
        self.size = size
        self.scheme = "light"
        self.findings = {scheme: [] for scheme in SCHEMES}
        self.small_fields = []  # text fields a phone would zoom into (SMALL_FIELDS)

    def look(self, scheme):
        switch_scheme(self.page, scheme)
        self.scheme = scheme

    def frames_caught_up(self, within_ms=5000):
        """Playwright hears that a frame was removed a moment after the page removed it
        (the bubbles of a conversation just left go at once): until then, reading it
        fails with 'Target closed'. Waits until its frames are the page's iframes."""
        for _ in range(within_ms // 50):
            listed = [f for f in self.page.frames if f.parent_frame and not f.is_detached()]
            if len(listed) == self.page.locator("iframe").count():
                return
            self.page.wait_for_timeout(50)
        raise AssertionError(f"frames still listed after {within_ms} ms: {[f.url for f in self.page.frames]}")

    def check(self, screen, also=None):
        self.page.wait_for_function("() => document.fonts.status === 'loaded'")
        self.frames_caught_up()
        if self.size == "phone":
            self.small_fields += [f"{screen}: {field}" for fr in self.page.frames if not fr.is_detached()
                                  for field in fr.evaluate(SMALL_FIELDS)]
        # the scheme the page is in first (every rule), then the other (its colours): one
        # switch per screen
        for i, scheme in enumerate(sorted(SCHEMES, key=lambda sc: sc != self.scheme)):
            self.look(scheme)
            self.findings[scheme] += axe_findings(self.page, screen, colours_only=i > 0)
            shot(self.page, f"a11y-{self.size}-{scheme}-{screen}")
        found = []
        if also:  # after axe and the screenshots (it may press keys)
            for scheme in sorted(SCHEMES, key=lambda sc: sc != self.scheme):
                self.look(scheme)
                found += also(self.page)
        return found


def welcome_is_all_there_is(page):
    """Behind the welcome, the page is inert: Tab goes round the welcome form (and out
    of the document after its last field), never into the page it covers."""
    assert page.evaluate("document.getElementById('shell').inert"), "the page behind the welcome is inert"
    seen = set()
    for _ in range(12):
        page.keyboard.press("Tab")
        where = page.evaluate("""() => { const a = document.activeElement;
            return document.getElementById('welcome').contains(a) ? a.id || a.textContent : a === document.body ? 'BODY' : a.outerHTML.slice(0, 120); }""")
        assert where != "BODY" or seen, "Tab reaches the welcome first"
        seen.add(where)
    assert "welcome-name" in seen and "Continue" in seen, seen
    assert all(not w.startswith("<") for w in seen), f"Tab left the welcome: {seen}"


DOTS_CLEAR = """() => [...document.querySelectorAll('.avatar.online')].filter((a) => a.offsetParent).map((a) => {
  // the dot (its ring too) and the initials' text box must not meet
  const r = a.getBoundingClientRect(), after = getComputedStyle(a, '::after');
  const size = parseFloat(after.width);
  const dot = { left: r.right - parseFloat(after.right) - size, top: r.bottom - parseFloat(after.bottom) - size };
  const text = document.createRange();
  text.selectNodeContents(a);
  const t = text.getBoundingClientRect();
  return { name: a.textContent, dot, text: [t.right, t.bottom], clear: dot.left >= t.right || dot.top >= t.bottom };
})"""


def pane_button(page, verb, app):
    page.locator("#app-pane .pane-bar").get_by_role("button", name=f"{verb} {app}").click()


def open_app(page, app):
    open_from_drawer(page, app)
    frame(page).locator("body *").first.wait_for()


def send_staged(page, count):
    """Sends the staged move and waits until the server stored it: one more message
    (a session's new step leaves the app bubbles at one, so their count did not wait)."""
    expect(page.locator(".staged-item[data-kind=app]")).to_have_count(1)
    stored = page.locator("#transcript [data-seq]")
    n = stored.count()
    page.get_by_role("button", name="Send", exact=True).click()
    expect(stored).to_have_count(n + 1)
    expect(page.locator("#transcript .row.pending")).to_have_count(0)
    expect(app_rows(page)).to_have_count(count)


def each_app(page, s):
    """Each seed app: compact, expanded, and one bubble of it sent."""
    def close(app):
        page.locator("#app-pane").get_by_role("button", name=f"Close {app}").click()
        expect(page.locator("#app-pane")).to_be_hidden()

    app = "Ice Cream Builder"
    open_app(page, app)
    s.check("icecream-compact")
    frame(page).get_by_role("button", name="New sundae").click()
    pane_ready(page, "expanded")
    s.check("icecream-expanded")
    frame(page).get_by_role("button", name="Waffle cone", exact=True).click()
    pane_ready(page, "compact")
    send_staged(page, 1)
    s.check("icecream-compact-sent")
    for part in ("Mint chip", "Cherry on top"):  # on to the finished sundae
        app_rows(page).last.locator(".app-bubble").click()
        pane_ready(page, "expanded")
        frame(page).get_by_role("button", name=part, exact=True).click()
        pane_ready(page, "compact")
        send_staged(page, 1)
        expect(page.locator("#transcript .row.pending")).to_have_count(0)
    app_rows(page).last.locator(".app-bubble").click()
    pane_ready(page, "expanded")
    expect(frame(page).locator("#finished-title")).to_be_visible()
    s.check("icecream-finished")
    close(app)

    app = "Party list"
    open_app(page, app)
    s.check("partylist-compact")
    frame(page).get_by_role("button", name="New party").click()
    pane_ready(page, "expanded")
    s.check("partylist-expanded")
    frame(page).get_by_role("button", name="Send", exact=True).click()
    pane_ready(page, "compact")
    send_staged(page, 2)
    close(app)

    app = "The Daily Quote"
    open_app(page, app)
    s.check("dailyquote-compact")
    frame(page).locator("#compact-view").get_by_role("button", name="Share").click()
    send_staged(page, 3)
    pane_button(page, "Expand", app)
    pane_ready(page, "expanded")
    s.check("dailyquote-expanded")
    close(app)

    app = "Icon Store"
    open_app(page, app)
    s.check("iconstore-compact")
    pane_button(page, "Expand", app)
    pane_ready(page, "expanded")
    s.check("iconstore-expanded")
    frame(page).get_by_role("button", name=re.compile(r"^Cat icon, \$2\.99")).click()
    pane_ready(page, "compact")
    send_staged(page, 4)
    close(app)

    app = "WenderPic"
    open_app(page, app)
    s.check("wenderpic-compact")
    frame(page).get_by_role("button", name="New Game").click()
    pane_ready(page, "expanded")
    drawn(page)
    s.check("wenderpic-expanded")
    draw_mouse(page, HOUSE)
    frame(page).get_by_role("button", name="Done").click()
    pane_ready(page, "compact")
    send_staged(page, 5)
    close(app)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_every_screen_has_no_serious_accessibility_finding(people, size):
    ana = people.open("/", **SIZES[size])
    s = Screens(ana, size)

    ana.locator("#welcome-name").wait_for()
    s.check("welcome", also=lambda page: welcome_is_all_there_is(page) or [])
    ana.fill("#welcome-name", "Ana")
    ana.get_by_role("button", name="Continue").click()
    ana.locator("#recovery[open]").wait_for()
    s.check("recovery-key")
    saved_recovery_key(ana)
    s.check("empty-list")

    ana.get_by_role("button", name="New conversation").click()
    ana.locator("#new-conversation[open]").wait_for()
    s.check("new-conversation")
    ana.fill("#new-conversation-input", "Colour Mood")
    ana.locator("#new-conversation button[type=submit]").click()
    ana.locator("#invite[open] .invite-item").first.wait_for()
    s.check("invite")
    link = ana.input_value("#invite-link")
    ana.locator("#invite").get_by_role("button", name="Done").click()

    # a friend, online, who writes: their bubble, the presence dot on the avatar
    ben = people.join("Ben Wide", link.replace(people.server.base, ""))  # two wide initials
    send_text(ben, "Hello from Ben")
    expect(ana.locator(".text-bubble", has_text="Hello from Ben")).to_be_visible()
    send_text(ana, "Hi Ben, my own bubble")
    expect(ana.locator(".row[data-seq] .text-bubble", has_text="my own bubble")).to_be_visible()
    expect(ana.locator("#chat-presence")).to_contain_text("Ben Wide online")
    dots = s.check("transcript-texts", also=lambda page: page.evaluate(DOTS_CLEAR))  # the header's (a phone shows none there)

    ana.locator(".chat-header").get_by_role("button", name="App Store").click()
    ana.locator("#app-store[open]").wait_for()
    s.check("app-store")
    for app in SEED_APPS:
        ana.get_by_role("button", name=f"Install {app}").click()
        ana.get_by_role("button", name=f"Remove {app}").wait_for()
    s.check("app-store-installed")
    ana.locator("#app-store").get_by_role("button", name="Done").click()

    each_app(ana, s)
    for img in app_rows(ana).locator(".app-image img").all():
        ana.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=img.element_handle())
    # the Party list draws its bubble itself (a live frame): axe reads it once drawn,
    # not whatever the frame holds at that moment
    lives = app_rows(ana).locator("iframe.live-frame")
    expect(lives).not_to_have_count(0)
    for n in range(lives.count()):
        expect(app_rows(ana).frame_locator("iframe.live-frame").nth(n).locator("#live-count")).to_be_visible()
    s.check("transcript-apps")

    ana.get_by_role("button", name="Members and settings of this conversation").click()
    ana.locator("#members[open]").wait_for()
    s.check("members")
    ana.locator("#members").get_by_role("button", name="Done").click()
    ana.locator(".chat-header").get_by_role("button", name=re.compile("^Invite people")).click()
    ana.locator("#invite[open] .invite-item").first.wait_for()
    ana.keyboard.press("Escape")
    expect(ana.locator("#invite[open]")).to_have_count(0)

    if size == "phone":
        ana.locator(".chat-header").get_by_role("button", name=re.compile("^Back")).click()
        expect(ana.locator("iframe")).to_have_count(0)  # the conversation's bubbles are gone
    dots += s.check("conversation-list", also=lambda page: page.evaluate(DOTS_CLEAR))  # the list's
    assert dots and all(d["clear"] for d in dots), f"a presence dot covers the initials: {dots}"
    ana.get_by_role("button", name="Account", exact=True).click()
    ana.locator("#account[open] .device").first.wait_for()
    s.check("account")

    found = [f"{scheme}: {line}" for scheme, lines in s.findings.items()
             for line in dict.fromkeys(f.split(" ", 1)[1] for f in lines)]
    assert not found, "\n".join(found)
    assert not s.small_fields, "a phone zooms into these text fields as they take the focus:\n" + "\n".join(s.small_fields)
