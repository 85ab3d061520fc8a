"""Every abuse limit refuses past its rate, says when to come back, and then allows
again; windows are shortened through the same flags an operator uses."""

from __future__ import annotations

import asyncio
import os
import struct
import time
import zlib

from client import Env, new_client_id
from test_http import png_bytes, upload


async def wait_out(error: dict) -> None:
    ms = error["retryAfterMs"]
    assert 0 < ms <= 10_000, error
    await asyncio.sleep(ms / 1000 + 0.05)


async def test_registrations_per_address(server_factory):
    srv = server_factory(["--limit-registrations", "2/2"])
    async with Env(srv) as env:
        await env.register("A")
        await env.register("B")
        c = await env.connect()
        e = await c.expect_error("register", "rate_limited", name="C")
        await wait_out(e)
        await c.call("register", name="C")


async def test_sign_in_failures_per_address(server_factory):
    srv = server_factory(["--limit-sign-in-failures", "2/2"])
    async with Env(srv) as env:
        ana = await env.register("Ana")
        for _ in range(2):
            c = await env.connect()
            await c.expect_error("auth", "invalid_token", token="wrong")
        # past the limit even the right token waits: guessing is what is being slowed
        c = await env.connect()
        e = await c.expect_error("auth", "rate_limited", token=ana.token)
        await c.expect_error("recover", "rate_limited", recoveryKey="AAAA")
        await wait_out(e)
        await c.call("auth", token=ana.token)


async def test_sends_per_user_with_a_burst(server_factory):
    srv = server_factory(["--limit-sends", "2/1", "--limit-send-burst", "3"])
    async with Env(srv) as env:
        ana = await env.register("Ana")
        cid, _ = await env.conversation(ana)
        for i in range(3):
            await ana.send_text(cid, f"burst {i}")
        e = await ana.expect_error("send", "rate_limited", conversationId=cid, clientId=new_client_id(),
                                   message={"kind": "text", "text": "one too many"})
        assert e["retryAfterMs"] <= 500
        await wait_out(e)
        await ana.send_text(cid, "after the wait")


async def test_conversations_and_invites_per_user(server_factory):
    srv = server_factory(["--limit-conversations", "1/2", "--limit-invites", "1/2"])
    async with Env(srv) as env:
        ana = await env.register("Ana")
        cid, _ = await env.conversation(ana)
        e = await ana.expect_error("conversations.create", "rate_limited", title="Second")
        await ana.call("invites.create", conversationId=cid)
        e2 = await ana.expect_error("invites.create", "rate_limited", conversationId=cid)
        await ana.expect_error("devices.createLink", "rate_limited")
        await wait_out(max(e, e2, key=lambda x: x["retryAfterMs"]))
        await ana.call("conversations.create", title="Second")
        await ana.call("devices.createLink")


async def test_upload_bytes_per_user(server_factory):
    srv = server_factory(["--limit-upload-bytes", "100/2"])
    async with Env(srv) as env:
        ana = await env.register("Ana")
        first = png_bytes(rgb=(9, 9, 9))
        assert 50 < len(first) <= 100, "one fits in the day's bytes, two do not"
        assert (await asyncio.to_thread(upload, srv, first, ana.token))[0] == 201
        status, headers, _, js = await asyncio.to_thread(upload, srv, png_bytes(rgb=(8, 8, 8)), ana.token)
        assert status == 429 and js["code"] == "rate_limited"
        assert int(headers["retry-after"]) >= 1 and js["retryAfterMs"] > 0
        await wait_out(js)
        assert (await asyncio.to_thread(upload, srv, png_bytes(rgb=(8, 8, 8)), ana.token))[0] == 201


def big_png(seed: int) -> bytes:
    """About 600 KB: random pixels, stored uncompressed."""
    w, h = 400, 500
    rows = b"".join(b"\x00" + os.urandom(w * 3) for _ in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 0)) + chunk(b"IEND", b""))


async def test_stored_image_bytes_per_user(server_factory):
    srv = server_factory(["--limit-stored-image-mb", "1"])
    async with Env(srv) as env:
        ana = await env.register("Ana")
        cid, _ = await env.conversation(ana)
        status, _, _, js = await asyncio.to_thread(upload, srv, big_png(1), ana.token)
        assert status == 201, js
        m = await ana.send_message(cid, {"kind": "attachment", "image": js["hash"]})
        second = big_png(2)
        status, _, _, js2 = await asyncio.to_thread(upload, srv, second, ana.token)
        assert status == 413 and js2["code"] == "quota_exceeded"
        # deleting the message that showed the first image frees its bytes
        await ana.call("messages.delete", conversationId=cid, seq=m["seq"])
        assert (await asyncio.to_thread(upload, srv, second, ana.token))[0] == 201


async def test_a_connection_that_keeps_going_is_closed_1008(server_factory):
    srv = server_factory(["--limit-sends", "1/10", "--limit-send-burst", "1", "--limit-refusals-before-close", "3"])
    async with Env(srv) as env:
        ana = await env.register("Ana")
        cid, _ = await env.conversation(ana)
        await ana.send_text(cid, "one")
        for _ in range(2):
            await ana.expect_error("send", "rate_limited", conversationId=cid, clientId=new_client_id(),
                                   message={"kind": "text", "text": "more"})
        await ana.start("send", conversationId=cid, clientId=new_client_id(), message={"kind": "text", "text": "more"})
        assert await ana.wait_closed(5) == 1008



async def test_a_server_past_its_capacity_turns_sends_away_and_stores_each_once_when_sent_again(server_factory):
    """With the bound at 1 ms any backlog counts as one: a flood from four connections
    is partly answered `server_busy` at once, nothing of those is stored, other
    requests are still served, and every refused send sent again after the time the
    server gave (same clientId, one at a time, as the outbox does) is stored once."""
    srv = server_factory(["--busy-after-ms", "1", "--limit-sends", "0"])
    async with Env(srv) as env:
        owner = await env.register("Owner")
        people = [await env.register(f"P{i}") for i in range(4)]
        cid, _ = await env.conversation(owner, *people)
        sends = {}  # clientId -> (client, text)
        futures = []
        # Each person's 200 in one write: the flood reaches the server faster than it
        # answers however fast it is (sent one by one, a fast enough server kept up,
        # and nothing waited 1 ms).
        for p in people:
            burst = []
            for i in range(200):
                client_id = new_client_id()
                sends[client_id] = (p, f"{p.name} {i}")
                burst.append((client_id, {"conversationId": cid, "clientId": client_id,
                                          "message": {"kind": "text", "text": sends[client_id][1]}}))
            answers = await p.start_burst([("send", fields) for _, fields in burst])
            futures += [(client_id, fut) for (client_id, _), fut in zip(burst, answers)]
        history_meanwhile = await owner.request("history", conversationId=cid, timeout=30)
        assert history_meanwhile["type"] == "result", history_meanwhile

        stored = {}
        refused = {p.uid: [] for p in people}  # each person's refused sends, in order
        answers = await asyncio.wait_for(asyncio.gather(*(f for _, f in futures)), timeout=60)
        for (client_id, _), a in zip(futures, answers):
            if a["type"] == "result":
                stored[client_id] = a["result"]["message"]
            else:
                assert a["code"] == "server_busy", a
                assert 1 <= a["retryAfterMs"] <= 20_000, a
                refused[sends[client_id][0].uid].append((client_id, a["retryAfterMs"]))
        assert any(refused.values()), "a backlog past 1 ms refused nothing"
        # the operator's log says so, once a second rather than once a refusal
        deadline = time.monotonic() + 5
        while not any("sends refused: server busy" in line for line in srv.lines):
            assert time.monotonic() < deadline, "no log line for the refusals"
            await asyncio.sleep(0.1)
        assert not set(stored) & {c for r in refused.values() for c, _ in r}

        # As the outbox does: the held sends wait once, for the time the server gave
        # the last of them, then go one after another, waiting again only when turned
        # away again. (Waiting each one's own time in turn added up past the bound on a
        # loaded host, where more were refused with longer times.)
        async def send_again(person, items):
            wait = max((w for _, w in items), default=0)
            for client_id, _ in items:
                while True:
                    if wait:
                        await asyncio.sleep(wait / 1000 + 0.05)
                    a = await person.request("send", conversationId=cid, clientId=client_id,
                                             message={"kind": "text", "text": sends[client_id][1]}, timeout=30)
                    if a["type"] == "result":
                        stored[client_id] = a["result"]["message"]
                        wait = 0
                        break
                    assert a["code"] == "server_busy", a
                    wait = a["retryAfterMs"]

        await asyncio.wait_for(asyncio.gather(*(send_again(p, refused[p.uid]) for p in people)), timeout=120)
        assert set(stored) == set(sends)
        history = await owner.history_all(cid)
        texts = [m["text"] for m in history if m.get("kind") == "text"]
        assert sorted(texts) == sorted(text for _, text in sends.values()), "each stored once"


async def test_renames_and_app_storage_writes_per_user(server_factory):
    """A loop of renames (each one news for every room) or storage writes is refused
    past its rate; the others in the room get no more than the rate's worth."""
    srv = server_factory(["--limit-changes", "3/2", "--limit-app-data-writes", "2/2"])
    async with Env(srv) as env:
        ana = await env.register("Ana")
        for i in range(3):
            await ana.call("rename", name=f"Ana {i}")
        e = await ana.expect_error("rename", "rate_limited", name="Ana again")
        await ana.expect_error("recovery.create", "rate_limited")
        for i in range(2):
            await ana.call("appdata.set", appId="wenderpic", key="k", value=i)
        e2 = await ana.expect_error("appdata.set", "rate_limited", appId="wenderpic", key="k", value=9)
        await wait_out(max(e, e2, key=lambda x: x["retryAfterMs"]))
        await ana.call("rename", name="Ana at last")
        await ana.call("appdata.set", appId="wenderpic", key="k", value=3)


async def test_an_apps_storage_holds_at_most_1024_keys(server):
    """An outside attacker review: 51,000 tiny keys within the 256 KiB made every write
    and read of that store cost 0.1-0.2 s, blocking everyone else's requests."""
    async with Env(server) as env:
        ana = await env.register("Ana")
        futs = [await ana.start("appdata.set", appId="wenderpic", key=f"k{i}", value=i) for i in range(1024)]
        done = await asyncio.wait_for(asyncio.gather(*futs), 60)
        assert all(f["type"] == "result" for f in done), [f for f in done if f["type"] != "result"][:2]
        e = await ana.expect_error("appdata.set", "storage_full", appId="wenderpic", key="one-more", value=1)
        assert "1024 keys" in e["message"], e
        await ana.call("appdata.set", appId="wenderpic", key="k7", value="changed")  # an existing key still takes a value
        await ana.call("appdata.set", appId="wenderpic", key="k8", value=None)  # and removing makes room
        await ana.call("appdata.set", appId="wenderpic", key="one-more", value=1)
        data = (await ana.call("appdata.get", appId="wenderpic"))["data"]
        assert len(data) == 1024 and data["k7"] == "changed" and "k8" not in data
