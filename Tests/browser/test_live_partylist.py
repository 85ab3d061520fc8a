"""Live layout in use (#13): the Party list draws its bubble itself (a
LiveLayout) for everyone who has the app, showing the list as it is now; a
member without the app sees the template layout (the picture) and can get it.
Kate on a light desktop, John on a dark phone."""

import pytest
from playwright.sync_api import expect

from conftest import frame, install_app, pane_ready, shot
from test_app_partylist import (APP, add, current_bubble, expect_live_list, images_loaded, live, open_add_and_send,
                                press_send, send_new_list, staged, start_party)

pytestmark = pytest.mark.usefixtures("app_console_errors")


def live_drawn(bubble):
    """The live frame has its content and has been sized to it."""
    expect(live(bubble).locator("#live-elements")).to_be_visible()
    frame_el = bubble.locator("iframe.live-frame")
    bubble.page.wait_for_function(
        "f => f.contentWindow && Math.abs(f.getBoundingClientRect().height - parseFloat(f.style.height || 0)) < 1 && parseFloat(f.style.height) > 120",
        arg=frame_el.element_handle())


# Kate's desktop in light, John's phone in dark: both schemes drawn live in one run
def test_the_party_list_bubble_is_drawn_live_and_the_picture_stays_for_those_without_it(people):
    kate, john = start_party(people, john_dark=True)
    kate.set_viewport_size({"width": 1280, "height": 800})  # the desktop the issue names
    send_new_list(kate, title="Mussels at Kate's", extra=["Beer"])

    # Kate has Party list: the bubble is the app's own view of the list
    bubble_k = current_bubble(kate)
    expect(bubble_k.locator(".live-bubble")).to_have_count(1)
    expect_live_list(bubble_k, "Mussels at Kate's", ["Mussels", "Fries", "Beer"], "3 items")
    expect(bubble_k.locator(".app-image")).to_have_count(0)
    live_drawn(bubble_k)
    # read as one button that opens the list
    expect(bubble_k.get_by_role("button", name="Open Party list: Mussels at Kate's")).to_have_count(1)
    shot(kate, "live-partylist-desktop-light")

    # John has not: the template layout with its picture, and Get
    bubble_j = current_bubble(john)
    expect(bubble_j.locator(".live-bubble")).to_have_count(0)
    expect(bubble_j.locator(".caption")).to_have_text("Mussels at Kate's")
    expect(bubble_j.locator(".subcaption")).to_have_text("Mussels, Fries and Beer")
    images_loaded(bubble_j.locator(".app-image img"))
    shot(john, "live-partylist-phone-dark-without-app")

    # once he has it, the same bubble is drawn live for him too
    bubble_j.get_by_role("button", name=f"Get {APP}").click()
    pane_ready(john, "expanded")
    expect_live_list(current_bubble(john), "Mussels at Kate's", ["Mussels", "Fries", "Beer"], "3 items")

    # he adds the sauce and sends it back: both live bubbles show the list as it is now
    add(john, "Andalouse sauce")
    frame(john).get_by_role("button", name="Send", exact=True).click()
    pane_ready(john, "compact")
    press_send(john)
    expect(staged(john)).to_have_count(0)
    john.locator("#app-pane").get_by_role("button", name=f"Close {APP}").click()
    for page in (kate, john):
        bubble = current_bubble(page)
        expect(bubble).to_have_count(1)
        expect_live_list(bubble, "Mussels at Kate's", ["Mussels", "Fries", "Beer", "Andalouse sauce"], "4 items")
        live_drawn(bubble)
    shot(john, "live-partylist-phone-dark")

    # tapping the live bubble opens the list expanded
    current_bubble(kate).locator(".live-open").click()
    pane_ready(kate, "expanded")
    expect(frame(kate).locator("#elements .element-name")).to_have_text(["Mussels", "Fries", "Beer", "Andalouse sauce"])


# every frame drawn, Kate's newest list bubble: [drawing (the template's picture or a frame still starting), its height]
WATCH_BUBBLE = """() => { window.__bubbles = [];
  const tick = () => { const rows = document.querySelectorAll("#transcript .row[data-seq][data-kind=app]");
    const b = rows.length ? rows[rows.length - 1].querySelector(".app-bubble") : null;
    window.__bubbles.push([!b || b.classList.contains("drawing") || !!b.querySelector(".app-image"), b ? b.getBoundingClientRect().height : 0]);
    if (!window.__bubblesDone) requestAnimationFrame(tick); };
  requestAnimationFrame(tick); }"""


def test_the_bubble_changes_in_place_when_someone_changes_the_list(people):
    """John adds to the list Kate sees drawn live. Her bubble moves down to his message
    with the same frame, its page kept (Chromium moves a frame without reloading it)
    and told of the newer message: resigned, then active with it. So at no frame drawn
    does she see the template's picture, or a frame starting again, between the list
    before and the list after; the bubble is sized to the longer list."""
    kate, john = start_party(people)
    install_app(john, APP)
    send_new_list(kate, title="In place", extra=["Beer"])
    live_drawn(current_bubble(kate))
    page_of = lambda: current_bubble(kate).locator("iframe.live-frame").element_handle().content_frame()
    page_of().evaluate("() => { window.keptAcrossMessages = true; }")
    kate.evaluate(WATCH_BUBBLE)

    open_add_and_send(john, current_bubble(john).locator(".live-open"), "Andalouse sauce")

    bubble = current_bubble(kate)
    expect_live_list(bubble, "In place", ["Mussels", "Fries", "Beer", "Andalouse sauce"], "4 items")
    live_drawn(bubble)
    expect(kate.locator("#transcript .summary")).to_have_count(1)  # the list before, a line where it was
    assert page_of().evaluate("() => window.keptAcrossMessages === true"), "the bubble's page was loaded again"
    expect(live(bubble).locator("#lifecycle li")).to_have_text(
        ["willBecomeActive", "didBecomeActive", "willResignActive", "didResignActive", "willBecomeActive", "didBecomeActive"])
    frames = kate.evaluate("() => { window.__bubblesDone = true; return window.__bubbles; }")
    assert frames and not any(drawing for drawing, _ in frames), "the bubble showed its picture or a frame starting again"
    shot(kate, "live-partylist-changed-in-place")
