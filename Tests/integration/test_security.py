"""What an attacker tried (issue 8): app pages opened top-level, uploads that hold
memory, replays that knock members offline, one address taking every connection,
files other local users can read, image bombs, and the smaller holes."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import socket
import ssl
import stat
import struct
import time
import zlib

import pytest

from client import Env
from rawws import read_until, ws_handshake as raw_ws_handshake
from conftest import run
from server import ParlorServer
from test_http import http_get, png_bytes, upload

MiB = 1024 * 1024


@pytest.fixture(scope="module")
def token(server):
    async def setup():
        async with Env(server) as env:
            return (await env.register("Uploader")).token

    return run(setup())


def ws_handshake(port, **kw):
    """(status, open socket) of a hand-written upgrade (see rawws.py)."""
    status, _, sock = raw_ws_handshake(port, **kw)
    return status, sock


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def png_header(w, h):
    """A PNG that announces w x h pixels in a few hundred bytes (an image bomb's header)."""
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" * 1000)) + chunk(b"IEND", b""))


# ------------------------------------------------------------------ 1. app pages


def test_every_app_response_is_sandboxed(server):
    status, h, _ = http_get(server, "/apps/testapp/index.html")
    assert status == 200
    assert h["content-security-policy"].startswith("sandbox allow-scripts;"), h
    assert "allow-same-origin" not in h["content-security-policy"]
    for path in ("/apps/testapp/manifest.json", "/apps/testapp/evil.svg", "/apps/testapp/app.js"):
        status, h, _ = http_get(server, path)
        assert status == 200, path
        assert h["content-security-policy"] == "default-src 'none'; sandbox", path
    # however the path is spelled, the file decides: the host's policy never reaches an app
    status, h, _ = http_get(server, "//apps//testapp/index.html")
    assert status == 404 or h["content-security-policy"].startswith("sandbox allow-scripts;")
    # the host page keeps its own policy, unsandboxed
    status, h, _ = http_get(server, "/")
    assert "sandbox" not in h["content-security-policy"]


def test_pages_may_not_ask_for_a_device(server):
    """No page of Parlor's uses the camera or location, and only the host page the
    microphone (voice messages), for itself alone: an app's page may not ask for any
    (a script that got in included)."""
    for path, microphone in (("/", "microphone=(self)"), ("/apps/testapp/index.html", "microphone=()")):
        status, h, _ = http_get(server, path)
        assert status == 200, path
        policy = h["permissions-policy"]
        for feature in ("camera=()", microphone, "geolocation=()"):
            assert feature in policy, (path, policy)


async def test_an_opaque_origin_cannot_open_the_socket(server):
    status, sock = ws_handshake(server.port, origin="null")
    sock.close()
    assert status == 403


def test_apps_served_from_their_own_origin(server_factory):
    srv = server_factory(extra_args=["--origin", "http://chat.test", "--apps-origin", "http://apps.test"])
    status, _, body = http_get(srv, "/client-config.json")
    assert status == 200 and json.loads(body) == {"appsOrigin": "http://apps.test"}
    _, h, _ = http_get(srv, "/")
    assert "frame-src 'self' http://apps.test" in h["content-security-policy"]

    apps = {"Host": "apps.test"}
    status, h, _ = http_get(srv, "/apps/testapp/index.html", headers=apps)
    assert status == 200
    assert "frame-ancestors 'self' http://chat.test" in h["content-security-policy"]
    assert http_get(srv, "/sdk/index.js", headers=apps)[0] == 200
    # nothing of the host's on the apps origin: no page, no health, no socket
    assert http_get(srv, "/", headers=apps)[0] == 404
    assert http_get(srv, "/index.html", headers=apps)[0] == 404
    status, sock = ws_handshake(srv.port, host="apps.test", origin="http://apps.test")
    sock.close()
    assert status == 403
    status, sock = ws_handshake(srv.port, host="chat.test", origin="http://apps.test")
    sock.close()
    assert status == 403
    status, sock = ws_handshake(srv.port, host="chat.test", origin="http://chat.test")
    sock.close()
    assert status == 101


# ------------------------------------------------------------------ 2. uploads


def _post_head(port, length, token=None):
    lines = ["POST /blobs HTTP/1.1", f"Host: 127.0.0.1:{port}", f"Content-Length: {length}",
             "Content-Type: image/png"]
    if token is not None:
        lines.append(f"Authorization: Bearer {token}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def _answered(data):
    """True once `data` holds a whole HTTP answer: its headers and the Content-Length
    bytes of body they announce (without one, the answer ends when the server closes)."""
    head, sep, body = data.partition(b"\r\n\r\n")
    if not sep:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value)
    return False


def _read_status(sock, timeout=5.0):
    """The status and the whole answer: read until it is complete or the server closes
    (not until `timeout`: a refused upload's connection may stay open for its body)."""
    sock.settimeout(timeout)
    data = read_until(sock, _answered)
    return int(data.split(b" ")[1]) if data.startswith(b"HTTP/1.1 ") else None, data


@pytest.mark.transport_only
@pytest.mark.parametrize("tok", [None, "not-a-real-token"])
def test_an_upload_without_a_valid_token_is_refused_at_its_headers(server, tok):
    # the headers alone: the answer comes without a byte of the body
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(_post_head(server.port, 5 * MiB - 1, tok))
        status, data = _read_status(s)
    assert status == 401, data
    assert b'"invalid_token"' in data


@pytest.mark.parametrize("size,tok,expected", [(5 * MiB + 512 * 1024, "token", 413), (2 * MiB, None, 401)])
def test_a_refused_upload_is_answered_while_its_body_is_still_coming(server, token, size, tok, expected):
    # a proxy (or browser) writes the whole body before it reads: it must read the
    # answer, not a reset connection (nginx made a 502 of Parlor's early 413)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(_post_head(server.port, size, token if tok else None))
        body = b"\x89PNG" + b"\0" * (size - 4)
        for i in range(0, size, 256 * 1024):
            s.sendall(body[i:i + 256 * 1024])
        status, data = _read_status(s)
    assert status == expected, data


@pytest.mark.transport_only
def test_trickled_uploads_hold_no_memory_and_are_cut_off(server, token):
    pid = server.proc.pid
    before = rss_kib(pid)
    socks = []
    try:
        # the server caps uploads per address: four at once, the fifth is refused;
        # which one is the fifth is the event loop's order of reading them, not ours
        for i in range(5):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            s.sendall(_post_head(server.port, 5 * MiB - 1, token) + b"\x89PNG")
            socks.append(s)
        answered, _, _ = select.select(socks, [], [], 5.0)
        assert len(answered) == 1, f"{len(answered)} of the 5 uploads were answered at once"
        status, data = _read_status(answered[0])
        assert status == 429, data
        # announcing 5 MiB each reserved nothing
        time.sleep(0.5)
        assert rss_kib(pid) - before < 8 * 1024
        # trickling: one byte a second is under the minimum rate; the server cuts the
        # uploads off after the grace period, with no answer but a closed connection
        deadline = time.monotonic() + 20
        open_socks = [s for s in socks if s is not answered[0]]
        replies = {s: b"" for s in open_socks}  # a cut-off upload gets no answer
        while open_socks and time.monotonic() < deadline:
            for s in list(open_socks):
                try:
                    s.sendall(b"x")
                    s.settimeout(0.01)
                    got = s.recv(4096)
                    if got == b"":
                        open_socks.remove(s)
                    replies[s] += got
                except (BrokenPipeError, ConnectionResetError):
                    open_socks.remove(s)
                except socket.timeout:
                    pass
            time.sleep(1)
        assert not open_socks, ("a trickling upload was never cut off; it was answered "
                                f"{[replies[s][:200] for s in open_socks]}")
    finally:
        for s in socks:
            s.close()
    # the log is read on its own thread: the line may come just after the close did
    assert any("upload cut off" in line and "too slow" in line
               for line in server.wait_for_log(lambda line: "upload cut off" in line and "too slow" in line))
    # and a real upload still works afterwards
    status, _, _, js = upload(server, png_bytes(), token)
    assert status == 201, js
    # no temporary file is left behind
    assert not [n for n in os.listdir(server.data_dir / "blobs") if n.endswith(".tmp")]


def test_one_account_holds_four_upload_slots_whatever_its_addresses(server, token):
    """Slow uploads of one account from several addresses held all 32 slots there are,
    so nobody else could upload: an account gets 4 at once, like an address."""
    socks = []
    try:
        for i in range(5):
            s = socket.socket()
            s.bind((f"127.0.0.{10 + i}", 0))
            s.settimeout(10)
            s.connect(("127.0.0.1", server.port))
            s.sendall(_post_head(server.port, 5 * MiB - 1, token) + b"\x89PNG")
            socks.append(s)
        answered, _, _ = select.select(socks, [], [], 5.0)
        assert len(answered) == 1, f"{len(answered)} of the 5 uploads were answered at once"
        status, data = _read_status(answered[0])
        assert status == 429 and b"too_many_uploads" in data, data
    finally:
        for s in socks:
            s.close()
    status, _, _, js = upload(server, png_bytes(rgb=(1, 2, 3)), token)
    assert status == 201, js


def test_image_bombs_are_refused(server, token):
    status, _, _, js = upload(server, png_header(20000, 20000), token)
    assert status == 413 and js["code"] == "image_too_large", js
    status, _, _, js = upload(server, png_header(9000, 9000), token)  # 81 MP: too many pixels
    assert status == 413 and js["code"] == "image_too_large", js
    status, _, _, js = upload(server, png_header(4000, 3000), token)  # a phone photo's size
    assert status == 201, js


# ------------------------------------------------------------------ 3. replays


async def test_text_is_limited_in_bytes(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        cid, _ = await env.conversation(ana)
        # 9,000 emoji are 36 KB: under the character limit, over the byte limit
        frame = {"type": "send", "id": "e1", "conversationId": cid, "clientId": "e1",
                 "message": {"kind": "text", "text": "😀" * 9000}}
        await ana.send_raw(json.dumps(frame, ensure_ascii=False).encode(), text=True)
        err = await ana.wait_for(lambda ev: ev.get("type") == "error" and ev.get("re") == "e1", timeout=5)
        assert err["code"] == "too_long" and err["field"] == "message.text", err


async def test_long_messages_cannot_knock_members_offline(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cid, _ = await env.conversation(ana, ben)
        # 160 texts of 30 KB: 4.8 MB, more than a connection may queue at once
        text = "€" * 9990
        for i in range(160):
            await ana.send_text(cid, text + str(i))
        # a member resuming from the start gets every one of them, in order, and stays
        late = await env.login(ben.token, "ben2")
        sub = await late.subscribe(cid, after_seq=0)
        assert sub["resync"] is False
        await late.wait_message(cid, seq=160, timeout=30)
        assert late.message_seqs(cid) == list(range(1, 161))
        assert not late.closed
        # live delivery follows the replay with no gap
        m = await ana.send_text(cid, "after the replay")
        await late.wait_message(cid, seq=m["seq"])
        # history pages stop at a byte budget, and say there is more
        page = await late.history(cid, limit=200)
        assert 0 < len(page["messages"]) < 161 and page["hasMore"] is True
        assert page["messages"][-1]["seq"] == m["seq"]
        assert not late.closed


# ------------------------------------------------------------------ 5. connections


@contextlib.contextmanager
def handshakes(port):
    """A function that opens a WebSocket handshake and returns its status, keeping every
    socket open until the block ends (they count against the limits under test)."""
    held = []

    def open_one(**kw):
        status, s = ws_handshake(port, **kw)
        held.append(s)
        return status

    try:
        yield open_one
    finally:
        for s in held:
            s.close()


def test_one_address_cannot_take_every_connection(server_factory):
    srv = server_factory(extra_args=["--max-connections-per-ip", "5"])
    with handshakes(srv.port) as handshake:
        for _ in range(5):
            assert handshake(source="127.0.0.2") == 101
        assert handshake(source="127.0.0.2") is None, "the sixth connection from one address was accepted"
        # another address is still served
        assert handshake(source="127.0.0.3") == 101
        # behind the trusted proxy (loopback), the forwarded address is what counts
        for i in range(6):
            assert handshake(headers=["X-Forwarded-For: 203.0.113.7"]) == (101 if i < 5 else 429)
    # closed connections are given back (once the server has seen them close)
    deadline = time.monotonic() + 5
    while True:
        status, s = ws_handshake(srv.port, source="127.0.0.2")
        s.close()
        if status == 101 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert status == 101


def test_new_connections_per_address_are_rate_limited(server_factory):
    srv = server_factory(extra_args=["--limit-new-connections", "2/2"])
    with handshakes(srv.port) as handshake:
        for _ in range(2):
            assert handshake(source="127.0.0.2") == 101
        assert handshake(source="127.0.0.2") is None, "a third new connection within the window was accepted"
        assert handshake(source="127.0.0.3") == 101  # another address is served
        # behind the trusted proxy (loopback), by the forwarded address: answered 429
        for i in range(3):
            assert handshake(headers=["X-Forwarded-For: 203.0.113.9"]) == (101 if i < 2 else 429)
        time.sleep(1.1)  # a token back (2 per 2 s)
        assert handshake(source="127.0.0.2") == 101, "the address was not let in again after its window"
    deadline = time.monotonic() + 3
    while not any("connections refused" in l and "limit=rate" in l for l in srv.lines):
        assert time.monotonic() < deadline, "the refusals were not logged"
        time.sleep(0.1)


def test_the_fd_limit_is_never_reached(tmp_path, public_dir):
    # 300 descriptors: the server keeps 256 in reserve and accepts at most 44 connections
    srv = ParlorServer(tmp_path / "data", public_dir, extra_args=["--max-connections-per-ip", "0"], name="fdlimit")
    command = srv.command
    srv.command = lambda: ["prlimit", "--nofile=300:300", *command()]  # prlimit execs: same pid
    srv.start()
    held = []
    try:
        accepted = 0
        for _ in range(80):
            status, s = ws_handshake(srv.port, source="127.0.0.2", timeout=2)
            held.append(s)
            accepted += status == 101
        assert 30 <= accepted <= 44, accepted
        # refusing is cheap: no accept() spinning on EMFILE
        cpu0 = cpu_seconds(srv.proc.pid)
        time.sleep(2)
        assert cpu_seconds(srv.proc.pid) - cpu0 < 0.3
        for s in held:
            s.close()
        held.clear()
        time.sleep(0.5)
        status, s = ws_handshake(srv.port, source="127.0.0.2")
        held.append(s)
        assert status == 101, "the server did not recover once connections closed"
    finally:
        for s in held:
            s.close()
        srv.stop()
    assert any("connections refused" in line for line in srv.lines)


# ------------------------------------------------------------------ 6. file modes


def test_data_is_private_whatever_the_umask(tmp_path, public_dir):
    old = os.umask(0o022)
    try:
        srv = ParlorServer(tmp_path / "parent", public_dir, name="umask")
        command = srv.command
        srv.command = lambda: [a if a != str(tmp_path / "parent") else str(tmp_path / "data-new") for a in command()]
        srv.start()
    finally:
        os.umask(old)
    try:
        async def up():
            async with Env(srv) as env:
                return (await env.register("Ana")).token
        tok = run(up())
        status, _, _, js = upload(srv, png_bytes(), tok)
        assert status == 201
    finally:
        srv.stop()
    data = tmp_path / "data-new"
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    for p in [data / "parlor.sqlite", *(data / "blobs").iterdir()]:
        mode = stat.S_IMODE(p.stat().st_mode)
        assert mode & 0o077 == 0, f"{p.name} is readable by others: {oct(mode)}"


# ------------------------------------------------------------------ 8. the smaller holes


def test_head_has_no_body_and_pipelining_survives(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        host = f"Host: 127.0.0.1:{server.port}\r\n"
        s.sendall(("HEAD /health HTTP/1.1\r\n" + host + "\r\n" + "GET /health HTTP/1.1\r\n" + host
                   + "Connection: close\r\n\r\n").encode())
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    responses = data.split(b"HTTP/1.1 ")[1:]
    assert len(responses) == 2, data
    first, second = responses
    assert first.startswith(b"200") and first.endswith(b"\r\n\r\n"), first
    assert second.startswith(b"200") and second.endswith(b'{"status":"ok"}'), second
    status, h, body = http_get(server, "/index.html", method="HEAD")
    assert status == 200 and body == b""


async def test_deep_json_in_app_storage_is_answered(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        deep = {"a": 1}
        for _ in range(40):
            deep = {"d": deep}
        err = await ana.expect_error("appdata.set", "bad_json", appId="testapp", key="k", value=deep)
        assert err["re"], "the error must answer the request"


async def test_an_invite_can_be_looked_at_before_joining(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        r = await ana.call("conversations.create", title="Book club")
        cid, invite = r["conversation"]["id"], r["invite"]
        peek = await ben.call("invites.peek", invite=invite)
        assert peek["conversation"] == {"id": cid, "title": "Book club", "memberCount": 1}
        await ana.subscribe(cid)
        # looking joins nothing and tells nobody
        await ben.expect_error("subscribe", "not_member", conversationId=cid)
        assert not [e for e in ana.events if e.get("type") == "member"]
        await ben.expect_error("invites.peek", "invalid_invite", invite="nope")


def _tls_server(server_factory, tmp_path):
    from test_tls import _self_signed
    cert, key = _self_signed(tmp_path)
    return server_factory(extra_args=["--tls-cert", str(cert), "--tls-key", str(key)])


def test_tls_offers_forward_secret_aead_only_and_hsts(server_factory, tmp_path):
    srv = _tls_server(server_factory, tmp_path)

    def handshake(ciphers):
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        ctx.maximum_version = ssl.TLSVersion.TLSv1_2
        ctx.set_ciphers(ciphers)
        try:
            with socket.create_connection(("127.0.0.1", srv.port), timeout=5) as raw:
                with ctx.wrap_socket(raw) as tls:
                    return tls.cipher()[0]
        except (ssl.SSLError, ConnectionResetError):
            return None

    assert handshake("AES128-SHA:AES256-GCM-SHA384") is None, "static RSA key exchange offered"
    assert handshake("ECDHE-RSA-AES128-SHA:ECDHE-RSA-AES256-SHA") is None, "CBC suites offered"
    assert handshake("ECDHE-RSA-AES128-GCM-SHA256") == "ECDHE-RSA-AES128-GCM-SHA256"

    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    import urllib.request
    for path in ("/health", "/"):
        with urllib.request.urlopen(f"https://127.0.0.1:{srv.port}{path}", context=ctx, timeout=10) as r:
            assert r.headers["strict-transport-security"].startswith("max-age="), path


@pytest.mark.transport_only
def test_the_origin_check_minds_the_scheme(server_factory, tmp_path):
    srv = _tls_server(server_factory, tmp_path)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE

    def status_for(origin):
        raw = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
        with ctx.wrap_socket(raw) as s:
            key = base64.b64encode(os.urandom(16)).decode()
            s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\nUpgrade: websocket\r\n"
                       f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                       f"Sec-WebSocket-Protocol: parlor.v1\r\nOrigin: {origin}\r\n\r\n").encode())
            data = s.recv(4096)
        return int(data.split(b" ")[1])

    assert status_for(f"http://127.0.0.1:{srv.port}") == 403
    assert status_for(f"https://127.0.0.1:{srv.port}") == 101
