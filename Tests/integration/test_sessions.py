"""App messages in sessions: supersede, conflicts, app mismatch."""

from __future__ import annotations

import asyncio

from client import Env, new_client_id


def app_msg(url, session=None, app="testapp", summary=None, caption="Party list"):
    m = {"kind": "app", "appId": app, "url": url, "layout": {"caption": caption}, "live": False}
    if summary is not None:
        m["summaryText"] = summary
    if session is not None:
        m["session"] = session
    return m


async def setup_pair(env):
    ana = await env.register("Ana")
    ben = await env.register("Ben")
    for c in (ana, ben):
        await c.call("apps.install", appId="testapp")
        await c.call("apps.install", appId="testapp2")
    cid, _ = await env.conversation(ana, ben, title="Party")
    await ana.subscribe(cid)
    await ben.subscribe(cid)
    return ana, ben, cid


async def test_session_supersedes_and_conflicts(server):
    async with Env(server) as env:
        ana, ben, cid = await setup_pair(env)

        t1 = await ana.send_text(cid, "before the list")
        assert t1["seq"] == 1

        m1 = await ana.send_message(cid, app_msg("?list=fries", {"id": "s1"}, summary="Ana started a party list"))
        assert m1["seq"] == 2
        assert m1["kind"] == "app" and m1["appId"] == "testapp" and m1["url"] == "?list=fries"
        assert m1["session"] == {"id": "s1", "version": 1}
        assert m1["layout"] == {"caption": "Party list"}
        assert m1["summaryText"] == "Ana started a party list"
        assert "supersededBy" not in m1
        ev = await ben.wait_message(cid, seq=2)
        assert "supersedes" not in ev, "the first message of a session supersedes nothing"
        assert ev["message"] == m1

        t2 = await ben.send_text(cid, "in between")
        assert t2["seq"] == 3

        # Ben edits the list: supersedes Ana's bubble, which moves to the bottom
        m2 = await ben.send_message(cid, app_msg("?list=fries,mussels", {"id": "s1", "baseVersion": 1}))
        assert m2["seq"] == 4, "the superseding message gets the next seq"
        assert m2["session"] == {"id": "s1", "version": 2}
        for c in (ana, ben):
            ev = await c.wait_message(cid, seq=4)
            assert ev["supersedes"] == {"seq": 2, "summary": "Ana started a party list"}
            assert ev["message"] == m2
        assert await ana.last_seq(cid) == 4

        hist = {m["seq"]: m for m in (await ana.history(cid))["messages"]}
        assert sorted(hist) == [1, 2, 3, 4]
        assert hist[2]["supersededBy"] == 4
        assert hist[2]["summary"] == "Ana started a party list"
        assert "supersededBy" not in hist[4] and "supersededBy" not in hist[1]
        assert hist[4] == m2

        # a stale update (Ana still thinks the session is at version 1) is refused
        err = await ana.expect_error(
            "send", "session_conflict",
            conversationId=cid, clientId=new_client_id(),
            message=app_msg("?list=fries,beer", {"id": "s1", "baseVersion": 1}),
        )
        assert err.get("current") == hist[4], f"`current` must be the session's current message, got {err.get('current')}"
        assert await ana.last_seq(cid) == 4, "a refused update must store nothing"

        # another app may not take over the session
        await ana.expect_error(
            "send", "session_app_mismatch",
            conversationId=cid, clientId=new_client_id(),
            message=app_msg("?x=1", {"id": "s1", "baseVersion": 2}, app="testapp2"),
        )
        assert await ana.last_seq(cid) == 4

        # Ana merges and retries with the right base version; no summaryText this
        # time around on Ben's message, so the summary is "<name> played <app name>"
        m3 = await ana.send_message(cid, app_msg("?list=fries,mussels,beer", {"id": "s1", "baseVersion": 2}))
        assert m3["seq"] == 5 and m3["session"] == {"id": "s1", "version": 3}
        ev5 = await ben.wait_message(cid, seq=5)
        assert ev5["supersedes"]["seq"] == 4
        hist = {m["seq"]: m for m in (await ben.history(cid))["messages"]}
        assert hist[4]["supersededBy"] == 5
        assert hist[2]["supersededBy"] == 4, "older states stay collapsed where they were"

        # unknown session with a non-zero base version: refused, nothing stored
        f = await ana.request(
            "send", conversationId=cid, clientId=new_client_id(),
            message=app_msg("?y=1", {"id": "s-new", "baseVersion": 3}),
        )
        assert f["type"] == "error", f"an unknown session cannot have baseVersion 3: {f}"
        assert await ana.last_seq(cid) == 5
        # ... while baseVersion 0 starts it
        s2 = await ana.send_message(cid, app_msg("?y=1", {"id": "s-new", "baseVersion": 0}))
        assert s2["session"] == {"id": "s-new", "version": 1} and s2["seq"] == 6
        ev = await ben.wait_message(cid, seq=6)
        assert "supersedes" not in ev

        # checked last so the rest still runs if it fails: the default summary
        # is "<name> played <app name>" (PROTOCOL.md, Sessions)
        assert ev5["supersedes"]["summary"] == "Ben played Test App"
        assert hist[4]["summary"] == "Ben played Test App"


async def test_session_ids_are_scoped_to_the_conversation(server):
    async with Env(server) as env:
        ana, ben, cid = await setup_pair(env)
        await ana.send_message(cid, app_msg("?a=1", {"id": "shared"}))
        other, _ = await env.conversation(ana, ben, title="Other")
        m = await ben.send_message(other, app_msg("?b=1", {"id": "shared"}))
        assert m["session"] == {"id": "shared", "version": 1}, "a session id is scoped to its conversation"
        assert m["seq"] == 1


async def test_concurrent_session_updates_never_lose_one(server):
    """Ana and Ben update the same session at the same moment: one wins, one conflicts."""
    async with Env(server) as env:
        ana, ben, cid = await setup_pair(env)
        cur = await ana.send_message(cid, app_msg("?v=0", {"id": "game"}))
        version = 1
        for rnd in range(8):
            fa = await ana.start("send", conversationId=cid, clientId=new_client_id(),
                                 message=app_msg(f"?ana={rnd}", {"id": "game", "baseVersion": version}))
            fb = await ben.start("send", conversationId=cid, clientId=new_client_id(),
                                 message=app_msg(f"?ben={rnd}", {"id": "game", "baseVersion": version}))
            ra, rb = await asyncio.wait_for(asyncio.gather(fa, fb), 10)
            kinds = sorted([ra["type"], rb["type"]])
            assert kinds == ["error", "result"], f"round {rnd}: exactly one update must win: {ra} / {rb}"
            win = ra if ra["type"] == "result" else rb
            lose = rb if win is ra else ra
            assert lose["code"] == "session_conflict"
            new = win["result"]["message"]
            assert new["session"] == {"id": "game", "version": version + 1}
            assert lose["current"]["seq"] == new["seq"], "the loser sees the winner's message as current"
            ev = await ana.wait_message(cid, seq=new["seq"])
            assert ev["supersedes"]["seq"] == cur["seq"]
            cur, version = new, version + 1
        hist = (await ana.history(cid))["messages"]
        assert [m["seq"] for m in hist] == list(range(1, 10)), "gapless: losers stored nothing"
        live = [m for m in hist if "supersededBy" not in m]
        assert [m["seq"] for m in live] == [9]
