"""Who is playing right now: `playing` marks a session open in someone's expanded
pane; the others in the conversation hear it live, late subscribers get the current
players, and it ends when the pane closes, the connection goes or the person leaves."""

from __future__ import annotations

from client import Env
from test_sessions import app_msg


def is_change(cid, sid, uid, playing):
    return lambda e: (
        e.get("type") == "playing" and e.get("conversationId") == cid and e.get("sessionId") == sid
        and e.get("userId") == uid and e.get("playing") is playing
    )


def is_snapshot(cid):
    return lambda e: e.get("type") == "playing" and e.get("conversationId") == cid and "sessions" in e


async def room(env, *names):
    people = [await env.register(n) for n in names]
    for p in people:
        await p.call("apps.install", appId="testapp")
    cid, _ = await env.conversation(*people, title="Games")
    for p in people:
        await p.subscribe(cid)
    m = await people[0].send_message(cid, app_msg("?board=1", session={"id": "g1", "baseVersion": 0}))
    for p in people:
        await p.wait_message(cid, seq=m["seq"])
    return people, cid


async def test_others_see_who_plays_live_and_late_subscribers_get_a_snapshot(server):
    async with Env(server) as env:
        (ana, ben, cy), cid = await room(env, "Ana", "Ben", "Cy")

        assert await ana.call("playing", conversationId=cid, sessionId="g1", playing=True) == {}
        for p in (ben, cy):
            ev = await p.wait_for(is_change(cid, "g1", ana.uid, True), desc="Ana plays g1")
            assert set(ev) == {"type", "conversationId", "sessionId", "userId", "playing"}

        # a late subscriber (Ben's second tab) gets the current players with its subscribe
        ben2 = await env.login(ben.token, label="ben-tab2")
        await ben2.subscribe(cid)
        snap = await ben2.wait_for(is_snapshot(cid), desc="playing snapshot")
        assert snap["sessions"] == {"g1": [ana.uid]}

        # closing the pane ends it
        await ana.call("playing", conversationId=cid, sessionId="g1", playing=False)
        await ben.wait_for(is_change(cid, "g1", ana.uid, False), desc="Ana closed g1")

        # a disconnect ends it too, without a word from the client
        await cy.call("playing", conversationId=cid, sessionId="g1", playing=True)
        await ben.wait_for(is_change(cid, "g1", cy.uid, True), desc="Cy plays g1")
        await cy.close()
        await ben.wait_for(is_change(cid, "g1", cy.uid, False), desc="Cy's connection went")

        # nobody plays now: a subscribe brings no snapshot (a marker message shows it is past)
        ana2 = await env.login(ana.token, label="ana-tab2")
        await ana2.subscribe(cid)
        m = await ben.send_text(cid, "marker")
        await ana2.wait_message(cid, seq=m["seq"])
        assert not [e for e in ana2.events if is_snapshot(cid)(e)]


async def test_leaving_the_conversation_ends_it(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        await ben.call("playing", conversationId=cid, sessionId="g1", playing=True)
        await ana.wait_for(is_change(cid, "g1", ben.uid, True), desc="Ben plays")
        await ben.call("conversations.leave", conversationId=cid)
        await ana.wait_for(is_change(cid, "g1", ben.uid, False), desc="Ben left")


async def test_bad_playing_requests_are_refused_and_change_nothing(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        eve = await env.register("Eve")
        other, _ = await env.conversation(eve, title="Eve's own")
        await eve.call("apps.install", appId="testapp")
        await eve.send_message(other, app_msg("?x", session={"id": "g1", "baseVersion": 0}))

        # not a member: the same answer as for a conversation that does not exist
        await eve.expect_error("playing", "not_member", conversationId=cid, sessionId="g1", playing=True)
        await eve.expect_error("playing", "not_member", conversationId="c-nope", sessionId="g1", playing=True)
        # a session the conversation does not have
        err = await ana.expect_error("playing", "not_found", conversationId=cid, sessionId="nope", playing=True)
        assert err.get("field") == "sessionId"
        # malformed
        for fields in ({"conversationId": cid, "sessionId": "g1"},
                       {"conversationId": cid, "sessionId": "g1", "playing": "yes"},
                       {"conversationId": cid, "sessionId": "", "playing": True},
                       {"conversationId": cid, "sessionId": "x" * 65, "playing": True},
                       {"sessionId": "g1", "playing": True}):
            await ana.expect_error("playing", {"invalid_field", "too_long"}, **fields)

        # bounded: a connection has at most 4 sessions open at once
        for i in range(2, 6):
            await ana.send_message(cid, app_msg("?x", session={"id": f"g{i}", "baseVersion": 0}))
        for i in range(1, 5):
            await ana.call("playing", conversationId=cid, sessionId=f"g{i}", playing=True)
        err = await ana.expect_error("playing", "too_many_sessions", conversationId=cid, sessionId="g5", playing=True)
        assert err.get("field") == "sessionId"
        # closing one makes room
        await ana.call("playing", conversationId=cid, sessionId="g1", playing=False)
        await ana.call("playing", conversationId=cid, sessionId="g5", playing=True)

        # nothing of the refusals reached Ben: a marker message, then look
        m = await ana.send_text(cid, "marker")
        await ben.wait_message(cid, seq=m["seq"])
        heard = sorted((e["sessionId"], e["playing"]) for e in ben.events if e.get("type") == "playing")
        assert heard == sorted([("g1", True), ("g2", True), ("g3", True), ("g4", True), ("g1", False), ("g5", True)])


async def test_marks_are_rate_limited_per_user(server_factory):
    """A burst of 30 marks (a pane opened and closed in a loop) passes, then they are
    refused. With one mark back an hour (`--limit-playing`), not the default one a
    second: asked one after the other, the 31st passed on a machine slow enough to take
    a second over the 30 (CI)."""
    async with Env(server_factory(extra_args=["--limit-playing", "30/3600"])) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        for i in range(30):
            await ana.call("playing", conversationId=cid, sessionId="g1", playing=i % 2 == 0)
        err = await ana.expect_error("playing", "rate_limited", conversationId=cid, sessionId="g1", playing=True)
        assert err["retryAfterMs"] > 0
        m = await ana.send_text(cid, "marker")
        await ben.wait_message(cid, seq=m["seq"])
        heard = [e["playing"] for e in ben.events if e.get("type") == "playing"]
        assert heard == [i % 2 == 0 for i in range(30)], "the refused mark was news to nobody"
