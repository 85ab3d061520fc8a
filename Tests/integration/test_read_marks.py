"""Read marks follow a person between her devices: `read` keeps how far she read a
conversation, her other connections hear it, a device that connects later finds it in
`conversations.list`; nobody else hears anything."""

from __future__ import annotations

import asyncio

from client import Env


def mark_in(listing: dict, cid: str):
    return next(c for c in listing["conversations"] if c["id"] == cid).get("lastReadSeq")


async def room(env, texts: int = 3):
    """Ana on a laptop and a phone, Ben sending `texts` messages in a room with her."""
    laptop = await env.register("Ana")
    phone = await env.login(laptop.token, "ana_phone")
    ben = await env.register("Ben")
    cid, _ = await env.conversation(laptop, ben)
    for i in range(texts):
        await ben.send_text(cid, f"hi {i}")
    return laptop, phone, ben, cid


async def test_a_mark_reaches_her_other_devices_and_a_later_one(server):
    async with Env(server) as env:
        laptop, phone, ben, cid = await room(env)
        assert mark_in(await phone.call("conversations.list"), cid) == 0

        assert await phone.call("read", conversationId=cid, seq=2) == {}
        ev = await laptop.wait_event("read", conversationId=cid)
        assert ev["seq"] == 2

        tablet = await env.login(laptop.token, "ana_tablet")
        assert mark_in(await tablet.call("conversations.list"), cid) == 2
        assert mark_in(await ben.call("conversations.list"), cid) == 0, "Ben's own mark, untouched"

        await ben.call("ping")
        await phone.call("ping")
        assert not [e for e in ben.events if e.get("type") == "read"], "read marks are not receipts"
        assert not [e for e in phone.events if e.get("type") == "read"], "not back to the device that said it"


async def test_a_lower_or_equal_mark_changes_nothing(server):
    async with Env(server) as env:
        laptop, phone, _, cid = await room(env)
        await phone.call("read", conversationId=cid, seq=3)
        await laptop.wait_event("read", conversationId=cid, seq=3)
        assert await laptop.call("read", conversationId=cid, seq=1) == {}
        assert await laptop.call("read", conversationId=cid, seq=3) == {}
        await phone.call("ping")
        assert not [e for e in phone.events if e.get("type") == "read"], "nothing rose: nothing to tell"
        assert mark_in(await phone.call("conversations.list"), cid) == 3


async def test_a_mark_past_the_last_message_is_the_last_message(server):
    async with Env(server) as env:
        laptop, phone, _, cid = await room(env, texts=2)
        await phone.call("read", conversationId=cid, seq=10**12)
        assert (await laptop.wait_event("read", conversationId=cid))["seq"] == 2
        assert mark_in(await laptop.call("conversations.list"), cid) == 2


async def test_a_non_member_is_refused_and_nothing_is_stored(server):
    async with Env(server) as env:
        laptop, phone, ben, cid = await room(env)
        eve = await env.register("Eve")
        await eve.expect_error("read", "not_member", conversationId=cid, seq=2)
        await eve.expect_error("read", "not_member", conversationId="cnosuchconversation", seq=1)
        # she left: her mark is gone, and she can set none
        await ben.call("read", conversationId=cid, seq=3)
        await ben.call("conversations.leave", conversationId=cid)
        await ben.expect_error("read", "not_member", conversationId=cid, seq=3)
        await eve.call("ping")
        assert not [e for e in laptop.events + phone.events + eve.events if e.get("type") == "read"]
        assert mark_in(await laptop.call("conversations.list"), cid) == 0


async def test_a_bad_seq_is_refused_and_nothing_is_stored(server):
    async with Env(server) as env:
        laptop, phone, _, cid = await room(env)
        for bad in (-1, 1.5, "2", None, True, [2]):
            err = await laptop.expect_error("read", "invalid_field", conversationId=cid, seq=bad)
            assert err.get("field") == "seq", err
        err = await laptop.expect_error("read", "invalid_field", conversationId=cid)
        assert err.get("field") == "seq"
        await laptop.expect_error("read", "invalid_field", conversationId=7, seq=1)
        await phone.call("ping")
        assert not [e for e in phone.events if e.get("type") == "read"]
        assert mark_in(await phone.call("conversations.list"), cid) == 0


async def test_the_mark_survives_a_restart(server_factory):
    srv = server_factory(name="read-marks-restart")
    async with Env(srv) as env:
        laptop, phone, _, cid = await room(env)
        await phone.call("read", conversationId=cid, seq=2)
        token = laptop.token
    assert srv.stop(), "parlor did not exit within 10 s of SIGTERM"
    srv.start()
    async with Env(srv) as env:
        laptop = await env.login(token, "ana_after")
        assert mark_in(await laptop.call("conversations.list"), cid) == 2


async def test_read_marks_are_rate_limited_per_user(server_factory):
    srv = server_factory(extra_args=["--limit-read-marks", "3/3600"])
    async with Env(srv) as env:
        laptop, phone, _, cid = await room(env)
        for seq in (1, 2, 3):
            await laptop.call("read", conversationId=cid, seq=seq)
        err = await phone.expect_error("read", "rate_limited", conversationId=cid, seq=3)
        assert err["retryAfterMs"] > 0
