"""Resume after a reconnect from the last seq seen; resync when too far behind."""

from __future__ import annotations

import asyncio
import shutil

import pytest

from client import Env


async def send_many(client, cid, n, prefix):
    futs = [
        await client.start("send", conversationId=cid, clientId=f"{prefix}-{i}",
                           message={"kind": "text", "text": f"{prefix} {i}"})
        for i in range(n)
    ]
    frames = await asyncio.wait_for(asyncio.gather(*futs), 60)
    bad = [f for f in frames if f["type"] != "result"]
    assert not bad, f"sends failed: {bad[:3]}"
    return [f["result"]["message"] for f in frames]


async def test_resume_after_disconnect(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cid, _ = await env.conversation(ana, ben)
        await ben.subscribe(cid)
        for i in range(3):
            await ana.send_text(cid, f"early {i}")
        await ben.wait_message(cid, seq=3)
        last_seen = max(ben.message_seqs(cid))
        assert last_seen == 3
        await ben.close()

        missed = [await ana.send_text(cid, f"missed {i}") for i in range(5)]
        assert [m["seq"] for m in missed] == [4, 5, 6, 7, 8]

        ben2 = await env.login(ben.token, label="ben2")
        assert ben2.uid == ben.uid
        sub = await ben2.subscribe(cid, after_seq=last_seen)
        assert sub["resync"] is False
        assert sub["lastSeq"] == 8
        for m in missed:
            ev = await ben2.wait_message(cid, seq=m["seq"])
            assert ev["message"] == m
        live1 = await ana.send_text(cid, "live 1")
        live2 = await ana.send_text(cid, "live 2")
        await ben2.wait_message(cid, seq=live1["seq"])
        await ben2.wait_message(cid, seq=live2["seq"])
        assert ben2.message_seqs(cid) == [4, 5, 6, 7, 8, 9, 10], "exactly the missed ones, once, in order, then live"
        snap = [e for e in ben2.log if e.get("type") == "presence" and "userId" not in e]
        assert snap and ben2.uid in snap[0]["online"], f"no presence snapshot after subscribe: {ben2.log}"

        # subscribing again on the same connection restarts the replay
        sub = await ben2.subscribe(cid, after_seq=7)
        assert sub["lastSeq"] == 10 and sub["resync"] is False
        live3 = await ana.send_text(cid, "live 3")
        await ben2.wait_message(cid, seq=live3["seq"])
        assert ben2.message_seqs(cid) == [4, 5, 6, 7, 8, 9, 10, 8, 9, 10, 11]

        # unsubscribe stops live delivery: after a resubscribe, the message sent
        # meanwhile arrives once (by replay), not twice
        await ben2.call("unsubscribe", conversationId=cid)
        gap = await ana.send_text(cid, "while unsubscribed")
        await ben2.subscribe(cid, after_seq=11)
        await ben2.wait_message(cid, seq=gap["seq"])
        live4 = await ana.send_text(cid, "live 4")
        await ben2.wait_message(cid, seq=live4["seq"])
        assert ben2.message_seqs(cid)[-2:] == [12, 13]
        assert ben2.message_seqs(cid).count(12) == 1


async def test_no_gap_no_duplicate_at_the_seam(server):
    """Subscribe while the other side is sending fast: replay + live is contiguous."""
    async with Env(server) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cid, _ = await env.conversation(ana, ben)
        await send_many(ana, cid, 20, "pre")
        futs = [
            await ana.start("send", conversationId=cid, clientId=f"burst-{i}",
                            message={"kind": "text", "text": f"burst {i}"})
            for i in range(150)
        ]
        sub = await ben.subscribe(cid, after_seq=5)  # while the burst is being stored
        assert sub["resync"] is False
        frames = await asyncio.wait_for(asyncio.gather(*futs), 60)
        assert all(f["type"] == "result" for f in frames)
        final = max(f["result"]["message"]["seq"] for f in frames)
        assert final == 170
        await ben.wait_message(cid, seq=final, timeout=15)
        seqs = ben.message_seqs(cid)
        assert seqs == list(range(6, final + 1)), (
            f"replay+live must be contiguous: first {seqs[:5]}, len {len(seqs)}, "
            f"dups {sorted({s for s in seqs if seqs.count(s) > 1})[:10]}, "
            f"missing {sorted(set(range(6, final + 1)) - set(seqs))[:10]}"
        )


async def test_resync_when_after_seq_is_ahead(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cid, _ = await env.conversation(ana, ben)
        await send_many(ana, cid, 4, "x")
        sub = await ben.subscribe(cid, after_seq=50)
        assert sub["resync"] is True, "afterSeq beyond lastSeq means a different history: resync"
        assert sub["lastSeq"] == 4
        live = await ana.send_text(cid, "after resync")
        assert live["seq"] == 5
        await ben.wait_message(cid, seq=5)
        assert ben.message_seqs(cid) == [5], "no replay on resync; live continues after lastSeq"
        # the client then pages history backwards from lastSeq + 1
        r = await ben.history(cid, before_seq=sub["lastSeq"] + 1)
        assert [m["seq"] for m in r["messages"]] == [1, 2, 3, 4]


async def test_resync_when_more_than_500_missed(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cid, _ = await env.conversation(ana, ben)
        await send_many(ana, cid, 510, "bulk")
        assert await ana.last_seq(cid) == 510

        b1 = await env.login(ben.token, label="ben-from-0")
        sub = await b1.subscribe(cid, after_seq=0)
        assert sub["resync"] is True and sub["lastSeq"] == 510

        b2 = await env.login(ben.token, label="ben-501-missed")
        sub = await b2.subscribe(cid, after_seq=9)  # 501 missed
        assert sub["resync"] is True and sub["lastSeq"] == 510

        b3 = await env.login(ben.token, label="ben-500-missed")
        sub = await b3.subscribe(cid, after_seq=10)  # exactly 500 missed: replayed
        assert sub["resync"] is False and sub["lastSeq"] == 510
        await b3.wait_message(cid, seq=510, timeout=15)

        live = await ana.send_text(cid, "live after bulk")
        assert live["seq"] == 511
        for b in (b1, b2, b3):
            await b.wait_message(cid, seq=511)
        assert b1.message_seqs(cid) == [511]
        assert b2.message_seqs(cid) == [511]
        assert b3.message_seqs(cid) == list(range(11, 512))


@pytest.mark.sqlite_only
async def test_after_a_restore_a_client_that_saw_lost_messages_starts_over(server_factory, tmp_path):
    """A server restored from a backup gives the seqs of what was lost to new messages.
    A client that saw a lost message at its afterSeq got only what came after, kept the
    lost ones, and never saw the new ones at those seqs. Naming the message it holds
    there (afterClientId) makes the server answer resync."""
    srv = server_factory()
    async with Env(srv) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cid, _ = await env.conversation(ana, ben)
        await ana.send_text(cid, "kept 1")
        await ana.send_text(cid, "kept 2")
    srv.stop()
    backup = tmp_path / "backup"
    shutil.copytree(srv.data_dir, backup)

    srv.start()
    async with Env(srv) as env:
        ben2 = await env.login(ben.token)
        lost = [await ben2.send_text(cid, f"lost {i}", client_id=f"lost-{i}") for i in range(2)]
        assert [m["seq"] for m in lost] == [3, 4]
    srv.stop()
    shutil.rmtree(srv.data_dir)
    shutil.copytree(backup, srv.data_dir)  # the restore

    srv.start()
    async with Env(srv) as env:
        ben3 = await env.login(ben.token)
        new = [await ben3.send_text(cid, f"new {i}") for i in range(3)]
        assert [m["seq"] for m in new] == [3, 4, 5], "the restored history goes on from 2"
        ana2 = await env.login(ana.token)
        sub = await ana2.call("subscribe", conversationId=cid, afterSeq=4, afterClientId="lost-1")
        assert sub["resync"] is True and sub["lastSeq"] == 5, sub
        # a client whose message at afterSeq is the server's resumes as before
        ana3 = await env.login(ana.token, label="ana3")
        sub = await ana3.call("subscribe", conversationId=cid, afterSeq=4, afterClientId=new[1]["clientId"])
        assert sub["resync"] is False, sub
        await ana3.wait_message(cid, seq=5)
        # an id that is not one is refused as bad input
        await ana3.expect_error("subscribe", "invalid_field", conversationId=cid, afterSeq=4, afterClientId="")


async def test_a_subscribe_sent_behind_a_join_is_answered_as_a_member(server):
    """A client that knows the conversation from the invite's peek sends the join and
    the subscribe together (a round trip sooner on a phone): the server takes a
    connection's requests in order, so the subscribe is answered as a member, with what
    was said before the join replayed. Behind a join that is refused it is refused too,
    and nothing of the conversation is sent."""
    async with Env(server) as env:
        ana = await env.register("Ana")
        cid, invite = await env.conversation(ana, title="Games night")
        said = [(await ana.send_text(cid, f"before you came {i}"))["seq"] for i in range(3)]
        ben = await env.register("Ben")
        joined, subscribed = await ben.start_burst([
            ("conversations.join", {"invite": invite}),
            ("subscribe", {"conversationId": cid, "afterSeq": 0}),
        ])
        assert (await asyncio.wait_for(joined, 10))["type"] == "result"
        answer = await asyncio.wait_for(subscribed, 10)
        assert answer["type"] == "result", answer
        assert answer["result"]["conversation"]["id"] == cid
        for seq in said:
            await ben.wait_message(cid, seq)
        # and he hears what is said next
        later = await ana.send_text(cid, "welcome")
        await ben.wait_message(cid, later["seq"])

        cara = await env.register("Cara")
        refused_join, refused_subscribe = await cara.start_burst([
            ("conversations.join", {"invite": "not-an-invite"}),
            ("subscribe", {"conversationId": cid, "afterSeq": 0}),
        ])
        assert (await asyncio.wait_for(refused_join, 10))["type"] == "error"
        answer = await asyncio.wait_for(refused_subscribe, 10)
        assert answer["type"] == "error" and answer["code"] == "not_member", answer
        await ana.send_text(cid, "only members hear this")
        await asyncio.sleep(0.3)
        assert cara.message_seqs(cid) == []
