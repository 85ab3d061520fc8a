"""Conversations, live text messages, idempotent send, history paging."""

from __future__ import annotations

import asyncio
import re

from client import Env, new_client_id

TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{43}$")


async def test_two_users_chat_live(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        assert ana.user["name"] == "Ana"
        assert ana.user["id"].startswith("u")
        assert TOKEN_RE.match(ana.token), f"token is not 43 url-safe characters: {ana.token!r}"
        assert ana.installed_apps == []
        ben = await env.register("Ben")
        assert ben.uid != ana.uid
        assert ben.token != ana.token

        r = await ana.call("conversations.create", title="Friday games")
        conv, invite = r["conversation"], r["invite"]
        cid = conv["id"]
        assert cid.startswith("c")
        assert conv["title"] == "Friday games"
        assert conv["lastSeq"] == 0
        assert isinstance(conv["createdAt"], int) and conv["createdAt"] > 1_600_000_000_000
        assert conv["members"] == [{"userId": ana.uid, "name": "Ana"}]
        assert isinstance(invite, str) and invite

        sub = await ana.subscribe(cid)
        assert sub["lastSeq"] == 0 and sub["resync"] is False
        assert sub["conversation"]["id"] == cid

        joined = (await ben.call("conversations.join", invite=invite))["conversation"]
        assert joined["id"] == cid
        assert sorted(m["userId"] for m in joined["members"]) == sorted([ana.uid, ben.uid])
        ev = await ana.wait_event("member", conversationId=cid)
        assert ev["member"] == {"userId": ben.uid, "name": "Ben"}

        await ben.subscribe(cid)

        m1 = await ana.send_text(cid, "hello Ben")
        assert m1["seq"] == 1
        assert m1["kind"] == "text" and m1["text"] == "hello Ben"
        assert m1["sender"] == ana.uid
        assert isinstance(m1["createdAt"], int) and m1["createdAt"] >= conv["createdAt"]
        ev = await ben.wait_message(cid, seq=1)
        assert ev["message"] == m1, "live event and send result differ"
        own = await ana.wait_message(cid, seq=1)  # the sender's own connection gets it too
        assert own["message"] == m1

        m2 = await ben.send_text(cid, "hi Ana")
        assert m2["seq"] == 2 and m2["sender"] == ben.uid
        assert (await ana.wait_message(cid, seq=2))["message"] == m2

        m3 = await ana.send_text(cid, "shall we play?")
        assert m3["seq"] == 3
        assert (await ben.wait_message(cid, seq=3))["message"] == m3

        await ana.wait_message(cid, seq=3)  # the sender's own copy follows its result
        assert ben.message_seqs(cid) == [1, 2, 3]
        assert ana.message_seqs(cid) == [1, 2, 3]

        hist = await ben.history(cid)
        assert [m["seq"] for m in hist["messages"]] == [1, 2, 3]
        assert [m["text"] for m in hist["messages"]] == ["hello Ben", "hi Ana", "shall we play?"]
        assert hist["messages"] == [m1, m2, m3]
        assert hist["hasMore"] is False

        convs = (await ben.call("conversations.list"))["conversations"]
        mine = [c for c in convs if c["id"] == cid]
        assert len(mine) == 1 and mine[0]["lastSeq"] == 3
        assert sorted(m["userId"] for m in mine[0]["members"]) == sorted([ana.uid, ben.uid])


async def test_join_twice_and_invites(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cara = await env.register("Cara")
        cid, invite = await env.conversation(ana, ben)
        # joining again succeeds and changes nothing
        again = (await ben.call("conversations.join", invite=invite))["conversation"]
        assert sorted(m["userId"] for m in again["members"]) == sorted([ana.uid, ben.uid])
        # any member may create invites; a new invite lets someone else in
        inv2 = (await ben.call("invites.create", conversationId=cid))["invite"]
        assert isinstance(inv2, str) and inv2
        await ana.subscribe(cid)
        conv = (await cara.call("conversations.join", invite=inv2))["conversation"]
        assert sorted(m["userId"] for m in conv["members"]) == sorted([ana.uid, ben.uid, cara.uid])
        ev = await ana.wait_event("member", conversationId=cid)
        assert ev["member"] == {"userId": cara.uid, "name": "Cara"}
        # the newcomer can now talk
        m = await cara.send_text(cid, "hello all")
        assert (await ana.wait_message(cid, seq=m["seq"]))["message"]["sender"] == cara.uid


async def test_conversation_list_most_recent_first(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        x = (await ana.call("conversations.create", title="X"))["conversation"]["id"]
        y = (await ana.call("conversations.create", title="Y"))["conversation"]["id"]
        await ana.send_text(x, "bump X")
        ids = [c["id"] for c in (await ana.call("conversations.list"))["conversations"]]
        assert x in ids and y in ids
        assert ids.index(x) < ids.index(y), f"X has the latest message but is listed after Y: {ids}"
        await ana.send_text(y, "bump Y")
        ids = [c["id"] for c in (await ana.call("conversations.list"))["conversations"]]
        assert ids.index(y) < ids.index(x), f"Y has the latest message but is listed after X: {ids}"


async def test_rename_is_pushed_to_members(server):
    async with Env(server) as env:
        ana = await env.register("  Ana  ")
        assert ana.name == "Ana", "names are trimmed"
        ben = await env.register("Ben")
        cid, _ = await env.conversation(ana, ben)
        await ben.subscribe(cid)
        r = await ana.call("rename", name="Ana B.")
        assert r["user"] == {"id": ana.uid, "name": "Ana B."}
        ev = await ben.wait_event("member", conversationId=cid)
        assert ev["member"] == {"userId": ana.uid, "name": "Ana B."}
        convs = (await ben.call("conversations.list"))["conversations"]
        members = {m["userId"]: m["name"] for c in convs if c["id"] == cid for m in c["members"]}
        assert members[ana.uid] == "Ana B."
        # a new session sees the new name
        again = await env.login(ana.token)
        assert again.user == {"id": ana.uid, "name": "Ana B."}


async def test_idempotent_send(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cid, _ = await env.conversation(ana, ben)
        await ben.subscribe(cid)

        first = await ana.send_text(cid, "only once", client_id="dup-1")
        assert first["seq"] == 1 and first["clientId"] == "dup-1"
        await ben.wait_message(cid, seq=1)

        retry = await ana.send_text(cid, "only once", client_id="dup-1")
        assert retry["seq"] == first["seq"], "a retry with the same clientId must return the original seq"
        assert retry == first
        hist = await ana.history(cid)
        assert [m["seq"] for m in hist["messages"]] == [1], "a retry must store nothing"

        err = await ana.expect_error(
            "send", "client_id_reused",
            conversationId=cid, clientId="dup-1", message={"kind": "text", "text": "something else"},
        )
        assert "re" in err
        hist = await ana.history(cid)
        assert [m["text"] for m in hist["messages"]] == ["only once"]

        # clientIds are unique per sender: another user may use the same string
        other = await ben.send_text(cid, "only once", client_id="dup-1")
        assert other["seq"] == 2 and other["sender"] == ben.uid

        # the next message continues with no gap
        nxt = await ana.send_text(cid, "next")
        assert nxt["seq"] == 3
        await ben.wait_message(cid, seq=3)
        assert sorted(set(ben.message_seqs(cid))) == [1, 2, 3]


async def test_a_retry_of_a_message_deleted_since_gets_what_it_is_now(server):
    """The answer to a send is lost, the message is deleted meanwhile (by its sender
    elsewhere, or an admin), and the outbox sends it again with its clientId: it was
    refused as client_id_reused, as if the id had been used for something else. Now it
    is answered with the message as it is, deleted, and nothing more is stored."""
    async with Env(server) as env:
        ana = await env.register("Ana")
        cid, _ = await env.conversation(ana)
        sent = await ana.send_text(cid, "take it back", client_id="gone-1")
        await ana.call("messages.delete", conversationId=cid, seq=sent["seq"])
        before = (await ana.history(cid))["messages"]
        again = await ana.send_text(cid, "take it back", client_id="gone-1")
        assert again["seq"] == sent["seq"] and again["kind"] == "deleted", again
        assert (await ana.history(cid))["messages"] == before


async def test_concurrent_retries_store_once(server):
    """Two connections of one user race the same clientId (a retry after reconnect)."""
    async with Env(server) as env:
        ana = await env.register("Ana")
        cid, _ = await env.conversation(ana)
        ana2 = await env.login(ana.token)
        msg = {"kind": "text", "text": "raced"}
        futs = []
        for i in range(10):
            cl = ana if i % 2 == 0 else ana2
            futs.append(await cl.start("send", conversationId=cid, clientId="race-1", message=msg))
        frames = await asyncio.wait_for(asyncio.gather(*futs), 10)
        assert all(f["type"] == "result" for f in frames), frames
        seqs = {f["result"]["message"]["seq"] for f in frames}
        assert seqs == {1}, f"one clientId produced several messages: {seqs}"
        hist = await ana.history(cid)
        assert [m["seq"] for m in hist["messages"]] == [1]


async def test_history_paging_backwards(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        cid, _ = await env.conversation(ana)

        empty = await ana.history(cid)
        assert empty == {"messages": [], "hasMore": False}

        futs = [
            await ana.start("send", conversationId=cid, clientId=f"h{i}",
                            message={"kind": "text", "text": f"m{i}"})
            for i in range(1, 26)
        ]
        frames = await asyncio.wait_for(asyncio.gather(*futs), 20)
        assert sorted(f["result"]["message"]["seq"] for f in frames) == list(range(1, 26))

        def seqs(r):
            return [m["seq"] for m in r["messages"]]

        r = await ana.history(cid, limit=10)
        assert seqs(r) == list(range(16, 26)) and r["hasMore"] is True
        r = await ana.history(cid, before_seq=16, limit=10)
        assert seqs(r) == list(range(6, 16)) and r["hasMore"] is True
        r = await ana.history(cid, before_seq=6, limit=10)
        assert seqs(r) == [1, 2, 3, 4, 5] and r["hasMore"] is False
        r = await ana.history(cid, before_seq=6, limit=5)
        assert seqs(r) == [1, 2, 3, 4, 5] and r["hasMore"] is False, "an exact fit has nothing more"
        r = await ana.history(cid, before_seq=1)
        assert r == {"messages": [], "hasMore": False}
        r = await ana.history(cid)  # default limit 50
        assert seqs(r) == list(range(1, 26)) and r["hasMore"] is False
        r = await ana.history(cid, before_seq=26, limit=200)
        assert seqs(r) == list(range(1, 26))
        assert [m["text"] for m in r["messages"]] == [f"m{i}" for i in range(1, 26)]
        assert [m["clientId"] for m in r["messages"]] == [f"h{i}" for i in range(1, 26)]

        # walking back with an odd page size visits every message exactly once
        seen, before = [], None
        for _ in range(20):
            r = await ana.history(cid, before_seq=before, limit=7)
            seen = seqs(r) + seen
            if not r["hasMore"]:
                break
            before = r["messages"][0]["seq"]
        assert seen == list(range(1, 26))

        await ana.expect_error("history", "invalid_field", conversationId=cid, limit=0)
        await ana.expect_error("history", "invalid_field", conversationId=cid, limit=201)


async def test_history_paging_forwards_from_where_a_reader_stopped(server):
    """A reader who read back while a room was busy comes down again page by page
    (afterSeq): each message once, in order, and hasMore until the newest."""
    async with Env(server) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cid, _ = await env.conversation(ana, ben)
        for i in range(1, 18):
            await ana.call("send", conversationId=cid, clientId=f"f{i}", message={"kind": "text", "text": f"m{i}"})

        def seqs(r):
            return [m["seq"] for m in r["messages"]]

        r = await ben.history(cid, after_seq=5, limit=5)
        assert seqs(r) == [6, 7, 8, 9, 10] and r["hasMore"] is True
        r = await ben.history(cid, after_seq=12, limit=5)
        assert seqs(r) == [13, 14, 15, 16, 17] and r["hasMore"] is False, "an exact fit has nothing more"
        assert [m["text"] for m in r["messages"]] == [f"m{i}" for i in range(13, 18)]
        r = await ben.history(cid, after_seq=17)
        assert r == {"messages": [], "hasMore": False}
        r = await ben.history(cid, after_seq=0, limit=200)
        assert seqs(r) == list(range(1, 18)) and r["hasMore"] is False

        # walking forward with an odd page size visits every message exactly once
        seen, after = [], 0
        for _ in range(20):
            r = await ben.history(cid, after_seq=after, limit=4)
            seen += seqs(r)
            if not r["hasMore"]:
                break
            after = r["messages"][-1]["seq"]
        assert seen == list(range(1, 18))

        await ben.expect_error("history", "invalid_field", conversationId=cid, afterSeq=3, beforeSeq=9)
        await ben.expect_error("history", "invalid_field", conversationId=cid, afterSeq=-1)
        outsider = await env.register("Cy")
        await outsider.expect_error("history", "not_member", conversationId=cid, afterSeq=0)


async def test_other_connections_of_a_user_learn_of_new_conversations(server):
    """Creating or joining on one device shows the conversation on the user's others."""
    async with Env(server) as env:
        ana = await env.register("Ana")
        tablet = await env.login(ana.token, "ana_tablet")
        ben = await env.register("Ben")
        cid, invite = await env.conversation(ben)
        r = await ana.call("conversations.join", invite=invite)
        ev = await tablet.wait_event("conversation")
        assert ev["conversation"]["id"] == cid == r["conversation"]["id"]
        assert {m["name"] for m in ev["conversation"]["members"]} == {"Ana", "Ben"}
        mine = await tablet.call("conversations.create", title="Tablet's own")
        new_id = mine["conversation"]["id"]
        await ana.wait_for(lambda e: e.get("type") == "conversation" and e["conversation"]["id"] == new_id, 5.0,
                           desc="the tablet's new conversation")


async def test_big_rooms_list_200_members_and_look_up_the_rest(server):
    """A conversation object names its first 200 members; `members` names any other."""
    async with Env(server) as env:
        owner = await env.register("Owner")
        cid, invite = await env.conversation(owner)
        guests = []
        for i in range(205):
            g = await env.register(f"Guest {i}", label=f"g{i}")
            last_join = await g.call("conversations.join", invite=invite)
            guests.append(g)
        conv = last_join["conversation"]
        assert conv["memberCount"] == 206 and len(conv["members"]) == 200
        assert conv["members"][0]["name"] == "Owner"
        assert "Guest 204" not in {m["name"] for m in conv["members"]}
        sub = await owner.subscribe(cid)
        assert sub["conversation"]["memberCount"] == 206
        ids = [g.user["id"] for g in guests[-2:]] + ["u-not-a-member"]
        found = await owner.call("members", conversationId=cid, userIds=ids)
        assert sorted(m["name"] for m in found["members"]) == ["Guest 203", "Guest 204"]
        outsider = await env.register("Outsider")
        await outsider.expect_error("members", "not_member", conversationId=cid, userIds=ids)


async def test_ping_is_answered_once_signed_in(server):
    """The web client's check that a connection still carries anything."""
    async with Env(server) as env:
        ana = await env.register("Ana")
        assert await ana.call("ping") == {}
        stranger = await env.connect()
        await stranger.expect_error("ping", "not_authenticated")
