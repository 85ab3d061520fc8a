"""A hostile app in its frame: it cannot reach the host's storage, DOM or
socket, cannot send behind the user's back, sees no user ids, tokens or other
apps' messages, and a stale session update comes back as a conflict."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from conftest import People, create_conversation, install_app, open_from_drawer, public_with_apps, send_text

FIXTURES = Path(__file__).parent / "fixtures"
CHECKS = ["parent-dom", "top-dom", "storage", "parent-storage", "cookie", "top-navigation", "popup",
          "socket", "upload", "bridge-unknown-method", "bridge-bad-url", "bridge-send-without-user"]


@pytest.fixture
def people_with_probe(browser, make_server, tmp_path):
    server = make_server(public_with_apps(tmp_path, {"probe": FIXTURES / "probe"}))
    p = People(browser, server)
    yield p
    p.close()


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
    expect(probe.locator("[data-check=conflict]")).to_have_attribute("data-result", "ok")
    expect(ana.locator(".row[data-seq][data-app-id=probe]")).to_have_count(1)
    expect(ben.locator(".row[data-seq][data-app-id=probe]")).to_have_count(1)
    assert not people.errors, people.errors
