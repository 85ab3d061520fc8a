"""Editing a sent text (`messages.edit`), as in Messages: only its sender, only a text,
within 15 minutes of sending (`--edit-seconds`), at most 5 times. The message changes
where it stands and an edit record takes the next seq, so a member who was away learns
it on resume and from history; deleting an edited message keeps none of its texts."""

from __future__ import annotations

import asyncio

import pytest

from client import Env
from test_cluster import Nats, cluster, envs_on  # noqa: F401 (the fixture)
from test_moderation import files_holding, wait_forgotten
from test_typing import room  # people in a conversation, each subscribed


async def edit(client, cid, seq, text):
    return (await client.call("messages.edit", conversationId=cid, seq=seq, text=text))["message"]


async def test_an_edit_is_seen_live_on_resume_and_in_history(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        typo = await ana.send_text(cid, "see you at 5pm")
        reply = await ben.send_message(cid, {"kind": "text", "text": "ok", "replyTo": typo["seq"]})
        love = await ben.send_message(cid, {"kind": "reaction", "to": typo["seq"], "emoji": "❤️"})
        await ana.wait_message(cid, love["seq"])
        # Cy was here before the edit, then went away
        cy = await env.register("Cy")
        await env.conversation(ana, cy)  # another room: Cy joins this one by invite below
        invite = (await ana.call("invites.create", conversationId=cid))["invite"]
        await cy.call("conversations.join", invite=invite)
        seen = await cy.subscribe(cid)
        await cy.close()

        fixed = await edit(ana, cid, typo["seq"], "see you at 6pm")
        assert (fixed["seq"], fixed["text"], fixed["editCount"]) == (typo["seq"], "see you at 6pm", 1)
        assert fixed["editedAt"] >= typo["createdAt"]
        assert fixed["clientId"] == typo["clientId"] and fixed["createdAt"] == typo["createdAt"]
        ev = (await ben.wait_message(cid, love["seq"] + 1))["message"]
        assert (ev["kind"], ev["edits"], ev["text"], ev["editCount"], ev["sender"]) == (
            "edit", typo["seq"], "see you at 6pm", 1, ana.uid)
        assert ev["createdAt"] == fixed["editedAt"]

        # Cy comes back and resumes from what they had: the record carries the new text
        cy = await env.login(cy.token, "cy-back")
        await cy.subscribe(cid, after_seq=seen["lastSeq"])
        replayed = (await cy.wait_message(cid, ev["seq"]))["message"]
        assert replayed == ev

        # history: the message where it stands, with its new words; the reply and the reaction stay
        history = {m["seq"]: m for m in (await cy.history(cid))["messages"]}
        assert history[typo["seq"]]["text"] == "see you at 6pm"
        assert history[typo["seq"]]["editedAt"] == fixed["editedAt"]
        assert history[typo["seq"]]["editCount"] == 1
        assert history[reply["seq"]]["replyTo"] == typo["seq"]
        assert history[love["seq"]]["to"] == typo["seq"]

        # the same words again: answered as it is, nothing stored, nobody told
        again = await edit(ana, cid, typo["seq"], "see you at 6pm")
        assert again == fixed
        after = await ben.send_text(cid, "after")
        assert after["seq"] == ev["seq"] + 1
        # a send retried with the first clientId answers the message as it is now
        retried = await ana.send_message(cid, {"kind": "text", "text": "see you at 5pm"}, client_id=typo["clientId"])
        assert (retried["seq"], retried["text"]) == (typo["seq"], "see you at 6pm")


async def test_edits_others_cannot_make_and_limits(server_factory):
    server = server_factory(extra_args=["--edit-seconds", "1"])
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        eve = await env.register("Eve")
        hi = await ana.send_text(cid, "hi")
        mine = await ana.send_message(cid, {"kind": "reaction", "to": hi["seq"], "emoji": "👍"})

        await ben.expect_error("messages.edit", "forbidden", conversationId=cid, seq=hi["seq"], text="hijacked")
        await eve.expect_error("messages.edit", "not_member", conversationId=cid, seq=hi["seq"], text="x")
        err = await ana.expect_error("messages.edit", "invalid_field", conversationId=cid, seq=mine["seq"], text="x")
        assert err["field"] == "seq"
        err = await ana.expect_error("messages.edit", "not_found", conversationId=cid, seq=mine["seq"] + 1, text="x")
        assert err["field"] == "seq"
        for bad, code in (("", "invalid_field"), ("a\u0000b", "invalid_field"), (7, "invalid_field"),
                          ("x" * 10_001, "too_long")):
            err = await ana.expect_error("messages.edit", code, conversationId=cid, seq=hi["seq"], text=bad)
            assert err["field"] == "text", err

        await asyncio.sleep(1.1)  # past the server's 1 s window
        err = await ana.expect_error("messages.edit", "forbidden", conversationId=cid, seq=hi["seq"], text="hello")
        assert err["field"] == "seq" and "1 second" in err["message"], err

        # nothing of it was stored, nobody heard anything
        after = await ana.send_text(cid, "after")
        assert after["seq"] == mine["seq"] + 1
        await ben.wait_message(cid, after["seq"])
        assert [m["text"] for m in (await ben.history(cid))["messages"] if m["kind"] == "text"] == ["hi", "after"]


async def test_five_edits_then_no_more(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        m = await ana.send_text(cid, "v0")
        for n in range(1, 6):
            assert (await edit(ana, cid, m["seq"], f"v{n}"))["editCount"] == n
        err = await ana.expect_error("messages.edit", "forbidden", conversationId=cid, seq=m["seq"], text="v6")
        assert err["field"] == "seq" and "5 times" in err["message"]
        history = (await ben.history(cid))["messages"]
        assert history[0]["text"] == "v5"
        records = [r for r in history if r["kind"] == "edit"]
        # only the newest record holds the text: the earlier ones were scrubbed
        assert [(r["editCount"], r.get("text")) for r in records] == [(1, None), (2, None), (3, None), (4, None),
                                                                       (5, "v5")]
        # deleted: the last record keeps its words no more (both stores)
        await ana.call("messages.delete", conversationId=cid, seq=m["seq"])
        history = (await ben.history(cid))["messages"]
        assert history[0]["kind"] == "deleted"
        assert not [r for r in history if "v5" in str(r) or "v1" in str(r)], history


@pytest.mark.sqlite_only
async def test_deleting_an_edited_message_leaves_none_of_its_texts_on_disk(server_factory):
    server = server_factory()
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        m = await ana.send_text(cid, "first-aardvark-words")
        kept = await ben.send_text(cid, "kept-okapi-words")
        await edit(ana, cid, m["seq"], "second-aardvark-words")
        await edit(ana, cid, m["seq"], "third-aardvark-words")
        # an edit forgets the words it replaced
        await wait_forgotten(server, b"first-aardvark-words", "the text an edit replaced")
        assert files_holding(server, b"third-aardvark-words")
        await ana.call("messages.delete", conversationId=cid, seq=m["seq"])
        for words in (b"second-aardvark-words", b"third-aardvark-words"):
            await wait_forgotten(server, words, "an edited message's text after its deletion")
        assert files_holding(server, b"kept-okapi-words")
        history = {h["seq"]: h for h in (await ben.history(cid))["messages"]}
        assert history[m["seq"]]["kind"] == "deleted"
        assert kept["seq"] in history


async def test_an_edit_on_one_node_reaches_the_others(cluster):  # noqa: F811
    _, nodes = cluster
    async with envs_on(nodes) as envs:
        ana = await envs[0].register("Ana")
        ben = await envs[1].register("Ben")
        cy = await envs[2].register("Cy")
        cid, _ = await envs[0].conversation(ana, ben, cy)
        for c in (ana, ben):
            await c.subscribe(cid)
        m = await ana.send_text(cid, "meet at the parc")
        await edit(ana, cid, m["seq"], "meet at the park")
        for c in (ana, ben):
            ev = (await c.wait_message(cid, m["seq"] + 1, timeout=15))["message"]
            assert (ev["kind"], ev["edits"], ev["text"]) == ("edit", m["seq"], "meet at the park")
        await cy.subscribe(cid, after_seq=m["seq"])
        ev = (await cy.wait_message(cid, m["seq"] + 1, timeout=15))["message"]
        assert ev["text"] == "meet at the park"
        assert (await cy.history(cid))["messages"][0]["text"] == "meet at the park"
