"""Ben types in a conversation: Ana sees "Ben is typing…" above her composer, and it
goes when his message arrives, when he empties his draft, or a few seconds after he
stops."""

import time

from playwright.sync_api import expect

from conftest import create_conversation, send_text, shot


def test_the_others_see_who_is_typing_until_the_message_comes(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Dinner")
    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True)
    expect(ben.locator("#chat-title")).to_have_text("Dinner")
    line = ana.locator(".typing-line")
    expect(line).to_be_hidden()

    composer = ben.locator("#composer-input")
    composer.press_sequentially("Pasta or")
    expect(line).to_have_text("Ben is typing…")
    # a screen reader hears it too: the line stands in a polite status region
    expect(ana.get_by_role("status").filter(has_text="Ben is typing…")).to_have_count(1)
    expect(ben.locator(".typing-line")).to_be_hidden()  # not to himself
    shot(ana, "typing-ben")
    # the line takes no room: the conversation did not move
    assert ana.evaluate("document.getElementById('transcript').getBoundingClientRect().bottom") == ana.evaluate(
        "document.querySelector('.composer-area').getBoundingClientRect().top")

    # emptied without sending: it goes
    composer.fill("")
    expect(line).to_be_hidden(timeout=3000)

    # sent: the message ends it at once, not when the notice runs out
    composer.press_sequentially(" pizza?")
    expect(line).to_have_text("Ben is typing…")
    ben.get_by_role("button", name="Send", exact=True).tap()  # a phone: return starts a line
    expect(ana.locator(".row:not(.mine) .text-bubble")).to_have_text(["pizza?"])
    expect(line).to_be_hidden(timeout=2000)

    # he stops typing without sending: it runs out (6 s after his last notice)
    composer.press_sequentially("hmm")
    expect(line).to_have_text("Ben is typing…")
    # the transcript's foot keeps room for it: the last message's time and buttons stay clear
    meta = ana.locator(".row", has_text="pizza?").locator(".meta").bounding_box()
    box = line.bounding_box()
    assert meta["y"] + meta["height"] <= box["y"], f"the line {box} over the last row's meta {meta}"
    started = time.monotonic()
    expect(line).to_be_hidden(timeout=10_000)
    assert time.monotonic() - started > 3, "the notice ended before its time"
    expect(ana.locator(".conv-item .conv-preview")).to_have_text("pizza?")


def test_two_typing_at_once_and_a_left_member_cannot_say_it(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Trip")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    cy = people.join("Cy", link.replace(people.server.base, ""))
    expect(ana.locator("#chat-presence")).to_contain_text("Cy")
    ben.locator("#composer-input").press_sequentially("Train")
    cy.locator("#composer-input").press_sequentially("Plane")
    expect(ana.locator(".typing-line")).to_have_text("Ben and Cy are typing…")
    # the conversation list says so too, in place of the last message
    expect(ana.locator(".conv-item", has_text="Trip").locator(".conv-preview")).to_have_text("Ben and Cy are typing…")
    expect(ben.locator(".typing-line")).to_have_text("Cy is typing…")


def test_the_typing_line_stands_clear_of_the_new_messages_pill_on_a_phone(people):
    ana = people.join("Ana", viewport=(390, 844), mobile=True)
    link = create_conversation(ana, "Chatty")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    for n in range(25):
        send_text(ben, f"line {n}")
    expect(ana.locator(".row[data-seq]", has_text="line 24")).to_have_count(1)
    ana.locator("#transcript").evaluate("t => { t.scrollTop = 0; }")
    send_text(ben, "one more")
    pill = ana.locator(".new-pill")
    expect(pill).to_be_visible()
    ben.locator("#composer-input").press_sequentially("and")
    line = ana.locator(".typing-line")
    expect(line).to_have_text("Ben is typing…")
    a, b = line.bounding_box(), pill.bounding_box()
    assert a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"], f"the line {a} under the pill {b}"
    shot(ana, "typing-above-the-pill")
