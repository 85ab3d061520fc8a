"""Tapbacks: Ana reacts to a bubble with the React button (keyboard, mouse, a tap on a
phone), Ben sees the chip live with who reacted in its name, a chip pressed takes
one's own back, and a reaction is neither unread nor news in the list."""

import re

from playwright.sync_api import expect

from a11y import axe_findings
from conftest import create_conversation, send_text, shot

LOVE = "\u2764\ufe0f"
LIKE = "\U0001f44d"
LAUGH = "\U0001f602"


def row(page, text):
    return page.locator(".row[data-seq]", has_text=text)


def react_button(page, text):
    return row(page, text).get_by_role("button", name=re.compile(r"^React to message: "))


def picker(page, text):
    return row(page, text).get_by_role("toolbar", name="Reactions")


def chip(page, text, name):
    return row(page, text).locator(".reaction-chip").filter(has=page.locator(f"xpath=self::*[@aria-label='{name}']"))


def two_in(people, title, **kw):
    ana = people.join("Ana", **kw)
    link = create_conversation(ana, title)
    ben = people.join("Ben", link.replace(people.server.base, ""))
    expect(ben.locator("#chat-title")).to_have_text(title)
    return ana, ben


def test_ana_reacts_with_the_keyboard_ben_sees_it_live_and_she_takes_it_back_with_the_chip(people):
    ana, ben = two_in(people, "Tapbacks")
    send_text(ben, "hi there")
    expect(row(ana, "hi there")).to_have_count(1)

    # the React button beside the time, named after the message; Enter opens the six
    button = react_button(ana, "hi there")
    expect(button).to_have_accessible_name("React to message: hi there")
    button.focus()
    ana.keyboard.press("Enter")
    six = picker(ana, "hi there")
    expect(six).to_be_visible()
    expect(six.get_by_role("button")).to_have_count(6)
    names = [six.get_by_role("button").nth(i).get_attribute("aria-label") for i in range(6)]
    assert names == ["Love", "Like", "Dislike", "Laugh", "Emphasize", "Question"]
    expect(six.get_by_role("button", name="Love", exact=True)).to_be_focused()
    expect(six.get_by_role("button", name="Love", exact=True)).to_have_attribute("aria-pressed", "false")
    # arrows move between them, wrapping
    ana.keyboard.press("ArrowLeft")
    expect(six.get_by_role("button", name="Question", exact=True)).to_be_focused()
    ana.keyboard.press("ArrowRight")
    ana.keyboard.press("ArrowRight")
    expect(six.get_by_role("button", name="Like", exact=True)).to_be_focused()
    shot(ana, "reactions-desktop-popup")
    # Escape closes it, the focus back on React
    ana.keyboard.press("Escape")
    expect(six).to_have_count(0)
    expect(button).to_be_focused()
    expect(button).to_have_attribute("aria-expanded", "false")

    ana.keyboard.press("Enter")
    expect(six.get_by_role("button", name="Love", exact=True)).to_be_focused()
    ana.keyboard.press("Enter")
    expect(six).to_have_count(0)
    expect(react_button(ana, "hi there")).to_be_focused()
    mine = row(ana, "hi there").locator(".reaction-chip")
    expect(mine).to_have_count(1)
    expect(mine).to_have_accessible_name("Love: you")
    expect(mine).to_have_text(f"{LOVE}1")
    expect(mine).to_have_attribute("aria-pressed", "true")

    # Ben, live: "❤️ 1", named for Ana, not his
    # and a screen reader is told, politely
    expect(ben.locator("#spoken")).to_have_text("Ana reacted Love to “hi there”")
    his = row(ben, "hi there").locator(".reaction-chip")
    expect(his).to_have_accessible_name("Love: Ana")
    expect(his).to_have_text(f"{LOVE}1")
    expect(his).to_have_attribute("aria-pressed", "false")
    shot(ben, "reactions-desktop-chip")

    # the popup says which is hers now; Ben adds his own love by the chip: two
    react_button(ana, "hi there").click()
    expect(picker(ana, "hi there").get_by_role("button", name="Love", exact=True)).to_have_attribute("aria-pressed", "true")
    # a click elsewhere closes it
    ana.locator(".transcript").click(position={"x": 8, "y": 8})
    expect(picker(ana, "hi there")).to_have_count(0)
    his.click()
    expect(row(ana, "hi there").locator(".reaction-chip")).to_have_accessible_name("Love: you and Ben")
    expect(row(ana, "hi there").locator(".reaction-chip")).to_have_text(f"{LOVE}2")
    expect(his).to_have_accessible_name("Love: you and Ana")
    assert axe_findings(ana, "reactions") == []

    # Ana takes hers back with the chip (keyboard): one left, Ben's
    ana_chip = row(ana, "hi there").locator(".reaction-chip")
    ana_chip.focus()
    ana.keyboard.press("Enter")
    expect(ana_chip).to_have_accessible_name("Love: Ben")
    expect(ana_chip).to_have_attribute("aria-pressed", "false")
    expect(ana_chip).to_be_focused()  # drawn again, the focus stays on it
    expect(his).to_have_accessible_name("Love: you")
    expect(his).to_have_text(f"{LOVE}1")


def test_a_reaction_is_not_unread_nor_the_lists_news(people):
    ana, ben = two_in(people, "Tapbacks")
    send_text(ana, "hello")
    expect(row(ben, "hello")).to_have_count(1)
    # Ben looks at another conversation
    create_conversation(ben, "Other")
    expect(ben).to_have_title("Other · Parlor")
    tapbacks = ben.locator(".conv-item", has_text="Tapbacks")
    expect(tapbacks).to_contain_text("hello")

    react_button(ana, "hello").click()
    picker(ana, "hello").get_by_role("button", name="Like", exact=True).click()
    expect(row(ana, "hello").locator(".reaction-chip")).to_have_accessible_name("Like: you")
    send_text(ana, "after")
    # only the message counts: one unread, not two; the list line is the message
    expect(tapbacks.locator(".badge")).to_have_text("1")
    expect(ben).to_have_title("(1) Other · Parlor")
    expect(tapbacks).to_contain_text("after")
    # back in it, the like is on her message
    tapbacks.locator("a").first.click()
    expect(row(ben, "hello").locator(".reaction-chip")).to_have_accessible_name("Like: Ana")
    expect(row(ben, "hello").locator(".reaction-chip")).to_have_text(f"{LIKE}1")


def within_viewport(page, locator):
    expect(locator).to_be_visible()  # drawn first: a box read before it is None
    box = locator.bounding_box()
    width = page.viewport_size["width"]
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box


def test_on_a_phone_ana_reacts_by_tap_to_her_own_bubble_and_bens(people):
    # in the dark scheme: the light one is the desktop test's
    ana = people.join("Ana", viewport=(390, 844), mobile=True, dark=True)
    link = create_conversation(ana, "Phones")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    send_text(ben, "coming tonight?")
    expect(row(ana, "coming tonight?")).to_have_count(1)
    send_text(ana, "yes, bringing dessert")
    expect(row(ana, "yes, bringing dessert")).to_have_class(re.compile(r"\bmine\b"))

    # her own bubble is on the right: the six open fully inside the screen
    react_button(ana, "yes, bringing dessert").tap()
    six = picker(ana, "yes, bringing dessert")
    expect(six).to_be_visible()
    inside, box = within_viewport(ana, six)
    assert inside, f"the popup is cut off at the screen's edge: {box}"
    for i in range(6):
        inside, box = within_viewport(ana, six.get_by_role("button").nth(i))
        assert inside and box["height"] >= 24, f"option {i} not reachable: {box}"
    shot(ana, "reactions-phone-dark-popup-own")
    six.get_by_role("button", name="Laugh", exact=True).tap()
    expect(six).to_have_count(0)
    own = row(ana, "yes, bringing dessert").locator(".reaction-chip")
    expect(own).to_have_accessible_name("Laugh: you")
    # stored: the chip is drawn again as no longer pending (measured before, it was gone)
    expect(own).not_to_have_class(re.compile(r"\bpending\b"))
    inside, box = within_viewport(ana, own)
    assert inside, box

    # and Ben's, on the left
    react_button(ana, "coming tonight?").tap()
    theirs = picker(ana, "coming tonight?")
    inside, box = within_viewport(ana, theirs)
    assert inside, f"the popup is cut off: {box}"
    theirs.get_by_role("button", name="Love", exact=True).tap()
    expect(row(ana, "coming tonight?").locator(".reaction-chip")).to_have_accessible_name("Love: you")
    shot(ana, "reactions-phone-dark-chips")
    expect(row(ben, "coming tonight?").locator(".reaction-chip")).to_have_accessible_name("Love: Ana")
    expect(row(ben, "yes, bringing dessert").locator(".reaction-chip")).to_have_text(f"{LAUGH}1")
    assert axe_findings(ana, "reactions-phone") == []

    # a tap on her chip takes it back, for Ben too
    own.tap()
    expect(own).to_have_count(0)
    expect(row(ben, "yes, bringing dessert").locator(".reaction-chip")).to_have_count(0)
    expect(row(ben, "coming tonight?").locator(".reaction-chip")).to_have_accessible_name("Love: Ana")


def test_the_popup_stays_open_when_someone_else_reacts_meanwhile(people):
    """Ben's reaction redraws the row under Ana's open popup: it stays open, on the
    tapback she was on, and now shows his chip; her choice goes through."""
    ana, ben = two_in(people, "Tapbacks")
    send_text(ben, "pizza tonight?")
    expect(row(ana, "pizza tonight?")).to_have_count(1)
    react_button(ana, "pizza tonight?").focus()
    ana.keyboard.press("Enter")
    ana.keyboard.press("End")
    ana.keyboard.press("ArrowLeft")
    six = picker(ana, "pizza tonight?")
    expect(six.get_by_role("button", name="Emphasize", exact=True)).to_be_focused()

    react_button(ben, "pizza tonight?").click()
    picker(ben, "pizza tonight?").get_by_role("button", name="Like", exact=True).click()
    expect(row(ana, "pizza tonight?").locator(".reaction-chip")).to_have_accessible_name("Like: Ben")
    expect(six).to_be_visible()
    expect(six.get_by_role("button", name="Emphasize", exact=True)).to_be_focused()
    ana.keyboard.press("Enter")
    expect(six).to_have_count(0)
    expect(row(ana, "pizza tonight?").locator(".reaction-chip")).to_have_count(2)
    expect(row(ben, "pizza tonight?").locator(".reaction-chip").nth(1)).to_have_accessible_name("Emphasize: Ana")
    expect(react_button(ana, "pizza tonight?")).to_be_focused()
