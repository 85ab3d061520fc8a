"""Search in one conversation (`messages.search`): matches come newest first as
history shows them, case and accents aside; only members search; one request reads a
bounded number of messages and says where to go on from, which reaches the oldest;
a deleted message is never found; the per-user limit refuses clearly and the
connection goes on being served. On SQLite and PostgreSQL."""

from __future__ import annotations

from client import Env
from test_typing import room  # people in a conversation, each subscribed

SCAN = 2_000  # Limits.searchScanMessages


async def search(person, cid, query, before=None):
    fields = {"conversationId": cid, "query": query}
    if before is not None:
        fields["beforeSeq"] = before
    return await person.call("messages.search", **fields)


async def test_matches_come_newest_first_as_history_shows_them(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        first = await ben.send_text(cid, "Lunch at the usual place?")
        await ana.send_text(cid, "sure")
        cafe = await ben.send_text(cid, "Or the Café on Elm St")
        second = await ana.send_text(cid, "USUAL PLACE it is")
        await ben.wait_message(cid, seq=second["seq"])

        r = await search(ana, cid, "  usual place ")
        assert [m["seq"] for m in r["messages"]] == [second["seq"], first["seq"]]
        assert r["hasMore"] is False and "nextBeforeSeq" not in r
        history = {m["seq"]: m for m in (await ana.history(cid))["messages"]}
        assert r["messages"] == [history[second["seq"]], history[first["seq"]]]
        # accents aside, both ways
        assert [m["seq"] for m in (await search(ben, cid, "cafe"))["messages"]] == [cafe["seq"]]
        # before a seq: only older ones
        r = await search(ana, cid, "usual place", before=second["seq"])
        assert [m["seq"] for m in r["messages"]] == [first["seq"]]
        assert (await search(ana, cid, "nowhere"))["messages"] == []


async def test_a_non_member_is_refused_and_bad_queries_are_named(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        eve = await env.register("Eve")
        await ana.send_text(cid, "the plan")
        await eve.expect_error("messages.search", "not_member", conversationId=cid, query="plan")
        await eve.expect_error("messages.search", "not_member", conversationId="c-nothing-here", query="plan")
        for query, code in (("   ", "invalid_field"), ("", "invalid_field"), (7, "invalid_field"), ("x" * 101, "too_long")):
            err = await ana.expect_error("messages.search", code, conversationId=cid, query=query)
            assert err["field"] == "query", err
        err = await ana.expect_error("messages.search", "invalid_field", conversationId=cid, query="plan", beforeSeq=0)
        assert err["field"] == "beforeSeq", err
        # a hundred characters are fine
        assert (await search(ana, cid, "é" * 100))["messages"] == []


async def test_a_deleted_message_is_not_found(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        address = await ben.send_text(cid, "I live at 12 Elm Street")
        assert [m["seq"] for m in (await search(ana, cid, "elm street"))["messages"]] == [address["seq"]]
        await ben.call("messages.delete", conversationId=cid, seq=address["seq"])
        await ana.wait_message(cid, seq=address["seq"] + 1)
        assert (await search(ana, cid, "elm street"))["messages"] == []
        assert (await search(ana, cid, "deleted"))["messages"] == []


async def test_the_scan_is_bounded_and_going_on_reaches_the_oldest(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        old = await ben.send_text(cid, "my address: 4 Rue de la Paix")
        # more than one scan's worth after it, none of them matching
        n = SCAN + 200
        for start in range(0, n, 1000):
            futures = await ana.start_burst([
                ("send", {"conversationId": cid, "clientId": f"filler-{i}", "message": {"kind": "text", "text": f"filler {i}"}})
                for i in range(start, min(n, start + 1000))
            ])
            for f in futures:
                frame = await f
                assert frame["type"] == "result", frame
        last = await ana.last_seq(cid)
        assert last == old["seq"] + n

        first = await search(ben, cid, "rue de la paix")
        assert first["messages"] == []
        assert first["hasMore"] is True
        assert first["nextBeforeSeq"] == last - SCAN + 1
        second = await search(ben, cid, "rue de la paix", before=first["nextBeforeSeq"])
        assert [m["seq"] for m in second["messages"]] == [old["seq"]]
        assert second["hasMore"] is False


async def test_the_limit_refuses_clearly_and_the_connection_is_served(server_factory):
    async with Env(server_factory(["--limit-searches", "3/3600"])) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        await ben.send_text(cid, "hello there")
        for _ in range(3):
            assert len((await search(ana, cid, "hello"))["messages"]) == 1
        err = await ana.expect_error("messages.search", "rate_limited", conversationId=cid, query="hello")
        assert err["retryAfterMs"] > 0 and "search" in err["message"], err
        # the connection goes on: it reads and sends; Ben's searches are his own
        assert len((await ana.history(cid))["messages"]) == 1
        bye = await ana.send_text(cid, "bye")
        await ben.wait_message(cid, seq=bye["seq"])
        assert len((await search(ben, cid, "hello"))["messages"]) == 1
