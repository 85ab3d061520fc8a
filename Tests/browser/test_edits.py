"""Editing a sent text, as in Messages: Ana's Edit button (keyboard, and a tap on a
phone) puts her message in the box with "Editing message" above it; Escape cancels and
gives her draft back, Enter saves. Ben sees the new words live with "Edited", in the
quote of his reply to it and in the conversation list; his reaction stays on it."""

import re

import pytest
from playwright.sync_api import expect

from a11y import axe_findings
from conftest import create_conversation, send_text, shot


def row(page, text):
    """The stored row whose bubble says `text` (a reply's quote may say it too)."""
    return page.locator(".row[data-seq]").filter(has=page.locator(".bubble", has_text=text))


def edit_button(page, text):
    return row(page, text).get_by_role("button", name=re.compile(r"^Edit message: "))


def test_ana_edits_with_the_keyboard_and_ben_sees_it_live(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Edits")
    ben = people.join("Ben", link.replace(people.server.base, ""), dark=True)
    expect(ben.locator("#chat-title")).to_have_text("Edits")
    send_text(ana, "see you at 5pm")
    expect(row(ben, "see you at 5pm")).to_have_count(1)
    # Ben answers it and loves it
    row(ben, "see you at 5pm").get_by_role("button", name=re.compile(r"^Reply to message: ")).click()
    ben.keyboard.type("ok!")
    ben.keyboard.press("Enter")
    expect(row(ana, "ok!")).to_have_count(1)
    row(ben, "see you at 5pm").get_by_role("button", name=re.compile(r"^React to message: ")).click()
    ben.get_by_role("button", name="Love", exact=True).click()
    expect(row(ana, "see you at 5pm").locator(".reaction-chip")).to_have_count(1)

    # only one's own texts have Edit
    expect(row(ben, "see you at 5pm").get_by_role("button", name=re.compile(r"^Edit"))).to_have_count(0)
    expect(edit_button(ana, "ok!")).to_have_count(0)

    # a draft waits while Ana edits; Escape cancels and gives it back
    box = ana.locator("#composer-input")
    box.fill("an unsent draft")
    button = edit_button(ana, "see you at 5pm")
    expect(button).to_have_accessible_name("Edit message: see you at 5pm")
    button.focus()
    ana.keyboard.press("Enter")
    strip = ana.locator(".edit-strip")
    expect(strip).to_be_visible()
    expect(strip).to_contain_text("Editing message")
    expect(strip.get_by_role("button", name="Cancel edit")).to_be_visible()
    expect(box).to_be_focused()
    expect(box).to_have_value("see you at 5pm")
    expect(box).to_have_accessible_name("Edit message")
    expect(row(ana, "see you at 5pm")).to_have_class(re.compile(r"\bediting\b"))
    ana.keyboard.press("Escape")
    expect(strip).to_be_hidden()
    expect(ana.locator(".row.editing")).to_have_count(0)
    expect(box).to_have_value("an unsent draft")
    expect(box).to_be_focused()

    # Edit, new words, Enter
    edit_button(ana, "see you at 5pm").focus()
    ana.keyboard.press("Enter")
    expect(box).to_have_value("see you at 5pm")
    ana.keyboard.press("Backspace")
    ana.keyboard.press("Backspace")
    ana.keyboard.press("Backspace")
    ana.keyboard.type("6pm")
    shot(ana, "edits-desktop-editing")
    ana.keyboard.press("Enter")
    expect(strip).to_be_hidden()
    expect(box).to_have_value("an unsent draft")
    mine = row(ana, "see you at 6pm")
    expect(mine).to_have_count(1)
    expect(mine.locator(".edited")).to_have_text("Edited")
    expect(row(ana, "see you at 5pm")).to_have_count(0)

    # Ben, live: the new words, "Edited", his reaction still on it, his quote says it too
    his = row(ben, "see you at 6pm")
    expect(his).to_have_count(1)
    expect(his.locator(".edited")).to_have_text("Edited")
    expect(his.locator(".reaction-chip")).to_have_count(1)
    expect(row(ben, "ok!").locator(".reply-quote-line")).to_have_text("see you at 6pm")
    # a screen reader is told, as of a message that arrives
    expect(ben.locator("#spoken")).to_contain_text("Ana edited a message: see you at 6pm")
    # what a screen reader reads of the row has the label with the bubble
    assert re.search(r"see you at 6pm.*Edited", his.inner_text(), re.S), his.inner_text()
    shot(ben, "edits-desktop-dark-edited")
    shot(ana, "edits-desktop-edited")
    assert axe_findings(ben, "edits") == []
    assert axe_findings(ana, "edits") == []

    # the last message edited: the conversation list's line says its new words
    send_text(ana, "bring the cake")
    expect(row(ben, "bring the cake")).to_have_count(1)
    edit_button(ana, "bring the cake").focus()
    ana.keyboard.press("Enter")
    expect(box).to_have_value("bring the cake")
    box.fill("bring the pie")
    ana.keyboard.press("Enter")
    expect(row(ben, "bring the pie")).to_have_count(1)
    expect(ben.locator(".conv-item .conv-preview")).to_have_text("bring the pie")
    expect(ana.locator(".conv-item .conv-preview")).to_have_text("You: bring the pie")
    # and Ben, after a reload, reads it as it is now
    ben.reload()
    expect(row(ben, "bring the pie").locator(".edited")).to_have_text("Edited")
    expect(row(ben, "see you at 6pm")).to_have_count(1)


def test_on_a_phone_ana_edits_by_tap(people):
    ana = people.join("Ana", viewport=(390, 844), mobile=True, dark=True)
    link = create_conversation(ana, "Phones")
    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True)
    send_text(ana, "meet at the parc at noon, by the fountain near the north gate")
    expect(row(ben, "meet at the parc")).to_have_count(1)

    edit_button(ana, "meet at the parc").tap()
    box = ana.locator("#composer-input")
    expect(ana.locator(".edit-strip")).to_be_visible()
    expect(box).to_have_value("meet at the parc at noon, by the fountain near the north gate")
    box.fill("meet at the park at noon, by the fountain near the north gate")
    shot(ana, "edits-phone-dark-editing")
    ana.get_by_role("button", name="Save edit").tap()
    expect(ana.locator(".edit-strip")).to_be_hidden()
    expect(row(ana, "meet at the park").locator(".edited")).to_be_visible()
    his = row(ben, "meet at the park")
    expect(his.locator(".edited")).to_be_visible()
    shot(ana, "edits-phone-dark")
    shot(ben, "edits-phone-light")
    assert axe_findings(ana, "edits phone") == []
    assert axe_findings(ben, "edits phone") == []


@pytest.mark.full_chromium
def test_a_notification_tells_the_new_words_and_the_edit_counts_for_nothing(people):
    from test_attention import ana_who_can_look_away, away, ben_joins, conversation_id, shown_when, turn_on_notifications

    # here Ana is told (she looks away), Ben edits
    ana = ana_who_can_look_away(people)
    ben = ben_joins(people, ana, "Told")
    turn_on_notifications(ana, "also in the background")
    away(ana)
    send_text(ben, "the code is 4471")
    expect(ana).to_have_title("(1) Told · Parlor")
    shown_when(ana, lambda n: n and n[0]["body"] == "Ben: the code is 4471", "the message told")
    edit_button(ben, "the code is 4471").focus()
    ben.keyboard.press("Enter")
    ben.locator("#composer-input").fill("the code is 4417")
    ben.keyboard.press("Enter")
    assert shown_when(ana, lambda n: n and n[0]["body"] != "Ben: the code is 4471", "the notification in the new words") == [
        {"title": "Told", "body": "Ben: the code is 4417", "tag": f"parlor:{conversation_id(ana)}"}]
    # still one unread message: the edit is not another
    expect(ana).to_have_title("(1) Told · Parlor")
    expect(ana.locator(".conv-item .badge")).to_have_text("1")
    expect(ana.locator(".conv-item .conv-preview")).to_have_text("the code is 4417")
