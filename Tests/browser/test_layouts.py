"""Phone and desktop layouts, light and dark: the main states, screenshotted
(test-artifacts/) and checked for their geometry."""

from playwright.sync_api import expect

from conftest import create_conversation, install_app, open_from_drawer, pane_ready, saved_recovery_key, send_text, shot

PHONE = (390, 844)


def box(page, selector):
    return page.locator(selector).bounding_box()


def test_phone_layout_list_chat_and_pane(people):
    ana = people.open("/", viewport=PHONE, dark=True, mobile=True)
    expect(ana.locator("#welcome-name")).to_be_visible()
    shot(ana, "phone-dark-welcome")
    ana.fill("#welcome-name", "Ana")
    ana.keyboard.press("Enter")
    expect(ana.locator("#welcome")).to_be_hidden()
    shot(ana, "phone-dark-recovery-key")
    saved_recovery_key(ana)
    link = create_conversation(ana, "Weekend")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    send_text(ben, "Hiking on Saturday?")
    send_text(ana, "Yes! Let's vote on the time")

    # a phone shows one column: the conversation, with a way back to the list
    expect(ana.locator("#sidebar")).to_be_hidden()
    ana.get_by_role("button", name="Back to conversations").click()
    expect(ana.locator("#sidebar")).to_be_visible()
    expect(ana.locator("#chat")).to_be_hidden()
    shot(ana, "phone-dark-list")
    ana.locator(".conv-item a").first.click()
    expect(ana.locator("#chat-title")).to_have_text("Weekend")

    install_app(ana, "Quick Poll")
    open_from_drawer(ana, "Quick Poll")
    composer = box(ana, ".composer")
    pane = box(ana, "#app-pane")
    assert pane["y"] >= composer["y"] + composer["height"] - 1, "compact: in the keyboard's place, under the composer"
    assert pane["y"] + pane["height"] <= PHONE[1] + 1
    shot(ana, "phone-dark-compact-pane")
    ana.locator("#app-pane").get_by_role("button", name="Expand Quick Poll").first.click()
    pane_ready(ana, "expanded")
    pane = box(ana, "#app-pane")
    assert pane["y"] <= 1 and pane["height"] >= PHONE[1] - 1, "expanded: the whole screen"
    shot(ana, "phone-dark-expanded-pane")


def test_desktop_dark_transcript_with_an_app(people):
    ana = people.join("Ana", dark=True)
    link = create_conversation(ana, "Game night")
    ben = people.join("Ben", link.replace(people.server.base, ""), dark=True)
    send_text(ben, "Who's in for Friday?")
    send_text(ana, "Me! Let's ask everyone")
    install_app(ana, "Quick Poll")
    open_from_drawer(ana, "Quick Poll")
    frame = ana.frame_locator("#app-pane iframe")
    frame.locator("#question").fill("Board games at mine?")
    frame.get_by_role("button", name="Ask").click()
    expect(ana.locator(".staged-item[data-kind=app]")).to_contain_text("Board games at mine?")
    ana.fill("#composer-input", "vote please 🙏")
    shot(ana, "desktop-dark-compact-pane-staged")
    ana.get_by_role("button", name="Send", exact=True).click()
    expect(ben.locator(".row[data-seq][data-kind=app]")).to_have_count(1)
    expect(ben.locator(".text-bubble", has_text="vote please")).to_be_visible()
    ana.locator("#app-pane").get_by_role("button", name="Close Quick Poll").click()
    expect(ana.locator("#app-pane")).to_be_hidden()
    # the staged message was sent before the text typed with it (both stored on Ana's side too)
    expect(ana.locator("#transcript .row.pending")).to_have_count(0)
    kinds = ana.locator(".row[data-seq]").evaluate_all("rows => rows.map(r => r.dataset.kind)")
    assert kinds[-2:] == ["app", "text"]
    sidebar = box(ana, "#sidebar")
    chat = box(ana, "#chat")
    assert sidebar["x"] + sidebar["width"] <= chat["x"] + 1, "desktop: the list beside the conversation"
    shot(ana, "desktop-dark-transcript")
    shot(ben, "desktop-dark-get-app")
