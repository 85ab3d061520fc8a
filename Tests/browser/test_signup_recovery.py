"""Sign-up under the default `--registration invite` (#11 items 1 and 2): the first
account on an empty server is its admin; a newcomer without an invite is told the
server is invite-only; with an invite link they make an account and land in the
conversation; the recovery key is shown once, reminded until saved, and signs a
new browser in (optionally signing the others out)."""

import re

from playwright.sync_api import expect

from conftest import People, create_conversation, send_text, shot


def sign_up(page, name):
    page.fill("#welcome-name", name)
    page.get_by_role("button", name="Continue").click()


def recovery_key(page):
    """The key shown once after sign-up; says it was saved."""
    dialog = page.locator("#recovery[open]")
    key = dialog.locator("#recovery-key").inner_text()
    assert re.fullmatch(r"[0-9A-Z]{4}(-[0-9A-Z]{4}){5}", key), key
    return key


def test_invite_only_sign_up_recovery_key_and_recover(browser, make_server):
    server = make_server(extra_args=["--registration", "invite"])
    people = People(browser, server)
    try:
        ana = people.open("/")
        expect(ana.locator("#welcome")).to_contain_text("the first account becomes its admin")
        shot(ana, "signup-welcome-light")
        sign_up(ana, "Ana")
        key = recovery_key(ana)
        shot(ana, "signup-recovery-key-light")
        # the reminder stays until the key is saved
        ana.locator("#recovery").get_by_role("button", name="Remind me later").click()
        reminder = ana.locator("#recovery-reminder")
        expect(reminder).to_be_visible()
        expect(ana.get_by_role("button", name="Admin", exact=True)).to_be_visible()  # the first account
        ana.reload()
        expect(reminder).to_be_visible()
        reminder.get_by_role("button", name="Show key").click()
        expect(ana.locator("#recovery-key")).to_have_text(key)
        done = ana.locator("#recovery").get_by_role("button", name="Done")
        expect(done).to_be_disabled()
        ana.locator("#recovery-saved").check()
        done.click()
        expect(reminder).to_be_hidden()
        link = create_conversation(ana, "Invite only")
        send_text(ana, "before you came")

        # no invite: refused, and told why
        stranger = people.open("/", mobile=True, viewport=(390, 844))
        sign_up(stranger, "Zed")
        expect(stranger.locator("#welcome .form-error")).to_have_text("This server is invite-only: ask a member for an invite link.")
        shot(stranger, "signup-invite-only-phone")

        # with the invite: an account, and straight into the conversation
        ben = people.open(link.replace(server.base, ""), mobile=True, viewport=(390, 844), dark=True)
        expect(ben.locator("#welcome")).to_contain_text("You've been invited")
        sign_up(ben, "Ben")
        recovery_key(ben)
        shot(ben, "signup-recovery-key-phone-dark")
        ben.locator("#recovery-saved").check()
        ben.locator("#recovery").get_by_role("button", name="Done").click()
        expect(ben.locator("#chat-title")).to_have_text("Invite only")
        expect(ben.locator("#transcript")).to_contain_text("before you came")
        expect(ben.get_by_role("button", name="Admin", exact=True)).to_be_hidden()
        expect(ana.locator("#chat-presence")).to_contain_text("2 members")

        # Ana on a new browser, with her recovery key, signing the old one out
        new = people.open("/", dark=True)
        new.get_by_role("button", name="Sign in with a recovery key").click()
        new.fill("#welcome-recovery-key", key.lower().replace("-", " "))
        new.locator("#welcome-revoke-others").check()
        shot(new, "recover-dark")
        new.get_by_role("button", name="Sign in", exact=True).click()
        expect(new.locator(".me .name")).to_have_text("Ana")
        expect(new.locator(".conv-item")).to_have_count(1)
        # the old browser is signed out at once, told so, and does not loop
        expect(ana.locator("#welcome")).to_be_visible()
        expect(ana.locator("#welcome .form-error")).to_contain_text("This device was signed out")
        ana.wait_for_timeout(300)
        expect(ana.locator("#welcome")).to_be_visible()
        assert ana.evaluate("localStorage.getItem('parlor.token')") is None

        # a wrong key says so
        wrong = people.open("/")
        wrong.get_by_role("button", name="Sign in with a recovery key").click()
        wrong.fill("#welcome-recovery-key", "AAAA-BBBB-CCCC-DDDD-EEEE-FFFF")
        wrong.get_by_role("button", name="Sign in", exact=True).click()
        expect(wrong.locator("#welcome .form-error")).to_contain_text("recovery key is not one this server knows")
        assert not people.errors, people.errors
    finally:
        people.close()


def test_a_registration_link_made_by_an_admin(browser, make_server):
    server = make_server(extra_args=["--registration", "closed"])
    people = People(browser, server)
    try:
        ana = people.open("/")
        sign_up(ana, "Ana")  # the first account, even on a closed server
        ana.locator("#recovery-saved").check()
        ana.locator("#recovery").get_by_role("button", name="Done").click()
        ana.get_by_role("button", name="Admin", exact=True).click()
        ana.get_by_role("button", name="New registration link").click()
        field = ana.locator("#admin-registration-link")
        expect(field).to_have_value(re.compile(r"/#/register/"))
        link = field.input_value()
        expect(ana.locator("#admin-invites .invite-item")).to_have_count(1)
        cy = people.open(link.replace(server.base, ""))
        # invited to the server, not to a conversation (it said so, from an admin's review)
        expect(cy.locator("#welcome")).to_contain_text("You've been invited to this server.")
        sign_up(cy, "Cy")
        recovery_key(cy)
        cy.locator("#recovery").get_by_role("button", name="Remind me later").click()
        expect(cy.locator(".me .name")).to_have_text("Cy")
        expect(cy).to_have_url(re.compile(r"#/$"))
        # the link was for one person, as the admin page says: a second is turned away
        dee = people.open(link.replace(server.base, ""))
        dee.fill("#welcome-name", "Dee")
        dee.get_by_role("button", name="Continue").click()
        expect(dee.locator("#welcome .form-error")).to_be_visible()
        expect(dee.locator("#welcome")).to_be_visible()
        assert not people.errors, people.errors
    finally:
        people.close()
