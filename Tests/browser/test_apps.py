"""The example app (Quick Poll) between two people: insert → Send, Get <app>,
tap to open expanded with the bubble selected, a session update that moves
the bubble on both sides, and the lifecycle in the framework's order."""

import json
import re
import time

import pytest

from playwright.sync_api import expect

from conftest import PUBLIC, app_frame, confirm_app_send, create_conversation, frame, install_app, open_from_drawer, pane_ready, press_send_button as send, send_text, shot

APP = "Quick Poll"


def listed_apps():
    """The apps of Public/apps/index.json that have a manifest (the store lists those)."""
    ids = json.loads((PUBLIC / "apps" / "index.json").read_text())
    found = []
    for app_id in ids:
        manifest = PUBLIC / "apps" / app_id / "manifest.json"
        try:
            if json.loads(manifest.read_text()).get("id") == app_id:
                found.append(app_id)
        except (OSError, ValueError):
            pass
    return found


def hooks(page):
    return frame(page).locator("#lifecycle li")


def test_insert_send_get_app_select_and_session_update(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Dinner")
    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True)
    send_text(ben, "What are we eating?")
    expect(ana.locator(".text-bubble", has_text="What are we eating?")).to_be_visible()

    # Ana gets the app from the store and opens it from the drawer: compact
    install_app(ana, APP)
    open_from_drawer(ana, APP)
    expect(hooks(ana)).to_have_text(["willBecomeActive", "didBecomeActive"])
    shot(ana, "desktop-light-compact-pane")

    # insert: the poll is staged in the composer, pending, until Ana presses Send
    frame(ana).locator("#question").fill("Pizza tonight?")
    frame(ana).get_by_role("button", name="Ask").click()
    staged = ana.locator(".staged-item[data-kind=app]")
    expect(staged).to_contain_text("Pizza tonight?")
    assert ana.locator(".row[data-kind=app]").count() == 0, "insert does not send"
    shot(ana, "desktop-light-staged")
    ana.get_by_role("button", name="Send", exact=True).click()
    expect(staged).to_have_count(0)
    expect(hooks(ana)).to_have_text(["willBecomeActive", "didBecomeActive", "didStartSending"])
    poll_a = ana.locator(".row[data-seq][data-kind=app]")
    expect(poll_a).to_have_count(1)
    expect(poll_a.locator(".caption")).to_have_text("Pizza tonight?")
    expect(poll_a.locator(".subcaption")).to_have_text("Asked by Ana")  # $<participant id> → name

    # Ben has no Quick Poll: he is offered to get it
    poll_b = ben.locator(".row[data-seq][data-kind=app]")
    expect(poll_b).to_have_count(1)
    expect(poll_b.locator(".subcaption")).to_have_text("Asked by Ana")
    get = poll_b.get_by_role("button", name=f"Get {APP}")
    expect(get).to_be_visible()
    first_seq = poll_b.get_attribute("data-seq")
    shot(ben, "phone-light-get-app")
    # a tap on the poll itself does what Get does (before, it did nothing)
    poll_b.locator(".app-bubble").click()

    # ... which installs it and opens the message: expanded, selected
    pane_ready(ben, "expanded")
    expect(frame(ben).locator("#poll-question")).to_have_text("Pizza tonight?")
    expect(hooks(ben)).to_have_text(["willBecomeActive", "didBecomeActive"])
    shot(ben, "phone-light-expanded-pane")

    # Ben votes: a new message in the same session; the bubble moves to the bottom
    # (a tap in the app, seconds after his tap on Get in the host: the browser's word
    # on the app frame's own gesture proves it, so nobody is asked)
    frame(ben).get_by_role("button", name="Yes").click()
    expect(frame(ben).locator("#yes-count")).to_have_text("1")
    expect(ben.locator("#app-send[open]")).to_have_count(0)
    expect(frame(ben).locator("#yes-count")).to_have_text("1")
    for page in (ana, ben):
        current = page.locator(".row[data-seq][data-kind=app]")
        expect(current).to_have_count(1)
        expect(current.locator(".trailing-caption")).to_have_text("1 yes")
        assert int(current.get_attribute("data-seq")) > int(first_seq)
        summary = page.locator(f".summary[data-seq='{first_seq}']")
        expect(summary).to_have_text("Ana asked: Pizza tonight?")
        # the live bubble is the last row; the text that came between stays above it
        expect(page.locator("#transcript > .row").last).to_have_attribute("data-kind", "app")

    # Ana's app is still active: it heard Ben's vote
    expect(hooks(ana)).to_have_text(["willBecomeActive", "didBecomeActive", "didStartSending", "didReceive"])

    # Ana taps the moved bubble while her app is compact: didSelect, then expanded
    ana.locator(".row[data-seq][data-kind=app] .app-bubble").click()
    pane_ready(ana, "expanded")
    expect(hooks(ana)).to_have_text([
        "willBecomeActive", "didBecomeActive", "didStartSending", "didReceive",
        "didSelect", "willTransition:expanded", "didTransition:expanded",
    ])
    expect(frame(ana).locator("#yes-count")).to_have_text("1")
    shot(ana, "desktop-light-expanded-pane")

    # Ana votes no; Ben's open app hears it
    frame(ana).get_by_role("button", name="No").click()
    expect(ana.locator(".row[data-seq][data-kind=app] .trailing-subcaption", has_text="1 no")).to_be_visible()
    expect(ana.locator("#app-send[open]")).to_have_count(0)
    expect(ben.locator(".row[data-seq][data-kind=app] .trailing-subcaption")).to_have_text("1 no")
    expect(frame(ben).locator("#no-count")).to_have_text("1")
    expect(ben.locator(".summary")).to_have_count(2)

    # collapse with the handle, then close: the lifecycle ends in order
    ana.locator("#app-pane").get_by_role("button", name=f"Collapse {APP}").first.click()
    pane_ready(ana, "compact")
    expect(hooks(ana)).to_have_text([
        "willBecomeActive", "didBecomeActive", "didStartSending", "didReceive",
        "didSelect", "willTransition:expanded", "didTransition:expanded",
        "willTransition:compact", "didTransition:compact",
    ])
    ana.locator("#app-pane").get_by_role("button", name=f"Close {APP}").click()
    expect(ana.locator("#app-pane")).to_be_hidden()
    expect(ana.locator("#app-pane iframe")).to_have_count(0)
    shot(ana, "desktop-light-after-session")


def test_removing_a_staged_message_cancels_it(people):
    ana = people.join("Ana")
    create_conversation(ana, "Solo")
    install_app(ana, APP)
    open_from_drawer(ana, APP)
    frame(ana).locator("#question").fill("Beach?")
    frame(ana).get_by_role("button", name="Ask").click()
    staged = ana.locator(".staged-item[data-kind=app]")
    expect(staged).to_be_visible()
    staged.get_by_role("button", name=re.compile("^Remove")).click()
    expect(staged).to_have_count(0)
    expect(hooks(ana)).to_have_text(["willBecomeActive", "didBecomeActive", "didCancelSending"])
    assert ana.locator(".row[data-kind=app]").count() == 0

    # per-user app storage: the app remembers the question for next time
    ana.keyboard.press("Escape")
    expect(ana.locator("#app-pane")).to_be_hidden()
    open_from_drawer(ana, APP)
    expect(frame(ana).get_by_role("button", name="Beach?")).to_be_visible()


def test_app_store_install_and_remove(people):
    ana = people.join("Ana", dark=True)
    create_conversation(ana, "Apps")
    ana.locator(".chat-header").get_by_role("button", name="App Store").click()
    store = ana.locator("#app-store[open]")
    expect(store.locator(".store-item")).to_have_count(len(listed_apps()))
    expect(store.get_by_role("button", name=f"Install {APP}")).to_be_visible()
    shot(ana, "desktop-dark-app-store")
    store.get_by_role("button", name=f"Install {APP}").click()
    expect(store.get_by_role("button", name=f"Remove {APP}")).to_be_visible()
    store.get_by_role("button", name="Done").click()
    ana.get_by_role("button", name="Apps", exact=True).click()
    expect(ana.locator("#drawer").get_by_role("button", name=f"Open {APP}")).to_be_visible()
    expect(ana.locator("#drawer")).not_to_contain_text("null")
    shot(ana, "desktop-dark-drawer")
    ana.locator(".chat-header").get_by_role("button", name="App Store").click()
    store.get_by_role("button", name=f"Remove {APP}").click()
    expect(store.get_by_role("button", name=f"Install {APP}")).to_be_visible()
    store.get_by_role("button", name="Done").click()
    expect(ana.locator("#drawer").get_by_role("button", name=f"Open {APP}")).to_have_count(0)


def test_an_authors_mistakes_show_as_such(people_with_fixture_apps):
    """A missing icon was the browser's broken-image mark in the drawer and the store;
    a manifest without a name vanished from the store with no word why."""
    people = people_with_fixture_apps("noicon", "nameless")
    ana = people.join("Ana")
    warnings = []
    ana.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    asked = []
    ana.on("request", lambda r: asked.append(r.url) if "/apps/noicon/" in r.url and not r.url.endswith(".json") else None)
    ana.reload()  # the catalog loads again, with someone listening
    # signed in again first: New conversation pressed while the page still connects is
    # refused as offline (said in the dialog), and the invite never came (a fresh clone's
    # make test failed so)
    ana.locator(".me .name", has_text="Ana").wait_for(state="attached")
    create_conversation(ana, "Mistakes")
    ana.locator(".chat-header").get_by_role("button", name="App Store").click()
    store = ana.locator("#app-store[open]")
    expect(store.get_by_role("button", name="Install No Icon")).to_be_visible()
    expect(store.locator(".app-icon.fallback")).to_have_text("N")
    expect(store.get_by_role("button", name="Install nameless")).to_have_count(0)
    shot(ana, "store-missing-icon")
    store.get_by_role("button", name="Install No Icon").click()
    store.get_by_role("button", name="Remove No Icon").wait_for()
    store.get_by_role("button", name="Done").click()
    ana.get_by_role("button", name="Apps", exact=True).click()
    expect(ana.locator("#drawer .app-icon.fallback")).to_have_text("N")
    # once missing, the icon is not asked for again at every drawing (an app author's review)
    assert len(asked) == 1, asked
    assert any('app "nameless" is left out: its name must be 1-64 characters' in w for w in warnings), warnings


def test_moves_an_app_sent_itself_and_heard_refused_leave_no_grey_copies(people_with_fixture_apps):
    """An app author's review: one tap sent three moves with send() on one version; the
    app heard the two refusals, yet each left a grey "Not sent" copy in the transcript,
    across reloads, that only the app's next insert took away (a game that moves with
    send() makes none). A refusal the app heard is the app's to show."""
    people = people_with_fixture_apps("doubletap")
    ana = people.join("Ana")
    create_conversation(ana, "Taps")
    install_app(ana, "Double Tap")
    open_from_drawer(ana, "Double Tap")
    app_frame(ana).get_by_role("button", name="Start").click()
    expect(ana.locator(".staged-item[data-kind=app]")).to_be_visible()
    send(ana)
    bubble = ana.locator(".row[data-seq][data-kind=app] .app-bubble")
    expect(bubble).to_contain_text("started")
    ana.locator("#app-pane .pane-bar").get_by_role("button", name="Close Double Tap").click()
    bubble.click()
    pane_ready(ana, "expanded")
    app_frame(ana).get_by_role("button", name="Tap").click()
    expect(app_frame(ana).locator("#results li")).to_have_count(3)
    expect(app_frame(ana).locator("#results li", has_text="session_conflict")).to_have_count(2)
    expect(ana.locator(".row.pending")).to_have_count(0)
    ana.reload()
    expect(ana.locator(".row[data-seq][data-kind=app] .app-bubble")).to_contain_text("tap")
    expect(ana.locator(".row.pending")).to_have_count(0)


def test_an_app_that_never_starts_says_so_and_closes_at_once(people_with_fixture_apps):
    """An app author's review: an app that never said it was ready (start() forgotten,
    a syntax error) left a blank pane for 15 s, said only "did not start" in a toast,
    and Close then took 5 s of hooks sent to nobody; the console gave no reason."""
    people = people_with_fixture_apps("silent")
    ana = people.join("Ana")
    create_conversation(ana, "Broken")
    install_app(ana, "Silent")
    warnings = []
    ana.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    started = time.monotonic()
    ana.get_by_role("button", name="Apps", exact=True).click()
    ana.locator("#drawer").get_by_role("button", name="Open Silent").click()
    note = ana.locator("#app-pane .pane-note")
    expect(note).to_contain_text("Silent did not start.", timeout=15_000)
    assert time.monotonic() - started < 12, "said within seconds of the app's page loading"
    expect(note.get_by_role("button", name="Try again")).to_be_visible()
    assert any("YourApp.start()" in w for w in warnings), warnings
    shot(ana, "app-did-not-start")
    closing = time.monotonic()
    ana.locator("#app-pane .pane-bar").get_by_role("button", name="Close Silent").click()
    expect(ana.locator("#app-pane")).to_be_hidden()
    # a hook sent to it holds Close for its 3 s timeout (two: 6 s); under that, a loaded machine has room
    assert time.monotonic() - closing < 2.8, "no hooks waited for an app that never started"


def test_a_note_over_the_drawer_does_not_take_the_tap_meant_for_it(people):
    """A first-time phone user (an outside review) got WenderPic and tapped it in the
    drawer at once: the tap landed on the "installed." note over the drawer, for the
    3.5 s it shows, and nothing opened."""
    ana = people.join("Ana", viewport=(390, 844), mobile=True)
    create_conversation(ana, "Notes")
    install_app(ana, "WenderPic")
    toast = ana.locator("#toast")
    expect(toast).to_contain_text("installed")
    ana.get_by_role("button", name="Apps", exact=True).click()
    box = toast.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    under = ana.evaluate("([x, y]) => document.elementFromPoint(x, y)?.closest('#toast') === null", [x, y])
    assert under, "the note takes the tap"
    # it moved up with the message box, which the drawer pushed up: above it, not over
    # the drawer (before, it stayed where it was shown)
    ana.wait_for_function("""() => { const t = document.querySelector('#toast').getBoundingClientRect();
        const c = document.querySelector('#chat .composer-area').getBoundingClientRect();
        return t.height > 0 && t.bottom <= c.top; }""", timeout=3000)
    expect(toast).to_contain_text("installed")  # still showing: the tap went past it


@pytest.mark.parametrize("app, button", [("WenderPic", "New Game"), ("The Daily Quote", "Share"),
                                         ("Ice Cream Builder", "New sundae")])
def test_a_phone_held_sideways_shows_the_apps_first_button(people, app, button):
    """A phone held sideways (844x390) leaves the compact pane's app about 100 px: an
    outside review found New Game and Share below the screen, with nothing to say so.
    The apps lay out a short frame so that what starts them is in view."""
    ana = people.join("Ana", viewport=(844, 390), mobile=True)
    create_conversation(ana, "Sideways")
    install_app(ana, app)
    open_from_drawer(ana, app)
    pane = ana.locator("#app-pane iframe").bounding_box()
    target = frame(ana).get_by_role("button", name=button, exact=True)
    expect(target).to_be_visible()
    box = target.bounding_box()
    middle = box["y"] + box["height"] / 2
    assert pane["y"] <= middle <= pane["y"] + pane["height"] and middle <= 390, (app, pane, box)
    shot(ana, f"phone-sideways-{app.split()[-1].lower()}")


def test_a_message_that_comes_while_an_app_fills_the_screen_is_said_in_its_bar(people):
    """A phone user's review: Ben was drawing, expanded, when Ana wrote "dinner is
    ready": nothing on screen changed. The pane's bar now says so, and tapping it
    goes back to compact, where the message is."""
    ana = people.join("Ana")
    link = create_conversation(ana, "Dinner")
    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True)
    install_app(ben, "WenderPic")
    open_from_drawer(ben, "WenderPic")
    frame(ben).get_by_role("button", name="New Game").click()
    pane_ready(ben, "expanded")
    news = ben.locator("#app-pane .pane-news")
    expect(news).to_be_hidden()
    send_text(ana, "Ben, dinner is ready!")
    expect(news).to_have_text("Ana wrote")
    expect(news).to_have_accessible_name("Ana wrote: show the conversation")
    shot(ben, "pane-news-phone")
    news.click()
    pane_ready(ben, "compact")
    expect(news).to_be_hidden()
    expect(ben.locator(".row[data-seq] .text-bubble")).to_have_text(["Ben, dinner is ready!"])
