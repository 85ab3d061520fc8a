"""A person deletes their own account (account.delete): it leaves every conversation,
keeps nothing of them but its id and a stand-in name on what they sent, and can never
sign in again. Asked wrongly, it changes nothing."""

from __future__ import annotations

import asyncio
import subprocess

import pytest

from client import Env


async def test_a_person_deletes_their_own_account(server):
    async with Env(server) as env:
        ana = await env.register("Ana")  # the first account: an admin
        ben = await env.register("Ben")
        cid, invite = await env.conversation(ana, ben, title="Book club")
        cid2, _ = await env.conversation(ben, ana, title="Ben's room")
        for c in (cid, cid2):
            await ana.call("subscribe", conversationId=c, afterSeq=0)
        sent = await ben.send_text(cid, "see you thursday")
        recovery = (await ben.call("recovery.create"))["recoveryKey"]
        link = await ben.call("devices.createLink")
        phone = await env.connect("ben-phone")
        await phone.call("device.link", code=link["token"])
        bens_invite = (await ben.call("invites.create", conversationId=cid))["invite"]
        await ben.call("apps.install", appId="wenderpic")
        await ben.call("appdata.set", appId="wenderpic", key="drafts", value=["a cat"])

        # the name typed wrongly: nothing happens
        await ben.expect_error("account.delete", "invalid_field", confirm="Bem")
        await ben.expect_error("account.delete", "invalid_field")
        assert (await ben.send_text(cid, "still here"))["seq"] > sent["seq"]

        await ben.call("account.delete", confirm="Ben")
        assert await ben.wait_closed(5) == 4003
        assert await phone.wait_closed(5) == 4003
        assert ben.close_reason == phone.close_reason == "account deleted", phone.close_reason

        # the others see the stand-in name, then the account leave, in every conversation
        for c in (cid, cid2):
            renamed = await ana.wait_event("member", conversationId=c, change="renamed")
            assert renamed["member"] == {"userId": ben.uid, "name": "Deleted account"}
            left = await ana.wait_event("member", conversationId=c, change="left")
            assert left["member"]["userId"] == ben.uid and left["memberCount"] == 1
        # what Ben sent stays, as a departed member's does
        history = (await ana.call("history", conversationId=cid, limit=50))["messages"]
        assert [m["text"] for m in history if m.get("sender") == ben.uid] == ["see you thursday", "still here"]
        r = await ana.call("members", conversationId=cid, userIds=[ben.uid])
        assert r["formerMembers"] == [{"userId": ben.uid, "name": "Deleted account"}], r

        # no way back in: token, recovery key, his invite; nor can an admin bring it back
        await (await env.connect()).expect_error("auth", "invalid_token", token=ben.token)
        await (await env.connect()).expect_error("recover", "invalid_recovery_key", recoveryKey=recovery)
        cy = await env.register("Cy")
        await cy.expect_error("conversations.join", "invalid_invite", invite=bens_invite)
        users = {u["id"]: u for u in (await ana.call("admin.users.list"))["users"]}
        gone = users[ben.uid]
        assert gone["name"] == "Deleted account" and gone["deletedAt"] and gone["deactivatedAt"], gone
        assert gone["devices"] == 0 and not gone.get("admin"), gone
        assert users[ana.uid].get("deletedAt") is None
        await ana.expect_error("admin.users.reactivate", "invalid_field", userId=ben.uid)
        invites = (await ana.call("admin.invites.list"))["invites"]
        assert all(i["createdBy"] != ben.uid for i in invites), invites


async def test_the_only_admin_cannot_delete_their_account_until_another_is_made(server_factory):
    async with Env(server_factory()) as env:
        first = await env.register("Ana")  # a fresh server's first account: its only admin
        cy = await env.register("Cy")
        await first.expect_error("account.delete", "forbidden", confirm="Ana")
        assert (await first.call("conversations.list"))["conversations"] == []
        await first.call("admin.users.setAdmin", userId=cy.uid, admin=True)
        await first.call("account.delete", confirm="Ana")
        assert await first.wait_closed(5) == 4003
        users = {u["id"]: u for u in (await cy.call("admin.users.list"))["users"]}
        assert users[first.uid]["deletedAt"] and not users[first.uid].get("admin")


async def test_two_admins_deleting_their_accounts_at_once_leave_one(server_factory, store_kind):
    """Cluster mode: two admins deleting their accounts at once on two nodes each counted
    the other as the admin who stays, and left none. Ana's deletion is held uncommitted
    here by psql, as another node's transaction would be, while Ben asks for his."""
    if store_kind != "postgres":
        pytest.skip("SQLite has one writer: the two deletions cannot overlap")
    srv = server_factory()
    async with Env(srv) as env:
        ana = await env.register("Ana")  # the first account: an admin
        ben = await env.register("Ben")
        await ana.call("admin.users.setAdmin", userId=ben.uid, admin=True)
        other_node = subprocess.Popen(["psql", "-X", "-q", "-t", "-A", "-d", srv.store_url], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
        try:
            other_node.stdin.write(f"BEGIN;\nUPDATE users SET admin = 0 WHERE id = '{ana.uid}';\nSELECT 'held';\n")
            other_node.stdin.flush()
            assert await asyncio.wait_for(asyncio.to_thread(other_node.stdout.readline), 10) == "held\n"
            asked = asyncio.create_task(ben.expect_error("account.delete", "forbidden", confirm="Ben"))
            await asyncio.sleep(0.5)
            assert not asked.done(), "Ben's deletion went ahead while Ana's was not yet committed"
            other_node.stdin.write("COMMIT;\n")
            other_node.stdin.close()
            await asyncio.wait_for(asked, 10)  # counted again once Ana's committed: the only admin
        finally:
            if not other_node.stdin.closed:
                other_node.stdin.close()  # psql ends; a transaction still open is rolled back
            other_node.wait(10)
