"""The host's focus guard (Public/js/apps/frame.js) against its false positive:
a person who sends a text and then clicks or taps straight into an app must
get the app, every time, and never see it hidden for "taking the keyboard".
A tap, and Playwright's click (the pointer jumps into the frame), show the
host no pointer path; the frame's "focused" notice, with the browser's word
on its activation, is what tells the host it was the user. The hostile side
(an app that focuses itself) is test_hostile.py."""

import pytest
from playwright.sync_api import expect

from conftest import create_conversation, frame, install_app, open_from_drawer, send_text

APP = "Ice Cream Builder"


@pytest.mark.parametrize("touch", [False, True], ids=["mouse", "touch"])
def test_clicking_into_an_app_right_after_sending_keeps_it(people, touch):
    kw = {"mobile": True, "viewport": (390, 844)} if touch else {}
    ana = people.join("Ana", **kw)
    create_conversation(ana, "Click in")
    install_app(ana, APP)
    open_from_drawer(ana, APP)
    iframe = ana.locator("#app-pane iframe")
    target = frame(ana).locator("#history-title")
    press = (lambda loc: loc.tap()) if touch else (lambda loc: loc.click())

    # three rounds, well inside the guard's 3 s window for "did it again"
    for n in range(3):
        send_text(ana, f"message {n}")
        expect(ana.locator("#composer-input")).to_be_focused()
        press(target)
        # the app keeps the focus (before the fix it was taken back to the composer) ...
        expect(iframe).to_be_focused()
    # ... and is never hidden for it
    expect(ana.locator("#app-pane .pane-hidden")).to_have_count(0)
    expect(iframe).to_be_visible()


def test_typing_then_moving_the_mouse_into_an_app_and_clicking_keeps_the_app(people):
    """A quick player types in the composer, then moves the mouse into the app's own
    field and types there: the guard against an app taking the keyboard while the
    user types must not take back a focus the mouse was seen heading to."""
    from test_hostile import move_mouse_into

    ana = people.join("Ana")
    create_conversation(ana, "Quick")
    install_app(ana, "Quick Poll")
    open_from_drawer(ana, "Quick Poll")
    question = frame(ana).locator("#question")
    ana.locator("#composer-input").click()
    ana.keyboard.type("hello")
    move_mouse_into(ana, question)
    ana.mouse.down()
    ana.mouse.up()
    ana.keyboard.type("Tacos?")
    expect(question).to_have_value("Tacos?")
    expect(ana.locator("#composer-input")).to_have_value("hello")
