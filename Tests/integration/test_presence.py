"""Presence: a snapshot after subscribe, then changes."""

from __future__ import annotations

from client import Env


def is_snapshot(cid):
    return lambda e: e.get("type") == "presence" and e.get("conversationId") == cid and "userId" not in e


def is_change(cid, uid, online):
    return lambda e: (
        e.get("type") == "presence" and e.get("conversationId") == cid
        and e.get("userId") == uid and e.get("online") is online
    )


async def test_presence_snapshot_and_changes(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cid, _ = await env.conversation(ana, ben)

        await ana.subscribe(cid)
        snap = await ana.wait_for(is_snapshot(cid), desc="presence snapshot")
        assert snap["online"] == [ana.uid], "Ben is a member but not subscribed: not online"

        await ben.subscribe(cid)
        ch = await ana.wait_for(is_change(cid, ben.uid, True), desc="Ben online")
        assert set(ch) >= {"type", "conversationId", "userId", "online"}
        snap = await ben.wait_for(is_snapshot(cid), desc="Ben's snapshot")
        assert sorted(snap["online"]) == sorted([ana.uid, ben.uid])

        await ben.close()
        await ana.wait_for(is_change(cid, ben.uid, False), desc="Ben offline after disconnect")

        # online while at least one connection is subscribed
        b1 = await env.login(ben.token, label="ben-tab1")
        b2 = await env.login(ben.token, label="ben-tab2")
        await b1.subscribe(cid)
        await ana.wait_for(is_change(cid, ben.uid, True), desc="Ben online again")
        await b2.subscribe(cid)
        await b1.close()
        # marker: a message from Ben's remaining tab; by the time it arrives, an
        # (incorrect) offline change for the closed tab would have been queued
        m = await b2.send_text(cid, "still here")
        await ana.wait_message(cid, seq=m["seq"])
        wrong = [e for e in ana.events if is_change(cid, ben.uid, False)(e)]
        assert not wrong, "Ben still has a subscribed tab: he must stay online"
        c3 = await env.login(ana.token, label="ana-tab2")
        await c3.subscribe(cid)
        snap_now = await c3.wait_for(is_snapshot(cid), desc="snapshot")
        assert ben.uid in snap_now["online"]

        await b2.close()
        await ana.wait_for(is_change(cid, ben.uid, False), desc="Ben offline after last tab closed")

        # unsubscribe also ends presence
        b3 = await env.login(ben.token, label="ben-tab3")
        await b3.subscribe(cid)
        await ana.wait_for(is_change(cid, ben.uid, True), desc="Ben online (tab3)")
        await b3.call("unsubscribe", conversationId=cid)
        await ana.wait_for(is_change(cid, ben.uid, False), desc="Ben offline after unsubscribe")


async def test_presence_is_per_conversation(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        c1, _ = await env.conversation(ana, ben, title="one")
        c2, _ = await env.conversation(ana, ben, title="two")
        await ana.subscribe(c1)
        await ana.subscribe(c2)
        await ben.subscribe(c2)
        await ana.wait_for(is_change(c2, ben.uid, True), desc="Ben online in c2")
        m = await ben.send_text(c1, "marker")  # sending does not make you online
        await ana.wait_message(c1, seq=m["seq"])
        assert not [e for e in ana.events if is_change(c1, ben.uid, True)(e)], "Ben is not subscribed to c1"
        ana2 = await env.login(ana.token)
        await ana2.subscribe(c1)
        snap = await ana2.wait_for(is_snapshot(c1), desc="c1 snapshot")
        assert sorted(snap["online"]) == sorted([ana.uid])
