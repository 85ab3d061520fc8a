"""What a phone user meets beyond the portrait transcript: a phone held sideways
gets the one-column layout (not the desktop's list beside the chat), text in a
right-to-left script reads right to left wherever it is shown, the app
drawer's icons line up whatever the length of the apps' names, and Parlor can be
put on the home screen as an app of its own."""

import json

import pytest

from playwright.sync_api import expect

from conftest import create_conversation, install_app, send_text, shot

ARABIC = "مرحبا! كيف حالك؟"


def test_parlor_can_be_installed_on_a_phones_home_screen(people):
    """A web app manifest the browser reads without a complaint, with icons a launcher can
    use (maskable: cropped to its own shape) and its own window: Chromium's own
    installability check finds nothing missing."""
    ana = people.open("/", viewport=(390, 844), mobile=True)
    ana.locator("#welcome-name").wait_for()
    cdp = ana.context.new_cdp_session(ana)
    got = cdp.send("Page.getAppManifest")
    assert got["url"].endswith("/manifest.webmanifest") and got["errors"] == [], got
    manifest = got["manifest"]
    assert manifest["name"] == "Parlor" and manifest["display"] == "kStandalone", manifest
    assert manifest["startUrl"].endswith("/") and manifest["scope"].endswith("/"), manifest
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    # each icon is there, a picture of the size it says (an iPhone takes the touch icon)
    icons = [(i["url"], i["sizes"]) for i in manifest["icons"]]
    written = json.loads(got["data"])["icons"]
    assert any(i["purpose"] == "maskable" and i["sizes"] == "512x512" for i in written), written
    for url in [u for u, _ in icons] + [ana.evaluate("document.querySelector('link[rel=apple-touch-icon]').href")]:
        size = ana.evaluate("""async (url) => {
            const r = await fetch(url);
            if (!r.ok) return `${r.status}`;
            const img = new Image();
            img.src = URL.createObjectURL(await r.blob());
            await img.decode();
            return `${img.naturalWidth}x${img.naturalHeight}`;
        }""", url)
        stated = next((s for u, s in icons if u == url), None)
        assert size in (stated, "180x180") or (stated == "0x0" and size != "" and "x" in size), (url, size, stated)


def test_a_phone_held_sideways_shows_the_conversation_alone(people):
    ana = people.join("Ana", viewport=(844, 390), mobile=True)
    create_conversation(ana, "Sideways")
    expect(ana.locator(".sidebar")).to_be_hidden()
    expect(ana.get_by_role("button", name="Back to conversations")).to_be_visible()
    send_text(ana, "held sideways")
    chat = ana.locator(".chat").bounding_box()
    assert chat["width"] >= 840, f"the chat takes the whole width, not {chat['width']}"
    shot(ana, "phone-landscape")
    # a desktop window as short (a mouse, not a touch screen) keeps the list
    cleo = people.join("Cleo", viewport=(1280, 390))
    expect(cleo.locator(".sidebar")).to_be_visible()


def test_right_to_left_text_reads_right_to_left(people):
    ana = people.join("Ana", viewport=(390, 844), mobile=True)
    link = create_conversation(ana, "RTL")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    send_text(ben, ARABIC)
    bubble = ana.locator(".row:not(.mine) .text-bubble")
    expect(bubble).to_have_text(ARABIC)
    assert bubble.evaluate("el => el.matches(':dir(rtl)')")
    send_text(ana, "hello")
    mine = ana.locator(".row.mine[data-seq] .text-bubble", has_text="hello")
    expect(mine).to_be_visible()
    assert mine.evaluate("el => el.matches(':dir(ltr)')")
    # typed in the message box: right to left as it is typed
    ana.fill("#composer-input", ARABIC)
    assert ana.locator("#composer-input").evaluate("el => el.matches(':dir(rtl)')")
    # the conversation list's last line, on Ben's desktop
    send_text(ana, ARABIC)
    preview = ben.locator(".conv-preview").first
    expect(preview).to_have_text(ARABIC)
    assert preview.evaluate("el => el.matches(':dir(rtl)')")
    shot(ana, "phone-rtl")


def test_the_drawer_icons_line_up(people):
    ana = people.join("Ana", viewport=(390, 844), mobile=True)
    create_conversation(ana, "Drawer")
    for app in ("The Daily Quote", "WenderPic", "Ice Cream Builder"):  # names of two lines and of one
        install_app(ana, app)
    if ana.locator("#drawer").is_hidden():
        ana.get_by_role("button", name="Apps", exact=True).click()
    icons = ana.locator(".drawer-app .app-icon, .drawer-app .store-glyph")
    expect(icons).to_have_count(4)
    expect(icons.first).to_be_visible()
    tops = {round(b["y"]) for b in (icons.nth(i).bounding_box() for i in range(icons.count())) if b}
    assert len(tops) == 1, f"every icon at one height, not {sorted(tops)}"
    shot(ana, "phone-drawer")


def test_offline_with_an_app_expanded_the_note_sits_in_the_panes_bar(people):
    """The offline banner floated over the expanded app's own heading on a phone."""
    from conftest import open_from_drawer, pane_ready

    ana = people.join("Ana", viewport=(390, 844), mobile=True)
    create_conversation(ana, "Offline app")
    install_app(ana, "Quick Poll")
    open_from_drawer(ana, "Quick Poll")
    ana.locator("#app-pane").get_by_role("button", name="Expand Quick Poll").first.click()
    pane_ready(ana, "expanded")
    ana.context.set_offline(True)
    chip = ana.locator("#app-pane .pane-offline")
    expect(chip).to_be_visible()
    banner = ana.locator("#offline-banner")
    expect(banner).to_have_attribute("role", "status")  # still there for a screen reader
    box = banner.bounding_box()
    assert box is None or (box["width"] <= 1 and box["height"] <= 1), f"the banner covers the app: {box}"
    shot(ana, "phone-offline-expanded-app")
    ana.locator("#app-pane").get_by_role("button", name="Collapse Quick Poll").first.click()
    pane_ready(ana, "compact")
    expect(chip).to_be_hidden()
    expect(banner).to_be_visible()
    ana.context.set_offline(False)
    expect(banner).to_be_hidden(timeout=30_000)


def test_the_offline_note_on_a_phone_is_one_line_under_the_header(people):
    """It was centred with left: 50%, which left it half the screen: four lines over
    the header and the newest messages."""
    ana = people.join("Ana", viewport=(390, 844), mobile=True)
    create_conversation(ana, "Offline phone")
    send_text(ana, "before the tunnel")
    ana.context.set_offline(True)
    banner = ana.locator("#offline-banner")
    expect(banner).to_be_visible()
    box = banner.bounding_box()
    header = ana.locator(".chat-header").bounding_box()
    assert box["height"] <= 56, f"{box['height']} px tall: wrapped"
    assert box["y"] >= header["y"] + header["height"] - 1, "over the header"
    shot(ana, "phone-offline-banner")
    ana.context.set_offline(False)
    expect(banner).to_be_hidden(timeout=30_000)


def test_the_offline_note_on_a_phones_list_covers_no_conversation(people):
    """An outside review: on the list it sat over the first conversation, the one just
    left, and took the taps meant for it."""
    ana = people.join("Ana", viewport=(390, 844), mobile=True)
    for title in ("First", "Second"):
        create_conversation(ana, title)
        ana.get_by_role("button", name="Back to conversations").click()
    items = ana.locator(".conv-item")
    expect(items).to_have_count(2)
    ana.context.set_offline(True)
    banner = ana.locator("#offline-banner")
    expect(banner).to_be_visible()
    box = banner.bounding_box()
    for i in range(2):
        item = items.nth(i).bounding_box()
        assert box["y"] >= item["y"] + item["height"] or box["y"] + box["height"] <= item["y"], \
            f"the note covers conversation {i}: {box} over {item}"
    shot(ana, "phone-offline-list")
    items.first.locator("a").click()  # the tap reaches the conversation
    expect(ana.locator("#shell")).to_have_attribute("data-view", "chat")
    ana.context.set_offline(False)
    expect(banner).to_be_hidden(timeout=30_000)


def test_a_messages_delete_takes_a_finger_sized_tap(people):
    """A message's Delete was a 52x21 px target on a phone, 2-3 px from the bubbles
    above and below it: taps just beside the word missed it. On a touch screen it now
    takes the gaps and 8 px each side, at least 24 px tall (WCAG 2.5.8), and the rows
    do not move nor do the bubbles lose any of their taps."""
    ana = people.join("Ana", viewport=(390, 844), mobile=True)
    create_conversation(ana, "Fingers")
    send_text(ana, "one")
    send_text(ana, "two")
    expect(ana.locator("#transcript .row[data-seq]")).to_have_count(2)
    expect(ana.locator("#transcript .row.pending")).to_have_count(0)
    # measured in one step: a row drawn again (its context changed) is a new element, and
    # a box asked of the one it replaced is none (a run of the suite here, 1 in about 10)
    box, above, below = ana.evaluate("""() => {
        const rows = [...document.querySelectorAll('#transcript .row[data-seq]')];
        const r = (e) => { const b = e.getBoundingClientRect(); return { x: b.x, y: b.y, width: b.width, height: b.height }; };
        return [r(rows[0].querySelector('.delete-message')), r(rows[0].querySelector('.bubble')), r(rows[1].querySelector('.bubble'))];
    }""")
    assert box["height"] < 24 and below["y"] - (above["y"] + above["height"]) < 30, "drawn and spaced as before"

    def hit(x, y):
        return ana.evaluate("([x, y]) => { const e = document.elementFromPoint(x, y);"
                            " return e?.closest('button')?.className || e?.closest('.bubble')?.textContent }", [x, y])

    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    top, bottom = above["y"] + above["height"], below["y"]
    assert bottom - top >= 24, f"from bubble to bubble only {bottom - top:.0f} px"
    for px, py in ((x, top + 1), (x, bottom - 1.5), (box["x"] - 6, y), (box["x"] + box["width"] + 6, y)):
        assert hit(px, py) == "delete-message", f"a tap at ({px - box['x']:.0f}, {py - box['y']:.0f}) from Delete missed it"
    assert "one" in hit(x, top - 2) and "two" in hit(x, bottom + 2), "a bubble lost a tap to Delete"
    ana.touchscreen.tap(x, top + 1)
    expect(ana.get_by_role("dialog", name="Delete this message?")).to_be_visible()


def test_a_line_under_the_title_too_long_for_a_phone_ends_in_an_ellipsis(people):
    """"Ben Wide online · 2 memb" was cut mid-word, with nothing to say it was cut."""
    ana = people.join("Ana", viewport=(390, 844), mobile=True)
    link = create_conversation(ana, "Colour Mood")
    people.join("Ben Wide", link.replace(people.server.base, ""))
    line = ana.locator("#chat-presence span:not(.presence-dot)")
    expect(line).to_have_text("Ben Wide online · 2 members")
    cut = line.evaluate("el => ({ over: el.scrollWidth > el.clientWidth, style: getComputedStyle(el).textOverflow })")
    assert cut == {"over": True, "style": "ellipsis"}, cut
    shot(ana, "phone-header-ellipsis")


# The longest name a person may pick (64 characters), with no space to break it at.
LONGEST_NAME = "Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenh"

NO_WIDER_THAN_THE_WINDOW = "() => document.documentElement.scrollWidth <= innerWidth"


def test_the_longest_name_leaves_a_phones_page_its_width(people):
    """A person named with 64 letters and no space: "Signed in as …" made the list wider
    than the phone, and with it the page, so the recovery key's dialog stood half off
    the screen and its Done could not be tapped (a click on it landed on its text)."""
    assert len(LONGEST_NAME) == 64
    # join() taps the recovery key's Done: before the fix, it timed out there
    ana = people.join(LONGEST_NAME, viewport=(360, 740), mobile=True)
    assert ana.evaluate(NO_WIDER_THAN_THE_WINDOW), ana.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    line = ana.locator(".me-line")
    cut = line.evaluate("el => ({ over: el.scrollWidth > el.clientWidth, style: getComputedStyle(el).textOverflow })")
    assert cut == {"over": True, "style": "ellipsis"}, cut
    shot(ana, "phone-longest-name-list")

    link = create_conversation(ana, LONGEST_NAME)
    ben = people.join(LONGEST_NAME[::-1].capitalize(), link.replace(people.server.base, ""), viewport=(360, 740), mobile=True)
    send_text(ben, "Hello from the other long name")
    expect(ana.locator("#transcript").get_by_text("Hello from the other long name")).to_be_visible()
    assert ana.evaluate(NO_WIDER_THAN_THE_WINDOW)
    # his name over his message breaks inside the conversation (it ran off its right edge)
    sender = ana.locator("#transcript .row:not(.mine) .sender").first
    expect(sender).to_have_text(LONGEST_NAME[::-1].capitalize())
    inside = sender.evaluate("el => el.getBoundingClientRect().right <= document.getElementById('transcript').getBoundingClientRect().right")
    assert inside, "the sender's name runs past the conversation's edge"
    ana.get_by_role("button", name="Members").click()
    members = ana.locator("#members[open]")
    members.wait_for()
    box = members.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    assert ana.evaluate(NO_WIDER_THAN_THE_WINDOW)
    shot(ana, "phone-longest-name-members")


# What is read or tapped, by screen; each must lie inside the safe area.
SAFE_AREA_CONTENT = {
    "list": ["#sidebar .brand", "#sidebar .conv-item a", "#sidebar .me-line", "#sidebar .me-actions button"],
    "chat": [".chat-header .back-button", ".chat-header .titles", ".chat-header button", "#transcript .bubble",
             "#composer-input", ".composer-area button"],
    "compact": [".chat-header .titles", "#composer-input", ".composer-area button", "#app-pane .pane-bar button", "#app-pane iframe"],
    "expanded": ["#app-pane .pane-bar button", "#app-pane iframe"],
}

OUTSIDE_SAFE_AREA = """([selectors, inset]) => {
    const out = [];
    for (const sel of selectors) for (const el of document.querySelectorAll(sel)) {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
        if (r.top < inset.top - 0.5 || r.bottom > innerHeight - inset.bottom + 0.5
            || r.left < inset.left - 0.5 || r.right > innerWidth - inset.right + 0.5)
            out.push(`${sel}: ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`);
    }
    return out;
}"""


def outside_safe_area(page, screen, inset):
    found = page.evaluate(OUTSIDE_SAFE_AREA, [SAFE_AREA_CONTENT[screen], inset])
    return [f"{screen}: {line}" for line in found]


@pytest.mark.parametrize("held", ["upright", "sideways"])
def test_nothing_is_under_a_phones_notch_or_home_indicator(people, held):
    """The page asks to be laid under a phone's notch and home indicator
    (viewport-fit=cover), as Parlor from the home screen and a phone held sideways are:
    the composer's Send sat under the home indicator, and sideways the transcript and
    the composer under the notch. The insets an iPhone gives are put on with Chromium's
    safe-area emulation; the backgrounds still run to the edges."""
    from conftest import open_from_drawer, pane_ready

    upright = held == "upright"
    size = (390, 844) if upright else (844, 390)
    inset = {"top": 47, "bottom": 34, "left": 0, "right": 0} if upright else {"top": 0, "bottom": 21, "left": 47, "right": 47}
    ana = people.join("Ana", viewport=size, mobile=True)
    cdp = ana.context.new_cdp_session(ana)
    cdp.send("Emulation.setSafeAreaInsetsOverride", {"insets": inset})
    link = create_conversation(ana, "Notch")
    ben = people.on_protocol("Ben")
    ben.call("conversations.join", invite=link.rsplit("/", 1)[-1])
    send_text(ana, "under the notch?")
    expect(ana.locator(".row[data-seq] .text-bubble", has_text="under the notch?")).to_be_visible()
    found = outside_safe_area(ana, "chat", inset)
    shot(ana, f"phone-safe-area-{held}-chat")
    install_app(ana, "Quick Poll")
    open_from_drawer(ana, "Quick Poll")
    found += outside_safe_area(ana, "compact", inset)
    ana.locator("#app-pane").get_by_role("button", name="Expand Quick Poll").first.click()
    pane_ready(ana, "expanded")
    found += outside_safe_area(ana, "expanded", inset)
    shot(ana, f"phone-safe-area-{held}-expanded")
    ana.locator("#app-pane").get_by_role("button", name="Close Quick Poll").first.click()
    ana.get_by_role("button", name="Back to conversations").click()
    expect(ana.locator("#sidebar")).to_be_visible()
    found += outside_safe_area(ana, "list", inset)
    shot(ana, f"phone-safe-area-{held}-list")
    assert not found, "under the notch or the home indicator:\n" + "\n".join(found)
