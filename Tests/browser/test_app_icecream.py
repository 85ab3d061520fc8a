"""Ice Cream Builder (seed 003) with three people: Ana starts a sundae (the
base), Ben adds the scoops, Cy tops it off. Each step is staged in the
composer (insert) and sent with Send; it is a message in the same session,
so the one bubble moves down and the earlier steps shrink to summaries.
Ben and Cy have not installed the app: they get it from the bubble. The
finished sundae becomes a sticker in each builder's compact view; tapping it
stages it in the composer. Concurrent moves (#13 item 3): three people add a
scoop at the same moment and every scoop ends up in the cone (a losing scoop
is staged again on top of the winner's); a move that no longer fits (a full
cone, a finished sundae) is asked about, and the host's red line about it
goes on Discard, on the next successful move, and on leaving for another app
or conversation."""

import re
import time

import pytest
from playwright.sync_api import expect

from conftest import (HeldAnswers, app_rows, create_conversation, did_transition_held, frame, app_hearing_did_transition_late, focused, expect_focus, keyboard_into_app,
                      install_app, open_from_drawer, pane_ready, press_send_button as send, shot)

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
    expect(frame(ben).locator("#step-title")).to_have_text("Add a scoop")
    expect(frame(ben).locator(".step-done")).to_have_count(1)
    expect(frame(ben).locator(".step-done .step-name")).to_have_text("Base")
    expect(frame(ben).locator(".lead")).to_contain_text("Waffle cone")
    expect(frame(ben).locator(".option")).to_have_count(10)
    canvases_painted(ben)
    shot(ben, "icecream-phone-dark-expanded-scoops")
    choose(ben, "Mint chip")
    expect(ben.locator(".staged-item[data-kind=app]")).to_contain_text("I added a scoop")
    first_seq = int(app_rows(ben).get_attribute("data-seq"))
    send(ben)

    # one bubble for the sundae, moved to the bottom; the base step is now a summary line, everywhere
    for page in (ana, ben, cy):
        row = expect_bubble(page, "I added a scoop", "by Ana & Ben", "2 of 3")
        assert int(row.get_attribute("data-seq")) > first_seq
        expect(page.locator(f".summary[data-seq='{first_seq}']")).to_have_text("Ana started a sundae with a waffle cone")
    # Ana's app is still open (compact): it heard Ben's step and offers the next one
    expect(frame(ana).locator("#status")).to_contain_text("A friend added a mint chip scoop")
    expect(frame(ana).get_by_role("button", name="Add to it")).to_be_visible()
    shot(ana, "icecream-desktop-light-compact-turn")

    # Cy gets the app from the bubble too, and finishes the sundae
    second_seq = int(app_rows(cy).get_attribute("data-seq"))
    app_rows(cy).get_by_role("button", name=f"Get {APP}").click()
    pane_ready(cy, "expanded")
    # another scoop still fits, or the topping
    expect(frame(cy).locator("#step-title")).to_have_text("Another scoop, or top it off")
    expect(frame(cy).locator(".step-done")).to_have_count(2)
    expect(frame(cy).locator(".options-scoops .option")).to_have_count(10)
    expect(frame(cy).locator(".options-topping .option")).to_have_count(6)
    canvases_painted(cy)
    shot(cy, "icecream-desktop-dark-expanded-topping")
    choose(cy, "Rainbow sprinkles")
    expect(cy.locator(".staged-item[data-kind=app]")).to_contain_text("Our finished ice cream")
    send(cy)
    for page in (ana, ben, cy):
        expect_bubble(page, "Our finished ice cream", "by Ana, Ben & Cy", "Done!")
        expect(page.locator(".summary")).to_have_count(2)
        expect(page.locator(f".summary[data-seq='{second_seq}']")).to_have_text("Ben added a mint chip scoop")
    shot(ben, "icecream-phone-dark-finished-bubble")

    # the finished sundae is a sticker: in Cy's history (she finished it) and in Ana's (her app saw it arrive)
    expect(frame(cy).locator(".sticker-tile")).to_have_count(1)
    expect(frame(cy).locator("#status")).to_contain_text("in your stickers")
    expect(frame(ana).locator(".sticker-tile")).to_have_count(1)
    expect(frame(ana).locator(".sticker-tile")).to_have_attribute("aria-label", "Sticker: Waffle cone, a mint chip scoop, rainbow sprinkles")
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
    expect(ben.locator(".staged-item[data-kind=sticker]")).to_contain_text("Waffle cone, a mint chip scoop, rainbow sprinkles")
    expect(frame(ben).locator(".sticker-tile")).to_have_count(1)
    shot(ben, "icecream-phone-dark-compact-stickers")
    ben.locator(".staged-item[data-kind=sticker]").get_by_role("button", name=re.compile("^Remove")).click()
    expect(ben.locator(".staged-item")).to_have_count(0)

    # Ana taps her sticker: it waits in the composer; Send puts it in everyone's transcript
    frame(ana).locator(".sticker-tile").click()
    expect(ana.locator(".staged-item[data-kind=sticker]")).to_contain_text("Waffle cone, a mint chip scoop, rainbow sprinkles")
    expect(frame(ana).locator("#status")).to_contain_text("Sticker in the message box")
    send(ana)
    for page in (ana, ben, cy):
        sticker = page.locator("#transcript .row[data-seq][data-kind=sticker] img")
        expect(sticker).to_have_count(1)
        expect(sticker).to_have_attribute("alt", re.compile("Waffle cone, a mint chip scoop, rainbow sprinkles"))
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
        expect(stuck).to_have_attribute("alt", re.compile("Sticker from Ana: Waffle cone, a mint chip scoop, rainbow sprinkles"))
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


def send_stored(page):
    """Send, and wait until the server has stored it: one more message in the transcript."""
    stored = page.locator("#transcript [data-seq]")
    n = stored.count()
    # the app's move reaches the composer through the bridge, after the pane is compact:
    # Send pressed before it is staged sends nothing (a fresh clone's make test failed so)
    expect(page.locator(".staged-item[data-kind=app]")).to_be_visible()
    send(page)
    expect(stored).to_have_count(n + 1)
    expect(page.locator("#transcript .row.pending:not(.failed)")).to_have_count(0)


def start_sundae(page, base):
    """From the open app: a new sundae with `base`, sent."""
    frame(page).get_by_role("button", name="New sundae").click()
    pane_ready(page, "expanded")
    choose(page, base)
    send_stored(page)


def open_bubble(page):
    """Opens the newest sundae's bubble."""
    app_rows(page).last.locator(".app-bubble").click()
    pane_ready(page, "expanded")


def expect_newest(page, caption, subcaption, trailing):
    row = app_rows(page).last
    expect(row.locator(".caption")).to_have_text(caption)
    expect(row.locator(".subcaption")).to_have_text(subcaption)
    expect(row.locator(".trailing-caption")).to_have_text(trailing)


def collapse(page):
    page.locator("#app-pane .pane-bar").get_by_role("button", name=f"Collapse {APP}").click()
    pane_ready(page, "compact")


def banner(page):
    """The host's red line over the composer about a refused app move."""
    return page.locator(".composer-area > .notice")


def press_send_at_once(pages, answers):
    """Sends pressed "at the same moment", whatever the machine's load: nobody hears of
    another's step (the first stored, the answers to the others) until every Send has
    reached the server. The clicks are one round trip to each page in turn; on a loaded
    machine the first step used to be stored and reach a later page before its click,
    its app put that scoop on top ("meanwhile"), and that Send went in too: two scoops
    in one round."""
    pages = list(pages)
    answers.hold()
    for p in pages:
        p.evaluate("document.querySelector('.send-button').click()")
    answers.wait_for_sends(pages[0], len(pages))
    answers.release()


# for outcome()'s message (one JS string each: the quotes inside are JS's)
CLASS_AND_TEXT = "(e) => e.map((x) => x.className + ' ' + x.textContent)"
HIDDEN_AND_TEXT = "(e) => e.map((x) => x.hidden + ' ' + x.textContent)"


def outcome(page, deadline):
    """After Send: "sent" (the app says so) or "merged" (its step is back in the
    message box on top of the one that won). Polled, bounded: the two are in
    different documents (the app's frame and the host)."""
    while True:
        if frame(page).locator("#status.status-sent").count():
            return "sent"
        if page.locator(".staged-item[data-kind=app]").count():
            return "merged"
        assert time.monotonic() < deadline, (
            "neither sent nor staged again: app status "
            f"{frame(page).locator('#status').evaluate_all(CLASS_AND_TEXT)!r}, "
            f"rows {page.locator('.row.pending').evaluate_all(CLASS_AND_TEXT)!r}, "
            f"notice {page.locator('.composer-area > .notice').evaluate_all(HIDDEN_AND_TEXT)!r}")
        page.wait_for_timeout(50)


def test_three_people_add_a_scoop_at_once_and_all_three_are_in(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Scoop race")
    path = link.replace(people.server.base, "")
    ben = people.join("Ben", path, viewport=(390, 844), mobile=True, dark=True)
    cy = people.join("Cy", path, viewport=(390, 844), mobile=True)
    everyone = {"Ana": ana, "Ben": ben, "Cy": cy}
    together = HeldAnswers()
    for p in everyone.values():
        together.watch(p, "Scoop race")
        install_app(p, APP)
    open_from_drawer(ana, APP)
    start_sundae(ana, "Waffle cone")

    # all three open the sundae and stage a scoop on the same version
    picks = {"Ana": "Mint chip", "Ben": "Chocolate", "Cy": "Strawberry"}
    for name, p in everyone.items():
        expect_bubble(p, "Let's build an ice cream", "by Ana", "1 of 3")
        open_bubble(p)
        expect(frame(p).locator("#step-title")).to_have_text("Add a scoop")
        choose(p, picks[name])
        expect(p.locator(".staged-item[data-kind=app]")).to_contain_text("I added a scoop")

    # ... and press Send at the same moment. One scoop goes in per round; each
    # losing scoop is put back in its sender's message box on top of the winner's
    # (the cone has room), never "Not sent", no red line; Send again, until all are in.
    waiting = dict(everyone)
    order = []
    for rounds in (1, 2, 3):
        press_send_at_once(waiting.values(), together)
        expect(ana.locator(".summary")).to_have_count(rounds)
        deadline = time.monotonic() + 15
        results = {name: outcome(p, deadline) for name, p in waiting.items()}
        won = [name for name, r in results.items() if r == "sent"]
        assert len(won) == 1, results
        order.append(won[0])
        del waiting[won[0]]
        for name, p in waiting.items():
            # (told "at the same time" when the refusal comes first, "meanwhile" when the winner's step does)
            expect(frame(p).locator("#status")).to_contain_text(re.compile(r"(at the same time|meanwhile); yours is on top\. Press Send"))
            expect(p.locator(".staged-item[data-kind=app]")).to_contain_text("I added a scoop")
            expect(p.locator(".row.pending.failed")).to_have_count(0)
            expect(banner(p)).to_be_hidden()
            if rounds == 1:
                shot(p, f"icecream-{'phone-dark' if p is ben else 'phone-light' if p is cy else 'desktop-light'}-scoop-merged")
    assert not waiting

    # one sundae with all three scoops, in the order they won; everyone is credited
    for p in everyone.values():
        row = expect_bubble(p, "I added a scoop", re.compile(r"^by Ana, (Ben & Cy|Cy & Ben)$"), "2 of 3")
        expect(p.locator(".summary")).to_have_text([
            "Ana started a sundae with a waffle cone",
            f"{order[0]} added a {picks[order[0]].lower()} scoop",
            f"{order[1]} added a {picks[order[1]].lower()} scoop",
        ])
        expect(p.locator(".row.pending")).to_have_count(0)
        expect(banner(p)).to_be_hidden()
    open_bubble(ana)
    expect(frame(ana).locator("#step-title")).to_have_text("Top it off")  # the cone is full
    lead = frame(ana).locator(".lead").inner_text()
    for n in order:
        assert picks[n].lower() in lead, lead
    canvases_painted(ana)
    shot(ana, "icecream-desktop-light-three-scoops")


def test_a_friends_scoop_arriving_first_goes_under_the_one_waiting_to_be_sent(people):
    ana = people.join("Ana", viewport=(390, 844), mobile=True)
    link = create_conversation(ana, "One Send")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    for p in (ana, ben):
        install_app(p, APP)
    open_from_drawer(ana, APP)
    start_sundae(ana, "Cake cone")
    expect_bubble(ben, "Let's build an ice cream", "by Ana", "1 of 3")

    # Ana's scoop waits in her message box while Ben's is sent
    open_bubble(ana)
    choose(ana, "Raspberry")
    staged = ana.locator(".staged-item[data-kind=app]")
    first = staged.get_attribute("data-key")
    open_bubble(ben)
    choose(ben, "Lemon sorbet")
    send_stored(ben)

    # her app puts hers on top of his at once: still in the message box, one Send sends it
    expect(frame(ana).locator("#status")).to_contain_text("A friend added a lemon sorbet scoop meanwhile; yours is on top. Press Send.")
    expect(staged).to_have_count(1)
    expect(staged).not_to_have_attribute("data-key", first)  # replaced by the merged one
    expect(staged).to_contain_text("I added a scoop")
    shot(ana, "icecream-phone-light-restaged")
    send_stored(ana)
    for p in (ana, ben):
        expect(app_rows(p).locator(".subcaption")).to_have_text("by Ana & Ben")
        expect(p.locator(".summary")).to_have_text([
            "Ana started a sundae with a cake cone", "Ben added a lemon sorbet scoop"])
    expect(ana.locator(".row.pending")).to_have_count(0)
    expect(banner(ana)).to_be_hidden()
    open_bubble(ben)
    expect(frame(ben).locator(".lead")).to_contain_text("Cake cone, lemon sorbet & raspberry scoops")


def race_that_cannot_merge(ana, ben, step, pick_ana, pick_ben):
    """Ana and Ben stage `step` on the same version; Ben's goes first and leaves
    no room for Ana's (the cone is full, or the sundae finished): Ana is asked."""
    open_bubble(ana)
    open_bubble(ben)
    choose(ana, pick_ana, "compact")
    choose(ben, pick_ben, "compact")
    send(ben)
    expect(frame(ana).locator("#status")).to_contain_text("before you sent yours")
    send(ana)
    pane_ready(ana, "expanded")
    expect(frame(ana).locator("#notice")).to_contain_text("before yours was sent")
    expect(ana.locator(".row.pending.failed")).to_contain_text("someone updated this first")
    expect(banner(ana)).to_contain_text("someone else played first")


def test_a_move_that_no_longer_fits_is_asked_about_and_the_red_line_goes(people):
    ana = people.join("Ana", dark=True)
    link = create_conversation(ana, "Full cone")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    for p in (ana, ben):
        install_app(p, APP)
    install_app(ana, "Party list")
    open_from_drawer(ana, APP)

    # 1. toppings at once: Ben's finishes the sundae; Discard clears the red line
    start_sundae(ana, "Paper cup")
    open_bubble(ana)
    choose(ana, "Vanilla bean")
    send_stored(ana)
    expect_newest(ben, "I added a scoop", "by Ana", "2 of 3")
    race_that_cannot_merge(ana, ben, "topping", "Cherry on top", "Hot fudge")
    expect(frame(ana).locator("#finished-title")).to_be_visible()
    shot(ana, "icecream-desktop-dark-conflict-asked")
    collapse(ana)
    shot(ana, "icecream-desktop-dark-conflict-red-line")
    ana.locator(".row.pending.failed").get_by_role("button", name="Discard").click()
    expect(ana.locator(".row.pending.failed")).to_have_count(0)
    expect(banner(ana)).to_be_hidden()

    # 2. a scoop into a full cone: Ana tops it off instead, and that send clears the line
    start_sundae(ana, "Cake cone")
    for scoop in ("Lemon sorbet", "Mango sorbet"):
        open_bubble(ana)
        choose(ana, scoop)
        send_stored(ana)
    expect_newest(ben, "I added a scoop", "by Ana", "2 of 3")
    race_that_cannot_merge(ana, ben, "scoops", "Raspberry", "Blueberry")
    expect(frame(ana).locator("#step-title")).to_have_text("Top it off")
    expect(frame(ana).locator(".options-scoops")).to_have_count(0)
    choose(ana, "Wafer sticks")
    send(ana)
    expect_newest(ana, "Our finished ice cream", "by Ana & Ben", "Done!")
    expect(ana.locator(".row.pending.failed")).to_have_count(0)
    expect(banner(ana)).to_be_hidden()

    # 3. asked again; opening another app leaves that move behind, and the red line with it
    start_sundae(ana, "Chocolate-dipped cone")
    open_bubble(ana)
    choose(ana, "Pistachio")
    send_stored(ana)
    expect_newest(ben, "I added a scoop", "by Ana", "2 of 3")
    race_that_cannot_merge(ana, ben, "topping", "Caramel drizzle", "Whipped cream")
    collapse(ana)
    expect(banner(ana)).to_be_visible()
    open_from_drawer(ana, "Party list")
    expect(banner(ana)).to_be_hidden()

    # 4. and going to another conversation
    open_from_drawer(ana, APP)
    start_sundae(ana, "Waffle cone")
    open_bubble(ana)
    choose(ana, "Cookies & cream")
    send_stored(ana)
    expect_newest(ben, "I added a scoop", "by Ana", "2 of 3")
    race_that_cannot_merge(ana, ben, "topping", "Cherry on top", "Rainbow sprinkles")
    create_conversation(ana, "Elsewhere")
    expect(banner(ana)).to_be_hidden()


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
    expect(frame(ben).locator("#step-title")).to_have_text("Add a scoop")
    app_rows(ana).locator(".app-bubble").click()
    pane_ready(ana, "expanded")
    choose(ana, "Blueberry")
    send(ana)

    # his open builder moves on by itself: the scoops are there, the topping is next
    expect(frame(ben).locator("#notice")).to_have_text("A friend added a blueberry scoop.")
    expect(frame(ben).locator("#step-title")).to_have_text("Another scoop, or top it off")
    expect(frame(ben).locator(".step-done")).to_have_count(2)
    canvases_painted(ben)
    shot(ben, "icecream-desktop-light-live-update")
    choose(ben, "Whipped cream")
    send(ben)
    for page in (ana, ben):
        expect_bubble(page, "Our finished ice cream", "by Ana & Ben", "Done!")
    assert ben.locator(".row.pending.failed").count() == 0


def test_a_step_chosen_before_the_app_hears_didtransition_still_goes_to_the_message_box(people):
    """A part tapped on the expanded view right after it shows (before didTransition
    reaches the app) is staged, and the pane goes back to compact so the message
    box shows: the app goes by the view it built at willTransition."""
    ana = app_hearing_did_transition_late(people, APP, "Quick hands")
    with did_transition_held(ana):
        frame(ana).get_by_role("button", name="New sundae").click()
        pane_ready(ana, "expanded")
        frame(ana).get_by_role("button", name="Waffle cone", exact=True).click()
    pane_ready(ana, "compact")
    expect(ana.locator(".staged-item[data-kind=app]")).to_contain_text("Let's build an ice cream")
    expect(frame(ana).locator("#status")).to_be_visible()
    send_stored(ana)
    expect_bubble(ana, "Let's build an ice cream", "by Ana", "1 of 3")




def test_the_focus_follows_each_step(people):
    """Keyboard only. New sundae puts the focus on the first base (not the top of the
    page); picking a cone puts the move in the message box and goes back to compact
    with the focus on the host's Send, which is next (it took a Shift+Tab out of the
    app to find it); a re-render while the person is in the host (their Send) leaves
    the focus in the host."""
    ana = keyboard_into_app(people, "Ana", "Sundae keys", APP)
    expect_focus(ana, "new-sundae")  # Tab into another process: the focus arrives a moment later
    ana.keyboard.press("Enter")
    pane_ready(ana, "expanded")
    expect(frame(ana).locator("#step-title")).to_have_text("Pick a base")
    expect_focus(ana, "Waffle cone")
    ana.keyboard.press("Tab")
    assert focused(ana) == "Cake cone"
    shot(ana, "icecream-keyboard-base")
    ana.keyboard.press("Enter")
    pane_ready(ana, "compact")
    staged = ana.locator(".staged-item[data-kind=app]")
    expect(staged).to_contain_text("Let's build an ice cream")
    expect(frame(ana).locator("#status")).to_contain_text("message box")
    send_button = ana.get_by_role("button", name="Send", exact=True)
    expect(send_button).to_be_focused()

    # Send is the host's: Enter sends, and the app's "Sent!" does not take the focus from there
    ana.keyboard.press("Enter")
    expect(staged).to_have_count(0)
    expect(frame(ana).locator("#status")).to_contain_text("Sent!")
    assert ana.evaluate("document.activeElement.tagName") != "IFRAME"
    assert focused(ana) == ""


def a_base_on_its_way(people, title):
    """Ana's first step (a waffle cone) sent, its answer held back by the server's side."""
    ana = people.join("Ana")
    create_conversation(ana, title)
    install_app(ana, APP)
    answers = HeldAnswers()
    answers.watch(ana, title)
    open_from_drawer(ana, APP)
    frame(ana).get_by_role("button", name="New sundae").click()
    pane_ready(ana, "expanded")
    choose(ana, "Waffle cone")
    expect(ana.locator(".staged-item[data-kind=app]")).to_be_visible()
    answers.hold()
    send(ana)
    answers.wait_for_sends(ana, 1)
    return ana, answers


def test_a_new_sundae_started_while_the_last_is_on_its_way_keeps_its_base(people):
    """New sundae pressed while the last step is still being sent (a slow network, a
    loaded machine): the sent step's late answer left the builder on the sent sundae,
    and the new one's base was refused as already taken (the pane stayed expanded)."""
    ana, answers = a_base_on_its_way(people, "Slow")
    frame(ana).get_by_role("button", name="New sundae").click()
    pane_ready(ana, "expanded")
    answers.release()
    expect(ana.locator("#transcript .row[data-seq][data-kind=app]")).to_have_count(1)
    choose(ana, "Paper cup")
    expect(ana.locator(".staged-item[data-kind=app]")).to_contain_text("Let's build an ice cream")


def test_a_tap_on_new_sundae_as_the_last_step_is_answered_is_not_lost(people):
    """The compact view was drawn again whole when a step's answer came in ("Sent!"): a
    tap on New sundae under way then (pressed on the old tile, released on the new one)
    did nothing. The status line now changes in place."""
    ana, answers = a_base_on_its_way(people, "Tap")
    pane_ready(ana, "compact")
    box = frame(ana).get_by_role("button", name="New sundae").bounding_box()
    ana.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ana.mouse.down()
    answers.release()
    expect(frame(ana).locator("#status")).to_contain_text("Sent!")
    ana.mouse.up()
    pane_ready(ana, "expanded")
    expect(frame(ana).get_by_role("button", name="Paper cup")).to_be_visible()
