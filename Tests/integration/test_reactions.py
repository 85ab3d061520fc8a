"""Tapbacks: a `reaction` message ({"kind":"reaction","to":N,"emoji":"❤️"}) is stored
as any message is (acknowledged, relayed live, in history); "" takes one's reaction
back; only the six emoji, only to a message that exists, only by a member."""

from __future__ import annotations

from client import Env
from test_typing import room  # people in a conversation, each subscribed

LOVE = "\u2764\ufe0f"


def reaction(to, emoji):
    return {"kind": "reaction", "to": to, "emoji": emoji}


async def test_a_reaction_is_acknowledged_relayed_kept_and_taken_back(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        hi = await ben.send_text(cid, "hi")

        love = await ana.send_message(cid, reaction(hi["seq"], LOVE), client_id="react-1")
        assert (love["kind"], love["to"], love["emoji"], love["sender"]) == ("reaction", hi["seq"], LOVE, ana.uid)
        assert love["seq"] == hi["seq"] + 1
        live = (await ben.wait_message(cid, seq=love["seq"]))["message"]
        assert live == love

        # a retry of the same send is the same message; the bare ❤ is stored as ❤️
        again = await ana.send_message(cid, reaction(hi["seq"], "\u2764"), client_id="react-1")
        assert again["seq"] == love["seq"]

        back = await ana.send_message(cid, reaction(hi["seq"], ""))
        assert back["emoji"] == "" and back["to"] == hi["seq"]
        await ben.wait_message(cid, seq=back["seq"])

        history = (await ben.history(cid))["messages"]
        assert [(m["seq"], m["kind"], m.get("to"), m.get("emoji")) for m in history] == [
            (hi["seq"], "text", None, None), (love["seq"], "reaction", hi["seq"], LOVE),
            (back["seq"], "reaction", hi["seq"], ""),
        ]


async def test_a_reader_who_comes_back_gets_the_reactions_they_missed(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        hi = await ben.send_text(cid, "hi")
        await ben.close()
        like = await ana.send_message(cid, reaction(hi["seq"], "\U0001f44d"))
        ben2 = await env.login(ben.token)
        await ben2.subscribe(cid, after_seq=hi["seq"])
        replayed = (await ben2.wait_message(cid, seq=like["seq"]))["message"]
        assert (replayed["kind"], replayed["to"], replayed["emoji"]) == ("reaction", hi["seq"], "\U0001f44d")


async def test_bad_reactions_are_refused_and_store_nothing(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        eve = await env.register("Eve")
        hi = await ben.send_text(cid, "hi")

        for emoji in ("\U0001f600", "heart", LOVE + LOVE, "\U0001f44d\U0001f3fd", " ", 1, None):
            err = await ana.expect_error("send", "invalid_field", conversationId=cid, clientId=f"bad-{emoji!r}",
                                         message=reaction(hi["seq"], emoji))
            assert err["field"] == "message.emoji", err
        for to in (0, -1, 1.5, "1"):
            err = await ana.expect_error("send", "invalid_field", conversationId=cid, clientId=f"to-{to!r}",
                                         message=reaction(to, LOVE))
            assert err["field"] == "message.to", err
        err = await ana.expect_error("send", "not_found", conversationId=cid, clientId="beyond",
                                     message=reaction(hi["seq"] + 1, LOVE))
        assert err["field"] == "message.to", err
        # not a member: the same answer as for a conversation that is not there
        await eve.expect_error("send", "not_member", conversationId=cid, clientId="eve",
                               message=reaction(hi["seq"], LOVE))

        # nothing was stored, and nobody heard anything
        after = await ben.send_text(cid, "after")
        assert after["seq"] == hi["seq"] + 1
        await ana.wait_message(cid, seq=after["seq"])
        assert not [e for e in ana.events + ben.events
                    if e.get("type") == "message" and e["message"].get("kind") == "reaction"]
