"""Two people meet through an invite link and talk, live."""

from playwright.sync_api import expect

from conftest import create_conversation, send_text, shot


def test_two_people_meet_through_an_invite_link_and_talk_live(people):
    ana = people.join("Ana")
    ana.context.grant_permissions(["clipboard-read", "clipboard-write"])
    link = create_conversation(ana, "Friday games")
    assert "/#/join/" in link
    assert ana.evaluate("navigator.clipboard.readText()") == link, "the invite link is on the clipboard"

    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), dark=True, mobile=True)
    expect(ben.locator("#chat-title")).to_have_text("Friday games")
    expect(ana.locator("#chat-presence")).to_contain_text("Ben online")

    send_text(ana, "Hi Ben, ready for a game?")
    expect(ben.locator(".row:not(.mine) .text-bubble")).to_have_text(["Hi Ben, ready for a game?"])
    send_text(ben, "Always 🎲")
    expect(ana.locator(".row:not(.mine) .text-bubble")).to_have_text(["Always 🎲"])

    # markup is text, never HTML
    hostile = '<img src=x onerror="document.title=\'pwned\'"><b>bold</b>'
    send_text(ben, hostile)
    bubble = ana.locator(".text-bubble", has_text="bold")
    expect(bubble).to_have_text(hostile)
    assert bubble.locator("img, b").count() == 0
    assert ana.title() != "pwned"

    # both sides hold the same transcript, in the same order, once each
    texts = ["Hi Ben, ready for a game?", "Always 🎲", hostile]
    expect(ana.locator(".row[data-seq] .text-bubble")).to_have_text(texts)
    expect(ben.locator(".row[data-seq] .text-bubble")).to_have_text(texts)
    shot(ana, "desktop-light-transcript")
    shot(ben, "phone-dark-transcript")


def test_unread_counts_and_the_conversation_list(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Book club")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    expect(ben.locator("#chat-title")).to_have_text("Book club")
    create_conversation(ana, "Family")  # Ana now looks at another conversation

    send_text(ben, "Chapter 3 tonight?")
    send_text(ben, "Bring snacks")
    item = ana.locator(".conv-item", has_text="Book club")
    expect(item.locator(".badge")).to_have_text("2")
    expect(item.locator(".conv-preview")).to_have_text("Bring snacks")
    expect(ana.locator(".conv-item").first).to_contain_text("Book club")  # most recent first
    shot(ana, "desktop-light-unread")

    item.locator("a").click()
    expect(ana.locator("#chat-title")).to_have_text("Book club")
    expect(item.locator(".badge")).to_have_count(0)


def test_coming_back_signs_in_again_and_keeps_the_draft(people):
    ana = people.join("Ana")
    create_conversation(ana, "Plans")
    send_text(ana, "first")
    expect(ana.locator(".row[data-seq] .text-bubble")).to_have_text(["first"])
    ana.fill("#composer-input", "half-typed thought")
    ana.reload()
    expect(ana.locator(".me .name")).to_have_text("Ana")
    expect(ana.locator("#welcome")).to_be_hidden()
    expect(ana.locator("#chat-title")).to_have_text("Plans")
    expect(ana.locator(".row[data-seq] .text-bubble")).to_have_text(["first"])
    expect(ana.locator("#composer-input")).to_have_value("half-typed thought")


def test_keyboard_only(people):
    ana = people.join("Ana")
    create_conversation(ana, "Keys")
    ana.locator("#composer-input").focus()
    ana.keyboard.type("typed with keys")
    ana.keyboard.press("Enter")
    expect(ana.locator(".row[data-seq] .text-bubble")).to_have_text(["typed with keys"])
    ana.keyboard.press("Shift+Tab")
    expect(ana.get_by_role("button", name="Record a voice message")).to_be_focused()
    ana.keyboard.press("Shift+Tab")
    expect(ana.get_by_role("button", name="Add a photo")).to_be_focused()
    ana.keyboard.press("Shift+Tab")
    expect(ana.get_by_role("button", name="Apps", exact=True)).to_be_focused()
    ana.keyboard.press("Enter")
    expect(ana.locator("#drawer")).to_be_visible()
    # every control has an accessible name
    unnamed = ana.evaluate("""() => [...document.querySelectorAll('button, a[href], input, textarea')]
        .filter(el => el.offsetParent !== null)
        .filter(el => !(el.getAttribute('aria-label') || el.textContent.trim() || (el.labels && el.labels.length)))
        .map(el => el.outerHTML.slice(0, 80))""")
    assert unnamed == []


def test_a_new_name_reaches_the_others(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Names")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    send_text(ana, "who am I?")
    expect(ben.locator(".row:not(.mine) .sender")).to_have_text(["Ana"])
    ana.get_by_role("button", name="Change your name").click()
    ana.fill("#rename-input", "Ana Belén")
    ana.locator("#rename button[type=submit]").click()
    expect(ana.locator(".me .name")).to_have_text("Ana Belén")
    expect(ben.locator(".row:not(.mine) .sender")).to_have_text(["Ana Belén"])
    expect(ben.locator("#chat-presence")).to_contain_text("Ana Belén")


def test_closing_the_app_store_gives_the_focus_back_to_its_button(people):
    """With the keyboard: the drawer's App Store, Install an app (the drawer is
    drawn again with it), Escape: the focus is on the App Store button again,
    not dropped to the message box. The same from the header's button."""
    ana = people.join("Ana")
    create_conversation(ana, "Store keys")
    ana.get_by_role("button", name="Apps", exact=True).click()
    drawer_store = ana.locator("#drawer").get_by_role("button", name="App Store")
    drawer_store.focus()
    ana.keyboard.press("Enter")
    store = ana.locator("#app-store[open]")
    expect(store).to_be_visible()
    store.get_by_role("button", name="Install WenderPic").focus()
    ana.keyboard.press("Enter")
    expect(store.get_by_role("button", name="Remove WenderPic")).to_be_focused()
    expect(ana.locator("#drawer").get_by_role("button", name="Open WenderPic")).to_have_count(1)
    ana.keyboard.press("Escape")
    expect(store).to_have_count(0)
    expect(drawer_store).to_be_focused()

    header_store = ana.locator(".chat-header").get_by_role("button", name="App Store")
    header_store.focus()
    ana.keyboard.press("Enter")
    expect(store).to_be_visible()
    ana.keyboard.press("Escape")
    expect(header_store).to_be_focused()

    # the dialog's close event comes a task after it closed: the focus moved on meanwhile
    # (here at once, in the same task) stays where it went (a fresh clone's make test
    # failed the step above when its focus() came before that event, which took it back)
    drawer_store.click()
    expect(store).to_be_visible()
    ana.evaluate("""() => new Promise((done) => {
        const dialog = document.getElementById('app-store');
        dialog.addEventListener('close', () => done(), { once: true });  // after the page's own
        dialog.close();
        document.querySelector('.chat-header [aria-label="App Store"]').focus();
    })""")
    expect(header_store).to_be_focused()


def test_a_web_address_in_a_message_is_a_link_and_nothing_else_is(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Links")
    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True)
    text = "menu at https://example.org/pizza?size=large, not javascript:alert(1)!"
    send_text(ben, text)
    bubble = ana.locator(".row:not(.mine) .text-bubble")
    expect(bubble).to_have_text(text)
    a = bubble.locator("a")
    expect(a).to_have_count(1)
    expect(a).to_have_text("https://example.org/pizza?size=large")
    assert a.get_attribute("href") == "https://example.org/pizza?size=large"
    assert a.get_attribute("target") == "_blank"
    assert set(a.get_attribute("rel").split()) >= {"noopener", "noreferrer"}
    mine = ben.locator(".row.mine[data-seq] .text-bubble a")
    expect(mine).to_have_text("https://example.org/pizza?size=large")
    shot(ben, "phone-light-link")


def test_a_new_messages_line_stands_above_what_came_while_away(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Book club")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    expect(ben.locator("#chat-title")).to_have_text("Book club")
    send_text(ana, "Who has the book?")
    expect(ben.locator(".row:not(.mine) .text-bubble")).to_have_text(["Who has the book?"])
    create_conversation(ana, "Family")  # Ana looks elsewhere

    for text in ("Me!", "Chapter 3 tonight?", "Bring snacks"):
        send_text(ben, text)
    item = ana.locator(".conv-item", has_text="Book club")
    expect(item.locator(".badge")).to_have_text("3")
    item.locator("a").click()
    expect(ana.locator("#chat-title")).to_have_text("Book club")
    # the line stands between what she had read and the first of Ben's three
    rows = ana.locator("#transcript > .row, #transcript > .new-line")
    expect(rows).to_have_count(5)
    assert rows.nth(1).get_attribute("class").split()[-1] == "new-line"
    expect(rows.nth(2)).to_contain_text("Me!")
    shot(ana, "new-messages-line")

    # what comes while she reads is not "new" to her: the line stays where it was
    send_text(ben, "And drinks")
    expect(ana.locator(".row:not(.mine) .text-bubble").last).to_have_text("And drinks")
    expect(ana.locator("#transcript > .new-line")).to_have_count(1)
    expect(rows.nth(2)).to_contain_text("Me!")

    # opened again with nothing unread: no line
    ana.locator(".conv-item", has_text="Family").locator("a").click()
    expect(ana.locator("#chat-title")).to_have_text("Family")
    item.locator("a").click()
    expect(ana.locator("#chat-title")).to_have_text("Book club")
    expect(ana.locator(".row:not(.mine) .text-bubble").last).to_have_text("And drinks")
    expect(ana.locator("#transcript > .new-line")).to_have_count(0)


def test_return_on_a_phone_starts_a_new_line_and_send_sends(people):
    """A phone's keyboard has no Shift+Enter: its return sent the message half written.
    As in Messages, return starts a new line there and Send sends; on a computer Enter
    still sends and Shift+Enter starts the line."""
    ana = people.join("Ana")
    link = create_conversation(ana, "Lines")
    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True)
    box = ben.locator("#composer-input")
    box.tap()
    ben.keyboard.type("Shopping:")
    ben.keyboard.press("Enter")
    ben.keyboard.type("mussels")
    expect(box).to_have_value("Shopping:\nmussels")
    expect(ben.locator(".row[data-seq]")).to_have_count(0)
    ben.get_by_role("button", name="Send", exact=True).tap()
    expect(box).to_have_value("")
    expect(box).to_be_focused()  # the keyboard stays up for the next one
    bubble = ana.locator(".row:not(.mine) .text-bubble")
    expect(bubble).to_have_text("Shopping:\nmussels")
    assert bubble.evaluate("b => b.getClientRects().length && b.offsetHeight > 1.8 * parseFloat(getComputedStyle(b).lineHeight)"), \
        "the two lines are shown as two"
    # a computer: Shift+Enter a line, Enter sends
    ana.locator("#composer-input").fill("one")
    ana.keyboard.press("Shift+Enter")
    ana.keyboard.type("two")
    ana.keyboard.press("Enter")
    expect(ben.locator(".row:not(.mine) .text-bubble")).to_have_text("one\ntwo")
