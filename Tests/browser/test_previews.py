"""The conversation list's previews (#13 item 5). Ben has not installed the
Ice Cream Builder and looks at another conversation when Ana starts a sundae
in theirs: his list names her ("Ana started a sundae…"), not "…". After a
reload the list shows the same previews and times before any new message."""

import pytest
from playwright.sync_api import expect

from conftest import create_conversation, frame, install_app, open_from_drawer, pane_ready, press_send_button, send_text, shot

APP = "Ice Cream Builder"

pytestmark = pytest.mark.usefixtures("app_console_errors")


def to_list(page):
    """The conversation list (on a phone, the list and a conversation are separate screens)."""
    page.evaluate("location.hash = '#/'")
    expect(page.locator("#shell")).to_have_attribute("data-view", "list")


def test_previews_name_people_and_survive_a_reload(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Sundaes")
    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True, dark=True)
    expect(ben.locator("#chat-title")).to_have_text("Sundaes")
    to_list(ben)
    create_conversation(ben, "Chores")
    send_text(ben, "Bins out tonight")
    expect(ben.locator(".row[data-seq] .text-bubble")).to_have_text(["Bins out tonight"])

    install_app(ana, APP)
    open_from_drawer(ana, APP)
    frame(ana).get_by_role("button", name="New sundae").click()
    pane_ready(ana, "expanded")
    frame(ana).get_by_role("button", name="Waffle cone", exact=True).click()
    pane_ready(ana, "compact")
    press_send_button(ana)
    expect(ana.locator("#transcript .row[data-seq][data-kind=app]")).to_have_count(1)

    to_list(ben)
    sundaes = ben.locator(".conv-item", has_text="Sundaes")
    chores = ben.locator(".conv-item", has_text="Chores")
    expect(sundaes.locator(".conv-preview")).to_have_text("Ana started a sundae with a waffle cone")
    expect(chores.locator(".conv-preview")).to_have_text("You: Bins out tonight")
    times = [sundaes.locator(".conv-when").inner_text(), chores.locator(".conv-when").inner_text()]
    assert all(t.strip() for t in times), times
    shot(ben, "previews-phone-dark-list")

    for page in (ana, ben):
        page.reload()
        expect(page.locator(".me .name")).not_to_have_text("")
    ana_item = ana.locator(".conv-item", has_text="Sundaes")
    expect(ana_item.locator(".conv-preview")).to_have_text("Ana started a sundae with a waffle cone")
    expect(sundaes.locator(".conv-preview")).to_have_text("Ana started a sundae with a waffle cone")
    expect(chores.locator(".conv-preview")).to_have_text("You: Bins out tonight")
    expect(sundaes.locator(".conv-when")).to_have_text(times[0])
    expect(chores.locator(".conv-when")).to_have_text(times[1])
    expect(ana_item.locator(".conv-when")).not_to_have_text("")
    shot(ana, "previews-desktop-light-after-reload")
    shot(ben, "previews-phone-dark-after-reload")
