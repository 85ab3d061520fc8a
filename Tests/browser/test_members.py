"""The member count and list follow joins live (#13 item 4): the header said
"1 members" in a room of three until a reload."""

import re

from playwright.sync_api import expect

from conftest import create_conversation, send_text


def test_the_header_counts_each_joiner_at_once(people):
    ana = people.join("Ana")
    link = create_conversation(ana, "Growing")
    path = link.replace(people.server.base, "")
    header = ana.locator("#chat-presence")
    expect(header).to_have_text("Just you so far — invite someone")
    ben = people.join("Ben", path)
    expect(header).to_have_text("Ben online · 2 members")
    people.join("Cy", path, mobile=True, viewport=(390, 844))
    expect(header).to_have_text(re.compile(r"^(Ben, Cy|Cy, Ben) online · 3 members$"))
    people.join("Dee", path)
    expect(header).to_have_text(re.compile(r"online · 4 members$"))
    expect(ana.locator(".chat-header .faces .avatar")).to_have_count(3)
    # Ben, who joined second, counts the later joiners too
    expect(ben.locator("#chat-presence")).to_have_text(re.compile(r"online · 4 members$"))
    # past three people online the line counts them (a big room's listed every name:
    # 600 characters, read again at each change, cut off on a phone)
    people.join("Eve", path)
    expect(header).to_have_text("4 online · 5 members")


def test_members_whose_names_look_alike_are_told_apart(people):
    """A member may pick another's name, or one drawn the same (a Cyrillic А): whoever
    reads must still tell whose message is whose, so both carry a tag from their id."""
    ana = people.join("Ana")
    link = create_conversation(ana, "Lookalikes")
    path = link.replace(people.server.base, "")
    ben = people.join("Ben", path)
    fake = people.join("\u0410na", path)
    send_text(ana, "from the real one")
    # stored before the other is sent: two people's sends race to the server (CI once had them swapped)
    expect(ben.locator(".row[data-seq]", has_text="from the real one")).to_have_count(1)
    send_text(fake, "from the other one")
    senders = ben.locator(".transcript .sender")
    expect(senders).to_have_count(2)
    real, other = senders.nth(0).inner_text(), senders.nth(1).inner_text()
    assert re.fullmatch(r"Ana \([0-9a-f]{4,}\)", real), real
    assert re.fullmatch(r"\u0410na \([0-9a-f]{4,}\)", other), other
    assert real.split(" ")[1] != other.split(" ")[1]
    # the header and the member list say the same; Ben, whose name no one shares, is untagged
    expect(ben.locator("#chat-presence")).to_contain_text(real)
    expect(ben.locator("#chat-presence")).to_contain_text(other)
    ben.get_by_role("button", name="Members and settings of this conversation").click()
    names = ben.locator(".member .member-name")
    expect(names).to_have_text([real, "Ben", other])
    ben.keyboard.press("Escape")
    # once the other one picks a name of their own, neither is tagged any more
    fake.get_by_role("button", name="Change your name").click()
    fake.fill("#rename-input", "Anya")
    fake.locator("#rename button[type=submit]").click()
    expect(senders).to_have_text(["Ana", "Anya"])
