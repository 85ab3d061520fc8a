"""A live layout: the app draws its own bubble for viewers who have it; the
others see the template layout and can get the app."""


import re

import pytest
from playwright.sync_api import expect

from conftest import confirm_app_send, create_conversation, install_app, open_from_drawer, pane_ready, shot



@pytest.fixture
def people_with_live(people_with_fixture_apps):
    p = people_with_fixture_apps("live")
    yield p
    assert not p.errors, p.errors


def test_live_bubble_is_drawn_by_the_app(people_with_live):
    people = people_with_live
    ana = people.join("Ana")
    link = create_conversation(ana, "Counting")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    install_app(ana, "Live Counter")
    open_from_drawer(ana, "Live Counter")
    ana.frame_locator("#app-pane iframe").get_by_role("button", name="Start counting").click()
    confirm_app_send(ana, ana.locator(".row[data-seq][data-app-id=live]"))
    expect(ana.locator("#app-pane")).to_be_hidden()

    # Ana has the app: the bubble is the app's own view
    bubble = ana.locator(".row[data-seq][data-app-id=live] .live-bubble")
    expect(bubble).to_have_count(1)
    expect(bubble.frame_locator("iframe").locator("#live-count")).to_have_text("Live count: 1")
    # Ben has not: the template layout, and Get
    expect(ben.locator(".row[data-seq][data-app-id=live] .caption")).to_have_text("Count: 1")
    ben.get_by_role("button", name="Get Live Counter").click()
    pane_ready(ben, "expanded")
    ben.frame_locator("#app-pane iframe").get_by_role("button", name="Count 1 + 1").click()
    confirm_app_send(ben, ben.locator(".summary", has_text="counted to 1"))
    expect(ben.locator("#app-pane")).to_be_hidden()
    # the app's summary does not start with its sender: the line says who sent it (an app
    # may name anyone in it; an author's review had Ana's app write "Ben resigned")
    for page, who in ((ana, "You"), (ben, "Ana")):
        live = page.locator(".row[data-seq][data-app-id=live] .live-bubble")
        expect(live).to_have_count(1)
        expect(live.frame_locator("iframe").locator("#live-count")).to_have_text("Live count: 2")
        expect(page.locator(".summary")).to_have_text([f"{who}: counted to 1"])
    # what the app drew after the bubble was first measured is not cut off
    frame_el = ana.locator(".row[data-seq][data-app-id=live] .live-bubble iframe")
    expect(frame_el.content_frame.locator("#live-late")).to_be_attached()
    ana.wait_for_function("f => f.getBoundingClientRect().height >= 150", arg=frame_el.element_handle())
    shot(ana, "desktop-light-live-bubble")
    # tapping the live bubble opens the app expanded on it
    ana.locator(".live-bubble .live-open").click()
    pane_ready(ana, "expanded")
    expect(ana.frame_locator("#app-pane iframe").get_by_role("button", name="Count 2 + 1")).to_be_visible()


def ana_counts(people):
    """Ana starts counting in a new conversation: her live bubble, drawn by the app."""
    ana = people.join("Ana")
    link = create_conversation(ana, "Counting")
    install_app(ana, "Live Counter")
    open_from_drawer(ana, "Live Counter")
    ana.frame_locator("#app-pane iframe").get_by_role("button", name="Start counting").click()
    confirm_app_send(ana, ana.locator(".row[data-seq][data-app-id=live]"))
    bubble = ana.locator(".row[data-seq][data-app-id=live] .live-bubble")
    expect(bubble.frame_locator("iframe").locator("#live-count")).to_have_text("Live count: 1")
    return ana, link, bubble


def test_a_live_bubble_keeps_its_page_when_its_row_is_redrawn(people_with_live):
    """A member joining redraws every row (names and members are part of a row), and
    the live bubble goes into its new row with its frame: the page the app drew is
    kept (moveBefore), not loaded again and left blank while the app starts again."""
    people = people_with_live
    ana, link, bubble = ana_counts(people)
    page_of = lambda: bubble.locator("iframe").element_handle().content_frame()
    page_of().evaluate("() => { window.beforeTheJoin = true }")
    ana.locator(".row[data-seq][data-app-id=live]").evaluate("row => { row.__beforeTheJoin = true }")

    people.join("Cara", link.replace(people.server.base, ""))
    expect(ana.locator("#chat-presence")).to_contain_text("Cara")
    ana.wait_for_function("() => !document.querySelector('.row[data-seq][data-app-id=live]').__beforeTheJoin", timeout=5000)
    assert page_of().evaluate("() => window.beforeTheJoin") is True, "the bubble's page was loaded again"
    expect(bubble.frame_locator("iframe").locator("#live-count")).to_have_text("Live count: 1")
    expect(bubble).not_to_have_class(re.compile(r"\bdrawing\b"))


def test_a_sticker_dragged_onto_a_bubble_sticks_there(people_with_live):
    people = people_with_live
    ana = people.join("Ana")
    link = create_conversation(ana, "Stickers")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    ben.fill("#composer-input", "stick something on me")
    ben.keyboard.press("Enter")
    target = ana.locator(".row[data-seq]", has_text="stick something on me")
    expect(target).to_be_visible()
    install_app(ana, "Live Counter")
    open_from_drawer(ana, "Live Counter")
    ana.frame_locator("#app-pane iframe").get_by_role("button", name="Sticker").click()
    staged = ana.locator(".staged-item[data-kind=sticker]")
    expect(staged).to_contain_text("A pink dot")
    staged.drag_to(target.locator(".bubble"))
    expect(staged).to_have_count(0)
    for page in (ana, ben):
        row = page.locator(".row[data-seq]", has_text="stick something on me")
        expect(row.locator("img.stuck")).to_have_count(1)
        expect(row.locator("img.stuck")).to_have_attribute("alt", "Sticker from Ana: A pink dot")
    shot(ben, "desktop-light-sticker")


def test_a_live_frame_that_navigates_away_shows_the_bubbles_picture_again(people_with_live):
    """A live frame that left the app's page (the page policy blocks the other site)
    showed the browser's error page in the bubble for good (an author's review)."""
    ana, _, bubble = ana_counts(people_with_live)
    expect(bubble).not_to_have_class(re.compile(r"\bdrawing\b"))
    bubble.locator("iframe").element_handle().content_frame().evaluate("() => { location.href = 'https://example.org/'; }")
    expect(bubble).to_have_class(re.compile(r"\bdrawing\b"), timeout=15_000)
    expect(bubble.locator("iframe")).to_be_hidden()
    expect(bubble.locator(".app-footer")).to_have_text("Live Counter")
