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
