"""Direct conversations (conversations.direct) and blocks (users.block/unblock): one
conversation per pair even when both ask at once on two cluster nodes; a block refuses
sends in it and stores nothing; the block list reaches the blocker's other connections;
on SQLite and PostgreSQL, and across nodes."""

from __future__ import annotations

import asyncio

from client import Env
from test_cluster import cluster, envs_on  # noqa: F401  (the fixture)


async def people(env):
    """Ana and Ben in one group; Cy in none with them."""
    ana = await env.register("Ana")
    ben = await env.register("Ben")
    cy = await env.register("Cy")
    group, _ = await env.conversation(ana, ben, title="Book club")
    return ana, ben, cy, group


async def test_one_direct_conversation_per_pair_with_its_rules(server_factory):
    async with Env(server_factory()) as env:
        ana, ben, cy, group = await people(env)
        r = await ana.call("conversations.direct", userId=ben.uid)
        c = r["conversation"]
        assert c["direct"] is True and sorted(c["directUserIds"]) == sorted([ana.uid, ben.uid]), c
        assert c["memberCount"] == 2 and c["title"] == ""
        # Ben's list has it at once (the conversation event), and asking again gives the same one
        ev = await ben.wait_for(lambda e: e.get("type") == "conversation" and e["conversation"]["id"] == c["id"], 5,
                                desc="the direct conversation's event")
        assert ev["conversation"]["direct"] is True
        assert (await ben.call("conversations.direct", userId=ana.uid))["conversation"]["id"] == c["id"]
        listed = {x["id"]: x for x in (await ben.call("conversations.list"))["conversations"]}
        assert listed[c["id"]]["direct"] is True

        # strangers, oneself, no such account: refused alike, nothing made
        stranger = await ana.expect_error("conversations.direct", "forbidden", userId=cy.uid)
        nobody = await ana.expect_error("conversations.direct", "forbidden", userId="unope")
        assert stranger["message"] == nobody["message"]
        await ana.expect_error("conversations.direct", "invalid_field", userId=ana.uid)
        assert len((await cy.call("conversations.list"))["conversations"]) == 0

        # no invites, rename or remove; leaving works as leaving does
        await ana.expect_error("invites.create", "forbidden", conversationId=c["id"])
        await ana.expect_error("conversations.rename", "forbidden", conversationId=c["id"], title="x")
        await ana.expect_error("conversations.removeMember", "forbidden", conversationId=c["id"], userId=ben.uid)
        await ben.call("conversations.leave", conversationId=c["id"])
        await ben.expect_error("send", "not_member", conversationId=c["id"], clientId="b-gone",
                               message={"kind": "text", "text": "hi"})
        again = (await ana.call("conversations.direct", userId=ben.uid))["conversation"]
        assert again["id"] == c["id"] and again["memberCount"] == 2


async def test_a_direct_conversation_names_the_other_after_they_leave(server_factory):
    async with Env(server_factory()) as env:
        ana, ben, _, _ = await people(env)
        cid = (await ana.call("conversations.direct", userId=ben.uid))["conversation"]["id"]

        def named(listed):
            c = next(x for x in listed["conversations"] if x["id"] == cid)
            return dict(zip(c["directUserIds"], c["directNames"], strict=True)), sorted(m["userId"] for m in c["members"])

        assert named(await ana.call("conversations.list")) == ({ana.uid: "Ana", ben.uid: "Ben"}, sorted([ana.uid, ben.uid]))
        # Ben leaves, then renames: Ana's list (as a reload asks it) still names him, as now named
        await ben.call("conversations.leave", conversationId=cid)
        await ben.call("rename", name="Benjamin")
        assert named(await ana.call("conversations.list")) == ({ana.uid: "Ana", ben.uid: "Benjamin"}, [ana.uid])
        await ben.call("account.delete", confirm="Benjamin")
        assert named(await ana.call("conversations.list"))[0][ben.uid] == "Deleted account"


async def test_a_block_refuses_direct_sends_and_follows_the_blocker(server_factory):
    async with Env(server_factory()) as env:
        ana, ben, _, group = await people(env)
        ana_tab2 = await env.login(ana.token, "ana2")
        cid = (await ana.call("conversations.direct", userId=ben.uid))["conversation"]["id"]
        await ben.send_text(cid, "before")

        assert await ana.call("users.block", userId=ben.uid) == {}
        ev = await ana_tab2.wait_event("blocked", timeout=5)
        assert ev["users"] == [{"userId": ben.uid, "name": "Ben"}]
        assert not [e for e in ben.log if e.get("type") == "blocked"], "the blocked person was told"

        refused = await ben.expect_error("send", "forbidden", conversationId=cid, clientId="b-after",
                                         message={"kind": "text", "text": "after"})
        assert "cannot" in refused["message"]
        texts = [m.get("text") for m in await ana.history_all(cid)]
        assert texts == ["before"], texts
        # the same answer as a stranger's: the block is not revealed
        await ben.expect_error("conversations.direct", "forbidden", userId=ana.uid)
        # the group goes on: its history is the group's
        await ben.send_text(group, "in the group")

        # the list comes with sign-in; unblocking lets Ben write again
        signed = await (await env.connect("ana3")).call("auth", token=ana.token)
        assert signed["blocked"] == [{"userId": ben.uid, "name": "Ben"}]
        assert (await (await env.connect("ben2")).call("auth", token=ben.token))["blocked"] == []
        assert await ana.call("users.unblock", userId=ben.uid) == {}
        assert (await ana_tab2.wait_event("blocked", timeout=5, users=[]))["users"] == []
        await ben.send_text(cid, "after unblock")


async def test_the_limit_on_blocks_refuses_clearly(server_factory):
    async with Env(server_factory(["--limit-blocks", "2/3600"])) as env:
        ana, ben, cy, _ = await people(env)
        await ana.call("users.block", userId=ben.uid)
        await ana.call("users.block", userId=cy.uid)
        e = await ana.expect_error("users.block", "rate_limited", userId=cy.uid)
        assert e["retryAfterMs"] > 0


async def test_two_asking_at_once_on_two_nodes_get_one_conversation(cluster):  # noqa: F811
    _, nodes = cluster
    async with envs_on(nodes) as (a, b, c):
        # fresh pairs, each asking at once from two nodes: the first to ask of each pair
        # makes it, the other's insert waits for that commit and finds it
        pairs = []
        for i in range(6):
            x, y = await a.register(f"Ana {i}"), await b.register(f"Ben {i}")
            await a.conversation(x, y)
            pairs.append((x, y))
        futures = []
        for x, y in pairs:
            futures += [await x.start("conversations.direct", userId=y.uid), await y.start("conversations.direct", userId=x.uid)]
        frames = await asyncio.gather(*futures)
        assert all(f["type"] == "result" for f in frames), frames
        ids = [f["result"]["conversation"]["id"] for f in frames]
        assert all(ids[i] == ids[i + 1] for i in range(0, len(ids), 2)), ids
        ana, ben = pairs[0]
        r1 = frames[0]
        cid = r1["result"]["conversation"]["id"]
        assert len([x for x in (await ana.call("conversations.list"))["conversations"] if x.get("direct")]) == 1

        # a block made on node 0 reaches Ana's tab on node 2 and refuses Ben's send on node 1
        ana_far = await c.login(ana.token, "ana-far")
        await ben.subscribe(cid, after_seq=0)
        await ana.call("users.block", userId=ben.uid)
        await ana_far.wait_event("blocked", timeout=10)
        await ben.expect_error("send", "forbidden", conversationId=cid, clientId="b-x",
                               message={"kind": "text", "text": "x"})
        assert await ana_far.history_all(cid) == []
