"""Mentions (`message.mentions` on a text: members named as @Name) and the notification
level each member keeps per conversation on the server (`conversations.setNotify`), so
that muting a busy group on the phone mutes it on the laptop too."""

from __future__ import annotations

from client import Env
from test_cluster import Nats, cluster, envs_on  # noqa: F401 (the fixture)
from test_typing import room  # people in a conversation, each subscribed


def text(words, *mentions, **more):
    return {"kind": "text", "text": words, "mentions": list(mentions), **more}


def notify_of(conversations, cid):
    return next(c for c in conversations if c["id"] == cid)["notify"]


async def test_mentions_are_checked_stored_echoed_and_kept_by_edits(server):
    async with Env(server) as env:
        (ana, ben, cy), cid = await room(env, "Ana", "Ben", "Cy Lee")
        eve = await env.register("Eve")
        sent = await ben.send_message(cid, text("@Ana and @Cy Lee, look", ana.uid, cy.uid))
        assert sent["mentions"] == [ana.uid, cy.uid]
        for p in (ana, cy):
            assert (await p.wait_message(cid, sent["seq"]))["message"]["mentions"] == [ana.uid, cy.uid]

        # refused, each naming the field, and nothing stored
        for bad in (text("@Eve hi", eve.uid),               # not a member
                    text("hi Ana", ana.uid),                # the text does not say @Ana
                    text("@ana hi", ana.uid),               # nor in another case
                    text("@Ana @Ana", ana.uid, ana.uid),    # twice
                    text("@Ana", *[f"u{i}" for i in range(21)]),
                    {"kind": "text", "text": "@Ana", "mentions": ana.uid}):
            err = await ben.expect_error("send", "invalid_field", conversationId=cid, clientId=f"bad-{len(str(bad))}",
                                         message=bad)
            assert err["field"] == "message.mentions", bad
        assert [m["seq"] for m in (await ana.history(cid))["messages"]] == [sent["seq"]]

        # an edit that says nothing of them keeps those still named; one that does replaces them
        kept = (await ben.call("messages.edit", conversationId=cid, seq=sent["seq"], text="@Cy Lee, look"))["message"]
        assert kept["mentions"] == [cy.uid]
        record = (await cy.wait_message(cid, sent["seq"] + 1))["message"]
        assert (record["kind"], record["mentions"]) == ("edit", [cy.uid])
        err = await ben.expect_error("messages.edit", "invalid_field", conversationId=cid, seq=sent["seq"],
                                     text="look", mentions=[ana.uid])
        assert err["field"] == "mentions"
        replaced = (await ben.call("messages.edit", conversationId=cid, seq=sent["seq"], text="@Ana look",
                                   mentions=[ana.uid]))["message"]
        assert replaced["mentions"] == [ana.uid]
        assert (await ana.history(cid))["messages"][0]["mentions"] == [ana.uid]


async def test_the_level_is_stored_listed_and_told_to_the_users_other_devices(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        eve = await env.register("Eve")
        phone = await env.login(ana.token, "ana-phone")
        assert notify_of((await ana.call("conversations.list"))["conversations"], cid) == "all"

        assert await ana.call("conversations.setNotify", conversationId=cid, notify="mentions") == {}
        ev = await phone.wait_event("notify", conversationId=cid)
        assert ev["notify"] == "mentions"
        assert notify_of((await phone.call("conversations.list"))["conversations"], cid) == "mentions"
        assert (await phone.subscribe(cid))["conversation"]["notify"] == "mentions"
        assert notify_of((await ben.call("conversations.list"))["conversations"], cid) == "all"  # Ben's own
        assert not [e for e in ben.events if e.get("type") == "notify"]

        err = await ana.expect_error("conversations.setNotify", "invalid_field", conversationId=cid, notify="some")
        assert err["field"] == "notify"
        await eve.expect_error("conversations.setNotify", "not_member", conversationId=cid, notify="none")
        assert notify_of((await ana.call("conversations.list"))["conversations"], cid) == "mentions"

        # it goes with the membership: back by invite, back to all
        await ana.call("conversations.setNotify", conversationId=cid, notify="none")
        await ana.call("conversations.leave", conversationId=cid)
        invite = (await ben.call("invites.create", conversationId=cid))["invite"]
        assert (await ana.call("conversations.join", invite=invite))["conversation"]["notify"] == "all"


async def test_set_notify_is_rate_limited(server_factory):
    server = server_factory(extra_args=["--limit-changes", "2/3600"])
    async with Env(server) as env:
        (ana, _), cid = await room(env, "Ana", "Ben")
        await ana.call("conversations.setNotify", conversationId=cid, notify="none")
        await ana.call("conversations.setNotify", conversationId=cid, notify="all")
        err = await ana.expect_error("conversations.setNotify", "rate_limited", conversationId=cid, notify="none")
        assert err["retryAfterMs"] > 0
        assert notify_of((await ana.call("conversations.list"))["conversations"], cid) == "all"


async def test_the_level_reaches_the_users_connection_on_another_node(cluster):  # noqa: F811
    _, nodes = cluster
    async with envs_on(nodes) as envs:
        ana = await envs[0].register("Ana")
        ben = await envs[1].register("Ben")
        cid, _ = await envs[0].conversation(ana, ben)
        laptop = await envs[2].login(ana.token, "ana-laptop")
        await ana.call("conversations.setNotify", conversationId=cid, notify="none")
        ev = await laptop.wait_event("notify", conversationId=cid, timeout=15)
        assert ev["notify"] == "none"
        assert notify_of((await laptop.call("conversations.list"))["conversations"], cid) == "none"
        # a mention checked on another node than the one that stored the member
        await ben.subscribe(cid)
        sent = await ben.send_message(cid, text("@Ana hi", ana.uid))
        assert sent["mentions"] == [ana.uid]
        await ben.expect_error("send", "invalid_field", conversationId=cid, clientId="bad",
                               message=text("hi", ana.uid))
