"""Inline replies: a text, sticker or attachment may carry `replyTo` (the seq of the
message it answers). It is stored in the message (acknowledged, relayed live, in
history, the same on a retry), only to a message that exists, never on a sticker stuck
on a bubble, only by a member."""

from __future__ import annotations

from client import Env
from test_http import png_bytes, upload
from test_typing import room  # people in a conversation, each subscribed


def text(words, reply_to=None):
    m = {"kind": "text", "text": words}
    if reply_to is not None:
        m["replyTo"] = reply_to
    return m


async def test_a_reply_is_acknowledged_relayed_kept_and_retried_as_itself(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        lunch = await ben.send_text(cid, "lunch at noon?")

        yes = await ana.send_message(cid, text("yes!", lunch["seq"]), client_id="reply-1")
        assert (yes["kind"], yes["text"], yes["replyTo"], yes["sender"]) == ("text", "yes!", lunch["seq"], ana.uid)
        live = (await ben.wait_message(cid, seq=yes["seq"]))["message"]
        assert live == yes

        # a retry of the same send answers the stored message; without the reply it is another message
        again = await ana.send_message(cid, text("yes!", lunch["seq"]), client_id="reply-1")
        assert again == yes
        await ana.expect_error("send", "client_id_reused", conversationId=cid, clientId="reply-1",
                               message=text("yes!"))

        # a picture and a sticker may answer too
        status, _, _, js = upload(server, png_bytes(rgb=(9, 8, 7)), ben.token)
        assert status == 201
        picture = await ben.send_message(cid, {"kind": "attachment", "image": js["hash"], "replyTo": yes["seq"]})
        sticker = await ana.send_message(cid, {"kind": "sticker", "image": js["hash"], "replyTo": picture["seq"]})
        assert (picture["replyTo"], sticker["replyTo"]) == (yes["seq"], picture["seq"])
        plain = await ben.send_text(cid, "see you")
        assert "replyTo" not in plain
        await ana.wait_message(cid, seq=plain["seq"])

        history = (await ben.history(cid))["messages"]
        assert [(m["seq"], m["kind"], m.get("replyTo")) for m in history] == [
            (lunch["seq"], "text", None), (yes["seq"], "text", lunch["seq"]),
            (picture["seq"], "attachment", yes["seq"]), (sticker["seq"], "sticker", picture["seq"]),
            (plain["seq"], "text", None),
        ]


async def test_bad_replies_are_refused_and_store_nothing(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        eve = await env.register("Eve")
        hi = await ben.send_text(cid, "hi")
        status, _, _, js = upload(server, png_bytes(rgb=(3, 4, 5)), ana.token)
        assert status == 201

        for to in (0, -1, 1.5, "1", True):
            err = await ana.expect_error("send", "invalid_field", conversationId=cid, clientId=f"to-{to!r}",
                                         message=text("no", to))
            assert err["field"] == "message.replyTo", err
        err = await ana.expect_error("send", "invalid_field", conversationId=cid, clientId="stuck",
                                     message={"kind": "sticker", "image": js["hash"], "replyTo": hi["seq"],
                                              "stuckTo": {"seq": hi["seq"], "x": 0.5, "y": 0.5}})
        assert err["field"] == "message.replyTo", err
        err = await ana.expect_error("send", "not_found", conversationId=cid, clientId="beyond",
                                     message=text("no", hi["seq"] + 1))
        assert err["field"] == "message.replyTo", err
        # not a member: the same answer as for a conversation that is not there
        await eve.expect_error("send", "not_member", conversationId=cid, clientId="eve", message=text("no", hi["seq"]))

        # nothing was stored, and nobody heard anything
        after = await ben.send_text(cid, "after")
        assert after["seq"] == hi["seq"] + 1
        await ana.wait_message(cid, seq=after["seq"])
        assert not [e for e in ana.events + ben.events
                    if e.get("type") == "message" and "replyTo" in e["message"]]
