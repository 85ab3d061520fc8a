"""What a self-hoster meets first (issue 9): the address bound, a graceful stop,
a health check that tells the truth, a clear refusal to start on bad data, and no
memory kept per request served."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import time

import pytest
from pathlib import Path

from client import Env, ProtocolError, new_client_id
from server import PARLOR_BIN, ParlorServer
from test_http import http_get, png_bytes, upload
from test_security import rss_kib


def test_host_binds_exactly_the_address_asked(server):
    # the module server runs with --host 127.0.0.1
    with socket.create_connection(("127.0.0.1", server.port), timeout=5):
        pass
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.2", server.port), timeout=5)
    with pytest.raises(OSError):
        socket.create_connection(("::1", server.port), timeout=5)


async def test_sigterm_answers_what_was_read_then_closes_1001(server_factory):
    srv = server_factory()
    async with Env(srv) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cid, _ = await env.conversation(ana, ben)
        await ben.subscribe(cid)
        # many sends in flight, then SIGTERM while they are being processed
        futures = [await ana.start("send", conversationId=cid, clientId=new_client_id(),
                                   message={"kind": "text", "text": f"m{i}"}) for i in range(300)]
        # Once the server is reading them (its first answer is here): a signal sent the
        # moment they were written could land before it read any (a fresh-clone run,
        # PostgreSQL), and then there is rightly nothing to answer.
        await asyncio.wait_for(asyncio.shield(futures[0]), 10)
        srv.proc.send_signal(signal.SIGTERM)
        srv.expected_running = False
        results = await asyncio.gather(*futures, return_exceptions=True)
        assert await ana.wait_closed(10) == 1001
        assert await ben.wait_closed(10) == 1001
        acked = {r["result"]["message"]["seq"] for r in results
                 if isinstance(r, dict) and r.get("type") == "result"}
        assert acked, "nothing was answered before the close"
    assert srv.wait_exit(15) == 0
    assert any("draining" in line for line in srv.lines)
    srv.start()
    async with Env(srv) as env:
        again = await env.login(ana.token)
        stored = {m["seq"] for m in await again.history_all(cid)}
        assert acked <= stored, f"acknowledged but lost: {sorted(acked - stored)[:10]}"


def test_health_writes_and_head_works(server):
    status, h, body = http_get(server, "/health")
    assert status == 200 and json.loads(body) == {"status": "ok"}
    assert h["cache-control"] == "no-store"
    status, h, body = http_get(server, "/health", method="HEAD")
    assert status == 200 and body == b""


def test_asking_health_in_a_flood_costs_the_database_one_write_a_second(server):
    """/health writes to the database: 40 connections asking in a loop made it write and
    sync once a request, and everyone's sends waited behind those writes. Now requests
    share one write at a time, and a success answers for a second."""
    from concurrent.futures import ThreadPoolExecutor

    def inputs():  # what the engine took, each request and each once-a-second sweep
        return metrics(server)["parlor_engine_batch_size_sum"][()]

    def ask_ten(_):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        answers = []
        for _ in range(10):
            conn.request("GET", "/health")
            r = conn.getresponse()
            answers.append((r.status, r.read()))
        conn.close()
        return answers

    before, started = inputs(), time.monotonic()
    with ThreadPoolExecutor(40) as pool:
        answers = [a for ten in pool.map(ask_ten, range(40)) for a in ten]
    seconds = time.monotonic() - started
    taken = inputs() - before
    assert len(answers) == 400 and all(a == (200, b'{"status":"ok"}') for a in answers), answers[:3]
    assert taken <= 2 * seconds + 4, f"the engine took {taken} inputs in {seconds:.1f} s for 400 health checks"


@pytest.fixture
def tiny_disk(tmp_path):
    mnt = tmp_path / "tiny"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(mnt)]).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)])


def fill(disk):
    """Writes a file until the disk is full; returns it."""
    filler = disk / "filler"
    # unbuffered: a write the disk took only part of leaves nothing behind for close()
    # to write again (a buffered file kept the last 8 KiB or less of a 64 KiB write the
    # disk had no room for, and close() raised ENOSPC: whenever the free space was 56-64
    # KiB past a multiple of 64 KiB, as it became with the reports table's pages)
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 65536)
        except OSError:
            pass
    return filler


async def test_health_fails_on_a_full_disk(tiny_disk, public_dir):
    srv = ParlorServer(tiny_disk / "data", public_dir, extra_args=["--min-free-disk-mb", "1"], name="tiny")
    srv.start()
    try:
        assert http_get(srv, "/health")[0] == 200
        filler = fill(tiny_disk)
        status, _, body = http_get(srv, "/health")
        assert status == 503, body
        report = json.loads(body)
        assert report["status"] == "failing" and "free" in report["problem"]
        filler.unlink()
        assert http_get(srv, "/health")[0] == 200
    finally:
        srv.stop()


@pytest.mark.sqlite_only
async def test_a_full_disk_refuses_writes_and_still_answers_reads(tiny_disk, public_dir):
    """A small VPS whose disk filled up: a batch that could not be stored answered every
    request in it `internal`, reads and sign-ins too, so nobody could even read while
    anyone sent, and each failed batch was a line in the log. Now every write is refused
    as `disk_full` (stored nothing, says when to try again), reads, sign-ins and
    subscribes are answered, the log says it in a line or two, and once space is freed
    sends are stored again without a restart, and nothing acknowledged is lost."""
    srv = ParlorServer(tiny_disk / "data", public_dir, extra_args=["--min-free-disk-mb", "1"], name="tiny-full")
    srv.start()
    try:
        async with Env(srv) as env:
            ana = await env.register("Ana")
            ben = await env.register("Ben")
            cid, _ = await env.conversation(ana, ben)
            acked = [(await ana.send_text(cid, "before the disk filled"))["seq"]]
            filler = fill(tiny_disk)
            logged = len(srv.lines)

            # a send may still fit in what the database's files already hold: the first refusal
            for n in range(150):
                try:
                    acked.append((await ana.send_text(cid, f"filling {n}"))["seq"])
                except ProtocolError as e:
                    assert e.code == "disk_full", e
                    break
            else:
                pytest.fail("the disk never refused a send")

            # sends and reads in the same batches: every write refused, every read answered
            def send(n):
                return ana.call("send", conversationId=cid, clientId=new_client_id(),
                                message={"kind": "text", "text": f"refused {n}"})
            answers = await asyncio.gather(*[send(n) for n in range(30)],
                                           *[ben.call("history", conversationId=cid, limit=50) for _ in range(30)],
                                           *[ben.call("conversations.list") for _ in range(10)],
                                           return_exceptions=True)
            sends, reads = answers[:30], answers[30:]
            assert all(getattr(a, "code", None) == "disk_full" for a in sends), sends[:3]
            assert all(a.frame.get("retryAfterMs", 0) > 0 for a in sends), sends[0].frame
            assert not [r for r in reads if isinstance(r, BaseException)], reads[:3]
            # signing in and subscribing need no write
            again = await env.login(ben.token, "ben-again")
            sub = await again.call("subscribe", conversationId=cid, afterSeq=0)
            assert sub is not None
            await ana.expect_error("rename", "disk_full", name="Ana Full")
            await ana.expect_error("conversations.create", "disk_full", title="Another")

            # the log: a line, not one per failed batch
            full_lines = [line for line in srv.wait_for_log(lambda line: "the disk is full" in line)[logged:]
                          if "the disk is full" in line]
            assert 1 <= len(full_lines) <= 3, full_lines

            # space again: stored at once, no restart
            filler.unlink()
            acked.append((await ana.send_text(cid, "after"))["seq"])

        srv.stop()
        srv.start()
        async with Env(srv) as env:
            ana = await env.login(ana.token)
            history = (await ana.call("history", conversationId=cid, limit=200))["messages"]
            texts = [m["text"] for m in history]
            assert sorted(m["seq"] for m in history if m["seq"] in acked) == sorted(acked), "an acknowledged send was lost"
            assert not [t for t in texts if t.startswith("refused")], "a refused send was stored"
            assert (await ana.call("conversations.list"))["conversations"][0]["title"] != "Another"
    finally:
        srv.stop()


def test_uploads_under_way_count_against_the_disk_reserve(tmp_path, public_dir):
    """The reserve was checked against the free space when an upload's headers came,
    not counting its own bytes nor those still to come of uploads under way: four
    uploads admitted at once on 10 MiB free, 8 kept in reserve, emptied the disk."""
    mnt = tmp_path / "twelve"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=12m", "tmpfs", str(mnt)]).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    srv = ParlorServer(mnt / "data", public_dir, extra_args=["--min-free-disk-mb", "4"], name="reserve")
    srv.start()
    sock = None
    try:
        async def register():
            async with Env(srv) as env:
                return (await env.register("Ana")).token
        token = asyncio.run(register())
        # an uncompressed PNG: about 4.7 MB, under the 5 MiB an image may have
        big = png_bytes(1250, 1250, level=0)
        assert 4_500_000 < len(big) < 5 << 20

        def free():
            st = os.statvfs(mnt)
            return st.f_bavail * st.f_frsize

        # the first upload is admitted and under way: half of it sent, the rest to come
        before = free()
        sock = socket.create_connection(("127.0.0.1", srv.port), timeout=15)
        sock.sendall((f"POST /blobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(big)}\r\n"
                      f"Authorization: Bearer {token}\r\nConnection: close\r\n\r\n").encode())
        sock.sendall(big[:len(big) // 2])
        deadline = time.monotonic() + 10
        while before - free() < 1 << 20:
            assert time.monotonic() < deadline, "the first upload was never written"
            time.sleep(0.02)

        # a second one would leave less than the reserve once both are written: refused at once
        status, _, body, js = upload(srv, big, token)
        assert status == 507 and js["code"] == "storage_full", (status, body)
        assert free() > 4 << 20

        # the first one ends well
        sock.sendall(big[len(big) // 2:])
        resp = http.client.HTTPResponse(sock)
        resp.begin()
        assert resp.status == 201, resp.read()
    finally:
        if sock:
            sock.close()
        srv.stop()
        subprocess.run(["umount", "-l", str(mnt)])


def _start_fails(tmp_path, public_dir, data):
    out = subprocess.run([str(PARLOR_BIN), "serve", "--host", "127.0.0.1", "--port", "0", "--data", str(data),
                          "--public", str(public_dir)], capture_output=True, text=True, timeout=30)
    lines = [line for line in (out.stdout + out.stderr).splitlines() if line.strip()]
    return out.returncode, lines


# SQLite only: the data directory's database file itself.
def test_a_bad_data_directory_is_one_clear_line(tmp_path, public_dir):
    # not writable: a read-only file system (root may write anywhere else)
    ro = tmp_path / "ro"
    ro.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(ro)]).returncode == 0:
        try:
            code, lines = _start_fails(tmp_path, public_dir, ro / "data")
            assert code == 1 and len(lines) == 1 and "cannot start" in lines[0], lines
            assert "Read-only file system" in lines[0] or "permission" in lines[0].lower(), lines
        finally:
            subprocess.run(["umount", "-l", str(ro)])

    # an existing empty database file is a lost database, not a new one
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "parlor.sqlite").write_bytes(b"")
    code, lines = _start_fails(tmp_path, public_dir, empty)
    assert code == 1 and len(lines) == 1 and "empty" in lines[0], lines

    # a database from a newer Parlor is refused, not run on
    newer = tmp_path / "newer"
    srv = ParlorServer(newer, public_dir, name="newer").start()
    srv.stop()
    with sqlite3.connect(newer / "parlor.sqlite") as db:
        db.execute("INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
    code, lines = _start_fails(tmp_path, public_dir, newer)
    # 3: a service manager should not restart it (the unit's RestartPreventExitStatus)
    assert code == 3 and len(lines) == 1 and "newer version" in lines[0], lines
    assert "v99-from-the-future" in lines[0], "the version it has is named"
    assert "parlor-restore" in lines[0], "a rollback's way out is named"


def test_a_second_server_on_a_data_directory_updates_nothing(tmp_path, public_dir):
    """A newer binary started by mistake beside a running older server updated its
    database, then found the directory taken: the older server could never start again."""
    data = tmp_path / "shared"
    srv = ParlorServer(data, public_dir, name="older").start()
    try:
        with sqlite3.connect(data / "parlor.sqlite") as db:  # as an older version's database is
            db.execute("DELETE FROM grdb_migrations WHERE identifier = 'v14-former-senders'")
        code, lines = _start_fails(tmp_path, public_dir, data)
        assert code == 1 and len(lines) == 1 and "another parlor serve is using" in lines[0], lines
        with sqlite3.connect(data / "parlor.sqlite") as db:
            left = db.execute("SELECT count(*) FROM grdb_migrations WHERE identifier = 'v14-former-senders'").fetchone()
        assert left == (0,), "the running server's database was updated under it"
    finally:
        srv.stop()

    # `parlor admin` never updates it either, running server or not
    p = subprocess.run([str(PARLOR_BIN), "admin", "users", "--data", str(data)], capture_output=True, text=True, timeout=30)
    assert p.returncode == 3 and "older than this parlor" in p.stderr and "v14-former-senders" in p.stderr, p.stderr

    # the server's own start does, and says so before and after
    srv.start()
    srv.stop()
    assert any("updating the database" in line and "v14-former-senders" in line for line in srv.lines), srv.lines
    assert any("database updated" in line for line in srv.lines)


def test_a_bad_postgres_store_is_one_clear_line(tmp_path, public_dir, postgres):
    def start(url, env=False):
        store = [] if env else ["--store", url]
        out = subprocess.run([str(PARLOR_BIN), "serve", "--host", "127.0.0.1", "--port", "0", "--data",
                              str(tmp_path / "data"), "--public", str(public_dir), *store],
                             capture_output=True, text=True, timeout=30,
                             env={**os.environ, "PARLOR_STORE": url} if env else None)
        return out.returncode, [line for line in (out.stdout + out.stderr).splitlines() if line.strip()]

    # nothing listens there: the reason, and never the URL's password
    code, lines = start(f"postgres://parlor:hunter2@127.0.0.1:{postgres.port + 1}/nowhere")
    assert code == 1 and len(lines) == 1 and "cannot open the PostgreSQL store" in lines[0], lines
    assert "hunter2" not in lines[0]

    # a schema from a newer Parlor is refused, untouched
    url = postgres.new_database()
    srv = ParlorServer(tmp_path / "data", public_dir, name="pg-newer", store_url=url).start()
    srv.stop()
    database = url.rsplit("/", 1)[1]
    postgres.sql("INSERT INTO parlor_schema (version) VALUES (99)", database)
    code, lines = start(url, env=True)  # PARLOR_STORE, as a unit's environment file gives it
    assert code == 3 and len(lines) == 1 and "newer version" in lines[0] and "schema 99" in lines[0], lines
    assert postgres.sql("SELECT max(version) FROM parlor_schema", database) == "99"


@pytest.mark.transport_only
def test_serving_files_keeps_no_memory(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)

    def burst(n):
        for i in range(n):
            path = ("/index.html", "/health", "/nope", "/apps/index.json")[i % 4]
            conn.request("GET", path)
            conn.getresponse().read()

    burst(2000)  # warm up allocators and caches
    before = rss_kib(server.proc.pid)
    burst(20000)
    grown = rss_kib(server.proc.pid) - before
    conn.close()
    assert grown < 2048, f"RSS grew by {grown} KiB over 20,000 requests"
    # every response was written and forgotten: no record is left behind
    assert metrics(server)["parlor_http_pending_responses"][()] == 0


def metrics(server) -> dict:
    """/metrics parsed: {name: {labels tuple: value}}."""
    from prometheus_client.parser import text_string_to_metric_families
    status, h, body = http_get(server, "/metrics")
    assert status == 200 and h["content-type"].startswith("text/plain"), (status, h)
    out: dict = {}
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            out.setdefault(sample.name, {})[tuple(sorted(sample.labels.items()))] = sample.value
    return out


async def test_metrics_count_what_an_operator_watches(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        cid, _ = await env.conversation(ana)
        await ana.subscribe(cid)
        for i in range(5):
            await ana.send_text(cid, f"m{i}")
        await ana.expect_error("send", "not_member", conversationId="cnope", clientId="x",
                               message={"kind": "text", "text": "x"})
        m = metrics(server)
        assert m["parlor_connections"][()] >= 1
        assert m["parlor_subscriptions"][()] >= 1
        assert m["parlor_messages_stored_total"][()] >= 5
        assert m["parlor_requests_total"][(("outcome", "ok"), ("type", "send"))] >= 5
        assert m["parlor_requests_total"][(("outcome", "not_member"), ("type", "send"))] >= 1
        assert m["parlor_ack_latency_seconds_count"][()] >= 6
        assert m["parlor_engine_batch_size_count"][()] >= 1
        # what waits in the engine's queue, not the last batch's size: 0 once idle (an
        # alert on "> 0" fired for good after the first request)
        assert m["parlor_engine_queue_depth"][()] == 0
    # not through the proxy: a forwarded request does not see them
    assert http_get(server, "/metrics", headers={"X-Forwarded-For": "203.0.113.9"})[0] == 404


def test_threads_carry_their_names_for_top(server):
    """`top -H` tells an operator which part is busy (deploy/README.md, troubleshooting):
    each thread of the server carries its name where the system shows it."""
    names = {Path(f"/proc/{server.proc.pid}/task/{t}/comm").read_text().strip()
             for t in os.listdir(f"/proc/{server.proc.pid}/task")}
    assert {"parlor-service", "parlor-engine"} <= names, names
    if server.store_url is None:  # SQLite: the WAL's syncs have their own threads
        assert {"parlor-sync-0", "parlor-sync-1"} <= names, names


def test_version():
    out = subprocess.run([str(PARLOR_BIN), "--version"], capture_output=True, text=True, timeout=10)
    # the release, and the database versions it writes: a rollback's binary is told apart
    assert out.returncode == 0 and re.fullmatch(r"\d+\.\d+\.\d+ \(SQLite v\d+-[a-z-]+, PostgreSQL schema \d+\)",
                                                 out.stdout.strip()), out.stdout


@pytest.mark.parametrize("ids,kind,rooms", [("ordered", "text", 1), ("random", "text", 1), ("ordered", "move", 20)])
def test_bench_engine_stores_every_send_and_says_what_it_wrote(ids, kind, rooms):
    """`parlor bench-engine` (docs/BENCHMARKS.md) runs end to end with either kind of
    client id, texts or game moves taking turns in rooms: a refused send (a move on a
    stale session version, say) would stop it with an error."""
    out = subprocess.run([str(PARLOR_BIN), "bench-engine", "--count", "300", "--batch", "16", "--client-ids", ids,
                          "--kind", kind, "--rooms", str(rooms)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    where = "1 room" if rooms == 1 else f"{rooms} rooms"
    assert f"engine: 300 {kind} sends in {where}, batches of 16 (WAL, fdatasync per batch)" in out.stdout
    assert f"({ids} client ids)" in out.stdout


def test_settings_from_environment_and_file_and_json_logs(tmp_path, public_dir):
    conf = tmp_path / "parlor.json"
    conf.write_text(json.dumps({"log-format": "json", "log-level": "debug", "min-free-disk-mb": 1}))
    srv = ParlorServer(tmp_path / "data", public_dir, name="settings")
    command = srv.command
    srv.command = lambda: ["env", f"PARLOR_CONFIG={conf}", "PARLOR_MAX_CONNECTIONS_PER_IP=1", *command()]
    srv.start()
    try:
        from test_security import ws_handshake
        status, first = ws_handshake(srv.port, source="127.0.0.2")
        assert status == 101
        status, second = ws_handshake(srv.port, source="127.0.0.2")  # over PARLOR_MAX_CONNECTIONS_PER_IP
        first.close()
        second.close()
        assert status is None
    finally:
        srv.stop()
    logged = [line for line in srv.lines if line.startswith("{")]
    assert logged and all(json.loads(line)["level"] for line in logged)
    # lws's own start-up lines (at debug) come through swift-log too
    assert any(json.loads(line).get("source") == "lws" for line in logged), "lws lines bypass swift-log"
    assert not [line for line in srv.lines if line.startswith("[20")], "a line in lws's own format"


def test_a_one_byte_close_frame_is_a_protocol_error(server):
    # RFC 6455 5.5.1: a close payload is empty or starts with a two-byte code.
    # (Unmasked frames, oversized control frames and a close reason in bad UTF-8 are
    # decided inside Debian's libwebsockets 4.1.6 parser, before Parlor sees them.)
    import struct
    from rawws import ws_handshake
    status, _, s = ws_handshake(server.port)
    assert status == 101
    with s:
        mask = os.urandom(4)
        s.sendall(bytes([0x88, 0x81]) + mask + bytes([0x03 ^ mask[0]]))
        frame = s.recv(64)
    assert frame[0] == 0x88 and struct.unpack(">H", frame[2:4])[0] == 1002, frame


async def test_a_silent_peer_is_pinged_then_closed_and_one_that_answers_stays(server_factory):
    # The keepalive is the server's own sweep (lws's per-connection timers cost a walk
    # of a list of every connection on each pong). With --keepalive-seconds 1: a ping
    # after 1 s of silence, a close (4009) after 2 s without an answer.
    import struct
    from rawws import read_until, ws_handshake
    srv = server_factory(["--keepalive-seconds", "1"])
    async with Env(srv) as env:
        alive = await env.register("Ana")  # its library answers pings by itself
        def silent_peer():  # blocking: on a thread, so Ana's client keeps answering
            status, _, s = ws_handshake(srv.port, timeout=8.0)
            assert status == 101
            with s:
                return read_until(s, lambda d: len(d) >= 2 and d.find(b"\x88") >= 0)
        data = await asyncio.to_thread(silent_peer)
        assert data.startswith(b"\x89\x02ka"), data
        close = data[data.find(b"\x88"):]
        assert struct.unpack(">H", close[2:4])[0] == 4009, data
        await asyncio.sleep(3.5)
        assert (await alive.call("conversations.list"))["conversations"] == []
    deadline = time.time() + 5  # the log pump reads the server's output on its own thread
    while not any("ws silent" in line for line in srv.lines) and time.time() < deadline:
        await asyncio.sleep(0.05)
    assert any("ws silent" in line for line in srv.lines), srv.log_tail()


def test_a_proxy_or_origin_that_can_match_nothing_is_refused_at_start(tmp_path, public_dir):
    """`--trusted-proxy 127.0.0.0/8` (a range) or `localhost` (a name) matched no
    peer and replaced the loopback defaults, so behind the proxy every person
    counted as one address for the per-address limits; `--allowed-origin` with a
    trailing slash matched no browser, so every handshake from that site was
    refused. Each now stops the start with one clear line, and nothing is made."""
    for flags, says in ((["--trusted-proxy", "127.0.0.0/8"], "is not an IP address"),
                        (["--trusted-proxy", "localhost"], "is not an IP address"),
                        (["--allowed-origin", "https://chat.example.org/"], "is not an origin")):
        data = tmp_path / "never"
        out = subprocess.run([str(PARLOR_BIN), "serve", "--host", "127.0.0.1", "--port", "0", "--data", str(data),
                              "--public", str(public_dir), *flags], capture_output=True, text=True, timeout=30)
        assert out.returncode != 0, flags
        assert says in out.stderr, (flags, out.stderr)
        assert not data.exists(), "refused before anything was made"


def test_a_port_taken_an_address_not_here_or_an_unreadable_certificate_stops_the_start_saying_why(tmp_path, public_dir):
    """A self-hoster's first start: a port another program holds said only "could not
    listen"; an address this machine does not have started anyway, logged "listening
    on" and listened nowhere (lws waits for the interface); a certificate path with a
    typo said "could not listen on 0.0.0.0:0". Each now stops the start (not 0) with
    the reason."""
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        for flags, says in ((["--host", "127.0.0.1", "--port", str(port)], f"could not listen on 127.0.0.1:{port}: Address already in use"),
                            (["--host", "198.51.100.7", "--port", "0"], "could not listen on 198.51.100.7:0: Cannot assign requested address"),
                            (["--host", "127.0.0.1", "--port", "0", "--tls-cert", str(tmp_path / "typo.pem"), "--tls-key", str(tmp_path / "typo.key")],
                             f"tls-cert {tmp_path / 'typo.pem'} cannot be read")):
            out = subprocess.run([str(PARLOR_BIN), "serve", "--data", str(tmp_path / "data"), "--public", str(public_dir), *flags],
                                 capture_output=True, text=True, timeout=30)
            assert out.returncode != 0, flags
            assert says in out.stderr, (flags, out.stderr)
            assert "listening on" not in out.stderr, (flags, out.stderr)
    finally:
        taken.close()


def test_what_a_client_sends_cannot_forge_or_color_a_log_line(server):
    """A refused Origin or path is logged quoted, with control characters escaped: a
    space and `by=shell` forged an audit line's field, and an escape byte reached the
    terminal of whoever read the log."""
    from rawws import ws_handshake

    start = len(server.lines)
    status, _, s = ws_handshake(server.port, origin="http://evil.example action=deactivate by=shell\x1b[2J")
    s.close()
    assert status == 403
    deadline = time.monotonic() + 5  # the log is read from the server's stderr by a thread
    while not (found := [l for l in server.lines[start:] if "origin not allowed" in l]):
        assert time.monotonic() < deadline, "the refusal was not logged"
        time.sleep(0.05)
    line = found[0]
    assert 'origin="http://evil.example action=deactivate by=shell\\u{1B}[2J"' in line, line
    assert "\x1b" not in line


async def test_many_connections_at_once_leave_no_lws_lines_in_an_info_log(server_factory):
    """lws writes a notice for many a connection's events: asked for at every level, 60
    connections at once filled the second's allowance and the log said "lws lines not
    written count=340" at WARNING. The notices (written at debug) are asked for only at
    debug (test_settings_from_environment_and_file_and_json_logs has them there)."""
    srv = server_factory(name="lws-quiet")
    async with Env(srv) as env:
        clients = await asyncio.gather(*(env.connect(f"burst{i}") for i in range(60)))
        for c in clients:
            await c.ws.close()
    # the sweep says a second's held-back lines within a second of it
    srv.wait_for_log(lambda line: "lws lines not written" in line, timeout=2.5)
    assert not [line for line in srv.lines if "source=lws" in line], [l for l in srv.lines if "source=lws" in l][:3]


def test_a_store_timeout_past_an_hour_is_refused_clearly(tmp_path, public_dir):
    """A deadline of 99,999,999,999 s crashed the server (its microseconds overflowed)."""
    for value in ("99999999999", "3601", "2"):
        out = subprocess.run([str(PARLOR_BIN), "serve", "--host", "127.0.0.1", "--port", "0", "--data", str(tmp_path / "d"),
                              "--public", str(public_dir), "--store", "postgresql://127.0.0.1:1/x",
                              "--store-timeout-seconds", value], capture_output=True, text=True, timeout=30)
        assert out.returncode == 64, (value, out.returncode, out.stderr)
        assert "store-timeout-seconds must be from 3 to 3600" in out.stderr, out.stderr
