"""Search in a conversation: Ctrl+F in the conversation opens it (not elsewhere), what is
typed is searched for, the matches list who, when and the line with the words marked;
choosing one shows the message in the transcript, highlighted and focused, also when
it is hundreds of messages up and not loaded; "No messages found"; Escape closes it and
the focus goes back where it was. On a phone, by tap, in the dark scheme. axe clean."""

import re

from playwright.sync_api import expect

from a11y import axe_findings
from conftest import ProtocolPerson, create_conversation, shot

FILLER = 800  # far more than the page holds (250) and than paging back reaches at once (500)


def row(page, text):
    return page.locator(".row[data-seq]").filter(has=page.locator(".bubble", has_text=text))


def in_view(page, locator):
    return page.evaluate("""(el) => {
      const t = document.getElementById("transcript").getBoundingClientRect();
      const r = el.getBoundingClientRect();
      return r.height > 0 && r.top >= t.top - 1 && r.bottom <= t.bottom + 1;
    }""", locator.element_handle())


def ben_says_then_fills(people, link, first):
    """Ben joins on the protocol, says `first`, then FILLER more messages in bursts."""
    ben = ProtocolPerson(people.server, "Ben")
    try:
        cid = ben.call("conversations.join", invite=link.rsplit("/", 1)[-1])["conversation"]["id"]
        ben.send_text(cid, first)

        async def fill():
            for start in range(0, FILLER, 200):
                futures = await ben.client.start_burst([
                    ("send", {"conversationId": cid, "clientId": f"fill-{i}", "message": {"kind": "text", "text": f"filler {i}"}})
                    for i in range(start, min(FILLER, start + 200))
                ])
                for f in futures:
                    assert (await f)["type"] == "result"

        ben.run(fill(), timeout=120)
    finally:
        ben.close()


def test_by_keyboard_a_message_far_up_is_found_and_shown(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Search")
    ben_says_then_fills(people, link, "My new address: 12 Rue de la Paix, come by!")
    expect(row(ana, f"filler {FILLER - 1}")).to_have_count(1, timeout=30_000)
    expect(row(ana, "Rue de la Paix")).to_have_count(0)  # far up, not held

    # Ctrl+F elsewhere is the browser's own: the list of conversations keeps it
    ana.locator("#sidebar").get_by_role("button", name="New conversation").focus()
    ana.keyboard.press("Control+f")
    panel = ana.locator("#search-panel")
    expect(panel).to_be_hidden()

    # in the message box it searches the conversation
    ana.locator("#composer-input").focus()
    ana.keyboard.press("Control+f")
    field = ana.get_by_role("searchbox", name="Search in this conversation")
    expect(field).to_be_focused()
    expect(ana.get_by_role("button", name="Search in this conversation")).to_have_attribute("aria-expanded", "true")
    ana.keyboard.type("rue de la PAIX")
    count = ana.locator("#search-count")
    expect(count).to_have_text("1 message found")
    expect(count).to_have_attribute("aria-live", "polite")
    results = ana.get_by_role("list", name="Messages found").get_by_role("listitem")
    expect(results).to_have_count(1)
    result = results.first
    expect(result.locator(".search-result-who")).to_have_text("Ben")
    expect(result.locator("mark")).to_have_text("Rue de la Paix")
    expect(result.locator(".search-result-line")).to_have_text("My new address: 12 Rue de la Paix, come by!")
    shot(ana, "search-desktop-light")
    assert axe_findings(ana, "search") == []

    # down to the match, Enter: search closes, the message is shown, highlighted, focused
    ana.keyboard.press("ArrowDown")
    expect(result.get_by_role("button")).to_be_focused()
    ana.keyboard.press("Enter")
    expect(panel).to_be_hidden()
    original = row(ana, "Rue de la Paix")
    expect(original).to_have_class(re.compile(r"\bhighlighted\b"))
    expect(original).to_be_focused()
    assert in_view(ana, original)
    expect(ana.get_by_role("button", name="Search in this conversation")).to_have_attribute("aria-expanded", "false")
    shot(ana, "search-desktop-light-shown")

    # opened again from there: the last search is still there; nothing found says so
    ana.keyboard.press("Control+f")
    expect(field).to_be_focused()
    expect(field).to_have_value("rue de la PAIX")
    expect(results).to_have_count(1)
    ana.keyboard.type("no such words anywhere")
    ana.keyboard.press("Enter")
    expect(count).to_have_text("No messages found")
    expect(results).to_have_count(0)
    # Escape: closed, the focus back on the message it came from
    ana.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(original).to_be_focused()

    # from the message box, Escape gives the focus back to the box
    ana.locator("#composer-input").focus()
    ana.keyboard.press("Control+f")
    expect(field).to_be_focused()
    ana.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(ana.locator("#composer-input")).to_be_focused()

    # the newest messages come back when the reader goes down to them
    ana.get_by_role("button", name="Show newer messages").wait_for()


def test_on_a_phone_in_the_dark_search_by_tap(people):
    ana = people.join("Ana", viewport=(390, 844), mobile=True, dark=True)
    link = create_conversation(ana, "Phone search")
    ben_says_then_fills(people, link, "Café at the usual place? Ben’s treat ☕")
    expect(row(ana, f"filler {FILLER - 1}")).to_have_count(1, timeout=30_000)

    ana.get_by_role("button", name="Search in this conversation").tap()
    field = ana.get_by_role("searchbox", name="Search in this conversation")
    expect(field).to_be_focused()
    field.fill("cafe")
    results = ana.get_by_role("list", name="Messages found").get_by_role("listitem")
    expect(results).to_have_count(1)
    expect(results.first.locator("mark")).to_have_text("Café")
    # the panel fits the narrow screen: nothing sticks out sideways
    box = ana.locator("#search-panel").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    shot(ana, "search-phone-dark")
    assert axe_findings(ana, "search-phone") == []

    results.first.get_by_role("button").tap()
    original = row(ana, "usual place")
    expect(original).to_have_class(re.compile(r"\bhighlighted\b"))
    expect(original).to_be_focused()
    assert in_view(ana, original)
    shot(ana, "search-phone-dark-shown")


def test_a_match_deleted_while_listed_leaves_the_list(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Deleting")
    ben = ProtocolPerson(people.server, "Ben")
    try:
        cid = ben.call("conversations.join", invite=link.rsplit("/", 1)[-1])["conversation"]["id"]
        gone = ben.send_text(cid, "the door code is 4521, keep it secret")
        ben.send_text(cid, "another secret: cake on Friday")
        expect(row(ana, "cake on Friday")).to_have_count(1)
        ana.locator("#composer-input").focus()
        ana.keyboard.press("Control+f")
        ana.keyboard.type("secret")
        results = ana.get_by_role("list", name="Messages found").get_by_role("listitem")
        expect(results).to_have_count(2)
        expect(ana.locator("#search-count")).to_have_text("2 messages found")
        ben.call("messages.delete", conversationId=cid, seq=gone["seq"])
        expect(results).to_have_count(1)
        expect(results.first).to_contain_text("cake on Friday")
    finally:
        ben.close()
