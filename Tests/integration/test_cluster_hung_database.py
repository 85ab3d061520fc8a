"""Cluster mode when a node's PostgreSQL stops answering: its backend stopped
(`kill -STOP`) and, so that connecting again gets no answer either, the postmaster too,
as a network path that silently drops packets would do to both. The node waited inside
libpq for good: no answer to any request, /health silent, a stop killed by systemd
(a cluster review, session 27). Every round trip now has a deadline
(--store-timeout-seconds, 3 s here): the node answers errors, /health says 503 (at once,
once a call went unanswered: the node connects again in the background), another node
serves on, and once PostgreSQL answers again the node connects again and serves.

Runs its own PostgreSQL, so that stopping its postmaster holds up no other test.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time

import pytest

from client import Env, new_client_id
from conftest import STORES
from postgres import Postgres
from rawws import ws_handshake
from server import ParlorServer
from test_http import http_get

TIMEOUT = 3  # --store-timeout-seconds
DRAIN = 2  # --drain-seconds


@pytest.fixture(scope="module")
def pg():
    if "postgres" not in STORES:
        pytest.skip("PARLOR_TEST_STORES leaves PostgreSQL out")
    server = Postgres().start()
    yield server
    server.stop()


def node(tmp_path, public_dir, url, name):
    # application_name tells this node's session apart in pg_stat_activity
    return ParlorServer(tmp_path / name, public_dir, name=name, store_url=f"{url}?application_name={name}",
                        extra_args=["--store-timeout-seconds", str(TIMEOUT), "--drain-seconds", str(DRAIN)])


async def ana_alone_on(tmp_path, public_dir, pg, name):
    """A node of its own on a new database, and Ana there in a conversation of her own."""
    hung = node(tmp_path, public_dir, pg.new_database(), name)
    hung.start()
    env = Env(hung)
    try:
        ana = await env.register("Ana")
        cid, _ = await env.conversation(ana)
    except BaseException:
        await env.__aexit__(None, None, None)
        hung.stop()
        raise
    return hung, env, ana, cid


def backend_of(pg, name) -> int:
    """The pid of the node's one session (an abandoned one may linger a moment)."""
    deadline = time.monotonic() + 10
    while True:
        pids = pg.sql(f"SELECT pid FROM pg_stat_activity WHERE application_name = '{name}'").split()
        if len(pids) == 1:
            return int(pids[0])
        assert time.monotonic() < deadline, f"sessions of {name}: {pids}"
        time.sleep(0.1)


class Stopped:
    """The node's backend and (unless `postmaster` is false) the postmaster, stopped
    until the block ends: continued whatever happens, or PostgreSQL could never shut
    down."""

    def __init__(self, pg, backend: int, postmaster: bool = True):
        self.pids = [backend, pg.proc.pid] if postmaster else [backend]

    def __enter__(self):
        for pid in self.pids:
            os.kill(pid, signal.SIGSTOP)
        return self

    def __exit__(self, *exc):
        for pid in self.pids:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass


@contextlib.asynccontextmanager
async def ana_and_ben_on(first, second):
    """Both nodes started, Ana on the first and Ben on the second in one conversation,
    both subscribed: (envs, ana, ben, conversation id); stopped at the end."""
    first.start()
    second.start()
    envs = [Env(first), Env(second)]
    try:
        ana, ben = await envs[0].register("Ana"), await envs[1].register("Ben")
        cid, _ = await envs[0].conversation(ana, ben)
        await ana.subscribe(cid)
        await ben.subscribe(cid)
        yield envs, ana, ben, cid
    finally:
        for e in envs:
            await e.__aexit__(None, None, None)
        first.stop()
        second.stop()


async def health(server):
    status, _, body = await asyncio.to_thread(http_get, server, "/health")
    return status, json.loads(body)


async def healthy_again(server, within: float) -> None:
    """Until /health says 200: the node connected again (in the background, so a batch
    in between may still fail on a loaded machine, where a new backend starts slowly)."""
    deadline = time.monotonic() + within
    while (status := (await health(server))[0]) != 200:
        assert time.monotonic() < deadline, f"/health still {status} after {within}s"
        await asyncio.sleep(0.1)


async def test_a_node_whose_database_hangs_answers_errors_and_serves_again(tmp_path, public_dir, pg):
    url = pg.new_database()
    hung, live = node(tmp_path, public_dir, url, "hung"), node(tmp_path, public_dir, url, "live")
    async with ana_and_ben_on(hung, live) as (_, ana, ben, cid):
        with Stopped(pg, backend_of(pg, "hung")):
            start = time.monotonic()
            # this send's batch, or the once-a-second sweep's under way before it, waits
            # its deadline; connecting again waits on another thread
            refused = await ana.expect_error("send", "internal", timeout=4 * TIMEOUT, conversationId=cid,
                                             clientId=new_client_id(), message={"kind": "text", "text": "unanswered"})
            assert time.monotonic() - start < TIMEOUT + 2, refused
            start = time.monotonic()
            status, body = await health(hung)
            assert status == 503 and "did not answer" in body["problem"], body
            assert time.monotonic() - start < 2
            # the other node's session is its own: it serves on, in the same conversation
            sent = await ben.send_text(cid, "served elsewhere")
            await ben.wait_message(cid, seq=sent["seq"])
            assert (await health(live))[0] == 200
        # PostgreSQL answers again: the node connects again and serves
        await healthy_again(hung, within=2 * TIMEOUT)
        m = await ana.send_text(cid, "answered again")
        await ben.wait_message(cid, seq=m["seq"])
        hung.wait_for_log(lambda line: "did not answer" in line)
        assert any("did not answer" in line for line in hung.lines), "the failed batches are logged"


async def test_a_node_whose_backend_alone_hangs_serves_on_a_new_session(tmp_path, public_dir, pg):
    """Only its backend stopped: the call under way fails at its deadline, and the node
    is served by a new session at once, with the old one still stopped."""
    hung, env, ana, cid = await ana_alone_on(tmp_path, public_dir, pg, "alone")
    try:
        old = backend_of(pg, "alone")
        with Stopped(pg, old, postmaster=False):
            start = time.monotonic()
            # an error if the send was the call that went unanswered; its result if it
            # came behind another (the once-a-second sweep's) and found the new session
            first = await ana.request("send", timeout=4 * TIMEOUT, conversationId=cid, clientId=new_client_id(),
                                      message={"kind": "text", "text": "first"})
            assert time.monotonic() - start < TIMEOUT + 2, first
            assert first["type"] == "result" or first["code"] == "internal", first
            await healthy_again(hung, within=2 * TIMEOUT)
            await ana.send_text(cid, "on a new session")
            sessions = pg.sql(f"SELECT pid FROM pg_stat_activity WHERE application_name = 'alone'").split()
            assert len(sessions) == 2 and str(old) in sessions, sessions
    finally:
        await env.__aexit__(None, None, None)
        hung.stop()


async def test_a_node_whose_database_hangs_stops_within_a_bound(tmp_path, public_dir, pg):
    hung, env, ana, cid = await ana_alone_on(tmp_path, public_dir, pg, "stopping")
    try:
        with Stopped(pg, backend_of(pg, "stopping")):
            # a send under way, so the engine waits on the database as the stop begins
            await ana.start("send", conversationId=cid, clientId=new_client_id(),
                            message={"kind": "text", "text": "in flight"})
            start = time.monotonic()
            # the drain, then a few seconds for the engine's last batches, then its waits are cut
            assert hung.stop(timeout=DRAIN + 5 + TIMEOUT + 5), "SIGKILLed: the stop hung on the database"
            assert time.monotonic() - start < DRAIN + 5 + 3
            assert hung.proc.returncode == 0, hung.log_tail()
    finally:
        await env.__aexit__(None, None, None)
        hung.stop()


LOST = 2  # --store-lost-seconds


async def test_a_node_cut_off_from_its_database_sends_its_people_to_another(tmp_path, public_dir, pg):
    """A node that cannot reach PostgreSQL answered every request `internal` for as long
    as it lasted, while the other nodes served: its people stayed, their messages
    failing one by one. After --store-lost-seconds without storing anything it closes
    their connections with 1013 (try again later) and refuses new ones (503), so that
    they connect again on another node; once it reaches the database it takes them again."""
    url = pg.new_database()
    cut = ParlorServer(tmp_path / "cut", public_dir, name="cut", store_url=f"{url}?application_name=cut",
                       extra_args=["--store-timeout-seconds", str(TIMEOUT), "--store-lost-seconds", str(LOST)])
    other = node(tmp_path, public_dir, url, "other")
    async with ana_and_ben_on(cut, other) as (envs, ana, ben, cid):
        with Stopped(pg, backend_of(pg, "cut")):
            start = time.monotonic()
            code = await ana.wait_closed(timeout=TIMEOUT + LOST + 5)
            assert code == 1013, code
            assert time.monotonic() - start < TIMEOUT + LOST + 3
            status, head, sock = ws_handshake(cut.port)
            sock.close()
            assert status == 503, head
            # on the other node, Ana signs in again and the conversation goes on
            again = await envs[1].login(ana.token, "ana-elsewhere")
            await again.subscribe(cid)
            sent = await again.send_text(cid, "from the other node")
            await ben.wait_message(cid, seq=sent["seq"])
        # the database answers again: the node takes connections again
        await healthy_again(cut, within=2 * TIMEOUT)
        back = await envs[0].login(ana.token, "ana-back")
        await back.subscribe(cid)
        m = await back.send_text(cid, "back on the first node")
        await ben.wait_message(cid, seq=m["seq"])
        cut.wait_for_log(lambda line: "database out of reach" in line)
        cut.wait_for_log(lambda line: "database reached again" in line)
