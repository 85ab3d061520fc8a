"""Keyboard focus (#13, item 7): a skip link to the message box, focus never
left on <body> after the name form, the invite dialog or Install, and no
conversation header (App Store, Invite) in the empty state. Keyboard only:
every step under test is a key press, and each checks document.activeElement."""

import pytest
from playwright.sync_api import expect

from conftest import create_conversation, shot

APP = "Ice Cream Builder"
# desktop and a touch phone (with a keyboard attached), light and dark: screenshots of each
LOOKS = {"desktop-light": {}, "desktop-dark": {"dark": True},
         "phone-light": {"viewport": (390, 844), "mobile": True},
         "phone-dark": {"viewport": (390, 844), "mobile": True, "dark": True}}
looks = pytest.mark.parametrize("look", list(LOOKS))


def active(page):
    """What has the focus: its id, else its aria-label, else its text; "BODY" for none."""
    return page.evaluate("""() => {
        const a = document.activeElement;
        if (!a || a === document.body) return "BODY";
        return a.id || a.getAttribute("aria-label") || a.textContent.trim();
    }""")


def tab_to(page, name, most=40):
    """Tabs until the element named `name` (as active() says) has the focus."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if active(page) == name:
            return
    raise AssertionError(f"{most} Tabs did not reach {name!r} (at {active(page)!r})")


def recovery_key_saved_by_keyboard(page):
    dialog = page.locator("#recovery[open]")
    dialog.wait_for()
    tab_to(page, "recovery-saved")
    page.keyboard.press("Space")
    tab_to(page, "Done")
    page.keyboard.press("Enter")
    expect(dialog).to_have_count(0)


@looks
def test_skip_link_is_first_and_moves_focus_to_the_message_box(people, look):
    ana = people.join("Ana", **LOOKS[look])
    create_conversation(ana, "Skipping")
    expect(ana.locator("#composer-input")).to_be_focused()
    # back to the top of the page, as after a load: the document itself focused
    ana.evaluate("document.body.tabIndex = -1; document.body.focus(); document.body.removeAttribute('tabindex')")
    assert active(ana) == "BODY"
    ana.keyboard.press("Tab")
    skip = ana.get_by_role("link", name="Skip to message")
    expect(skip).to_be_focused()
    assert ana.evaluate("document.activeElement.classList.contains('skip-link')")
    box = skip.bounding_box()
    assert box and box["y"] >= 0 and box["width"] > 1, f"the skip link shows when focused: {box}"
    shot(ana, f"focus-skip-link-{look}")
    url = ana.url
    ana.keyboard.press("Enter")
    expect(ana.locator("#composer-input")).to_be_focused()
    assert active(ana) == "composer-input"
    assert ana.url == url, "the skip link does not change the route"
    expect(ana.locator("#chat-title")).to_have_text("Skipping")


def test_focus_after_the_name_form_goes_to_new_conversation(people):
    ana = people.open("/")
    ana.locator("#welcome-name").wait_for()
    expect(ana.locator("#welcome-name")).to_be_focused()
    ana.keyboard.type("Ana")
    ana.keyboard.press("Enter")
    ana.locator("#welcome").wait_for(state="hidden")
    recovery_key_saved_by_keyboard(ana)
    expect(ana.get_by_role("button", name="New conversation")).to_be_focused()
    assert active(ana) == "New conversation"


def test_escape_on_the_invite_dialog_returns_focus_to_its_button(people):
    ana = people.join("Ana")
    create_conversation(ana, "Invites")
    tab_to(ana, "Invite people (copy link)")
    ana.keyboard.press("Enter")
    ana.locator("#invite[open]").wait_for()
    ana.locator("#invite .invite-item").first.wait_for()
    ana.keyboard.press("Escape")
    expect(ana.locator("#invite[open]")).to_have_count(0)
    expect(ana.locator(".chat-header").get_by_role("button", name="Invite people")).to_be_focused()
    assert active(ana) == "Invite people (copy link)"


@looks
def test_install_keeps_focus_in_the_app_store(people, look):
    ana = people.join("Ana", **LOOKS[look])
    create_conversation(ana, "Apps")
    tab_to(ana, "App Store")
    ana.keyboard.press("Enter")
    ana.locator("#app-store[open]").wait_for()
    tab_to(ana, f"Install {APP}")
    ana.keyboard.press("Enter")
    remove = ana.get_by_role("button", name=f"Remove {APP}")
    remove.wait_for()
    expect(remove).to_be_focused()
    assert active(ana) == f"Remove {APP}"
    shot(ana, f"focus-app-store-remove-{look}")
    # and Escape gives it back to the App Store button
    ana.keyboard.press("Escape")
    expect(ana.locator("#app-store[open]")).to_have_count(0)
    assert active(ana) == "App Store"


def test_empty_state_has_no_conversation_header(people):
    ana = people.join("Ana")
    header = ana.locator(".chat-header")
    expect(ana.locator(".chat-empty")).to_be_visible()
    expect(header.get_by_role("button", name="App Store")).to_be_hidden()
    expect(header.get_by_role("button", name="Invite people")).to_be_hidden()
    create_conversation(ana, "Back home")
    expect(header.get_by_role("button", name="App Store")).to_be_visible()
    # back to the list (no conversation open): the header goes with it
    ana.evaluate("location.hash = '#/'")
    expect(ana.locator(".chat-empty")).to_be_visible()
    expect(header.get_by_role("button", name="App Store")).to_be_hidden()
    expect(header.get_by_role("button", name="Invite people")).to_be_hidden()
    # and no Tab reaches them
    seen = set()
    for _ in range(15):
        ana.keyboard.press("Tab")
        seen.add(active(ana))
    assert "App Store" not in seen and "Invite people (copy link)" not in seen, seen
