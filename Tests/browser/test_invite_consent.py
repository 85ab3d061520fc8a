"""Opening an invite link asks before joining (issue #8): joining shows your name
and when you are online to the members, so nothing is joined, and nobody hears
of you, until you say Join."""

import re

from playwright.sync_api import expect

from conftest import LATE_TIMERS, answer_invite, create_conversation, send_text, shot

ALONE = "Just you so far — invite someone"


def nobody_joined(ana, title):
    """Ana's header still says she is alone. She makes a round trip first (asks for an
    invite link): the server answers it after any member news it had for her, so a
    join that happened before this point would show by now."""
    ana.locator(".chat-header").get_by_role("button", name="Invite people (copy link)").click()
    invite = ana.locator("#invite[open]")
    expect(invite.locator("#invite-link")).to_have_value(re.compile(r"/#/join/"))
    invite.get_by_role("button", name="Done").click()
    expect(invite).to_have_count(0)
    expect(ana.locator("#chat-title")).to_have_text(title)
    expect(ana.locator("#chat-presence")).to_have_text(ALONE)


def test_a_signed_in_person_is_asked_and_not_now_joins_nothing(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Friday games")
    send_text(ana, "Welcome, whoever comes")
    expect(ana.locator(".row[data-seq] .text-bubble")).to_have_text(["Welcome, whoever comes"])
    expect(ana.locator("#chat-presence")).to_have_text(ALONE)

    ben = people.join("Ben")
    ben.goto(link)
    ask = ben.locator("#join-invite[open]")
    expect(ask.locator("h2")).to_have_text("Join “Friday games”?")
    expect(ask.locator("p")).to_have_text("Its 1 member will see your name (Ben) and when you are online. You will read what was said before you joined.")
    expect(ask.get_by_role("button", name="Join", exact=True)).to_be_focused()
    shot(ben, "desktop-light-join-question")
    nobody_joined(ana, "Friday games")

    # Escape is Not now: back where he was (the list), the invite gone from the address
    ben.keyboard.press("Escape")
    expect(ask).to_have_count(0)
    expect(ben).to_have_url(re.compile(r"/#/$"))
    expect(ben.get_by_role("button", name="New conversation")).to_be_focused()
    expect(ben.locator(".conv-item")).to_have_count(0)
    nobody_joined(ana, "Friday games")

    # after a reload the server's list still lacks it, and nothing asks again
    ben.reload()
    ben.locator(".me .name", has_text="Ben").wait_for(state="attached")
    ben.goto(link)
    expect(ask.locator("h2")).to_have_text("Join “Friday games”?")  # the list came first (then the route)
    expect(ben.locator(".conv-item")).to_have_count(0)
    nobody_joined(ana, "Friday games")

    # Join: he is in and sees what was said; Ana sees him
    answer_invite(ben, "Join")
    expect(ben.locator("#chat-title")).to_have_text("Friday games")
    expect(ben).to_have_url(re.compile(r"/#/c/"))
    expect(ben.locator(".row[data-seq] .text-bubble")).to_have_text(["Welcome, whoever comes"])
    expect(ben.locator("#composer-input")).to_be_focused()
    expect(ben.locator(".conv-item", has_text="Friday games")).to_have_count(1)
    expect(ana.locator("#chat-presence")).to_contain_text("Ben online")

    # a member opening the link again just goes there
    ben.goto(people.server.base + "/#/")
    expect(ben.locator("#shell")).to_have_attribute("data-view", "list")
    ben.goto(link)
    expect(ben).to_have_url(re.compile(r"/#/c/"))
    expect(ben.locator("#chat-title")).to_have_text("Friday games")
    expect(ask).to_have_count(0)


def test_a_first_visit_through_a_link_asks_after_the_name(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Book club")

    cy = people.open(link.replace(people.server.base, ""), viewport=(390, 844), mobile=True, dark=True)
    expect(cy.locator("#welcome")).to_contain_text("invited to a conversation")
    expect(cy.locator("#welcome")).to_contain_text("Pick the name the others there will see")
    # who becomes the server's admin is its owner's matter, not an invitee's
    expect(cy.locator("#welcome .welcome-note")).to_be_hidden()
    cy.fill("#welcome-name", "Cy")
    cy.get_by_role("button", name="Continue").click()
    ask = cy.locator("#join-invite[open]")
    expect(ask.locator("h2")).to_have_text("Join “Book club”?")
    expect(ask.locator("p")).to_have_text("Its 1 member will see your name (Cy) and when you are online. You will read what was said before you joined.")
    expect(ask.get_by_role("button", name="Join", exact=True)).to_be_focused()
    shot(cy, "phone-dark-join-question")
    nobody_joined(ana, "Book club")

    answer_invite(cy, "Join")
    expect(cy.locator("#chat-title")).to_have_text("Book club")
    expect(ana.locator("#chat-presence")).to_contain_text("Cy online")


def test_not_now_keeps_the_open_conversation_and_a_dead_link_says_so(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Friday games")
    send_text(ana, "Anyone?")

    dee = people.join("Dee", dark=True)
    create_conversation(dee, "Dee's notes")
    here = dee.url
    dee.goto(link)
    ask = dee.locator("#join-invite[open]")
    expect(ask.locator("h2")).to_have_text("Join “Friday games”?")
    shot(dee, "desktop-dark-join-question")
    answer_invite(dee, "Not now")
    expect(dee).to_have_url(here)
    expect(dee.locator("#chat-title")).to_have_text("Dee's notes")
    expect(dee.locator("#composer-input")).to_be_focused()
    expect(dee.locator(".conv-item", has_text="Friday games")).to_have_count(0)
    nobody_joined(ana, "Friday games")

    # a link that leads nowhere says so, and joins nothing
    dee.goto(people.server.base + "/#/join/no-such-invite")
    dead = dee.locator("#join-invite[open]")
    expect(dead.locator("h2")).to_have_text("This invite link is not valid any more")
    expect(dead.get_by_role("button", name="OK")).to_be_focused()
    expect(dead.get_by_role("button", name="Join", exact=True)).to_be_hidden()
    dead.get_by_role("button", name="OK").click()
    expect(dead).to_have_count(0)
    expect(dee).to_have_url(here)
    expect(dee.locator("#composer-input")).to_be_focused()


def test_the_question_on_a_phone_in_light(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "A conversation with a rather long title to wrap on a phone")
    eve = people.join("Eve", viewport=(390, 844), mobile=True)
    eve.goto(link)
    ask = eve.locator("#join-invite[open]")
    expect(ask.locator("h2")).to_contain_text("rather long title")
    shot(eve, "phone-light-join-question")
    answer_invite(eve, "Not now")
    expect(eve.get_by_role("button", name="New conversation")).to_be_focused()


def test_after_joining_the_first_keys_go_into_the_message_box(people):
    """Joining through an invite ends at the recovery key's Done, and the focus goes back
    to the message box; Chromium gave it back without its caret (the page's selection
    stayed in the dialog), and what the person typed next went nowhere until a click.
    The caret must be there as soon as the dialog has closed, not a timer later: CI's
    busy host typed the first letter before a zero-delay timer had put it back."""
    ana = people.join("Ana")
    link = create_conversation(ana, "First words")
    ben = people.open(link.replace(people.server.base, ""))
    ben.fill("#welcome-name", "Ben")
    ben.get_by_role("button", name="Continue").click()
    answer_invite(ben, "Join")
    dialog = ben.locator("#recovery[open]")
    dialog.wait_for()
    ben.locator("#recovery-saved").check()
    ben.evaluate(LATE_TIMERS % 400)  # the page's timers late, as on a loaded phone
    dialog.get_by_role("button", name="Done").click()
    ben.keyboard.type("Hello all")
    expect(dialog).to_have_count(0)
    expect(ben.locator("#chat-title")).to_have_text("First words")
    expect(ben.locator("#composer-input")).to_be_focused()
    expect(ben.locator("#composer-input")).to_have_value("Hello all")


def test_one_who_left_comes_back_through_a_new_invite(people):
    """Leaving says "you will need a new invite to come back"; opening one only showed
    the conversation again, read-only, with no way to join."""
    ana = people.join("Ana")
    link = create_conversation(ana, "Book club")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    expect(ben.locator("#chat-title")).to_have_text("Book club")
    ben.get_by_role("button", name="Members and settings of this conversation").click()
    ben.get_by_role("button", name="Leave conversation").click()
    ben.locator("#confirm[open]").get_by_role("button", name="Leave").click()
    expect(ben.locator("#left-banner")).to_contain_text("You left this conversation")
    send_text(ana, "missed you")

    ben.goto(link)
    answer_invite(ben, "Join")
    expect(ben.locator("#left-banner")).to_be_hidden()
    expect(ben.locator(".row:not(.mine) .text-bubble").last).to_have_text("missed you")
    send_text(ben, "back again")
    expect(ana.locator(".row:not(.mine) .text-bubble").last).to_have_text("back again")
