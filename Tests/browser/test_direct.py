"""Direct conversations and blocks: Ana presses Message beside Ben in a group's members
panel and writes; Ben, on a phone in dark mode, finds the conversation titled "Ana" and
answers. Ana blocks Ben with the keyboard: his next group message is folded for her
(Show brings it), and his message in their direct conversation is refused in words."""

import re
from pathlib import Path

from playwright.sync_api import expect

from a11y import axe_findings
from conftest import create_conversation, send_text

SHOTS = Path("/tmp/direct")


def row(page, text):
    return page.locator(".row[data-seq]").filter(has=page.locator(".bubble", has_text=text))


def shot(page, name):
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def members_panel(page):
    page.get_by_role("button", name="Members and settings of this conversation").click()
    panel = page.locator("#members[open]")
    panel.wait_for()
    return panel


def test_ana_messages_ben_from_the_members_panel_and_he_answers_on_a_phone(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Club")
    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True, dark=True)
    expect(ben.locator("#chat-title")).to_have_text("Club")

    panel = members_panel(ana)
    expect(panel.get_by_role("button", name=re.compile("Ana$"))).to_have_count(0)  # none beside herself
    shot(ana, "members-desktop-light")
    panel.get_by_role("button", name="Message Ben").click()
    expect(panel).to_have_count(0)
    expect(ana.locator("#chat-title")).to_have_text("Ben")
    expect(ana.get_by_role("button", name="Invite people (copy link)")).to_be_hidden()
    send_text(ana, "psst, Ben")
    expect(row(ana, "psst, Ben")).to_have_count(1)

    ben.get_by_role("button", name="Back to conversations").tap()
    ben.get_by_role("link", name=re.compile(r"^Ana")).tap()
    expect(ben.locator("#chat-title")).to_have_text("Ana")
    expect(row(ben, "psst, Ben")).to_have_count(1)
    send_text(ben, "hi Ana")
    expect(row(ana, "hi Ana")).to_have_count(1)
    # its panel: no rename, no Message (it is the one), Block beside Ana
    panel = members_panel(ben)
    expect(panel.get_by_role("button", name="Rename")).to_be_hidden()
    expect(panel.get_by_role("button", name="Message Ana")).to_have_count(0)
    expect(panel.get_by_role("button", name="Block Ana")).to_be_visible()
    shot(ben, "direct-phone-dark-members")
    assert axe_findings(ben, "direct members phone") == []
    panel.get_by_role("button", name="Done").tap()
    shot(ben, "direct-phone-dark")
    shot(ana, "direct-desktop-light")
    assert axe_findings(ben, "direct phone") == []
    assert axe_findings(ana, "direct") == []


def test_ana_blocks_ben_with_the_keyboard(people):
    ana = people.join("Ana", dark=True)
    link = create_conversation(ana, "Club")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    expect(ben.locator("#chat-title")).to_have_text("Club")
    members_panel(ben).get_by_role("button", name="Message Ana").click()
    expect(ben.locator("#chat-title")).to_have_text("Ana")

    # Ana, in the group, by keyboard: the panel, Block Ben, the question, Block
    ana.get_by_role("button", name="Members and settings of this conversation").focus()
    ana.keyboard.press("Enter")
    panel = ana.locator("#members[open]")
    block = panel.get_by_role("button", name="Block Ben")
    block.focus()
    ana.keyboard.press("Enter")
    ask = ana.get_by_role("dialog", name="Block Ben?")
    expect(ask).to_be_visible()
    expect(ask).to_contain_text("They are not told")
    ana.keyboard.press("Tab")  # from Cancel to Block
    ana.keyboard.press("Enter")
    unblock = panel.get_by_role("button", name="Unblock Ben")
    expect(unblock).to_be_focused()
    ana.keyboard.press("Escape")
    expect(panel).to_have_count(0)

    # Ben's message in their direct conversation: refused, in words, nothing stored
    send_text(ben, "why?")
    pending = ben.locator(".row.pending.failed")
    expect(pending).to_contain_text("Not sent: you cannot send messages to this person")
    shot(ben, "blocked-sender-light")

    # his next message in the group, while she is in another conversation: listed
    # folded, and not unread anywhere (not in the list, not in the tab's title)
    create_conversation(ana, "Notes")
    ben.get_by_role("link", name=re.compile(r"^Club")).click()
    expect(ben.locator("#chat-title")).to_have_text("Club")
    send_text(ben, "hello all")
    club = ana.get_by_role("link", name=re.compile(r"^Club"))
    expect(club).to_have_attribute("aria-label", re.compile(r"^Club: Message from someone you blocked"))
    expect(club.locator(".badge")).to_have_count(0)
    expect(ana).to_have_title("Notes · Parlor")
    shot(ana, "blocked-listed-dark")

    # in the group, folded for Ana, Show brings it
    club.click()
    folded = ana.locator(".row.folded")
    expect(folded).to_contain_text("Message from someone you blocked")
    expect(row(ana, "hello all")).to_have_count(0)
    shot(ana, "blocked-desktop-dark")
    assert axe_findings(ana, "blocked") == []
    folded.get_by_role("button", name="Show message from someone you blocked").focus()
    ana.keyboard.press("Enter")
    expect(row(ana, "hello all")).to_have_count(1)
    expect(row(ana, "hello all")).to_be_focused()

    # her account lists him, with Unblock
    ana.get_by_role("button", name="Account", exact=True).click()
    blocked = ana.get_by_role("list", name="Blocked people")
    expect(blocked.get_by_role("button", name="Unblock Ben")).to_be_visible()
    blocked.get_by_role("button", name="Unblock Ben").scroll_into_view_if_needed()
    shot(ana, "account-blocked-dark")


def test_ana_on_a_dark_phone_is_told_she_blocked_ben_and_unblocks_him_there(people):
    ben = people.join("Ben")
    link = create_conversation(ben, "Club")
    ana = people.join("Ana", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True, dark=True)
    expect(ana.locator("#chat-title")).to_have_text("Club")
    members_panel(ana).get_by_role("button", name="Message Ben").tap()
    expect(ana.locator("#chat-title")).to_have_text("Ben")
    send_text(ana, "hi Ben")
    expect(row(ana, "hi Ben")).to_have_count(1)
    other_tab = ana.context.new_page()  # her second device, on the same conversation
    other_tab.goto(ana.url)
    expect(other_tab.locator("#chat-title")).to_have_text("Ben")

    # she blocks him from the conversation's panel: the composer gives way to a note
    members_panel(ana).get_by_role("button", name="Block Ben").tap()
    ana.get_by_role("dialog", name="Block Ben?").get_by_role("button", name="Block").tap()
    ana.get_by_role("button", name="Done").tap()
    note = ana.locator("#blocked-banner")
    expect(note).to_contain_text("You blocked Ben.")
    expect(ana.locator("#composer-input")).to_be_hidden()
    # said in a toast too, which stands above the note, not over it (for 3.5 s)
    toast = ana.locator("#toast")
    expect(toast).to_have_text("Ben is blocked.")
    shot(ana, "blocked-toast-phone-dark")
    said, under = toast.bounding_box(), note.bounding_box()
    assert said["y"] + said["height"] <= under["y"], f"the toast {said} covers the note {under}"
    expect(other_tab.locator("#blocked-banner")).to_contain_text("You blocked Ben.")  # the blocked event
    shot(other_tab, "blocked-note-phone-dark")
    assert axe_findings(ana, "blocked note phone") == []
    # Ben is not told: no note, his composer as ever, his message refused in the same words
    expect(ben.locator("#blocked-banner")).to_be_hidden()
    ben.get_by_role("link", name=re.compile(r"^Ana")).click()
    expect(ben.locator("#chat-title")).to_have_text("Ana")
    expect(ben.locator("#blocked-banner")).to_be_hidden()
    send_text(ben, "hello?")
    expect(ben.locator(".row.pending.failed")).to_contain_text("Not sent: you cannot send messages to this person")

    # Unblock on her other device: the composer comes back there, with the focus, and here live
    other_tab.get_by_role("button", name="Unblock Ben").click()
    expect(other_tab.locator("#composer-input")).to_be_focused()
    expect(note).to_be_hidden()
    expect(ana.locator("#composer-input")).to_be_visible()
    send_text(ana, "sorry, unblocked")
    expect(row(ben, "sorry, unblocked")).to_have_count(1)

    # Ben leaves it; after a reload it still bears his name, not "Direct conversation"
    members_panel(ben).get_by_role("button", name="Leave conversation").click()
    ben.get_by_role("dialog").get_by_role("button", name="Leave", exact=True).click()
    expect(ana.locator("#chat-presence")).to_have_text("Ben left")
    ana.reload()
    expect(ana.locator("#chat-title")).to_have_text("Ben")
    shot(ana, "direct-left-phone-dark")
