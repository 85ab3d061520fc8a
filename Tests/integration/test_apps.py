"""Installing and uninstalling apps."""

from __future__ import annotations

from client import Env


async def test_install_uninstall(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        assert ana.installed_apps == []

        r = await ana.call("apps.install", appId="testapp")
        assert r["installedApps"] == ["testapp"]
        r = await ana.call("apps.install", appId="testapp")
        assert r["installedApps"] == ["testapp"], "installing twice is not an error and adds nothing"
        r = await ana.call("apps.install", appId="testapp2")
        assert sorted(r["installedApps"]) == ["testapp", "testapp2"]

        again = await env.login(ana.token)
        assert sorted(again.installed_apps) == ["testapp", "testapp2"], "installed apps belong to the user"

        r = await ana.call("apps.uninstall", appId="testapp")
        assert r["installedApps"] == ["testapp2"]
        again = await env.login(ana.token)
        assert again.installed_apps == ["testapp2"]

        # another user's apps are their own
        ben = await env.register("Ben")
        assert ben.installed_apps == []


async def test_unknown_apps_are_refused(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        await ana.call("apps.install", appId="testapp")
        await ana.expect_error("apps.install", "unknown_app", appId="nosuchapp")
        await ana.expect_error("apps.install", "unknown_app", appId="nomanifest")
        # app ids never reach outside Public/apps/ (an app-looking folder sits at ../apps/outside)
        for bad in ("../apps/outside", "../../apps/outside", "testapp/../../apps/outside",
                    "..", ".", "/etc", "testapp/", "%2e%2e"):
            await ana.expect_error("apps.install", {"unknown_app", "invalid_field"}, appId=bad)
        await ana.expect_error("apps.install", "invalid_field", appId=42)
        await ana.expect_error("apps.install", "invalid_field")
        again = await env.login(ana.token)
        assert again.installed_apps == ["testapp"], "refused installs must change nothing"
        r = await ana.call("apps.install", appId="testapp2")  # the connection still works
        assert sorted(r["installedApps"]) == ["testapp", "testapp2"]


async def test_a_manifest_the_web_client_leaves_out_is_no_app_on_the_server_either(server):
    """The client lists an app only with an id matching its folder, a name, an icon and
    an .html entry; the server took any manifest (a missing name became the id)."""
    async with Env(server) as env:
        ana = await env.register("Ana")
        for app_id in ("noname", "otherid"):
            await ana.expect_error("apps.install", "unknown_app", appId=app_id)


async def test_uninstall_unknown_app(server):
    """PROTOCOL.md: apps.install needs Public/apps/<id>/manifest.json, else
    unknown_app; "apps.uninstall likewise"."""
    async with Env(server) as env:
        ana = await env.register("Ana")
        await ana.expect_error("apps.uninstall", "unknown_app", appId="nosuchapp")


async def test_app_storage_follows_the_user_across_connections(server):
    """appdata.set on one connection is there on another connection of the same user,
    and on no other user's or app's store."""
    async with Env(server) as env:
        ana = await env.register("Ana")
        await ana.call("appdata.set", appId="testapp", key="stickers", value=[{"hash": "ab" * 32, "n": 1}])
        phone = await env.login(ana.token, "ana_phone")
        got = await phone.call("appdata.get", appId="testapp")
        assert got["data"] == {"stickers": [{"hash": "ab" * 32, "n": 1}]}
        assert (await phone.call("appdata.get", appId="testapp2"))["data"] == {}
        ben = await env.register("Ben")
        assert (await ben.call("appdata.get", appId="testapp"))["data"] == {}
        await phone.call("appdata.set", appId="testapp", key="stickers", value=None)
        assert (await ana.call("appdata.get", appId="testapp"))["data"] == {}
        await ana.expect_error("appdata.set", "too_long", appId="testapp", key="k", value="x" * 17000)


async def test_a_storage_write_reaches_every_other_connection_of_the_user(server):
    """appdata.set answered only the asking connection: a phone with the app open kept
    the old value, and its next whole-value write erased the laptop's (a two-device
    review). Every other connection of the user hears an appdata event; the one that
    wrote does not (it has the value), nor does anybody else."""
    async with Env(server) as env:
        laptop = await env.register("Ana")
        phone = await env.login(laptop.token, "ana_phone")
        ben = await env.register("Ben")
        await laptop.call("appdata.set", appId="testapp", key="owned", value=["cat", {"n": 1.5}])
        ev = await phone.wait_event("appdata", appId="testapp", key="owned")
        assert ev["value"] == ["cat", {"n": 1.5}]
        await laptop.call("ping")
        assert not [e for e in laptop.events if e.get("type") == "appdata"], "not back to the writer"
        await phone.call("appdata.set", appId="testapp", key="owned", value=None)
        ev = await laptop.wait_event("appdata", appId="testapp", key="owned")
        assert "value" in ev and ev["value"] is None, "a removal says null"
        # a refused write tells nobody
        await laptop.expect_error("appdata.set", "too_long", appId="testapp", key="k", value="x" * 17000)
        await laptop.call("ping")
        await phone.call("ping")
        assert not [e for e in phone.events if e.get("type") == "appdata" and e.get("key") == "k"]
        assert not [e for e in phone.events if e.get("type") == "appdata"], "nor its removal back to the phone"
        assert not [e for e in ben.events if e.get("type") == "appdata"], "another user hears nothing"


async def test_an_install_reaches_every_connection_of_the_user(server):
    """apps.install answered only the asker: the other device showed the app as not
    installed until a reload."""
    async with Env(server) as env:
        laptop = await env.register("Ana")
        phone = await env.login(laptop.token, "ana_phone")
        ben = await env.register("Ben")
        await laptop.call("apps.install", appId="testapp")
        ev = await phone.wait_event("apps")
        assert ev["installedApps"] == ["testapp"]
        await phone.call("apps.install", appId="testapp2")
        ev = await laptop.wait_event("apps", installedApps=["testapp"])  # its own, first
        ev = await laptop.wait_for(lambda e: e.get("type") == "apps" and "testapp2" in e.get("installedApps", []))
        assert sorted(ev["installedApps"]) == ["testapp", "testapp2"]
        await laptop.call("apps.uninstall", appId="testapp")
        ev = await phone.wait_for(lambda e: e.get("type") == "apps" and e.get("installedApps") == ["testapp2"])
        await ben.call("ping")
        assert not [e for e in ben.events if e.get("type") == "apps"], "another user hears nothing"
