"""Live layout in use (#13): the Party list draws its bubble itself (a
LiveLayout) for everyone who has the app, showing the list as it is now; a
member without the app sees the template layout (the picture) and can get it.
Kate on a light desktop, John on a dark phone."""

import re

import pytest
from playwright.sync_api import expect

from conftest import frame, install_app, pane_ready, send_text, shot
from test_app_partylist import (APP, add, current_bubble, expect_live_list, images_loaded, live, open_add_and_send,
                                press_send, retitle_add_and_send, send_new_list, staged, start_party)

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


# Safari (as of 2026) has no moveBefore: a frame moved in the page loads its page again
NO_MOVE = "delete Element.prototype.moveBefore"


browsers_moving = pytest.mark.parametrize("moves", [True, False], ids=["moveBefore", "without-moveBefore"])


def as_browser(kate, moves):
    """Kate's page as it is (Chromium moves a frame keeping its page), or loaded again
    without moveBefore, as in a browser that has none."""
    if moves:
        return
    kate.context.add_init_script(NO_MOVE)
    kate.reload()
    expect(kate.locator("#chat-title")).to_have_text("Mussels night")
    assert kate.evaluate("() => !('moveBefore' in Element.prototype)")


@browsers_moving
def test_the_bubble_changes_in_place_when_someone_changes_the_list(people, moves):
    """John adds to the list Kate sees drawn live. Her bubble moves down to his message
    with the same frame, its page kept, and told of the newer message: resigned, then
    active with it. A browser that moves frames (moveBefore) takes the frame into the
    new row; one that does not keeps the row the frame is in, and gives it the new
    row's content. So at no frame drawn does she see the template's picture, or a
    frame starting again, between the list before and the list after; the bubble is
    sized to the longer list."""
    kate, john = start_party(people)
    as_browser(kate, moves)
    install_app(john, APP)
    send_new_list(kate, title="In place", extra=["Beer"])
    live_drawn(current_bubble(kate))
    page_of = lambda: current_bubble(kate).locator("iframe.live-frame").element_handle().content_frame()
    page_of().evaluate("() => { window.keptAcrossMessages = true; }")
    # John's word after the list; Kate's keyboard is on its Reply (its row moves up
    # where her list's row is kept)
    send_text(john, "one more thing")
    reply = kate.locator(".row", has_text="one more thing").get_by_role("button", name="Reply to message: one more thing")
    reply.focus()
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
    expect(reply).to_be_focused()
    shot(kate, f"live-partylist-changed-in-place-{'moving' if moves else 'kept'}")


@browsers_moving
def test_the_bubble_keeps_its_page_when_its_row_is_made_again(people, moves):
    """Kate changes her name: the rows are made again around the names in them. Her live
    bubble goes on with the same frame, its page kept and not told anything again, so
    it never stands blank while the app starts again."""
    kate, john = start_party(people)
    as_browser(kate, moves)
    send_new_list(kate, title="Renamed", extra=["Beer"])
    send_text(john, "count me in")
    kate.locator(".row", has_text="count me in").wait_for()
    live_drawn(current_bubble(kate))
    page_of = lambda: current_bubble(kate).locator("iframe.live-frame").element_handle().content_frame()
    page_of().evaluate("() => { window.keptAcrossRows = true; }")
    kate.evaluate("() => { for (const r of document.querySelectorAll('#transcript .row')) r.__before = true; }")
    kate.evaluate(WATCH_BUBBLE)

    kate.get_by_role("button", name="Change your name").click()
    kate.fill("#rename-input", "Kate Moss")
    kate.locator("#rename button[type=submit]").click()
    expect(kate.locator(".me .name")).to_have_text("Kate Moss")
    # John's row was made again (the rows hold the names)
    kate.wait_for_function("() => !document.querySelector('#transcript .row[data-kind=text]').__before", timeout=5000)

    bubble = current_bubble(kate)
    expect_live_list(bubble, "Renamed", ["Mussels", "Fries", "Beer"], "3 items")
    live_drawn(bubble)
    assert page_of().evaluate("() => window.keptAcrossRows === true"), "the bubble's page was loaded again"
    expect(live(bubble).locator("#lifecycle li")).to_have_text(["willBecomeActive", "didBecomeActive"])
    frames = kate.evaluate("() => { window.__bubblesDone = true; return window.__bubbles; }")
    assert frames and not any(drawing for drawing, _ in frames), "the bubble showed its picture or a frame starting again"
    expect(bubble.get_by_role("button", name="Open Party list: Renamed")).to_have_count(1)
    bubble.locator(".live-open").click()
    pane_ready(kate, "expanded")
    expect(frame(kate).locator("#elements .element-name")).to_have_text(["Mussels", "Fries", "Beer"])


def test_without_move_before_a_list_behind_another_changes_with_a_frame_started_again(people):
    """Without moveBefore, keeping a list's row in place would mean moving the rows
    after it, and another live frame among them would load its page again. So when
    John changes the first of two lists, Kate's first list goes into its new row with
    its frame started again on the newer list, and the second list's page is kept."""
    kate, john = start_party(people)
    as_browser(kate, False)
    install_app(john, APP)
    send_new_list(kate, title="First", extra=["Beer"])
    frame(kate).get_by_role("button", name="New party").click()
    pane_ready(kate, "expanded")
    retitle_add_and_send(kate, "Second", "Wine")
    expect(staged(kate)).to_have_count(0)
    rows = current_bubble(kate)
    expect(rows).to_have_count(2)
    for i in range(2):
        live_drawn(rows.nth(i))
    rows.nth(1).locator("iframe.live-frame").element_handle().content_frame().evaluate("() => { window.second = true; }")

    open_add_and_send(john, current_bubble(john).nth(0).locator(".live-open"), "Andalouse sauce")

    expect(kate.locator("#transcript .summary")).to_have_count(1)
    expect_live_list(rows.nth(1), "First", ["Mussels", "Fries", "Beer", "Andalouse sauce"], "4 items")
    live_drawn(rows.nth(1))
    expect(rows.nth(1).locator(".live-bubble")).not_to_have_class(re.compile(r"\bdrawing\b"))
    expect(rows.nth(1).locator(".app-image")).to_have_count(0)  # the picture shown while it started again
    expect_live_list(rows.nth(0), "Second", ["Mussels", "Fries", "Wine"], "3 items")
    assert rows.nth(0).locator("iframe.live-frame").element_handle().content_frame().evaluate("() => window.second === true"), \
        "the second list's page was loaded again"


@browsers_moving
def test_a_reader_looking_at_the_list_stays_where_it_was_when_it_changes(people, moves):
    """Kate has gone up to her list, with talk below it. John changes the list: its
    bubble goes down to the newest, and Kate's view stays where it was, with the line
    that tells of the list before where the list was. Where the list's row is kept for
    its frame (no moveBefore), the view does not follow that row down."""
    kate, john = start_party(people)
    as_browser(kate, moves)
    install_app(john, APP)
    send_new_list(kate, title="Scrolled", extra=["Beer"])
    kate.locator("#app-pane").get_by_role("button", name=f"Close {APP}").click()
    for i in range(20):
        send_text(john, f"line {i}")
    kate.locator(".row", has_text="line 19").wait_for()
    live_drawn(current_bubble(kate))
    seq = current_bubble(kate).get_attribute("data-seq")
    # the list is the first row that starts in view, the one the view keeps in place
    top = current_bubble(kate).evaluate(
        "row => { row.scrollIntoView({ block: 'start' }); row.parentElement.scrollTop -= 10; return row.getBoundingClientRect().top; }")
    kate.wait_for_timeout(300)  # the transcript hears the scroll (no longer at the bottom)

    open_add_and_send(john, current_bubble(john).locator(".live-open"), "Andalouse sauce")

    expect_live_list(current_bubble(kate), "Scrolled", ["Mussels", "Fries", "Beer", "Andalouse sauce"], "4 items")
    where = kate.locator(f'#transcript > [data-seq="{seq}"]')
    expect(where).to_have_class(re.compile(r"\bsummary\b"))
    assert abs(where.evaluate("row => row.getBoundingClientRect().top") - top) <= 1, "the view moved"
    expect(current_bubble(kate)).not_to_be_in_viewport()
    expect(kate.locator(".row", has_text="line 0")).to_be_in_viewport()


@browsers_moving
def test_the_keyboard_on_a_list_goes_down_with_it(people, moves):
    """Kate's keyboard is on her list's bubble (its Open button) when John changes the
    list: the focus goes down with the bubble, on the newer list's Open, not to the page."""
    kate, john = start_party(people)
    as_browser(kate, moves)
    install_app(john, APP)
    send_new_list(kate, title="Focus", extra=["Beer"])
    kate.locator("#app-pane").get_by_role("button", name=f"Close {APP}").click()
    live_drawn(current_bubble(kate))
    current_bubble(kate).locator(".live-open").focus()

    open_add_and_send(john, current_bubble(john).locator(".live-open"), "Andalouse sauce")

    expect_live_list(current_bubble(kate), "Focus", ["Mussels", "Fries", "Beer", "Andalouse sauce"], "4 items")
    expect(current_bubble(kate).locator(".live-open")).to_be_focused()
