"""Per-(user, app) participant identifiers."""

from __future__ import annotations

import uuid

from client import Env


def as_uuid(s):
    try:
        return uuid.UUID(s)
    except (ValueError, TypeError, AttributeError):
        raise AssertionError(f"not a UUID: {s!r}")


async def participants(client, cid, app):
    r = await client.call("participants", conversationId=cid, appId=app)
    as_uuid(r["local"])
    mapping = {}
    for p in r["participants"]:
        as_uuid(p["participantId"])
        assert p["userId"] not in mapping, f"user listed twice: {r}"
        mapping[p["userId"]] = p["participantId"]
    return r["local"], mapping


async def test_participant_ids_stable_and_app_scoped(server_factory):
    srv = server_factory(name="participants")
    async with Env(srv) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        for c in (ana, ben):
            await c.call("apps.install", appId="testapp")
            await c.call("apps.install", appId="testapp2")
        cid, _ = await env.conversation(ana, ben)

        a_local, a_map = await participants(ana, cid, "testapp")
        b_local, b_map = await participants(ben, cid, "testapp")
        assert set(a_map) == {ana.uid, ben.uid}
        assert a_map[ana.uid] == a_local and b_map[ben.uid] == b_local
        assert a_map == b_map, "both sides must see the same identifiers"
        assert a_local != b_local
        # the identifiers are not the user ids
        assert ana.uid not in (a_local, b_local) and ben.uid not in (a_local, b_local)

        # stable across calls
        assert await participants(ana, cid, "testapp") == (a_local, a_map)

        # a different app gets different identifiers for the same people
        a2_local, a2_map = await participants(ana, cid, "testapp2")
        assert a2_local != a_local
        assert set(a2_map.values()).isdisjoint(a_map.values())

        # one (user, app) pair: the same identifier in another conversation
        other, _ = await env.conversation(ana, ben, title="other")
        o_local, o_map = await participants(ana, other, "testapp")
        assert o_local == a_local and o_map == a_map

        # app messages carry the sender's identifier for that app
        await ben.subscribe(cid)
        m = await ana.send_message(cid, {"kind": "app", "appId": "testapp", "url": "?p=1"})
        assert m["senderParticipantId"] == a_local
        ev = await ben.wait_message(cid, seq=m["seq"])
        assert ev["message"]["senderParticipantId"] == a_local
        m2 = await ben.send_message(cid, {"kind": "app", "appId": "testapp2", "url": "?p=2"})
        assert m2["senderParticipantId"] == a2_map[ben.uid]

        # a caption naming a participant is stored as is
        cap = f"${b_local} guessed right"
        m3 = await ana.send_message(cid, {"kind": "app", "appId": "testapp", "url": "?p=3",
                                          "layout": {"caption": cap}})
        assert m3["layout"]["caption"] == cap

        # not a member: no participant list
        cara = await env.register("Cara")
        await cara.expect_error("participants", "not_member", conversationId=cid, appId="testapp")

    assert srv.stop(), "parlor did not exit within 10 s of SIGTERM"
    srv.start()
    async with Env(srv) as env:
        ana = await env.login(ana.token)
        ben = await env.login(ben.token)
        assert await participants(ana, cid, "testapp") == (a_local, a_map)
        assert await participants(ben, cid, "testapp") == (b_local, b_map)
        assert await participants(ana, cid, "testapp2") == (a2_local, a2_map)
        hist = {x["seq"]: x for x in (await ana.history(cid))["messages"]}
        assert hist[m["seq"]]["senderParticipantId"] == a_local
