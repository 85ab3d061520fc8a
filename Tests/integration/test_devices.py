"""Accounts that follow a person: devices, one-time links, the recovery key."""

from __future__ import annotations

from client import Env


async def link_in(env, code, label, **fields):
    c = await env.connect(label)
    r = await c.call("device.link", code=code, **fields)
    c.user, c.token = r["user"], r["token"]
    return c, r


async def test_register_returns_a_device_and_a_recovery_key(server):
    async with Env(server) as env:
        c = await env.connect("ana")
        r = await c.call("register", name="Ana", deviceName="Ana's laptop")
        assert r["device"]["name"] == "Ana's laptop" and r["device"]["current"] is True
        key = r["recoveryKey"]
        assert len(key.replace("-", "")) == 24 and key.upper() == key
        assert r["user"].get("admin") in (None, True)


async def test_device_link_signs_in_once_and_sees_the_same_account(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        cid, _ = await env.conversation(ana)
        link = await ana.call("devices.createLink")
        assert len(link["code"]) == 9 and link["code"][4] == "-"

        phone, r = await link_in(env, link["token"], "phone", deviceName="Phone")
        assert r["user"]["id"] == ana.uid and r["token"] != ana.token and "recoveryKey" not in r
        assert cid in [c["id"] for c in (await phone.call("conversations.list"))["conversations"]]
        # used once: never again, by token or by code
        for code in (link["token"], link["code"]):
            c = await env.connect()
            await c.expect_error("device.link", "invalid_link", code=code)

        # the short code, typed in lower case without its dash
        link2 = await ana.call("devices.createLink")
        tablet, _ = await link_in(env, link2["code"].replace("-", "").lower(), "tablet")
        assert tablet.user["id"] == ana.uid

        devices = (await ana.call("devices.list"))["devices"]
        assert len(devices) == 3
        assert [d["current"] for d in devices].count(True) == 1
        phone_dev = next(d for d in devices if d["name"] == "Phone")
        await ana.call("devices.rename", deviceId=phone_dev["id"], name="Old phone")
        names = [d["name"] for d in (await phone.call("devices.list"))["devices"]]
        assert "Old phone" in names


async def test_revoking_a_device_closes_its_connections_at_once(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        link = await ana.call("devices.createLink")
        phone, _ = await link_in(env, link["token"], "phone")
        phone_tab2 = await env.login(phone.token, "phone2")
        phone_id = next(d["id"] for d in (await phone.call("devices.list"))["devices"] if d["current"])

        await ana.call("devices.revoke", deviceId=phone_id)
        assert await phone.wait_closed(5) == 4003
        assert await phone_tab2.wait_closed(5) == 4003
        c = await env.connect()
        await c.expect_error("auth", "invalid_token", token=phone.token)
        # Ana's own device is untouched
        await ana.call("conversations.list")
        await ana.expect_error("devices.revoke", "not_found", deviceId=phone_id)


async def test_sign_out_everywhere(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        others = []
        for i in range(2):
            link = await ana.call("devices.createLink")
            others.append((await link_in(env, link["token"], f"dev{i}"))[0])
        r = await ana.call("devices.revokeAll", keepThis=True)
        assert r["revoked"] == 2
        for o in others:
            assert await o.wait_closed(5) == 4003
        await ana.call("conversations.list")
        await ana.call("devices.revokeAll")
        assert await ana.wait_closed(5) == 4003


async def test_recovery_key_signs_in_and_can_revoke_the_others(server):
    async with Env(server) as env:
        c = await env.connect("ana")
        r = await c.call("register", name="Ana")
        key, uid = r["recoveryKey"], r["user"]["id"]

        bad = await env.connect()
        await bad.expect_error("recover", "invalid_recovery_key", recoveryKey="AAAA-BBBB-CCCC-DDDD-EEEE-FFFF")

        new = await env.connect("new")
        r2 = await new.call("recover", recoveryKey=key.lower().replace("-", " "))
        assert r2["user"]["id"] == uid
        assert c.closed is False

        again = await env.connect("again")
        await again.call("recover", recoveryKey=key, revokeOthers=True)
        assert await c.wait_closed(5) == 4003
        assert await new.wait_closed(5) == 4003
        devices = (await again.call("devices.list"))["devices"]
        assert len(devices) == 1 and devices[0]["current"]

        # a new key replaces the old one
        fresh = (await again.call("recovery.create"))["recoveryKey"]
        c2 = await env.connect()
        await c2.expect_error("recover", "invalid_recovery_key", recoveryKey=key)
        c3 = await env.connect()
        await c3.call("recover", recoveryKey=fresh)


async def test_signing_out_everywhere_ends_the_links_not_yet_used(server):
    """An outside attacker review: with a stolen token, Mallory made a device link; Ana
    signed everything out and made a new recovery key, and the link still signed in as
    her. Every device revocation now ends the account's pending links."""
    async with Env(server) as env:
        ana = await env.register("Ana")
        phone, _ = await link_in(env, (await ana.call("devices.createLink"))["code"], "phone")
        stolen = await env.login(phone.token, "mallory")  # the phone's token, stolen
        link = await stolen.call("devices.createLink")
        await ana.call("devices.revokeAll", keepThis=True)
        c = await env.connect("mallory-again")
        await c.expect_error("device.link", "invalid_link", code=link["code"])


async def test_a_new_recovery_key_is_told_to_every_device_of_the_user(server):
    """A new key made on the laptop left the phone reminding the person to save the old,
    dead one (a two-device review): every connection of the user hears a recovery event
    naming the device that made it; another user hears nothing."""
    async with Env(server) as env:
        laptop = await env.connect("laptop")
        r = await laptop.call("register", name="Ana", deviceName="Laptop")
        laptop.user, laptop.token = r["user"], r["token"]
        laptop_device = r["device"]["id"]
        link = await laptop.call("devices.createLink")
        phone, pr = await link_in(env, link["token"], "phone", deviceName="Phone")
        assert pr["device"]["id"] != laptop_device
        ben = await env.register("Ben")

        await laptop.call("recovery.create")
        ev = await phone.wait_event("recovery")
        assert ev["deviceId"] == laptop_device
        ev = await laptop.wait_event("recovery")
        assert ev["deviceId"] == laptop_device, "the maker hears it too, and can tell it is its own"
        await ben.call("ping")
        assert not [e for e in ben.events if e.get("type") == "recovery"]


async def test_a_rename_reaches_her_other_devices_in_no_conversation(server):
    """A rename was told only to the subscribers of her conversations: her phone, in no
    conversation yet, showed the old name until a reload. Every other connection of
    the user hears a user event; the one that asked has its result; nobody else hears."""
    async with Env(server) as env:
        laptop = await env.register("Ana")
        phone = await env.login(laptop.token, "ana_phone")
        ben = await env.register("Ben")
        r = await laptop.call("rename", name="Ana B.")
        assert r["user"]["name"] == "Ana B."
        ev = await phone.wait_event("user")
        assert ev["user"]["id"] == laptop.uid and ev["user"]["name"] == "Ana B."
        await laptop.call("ping")
        await ben.call("ping")
        assert not [e for e in laptop.events if e.get("type") == "user"], "not back to the one that asked"
        assert not [e for e in ben.events if e.get("type") == "user"], "another user hears nothing"
