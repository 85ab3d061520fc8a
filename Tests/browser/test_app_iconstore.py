"""Icon Store (seed 000) between two people: the list in compact and expanded,
a tapped icon goes back to compact and waits in the composer (caption = name,
subcaption = price, image = the icon); the recipient has no Icon Store and
gets it from the bubble, which opens the app expanded on the icon's details;
collapsing dismisses them; a tap on the bubble while the app is open selects
it again; Buy is remembered per user."""

import re

from playwright.sync_api import expect

from conftest import app_frame, create_conversation, frame, install_app, open_from_drawer, pane_ready, shot

APP = "Icon Store"
NAMES = ["Candle icon", "Cat icon", "Sky icon", "Book icon", "Backpack icon",
         "Camera icon", "Coffee icon", "Icecream icon", "Vespa icon"]


def hooks(page):
    return frame(page).locator("#lifecycle li")


def toggle(page, verb):
    page.locator("#app-pane .pane-bar").get_by_role("button", name=f"{verb} {APP}").click()


def images_loaded(locator):
    """Every <img> under the locator has decoded (naturalWidth > 0)."""
    expect(locator).not_to_have_count(0)
    locator.first.page.wait_for_function(
        "els => els.every(e => e.complete && e.naturalWidth > 0)", arg=locator.element_handles())


def frame_images_loaded(page, selector):
    """Every <img> matching selector inside the app's frame has decoded."""
    expect(frame(page).locator(selector)).not_to_have_count(0)
    app = page.locator("#app-pane iframe").element_handle().content_frame()
    app.wait_for_function(
        "sel => [...document.querySelectorAll(sel)].every(e => e.complete && e.naturalWidth > 0)", arg=selector)


def settled(page):
    """Waits until the app's own animations (the details rising) have finished."""
    app = page.locator("#app-pane iframe").element_handle().content_frame()
    app.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")


def test_share_an_icon_get_the_app_and_see_the_details(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Icons")
    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True, dark=True)

    # Ana installs Icon Store and opens it from the drawer: the list, compact
    install_app(ana, APP)
    open_from_drawer(ana, APP)
    expect(hooks(ana)).to_have_text(["willBecomeActive", "didBecomeActive"])
    rows = frame(ana).locator(".icon-row")
    expect(rows.locator(".name")).to_contain_text(NAMES)
    expect(rows).to_have_count(len(NAMES))
    expect(rows.nth(1)).to_contain_text("$2.99")
    expect(rows.nth(1)).to_contain_text("Featured")
    expect(rows.nth(8)).to_contain_text("$9.99")
    frame_images_loaded(ana, ".icon-row img")
    shot(ana, "iconstore-desktop-light-compact")

    # expanded by the handle: the same list, as cards
    toggle(ana, "Expand")
    pane_ready(ana, "expanded")
    expect(frame(ana).locator("#store-title")).to_be_visible()
    expect(frame(ana).locator("#details")).to_be_hidden()
    shot(ana, "iconstore-desktop-light-expanded")

    # tapping an icon returns to compact and puts the message in the composer
    frame(ana).get_by_role("button", name=re.compile(r"^Cat icon, \$2\.99")).click()
    pane_ready(ana, "compact")
    staged = ana.locator(".staged-item[data-kind=app]")
    expect(staged).to_contain_text("Cat icon")
    images_loaded(staged.locator("img.thumb"))
    assert ana.locator(".row[data-kind=app]").count() == 0, "insert stages, it does not send"
    expect(hooks(ana)).to_have_text(["willBecomeActive", "didBecomeActive",
                                     "willTransition:expanded", "didTransition:expanded",
                                     "willTransition:compact", "didTransition:compact"])
    shot(ana, "iconstore-desktop-light-staged")
    ana.get_by_role("button", name="Send", exact=True).click()
    expect(staged).to_have_count(0)

    bubble_a = ana.locator(".row[data-seq][data-kind=app]")
    expect(bubble_a).to_have_count(1)
    expect(bubble_a.locator(".caption")).to_have_text("Cat icon")
    expect(bubble_a.locator(".subcaption")).to_have_text("$2.99")
    images_loaded(bubble_a.locator(".app-image img"))
    size = bubble_a.locator(".app-image img").evaluate("i => [i.naturalWidth, i.naturalHeight]")
    assert size == [600, 400], f"the icon rendered to a 600×400 PNG, got {size}"
    expect(hooks(ana).last).to_have_text("didStartSending")

    # Ben has no Icon Store: the bubble offers it
    bubble_b = ben.locator(".row[data-seq][data-kind=app]")
    expect(bubble_b).to_have_count(1)
    expect(bubble_b.locator(".caption")).to_have_text("Cat icon")
    expect(bubble_b.locator(".subcaption")).to_have_text("$2.99")
    images_loaded(bubble_b.locator(".app-image img"))
    get = bubble_b.get_by_role("button", name=f"Get {APP}")
    expect(get).to_be_visible()
    shot(ben, "iconstore-phone-dark-get-app")
    get.click()

    # ... which installs it and opens it expanded on the icon's details
    pane_ready(ben, "expanded")
    details = frame(ben).locator("#details")
    expect(details).to_be_visible()
    expect(details.locator("#detail-name")).to_have_text("Cat icon")
    expect(details.locator("#detail-description")).to_have_text(
        "A black cat sitting under a harvest moon. Purrs in dark mode.")
    expect(details.locator("#detail-price")).to_have_text("$2.99")
    expect(details.locator("#pretend-note")).to_have_text("A pretend price: nothing is charged.")
    expect(details.get_by_role("button", name="Buy")).to_be_visible()
    frame_images_loaded(ben, "#detail-image")
    expect(hooks(ben)).to_have_text(["willBecomeActive", "didBecomeActive"])
    settled(ben)
    shot(ben, "iconstore-phone-dark-details")

    # Buy: remembered for Ben
    details.get_by_role("button", name="Buy").click()
    expect(details.locator("#buy")).to_have_text("Purchased ✓")
    expect(details.locator("#buy")).to_be_disabled()

    # collapsing dismisses the details: the list is back
    toggle(ben, "Collapse")
    pane_ready(ben, "compact")
    expect(details).to_be_hidden()
    expect(frame(ben).locator(".icon-row")).to_have_count(len(NAMES))
    expect(frame(ben).locator(".icon-row[data-icon=cat] .price")).to_have_text("Owned")
    shot(ben, "iconstore-phone-dark-compact")

    # a tap on the bubble while Icon Store is open: didSelect, details, expanded
    ben.locator(".row[data-seq][data-kind=app] .app-bubble").click()
    pane_ready(ben, "expanded")
    expect(details.locator("#detail-name")).to_have_text("Cat icon")
    expect(details.locator("#buy")).to_have_text("Purchased ✓")
    expect(hooks(ben)).to_have_text([
        "willBecomeActive", "didBecomeActive", "willTransition:compact", "didTransition:compact",
        "didSelect", "willTransition:expanded", "didTransition:expanded"])

    # the back button dismisses the details too (and the pane stays expanded)
    details.get_by_role("button", name="All icons").click()
    expect(details).to_be_hidden()
    expect(frame(ben).locator(".icon-row")).to_have_count(len(NAMES))

    # Ana, the sender, taps her own bubble: the same details; she has not bought it
    bubble_a.locator(".app-bubble").click()
    pane_ready(ana, "expanded")
    details_a = frame(ana).locator("#details")
    expect(details_a.locator("#detail-name")).to_have_text("Cat icon")
    expect(details_a.get_by_role("button", name="Buy")).to_be_enabled()
    settled(ana)
    shot(ana, "iconstore-desktop-light-details")
    toggle(ana, "Collapse")
    pane_ready(ana, "compact")
    expect(details_a).to_be_hidden()

    # Ben closes the app and opens the bubble again: willBecomeActive, expanded, details
    ben.locator("#app-pane").get_by_role("button", name=f"Close {APP}").click()
    expect(ben.locator("#app-pane")).to_be_hidden()
    ben.locator(".row[data-seq][data-kind=app] .app-bubble").click()
    pane_ready(ben, "expanded")
    expect(frame(ben).locator("#detail-name")).to_have_text("Cat icon")
    expect(hooks(ben)).to_have_text(["willBecomeActive", "didBecomeActive"])


def test_a_second_icon_and_removing_a_staged_one(people):
    ana = people.join("Ana", viewport=(390, 844), mobile=True)
    create_conversation(ana, "Solo icons")
    install_app(ana, APP)
    open_from_drawer(ana, APP)
    shot(ana, "iconstore-phone-light-compact")

    # the user removes the staged icon: didCancelSending, nothing is sent
    frame(ana).get_by_role("button", name=re.compile(r"^Coffee icon")).click()
    staged = ana.locator(".staged-item[data-kind=app]")
    expect(staged).to_contain_text("Coffee icon")
    staged.get_by_role("button", name=re.compile("^Remove")).click()
    expect(staged).to_have_count(0)
    expect(hooks(ana).last).to_have_text("didCancelSending")

    # a newer icon replaces the staged one (one interactive message at a time)
    frame(ana).get_by_role("button", name=re.compile(r"^Camera icon")).click()
    expect(staged).to_contain_text("Camera icon")
    frame(ana).get_by_role("button", name=re.compile(r"^Vespa icon")).click()
    expect(staged).to_have_count(1)
    expect(staged).to_contain_text("Vespa icon")
    ana.get_by_role("button", name="Send", exact=True).click()
    bubble = ana.locator(".row[data-seq][data-kind=app]")
    expect(bubble.locator(".caption")).to_have_text(["Vespa icon"])
    expect(bubble.locator(".subcaption")).to_have_text(["$9.99"])

    # tapped while compact on a phone: details, expanded, full width
    bubble.locator(".app-bubble").click()
    pane_ready(ana, "expanded")
    expect(frame(ana).locator("#detail-name")).to_have_text("Vespa icon")
    expect(frame(ana).locator("#detail-price")).to_have_text("$9.99")
    settled(ana)
    shot(ana, "iconstore-phone-light-details")


# What has the focus inside the app's frame: its id, or its name; "" when the frame does not have it.
FOCUSED = """() => { const a = document.activeElement;
  return !document.hasFocus() || !a || a === document.body ? "" : a.id || a.getAttribute("aria-label") || a.textContent.trim(); }"""


def focused(page):
    return app_frame(page).evaluate(FOCUSED)


def test_the_details_take_the_keyboard_and_give_it_back(people):
    """Keyboard only. The details cover the list: Tab into the app lands in them,
    not on the icons hidden behind (the list is inert while they show); Escape
    closes the details, and only them (the pane stays expanded), and the focus
    goes back to the icon they showed; the next Escape collapses the pane."""
    ana = people.join("Ana")
    create_conversation(ana, "Icons by keyboard")
    install_app(ana, APP)
    open_from_drawer(ana, APP)
    # Tab into the app, to the cat; Enter puts it in the message box
    ana.locator("#app-pane .pane-bar").get_by_role("button", name=f"Close {APP}").focus()
    for _ in range(4):
        ana.keyboard.press("Tab")
        if focused(ana).startswith("Cat icon"):
            break
    assert focused(ana) == "Cat icon, $2.99. Send it"
    ana.keyboard.press("Enter")
    expect(ana.locator(".staged-item[data-kind=app]")).to_contain_text("Cat icon")
    ana.get_by_role("button", name="Send", exact=True).click()
    bubble = ana.locator(".row[data-seq][data-kind=app] .app-bubble")
    expect(bubble).to_have_count(1)

    # the bubble, by keyboard: the details, expanded
    ana.locator("#app-pane").get_by_role("button", name=f"Close {APP}").focus()
    ana.keyboard.press("Enter")
    expect(ana.locator("#app-pane")).to_be_hidden()
    bubble.focus()
    ana.keyboard.press("Enter")
    pane_ready(ana, "expanded")
    details = frame(ana).locator("#details")
    expect(details.locator("#detail-name")).to_have_text("Cat icon")
    expect(frame(ana).locator("#store")).to_have_attribute("inert", "")
    settled(ana)

    # Tab from the pane's bar into the app: the details' first control, then Buy
    for _ in range(4):
        ana.keyboard.press("Tab")
        if focused(ana):
            break
    assert focused(ana) == "‹ All icons", focused(ana)
    shot(ana, "iconstore-keyboard-details")
    ana.keyboard.press("Tab")
    assert focused(ana) == "buy"
    ana.keyboard.press("Tab")  # out of the app, never to the list behind
    assert not focused(ana).startswith("Candle icon"), focused(ana)
    ana.keyboard.press("Shift+Tab")
    assert focused(ana) == "buy"

    # one Escape: the details close, the pane stays, the cat has the focus again
    app_frame(ana).evaluate("addEventListener('keydown', (e) => { window.escapeKept = e.defaultPrevented; })")
    ana.keyboard.press("Escape")
    expect(details).to_be_hidden()
    assert app_frame(ana).evaluate("window.escapeKept") is True, "the host is not asked to collapse the pane too"
    expect(frame(ana).locator("#store")).not_to_have_attribute("inert", "")
    assert focused(ana) == "Cat icon, $2.99. Send it", focused(ana)
    expect(ana.locator("#app-pane")).to_have_attribute("data-style", "expanded")
    shot(ana, "iconstore-keyboard-back-to-list")
    # the next Escape is the host's: the pane collapses
    ana.keyboard.press("Escape")
    pane_ready(ana, "compact")
