"""Registration modes, admins, and `parlor admin` on a running and a stopped server."""

from __future__ import annotations

import asyncio
import json
import subprocess

from client import Env
from server import PARLOR_BIN


async def register(env, name, **fields):
    c = await env.connect(name.lower())
    r = await c.call("register", name=name, **fields)
    c.user, c.token = r["user"], r["token"]
    return c, r


async def refused(env, code, **fields):
    c = await env.connect()
    return await c.expect_error("register", code, name="Nobody", **fields)


def admin_cli(srv, *args) -> tuple[int, dict]:
    """Runs `parlor admin …` off the event loop's thread (it may wait for the server)."""
    store = ["--store", srv.store_url] if srv.store_url else []
    p = subprocess.run([str(PARLOR_BIN), "admin", *args, "--data", str(srv.data_dir), *store],
                       capture_output=True, text=True, timeout=30)
    return p.returncode, json.loads(p.stdout) if p.stdout.strip() else {"stderr": p.stderr}


async def cli(srv, *args):
    return await asyncio.to_thread(admin_cli, srv, *args)


async def test_invite_mode_the_default(server_factory):
    srv = server_factory(["--registration", "invite"])
    async with Env(srv) as env:
        ana, r = await register(env, "Ana")
        assert r["user"]["admin"] is True, "the first account is the admin"
        e = await refused(env, "registration_closed")
        assert e["field"] == "invite"
        await refused(env, "invalid_invite", invite="not-a-code")

        cid, invite = await env.conversation(ana)
        ben, r = await register(env, "Ben", invite=invite)
        assert "admin" not in r["user"] and r["conversation"]["id"] == cid
        await ben.call("history", conversationId=cid)

        link = await ana.call("admin.registrationLinks.create", maxUses=1)
        cy, r = await register(env, "Cy", invite=link["invite"])
        assert "conversation" not in r
        await refused(env, "invalid_invite", invite=link["invite"])  # used up

        # admin requests are for admins only
        await ben.expect_error("admin.users.list", "forbidden")
        await ben.expect_error("admin.registrationLinks.create", "forbidden")
        users = (await ana.call("admin.users.list"))["users"]
        assert {u["name"] for u in users} == {"Ana", "Ben", "Cy"}


async def test_closed_mode_takes_only_registration_links(server_factory):
    srv = server_factory(["--registration", "closed"])
    async with Env(srv) as env:
        ana, _ = await register(env, "Ana")
        _, invite = await env.conversation(ana)
        await refused(env, "registration_closed", invite=invite)
        await refused(env, "registration_closed")
        link = await ana.call("admin.registrationLinks.create")
        await register(env, "Ben", invite=link["invite"])
        listed = (await ana.call("admin.invites.list"))["invites"]
        assert link["inviteInfo"]["id"] in [i["id"] for i in listed]
        await ana.call("admin.invites.revoke", inviteId=link["inviteInfo"]["id"])
        await refused(env, "invalid_invite", invite=link["invite"])


async def test_an_admins_list_says_whose_invite_to_which_conversation(server_factory):
    """An admin outside a conversation saw its invites as "Conversation c01…": the list
    names the conversation by its title and the maker by their name now (as they are
    now), for the whole server and for one conversation; a registration link has no
    conversation, one made at the shell no maker."""
    srv = server_factory(["--registration", "closed"])
    async with Env(srv) as env:
        ana, _ = await register(env, "Ana")  # the first account: an admin
        link = (await ana.call("admin.registrationLinks.create"))["inviteInfo"]
        ben, _ = await register(env, "Ben", invite=(await ana.call("admin.registrationLinks.create"))["invite"])
        cid = (await ben.call("conversations.create", title="Book club"))["conversation"]["id"]
        code, shell = await cli(srv, "registration-link")
        assert code == 0, shell
        await ben.call("rename", name="Benjamin")
        listed = (await ana.call("admin.invites.list"))["invites"]
        by_id = {i["id"]: i for i in listed}
        assert by_id[link["id"]]["createdByName"] == "Ana" and "conversationTitle" not in by_id[link["id"]]
        to_club = [i for i in listed if i.get("conversationId") == cid]
        assert len(to_club) == 1, listed
        assert to_club[0]["conversationTitle"] == "Book club" and to_club[0]["createdByName"] == "Benjamin", to_club
        from_shell = [i for i in listed if i["createdBy"] == "admin"]
        assert len(from_shell) == 1 and "createdByName" not in from_shell[0], from_shell
        one = (await ana.call("admin.invites.list", conversationId=cid))["invites"]
        assert one == to_club


async def test_open_mode(server_factory):
    srv = server_factory(["--registration", "open"])
    async with Env(srv) as env:
        await register(env, "Ana")
        _, r = await register(env, "Ben")
        assert "admin" not in r["user"]


async def test_cli_on_a_running_server_acts_live(server_factory):
    srv = server_factory(name="admin-cli")
    async with Env(srv) as env:
        ana, _ = await register(env, "Ana")
        ben, _ = await register(env, "Ben")
        ben2 = await env.login(ben.token, "ben2")
        cid, _ = await env.conversation(ana, ben)
        await ana.subscribe(cid)
        m = await ben.send_text(cid, "spam")
        await ana.wait_message(cid, m["seq"])

        code, out = await cli(srv, "users")
        assert code == 0 and {u["name"] for u in out["result"]["users"]} == {"Ana", "Ben"}

        code, out = await cli(srv, "delete-message", cid, str(m["seq"]))
        assert code == 0, out
        ev = await ana.wait_message(cid, m["seq"] + 1)
        assert ev["message"]["kind"] == "deletion" and "by" not in ev["message"]

        code, out = await cli(srv, "deactivate", ben.uid)
        assert code == 0, out
        assert await ben.wait_closed(5) == 4003
        assert await ben2.wait_closed(5) == 4003
        # the page says why (it may be let back in), not that a device was signed out
        assert ben.close_reason == ben2.close_reason == "account deactivated", ben.close_reason
        c = await env.connect()
        await c.expect_error("auth", "invalid_token", token=ben.token)

        # reactivated: a one-time code signs a new device in to the same account (its old
        # token stays dead); asked again, it is not deactivated any more
        code, out = await cli(srv, "reactivate", ben.uid)
        assert code == 0, out
        back = await env.connect("ben-back")
        r = await back.call("device.link", code=out["result"]["code"])
        assert r["user"]["id"] == ben.uid
        assert cid in [x["id"] for x in (await back.call("conversations.list"))["conversations"]]
        await (await env.connect()).expect_error("auth", "invalid_token", token=ben.token)
        code, out = await cli(srv, "reactivate", ben.uid)
        assert code == 1 and out["code"] == "invalid_field", out

        code, out = await cli(srv, "grant", "u-nobody")
        assert code == 1 and out["code"] == "not_found"
        # an admin may act in every conversation: one that does not exist is said so
        code, out = await cli(srv, "delete-message", "c-nowhere", "1")
        assert code == 1 and out["code"] == "not_found" and out["field"] == "conversationId", out
        # the flags' own terms, before anything is asked of the server
        p = await asyncio.to_thread(subprocess.run, [str(PARLOR_BIN), "admin", "registration-link", "--hours", "100000",
                                                     "--data", str(srv.data_dir)], capture_output=True, text=True, timeout=30)
        assert p.returncode != 0 and "--hours must be 1–8760" in p.stderr, p.stderr

        # the admin protocol request does the same
        cy = await env.register("Cy")
        await ana.call("admin.users.deactivate", userId=cy.uid)
        assert await cy.wait_closed(5) == 4003 and cy.close_reason == "account deactivated"

    # who did what, in the server's log: the shell's and an admin's actions alike
    if srv.store_url is None:  # a cluster's node logs the same; its log is another process's
        last = srv.wait_for_log(lambda line: "action=deactivate" in line and f"by={ana.uid}" in line)
        audit = [line for line in last if "admin action" in line]
        assert any('action="delete message"' in line and "by=shell" in line and f"seq={m['seq']}" in line for line in audit), audit
        assert any("action=deactivate" in line and "by=shell" in line and f"user={ben.uid}" in line for line in audit), audit
        assert any("action=reactivate" in line and "by=shell" in line and f"user={ben.uid}" in line for line in audit), audit
        assert any("action=deactivate" in line and f"by={ana.uid}" in line and f"user={cy.uid}" in line for line in audit), audit


async def test_cli_on_a_stopped_server(server_factory, store_kind):
    srv = server_factory(name="admin-offline")
    async with Env(srv) as env:
        await register(env, "Ana")
        ben, _ = await register(env, "Ben")
    srv.stop()
    if store_kind == "postgres":
        # A cluster's requests always run on a node (its live effects must reach the
        # other nodes): queued while none runs, answered by the first that starts.
        pending = asyncio.gather(cli(srv, "grant", ben.uid), cli(srv, "registration-link", "--max-uses", "2"))
        await asyncio.to_thread(srv.start)
        (code, out), (code2, out2) = await pending
        assert code == 0, out
        assert code2 == 0 and out2["result"]["inviteInfo"]["maxUses"] == 2
        link = out2["result"]["invite"]
    else:
        code, out = await cli(srv, "grant", ben.uid)
        assert code == 0, out
        code, out = await cli(srv, "registration-link", "--max-uses", "2")
        assert code == 0 and out["result"]["inviteInfo"]["maxUses"] == 2
        link = out["result"]["invite"]
        srv.start()
    async with Env(srv) as env:
        again = await env.login(ben.token)
        assert again.user.get("admin") is True
        # the shell's link makes accounts (none ever did: it was checked as an admin
        # account named "admin"), twice, and then no more
        await register(env, "Cy", invite=link)
        await register(env, "Dee", invite=link)
        await refused(env, "invalid_invite", invite=link)


def test_the_cli_refuses_a_data_directory_without_a_database(tmp_path):
    """A mistyped --data (or none, from the wrong directory) used to make a new,
    empty server there and answer for it: `users` listed nobody, a registration
    link was printed that worked nowhere. Now: exit 2, the reason, nothing made."""
    for args, cwd in ((["users"], tmp_path), (["registration-link", "--data", str(tmp_path / "typo")], tmp_path)):
        p = subprocess.run([str(PARLOR_BIN), "admin", *args], capture_output=True, text=True, timeout=30, cwd=cwd)
        assert p.returncode == 2, p
        assert p.stdout == ""
        assert "no Parlor database at" in p.stderr and "--data" in p.stderr
        assert "CRITICAL no Parlor" in p.stderr, "the level is not run into the message"
    assert list(tmp_path.iterdir()) == [], "nothing created"


async def test_a_registration_link_from_the_shell_says_where_it_is_used(server_factory, store_kind):
    srv = server_factory(name="reglink-cli")
    async with Env(srv) as env:
        await register(env, "Ana")
    if store_kind == "postgres":
        return  # the same command; the address it prints does not depend on the store
    store = ["--store", srv.store_url] if srv.store_url else []
    p = await asyncio.to_thread(subprocess.run, [str(PARLOR_BIN), "admin", "registration-link", "--data", str(srv.data_dir), *store],
                                capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, p.stderr
    code = json.loads(p.stdout)["result"]["invite"]
    assert f"/#/register/{code}" in p.stderr


async def test_a_deactivated_members_invites_stop_working(server_factory):
    """A banned member walked back in with an invite they had made before (a new
    account through their own invite); deactivation now revokes their invites."""
    srv = server_factory(["--registration", "invite"])
    async with Env(srv) as env:
        ana, _ = await register(env, "Ana")
        cid, invite = await env.conversation(ana)
        bob, _ = await register(env, "Bob", invite=invite)
        bobs = (await bob.call("invites.create", conversationId=cid))["invite"]
        anas = (await ana.call("invites.create", conversationId=cid))["invite"]
        await ana.call("admin.users.deactivate", userId=bob.user["id"])
        await refused(env, "invalid_invite", invite=bobs)
        listed = (await ana.call("admin.invites.list"))["invites"]
        assert all(i["createdBy"] != bob.user["id"] for i in listed), listed
        # the others' invites still work
        cy, r = await register(env, "Cy", invite=anas)
        assert r["conversation"]["id"] == cid


async def test_a_demoted_admins_registration_links_stop_working(server_factory):
    """An outside attacker review: a year-long link Bob made as an admin kept making
    accounts on a closed server after he was no longer one."""
    async with Env(server_factory(["--registration", "closed"])) as env:
        ana = await env.register("Ana")  # the first account: an admin
        link = await ana.call("admin.registrationLinks.create", maxUses=3)
        bob, _ = await register(env, "Bob", invite=link["invite"])
        await ana.call("admin.users.setAdmin", userId=bob.uid, admin=True)
        his = await bob.call("admin.registrationLinks.create", maxUses=100)
        await ana.call("admin.users.setAdmin", userId=bob.uid, admin=False)
        await refused(env, "invalid_invite", invite=his["invite"])
        cy, _ = await register(env, "Cy", invite=link["invite"])  # Ana's still works
        # the only admin cannot take the right from herself (as she cannot delete her
        # account): nobody would be left to make links or act on anyone
        await ana.expect_error("admin.users.setAdmin", "forbidden", userId=ana.uid, admin=False)
        await ana.call("admin.registrationLinks.create", maxUses=1)  # still an admin


async def test_an_admin_deletes_an_account_for_a_person_who_asked(server_factory):
    """An admin's review: "please remove me" had no way but deactivate, reactivate, sign
    in as the person (reading their history) and delete, and the log then said the
    person did it. admin.users.delete (and `parlor admin delete-user`) does what
    account.delete does, and the log says who."""
    srv = server_factory(name="admin-delete")
    async with Env(srv) as env:
        ana, _ = await register(env, "Ana")  # the first account: an admin
        dora, _ = await register(env, "Dora Realname")
        eve, _ = await register(env, "Eve")
        cid, _ = await env.conversation(ana, dora, eve)
        await ana.subscribe(cid)
        sent = await dora.send_text(cid, "hello all")
        await eve.expect_error("admin.users.delete", "forbidden", userId=dora.uid)
        await ana.call("admin.users.delete", userId=dora.uid)
        assert await dora.wait_closed(5) == 4003 and dora.close_reason == "account deleted"
        renamed = await ana.wait_event("member", conversationId=cid, change="renamed")
        assert renamed["member"] == {"userId": dora.uid, "name": "Deleted account"}
        await ana.wait_event("member", conversationId=cid, change="left")
        history = (await ana.call("history", conversationId=cid, limit=50))["messages"]
        assert [m["seq"] for m in history if m.get("sender") == dora.uid] == [sent["seq"]]
        await (await env.connect()).expect_error("auth", "invalid_token", token=dora.token)
        # the only admin is not deleted this way either; from the shell, for Eve
        await ana.expect_error("admin.users.delete", "forbidden", userId=ana.uid)
        code, out = await cli(srv, "delete-user", eve.uid)
        assert code == 0, out
        assert await eve.wait_closed(5) == 4003 and eve.close_reason == "account deleted"
        code, out = await cli(srv, "delete-user", "u-nobody")
        assert code == 1 and out["code"] == "not_found", out
    if srv.store_url is None:
        last = srv.wait_for_log(lambda line: 'action="delete account"' in line and "by=shell" in line)
        audit = [line for line in last if "admin action" in line]
        assert any('action="delete account"' in line and f"by={ana.uid}" in line and f"user={dora.uid}" in line
                   for line in audit), audit
        assert any('action="delete account"' in line and "by=shell" in line and f"user={eve.uid}" in line
                   for line in audit), audit

