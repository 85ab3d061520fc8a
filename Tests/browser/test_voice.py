"""Voice messages: Ana records about a second with the keyboard (the microphone button,
Enter, and Enter again on it to send) and Ben, on a phone in dark mode, sees a voice
bubble of 0:01 and plays it. A microphone the browser refuses is said in plain words
and records nothing. The recording browser is launched here with Chromium's fake
microphone (a tone) and its permission prompt answered yes; the shared one has neither."""

import re

import pytest
from playwright.sync_api import expect

from a11y import axe_findings
from conftest import CHROMIUM, create_conversation, shot, watched_people


@pytest.fixture
def mic_browser(browser):
    """Another Chromium from the shared one's Playwright (one may run per thread)."""
    b = browser.browser_type.launch(executable_path=CHROMIUM,
                                    args=["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"])
    yield b
    b.close()


@pytest.fixture
def mic_people(mic_browser, server):
    yield from watched_people(mic_browser, server)


def test_ana_records_with_the_keyboard_and_ben_plays_it_on_his_phone(mic_people):
    people = mic_people
    ana = people.join("Ana")
    link = create_conversation(ana, "Voices")
    ben = people.join("Ben", link.replace(people.server.base, ""), dark=True, viewport=(390, 844), mobile=True)
    expect(ben.locator("#chat-title")).to_have_text("Voices")

    mic = ana.get_by_role("button", name="Record a voice message")
    mic.focus()
    ana.keyboard.press("Enter")
    strip = ana.locator(".voice-strip")
    expect(strip).to_be_visible()
    expect(strip.get_by_role("timer")).to_have_text("Recording 0:01", timeout=5000)
    recording = ana.get_by_role("button", name="Send voice message")
    expect(recording).to_be_focused()
    expect(recording).to_have_attribute("aria-pressed", "true")
    expect(ana.locator("#composer-input")).to_be_enabled()
    shot(ana, "voice-desktop-recording")
    ana.keyboard.press("Enter")
    expect(strip).to_be_hidden()

    bubble = ben.locator(".row[data-seq] .voice-bubble")
    expect(bubble).to_have_count(1)
    # about a second: the Enter that stops it comes after the screenshot and the checks
    # above, a second later on a loaded machine (seen: 0:02)
    expect(bubble.locator(".voice-time")).to_have_text(re.compile(r"^0:0[1-4]$"))
    length = bubble.locator(".voice-time").inner_text()
    seconds = int(length[-1])
    play = bubble.get_by_role("button", name=f"Play voice message, {seconds} second{'s' if seconds > 1 else ''}")
    expect(ana.locator("#sidebar")).to_contain_text(f"Voice message ({length})")
    play.tap()
    ben.wait_for_function("() => { const a = document.querySelector('.row[data-seq] .voice-bubble audio');"
                          " return a && (a.currentTime > 0.2 || a.ended); }", timeout=10_000)
    shot(ben, "voice-phone-dark-playing")
    shot(ana, "voice-desktop-sent")
    assert axe_findings(ben, "voice phone") == []
    assert axe_findings(ana, "voice") == []


def test_a_refused_microphone_is_said_and_nothing_is_recorded(people):
    """The shared browser has no fake permission prompt: the page is refused."""
    ana = people.join("Ana")
    create_conversation(ana, "Quiet")
    ana.context.clear_permissions()
    ana.get_by_role("button", name="Record a voice message").click()
    notice = ana.locator(".notice[role=alert]")
    expect(notice).to_contain_text(re.compile(r"may not use your microphone|No microphone"))
    expect(ana.locator(".voice-strip")).to_be_hidden()
    expect(ana.get_by_role("button", name="Record a voice message")).to_have_attribute("aria-pressed", "false")
    expect(ana.locator(".row .voice-bubble")).to_have_count(0)
