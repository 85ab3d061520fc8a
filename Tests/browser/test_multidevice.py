"""One account on two devices (a laptop and a phone, each a page of its own): what
one does, the other shows at once, without a reload (a two-device review).

- App storage follows: Icon Store open on the phone showed Buy for an icon the
  laptop had just bought, and the phone's next purchase, written as a whole list
  from its stale copy, erased the laptop's.
- Read marks follow: a conversation read on the phone still counted unread on the
  laptop.
"""

import re

from playwright.sync_api import expect

from conftest import create_conversation, frame, install_app, open_from_drawer, pane_ready, press_send_button, send_text

APP = "Icon Store"


def add_device(people, ana):
    """Ana adds a second device by the one-time link; it opens signed in as her."""
    ana.get_by_role("button", name="Account", exact=True).click()
    ana.get_by_role("button", name="Add a device").click()
    link = ana.locator("#device-link").input_value()
    ana.locator("#account").get_by_role("button", name="Done").click()
    phone = people.open(link.replace(people.server.base, ""))
    expect(phone.locator(".me .name")).to_have_text("Ana")
    # signed in once the welcome has gone too (it goes a render after the name shows:
    # its "New here? Make an account" button was still there for an "Account" lookup)
    phone.locator("#welcome").wait_for(state="hidden")
    return phone


def ana_on_two_devices(people, title):
    """Ana's laptop with a conversation, and her phone added to it, showing it."""
    laptop = people.join("Ana")
    create_conversation(laptop, title)
    phone = add_device(people, laptop)
    open_conversation(phone, title)
    return laptop, phone


def open_conversation(page, title):
    page.locator(".me .name").wait_for(state="attached")
    if not page.locator("#chat-title", has_text=title).is_visible():
        page.locator(".conv-item", has_text=title).first.click()
    page.locator("#chat-title", has_text=title).wait_for()


def send_icon(page, name):
    open_from_drawer(page, APP)
    page.locator("#app-pane .pane-bar").get_by_role("button", name=f"Expand {APP}").click()
    pane_ready(page, "expanded")
    frame(page).get_by_role("button", name=re.compile(f"^{name}, ")).click()
    pane_ready(page, "compact")
    expect(page.locator(".staged-item[data-kind=app]")).to_have_count(1)
    press_send_button(page)
    expect(page.locator(".staged-item")).to_have_count(0)
    close_pane(page)


def open_bubble(page, caption):
    page.locator(".row[data-seq][data-kind=app]", has_text=caption).locator(".app-bubble").click()
    pane_ready(page, "expanded")
    details = frame(page).locator("#details")
    expect(details.locator("#detail-name")).to_have_text(caption)
    return details


def close_pane(page):
    page.locator("#app-pane .pane-bar").get_by_role("button", name=re.compile(f"^Close {APP}")).click()
    page.locator("#app-pane").wait_for(state="hidden")


def test_icon_store_purchases_follow_between_two_devices_and_add_up(people):
    laptop = people.join("Ana")
    create_conversation(laptop, "Icons")
    install_app(laptop, APP)
    send_icon(laptop, "Cat icon")
    send_icon(laptop, "Sky icon")
    phone = add_device(people, laptop)
    open_conversation(phone, "Icons")
    expect(phone.locator(".row[data-seq][data-kind=app]")).to_have_count(2)

    # the phone has Cat's details open (it read the app's storage: nothing owned)
    on_phone = open_bubble(phone, "Cat icon")
    expect(on_phone.get_by_role("button", name="Buy")).to_be_enabled()

    # the laptop buys Cat: the phone, open, shows it bought
    on_laptop = open_bubble(laptop, "Cat icon")
    on_laptop.get_by_role("button", name="Buy").click()
    expect(on_laptop.locator("#buy")).to_have_text("Purchased ✓")
    expect(on_phone.locator("#buy")).to_have_text("Purchased ✓")
    expect(on_phone.locator("#buy")).to_be_disabled()
    expect(frame(phone).locator("#lifecycle li").last).to_have_text("storageDidChange")
    close_pane(laptop)

    # the phone buys Sky: both are owned, on both devices
    close_pane(phone)
    on_phone = open_bubble(phone, "Sky icon")
    on_phone.get_by_role("button", name="Buy").click()
    expect(on_phone.locator("#buy")).to_have_text("Purchased ✓")
    close_pane(phone)
    open_from_drawer(phone, APP)
    expect(frame(phone).locator(".icon-row[data-icon=cat] .price")).to_have_text("Owned")
    expect(frame(phone).locator(".icon-row[data-icon=sky] .price")).to_have_text("Owned")

    # what the server keeps: a fresh page of the laptop reads both
    laptop.reload()
    open_conversation(laptop, "Icons")
    open_from_drawer(laptop, APP)
    expect(frame(laptop).locator(".icon-row[data-icon=cat] .price")).to_have_text("Owned")
    expect(frame(laptop).locator(".icon-row[data-icon=sky] .price")).to_have_text("Owned")
    assert not people.errors, people.errors


KEY_RE = re.compile(r"[0-9A-Z]{4}(?:-[0-9A-Z]{4}){5}")


def test_a_new_recovery_key_made_on_one_device_ends_the_other_devices_reminder(people):
    laptop = people.open("/")
    laptop.fill("#welcome-name", "Ana")
    laptop.get_by_role("button", name="Continue").click()
    laptop.locator(".me .name", has_text="Ana").wait_for(state="attached")
    laptop.locator("#recovery[open]").wait_for()
    laptop.locator("#recovery").get_by_role("button", name="Remind me later").click()
    create_conversation(laptop, "Mine")
    expect(laptop.locator("#recovery-reminder")).to_be_visible()
    phone = add_device(people, laptop)

    phone.get_by_role("button", name="Account", exact=True).click()
    phone.get_by_role("button", name="New recovery key").click()
    phone.locator("#recovery[open]").wait_for()
    assert KEY_RE.search(phone.locator("#recovery-key").inner_text())
    # the old key is dead: the laptop no longer offers it, nor keeps it for a reload
    expect(laptop.locator("#recovery-reminder")).to_be_hidden()
    assert laptop.evaluate("() => localStorage.getItem('parlor.recoveryKey')") is None
    # the phone, which made it, still shows its new one until it is saved
    expect(phone.locator("#recovery[open]")).to_have_count(1)
    phone.locator("#recovery").get_by_role("button", name="Remind me later").click()
    expect(phone.locator("#recovery-reminder")).to_be_visible()
    laptop.reload()
    laptop.locator(".me .name", has_text="Ana").wait_for(state="attached")
    expect(laptop.locator("#recovery-reminder")).to_be_hidden()
    assert not people.errors, people.errors


def test_an_app_installed_on_one_device_is_installed_on_the_other(people):
    laptop, phone = ana_on_two_devices(people, "Apps")
    install_app(laptop, APP)
    open_from_drawer(phone, APP)  # no reload
    close_pane(phone)
    # removed on the phone: gone from the laptop's drawer
    phone.locator(".chat-header").get_by_role("button", name="App Store").click()
    phone.locator("#app-store[open]").wait_for()
    phone.get_by_role("button", name=f"Remove {APP}").click()
    phone.get_by_role("button", name=f"Install {APP}").wait_for()
    phone.locator("#app-store").get_by_role("button", name="Done").click()
    laptop.get_by_role("button", name="Apps", exact=True).click()
    expect(laptop.locator("#drawer").get_by_role("button", name=f"Open {APP}")).to_have_count(0)
    assert not people.errors, people.errors


def test_a_new_name_given_on_one_device_is_ones_own_name_on_the_other(people):
    laptop, phone = ana_on_two_devices(people, "Names")
    laptop.get_by_role("button", name="Change your name").click()
    laptop.locator("#rename-input").fill("Ana B.")
    laptop.locator("#rename button[type=submit]").click()
    expect(laptop.locator(".me .name")).to_have_text("Ana B.")
    expect(phone.locator(".me .name")).to_have_text("Ana B.")
    phone.get_by_role("button", name="Change your name").click()
    expect(phone.locator("#rename-input")).to_have_value("Ana B.")
    assert not people.errors, people.errors



def test_a_new_name_reaches_the_other_device_in_no_conversation(people):
    """Her phone, linked before she is in any conversation, showed the old name until
    a reload: a rename reached only her conversations' subscribers."""
    laptop = people.join("Ana")
    phone = add_device(people, laptop)
    laptop.get_by_role("button", name="Change your name").click()
    laptop.locator("#rename-input").fill("Ana B.")
    laptop.locator("#rename button[type=submit]").click()
    expect(laptop.locator(".me .name")).to_have_text("Ana B.")
    expect(phone.locator(".me .name")).to_have_text("Ana B.")
    assert not people.errors, people.errors

def test_a_drawing_goes_on_where_it_was_left_even_with_wenderpic_open_on_the_other(people):
    """WenderPic open on the laptop (compact) while the phone draws a new game: the
    laptop's New Game then shows the phone's word and lines, not a word of its own
    whose drafts it would have saved over the phone's (a two-device review)."""
    import test_app_wenderpic as wp
    laptop, phone = ana_on_two_devices(people, "Draw")
    install_app(laptop, wp.APP)
    phone.reload()
    open_conversation(phone, "Draw")
    open_from_drawer(laptop, wp.APP)  # left open, compact
    open_from_drawer(phone, wp.APP)
    frame(phone).get_by_role("button", name="New Game").click()
    pane_ready(phone, "expanded")
    wp.drawn(phone)
    word = frame(phone).locator("#word").inner_text().strip()
    wp.draw_mouse(phone, wp.HOUSE)
    left = wp.ink(phone)
    assert left < 100
    phone.locator("#app-pane .pane-bar").get_by_role("button", name=f"Collapse {wp.APP}").click()
    pane_ready(phone, "compact")
    frame(laptop).get_by_role("button", name="New Game").click()
    pane_ready(laptop, "expanded")
    wp.drawn(laptop)
    expect(frame(laptop).locator("#word")).to_have_text(re.compile(f"^{re.escape(word)}$", re.IGNORECASE))
    expect(frame(laptop).locator("#ink")).to_have_attribute("aria-valuenow", str(left))


def test_a_conversation_read_on_the_phone_is_read_on_the_laptop(people):
    """Ana reads Ben's messages on her phone: the laptop's unread count clears without
    a reload (the server's read mark, told to her other devices); a message after
    that counts 1 again on both."""
    laptop = people.join("Ana")
    link = create_conversation(laptop, "Book club")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    expect(ben.locator("#chat-title")).to_have_text("Book club")
    create_conversation(laptop, "Family")  # the laptop looks at another conversation
    phone = add_device(people, laptop)
    open_conversation(phone, "Family")

    send_text(ben, "Chapter 3 tonight?")
    send_text(ben, "Bring snacks")
    on_laptop = laptop.locator(".conv-item", has_text="Book club").locator(".badge")
    on_phone = phone.locator(".conv-item", has_text="Book club").locator(".badge")
    expect(on_laptop).to_have_text("2")
    expect(on_phone).to_have_text("2")

    open_conversation(phone, "Book club")
    expect(phone.locator(".row[data-seq] .text-bubble")).to_have_text(["Chapter 3 tonight?", "Bring snacks"])
    expect(on_phone).to_have_count(0)
    expect(on_laptop).to_have_count(0)

    open_conversation(phone, "Family")  # so that the phone does not read the next one
    send_text(ben, "And cake")
    expect(on_laptop).to_have_text("1")
    expect(on_phone).to_have_text("1")
