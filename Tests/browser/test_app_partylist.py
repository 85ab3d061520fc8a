"""Party list (seed 002) between Kate and John: Kate starts a list (Mussels and
Fries), edits it and sends it; John has no Party list, gets it from the
bubble, adds "Andalouse sauce" and sends it back: one bubble, updated, on both
sides. Then both edit and send at the same moment, and a send that is
refused because the list moved on (a session conflict) is merged and nothing
is lost."""

import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError, expect

from conftest import app_feels_pointer, create_conversation, expect_focus, focused, frame, install_app, keyboard_into_app, open_from_drawer, pane_ready, shot

APP = "Party list"
RECONNECT = 30_000


def hooks(page):
    return frame(page).locator("#lifecycle li")


def elements(page):
    return frame(page).locator("#elements .element-name")


def toggle(page, verb):
    page.locator("#app-pane .pane-bar").get_by_role("button", name=f"{verb} {APP}").click()


def add(page, *names):
    for name in names:
        frame(page).locator("#new-element").fill(name)
        frame(page).get_by_role("button", name="Add", exact=True).click()
        expect(elements(page).last).to_have_text(name)


def remove(page, name):
    before = elements(page).count()
    frame(page).get_by_role("button", name=f"Remove {name}", exact=True).click()
    expect(elements(page)).to_have_count(before - 1)


def current_bubble(page):
    return page.locator(".row[data-seq][data-kind=app]")


def live(bubble):
    """The list as the bubble shows it to someone who has Party list: the app
    draws it live (a LiveLayout); the others see the template's picture."""
    return bubble.frame_locator("iframe.live-frame")


def expect_live_list(bubble, title=None, items=None, count=None):
    f = live(bubble)
    if title is not None:
        expect(f.locator("#live-title")).to_have_text(title)
    if items is not None:
        expect(f.locator("#live-elements .live-element")).to_have_text(items)
    if count is not None:
        expect(f.locator("#live-count")).to_have_text(count)


def open_add_and_send(page, opener, *names):
    """Opens the list from its bubble (`opener`, a locator), adds `names` and sends it."""
    opener.click()
    pane_ready(page, "expanded")
    add(page, *names)
    frame(page).get_by_role("button", name="Send", exact=True).click()
    pane_ready(page, "compact")
    press_send(page)


def retitle_add_and_send(page, title, *names):
    """In the list's editor (expanded): a new title, `names` added, sent from the app and then Send."""
    frame(page).locator("#list-title").fill(title)
    add(page, *names)
    frame(page).get_by_role("button", name="Send", exact=True).click()
    pane_ready(page, "compact")
    press_send(page)


def staged(page):
    return page.locator(".staged-item[data-kind=app]")


def press_send(page):
    page.get_by_role("button", name="Send", exact=True).click()


def images_loaded(locator):
    expect(locator).not_to_have_count(0)
    locator.first.page.wait_for_function(
        "els => els.every(e => e.complete && e.naturalWidth > 0)", arg=locator.element_handles())


def start_party(people, dark=False, john_dark=None):
    """Kate and John in one conversation; Kate has Party list, John does not. John (a
    phone) is in dark when `john_dark`, else as Kate."""
    kate = people.join("Kate", dark=dark)
    link = create_conversation(kate, "Mussels night")
    john = people.join("John", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True,
                       dark=dark if john_dark is None else john_dark)
    install_app(kate, APP)
    return kate, john


def send_new_list(kate, title=None, extra=()):
    open_from_drawer(kate, APP)
    app_feels_pointer(kate)  # just opened, after a change of window size (test_live_partylist)
    frame(kate).get_by_role("button", name="New party").click()
    pane_ready(kate, "expanded")
    expect(elements(kate)).to_have_text(["Mussels", "Fries"])
    if title:
        frame(kate).locator("#list-title").fill(title)
    add(kate, *extra)
    frame(kate).get_by_role("button", name="Send", exact=True).click()
    pane_ready(kate, "compact")
    expect(staged(kate)).to_be_visible()
    press_send(kate)
    expect(staged(kate)).to_have_count(0)
    expect(current_bubble(kate)).to_have_count(1)


def test_kate_starts_the_list_john_adds_andalouse_sauce_and_sends_it_back(people):
    kate, john = start_party(people)

    # compact: New party
    open_from_drawer(kate, APP)
    home = frame(kate).locator("#home")
    expect(home.get_by_role("button", name="New party")).to_be_visible()
    expect(hooks(kate)).to_have_text(["willBecomeActive", "didBecomeActive"])
    shot(kate, "partylist-desktop-light-compact")

    # New party: expanded, a new list with Mussels and Fries
    home.get_by_role("button", name="New party").click()
    pane_ready(kate, "expanded")
    expect(frame(kate).locator("#list-title")).to_have_value("Mussels Party")
    expect(elements(kate)).to_have_text(["Mussels", "Fries"])
    expect(frame(kate).locator("#list-kind")).to_have_text("New list")

    # edit: the title, add two, remove one
    frame(kate).locator("#list-title").fill("Mussels at Kate's")
    add(kate, "Beer", "Ketchup")
    remove(kate, "Ketchup")
    expect(elements(kate)).to_have_text(["Mussels", "Fries", "Beer"])
    expect(frame(kate).locator("#count")).to_have_text("3 items")
    # read aloud as two phrases, not "3 itemsNew list" (#13 item 9)
    expect(frame(kate).locator(".detail-sub")).to_match_aria_snapshot("- paragraph: 3 items · New list")
    shot(kate, "partylist-desktop-light-expanded")

    # Send: back to compact, the list waits in the composer
    frame(kate).get_by_role("button", name="Send", exact=True).click()
    pane_ready(kate, "compact")
    expect(staged(kate)).to_contain_text("Mussels at Kate's")
    images_loaded(staged(kate).locator("img.thumb"))
    expect(frame(kate).locator("#home-status")).to_contain_text("press Send")
    assert kate.locator(".row[data-kind=app]").count() == 0
    press_send(kate)
    expect(staged(kate)).to_have_count(0)
    expect(frame(kate).locator("#home-status")).to_contain_text("Sent")

    bubble_k = current_bubble(kate)
    expect(bubble_k).to_have_count(1)
    # Kate has the app: it draws the bubble itself, the list as it is now
    expect_live_list(bubble_k, "Mussels at Kate's", ["Mussels", "Fries", "Beer"], "3 items")
    expect(bubble_k.locator(".app-image")).to_have_count(0)
    first_seq = int(bubble_k.get_attribute("data-seq"))
    session = bubble_k.get_attribute("data-session")
    assert session

    # John has no Party list: Get it from the bubble; it opens on Kate's list
    bubble_j = current_bubble(john)
    # without the app: the template layout, its picture of the list
    expect(bubble_j.locator(".caption")).to_have_text("Mussels at Kate's")
    expect(bubble_j.locator(".subcaption")).to_have_text("Mussels, Fries and Beer")
    expect(bubble_j.locator(".trailing-caption")).to_have_text("3 items")
    images_loaded(bubble_j.locator(".app-image img"))
    john_get = bubble_j.get_by_role("button", name=f"Get {APP}")
    expect(john_get).to_be_visible()
    shot(john, "partylist-phone-light-get-app")
    john_get.click()
    pane_ready(john, "expanded")
    expect(frame(john).locator("#list-title")).to_have_value("Mussels at Kate's")
    expect(elements(john)).to_have_text(["Mussels", "Fries", "Beer"])
    expect(frame(john).locator("#list-kind")).to_contain_text("Shared list")

    # John adds the Andalouse sauce Kate forgot, and sends it back
    add(john, "Andalouse sauce")
    shot(john, "partylist-phone-light-expanded")
    frame(john).get_by_role("button", name="Send", exact=True).click()
    pane_ready(john, "compact")
    expect(staged(john)).to_contain_text("Mussels at Kate's")
    shot(john, "partylist-phone-light-compact-staged")
    press_send(john)
    expect(staged(john)).to_have_count(0)

    # one bubble, updated, moved to the bottom, on both sides; the old one is a summary line
    for page in (kate, john):
        bubble = current_bubble(page)
        expect(bubble).to_have_count(1)
        expect_live_list(bubble, items=["Mussels", "Fries", "Beer", "Andalouse sauce"], count="4 items")
        expect(bubble).to_have_attribute("data-session", session)
        assert int(bubble.get_attribute("data-seq")) > first_seq
        expect(page.locator(f".summary[data-seq='{first_seq}']")).to_have_text("Kate started “Mussels at Kate's”")

    # Kate's app was open: it heard John's version; tapping the bubble shows it
    expect(hooks(kate)).to_contain_text(["didReceive"])
    kate.locator(".row[data-seq][data-kind=app] .app-bubble").click()
    pane_ready(kate, "expanded")
    expect(elements(kate)).to_have_text(["Mussels", "Fries", "Beer", "Andalouse sauce"])
    expect(frame(kate).locator("#list-title")).to_have_value("Mussels at Kate's")

    # closing and opening from the bubble again: the same list
    kate.locator("#app-pane").get_by_role("button", name=f"Close {APP}").click()
    expect(kate.locator("#app-pane")).to_be_hidden()
    current_bubble(kate).locator(".app-bubble").click()
    pane_ready(kate, "expanded")
    expect(elements(kate)).to_have_text(["Mussels", "Fries", "Beer", "Andalouse sauce"])
    expect(hooks(kate)).to_have_text(["willBecomeActive", "didBecomeActive"])

    # New party starts another list, in its own session: a second bubble
    toggle(kate, "Collapse")
    pane_ready(kate, "compact")
    expect(frame(kate).get_by_role("button", name="Edit “Mussels at Kate's”")).to_be_visible()
    frame(kate).get_by_role("button", name="New party").click()
    pane_ready(kate, "expanded")
    expect(frame(kate).locator("#list-title")).to_have_value("Mussels Party")
    expect(elements(kate)).to_have_text(["Mussels", "Fries"])
    frame(kate).get_by_role("button", name="Send", exact=True).click()
    pane_ready(kate, "compact")
    press_send(kate)
    for page in (kate, john):
        bubbles = current_bubble(page)
        expect(bubbles).to_have_count(2)
        expect_live_list(bubbles.nth(0), title="Mussels at Kate's")
        expect_live_list(bubbles.nth(1), title="Mussels Party")
        assert bubbles.nth(1).get_attribute("data-session") != session


@pytest.mark.parametrize("first", ["kate", "john"])
def test_both_edit_and_send_at_the_same_moment(people, first):
    kate, john = start_party(people)
    send_new_list(kate, extra=["Beer"])
    current_bubble(john).get_by_role("button", name=f"Get {APP}").click()
    pane_ready(john, "expanded")
    expect(elements(john)).to_have_text(["Mussels", "Fries", "Beer"])
    current_bubble(kate).locator(".app-bubble").click()
    pane_ready(kate, "expanded")

    # both edit the same version: Kate swaps Beer for Mayonnaise, John adds sauce and water
    remove(kate, "Beer")
    add(kate, "Mayonnaise")
    add(john, "Andalouse sauce", "Sparkling water")
    for page in (kate, john):
        frame(page).get_by_role("button", name="Send", exact=True).click()
        pane_ready(page, "compact")
        expect(staged(page)).to_be_visible()

    # and press Send at the same moment (either may reach the server first;
    # each order is run, so each side's merge after a refusal is)
    order = (kate, john) if first == "kate" else (john, kate)
    for page in order:
        page.get_by_role("button", name="Send", exact=True).click()

    # whoever lost the race gets the merged list back in the composer (the refused
    # copy leaves the transcript once the app has re-staged it) and sends again
    for page in (kate, john):
        expect(page.locator(".row.pending:not(.failed)")).to_have_count(0)

    want = {"Mussels", "Fries", "Mayonnaise", "Andalouse sauce", "Sparkling water"}

    def shows(page):
        try:
            return set(live(current_bubble(page)).locator("#live-elements .live-element").all_inner_texts())
        except PlaywrightError as e:
            # a newer message of the session takes the bubble over with a frame of its
            # own: the one being read went between finding it and reading it
            if "detached" not in str(e):
                raise
            return None

    def merged_everywhere():
        # the items, not their count: John's own version has five too, and
        # whichever of the two won, the loser's merged list is still to come
        return all(shows(p) == want for p in (kate, john))

    deadline = time.monotonic() + 20
    while not merged_everywhere():
        assert time.monotonic() < deadline, "the lists never converged"
        for page in (kate, john):
            # the merged list staged again, not the page's own just sent (its message
            # box is emptied at the next frame's drawing, which may not have come yet)
            if staged(page).count() and frame(page).locator("#home-status", has_text="Both changes are in").count():
                expect(page.locator(".row.pending.failed")).to_have_count(0)
                press_send(page)
                expect(page.locator(".row.pending:not(.failed)")).to_have_count(0)
        kate.wait_for_timeout(100)

    for page in (kate, john):
        bubble = current_bubble(page)
        expect(bubble).to_have_count(1)
        expect_live_list(bubble, count="5 items")
        got, until = shows(page), time.monotonic() + 10
        while got is None and time.monotonic() < until:  # its frame went as it was read (see shows)
            got = shows(page)
        assert got == want, f"{got!r}: nothing lost, Beer removed"
        expect(staged(page)).to_have_count(0)

    # each side's open app shows the merged list too
    for page in (kate, john):
        current_bubble(page).locator(".app-bubble").click()
        pane_ready(page, "expanded")
        expect(elements(page)).to_have_count(5)
        assert set(elements(page).all_inner_texts()) == want


def test_a_send_refused_by_a_session_conflict_is_merged_and_sent_again(people):
    kate, john = start_party(people)
    send_new_list(kate)
    current_bubble(john).get_by_role("button", name=f"Get {APP}").click()
    pane_ready(john, "expanded")

    # John adds Beer and puts the list in his composer ...
    add(john, "Beer")
    frame(john).get_by_role("button", name="Send", exact=True).click()
    pane_ready(john, "compact")
    expect(staged(john)).to_be_visible()
    images_loaded(staged(john).locator("img.thumb"))

    # ... and presses Send while his connection is down: it waits in the outbox
    john.context.set_offline(True)
    expect(john.locator("#offline-banner")).to_be_visible()
    press_send(john)
    expect(john.locator(".row.pending")).to_contain_text("Sending…")

    # meanwhile Kate adds the Andalouse sauce and sends: the list moves on
    open_add_and_send(kate, current_bubble(kate).locator(".app-bubble"), "Andalouse sauce")
    expect(current_bubble(kate)).to_have_count(1)
    expect_live_list(current_bubble(kate), items=["Mussels", "Fries", "Andalouse sauce"])

    # John is back: his send was based on the old version, the server refuses it
    # (session_conflict); his app merges Kate's version with his edit and puts
    # the merged list back in the composer
    john.context.set_offline(False)
    expect(john.locator("#offline-banner")).to_be_hidden(timeout=RECONNECT)
    # the refused copy leaves the transcript as soon as the app stages the merge
    expect(staged(john)).to_have_count(1, timeout=RECONNECT)
    expect(john.locator(".row.pending.failed")).to_have_count(0)
    status = frame(john).locator("#home-status")
    expect(status).to_contain_text("Someone changed the list at the same time (+ Andalouse sauce)")
    expect(status).to_contain_text("press Send again")
    shot(john, "partylist-phone-light-conflict-merged")
    press_send(john)

    for page in (kate, john):
        bubble = current_bubble(page)
        expect(bubble).to_have_count(1)
        expect_live_list(bubble, items=["Mussels", "Fries", "Andalouse sauce", "Beer"])
    expect(john.locator(".row.pending")).to_have_count(0)

    # John's editor shows the merged list
    toggle(john, "Expand")
    pane_ready(john, "expanded")
    expect(elements(john)).to_have_text(["Mussels", "Fries", "Andalouse sauce", "Beer"])


def test_an_update_arriving_while_editing_is_merged_live(people):
    kate, john = start_party(people, dark=True)
    send_new_list(kate)
    current_bubble(john).get_by_role("button", name=f"Get {APP}").click()
    pane_ready(john, "expanded")
    add(john, "Beer")  # John is editing, not sent yet

    # Kate sends a version with the sauce while John edits
    current_bubble(kate).locator(".app-bubble").click()
    pane_ready(kate, "expanded")
    retitle_add_and_send(kate, "Moules-frites", "Andalouse sauce")
    expect(frame(kate).locator("#home-status")).to_contain_text("Sent")
    shot(kate, "partylist-desktop-dark-compact-sent")

    # John's open editor takes it in at once, keeping his Beer and his typing
    frame(john).locator("#new-element").fill("Napkins")
    expect(elements(john)).to_have_text(["Mussels", "Fries", "Andalouse sauce", "Beer"])
    expect(frame(john).locator("#list-title")).to_have_value("Moules-frites")
    expect(frame(john).locator("#merge-note")).to_have_text(
        "Updated with the latest changes: renamed “Moules-frites”, + Andalouse sauce")
    expect(frame(john).locator("#new-element")).to_have_value("Napkins")
    shot(john, "partylist-phone-dark-merged-live")
    frame(john).get_by_role("button", name="Add", exact=True).click()
    frame(john).get_by_role("button", name="Send", exact=True).click()
    pane_ready(john, "compact")
    expect(frame(john).locator("#home-status")).to_contain_text("press Send")
    shot(john, "partylist-phone-dark-compact-staged")
    press_send(john)
    for page in (kate, john):
        bubble = current_bubble(page)
        expect(bubble).to_have_count(1)
        expect_live_list(bubble, "Moules-frites", ["Mussels", "Fries", "Andalouse sauce", "Beer", "Napkins"])
    expect(kate.locator(".row.pending")).to_have_count(0)
    expect(john.locator(".row.pending")).to_have_count(0)




def test_the_focus_stays_on_the_list_as_it_changes(people):
    """Keyboard only. New party puts the focus on the new list's first field (not the
    top of the page); Enter on "Remove Salsa" removes it and leaves the focus on the
    next item's Remove (the last item's: on the one before; the last of all: on the
    box to add one); Send puts the list in the message box and goes back to compact
    with the focus on the host's Send, which is next."""
    kate = keyboard_into_app(people, "Kate", "Keyboard party", APP)
    expect_focus(kate, "new-party")  # Tab into another process: the focus arrives a moment later
    kate.keyboard.press("Enter")
    pane_ready(kate, "expanded")
    expect_focus(kate, "list-title")
    expect(elements(kate)).to_have_text(["Mussels", "Fries"])

    for _ in range(3):
        kate.keyboard.press("Tab")
    assert focused(kate) == "new-element"
    for name in ("Chips", "Salsa", "Cake"):
        kate.keyboard.type(name)
        kate.keyboard.press("Enter")
        expect(elements(kate).last).to_have_text(name)
        assert focused(kate) == "new-element"
    kate.keyboard.press("Shift+Tab")
    kate.keyboard.press("Shift+Tab")
    assert focused(kate) == "Remove Salsa"

    kate.keyboard.press("Enter")
    expect(elements(kate)).to_have_text(["Mussels", "Fries", "Chips", "Cake"])
    assert focused(kate) == "Remove Cake", "the next item took its place"
    shot(kate, "partylist-keyboard-after-remove")
    kate.keyboard.press("Enter")
    expect(elements(kate)).to_have_text(["Mussels", "Fries", "Chips"])
    assert focused(kate) == "Remove Chips", "no next item: the one before"
    for left in (["Mussels", "Fries"], ["Mussels"]):
        kate.keyboard.press("Enter")
        expect(elements(kate)).to_have_text(left)
    assert focused(kate) == "Remove Mussels"
    kate.keyboard.press("Enter")
    expect(elements(kate)).to_have_count(0)
    assert focused(kate) == "new-element", "an empty list: the box to add one"

    kate.keyboard.type("Balloons")
    kate.keyboard.press("Enter")
    kate.keyboard.press("Tab")
    kate.keyboard.press("Tab")
    assert focused(kate) == "send"
    kate.keyboard.press("Enter")
    pane_ready(kate, "compact")
    expect(staged(kate)).to_contain_text("Mussels Party")
    expect(kate.get_by_role("button", name="Send", exact=True)).to_be_focused()


def test_expanding_to_look_does_not_leave_a_list_to_edit(people):
    """A phone user's review: the pane's Expand, tapped to see the app bigger, opened a
    new list, and back in compact the app offered "Edit “Mussels Party”", a list he
    never made. An untouched new list is not offered; one changed is."""
    kate = people.join("Kate", viewport=(390, 844), mobile=True)
    create_conversation(kate, "Just looking")
    install_app(kate, APP)
    open_from_drawer(kate, APP)
    bar = kate.locator("#app-pane .pane-bar")
    bar.get_by_role("button", name=f"Expand {APP}").click()
    pane_ready(kate, "expanded")
    expect(frame(kate).locator("#list-title")).to_be_visible()
    bar.get_by_role("button", name=f"Collapse {APP}").click()
    pane_ready(kate, "compact")
    expect(frame(kate).get_by_role("button", name="New party")).to_be_visible()
    expect(frame(kate).get_by_role("button", name=re.compile("^Edit"))).to_be_hidden()
    # changed, it is hers to come back to
    bar.get_by_role("button", name=f"Expand {APP}").click()
    pane_ready(kate, "expanded")
    frame(kate).locator("#list-title").fill("Picnic")
    bar.get_by_role("button", name=f"Collapse {APP}").click()
    pane_ready(kate, "compact")
    expect(frame(kate).get_by_role("button", name="Edit “Picnic”")).to_be_visible()
