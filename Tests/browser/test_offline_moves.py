"""App moves made offline are never lost (#13): a move sent while the
connection is down waits in the outbox like a text ("Sending…"); back online,
if the game moved on meanwhile, the server refuses it (session_conflict) and
the app hears of the winner through didReceive and carries on from it with
the move still in hand: WenderPic keeps the guess typed. (The Party list's
merge of an edit refused this way: test_app_partylist.py.)"""

import pytest
from playwright.sync_api import expect

from conftest import create_conversation, frame, install_app, open_from_drawer, pane_ready, press_send_button as send, shot
from test_app_wenderpic import APP, HOUSE, app_rows, draw_mouse, drawn, expect_bubble

RECONNECT = 30_000



@pytest.fixture
def console_errors_but_offline(people):
    """Console errors fail the test (a hook that threw, a refused call), except the
    browser's own word that a WebSocket could not connect while it was offline."""
    errors = []
    opened = people.open

    def open_and_watch(*args, **kwargs):
        page = opened(*args, **kwargs)
        page.on("console", lambda m: errors.append(f"{m.location.get('url', '')}: {m.text}")
                if m.type == "error" and "ERR_INTERNET_DISCONNECTED" not in m.text else None)
        return page

    people.open = open_and_watch
    yield errors
    assert not errors, f"console errors: {errors}"


pytestmark = pytest.mark.usefixtures("console_errors_but_offline")


def game_with_a_guess_staged(people, dark):
    """Ana drew; Ben (a phone) has a wrong guess staged on her drawing."""
    ana = people.join("Ana", dark=dark)
    link = create_conversation(ana, "Offline game")
    ben = people.join("Ben", link.replace(people.server.base, ""), viewport=(390, 844), mobile=True, dark=dark)
    install_app(ben, APP)
    install_app(ana, APP)
    open_from_drawer(ana, APP)
    frame(ana).get_by_role("button", name="New Game").click()
    pane_ready(ana, "expanded")
    drawn(ana)
    draw_mouse(ana, HOUSE)
    frame(ana).get_by_role("button", name="Done").click()
    pane_ready(ana, "compact")
    send(ana)
    expect_bubble(ben, "Guess my WenderPic!", "by Ana")
    app_rows(ben).locator(".app-bubble").click()
    pane_ready(ben, "expanded")
    frame(ben).get_by_label("Your guess").fill("kettle")  # never the secret: not in the word list
    frame(ben).get_by_role("button", name="Guess").click()
    pane_ready(ben, "compact")
    expect(ben.locator(".staged-item[data-kind=app]")).to_contain_text("👎 kettle")
    return ana, ben


def ana_adds_ink(ana):
    app_rows(ana).locator(".app-bubble").click()
    pane_ready(ana, "expanded")
    drawn(ana)
    draw_mouse(ana, [(0.1, 0.1), (0.3, 0.1)])
    frame(ana).get_by_role("button", name="Done").click()
    pane_ready(ana, "compact")
    send(ana)
    expect_bubble(ana, "Guess my WenderPic!", "Ana added more ink")


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_a_guess_sent_offline_after_the_game_moved_on_comes_back_to_the_app(people, dark):
    ana, ben = game_with_a_guess_staged(people, dark)

    # Ben's connection drops mid-game; he presses Send: the guess waits, it is not lost
    ben.context.set_offline(True)
    expect(ben.locator("#offline-banner")).to_be_visible()
    send(ben)
    pending = ben.locator(".row.pending[data-kind=app]")
    expect(pending).to_contain_text("Sending…")
    expect(ben.locator(".staged-item[data-kind=app]")).to_have_count(0)
    shot(ben, f"offline-move-phone-{'dark' if dark else 'light'}-waiting")

    # meanwhile Ana adds ink: the game moves on without Ben's guess
    ana_adds_ink(ana)

    # Ben is back: his guess was based on the old state and is refused; his open
    # app hears of Ana's move (didReceive), shows it and keeps his guess to send again
    ben.context.set_offline(False)
    expect(ben.locator("#offline-banner")).to_be_hidden(timeout=RECONNECT)
    pane_ready(ben, "expanded")
    expect(frame(ben).locator("#notice")).to_contain_text("The artist added more ink", timeout=RECONNECT)
    expect(frame(ben).locator("#notice")).to_contain_text("Your guess was not sent; try again.")
    expect(frame(ben).get_by_label("Your guess")).to_have_value("kettle")
    expect_bubble(ben, "Guess my WenderPic!", "Ana added more ink")
    expect(ben.locator(".row.pending.failed")).to_contain_text("someone updated this first")
    shot(ben, f"offline-move-phone-{'dark' if dark else 'light'}-came-back")

    # he sends it again, on the state that won: nothing lost, nothing twice
    frame(ben).get_by_role("button", name="Guess").click()
    pane_ready(ben, "compact")
    expect(ben.locator(".row.pending.failed")).to_have_count(0)
    send(ben)
    for page in (ana, ben):
        expect_bubble(page, "👎 kettle", "Ben guessed", "1 guess")
        expect(page.locator(".summary")).to_have_count(2)
        expect(page.locator(".row.pending")).to_have_count(0)


def test_a_move_refused_after_its_app_was_closed_is_not_dropped_silently(people):
    ana, ben = game_with_a_guess_staged(people, dark=False)
    ben.context.set_offline(True)
    expect(ben.locator("#offline-banner")).to_be_visible()
    send(ben)
    expect(ben.locator(".row.pending[data-kind=app]")).to_contain_text("Sending…")
    # he closes WenderPic before he is back online
    ben.locator("#app-pane").get_by_role("button", name=f"Close {APP}").click()
    expect(ben.locator("#app-pane")).to_be_hidden()
    ana_adds_ink(ana)

    # back online: no app to hear it, so the host says it, and keeps his move on screen
    ben.context.set_offline(False)
    expect(ben.locator("#offline-banner")).to_be_hidden(timeout=RECONNECT)
    failed = ben.locator(".row.pending.failed[data-kind=app]")
    expect(failed).to_contain_text("👎 kettle", timeout=RECONNECT)
    expect(failed).to_contain_text("someone updated this first")
    expect(ben.locator(".composer-area .notice[role=alert]")).to_contain_text("was not sent")
    shot(ben, "offline-move-phone-light-app-closed")

    # opening the game carries on from the move that won
    expect_bubble(ben, "Guess my WenderPic!", "Ana added more ink")
    app_rows(ben).locator(".app-bubble").click()
    pane_ready(ben, "expanded")
    expect(frame(ben).locator(".lead")).to_contain_text("added ink 1 time")
