"""The member count and list follow joins live (#13 item 4): the header said
"1 members" in a room of three until a reload."""

import re

from playwright.sync_api import expect

from conftest import create_conversation


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
