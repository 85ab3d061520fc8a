"""Who is typing: `typing` tells the conversation's subscribers that a member is
writing (or stopped without sending); nothing is stored, non-members are refused and
hear nothing, and it is limited per user."""

from __future__ import annotations

from client import Env


def is_typing(cid, uid, on):
    return lambda e: (
        e.get("type") == "typing" and e.get("conversationId") == cid and e.get("userId") == uid and e.get("typing") is on
    )


async def room(env, *names):
    people = [await env.register(n) for n in names]
    cid, _ = await env.conversation(*people, title="Chat")
    for p in people:
        await p.subscribe(cid)
    return people, cid


async def typing_heard(person, cid):
    return [(e["userId"], e["typing"]) for e in person.events if e.get("type") == "typing" and e.get("conversationId") == cid]


async def test_the_others_hear_who_is_typing_and_nothing_is_stored(server):
    async with Env(server) as env:
        (ana, ben, cy), cid = await room(env, "Ana", "Ben", "Cy")
        eve = await env.register("Eve")
        elsewhere, _ = await env.conversation(eve, title="Eve's own")
        await eve.subscribe(elsewhere)
        before = await ana.send_text(cid, "before")

        assert await ana.call("typing", conversationId=cid, typing=True) == {}
        for p in (ben, cy):
            ev = await p.wait_for(is_typing(cid, ana.uid, True), desc="Ana is typing")
            assert set(ev) == {"type", "conversationId", "userId", "typing"}
        await ana.call("typing", conversationId=cid, typing=False)
        await ben.wait_for(is_typing(cid, ana.uid, False), desc="Ana stopped")

        # nothing was stored: the next message follows the last one
        after = await ben.send_text(cid, "after")
        assert after["seq"] == before["seq"] + 1
        await eve.send_text(elsewhere, "marker")
        await cy.wait_message(cid, seq=after["seq"])
        assert not [e for e in eve.events if e.get("type") == "typing"], "someone outside the conversation heard it"


async def test_bad_typing_requests_are_refused_and_tell_nobody(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        eve = await env.register("Eve")
        # not a member, or no such conversation: the same answer
        await eve.expect_error("typing", "not_member", conversationId=cid, typing=True)
        await eve.expect_error("typing", "not_member", conversationId="c-nope", typing=True)
        for fields in ({"conversationId": cid}, {"conversationId": cid, "typing": "yes"},
                       {"conversationId": cid, "typing": 1}, {"typing": True}, {"conversationId": "", "typing": True}):
            err = await ana.expect_error("typing", {"invalid_field", "too_long"}, **fields)
            assert err.get("field") in {"typing", "conversationId"}
        # a member who left can no longer say so
        await ben.call("conversations.leave", conversationId=cid)
        await ben.expect_error("typing", "not_member", conversationId=cid, typing=True)

        m = await ana.send_text(cid, "marker")
        await ana.wait_message(cid, seq=m["seq"])
        assert await typing_heard(ana, cid) == []


async def test_typing_notices_are_limited_per_user(server_factory):
    """A burst of 30 passes, the 31st is refused and told to nobody (one notice back an
    hour, so a slow machine cannot refill the bucket meanwhile)."""
    async with Env(server_factory(extra_args=["--limit-typing", "30/3600"])) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        for i in range(30):
            await ana.call("typing", conversationId=cid, typing=i % 2 == 0)
        err = await ana.expect_error("typing", "rate_limited", conversationId=cid, typing=True)
        assert err["retryAfterMs"] > 0
        m = await ana.send_text(cid, "marker")
        await ben.wait_message(cid, seq=m["seq"])
        assert await typing_heard(ben, cid) == [(ana.uid, i % 2 == 0) for i in range(30)]
