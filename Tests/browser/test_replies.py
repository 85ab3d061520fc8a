"""Inline replies: Ana answers Ben's message with its Reply button (keyboard, and a tap on
a phone); a strip above the message box says to what, Escape or its close button cancels
it; Ben sees the quote above her reply live, and the quote takes him to the original,
scrolled into view and highlighted, paging history back to it when it is not loaded."""

import re

from playwright.sync_api import expect

from a11y import axe_findings
from conftest import ProtocolPerson, create_conversation, send_text, shot

FILLER = 60  # more than a page of history (50): after a reload the original is not loaded


def row(page, text):
    """The row whose bubble says `text` (a reply's quote may say it too)."""
    return page.locator(".row[data-seq]").filter(has=page.locator(".bubble", has_text=text))


def reply_button(page, text):
    return row(page, text).get_by_role("button", name=re.compile(r"^Reply to message: "))


def quote(page, text):
    """The quote above the reply whose bubble says `text`."""
    return row(page, text).locator(".reply-quote")


def in_view(page, locator):
    """Whether the element is inside the transcript's visible box."""
    return page.evaluate("""(el) => {
      const t = document.getElementById("transcript").getBoundingClientRect();
      const r = el.getBoundingClientRect();
      return r.height > 0 && r.top >= t.top - 1 && r.bottom <= t.bottom + 1;
    }""", locator.element_handle())


def invite_of(link):
    return link.rsplit("/", 1)[-1]


def test_ana_replies_with_the_keyboard_ben_sees_the_quote_and_it_takes_him_to_the_original(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Replies")
    ben = people.join("Ben", link.replace(people.server.base, ""), dark=True)
    expect(ben.locator("#chat-title")).to_have_text("Replies")
    send_text(ben, "lunch at noon?")
    expect(row(ana, "lunch at noon?")).to_have_count(1)

    # a third person fills the conversation fast: the question scrolls far up
    cat = ProtocolPerson(people.server, "Cat")
    try:
        cid = cat.call("conversations.join", invite=invite_of(link))["conversation"]["id"]
        for n in range(FILLER):
            cat.send_text(cid, f"filler {n}")
    finally:
        cat.close()
    expect(row(ana, f"filler {FILLER - 1}")).to_have_count(1)
    expect(row(ben, f"filler {FILLER - 1}")).to_have_count(1)

    # Escape cancels a reply begun; what is sent then answers nothing
    button = reply_button(ana, f"filler {FILLER - 1}")
    expect(button).to_have_accessible_name(f"Reply to message: filler {FILLER - 1}")
    button.focus()
    ana.keyboard.press("Enter")
    strip = ana.locator(".reply-strip")
    expect(strip).to_be_visible()
    expect(strip).to_contain_text("Replying to Cat")
    expect(ana.locator("#composer-input")).to_be_focused()
    ana.keyboard.press("Escape")
    expect(strip).to_be_hidden()
    expect(ana.locator("#composer-input")).to_be_focused()

    # Reply (keyboard), type, Enter
    button = reply_button(ana, "lunch at noon?")
    expect(button).to_have_accessible_name("Reply to message: lunch at noon?")
    button.focus()
    ana.keyboard.press("Enter")
    expect(strip).to_contain_text("Replying to Ben")
    expect(strip).to_contain_text("lunch at noon?")
    expect(strip.get_by_role("button", name="Cancel reply")).to_be_visible()
    expect(ana.locator("#composer-input")).to_be_focused()
    # told, not shown (what else is said in the same moment is said with it)
    expect(ana.locator("#spoken")).to_contain_text("Replying to Ben: lunch at noon?")
    ana.keyboard.type("yes, at the usual place")
    shot(ana, "replies-desktop-strip")
    ana.keyboard.press("Enter")
    expect(strip).to_be_hidden()
    mine = row(ana, "yes, at the usual place")
    expect(mine).to_have_count(1)
    expect(mine).to_have_attribute("data-seq", re.compile(r"\d+"))  # stored, not the pending echo
    expect(quote(ana, "yes, at the usual place")).to_have_accessible_name("Reply to Ben: lunch at noon?. Show the message")

    # Ben, live: the quote above her reply, who and what
    his = quote(ben, "yes, at the usual place")
    expect(his).to_have_accessible_name("Reply to you: lunch at noon?. Show the message")
    expect(his.locator(".reply-quote-who")).to_have_text("You")
    expect(his.locator(".reply-quote-line")).to_have_text("lunch at noon?")
    # a screen reader is told whom it answers, as it arrives
    expect(ben.locator("#spoken")).to_contain_text("Ana, replying to you: yes, at the usual place")
    original = row(ben, "lunch at noon?")
    assert not in_view(ben, original), "the original should be out of view before the quote is used"
    shot(ben, "replies-desktop-dark-quote")
    assert axe_findings(ben, "replies") == []

    # the quote (keyboard): to the original, in view, highlighted, with the focus
    his.focus()
    ben.keyboard.press("Enter")
    expect(original).to_have_class(re.compile(r"\bhighlighted\b"))
    expect(original).to_be_focused()
    assert in_view(ben, original)
    shot(ben, "replies-desktop-dark-highlight")
    # the highlight passes
    expect(original).not_to_have_class(re.compile(r"\bhighlighted\b"), timeout=5000)

    # after a reload the original is older than the page held: the quote says so, and
    # activating it pages history back to it
    ben.reload()
    expect(row(ben, "yes, at the usual place")).to_have_count(1)
    expect(row(ben, "lunch at noon?")).to_have_count(0)
    his = quote(ben, "yes, at the usual place")
    expect(his).to_have_accessible_name("Reply to an earlier message. Show the message")
    his.click()
    expect(row(ben, "lunch at noon?")).to_have_class(re.compile(r"\bhighlighted\b"))
    assert in_view(ben, row(ben, "lunch at noon?"))
    # now loaded, the quote names it
    expect(his).to_have_accessible_name("Reply to you: lunch at noon?. Show the message")


def test_on_a_phone_ana_replies_by_tap_and_the_pending_reply_shows_its_quote(people):
    ana = people.join("Ana", viewport=(390, 844), mobile=True, dark=True)
    link = create_conversation(ana, "Phones")
    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True)
    send_text(ben, "who brings the cake? " + "it has to be chocolate, " * 6)
    expect(row(ana, "who brings the cake?")).to_have_count(1)

    reply_button(ana, "who brings the cake?").tap()
    strip = ana.locator(".reply-strip")
    expect(strip).to_be_visible()
    expect(strip).to_contain_text("Replying to Ben")
    # one line, cut with an ellipsis, inside the screen
    line = strip.locator(".reply-strip-line")
    assert line.evaluate("el => el.textContent.endsWith('…')")
    box = strip.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    shot(ana, "replies-phone-dark-strip")
    # the close button cancels it; Reply again, then send by tap
    strip.get_by_role("button", name="Cancel reply").tap()
    expect(strip).to_be_hidden()
    reply_button(ana, "who brings the cake?").tap()
    expect(strip).to_be_visible()
    ana.locator("#composer-input").fill("me!")
    ana.get_by_role("button", name="Send").tap()
    expect(strip).to_be_hidden()
    q = quote(ana, "me!")
    expect(q).to_have_accessible_name(re.compile(r"^Reply to Ben: who brings the cake\? it has to be .*…\. Show the message$"))
    expect(row(ana, "me!")).to_have_attribute("data-seq", re.compile(r"\d+"))
    box = q.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    shot(ana, "replies-phone-dark-sent")

    theirs = quote(ben, "me!")
    expect(theirs).to_have_accessible_name(re.compile(r"^Reply to you: who brings the cake\?"))
    # tapbacks on the original and on the reply: their chips and the quote each in their place
    for text in ("who brings the cake?", "me!"):
        row(ben, text).get_by_role("button", name=re.compile(r"^React to message: ")).tap()
        row(ben, text).get_by_role("toolbar", name="Reactions").get_by_role("button", name="Love", exact=True).tap()
        expect(row(ben, text).locator(".reaction-chip:not(.pending)")).to_have_count(1)
    chips = row(ben, "who brings the cake?").locator(".reaction-chip").bounding_box()
    top = theirs.bounding_box()
    assert chips["y"] + chips["height"] <= top["y"], f"the chips run into the quote below: {chips} {top}"
    shot(ben, "replies-phone-light-quote")
    theirs.tap()
    expect(row(ben, "who brings the cake?")).to_have_class(re.compile(r"\bhighlighted\b"))
    assert axe_findings(ana, "replies-phone") == []


RECONNECT = 30_000  # the backoff tops out at 15 s


def test_a_reply_made_offline_shows_its_quote_while_it_waits_and_goes_with_it(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Offline replies")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    send_text(ben, "dinner at eight?")
    expect(row(ana, "dinner at eight?")).to_have_count(1)

    ana.context.set_offline(True)
    expect(ana.locator("#offline-banner")).to_be_visible()
    reply_button(ana, "dinner at eight?").click()
    expect(ana.locator(".reply-strip")).to_contain_text("Replying to Ben")
    ana.keyboard.type("on my way")
    ana.keyboard.press("Enter")
    waiting = ana.locator(".row.pending").filter(has=ana.locator(".bubble", has_text="on my way"))
    expect(waiting.locator(".reply-quote")).to_have_accessible_name("Reply to Ben: dinner at eight?. Show the message")
    shot(ana, "replies-desktop-offline-pending")

    ana.context.set_offline(False)
    expect(ana.locator("#offline-banner")).to_be_hidden(timeout=RECONNECT)
    expect(row(ana, "on my way")).to_have_count(1, timeout=RECONNECT)
    expect(quote(ben, "on my way")).to_have_accessible_name("Reply to you: dinner at eight?. Show the message")
