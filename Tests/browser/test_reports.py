"""Reporting a message to the server's admins: Ben reports Cat's message (keyboard; a
tap on a phone in dark), with a reason, in a native dialog; Ana, the server's admin (its
first account), sees the count on her Admin button live, opens Reports, deletes the
message from there (the report keeps what it said) and resolves it. A reported picture
is shown to her even from a conversation she is not in, and she can delete it everywhere."""

import re

from playwright.sync_api import expect

from a11y import axe_findings
from conftest import ProtocolPerson, create_conversation, shot

RUDE = "you are all idiots and I know where you live"


def row(page, text):
    return page.locator(".row[data-seq]").filter(has=page.locator(".bubble", has_text=text))


def cat_says(people, link, text):
    """Cat, on the protocol, joins with the invite and sends `text`."""
    cat = ProtocolPerson(people.server, "Cat")
    try:
        cid = cat.call("conversations.join", invite=link.rsplit("/", 1)[-1])["conversation"]["id"]
        cat.send_text(cid, text)
    finally:
        cat.close()


def test_ben_reports_by_keyboard_and_the_admin_deletes_and_resolves(people):
    ana = people.join("Ana")  # the first account: the server's admin
    link = create_conversation(ana, "Book club")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    cat_says(people, link, RUDE)
    expect(row(ben, RUDE)).to_have_count(1)
    admin_button = ana.locator(".me-actions").get_by_role("button", name=re.compile(r"^Admin"))
    expect(admin_button).to_have_accessible_name("Admin")

    # Ben's own message offers no Report; Cat's does, where Delete would be
    ben.locator("#composer-input").fill("hi all")
    ben.keyboard.press("Enter")
    expect(row(ben, "hi all")).to_have_count(1)
    expect(row(ben, "hi all").get_by_role("button", name=re.compile("^Report"))).to_have_count(0)
    report = row(ben, RUDE).get_by_role("button", name=re.compile(r"^Report message: "))
    expect(report).to_have_accessible_name(re.compile(r"^Report message: you are all idiots"))
    report.focus()
    ben.keyboard.press("Enter")
    dialog = ben.locator("#report[open]")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading")).to_have_text("Report this message to the server's admins?")
    expect(dialog.locator(".report-quote")).to_contain_text("Cat: “you are all idiots")
    expect(ben.locator("#report-reason")).to_be_focused()
    # Cancel (Escape) asks nothing
    ben.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(report).to_be_focused()
    ben.keyboard.press("Enter")
    expect(ben.locator("#report-reason")).to_be_focused()
    ben.keyboard.type("a threat")
    shot(ben, "report-dialog-light")
    assert axe_findings(ben, "report-dialog") == []
    ben.keyboard.press("Tab")
    expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
    ben.keyboard.press("Tab")
    expect(dialog.get_by_role("button", name="Report")).to_be_focused()
    ben.keyboard.press("Enter")
    expect(ben.locator("#report[open]")).to_have_count(0)
    expect(ben.locator("#toast")).to_have_text("Reported. The admins will look at it.")
    expect(report).to_be_focused()

    # Ana, live: the count on her Admin button
    expect(admin_button).to_have_accessible_name("Admin, 1 open report")
    expect(admin_button.locator(".report-count")).to_have_text("1")
    shot(ana, "report-admin-badge-light")
    admin_button.focus()
    ana.keyboard.press("Enter")
    item = ana.locator("#admin-reports .report-item")
    expect(item).to_have_count(1)
    expect(item.locator(".report-who")).to_have_text("Cat in “Book club”")
    expect(item.locator(".report-copy")).to_have_text(RUDE)
    expect(item.locator(".report-by")).to_have_text("Reported by Ben: “a threat”")
    shot(ana, "report-admin-list-light")
    assert axe_findings(ana, "report-admin") == []

    # Delete message, asked first: gone for Ben; the report keeps what it said
    item.get_by_role("button", name="Delete Cat's message").click()
    ana.locator("#confirm").get_by_role("button", name="Delete").click()
    expect(row(ben, "Message deleted")).to_have_count(1)
    expect(item.locator(".tag")).to_have_text("Deleted")
    expect(item.locator(".report-copy")).to_have_text(RUDE)
    expect(item.get_by_role("button", name="Delete Cat's message")).to_have_count(0)

    # Resolve: the list empties, the count goes
    item.get_by_role("button", name=re.compile("^Resolve")).click()
    expect(ana.locator("#admin-reports")).to_contain_text("No open reports.")
    expect(admin_button).to_have_accessible_name("Admin")
    expect(admin_button.locator(".report-count")).to_have_count(0)
    # a reload: the count comes with the sign-in (none now)
    ana.reload()
    expect(ana.locator(".me .name")).to_have_text("Ana")
    expect(admin_button.locator(".report-count")).to_have_count(0)


def test_on_a_phone_in_dark_by_tap_and_the_count_after_a_reload(people):
    ana = people.join("Ana", mobile=True, viewport=(390, 844), dark=True)
    link = create_conversation(ana, "Phones")
    ben = people.join("Ben", link.replace(people.server.base, ""), mobile=True, viewport=(390, 844), dark=True)
    cat_says(people, link, RUDE)
    expect(row(ben, RUDE)).to_have_count(1)
    shot(ben, "report-phone-dark-transcript")
    row(ben, RUDE).get_by_role("button", name=re.compile(r"^Report message: ")).tap()
    dialog = ben.locator("#report[open]")
    expect(dialog).to_be_visible()
    # no on-screen keyboard over the question: Cancel has the focus, not the reason box
    expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
    shot(ben, "report-phone-dark-dialog")
    assert axe_findings(ben, "report-phone-dialog") == []
    dialog.get_by_role("button", name="Report").tap()
    expect(ben.locator("#report[open]")).to_have_count(0)
    expect(ben.locator("#toast")).to_have_text("Reported. The admins will look at it.")
    shot(ben, "report-phone-dark-reported")

    # Ana on her phone: back on the list, the count; after a reload, still there
    ana.evaluate("location.hash = '#/'")
    admin_button = ana.locator(".me-actions").get_by_role("button", name=re.compile(r"^Admin"))
    expect(admin_button).to_have_accessible_name("Admin, 1 open report")
    ana.reload()
    expect(admin_button).to_have_accessible_name("Admin, 1 open report")
    shot(ana, "report-phone-dark-badge")
    admin_button.tap()
    item = ana.locator("#admin-reports .report-item")
    expect(item.locator(".report-copy")).to_have_text(RUDE)
    expect(item.get_by_role("button", name=re.compile("^Open the conversation"))).to_be_visible()
    shot(ana, "report-phone-dark-admin")
    assert axe_findings(ana, "report-phone-admin") == []
    # Open conversation: the admin page closes, the message is shown
    item.get_by_role("button", name=re.compile("^Open the conversation")).tap()
    expect(ana.locator("#admin[open]")).to_have_count(0)
    expect(ana.locator("#chat-title")).to_have_text("Phones")
    expect(row(ana, RUDE)).to_have_class(re.compile(r"\bhighlighted\b"))


def test_a_reported_picture_is_shown_to_the_admin_who_can_delete_it_everywhere(people):
    ana = people.join("Ana", dark=True)  # the admin, in no conversation of theirs
    ben, cat = people.on_protocol("Ben"), people.on_protocol("Cat")
    made = ben.call("conversations.create", title="Pictures")
    cid = made["conversation"]["id"]
    cat.call("conversations.join", invite=made["invite"])
    picture = cat.upload_picture(60, 40)
    sent = cat.call("send", conversationId=cid, clientId="pic-1",
                    message={"kind": "attachment", "image": picture, "name": "vile.png"})
    ben.call("messages.report", conversationId=cid, seq=sent["message"]["seq"], reason="disgusting")

    admin_button = ana.locator(".me-actions").get_by_role("button", name=re.compile(r"^Admin"))
    expect(admin_button).to_have_accessible_name("Admin, 1 open report")
    admin_button.click()
    item = ana.locator("#admin-reports .report-item")
    expect(item.locator(".report-copy")).to_have_text("A picture: vile.png")
    expect(item.get_by_text("You are not in this conversation.")).to_be_visible()
    shown = item.get_by_role("img", name="The picture Cat sent: vile.png")
    expect(shown).to_be_visible()
    ana.wait_for_function("img => img.complete && img.naturalWidth === 60", arg=shown.element_handle())
    shot(ana, "report-desktop-dark-picture")
    assert axe_findings(ana, "report-picture") == []

    # deleted everywhere: the message goes with it, the report stays and says so
    item.get_by_role("button", name="Delete Cat's picture everywhere").click()
    ana.locator("#confirm[open]").get_by_role("button", name="Delete").click()
    expect(ana.locator("#admin-status")).to_have_text("The picture is deleted, with the message showing it.")
    expect(item.locator(".tag", has_text="Deleted")).to_be_visible()
    expect(item.get_by_text("The picture is no longer stored.")).to_be_visible()
    expect(item.get_by_role("img")).to_have_count(0)
    expect(item.get_by_role("button", name="Delete Cat's picture everywhere")).to_have_count(0)
    shot(ana, "report-desktop-dark-picture-deleted")
