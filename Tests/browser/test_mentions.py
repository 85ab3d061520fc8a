"""Mentions and notification levels: Ben types "@a" and picks Ana with the keyboard;
Ana, on a phone in dark mode, sees "@" beside the conversation in her list and her
name marked in the bubble. Ana sets a conversation to "Mentions only" on her laptop;
her phone shows the same choice and tells her only of the message that mentions her."""

import re

import pytest
from playwright.sync_api import expect

from a11y import axe_findings
from conftest import create_conversation, send_text
from test_attention import AWAY, away, shown_when, turn_on_notifications
from test_multidevice import add_device

SHOTS = "/tmp/mentions"

def test_ben_mentions_ana_by_keyboard_and_she_sees_it_marked(people):
    ben = people.join("Ben")
    link = create_conversation(ben, "Plans")
    ana = people.join("Ana", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True, dark=True)
    expect(ana.locator("#chat-title")).to_have_text("Plans")
    ana.evaluate("location.hash = '#/'")  # on her list, so what comes is unread

    box = ben.locator("#composer-input")
    box.focus()
    ben.keyboard.type("@a")
    options = ben.get_by_role("listbox", name="People to mention").get_by_role("option")
    expect(options).to_have_text(["Ana"])
    expect(box).to_have_attribute("aria-activedescendant", "mention-option-0")
    expect(options.first).to_have_attribute("aria-selected", "true")
    ben.screenshot(path=f"{SHOTS}/ben-desktop-light-list.png")
    assert axe_findings(ben, "mention list") == []
    ben.keyboard.press("Enter")  # picks, does not send
    expect(box).to_have_value("@Ana ")
    expect(ben.get_by_role("listbox", name="People to mention")).to_be_hidden()
    ben.keyboard.type("look at this")
    ben.keyboard.press("Enter")
    expect(box).to_have_value("")

    item = ana.locator(".conv-item", has_text="Plans").locator("a")
    expect(item).to_have_accessible_name(re.compile(r"^Plans, 1 unread, mentions you: "))
    expect(item.locator(".mention-badge")).to_have_text("@")
    ana.screenshot(path=f"{SHOTS}/ana-phone-dark-list.png")
    item.tap()
    mark = ana.locator("#transcript .bubble mark.mention")
    expect(mark).to_have_text("@Ana")
    expect(ana.locator("#transcript .bubble", has=ana.locator("mark.mention"))).to_contain_text("Mentions you: @Ana look at this")
    ana.screenshot(path=f"{SHOTS}/ana-phone-dark-bubble.png")
    assert axe_findings(ana, "mention marked") == []


@pytest.mark.full_chromium  # notifications (the headless shell says "denied")
def test_mentions_only_set_on_the_laptop_holds_on_the_phone(people):
    laptop = people.join("Ana")
    link = create_conversation(laptop, "Busy group")
    phone = add_device(people, laptop)
    phone.context.grant_permissions(["notifications"])
    phone.add_init_script(AWAY)
    phone.reload()
    phone.locator(".me .name", has_text="Ana").wait_for(state="attached")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    expect(ben.locator("#chat-title")).to_have_text("Busy group")

    laptop.get_by_role("button", name="Members and settings of this conversation").click()
    choice = laptop.get_by_role("group", name="Notifications")
    expect(choice.get_by_role("radio", name="All messages")).to_be_checked()
    choice.get_by_role("radio", name="Mentions only").check()
    laptop.screenshot(path=f"{SHOTS}/laptop-members-choice.png")
    laptop.get_by_role("button", name="Done").click()
    expect(laptop.locator(".conv-item", has_text="Busy group").locator(".conv-quiet")).to_have_text("Mentions only")

    # the phone follows: in its list and in its own Members dialog
    item = phone.locator(".conv-item", has_text="Busy group").locator("a")
    expect(item).to_have_accessible_name(re.compile(r"^Busy group, mentions only: "))
    item.click()
    phone.get_by_role("button", name="Members and settings of this conversation").click()
    expect(phone.get_by_role("group", name="Notifications").get_by_role("radio", name="Mentions only")).to_be_checked()
    phone.get_by_role("button", name="Done").click()

    turn_on_notifications(phone, "also in the background")
    # the laptop on its list: open on the conversation, it read what came, and the
    # phone then closed its notification (a read mark follows her devices) before the
    # test had seen it (a loaded run)
    laptop.evaluate("location.hash = '#/'")
    expect(laptop.locator("#chat-title")).to_be_hidden()
    away(phone)
    send_text(ben, "lunch anyone?")
    # listed, its count subdued, but not in the title: nothing of it asks for her
    expect(phone.locator(".conv-item", has_text="Busy group").locator(".badge.quiet-badge")).to_have_text("1")
    expect(phone).to_have_title("Busy group · Parlor")
    send_text(ben, "@Ana you in?")
    expect(phone).to_have_title("(1) Busy group · Parlor")
    shown_when(phone, lambda n: n and n[0]["body"] == "Ben: @Ana you in?", "the mention told")
    # each notification asked for, in order (AWAY records them): the browser replaces one
    # of the same conversation's, so what it still shows cannot say what was asked before
    assert phone.evaluate("window.__noticeCalls.map((c) => c.body)") == ["Ben: @Ana you in?"]
