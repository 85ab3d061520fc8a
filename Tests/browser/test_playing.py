"""Who is playing right now (#13): while someone has a session open in the
expanded pane, the others see their face on that session's bubble, live; it
goes when they close the pane or their connection drops, and a page loaded
meanwhile sees who is there. Kate on a light desktop, John on a dark phone (touch)."""

import pytest
from playwright.sync_api import expect

from a11y import axe_findings, switch_scheme
from conftest import pane_ready, shot
from test_app_partylist import APP, current_bubble, send_new_list, start_party, toggle
from test_offline_moves import console_errors_but_offline  # noqa: F401 (a fixture)

RECONNECT = 30_000

pytestmark = pytest.mark.usefixtures("console_errors_but_offline")


def players(page):
    return current_bubble(page).locator(".players")


def said(page):
    """What the polite live region beside the transcript says (a label alone is not read when it changes)."""
    region = page.locator("#players-live")
    expect(region).to_have_attribute("aria-live", "polite")
    return region


# Kate's desktop in light, John's phone in dark; axe reads John's page in both schemes
def test_others_see_who_has_a_session_open(people):
    kate, john = start_party(people, john_dark=True)
    kate.set_viewport_size({"width": 1280, "height": 800})  # the desktop the issue names
    send_new_list(kate)
    expect(current_bubble(john)).to_have_count(1)
    expect(players(john)).to_have_count(0)

    # Kate opens the list expanded: John sees her face on its bubble; she does not see her own
    current_bubble(kate).locator(".app-bubble").click()
    pane_ready(kate, "expanded")
    expect(players(john)).to_have_attribute("aria-label", "Kate has it open now")
    expect(said(john)).to_have_text(f"Kate has {APP} open.")
    expect(players(john).locator(".avatar")).to_have_text(["K"])
    expect(players(kate)).to_have_count(0)
    assert axe_findings(john, "playing") == []
    shot(john, "playing-phone-dark-kate-open")
    switch_scheme(john, "light")
    assert axe_findings(john, "playing (light)") == []
    switch_scheme(john, "dark")

    # John gets the app from the bubble and opens it: both are there
    current_bubble(john).get_by_role("button", name=f"Get {APP}").click()
    pane_ready(john, "expanded")
    toggle(kate, "Collapse")
    pane_ready(kate, "compact")
    # compact is not "open on the session": Kate is no longer shown
    expect(players(john)).to_have_count(0)
    expect(said(john)).to_have_text(f"Kate closed {APP}.")
    toggle(kate, "Expand")
    pane_ready(kate, "expanded")
    expect(players(kate)).to_have_attribute("aria-label", "John has it open now")
    expect(players(john)).to_have_attribute("aria-label", "Kate has it open now")
    kate.locator("#app-pane").get_by_role("button", name=f"Close {APP}").click()
    expect(kate.locator("#app-pane")).to_be_hidden()
    shot(kate, "playing-desktop-light-john-open")

    # Kate closed the pane: gone for John
    expect(players(john)).to_have_count(0)

    # a page loaded while John has it open sees him at once (the subscribe snapshot)
    kate.reload()
    expect(players(kate)).to_have_attribute("aria-label", "John has it open now")

    # John's connection drops: his face goes for Kate, and comes back with him
    john.context.set_offline(True)
    expect(players(kate)).to_have_count(0, timeout=RECONNECT)
    john.context.set_offline(False)
    expect(john.locator("#offline-banner")).to_be_hidden(timeout=RECONNECT)
    expect(players(kate)).to_have_attribute("aria-label", "John has it open now", timeout=RECONNECT)
