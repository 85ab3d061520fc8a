"""Sending a photo: the composer's camera button picks a picture (a phone offers its
camera and its photos), which waits in the composer like an app's until Send. A phone's
photo is larger than the server keeps and carries where it was taken: it goes drawn
again as a JPEG of at most 2048 px a side. What is no picture is refused, saying so."""

import json
import re
import urllib.request

from playwright.sync_api import expect

from a11y import axe_findings
from conftest import create_conversation, press_send_button, red_png, send_text, shot


def pick(page, name, mime, data):
    """Picks a file with the Photo button's file chooser, as a person does."""
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Add a photo").tap() if page.evaluate("matchMedia('(pointer: coarse)').matches") \
            else page.get_by_role("button", name="Add a photo").click()
    chooser.value.set_files(files=[{"name": name, "mimeType": mime, "buffer": data}])


def ben_sends_a_photo(people, name, width, height):
    """Ana on a computer and Ben on a phone in one conversation, Ben's photo sent to it."""
    ana = people.join("Ana")
    link = create_conversation(ana, "Holiday")
    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True)
    pick(ben, name, "image/png", red_png(width, height))
    press_send_button(ben)
    return ana, ben


def test_a_photo_from_a_phone_is_sent_smaller_and_shown_to_the_others(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Holiday")
    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True)
    big = red_png(3000, 1500)

    # not a picture: said so, nothing staged
    pick(ben, "notes.txt", "text/plain", b"hello")
    expect(ben.locator(".composer-area .notice")).to_contain_text("“notes.txt” is not a picture.")
    expect(ben.locator(".staged-item")).to_have_count(0)

    # a big one: staged with its picture, nothing sent until Send
    pick(ben, "beach.png", "image/png", big)
    staged = ben.locator(".staged-item[data-kind=attachment]")
    expect(staged).to_contain_text("beach.png")
    ben.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=staged.locator("img.thumb").element_handle())
    shot(ben, "photo-staged-phone")
    expect(ana.locator(".row[data-seq]")).to_have_count(0)
    press_send_button(ben)
    expect(staged).to_have_count(0)

    # the others see it, at most 2048 px a side, a JPEG
    row = ana.locator(".row[data-seq][data-kind=attachment]")
    expect(row).to_have_count(1)
    img = row.locator("img")
    expect(img).to_have_attribute("alt", "beach.png")
    ana.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=img.element_handle())
    assert img.evaluate("i => [i.naturalWidth, i.naturalHeight]") == [2048, 1024]
    src = img.get_attribute("src")
    with urllib.request.urlopen(people.server.base + src, timeout=10) as r:
        assert r.headers["Content-Type"] == "image/jpeg" and len(r.read()) < 1_000_000
    shot(ana, "photo-received-desktop")
    # Ben's own, after it was stored: the server's picture
    mine = ben.locator(".row[data-seq][data-kind=attachment] img")
    expect(mine).to_have_attribute("src", src)


def test_a_photo_sent_offline_goes_once_back(people):
    """Picked and sent with no connection, it shows as sending, with the picture from
    this browser, and goes when the connection is back (uploaded then)."""
    ana = people.join("Ana")
    link = create_conversation(ana, "Tunnel")
    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True)
    expect(ben.locator("html")).to_have_attribute("data-connection", "online")
    ben.context.set_offline(True)
    expect(ben.locator("html")).not_to_have_attribute("data-connection", "online")
    pick(ben, "tunnel.png", "image/png", red_png(800, 600))
    expect(ben.locator(".staged-item[data-kind=attachment]")).to_contain_text("tunnel.png")
    press_send_button(ben)
    pending = ben.locator(".row.pending[data-kind=attachment] img")
    expect(pending).to_have_count(1)
    ben.wait_for_function("img => img.complete && img.naturalWidth === 800", arg=pending.element_handle())
    ben.context.set_offline(False)
    row = ana.locator(".row[data-seq][data-kind=attachment] img")
    expect(row).to_have_count(1, timeout=30_000)
    ana.wait_for_function("img => img.complete && img.naturalWidth === 800", arg=row.element_handle())
    expect(ben.locator(".row.pending")).to_have_count(0)


def test_a_photo_waiting_in_the_composer_survives_a_reload(people):
    """Staged and not sent, the photo is kept by this browser (as an app's drawing is):
    after a reload it still waits in the composer, with its picture, and Send sends it."""
    ana = people.join("Ana")
    link = create_conversation(ana, "Kept")
    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True)
    pick(ben, "kept.png", "image/png", red_png(640, 480))
    staged = ben.locator(".staged-item[data-kind=attachment]")
    expect(staged).to_contain_text("kept.png")
    ben.reload()
    expect(ben.locator("#chat-title")).to_have_text("Kept")
    expect(staged).to_contain_text("kept.png")
    ben.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=staged.locator("img.thumb").element_handle())
    press_send_button(ben)
    row = ana.locator(".row[data-seq][data-kind=attachment] img")
    expect(row).to_have_count(1)
    ana.wait_for_function("img => img.complete && img.naturalWidth === 640", arg=row.element_handle())


def test_a_photo_opens_whole_and_the_focus_comes_back_to_it(people):
    """In the transcript a photo is at most 260 px a side; it was sent at up to 2048. A
    tap on it shows it as large as the screen lets it be, saying whose and when, with
    Save; Close, Escape or a tap beside it put it away."""
    ana, ben = ben_sends_a_photo(people, "tower.png", 1000, 2000)
    viewer = ana.locator("#photo-viewer[open]")

    # Ana, with the keyboard: Enter on the photo, then Escape
    photo = ana.get_by_role("button", name="View photo: tower.png")
    expect(photo).to_be_visible()
    ana.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=photo.locator("img").element_handle())
    photo.focus()
    ana.keyboard.press("Enter")
    expect(viewer).to_be_visible()
    expect(ana.get_by_role("dialog", name="Photo from Ben")).to_contain_text("Today")
    expect(viewer.get_by_role("button", name="Close")).to_be_focused()
    whole = viewer.locator("img")
    expect(whole).to_have_attribute("alt", "tower.png")
    ana.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=whole.element_handle())
    box = whole.bounding_box()
    assert 600 < box["height"] <= 800 and abs(box["width"] * 2 - box["height"]) < 4, f"not shown whole and large: {box}"
    save = viewer.get_by_role("link", name="Save tower.png")
    assert save.get_attribute("href") == whole.get_attribute("src")
    with ana.expect_download() as saved:
        save.click()
    assert saved.value.suggested_filename == "tower.jpeg"  # what it is now, not the PNG it was picked as
    assert axe_findings(ana, "photo viewer") == []
    shot(ana, "photo-viewer-desktop")
    ana.keyboard.press("Escape")
    expect(viewer).to_have_count(0)
    expect(photo).to_be_focused()

    # a click beside the photo puts it away too; on the photo, nothing
    photo.click()
    expect(viewer).to_be_visible()
    whole.click()
    expect(viewer).to_be_visible()
    ana.mouse.click(100, 400)
    expect(viewer).to_have_count(0)

    # Ben's own, on his phone: a tap, "You", within the screen, Close
    mine = ben.get_by_role("button", name="View photo: tower.png")
    expect(mine).to_be_visible()
    mine.tap()
    expect(ben.get_by_role("dialog", name="Your photo")).to_be_visible()
    ben.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=ben.locator("#photo-viewer img").element_handle())
    box = ben.locator("#photo-viewer img").bounding_box()
    assert box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844, box
    shot(ben, "photo-viewer-phone")
    ben.locator("#photo-viewer").get_by_role("button", name="Close").tap()
    expect(ben.locator("#photo-viewer[open]")).to_have_count(0)


# A File of the bytes given, in the page (what a paste or a drop carries).
DATA_TRANSFER = """([name, type, bytes]) => {
  const dt = new DataTransfer();
  dt.items.add(new File([new Uint8Array(bytes)], name, { type }));
  return dt;
}"""


def test_a_picture_pasted_or_dropped_goes_in_the_message_box(people, tmp_path):
    """On a computer a screenshot is pasted and a photo dragged from the files: either
    waits in the message box as the Photo button's pick would. Text still pastes as
    text, and a file dropped beside the conversation does not take the page away."""
    ana = people.join("Ana")
    link = create_conversation(ana, "Desk")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    box = ana.get_by_role("textbox", name="Message")
    staged = ana.locator(".staged-item[data-kind=attachment]")

    # pasted: a screenshot goes in as a photo, text is left to the box
    screenshot = ana.evaluate_handle(DATA_TRANSFER, ["image.png", "image/png", list(red_png(800, 600))])
    pasted = box.evaluate("(el, dt) => !el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }))", screenshot)
    assert pasted, "the paste was left to the box"
    expect(staged).to_contain_text("image.png")
    expect(box).to_be_focused()
    words = box.evaluate("""el => { const dt = new DataTransfer(); dt.setData('text/plain', 'hello');
        return el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true })) }""")
    assert words, "a text paste was taken from the box"
    staged.get_by_role("button", name="Remove image.png").click()
    expect(staged).to_have_count(0)

    # dropped on the conversation, through the browser's own drag and drop (the drop
    # comes only if the conversation took the drag): shown where it goes, then staged
    cat = tmp_path / "cat.png"
    cat.write_bytes(red_png(640, 480))
    drag = ana.context.new_cdp_session(ana)

    def dragged(path, *steps):
        for step in steps:
            drag.send("Input.dispatchDragEvent", {"type": step, "x": 700, "y": 400,
                                                  "data": {"items": [], "files": [str(path)], "dragOperationsMask": 1}})

    dragged(cat, "dragEnter", "dragOver")
    expect(ana.locator("#chat.dropping")).to_have_count(1)
    shot(ana, "photo-dropping-desktop")
    dragged(cat, "drop")
    expect(ana.locator("#chat.dropping")).to_have_count(0)
    expect(staged).to_contain_text("cat.png")
    press_send_button(ana)
    expect(ben.get_by_role("button", name="View photo: cat.png")).to_be_visible()

    # a file that is no picture: said so; beside the conversation: nothing, and no leaving
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    dragged(notes, "dragEnter", "dragOver", "drop")
    expect(ana.locator(".composer-area .notice")).to_contain_text("“notes.txt” is not a picture.")
    photo = ana.evaluate_handle(DATA_TRANSFER, ["cat.png", "image/png", list(red_png(64, 48))])
    beside = ana.locator(".sidebar").evaluate("(el, dt) => !el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }))", photo)
    assert beside, "a file dropped beside the conversation was left to the browser (which opens it, leaving Parlor)"
    expect(staged).to_have_count(0)


def test_a_reply_to_a_photo_shows_it_small_beside_its_quote(people):
    """As in Messages: a reply to a photo says whose, and shows the photo small, in the
    strip above the message box and in the quote over the reply, for both."""
    ana, ben = ben_sends_a_photo(people, "beach.png", 1200, 900)
    photo = ana.locator(".row[data-seq][data-kind=attachment]")
    expect(photo).to_have_count(1)
    src = photo.locator("img").get_attribute("src")

    reply = photo.get_by_role("button", name=re.compile(r"^Reply to message: "))
    reply.focus()
    ana.keyboard.press("Enter")
    strip = ana.locator(".reply-strip")
    expect(strip).to_contain_text("Replying to Ben")
    expect(strip.locator("img.reply-picture")).to_have_attribute("src", src)
    send_text(ana, "what a view!")

    for page, who in ((ana, "Ben"), (ben, "You")):
        quoted = page.locator(".row[data-seq][data-kind=text]", has_text="what a view!").locator(".reply-quote")
        expect(quoted.locator(".reply-quote-who")).to_have_text(who)
        picture = quoted.locator("img.reply-picture")
        expect(picture).to_have_attribute("src", src)
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=picture.element_handle())
        assert picture.evaluate("img => [img.clientWidth, img.clientHeight]") == [36, 36]
    shot(ben, "photo-reply-phone")
    assert axe_findings(ana, "a reply to a photo") == []


def test_a_photo_deleted_while_it_is_open_is_put_away(people):
    """Taken down by its sender (or an admin, everywhere) while someone looks at it whole:
    the viewer closes, saying why, and the focus goes back to the conversation."""
    ana = people.join("Ana")
    link = create_conversation(ana, "Holiday")
    ben = people.on_protocol("Ben")
    joined = ben.call("conversations.join", invite=link.rsplit("/", 1)[-1])
    cid = joined["conversation"]["id"]
    sent = ben.call("send", conversationId=cid, clientId="beach-1",
                    message={"kind": "attachment", "image": ben.upload_picture(600, 400), "name": "beach.png"})
    photo = ana.get_by_role("button", name="View photo: beach.png")
    photo.click()
    viewer = ana.locator("#photo-viewer[open]")
    expect(viewer).to_be_visible()

    ben.call("messages.delete", conversationId=cid, seq=sent["message"]["seq"])
    expect(viewer).to_have_count(0)
    expect(ana.locator(".row[data-kind=deleted]")).to_have_count(1)
    expect(ana.locator("#toast")).to_have_text("The photo was deleted.")
    assert ana.evaluate("document.activeElement.closest('#chat') !== null"), "the focus was left on nothing"


def test_the_conversations_photos_are_a_swipe_or_an_arrow_key_apart(people):
    """Open whole, a photo leads to the conversation's others, as in Messages: arrow keys
    and Previous and Next on a computer, a swipe on a phone."""
    ana = people.join("Ana")
    link = create_conversation(ana, "Holiday")
    ben = people.on_protocol("Ben")
    cid = ben.call("conversations.join", invite=link.rsplit("/", 1)[-1])["conversation"]["id"]
    for i, name in enumerate(("one.png", "two.png", "three.png")):
        ben.call("send", conversationId=cid, clientId=f"photo-{i}",
                 message={"kind": "attachment", "image": ben.upload_picture(300 + 100 * i, 200), "name": name})
    ben.send_text(cid, "and that was the trip")
    viewer = ana.locator("#photo-viewer[open]")
    shown = viewer.locator("img")

    ana.get_by_role("button", name="View photo: two.png").click()
    expect(shown).to_have_attribute("alt", "two.png")
    previous, following = viewer.get_by_role("button", name="Previous photo"), viewer.get_by_role("button", name="Next photo")
    expect(previous).to_be_visible()
    expect(following).to_be_visible()
    ana.keyboard.press("ArrowRight")
    expect(shown).to_have_attribute("alt", "three.png")
    expect(following).to_be_hidden()  # the last one
    ana.keyboard.press("ArrowRight")
    expect(shown).to_have_attribute("alt", "three.png")
    previous.click()
    previous.click()
    expect(shown).to_have_attribute("alt", "one.png")
    expect(previous).to_be_hidden()
    expect(viewer).to_have_accessible_name("Photo from Ben")
    ana.keyboard.press("Escape")
    expect(viewer).to_have_count(0)

    # on a phone: a swipe to the left is the next one, to the right the one before
    cy = people.join("Cy", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True)
    cy.get_by_role("button", name="View photo: one.png").tap()
    cy_shown = cy.locator("#photo-viewer[open] img")
    expect(cy_shown).to_have_attribute("alt", "one.png")
    touch = cy.context.new_cdp_session(cy)

    def swipe(x0, x1, y=420):
        touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y}]})
        for k in range(1, 6):
            touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x0 + (x1 - x0) * k / 5, "y": y}]})
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    swipe(300, 100)
    expect(cy_shown).to_have_attribute("alt", "two.png")
    swipe(300, 100)
    expect(cy_shown).to_have_attribute("alt", "three.png")
    swipe(100, 300)
    expect(cy_shown).to_have_attribute("alt", "two.png")
    expect(cy.locator("#photo-viewer[open]")).to_be_visible()  # a swipe is not a tap beside it
    shot(cy, "photo-viewer-phone-between")
    cy.locator("#photo-viewer .photo-viewer-bar").tap(position={"x": 200, "y": 30})  # the bar: nothing
    cy.locator("#photo-viewer .photo-viewer-stage").tap(position={"x": 195, "y": 60})  # beside the photo, after a swipe
    expect(cy.locator("#photo-viewer[open]")).to_have_count(0)
