"""Ice Cream Builder (seed 003) with three people: Ana starts a sundae (the
base), Ben adds the scoops, Cy tops it off. Each step is staged in the
composer (insert) and sent with Send; it is a message in the same session,
so the one bubble moves down and the earlier steps shrink to summaries.
Ben and Cy have not installed the app: they get it from the bubble. The
finished sundae becomes a sticker in each builder's compact view; tapping it
stages it in the composer. A second test has two people take the same step
at the same moment: the slower one sees the step that won and continues."""

import re

import pytest
from playwright.sync_api import expect

from conftest import app_rows, create_conversation, frame, install_app, open_from_drawer, pane_ready, press_send_button as send, shot

APP = "Ice Cream Builder"


pytestmark = pytest.mark.usefixtures("app_console_errors")




def choose(page, part, next_style="compact"):
    frame(page).get_by_role("button", name=part, exact=True).click()
    pane_ready(page, next_style)


def expect_bubble(page, caption, subcaption, trailing):
    row = app_rows(page)
    expect(row).to_have_count(1)
    expect(row.locator(".caption")).to_have_text(caption)
    expect(row.locator(".subcaption")).to_have_text(subcaption)
    expect(row.locator(".trailing-caption")).to_have_text(trailing)
    expect(row.locator(".app-image img")).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=row.locator(".app-image img").element_handle())
    return row


def canvases_painted(page):
    """Every canvas in the app's frame has been drawn at its display size."""
    app = page.locator("#app-pane iframe").element_handle().content_frame()
    app.wait_for_function("() => [...document.querySelectorAll('canvas')].every(c => c.hasAttribute('data-painted'))")


def test_three_friends_build_a_sundae_step_by_step(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Sundae club")
    path = link.replace(people.server.base, "")
    ben = people.join("Ben", path, viewport=(390, 844), mobile=True, dark=True)
    cy = people.join("Cy", path, viewport=(1024, 768), dark=True)
    expect(ana.locator("#chat-presence")).to_contain_text("Cy")

    # Ana installs the app and opens it from the drawer: compact, the sticker history (empty)
    install_app(ana, APP)
    open_from_drawer(ana, APP)
    expect(frame(ana).locator("#history-title")).to_have_text("Your sundaes")
    expect(frame(ana).get_by_role("button", name="New sundae")).to_be_visible()
    expect(frame(ana).locator(".sticker-tile")).to_have_count(0)
    shot(ana, "icecream-desktop-light-compact-empty")

    # "New sundae" asks for the expanded style: the builder, at the base
    frame(ana).get_by_role("button", name="New sundae").click()
    pane_ready(ana, "expanded")
    expect(frame(ana).locator("#step-title")).to_have_text("Pick a base")
    expect(frame(ana).locator(".option")).to_have_count(4)
    canvases_painted(ana)
    shot(ana, "icecream-desktop-light-expanded-base")

    # picking a part stages the step in the composer (insert); nothing is sent yet
    choose(ana, "Waffle cone")
    staged = ana.locator(".staged-item[data-kind=app]")
    expect(staged).to_contain_text("Let's build an ice cream")
    expect(frame(ana).locator("#status")).to_contain_text("in the message box")
    assert app_rows(ana).count() == 0, "insert does not send"
    assert app_rows(ben).count() == 0
    shot(ana, "icecream-desktop-light-staged")
    send(ana)
    expect(staged).to_have_count(0)
    expect_bubble(ana, "Let's build an ice cream", "by Ana", "1 of 3")
    expect(frame(ana).locator("#status")).to_contain_text("Anyone can add the scoops")

    # Ben and Cy see the step; neither has the app, so each is offered to get it
    for page in (ben, cy):
        row = expect_bubble(page, "Let's build an ice cream", "by Ana", "1 of 3")
        expect(row.get_by_role("button", name=f"Get {APP}")).to_be_visible()
    shot(ben, "icecream-phone-dark-get-app")

    # Ben gets it from the bubble: installed, opened expanded on this sundae, at the scoops
    app_rows(ben).get_by_role("button", name=f"Get {APP}").click()
    pane_ready(ben, "expanded")
    expect(frame(ben).locator("#step-title")).to_have_text("Add the scoops")
    expect(frame(ben).locator(".step-done")).to_have_count(1)
    expect(frame(ben).locator(".step-done .step-name")).to_have_text("Base")
    expect(frame(ben).locator(".lead")).to_contain_text("Waffle cone")
    expect(frame(ben).locator(".option")).to_have_count(9)
    canvases_painted(ben)
    shot(ben, "icecream-phone-dark-expanded-scoops")
    choose(ben, "Mint chip")
    expect(ben.locator(".staged-item[data-kind=app]")).to_contain_text("I added some scoops")
    first_seq = int(app_rows(ben).get_attribute("data-seq"))
    send(ben)

    # one bubble for the sundae, moved to the bottom; the base step is now a summary line, everywhere
    for page in (ana, ben, cy):
        row = expect_bubble(page, "I added some scoops", "by Ana & Ben", "2 of 3")
        assert int(row.get_attribute("data-seq")) > first_seq
        expect(page.locator(f".summary[data-seq='{first_seq}']")).to_have_text("Ana started a sundae with a waffle cone")
    # Ana's app is still open (compact): it heard Ben's step and offers the next one
    expect(frame(ana).locator("#status")).to_contain_text("A friend added mint chip scoops")
    expect(frame(ana).get_by_role("button", name="Add the topping")).to_be_visible()
    shot(ana, "icecream-desktop-light-compact-turn")

    # Cy gets the app from the bubble too, and finishes the sundae
    second_seq = int(app_rows(cy).get_attribute("data-seq"))
    app_rows(cy).get_by_role("button", name=f"Get {APP}").click()
    pane_ready(cy, "expanded")
    expect(frame(cy).locator("#step-title")).to_have_text("Top it off")
    expect(frame(cy).locator(".step-done")).to_have_count(2)
    expect(frame(cy).locator(".option")).to_have_count(6)
    canvases_painted(cy)
    shot(cy, "icecream-desktop-dark-expanded-topping")
    choose(cy, "Rainbow sprinkles")
    expect(cy.locator(".staged-item[data-kind=app]")).to_contain_text("Our finished ice cream")
    send(cy)
    for page in (ana, ben, cy):
        expect_bubble(page, "Our finished ice cream", "by Ana, Ben & Cy", "Done!")
        expect(page.locator(".summary")).to_have_count(2)
        expect(page.locator(f".summary[data-seq='{second_seq}']")).to_have_text("Ben added mint chip scoops")
    shot(ben, "icecream-phone-dark-finished-bubble")

    # the finished sundae is a sticker: in Cy's history (she finished it) and in Ana's (her app saw it arrive)
    expect(frame(cy).locator(".sticker-tile")).to_have_count(1)
    expect(frame(cy).locator("#status")).to_contain_text("in your stickers")
    expect(frame(ana).locator(".sticker-tile")).to_have_count(1)
    expect(frame(ana).locator(".sticker-tile")).to_have_attribute("aria-label", "Sticker: Waffle cone, mint chip, rainbow sprinkles")
    canvases_painted(ana)
    shot(ana, "icecream-desktop-light-compact-stickers")

    # Ben taps the finished bubble: his open app selects it and expands on the finished sundae
    app_rows(ben).locator(".app-bubble").click()
    pane_ready(ben, "expanded")
    expect(frame(ben).locator("#finished-title")).to_have_text("Our finished ice cream")
    expect(frame(ben).locator(".step-done")).to_have_count(3)
    canvases_painted(ben)
    shot(ben, "icecream-phone-dark-expanded-finished")
    # "Send as a sticker" stages it in his composer and collapses the app
    frame(ben).get_by_role("button", name="Send as a sticker").click()
    pane_ready(ben, "compact")
    expect(ben.locator(".staged-item[data-kind=sticker]")).to_contain_text("Waffle cone, mint chip, rainbow sprinkles")
    expect(frame(ben).locator(".sticker-tile")).to_have_count(1)
    shot(ben, "icecream-phone-dark-compact-stickers")
    ben.locator(".staged-item[data-kind=sticker]").get_by_role("button", name=re.compile("^Remove")).click()
    expect(ben.locator(".staged-item")).to_have_count(0)

    # Ana taps her sticker: it waits in the composer; Send puts it in everyone's transcript
    frame(ana).locator(".sticker-tile").click()
    expect(ana.locator(".staged-item[data-kind=sticker]")).to_contain_text("Waffle cone, mint chip, rainbow sprinkles")
    expect(frame(ana).locator("#status")).to_contain_text("Sticker in the message box")
    send(ana)
    for page in (ana, ben, cy):
        sticker = page.locator("#transcript .row[data-seq][data-kind=sticker] img")
        expect(sticker).to_have_count(1)
        expect(sticker).to_have_attribute("alt", re.compile("Waffle cone, mint chip, rainbow sprinkles"))
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=sticker.element_handle())
    shot(cy, "icecream-desktop-dark-sticker-sent")

    # stickers can be stuck onto a bubble too: staged again, then dragged from the composer onto the sundae
    frame(ana).locator(".sticker-tile").click()
    staged_sticker = ana.locator(".staged-item[data-kind=sticker]")
    expect(staged_sticker).to_be_visible()
    finished = ana.locator("#transcript .row[data-seq][data-kind=app] .app-bubble")
    finished.scroll_into_view_if_needed()
    staged_sticker.drag_to(finished, target_position={"x": 60, "y": 40})
    expect(staged_sticker).to_have_count(0)
    for page in (ana, ben, cy):
        stuck = page.locator("#transcript .row[data-seq][data-kind=app] .stuck")
        expect(stuck).to_have_count(1)
        expect(stuck).to_have_attribute("alt", re.compile("Sticker from Ana: Waffle cone, mint chip, rainbow sprinkles"))
    stuck = cy.locator("#transcript .row[data-seq][data-kind=app] .stuck")
    stuck.scroll_into_view_if_needed()
    cy.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=stuck.element_handle())
    shot(cy, "icecream-desktop-dark-sticker-stuck")

    # the sticker history is per user and survives closing the app
    ana.locator("#app-pane").get_by_role("button", name=f"Close {APP}").click()
    expect(ana.locator("#app-pane")).to_be_hidden()
    open_from_drawer(ana, APP)
    expect(frame(ana).locator(".sticker-tile")).to_have_count(1)
    expect(frame(ana).locator("#status")).to_have_count(0)
    # expanded with no sundae selected: a new one, as in the seed
    ana.locator("#app-pane .pane-bar").get_by_role("button", name=f"Expand {APP}").click()
    pane_ready(ana, "expanded")
    expect(frame(ana).locator("#step-title")).to_have_text("Pick a base")


def test_two_people_take_the_same_step_at_once(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Race")
    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True)
    install_app(ana, APP)
    install_app(ben, APP)

    open_from_drawer(ana, APP)
    frame(ana).get_by_role("button", name="New sundae").click()
    pane_ready(ana, "expanded")
    choose(ana, "Paper cup")
    send(ana)
    expect_bubble(ben, "Let's build an ice cream", "by Ana", "1 of 3")

    # both open the sundae and pick scoops, each staging a step on the same version
    app_rows(ana).locator(".app-bubble").click()
    pane_ready(ana, "expanded")
    expect(frame(ana).locator("#step-title")).to_have_text("Add the scoops")
    app_rows(ben).locator(".app-bubble").click()
    pane_ready(ben, "expanded")
    expect(frame(ben).locator("#step-title")).to_have_text("Add the scoops")
    choose(ana, "Neapolitan")
    choose(ben, "Sorbet trio")
    expect(ana.locator(".staged-item[data-kind=app]")).to_contain_text("I added some scoops")
    expect(ben.locator(".staged-item[data-kind=app]")).to_contain_text("I added some scoops")

    # ... and both press Send at the same moment
    press = "document.querySelector('.send-button').click()"
    ana.evaluate(press)
    ben.evaluate(press)

    # exactly one step wins; both transcripts show it as the one bubble
    for p in (ana, ben):
        expect(app_rows(p).locator(".caption")).to_have_text("I added some scoops")
        expect(p.locator(".summary")).to_have_text(["Ana started a sundae with a paper cup"])
    winner = "Ben" if app_rows(ana).locator(".subcaption").inner_text() == "by Ana & Ben" else "Ana"
    won = "sorbet trio" if winner == "Ben" else "neapolitan"
    page, name = (ana, "Ana") if winner == "Ben" else (ben, "Ben")
    for p in (ana, ben):
        expect(app_rows(p).locator(".subcaption")).to_have_text("by Ana & Ben" if winner == "Ben" else "by Ana")

    # the slower one: the app opens expanded on the sundae that won, and carries on from it
    pane_ready(page, "expanded")
    expect(frame(page).locator("#notice")).to_contain_text(f"A friend added {won} scoops before yours was sent")
    expect(frame(page).locator("#step-title")).to_have_text("Top it off")
    expect(frame(page).locator(".lead")).to_contain_text(won)
    # the host marks the refused echo; the app already moved on
    expect(page.locator(".row.pending.failed")).to_contain_text("someone updated this first")
    shot(page, "icecream-conflict-slower")

    choose(page, "Cherry on top")
    send(page)
    names = "by Ana & Ben"
    for p in (ana, ben):
        expect_bubble(p, "Our finished ice cream", names, "Done!")
        expect(p.locator(".summary")).to_have_count(2)
    expect(page.locator(".summary").nth(1)).to_have_text(f"{winner} added {won} scoops")


def test_a_friends_step_updates_an_open_builder(people):
    ana = people.join("Ana", dark=True)
    link = create_conversation(ana, "Live")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    install_app(ana, APP)
    install_app(ben, APP)
    open_from_drawer(ana, APP)
    frame(ana).get_by_role("button", name="New sundae").click()
    pane_ready(ana, "expanded")
    choose(ana, "Chocolate-dipped cone")
    send(ana)

    # Ben is looking at the scoops when Ana adds them herself
    expect_bubble(ben, "Let's build an ice cream", "by Ana", "1 of 3")
    app_rows(ben).locator(".app-bubble").click()
    pane_ready(ben, "expanded")
    expect(frame(ben).locator("#step-title")).to_have_text("Add the scoops")
    app_rows(ana).locator(".app-bubble").click()
    pane_ready(ana, "expanded")
    choose(ana, "Berry blue")
    send(ana)

    # his open builder moves on by itself: the scoops are there, the topping is next
    expect(frame(ben).locator("#notice")).to_have_text("A friend added berry blue scoops.")
    expect(frame(ben).locator("#step-title")).to_have_text("Top it off")
    expect(frame(ben).locator(".step-done")).to_have_count(2)
    canvases_painted(ben)
    shot(ben, "icecream-desktop-light-live-update")
    choose(ben, "Whipped cream")
    send(ben)
    for page in (ana, ben):
        expect_bubble(page, "Our finished ice cream", "by Ana & Ben", "Done!")
    assert ben.locator(".row.pending.failed").count() == 0
