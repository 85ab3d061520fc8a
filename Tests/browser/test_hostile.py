"""A hostile app in its frame: it cannot reach the host's storage, DOM or
socket, cannot send behind the user's back, sees no user ids, tokens or other
apps' messages, and a stale session update comes back as a conflict."""


import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect

from conftest import confirm_app_send, create_conversation, install_app, open_from_drawer, send_text, shot

CHECKS = ["parent-dom", "top-dom", "storage", "parent-storage", "cookie", "top-navigation", "popup",
          "socket", "upload", "bridge-unknown-method", "bridge-bad-url", "bridge-send-without-user",
          "bridge-image-svg", "bridge-image-html"]


@pytest.fixture
def people_with_probe(people_with_fixture_apps):
    return people_with_fixture_apps("probe")


def test_a_hostile_app_stays_in_its_frame(people_with_probe):
    people = people_with_probe
    ana = people.join("Ana")
    link = create_conversation(ana, "Trust nobody")
    ben = people.join("Ben", link.replace(people.server.base, ""))
    send_text(ben, "a private text the probe must not see")
    expect(ana.locator(".text-bubble", has_text="private text")).to_be_visible()
    token = ana.evaluate("localStorage.getItem('parlor.token')")
    user_ids = ana.evaluate("""() => [...document.querySelectorAll('.row[data-seq]')].length""")
    assert token and user_ids == 1
    url_before = ana.url

    install_app(ana, "Probe")
    open_from_drawer(ana, "Probe")
    probe = ana.frame_locator("#app-pane iframe")
    expect(probe.locator("[data-check=done]")).to_have_count(1)
    for check in CHECKS:
        expect(probe.locator(f"[data-check='{check}']")).to_have_attribute("data-result", "blocked")
    expect(ana.locator(".staged-item")).to_have_count(0)  # neither "picture" reached the composer

    # the host is untouched
    assert ana.url == url_before
    assert ana.evaluate("localStorage.getItem('parlor.token')") == token
    expect(ana.locator("#chat-title")).to_have_text("Trust nobody")
    assert ana.locator(".row[data-seq]").count() == 1, "nothing was sent behind the user's back"

    # what the app was told holds no token, no user id, no other message
    received = probe.locator("#received").text_content()
    assert token not in received
    assert "private text" not in received
    for key in ana.evaluate("Object.keys(localStorage)"):
        if key.startswith("parlor.lastRead."):
            assert key[len("parlor.lastRead."):] not in received, "a user id reached the app"
    assert "localParticipantIdentifier" in received

    # a stale session update: refused, with the current state, and told through didReceive
    probe.get_by_role("button", name="Stale update").click()
    confirm_app_send(ana, probe.locator("[data-check=first][data-result=ok]"))
    probe.get_by_role("button", name="Stale update").click()
    confirm_app_send(ana, probe.locator("[data-check=conflict]"))
    expect(probe.locator("[data-check=conflict]")).to_have_attribute("data-result", "ok")
    expect(ana.locator(".row[data-seq][data-app-id=probe]")).to_have_count(1)
    expect(ben.locator(".row[data-seq][data-app-id=probe]")).to_have_count(1)
    assert not people.errors, people.errors


# ---- an app that grabs the keyboard and sends behind the user's back ------------------------

@pytest.fixture
def people_with_grabber(people_with_fixture_apps):
    p = people_with_fixture_apps("grabber")
    yield p
    assert not p.errors, f"errors on the page: {p.errors}"


def grabber_sends(page, why):
    return page.frame_locator("#app-pane iframe").locator(f"#sends li[data-why={why}]")


def grabber_open(people, title, **kw):
    """Ana with the Grabber open in a new conversation: the page, the app's frame, the
    host's send question (while open) and the app's bubbles."""
    ana = people.join("Ana", **kw)
    create_conversation(ana, title)
    install_app(ana, "Grabber")
    open_from_drawer(ana, "Grabber")
    return (ana, ana.frame_locator("#app-pane iframe"), ana.locator("#app-send[open]"),
            ana.locator("#transcript .row[data-seq][data-kind=app]"))


def move_mouse_into(page, target):
    """A real mouse path: from the composer to the target in small steps (the host sees it reach the frame's edge)."""
    start = page.locator("#composer-input").bounding_box()
    end = target.bounding_box()
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    page.mouse.move(x0, y0)
    steps = max(2, int(max(abs(x1 - x0), abs(y1 - y0)) / 6))
    page.mouse.move(x1, y1, steps=steps)


@pytest.mark.parametrize("touch", [False, True], ids=["mouse", "touch"])
def test_an_app_cannot_take_the_keyboard_or_send_on_its_own(people_with_grabber, touch):
    kw = {"mobile": True, "viewport": (390, 844)} if touch else {}
    ana, app, ask, rows = grabber_open(people_with_grabber, "Keep typing", **kw)
    press = (lambda loc: loc.tap()) if touch else (lambda loc: loc.click())

    # it focused itself and asked to send on focus: the host asks the user, who says no
    expect(ask).to_be_visible()
    expect(ask).to_contain_text("Grabber wants to send a message")
    expect(ask.locator("#app-send-preview")).to_contain_text("sneaky")
    shot(ana, f"app-send-question-{'touch' if touch else 'mouse'}")
    # (Cancel by pointer: a key press could land in the few milliseconds the app holds
    # the focus before the host takes it back, a known gap noted in frame.js)
    press(ask.get_by_role("button", name="Cancel"))
    expect(ask).to_have_count(0)
    expect(app.locator("#sends li[data-result=cancelled]")).to_have_count(1)

    # the user types in the composer: the app takes the focus again, gets it taken back, and is hidden
    press(ana.locator("#composer-input"))
    expect(ana.locator("#app-pane .pane-hidden")).to_contain_text("Grabber was hidden")
    shot(ana, f"app-hidden-{'touch' if touch else 'mouse'}")
    # the notice comes as the app is hidden; the keyboard comes back a task later
    expect(ana.locator("#composer-input")).to_be_focused()
    text = "my bank pin is 4711, do not tell the app"
    ana.keyboard.type(text, delay=15)
    expect(ana.locator("#composer-input")).to_have_value(text)
    assert app.locator("#typed").text_content() == "", "nothing typed reached the app"
    assert app.locator("#sends li[data-result=sent]").count() == 0
    expect(ask).to_have_count(0)
    assert rows.count() == 0, "nothing was sent behind the user's back"

    # the user brings it back: it grabs the focus and asks again; the user says no again
    press(ana.get_by_role("button", name="Show Grabber"))
    expect(ask.locator("#app-send-preview")).to_contain_text("sneaky")
    press(ask.get_by_role("button", name="Cancel"))
    expect(ask).to_have_count(0)
    assert rows.count() == 0
    if touch:
        # a tap is invisible to the host and the user declined: no second question until they act in the host
        return

    # the user moves the mouse into the app and clicks its button: the host asks, the user says Send
    button = app.locator("#send")
    move_mouse_into(ana, button)
    ana.mouse.down()
    ana.mouse.up()
    expect(ask.locator("#app-send-preview")).to_contain_text("requested")
    ask.get_by_role("button", name="Send").click()
    expect(app.locator("#sends li[data-why=requested][data-result=sent]")).to_have_count(1)
    # the Send was for that one message: the app refocusing itself right after is asked
    # about again (the mouse is still over it), never sent on the back of the yes
    expect(rows).to_have_count(1)
    if ask.count():
        expect(ask.locator("#app-send-preview")).to_contain_text("sneaky")
        ask.get_by_role("button", name="Cancel").click()
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("requested")
    assert app.locator("#typed").text_content() == ""


# Two sends from the app in one task, each with its own caption; their answers are kept.
# The first carries a picture, which the host checks before it asks (a decode, across
# tasks): the second comes in meanwhile.
SEND_TWICE = """async () => {
    window.twice = {};
    window.addEventListener('message', (e) => {
        if (e.data?.type === 'reply' && e.data.re >= 9001) window.twice[e.data.re] = e.data.ok ? 'sent' : e.data.error.code;
    });
    const c = document.createElement('canvas');
    c.width = c.height = 64;
    c.getContext('2d').fillRect(0, 0, 32, 32);
    const image = await new Promise((resolve) => c.toBlob(resolve, 'image/png'));
    for (const [id, why, withImage] of [[9001, 'first-of-two', true], [9002, 'second-of-two', false]])
        parent.postMessage({ parlor: 1, type: 'call', id, method: 'send', args: { ref: why, ...(withImage ? { image } : {}),
                             message: { url: `?why=${why}`, layout: { caption: why }, summaryText: why } } }, '*');
}"""


def test_two_sends_at_once_are_asked_about_one_at_a_time(people_with_grabber):
    """The host asks before an app sends without a click in it. Two sends in one breath
    were both let through to the question before it opened: one question showed the
    second's text, and one Send sent both (the CI log of session 42's first run: one
    Cancel answered two sends). Now the second is refused while the first is asked."""
    ana, app, ask, rows = grabber_open(people_with_grabber, "One at a time")
    ask.get_by_role("button", name="Cancel").click()  # its send at start
    expect(ask).to_have_count(0)

    move_mouse_into(ana, app.locator("#send"))  # the pointer came in: a send is asked about
    frame = ana.locator("#app-pane iframe").element_handle().content_frame()
    frame.evaluate(SEND_TWICE)
    expect(ask).to_be_visible()
    try:
        frame.wait_for_function("() => Object.keys(twice).length === 1", timeout=5000)
    except PlaywrightTimeout:
        pytest.fail("both sends wait on the one question: its answer would answer both")
    refused = frame.evaluate("() => twice")
    assert list(refused.values()) == ["no_user_interaction"], refused
    asked = "first-of-two" if "9002" in refused else "second-of-two"
    expect(ask.locator("#app-send-preview")).to_contain_text(asked)
    ask.get_by_role("button", name="Send").click()
    frame.wait_for_function("() => Object.keys(twice).length === 2")
    assert sorted(frame.evaluate("() => Object.values(twice)")) == ["no_user_interaction", "sent"]
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text(asked)


@pytest.fixture
def people_with_lurker(people_with_fixture_apps):
    return people_with_fixture_apps("lurker")


def test_an_app_tapped_a_moment_ago_cannot_take_what_is_typed_in_the_composer(people_with_lurker):
    """Its tap's activation lasts 5 s, so its word on a focus it took was "a gesture":
    an app that focused itself a moment after a tap got what the user typed in the
    composer meanwhile. A jump while the user types there is now taken back."""
    ana = people_with_lurker.join("Ana")
    create_conversation(ana, "Typing")
    install_app(ana, "Lurker")
    open_from_drawer(ana, "Lurker")
    app = ana.frame_locator("#app-pane iframe")
    app.get_by_role("button", name="Later").click()
    expect(app.get_by_role("button", name="Later")).to_have_attribute("data-tapped", "yes")
    composer = ana.locator("#composer-input")
    composer.click()
    ana.keyboard.type("my secret pin is", delay=30)
    # the app jumps in as the next key goes down (told from that keydown: asked from here
    # after it, a machine under load took longer than the 400 ms the host calls typing)
    ana.evaluate("""() => document.getElementById('composer-input').addEventListener('keydown', () =>
        document.querySelector('#app-pane iframe').contentWindow.postMessage({ lurk: true }, '*'), { once: true })""")
    ana.keyboard.press("Space")
    expect(app.locator("#stole")).to_be_visible()
    expect(composer).to_be_focused()  # taken back
    ana.keyboard.type("4711 and more text after it", delay=30)
    expect(composer).to_have_value("my secret pin is 4711 and more text after it")
    assert app.locator("#typed").text_content() == "", "nothing typed reached the app"
