"""Reports of messages to the server's admins (messages.report, admin.reports.*): the
admins are told live, the report keeps a copy of the message that outlives its
deletion, resolving drops it; on SQLite and PostgreSQL, from the shell, across nodes."""

from __future__ import annotations

from client import Env
from test_admin import cli
from test_cluster import cluster, envs_on  # noqa: F401  (the fixture)


async def room(env):
    """Ana (the first account: the admin) and Ben in one conversation, Ana subscribed."""
    ana = await env.register("Ana")
    ben = await env.register("Ben")
    cid, _ = await env.conversation(ana, ben, title="Book club")
    return ana, ben, cid


async def test_a_report_reaches_every_admin_live_and_its_copy_outlives_the_message(server_factory):
    async with Env(server_factory()) as env:
        ana, ben, cid = await room(env)
        ana_tab2 = await env.login(ana.token, "ana2")
        cy = await env.register("Cy")
        rude = await ana.send_text(cid, "you are all idiots")
        ok = await ben.send_text(cid, "fine")

        # only a member, only someone else's message, only one that is there
        await cy.expect_error("messages.report", "not_member", conversationId=cid, seq=rude["seq"])
        own = await ben.expect_error("messages.report", "forbidden", conversationId=cid, seq=ok["seq"])
        assert own["field"] == "seq" and "own" in own["message"], own
        await ben.expect_error("messages.report", "not_found", conversationId=cid, seq=99)
        bad = await ben.expect_error("messages.report", "invalid_field", conversationId=cid, seq=rude["seq"],
                                     reason="a\u001bb")
        assert bad["field"] == "reason"

        assert await ben.call("messages.report", conversationId=cid, seq=rude["seq"], reason="insults") == {}
        for tab in (ana, ana_tab2):
            ev = await tab.wait_event("reports", open=1)
            assert ev == {"type": "reports", "open": 1}
        # the same report again: answered, nothing stored, nobody told again
        assert await ben.call("messages.report", conversationId=cid, seq=rude["seq"]) == {}
        assert not [e for e in ben.log if e.get("type") == "reports"], "a member was told of reports"

        # the admin's next sign-in says how many wait; a member's says nothing
        later = await env.connect("ana3")
        r = await later.call("auth", token=ana.token)
        assert r["openReports"] == 1
        assert "openReports" not in await (await env.connect("ben2")).call("auth", token=ben.token)

        # the sender deletes it: the report keeps what it said
        await ana.call("messages.delete", conversationId=cid, seq=rude["seq"])
        listed = await ana.call("admin.reports.list")
        assert listed["open"] == 1 and "next" not in listed
        [rep] = listed["reports"]
        assert rep["conversationId"] == cid and rep["conversationTitle"] == "Book club"
        assert rep["seq"] == rude["seq"]
        assert rep["message"]["text"] == "you are all idiots" and rep["message"]["kind"] == "text"
        assert rep["message"]["sender"] == ana.uid and rep["message"]["createdAt"] == rude["createdAt"]
        assert rep["sender"] == {"id": ana.uid, "name": "Ana"}
        assert rep["reporter"] == {"id": ben.uid, "name": "Ben"}
        assert rep["reason"] == "insults" and rep["reporters"] == 1
        assert rep["messageDeletedAt"] > 0

        # admins only
        await ben.expect_error("admin.reports.list", "forbidden")
        await ben.expect_error("admin.reports.resolve", "forbidden", reportId=rep["id"])

        assert await ana.call("admin.reports.resolve", reportId=rep["id"]) == {}
        await ana_tab2.wait_event("reports", open=0)
        assert (await ana.call("admin.reports.list"))["reports"] == []
        await ana.expect_error("admin.reports.resolve", "not_found", reportId="r999999")


async def test_reporters_of_one_message_are_counted_and_resolved_together_from_the_shell(server_factory):
    srv = server_factory()
    async with Env(srv) as env:
        ana, ben, cid = await room(env)
        cy = await env.register("Cy")
        invite = (await ana.call("invites.create", conversationId=cid))["invite"]
        await cy.call("conversations.join", invite=invite)
        spam = await ben.send_text(cid, "buy cheap watches")
        await ana.call("messages.report", conversationId=cid, seq=spam["seq"])
        await cy.call("messages.report", conversationId=cid, seq=spam["seq"], reason="spam")

        code, listed = await cli(srv, "reports")
        assert code == 0, listed
        reports = listed["result"]["reports"]
        assert [r["reporter"]["name"] for r in reports] == ["Cy", "Ana"], "newest first"
        assert all(r["reporters"] == 2 for r in reports)
        # the reporter deletes her account: her report stays, under her stand-in name
        await cy.call("account.delete", confirm="Cy")
        reports = (await ana.call("admin.reports.list"))["reports"]
        assert reports[0]["reporter"]["id"] == cy.uid and reports[0]["reporter"]["name"] != "Cy"

        code, answer = await cli(srv, "resolve-report", reports[0]["id"])
        assert code == 0 and answer["result"] == {}, answer
        await ana.wait_event("reports", open=0, timeout=10)
        assert (await ana.call("admin.reports.list"))["open"] == 0


async def test_the_limit_refuses_clearly_and_the_connection_is_served(server_factory):
    async with Env(server_factory(["--limit-reports", "2/3600"])) as env:
        ana, ben, cid = await room(env)
        seqs = [(await ana.send_text(cid, f"m{i}"))["seq"] for i in range(3)]
        for s in seqs[:2]:
            await ben.call("messages.report", conversationId=cid, seq=s)
        err = await ben.expect_error("messages.report", "rate_limited", conversationId=cid, seq=seqs[2])
        assert err["retryAfterMs"] > 0 and "report" in err["message"], err
        # the connection goes on
        hi = await ben.send_text(cid, "still here")
        assert (await ben.history(cid))["messages"][-1]["seq"] == hi["seq"]


async def test_a_report_on_one_node_reaches_the_admin_on_another(cluster):  # noqa: F811
    _, nodes = cluster
    async with envs_on(nodes[:2]) as (a, b):
        ana = await b.register("Ana")  # the admin, on node 1
        ben = await a.register("Ben")
        cid, invite = await b.conversation(ana, ben)
        rude = await ana.send_text(cid, "rude words")
        await ben.call("messages.report", conversationId=cid, seq=rude["seq"])
        await ana.wait_event("reports", open=1, timeout=10)
        [rep] = (await ana.call("admin.reports.list"))["reports"]
        assert rep["message"]["text"] == "rude words"


async def test_the_admin_sees_a_reported_picture_while_it_is_stored(server_factory):
    """The copy names the picture (an attachment's, an app bubble's) by its hash: an admin
    outside the conversation can look at what was reported, as long as the file is
    stored; deleting it everywhere (admin.images.delete) ends that."""
    from test_http import http_get, png_bytes, upload

    server = server_factory()
    async with Env(server) as env:
        ana, ben, cid = await room(env)
        status, _, _, js = upload(server, png_bytes(rgb=(250, 0, 0)), ben.token)
        assert status == 201, js
        pic = await ben.send_message(cid, {"kind": "attachment", "image": js["hash"], "name": "rude.png"})
        await ana.call("apps.install", appId="testapp")
        drawn = await ben.send_message(cid, {"kind": "app", "appId": "testapp", "url": "?a=1", "summaryText": "a drawing",
                                              "layout": {"image": js["hash"], "caption": "look"}})
        for m in (pic, drawn):
            await ana.call("messages.report", conversationId=cid, seq=m["seq"], reason="vile")

        reports = {r["seq"]: r for r in (await ana.call("admin.reports.list"))["reports"]}
        assert reports[pic["seq"]]["message"]["image"] == js["hash"], reports[pic["seq"]]
        assert reports[pic["seq"]]["message"]["name"] == "rude.png"
        assert reports[drawn["seq"]]["message"]["image"] == js["hash"], reports[drawn["seq"]]
        status, headers, body = http_get(server, f"/blobs/{js['hash']}")
        assert status == 200 and headers["content-type"].startswith("image/png")

        # deleted everywhere: the copy keeps the name, the picture is no longer there
        await ana.call("admin.images.delete", hash=js["hash"])
        [rep] = [r for r in (await ana.call("admin.reports.list"))["reports"] if r["seq"] == pic["seq"]]
        assert rep["message"]["name"] == "rude.png" and rep["messageDeletedAt"] > 0
        assert http_get(server, f"/blobs/{js['hash']}")[0] == 404
