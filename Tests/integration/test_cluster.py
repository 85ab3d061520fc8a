"""Cluster mode: three nodes on one PostgreSQL and one nats-server, all started here on
loopback. Clients spread over the nodes see every message of a conversation once and
in the same (seq) order; a node killed with -9 costs its clients nothing once they
resume on another node; a nats-server restart loses nothing either. Presence and
`playing` cross nodes, and a dead node's users go offline within a bound.

Three nodes on a small shared machine measure correctness, not scale.
"""

from __future__ import annotations

import asyncio
import shutil
import signal
import subprocess
import time
from contextlib import asynccontextmanager

import pytest

from client import Disconnected, Env, ProtocolError, new_client_id
from postgres import free_port
from server import ParlorServer
from test_sessions import app_msg

NATS_BIN = shutil.which("nats-server") or "/usr/sbin/nats-server"


class Nats:
    def __init__(self, tmp_path):
        self.port = free_port()
        self.log = tmp_path / "nats.log"
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def start(self) -> "Nats":
        self.proc = subprocess.Popen([NATS_BIN, "-a", "127.0.0.1", "-p", str(self.port)],
                                     stdout=open(self.log, "ab"), stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"nats-server exited: {self.log.read_text()[-2000:]}"
            try:
                with __import__("socket").create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.05)
        raise AssertionError("nats-server did not listen within 15s")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@pytest.fixture
def cluster(tmp_path, public_dir, postgres):
    if not shutil.which(NATS_BIN):
        pytest.fail("nats-server not found: make deps installs it")
    nats = Nats(tmp_path).start()
    url = postgres.new_database()
    # The nodes share the image directory (content-addressed files), as they would share
    # a network file system.
    data = tmp_path / "data"
    nodes = [ParlorServer(data, public_dir, name=f"node{i}", store_url=url, extra_args=["--bus", nats.url])
             for i in range(3)]
    for n in nodes:
        n.start()
    yield nats, nodes
    for n in nodes:
        n.stop()
    nats.stop()



@asynccontextmanager
async def envs_on(nodes):
    """A client environment on each node, closed when the test ends however it ends."""
    envs = [Env(n) for n in nodes]
    try:
        yield envs
    finally:
        for e in envs:
            await e.__aexit__(None, None, None)

async def room(envs, per_node=2):
    """Users spread over the nodes (user i on node i % 3), all in one conversation."""
    users = []
    for i in range(per_node * len(envs)):
        users.append(await envs[i % len(envs)].register(f"User {i}"))
    cid, _ = await envs[0].conversation(users[0], *users[1:])
    for u in users:
        await u.subscribe(cid, after_seq=0)
    return users, cid


async def send_burst(client, cid, n, prefix):
    futs = [await client.start("send", conversationId=cid, clientId=f"{prefix}-{i}",
                               message={"kind": "text", "text": f"{prefix} {i}"}) for i in range(n)]
    frames = await asyncio.gather(*futs)
    assert all(f["type"] == "result" for f in frames), [f for f in frames if f["type"] != "result"][:3]
    return [f["result"]["message"]["seq"] for f in frames]


async def test_every_client_sees_every_message_once_in_order(cluster):
    _, nodes = cluster
    async with envs_on(nodes) as envs:
        users, cid = await room(envs)
        acked = await asyncio.gather(*(send_burst(u, cid, 15, f"u{i}") for i, u in enumerate(users)))
        seqs = sorted(s for a in acked for s in a)
        assert seqs == list(range(1, len(seqs) + 1)), "one seq order across the nodes, no gap"
        last = seqs[-1]
        for u in users:
            await u.wait_message(cid, seq=last, timeout=15)
            assert u.message_seqs(cid) == seqs, f"{u.label} on another node saw a different stream"
        history = await users[-1].history_all(cid)
        assert [m["seq"] for m in history] == seqs


async def test_a_killed_node_and_a_nats_restart_lose_nothing(cluster):
    nats, nodes = cluster
    async with envs_on(nodes) as envs:
        users, cid = await room(envs)
        acked: list[int] = []
        stop = asyncio.Event()

        async def keep_sending(u, prefix):
            i = 0
            while not stop.is_set():
                try:
                    m = await u.send_text(cid, f"{prefix} {i}", client_id=f"{prefix}-{i}")
                    acked.append(m["seq"])
                except (Disconnected, ProtocolError, AssertionError):
                    if u.closed:
                        return  # its node died: what it was not told about is not acknowledged
                    raise
                i += 1

        # senders on the two nodes that stay up, and on the one that will die
        senders = [asyncio.create_task(keep_sending(u, f"s{i}")) for i, u in enumerate(users)]

        async def reached(n):
            while len(acked) < n:
                await asyncio.sleep(0.02)

        await asyncio.wait_for(reached(30), 30)
        # kill -9 node 2 mid-run: its clients come back on node 0 and resume after what they saw
        victims = [u for i, u in enumerate(users) if i % 3 == 2]
        nodes[2].kill()
        resumed = []
        for v in victims:
            await v.wait_closed(10)
            seen = v.message_seqs(cid)
            again = await envs[0].login(v.token, label=v.label + "-again")
            await again.subscribe(cid, after_seq=seen[-1] if seen else 0)
            resumed.append((seen, again))
        await asyncio.wait_for(reached(len(acked) + 30), 30)

        # restart nats-server mid-run: with no bus at all, a node still delivers what the
        # others commit (read from PostgreSQL by its sweep), and nothing is lost after
        nats.stop()
        during = len(acked)
        await asyncio.wait_for(reached(during + 20), 30)
        sent_on_node1 = await users[1].send_text(cid, "while the bus is down")
        await users[0].wait_message(cid, seq=sent_on_node1["seq"], timeout=10)
        nats.start()
        await asyncio.wait_for(reached(len(acked) + 20), 30)

        stop.set()
        await asyncio.gather(*senders)
        last = max(acked)
        live = [u for u in users if u not in victims]
        streams = []
        for u in live:
            await u.wait_message(cid, seq=last, timeout=15)
            streams.append((u.label, u.message_seqs(cid)))
        for seen, again in resumed:
            await again.wait_message(cid, seq=last, timeout=15)
            streams.append((again.label, seen + again.message_seqs(cid)))
        history = [m["seq"] for m in await live[0].history_all(cid)]
        assert history == list(range(1, last + 1)), "no gap in the conversation"
        assert len(set(acked)) == len(acked) and set(acked) <= set(history), "every acknowledged message, once"
        for label, seqs in streams:
            assert seqs == history, f"{label}: gaps {sorted(set(history) - set(seqs))[:10]}, " \
                                    f"duplicates {len(seqs) - len(set(seqs))}"


async def test_room_events_and_sign_outs_cross_nodes(cluster):
    _, nodes = cluster
    async with envs_on(nodes) as envs:
        users, cid = await room(envs, per_node=1)
        admin, on_node1, on_node2 = users
        # At once: `subscribe` is answered only once nats-server has the node's
        # subscription (NATSBus flushes), and a rename is not repaired if lost.
        await admin.call("conversations.rename", conversationId=cid, title="Renamed on node 0")
        for u in (on_node1, on_node2):
            await u.wait_for(lambda e: e.get("type") == "conversation"
                             and e["conversation"]["title"] == "Renamed on node 0", desc="the rename", timeout=5)
        # an account deactivated on node 0 is signed out on node 2 at once
        await admin.call("admin.users.deactivate", userId=on_node2.uid)
        assert await on_node2.wait_closed(5) == 4003
        assert on_node2.close_reason == "account deactivated", on_node2.close_reason  # read there
        # a device linked in on node 0 and revoked from node 1 closes on node 0
        link = await on_node1.call("devices.createLink")
        phone = await envs[0].connect("phone-on-node0")
        r = await phone.call("device.link", code=link["token"])
        phone.user, phone.token = r["user"], r["token"]
        phone_id = next(d["id"] for d in (await phone.call("devices.list"))["devices"] if d["current"])
        await on_node1.call("devices.revoke", deviceId=phone_id)
        assert await phone.wait_closed(5) == 4003 and phone.close_reason == "signed out"
        assert not on_node1.closed, "only the revoked device is signed out"


async def test_concurrent_session_updates_on_two_nodes_never_lose_one(cluster):
    """The session version check holds across nodes: one update wins, one conflicts."""
    _, nodes = cluster
    async with envs_on(nodes) as envs:
        ana, ben = await envs[0].register("Ana"), await envs[1].register("Ben")
        for c in (ana, ben):
            await c.call("apps.install", appId="testapp")
        cid, _ = await envs[0].conversation(ana, ben)
        for c in (ana, ben):
            await c.subscribe(cid)

        def app(url, base=None):
            session = {"id": "game"} if base is None else {"id": "game", "baseVersion": base}
            return {"kind": "app", "appId": "testapp", "url": url, "layout": {"caption": "Game"}, "live": False,
                    "session": session}

        cur = await ana.send_message(cid, app("?v=0"))
        version = 1
        for rnd in range(6):
            fa = await ana.start("send", conversationId=cid, clientId=new_client_id(), message=app(f"?a={rnd}", version))
            fb = await ben.start("send", conversationId=cid, clientId=new_client_id(), message=app(f"?b={rnd}", version))
            ra, rb = await asyncio.wait_for(asyncio.gather(fa, fb), 10)
            assert sorted([ra["type"], rb["type"]]) == ["error", "result"], f"round {rnd}: {ra} / {rb}"
            win, lose = (ra, rb) if ra["type"] == "result" else (rb, ra)
            assert lose["code"] == "session_conflict"
            new = win["result"]["message"]
            assert new["session"] == {"id": "game", "version": version + 1}
            for c in (ana, ben):
                ev = await c.wait_message(cid, seq=new["seq"])
                assert ev["supersedes"]["seq"] == cur["seq"], "the other node tells what the update replaced"
            cur, version = new, version + 1
        hist = (await ana.history(cid))["messages"]
        assert [m["seq"] for m in hist] == list(range(1, 8)), "gapless: losers stored nothing"


async def test_a_dropped_database_connection_costs_nothing(cluster, postgres):
    _, nodes = cluster
    envs = [Env(n) for n in nodes[:2]]
    try:
        ana, ben = await envs[0].register("Ana"), await envs[1].register("Ben")
        cid, _ = await envs[0].conversation(ana, ben)
        await ben.subscribe(cid)
        database = nodes[0].store_url.rsplit("/", 1)[1]
        # as a failover or an administrator would: every node's connection is cut
        postgres.sql(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     f"WHERE datname = '{database}' AND pid <> pg_backend_pid()")
        m = await ana.send_text(cid, "after the cut")
        await ben.wait_message(cid, seq=m["seq"])
    finally:
        for e in envs:
            await e.__aexit__(None, None, None)


async def test_batches_over_two_rooms_on_two_nodes_never_deadlock(cluster):
    """Each node's batches take both rooms' locks: always in the same order, so no node
    waits for another in a cycle (PostgreSQL would fail a request after a second)."""
    _, nodes = cluster
    envs = [Env(n) for n in nodes[:2]]
    try:
        users = [await envs[i % 2].register(f"User {i}") for i in range(12)]
        rooms = [(await envs[0].conversation(users[0], *users[1:], title=t))[0] for t in ("X", "Y")]

        async def alternate(i, u):
            order = rooms if i % 2 == 0 else rooms[::-1]
            futs = [await u.start("send", conversationId=order[k % 2], clientId=f"d{i}-{k}",
                                  message={"kind": "text", "text": f"{i} {k}"}) for k in range(100)]
            return await asyncio.gather(*futs)

        frames = await asyncio.wait_for(asyncio.gather(*(alternate(i, u) for i, u in enumerate(users))), 60)
        errors = [f for fs in frames for f in fs if f["type"] != "result"]
        assert not errors, f"{len(errors)} sends failed, e.g. {errors[:2]}"
        for cid in rooms:
            hist = await users[0].history_all(cid)
            assert [m["seq"] for m in hist] == list(range(1, 601))
    finally:
        for e in envs:
            await e.__aexit__(None, None, None)


# Presence crosses nodes: a node repeats what it holds every 3 s and another node's
# entries lapse after 3 missed repeats, checked by a once-a-second sweep (Limits.swift).
PRESENCE_LAPSE_BOUND = 3 * 3 + 1


def is_presence(cid, uid, online):
    return lambda e: (e.get("type") == "presence" and e.get("conversationId") == cid
                      and e.get("userId") == uid and e.get("online") is online)


def is_presence_snapshot(cid):
    return lambda e: e.get("type") == "presence" and e.get("conversationId") == cid and "userId" not in e


def is_playing(cid, sid, uid, playing):
    return lambda e: (e.get("type") == "playing" and e.get("conversationId") == cid and e.get("sessionId") == sid
                      and e.get("userId") == uid and e.get("playing") is playing)


async def sees_online(client, cid, uid, desc):
    """uid online for client: in its subscribe snapshot (its node knew already) or in a
    change just after (its node asked the others when it began to follow cid)."""
    await client.wait_for(lambda e: is_presence(cid, uid, True)(e)
                          or (is_presence_snapshot(cid)(e) and uid in e["online"]), desc=desc)


async def test_presence_and_playing_cross_nodes(cluster):
    _, nodes = cluster
    async with envs_on(nodes) as envs:
        ana, ben, cy = [await envs[i].register(name) for i, name in enumerate(("Ana", "Ben", "Cy"))]
        for c in (ana, ben):
            await c.call("apps.install", appId="testapp")
        cid, _ = await envs[0].conversation(ana, ben, cy)
        await ana.subscribe(cid)
        snap = await ana.wait_for(is_presence_snapshot(cid), desc="Ana's snapshot")
        assert snap["online"] == [ana.uid]

        # Ana on node 0 and Ben on node 1 see each other online
        await ben.subscribe(cid)
        await ana.wait_for(is_presence(cid, ben.uid, True), desc="Ben (node 1) online for Ana (node 0)")
        await sees_online(ben, cid, ana.uid, "Ana (node 0) online for Ben (node 1)")
        # a snapshot on node 0 now lists Ben, who is on node 1
        ana2 = await envs[0].login(ana.token, label="ana-tab2")
        await ana2.subscribe(cid)
        snap = await ana2.wait_for(is_presence_snapshot(cid), desc="the snapshot of Ana's second tab")
        assert sorted(snap["online"]) == sorted([ana.uid, ben.uid])

        # a playing mark on node 1 is seen on node 0, live and in a later snapshot
        m = await ana.send_message(cid, app_msg("?board=1", session={"id": "g1", "baseVersion": 0}))
        await ben.wait_message(cid, seq=m["seq"])
        await ben.call("playing", conversationId=cid, sessionId="g1", playing=True)
        await ana.wait_for(is_playing(cid, "g1", ben.uid, True), desc="Ben (node 1) plays g1, seen on node 0")
        ana3 = await envs[0].login(ana.token, label="ana-tab3")
        await ana3.subscribe(cid)
        snap = await ana3.wait_for(lambda e: e.get("type") == "playing" and "sessions" in e, desc="playing snapshot")
        assert snap["sessions"] == {"g1": [ben.uid]}
        await ben.call("playing", conversationId=cid, sessionId="g1", playing=False)
        await ana.wait_for(is_playing(cid, "g1", ben.uid, False), desc="Ben closed g1")

        # Ben disconnects: offline on node 0 at once, not after the lapse
        await ben.close()
        await ana.wait_for(is_presence(cid, ben.uid, False), timeout=3, desc="Ben offline after his disconnect")

        # Ben back on node 1, playing; then node 1 dies with -9: he goes offline and
        # stops playing on node 0 within the bound, with no word from his node
        ben2 = await envs[1].login(ben.token, label="ben-again")
        await ben2.subscribe(cid)
        await ana.wait_for(is_presence(cid, ben.uid, True), desc="Ben online again")
        await ben2.call("playing", conversationId=cid, sessionId="g1", playing=True)
        await ana.wait_for(is_playing(cid, "g1", ben.uid, True), desc="Ben plays again")
        await cy.subscribe(cid)
        await ana.wait_for(is_presence(cid, cy.uid, True), desc="Cy (node 2) online")
        nodes[1].kill()
        # the bound, and a second for a late sweep on this busy machine (seen: 9.6 s)
        await ana.wait_for(is_presence(cid, ben.uid, False), timeout=PRESENCE_LAPSE_BOUND + 1,
                           desc=f"Ben offline within {PRESENCE_LAPSE_BOUND}s of his node's kill -9")
        await ana.wait_for(is_playing(cid, "g1", ben.uid, False), timeout=1, desc="and no longer playing")
        assert not [e for e in ana.events if is_presence(cid, cy.uid, False)(e)], \
            "Cy's node is alive: she stays online"

        # node 2 stopped gracefully: its users go offline at once (its last announcement),
        # well before another node's entries could lapse
        nodes[2].stop()
        await ana.wait_for(is_presence(cid, cy.uid, False), timeout=4, desc="Cy offline when her node stops")


async def test_a_member_removed_on_one_node_stops_receiving_on_every_node(cluster):
    """A cluster review, 6 of 6: Ben removed on node 0 kept the conversation coming,
    live, on his tab on node 1 (his sends were refused there, not what others sent)."""
    _, nodes = cluster
    async with envs_on(nodes) as envs:
        ana, ben, cara = await envs[0].register("Ana"), await envs[0].register("Ben"), await envs[1].register("Cara")
        cid, _ = await envs[0].conversation(ana, ben, cara)
        bens_tab = await envs[1].login(ben.token, "ben-on-node1")
        for c in (ana, ben, cara, bens_tab):
            await c.subscribe(cid)
        before = await ana.send_text(cid, "before")
        await bens_tab.wait_message(cid, before["seq"])
        await ana.call("conversations.removeMember", conversationId=cid, userId=ben.uid)
        removed = await bens_tab.wait_event("member", conversationId=cid, change="removed")
        assert removed["member"]["userId"] == ben.uid
        after = await ana.send_text(cid, "after Ben left")
        await cara.wait_message(cid, after["seq"])  # node 1 has it
        await asyncio.sleep(0.5)
        assert after["seq"] not in bens_tab.message_seqs(cid), "node 1 went on delivering to the removed member"
        told = [e for e in bens_tab.log if e.get("type") == "member" and e.get("change") == "removed"]
        assert len(told) == 1, f"the removal was told {len(told)} times"


async def test_a_sign_out_told_while_nats_was_down_still_closes_the_device(cluster):
    """A cluster review: a device revoked and an account deactivated while nats-server
    was down kept their connections on the other node for good (NATS delivers at most
    once). Each node checks its connections' devices in the database every 10 s."""
    nats, nodes = cluster
    async with envs_on(nodes) as envs:
        ana, ben = await envs[0].register("Ana"), await envs[0].register("Ben")
        bens_tab = await envs[1].login(ben.token, "ben-on-node1")
        link = await ana.call("devices.createLink")
        phone = await envs[1].connect("anas-phone-on-node1")
        r = await phone.call("device.link", code=link["token"])
        phone.user, phone.token = r["user"], r["token"]
        phone_id = next(d["id"] for d in (await phone.call("devices.list"))["devices"] if d["current"])
        nats.stop()
        assert any("bus lost" in line for line in nodes[0].wait_for_log(lambda line: "bus lost" in line, timeout=10))
        await ana.call("devices.revoke", deviceId=phone_id)
        await ana.call("admin.users.deactivate", userId=ben.uid)
        # what node 0's NATS client kept to publish once it reconnects dies with it
        nodes[0].kill()
        nats.start()
        assert any("bus back" in line for line in nodes[1].wait_for_log(lambda line: "bus back" in line, timeout=15))
        assert await phone.wait_closed(15) == 4003 and phone.close_reason == "signed out"
        assert await bens_tab.wait_closed(15) == 4003 and bens_tab.close_reason == "account deactivated"


async def test_a_node_waits_for_a_locked_conversation_a_bounded_time(cluster, postgres):
    """A cluster review: a node hung inside a transaction held a conversation's lock,
    and every other node's engine waited behind it for good, for every conversation and
    its health check too. Now a batch waits 2 s at most, its sends there are refused as
    busy (to be retried), and the node goes on serving."""
    _, nodes = cluster
    envs = [Env(n) for n in nodes]
    holder = None
    try:
        ana, ben = await envs[0].register("Ana"), await envs[0].register("Ben")
        cid, _ = await envs[0].conversation(ana, ben)
        other, _ = await envs[0].conversation(ben, ana, title="Elsewhere")
        # a session of its own holds the conversation's row lock, as a stopped node would
        url = nodes[0].store_url
        holder = subprocess.Popen(["psql", "-X", "-q", "-t", "-A", "-d", url], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        holder.stdin.write(f"BEGIN; SELECT id FROM conversations WHERE id = '{cid}' FOR UPDATE; SELECT 'locked';\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == cid
        assert holder.stdout.readline().strip() == "locked"
        start = time.monotonic()
        refused = await ana.expect_error("send", "server_busy", timeout=10, conversationId=cid, clientId=new_client_id(),
                                         message={"kind": "text", "text": "waits for the lock"})
        assert time.monotonic() - start < 4, refused
        assert refused["retryAfterMs"] > 0
        # the node goes on with everything else
        assert (await ana.send_text(other, "elsewhere"))["seq"] == 1
        holder.stdin.write("ROLLBACK;\n")
        holder.stdin.flush()
        assert (await ana.send_text(cid, "once the lock is let go"))["seq"] >= 1
    finally:
        if holder:
            holder.kill()
            holder.wait(5)
        for e in envs:
            await e.__aexit__(None, None, None)


async def test_one_users_storage_apps_and_recovery_key_reach_their_connection_on_another_node(cluster):
    """appdata, apps and recovery events go to every connection of the user: the one on
    another node hears them through the bus (a two-device review)."""
    _, nodes = cluster
    async with envs_on(nodes) as envs:
        laptop = await envs[0].register("Ana")
        phone = await envs[1].login(laptop.token, "ana_phone_on_node1")
        await laptop.call("appdata.set", appId="testapp", key="owned", value=["cat"])
        ev = await phone.wait_event("appdata", appId="testapp", key="owned")
        assert ev["value"] == ["cat"]
        await laptop.call("apps.install", appId="testapp")
        assert (await phone.wait_event("apps"))["installedApps"] == ["testapp"]
        await laptop.call("recovery.create")
        await phone.wait_event("recovery")


async def test_a_read_mark_reaches_her_connection_on_another_node(cluster):
    """A read mark made on one node reaches the same user's connection on another
    through the bus, and not the connection that made it, nor another member."""
    _, nodes = cluster
    async with envs_on(nodes) as envs:
        laptop = await envs[0].register("Ana")
        phone = await envs[1].login(laptop.token, "ana_phone_on_node1")
        ben = await envs[1].register("Ben")
        cid, _ = await envs[0].conversation(laptop, ben)
        await ben.send_text(cid, "hi")
        await laptop.call("read", conversationId=cid, seq=1)
        assert (await phone.wait_event("read", conversationId=cid))["seq"] == 1
        await laptop.call("ping")
        await ben.call("ping")
        assert not [e for e in laptop.events + ben.events if e.get("type") == "read"]


async def test_typing_on_one_node_is_heard_on_another(cluster):
    """A typing notice is news for the room on every node, as presence is."""
    _, nodes = cluster
    async with envs_on(nodes) as envs:
        ana = await envs[0].register("Ana")
        ben = await envs[1].register("Ben")
        cid, _ = await envs[0].conversation(ana, ben)
        for c in (ana, ben):
            await c.subscribe(cid)
        await ana.call("typing", conversationId=cid, typing=True)
        ev = await ben.wait_event("typing", conversationId=cid)
        assert (ev["userId"], ev["typing"]) == (ana.uid, True)


async def test_a_hung_nats_server_costs_a_node_one_second_not_one_a_sign_in(cluster):
    """A cluster review: with nats-server stopped (SIGSTOP: hung, not gone), each
    sign-in waited a whole second for a flush on the engine's thread, and everyone on
    the node waited with it. After one such wait the node subscribes without waiting
    for a few seconds."""
    nats, nodes = cluster
    env = Env(nodes[1])
    try:
        await env.register("Warm")  # the node has subscribed once already
        nats.proc.send_signal(signal.SIGSTOP)
        start = time.monotonic()
        for i in range(4):
            await env.register(f"Newcomer {i}")
        took = time.monotonic() - start
        assert took < 3, f"4 sign-ins took {took:.1f} s with nats-server hung"
    finally:
        nats.proc.send_signal(signal.SIGCONT)
        await env.__aexit__(None, None, None)


async def test_a_node_started_while_nats_is_down_serves_and_joins_the_bus_later(tmp_path, public_dir, postgres):
    """A cluster review: a node (re)started during a NATS outage refused to start, and
    systemd restarted it every 2 s until nats-server was back. It now serves without
    the bus, says so, and joins it once nats-server answers."""
    nats = Nats(tmp_path)  # not started yet
    url = postgres.new_database()
    nodes = [ParlorServer(tmp_path / "data", public_dir, name=f"late{i}", store_url=url, extra_args=["--bus", nats.url])
             for i in range(2)]
    async with envs_on(nodes) as envs:
        nodes[0].start()
        assert any("bus not reached" in line for line in nodes[0].wait_for_log(lambda line: "bus not reached" in line))
        ana = await envs[0].register("Ana")
        cid, _ = await envs[0].conversation(ana)
        assert (await ana.send_text(cid, "served without the bus"))["seq"] == 1
        nats.start()
        assert any("bus back" in line for line in nodes[0].wait_for_log(lambda line: "bus back" in line, timeout=15))
        nodes[1].start()
        tab = await envs[1].login(ana.token, "ana-on-node1")
        await tab.subscribe(cid)
        await ana.call("conversations.rename", conversationId=cid, title="Heard over the bus")
        await tab.wait_for(lambda e: e.get("type") == "conversation" and e["conversation"]["title"] == "Heard over the bus",
                           desc="the rename", timeout=5)
        for n in nodes:
            n.stop()
        nats.stop()
